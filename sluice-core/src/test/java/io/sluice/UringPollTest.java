package io.sluice;

import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.sluice.internal.uring.Uapi;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Files opened with {@link SluiceOption#SQPOLL} and {@link SluiceOption#IOPOLL}: their own rings, or a clear refusal. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UringPollTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void available() {
        assertTrue(Engine.IO_URING.isAvailable(), () -> "" + Engine.IO_URING.unavailabilityCause());
    }

    private static void assertPattern(byte[] actual, long position) {
        PositionalFileContract.assertPattern(actual, actual.length, position);
    }

    private static UringPool poolOf(PositionalFile f) {
        return ((UringFile) f).pool();
    }

    @Test
    void sqpollFilesUseTheirOwnRingAndTheDefaultRingsStayPlain() throws Exception {
        Path p = Pattern.file(dir.resolve("f"), 4 << 20);
        try (PositionalFile f = PositionalFile.open(p, Engine.IO_URING, WRITE, SluiceOption.SQPOLL);
             PositionalFile plain = PositionalFile.open(p, Engine.IO_URING)) {
            UringPool sq = poolOf(f);
            assertNotSame(UringPool.get(), sq);
            assertSame(UringPool.get(), poolOf(plain));
            assertEquals(1, sq.lanes.length, "one ring, one kernel thread");
            assertTrue((sq.lanes[0].ring.flags() & Uapi.IORING_SETUP_SQPOLL) != 0, "the kernel took SQPOLL");
            for (UringLane l : UringPool.get().lanes) {
                assertEquals(0, l.ring.flags() & (Uapi.IORING_SETUP_SQPOLL | Uapi.IORING_SETUP_IOPOLL),
                        "the default rings are unchanged");
            }
            try (PositionalFile again = PositionalFile.open(p, Engine.IO_URING, SluiceOption.SQPOLL)) {
                assertSame(sq, poolOf(again), "one SQPOLL pool for the JVM");
            }
            exercise(f, p);
        }
    }

    @Test
    void aSleepingPollerIsWokenByTheNextSubmission() throws Exception {
        Path p = Pattern.file(dir.resolve("f"), 1 << 20);
        try (PositionalFile f = PositionalFile.open(p, Engine.IO_URING, SluiceOption.SQPOLL);
             Arena arena = Arena.ofConfined()) {
            var ring = poolOf(f).lanes[0].ring;
            MemorySegment buf = arena.allocate(4096);
            for (int round = 0; round < 3; round++) {
                // sq_thread_idle is 50 ms: after that the kernel thread sleeps and says so in the SQ flags
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (!ring.sqNeedsWakeup()) {
                    if (System.nanoTime() > deadline) {
                        fail("the SQPOLL thread never went to sleep");
                    }
                    Thread.sleep(10);
                }
                long pos = 4096L * (round + 1) + round;
                assertEquals(4096, f.read(buf, pos), "a read after the poller went to sleep");
                assertPattern(buf.toArray(ValueLayout.JAVA_BYTE), pos);
            }
        }
    }

    @Test
    void sqpollBatchesFromOneThreadAndCallsFromMany() throws Exception {
        Path p = Pattern.file(dir.resolve("f"), 8 << 20);
        try (PositionalFile f = PositionalFile.open(p, Engine.IO_URING, SluiceOption.SQPOLL);
             Arena arena = Arena.ofShared()) {
            IoBatch batch = IoBatch.create(32);
            MemorySegment[] bufs = new MemorySegment[32];
            for (int i = 0; i < 32; i++) {
                bufs[i] = arena.allocate(4096, 4096);
            }
            SplittableRandom rnd = new SplittableRandom(7);
            for (int round = 0; round < 200; round++) {
                batch.clear();
                long[] at = new long[32];
                for (int i = 0; i < 32; i++) {
                    at[i] = rnd.nextLong((8 << 20) - 4096);
                    batch.read(f, bufs[i], at[i]);
                }
                assertEquals(0, batch.submit());
                for (int i = 0; i < 32; i++) {
                    assertEquals(4096, batch.result(i));
                    assertPattern(bufs[i].toArray(ValueLayout.JAVA_BYTE), at[i]);
                }
            }
            List<Future<?>> all = new ArrayList<>();
            try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int t = 0; t < 32; t++) {
                    long seed = t;
                    all.add(ex.submit(() -> {
                        SplittableRandom r = new SplittableRandom(seed);
                        byte[] b = new byte[3000];
                        for (int i = 0; i < 300; i++) {
                            long pos = r.nextLong((8 << 20) - b.length);
                            f.readFully(b, 0, b.length, pos);
                            assertPattern(b, pos);
                        }
                        return null;
                    }));
                }
                for (Future<?> fu : all) {
                    fu.get(50, TimeUnit.SECONDS);
                }
            }
        }
    }

    /** Blocking, vectored, batched and asynchronous reads and writes, force and size, all checked. */
    private static void exercise(PositionalFile f, Path p) throws Exception {
        byte[] heap = new byte[100_000];
        f.readFully(heap, 0, heap.length, 12_345);
        assertPattern(heap, 12_345);
        try (Arena arena = Arena.ofShared()) {
            MemorySegment seg = arena.allocate(8192);
            assertEquals(8192, f.read(seg, 777));
            assertPattern(seg.toArray(ValueLayout.JAVA_BYTE), 777);
            ByteBuffer a = ByteBuffer.allocate(100);
            ByteBuffer b = ByteBuffer.allocateDirect(5000);
            assertEquals(5100, PositionalFileContract.readVectorFully(f, 99, a, b));
            assertPattern(a.array(), 99);
            assertPattern(PositionalFileContract.bytesOf(b, 0, 5000), 199);

            List<CompletableFuture<Integer>> futures = new ArrayList<>();
            List<MemorySegment> into = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                MemorySegment m = arena.allocate(4096);
                into.add(m);
                futures.add(f.readAsync(m, i * 10_000L));
            }
            for (int i = 0; i < 64; i++) {
                assertEquals(4096, futures.get(i).get(20, TimeUnit.SECONDS));
                assertPattern(into.get(i).toArray(ValueLayout.JAVA_BYTE), i * 10_000L);
            }

            if (f.isWritable()) {
                byte[] data = Pattern.bytes(1 << 30, 70_000);
                f.writeFully(data, 0, data.length, 1000);
                MemorySegment tail = arena.allocate(3);
                tail.fill((byte) 5);
                MemorySegment nat = arena.allocate(data.length);
                nat.copyFrom(MemorySegment.ofArray(data));
                assertEquals(70_003, f.write(80_000, nat, tail), "native memory goes in one WRITEV");
                f.force(true);
                byte[] disk = Files.readAllBytes(p);
                assertPattern(java.util.Arrays.copyOfRange(disk, 1000, 71_000), 1 << 30);
                assertPattern(java.util.Arrays.copyOfRange(disk, 80_000, 150_000), 1 << 30);
                assertEquals(5, disk[150_002]);
                assertEquals(4 << 20, f.size());
            }
        }
    }

    @Test
    void pollingOptionsAreCheckedAtOpen() throws IOException {
        Path p = Pattern.file(dir.resolve("f"), 4096);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PositionalFile.open(p, Engine.IO_URING, SluiceOption.IOPOLL));
        assertTrue(e.getMessage().contains("DIRECT"), e.getMessage());
        for (Engine other : new Engine[] {Engine.CLASSIC, Engine.CHANNEL, Engine.MMAP}) {
            var u = assertThrows(UnsupportedOperationException.class,
                    () -> PositionalFile.open(p, other, SluiceOption.SQPOLL));
            assertTrue(u.getMessage().contains("SQPOLL") && u.getMessage().contains(other.name()), u.getMessage());
            assertThrows(UnsupportedOperationException.class,
                    () -> PositionalFile.open(p, other, SluiceOption.DIRECT, SluiceOption.IOPOLL));
        }
    }

    /**
     * IOPOLL works only where the block device has poll queues. Either opening says clearly that it has none, and the
     * device's own sysfs setting (when it can be read) agrees, or the file works and its bytes are right.
     */
    @Test
    void iopollEitherWorksOrOpenSaysTheDeviceCannotPoll() throws Exception {
        Path p = Pattern.file(dir.resolve("f"), 4 << 20);
        String setting = IopollCheck.pollSetting(p);
        for (SluiceOption[] extra : new SluiceOption[][] {{}, {SluiceOption.SQPOLL}}) {
            PositionalFile f;
            try {
                List<java.nio.file.OpenOption> opts = new ArrayList<>(List.of(WRITE, SluiceOption.DIRECT,
                        SluiceOption.IOPOLL));
                opts.addAll(List.of(extra));
                f = PositionalFile.open(p, Engine.IO_URING, opts.toArray(java.nio.file.OpenOption[]::new));
            } catch (IOException e) {
                String m = e.getMessage();
                assertTrue(m.startsWith("IOPOLL not supported by the device of " + p + ": "), m);
                assertTrue(m.contains("io_poll = 0") || m.contains("EOPNOTSUPP"), m);
                if (setting != null) {
                    assertTrue(setting.endsWith("= 0"), "refused although " + setting);
                }
                assertEquals(4 << 20, Files.size(p), "the file is untouched");
                continue;
            }
            try (f) {
                if (setting != null) {
                    assertTrue(setting.endsWith("= 1"), "polled I/O worked although " + setting);
                }
                int block = (int) Files.getFileStore(p).getBlockSize();
                try (Arena arena = Arena.ofShared()) {
                    MemorySegment buf = arena.allocate(16L * block, 4096);
                    assertEquals(16L * block, f.read(buf, 3L * block));
                    assertPattern(buf.toArray(ValueLayout.JAVA_BYTE), 3L * block);
                    assertEquals(16 * block, (int) f.readAsync(buf, 5L * block).get(20, TimeUnit.SECONDS));
                    assertPattern(buf.toArray(ValueLayout.JAVA_BYTE), 5L * block);
                    buf.fill((byte) 3);
                    assertEquals(16L * block, f.write(buf, 0));
                    f.force(false);
                }
            }
            byte[] disk = Files.readAllBytes(p);
            assertEquals(3, disk[0]);
            Pattern.file(p, 4 << 20); // back to the pattern for the next round
        }
    }

    /** The read probe alone, as on a device whose sysfs setting cannot be read: it must agree with the setting. */
    @Test
    void thePolledReadProbeAgreesWithTheDevice() throws Exception {
        Path p = Pattern.file(dir.resolve("f"), 1 << 20);
        String setting = IopollCheck.pollSetting(p);
        int block = (int) Files.getFileStore(p).getBlockSize();
        UringPool polled = UringPool.polled(Uapi.IORING_SETUP_IOPOLL);
        try (PositionalFile f = PositionalFile.open(p, Engine.IO_URING, SluiceOption.DIRECT)) {
            try {
                IopollCheck.probeRead(p, polled.lane(), ((UringFile) f).fd(), block, null);
                if (setting != null) {
                    assertTrue(setting.endsWith("= 1"), "a polled read worked although " + setting);
                }
            } catch (IOException e) {
                assertTrue(e.getMessage().startsWith("IOPOLL not supported by the device of " + p + ": a polled read "
                        + "returned EOPNOTSUPP"), e.getMessage());
                if (setting != null) {
                    assertTrue(setting.endsWith("= 0"), "refused although " + setting);
                }
            }
        }
    }

    /**
     * A ring the kernel refuses is an IOException with its errno, never a plain ring instead: SQPOLL with
     * DEFER_TASKRUN (which needs SINGLE_ISSUER) is refused by every kernel, however many optional flags are dropped.
     */
    @Test
    void aPolledRingTheKernelRefusesIsAnErrorNamingIt() {
        int flags = Uapi.IORING_SETUP_SQPOLL | Uapi.IORING_SETUP_DEFER_TASKRUN;
        for (int attempt = 0; attempt < 2; attempt++) { // not cached: the second open asks the kernel again
            IOException e = assertThrows(IOException.class, () -> UringPool.polled(flags));
            assertTrue(e.getMessage().startsWith("io_uring_setup(") && e.getMessage().contains("EINVAL")
                    && e.getMessage().contains("flags=0x" + Integer.toHexString(flags) + ")"), e.getMessage());
        }
    }
}
