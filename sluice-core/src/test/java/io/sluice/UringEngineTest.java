package io.sluice;

import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sluice.internal.Native;
import io.sluice.internal.uring.Ring;
import io.sluice.internal.uring.Uapi;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What only the io_uring engine has: rings, back-pressure, registered resources, O_DIRECT, async completion. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UringEngineTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void available() {
        assertTrue(Engine.IO_URING.isAvailable(), () -> "" + Engine.IO_URING.unavailabilityCause());
    }

    private static void assertPattern(byte[] actual, long position) {
        PositionalFileContract.assertPattern(actual, actual.length, position);
    }

    @Test
    void aRingFilledPastItsSizeAppliesBackPressureAndLosesNothing() throws Exception {
        Path p = Pattern.file(dir.resolve("f"), 4 << 20);
        UringPool small = new UringPool(1, 8, 2);
        try (Arena arena = Arena.ofShared();
             PositionalFile f = UringFile.open(p, OpenSpec.parse(), small)) {
            assertEquals(8, small.lanes[0].slots(), "8 SQ entries, 16 CQ entries: 8 requests in flight at most");
            IoBatch batch = IoBatch.create(500);
            MemorySegment[] bufs = new MemorySegment[500];
            SplittableRandom rnd = new SplittableRandom(1);
            long[] pos = new long[500];
            for (int i = 0; i < 500; i++) {
                bufs[i] = arena.allocate(4096, 4096);
                pos[i] = rnd.nextLong((4 << 20) - 4096);
                batch.read(f, bufs[i], pos[i]);
            }
            assertEquals(0, batch.submit());
            for (int i = 0; i < 500; i++) {
                assertEquals(4096, batch.result(i));
                assertPattern(bufs[i].toArray(ValueLayout.JAVA_BYTE), pos[i]);
            }
            // and 16 threads fighting over the 8 slots with blocking reads
            try (ExecutorService pool = Executors.newFixedThreadPool(16)) {
                List<Future<?>> all = new ArrayList<>();
                for (int t = 0; t < 16; t++) {
                    long seed = t;
                    all.add(pool.submit(() -> {
                        SplittableRandom r = new SplittableRandom(seed);
                        byte[] b = new byte[3000];
                        for (int k = 0; k < 500; k++) {
                            long at = r.nextLong((4 << 20) - 3000);
                            f.readFully(b, 0, b.length, at);
                            assertPattern(b, at);
                        }
                        return null;
                    }));
                }
                for (Future<?> x : all) {
                    x.get();
                }
            }
            assertEquals(0, small.lanes[0].pending());
        } finally {
            small.close();
        }
    }

    @Test
    void completionsThatOverflowTheQueueAreKeptByTheKernelAndReaped() throws IOException {
        try (Ring ring = Ring.create(4, 0)) {
            MemorySegment state = Native.newCallState();
            int total = ring.cqEntries() * 3;
            long[] seen = new long[total];
            int prepared = 0;
            int got = 0;
            boolean overflowSeen = false;
            while (got < total) {
                // Submit NOPs without draining while the kernel takes them: completions beyond the CQ's size go to
                // the kernel's overflow backlog (IORING_FEAT_NODROP), to be flushed when we wait.
                while (prepared < total && ring.sqSpace() > 0) {
                    ring.prep(ring.nextSqe(), Uapi.IORING_OP_NOP, -1, false, 0, 0, 0, prepared++);
                }
                int rc = ring.submit(state, 0);
                overflowSeen |= ring.cqOverflowed();
                if (rc >= 0 && ring.unsubmitted() == 0 && prepared < total) {
                    continue;
                }
                if (ring.cqReady() == 0) {
                    int w = ring.await(state, 1);
                    assertTrue(w >= 0 || w == -4, "await: " + w);
                }
                int[] n = {got};
                ring.drain((ud, res, fl) -> seen[n[0]++] = ud);
                got = n[0];
            }
            assertTrue(overflowSeen, "the CQ should have overflowed into the kernel's backlog");
            java.util.Arrays.sort(seen);
            for (int i = 0; i < total; i++) {
                assertEquals(i, seen[i], "every completion exactly once");
            }
            assertEquals(0, ring.cqDropped());
        }
    }

    @Test
    void manyPlatformAndVirtualThreadsAtOnce() throws Exception {
        Path p = Pattern.file(dir.resolve("f"), 8 << 20);
        AtomicLong reads = new AtomicLong();
        try (PositionalFile f = PositionalFile.open(p, Engine.IO_URING);
             ExecutorService platform = Executors.newFixedThreadPool(8);
             ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> all = new ArrayList<>();
            for (int t = 0; t < 2008; t++) {
                long seed = t;
                Runnable work = () -> {
                    SplittableRandom r = new SplittableRandom(seed);
                    ByteBuffer direct = ByteBuffer.allocateDirect(4096);
                    for (int k = 0; k < (seed < 8 ? 2000 : 50); k++) {
                        long at = r.nextLong((8 << 20) - 4096);
                        try {
                            f.readFully(direct.clear(), at);
                        } catch (IOException e) {
                            throw new RuntimeException(e);
                        }
                        byte[] b = new byte[4096];
                        direct.flip().get(b);
                        assertPattern(b, at);
                        reads.incrementAndGet();
                    }
                };
                all.add((t < 8 ? platform : virtual).submit(work));
            }
            for (Future<?> x : all) {
                x.get();
            }
        }
        assertEquals(8 * 2000 + 2000 * 50, reads.get());
    }

    @Test
    void closeWaitsForRequestsInFlightAndLaterCallsSeeItClosed() throws Exception {
        Path p = Pattern.file(dir.resolve("f"), 4 << 20);
        try (Arena arena = Arena.ofShared()) {
            PositionalFile f = PositionalFile.open(p, Engine.IO_URING);
            List<CompletableFuture<Integer>> futures = new ArrayList<>();
            List<MemorySegment> bufs = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                MemorySegment b = arena.allocate(8192, 4096);
                bufs.add(b);
                futures.add(f.readAsync(b, i * 8192L));
            }
            f.close();
            for (int i = 0; i < 200; i++) {
                // Started before the close: each completes, with its bytes, before close returned.
                assertTrue(futures.get(i).isDone(), "close returned while request " + i + " was in flight");
                assertEquals(8192, futures.get(i).get());
                assertPattern(bufs.get(i).toArray(ValueLayout.JAVA_BYTE), i * 8192L);
            }
            assertThrows(ClosedChannelException.class, () -> f.read(ByteBuffer.allocateDirect(10), 0));
            CompletableFuture<Integer> late = f.readAsync(arena.allocate(10), 0);
            Exception e = assertThrows(Exception.class, late::join);
            assertTrue(e.getCause() instanceof ClosedChannelException, e.toString());
        }
    }

    @Test
    void closingTheRingsWaitsForTheirRequests() throws Exception {
        Path p = Pattern.file(dir.resolve("f"), 4 << 20);
        UringPool own = new UringPool(2, 16, 2);
        PositionalFile f = UringFile.open(p, OpenSpec.parse(), own);
        Arena arena = Arena.ofShared();
        List<CompletableFuture<Integer>> futures = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            futures.add(f.readAsync(arena.allocate(65536, 4096), i * 65536L));
        }
        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        f.close();
        own.close();
        for (var lane : own.lanes) {
            assertEquals(0, lane.pending());
        }
        arena.close();
    }

    @Test
    void filesAndBounceBuffersAreRegistered() throws IOException {
        Path p = Pattern.file(dir.resolve("f"), 1 << 20);
        try (PositionalFile f = PositionalFile.open(p, Engine.IO_URING)) {
            assertTrue(((UringFile) f).registeredSlot() >= 0, "the file is in the rings' fixed table");
            byte[] heap = new byte[200_000]; // through READ_FIXED chunks of registered memory, several of them
            f.readFully(heap, 0, heap.length, 12345);
            assertPattern(heap, 12345);
        }
        try (PositionalFile a = PositionalFile.open(p, Engine.IO_URING);
             PositionalFile b = PositionalFile.open(p, Engine.IO_URING)) {
            assertTrue(((UringFile) a).registeredSlot() != ((UringFile) b).registeredSlot());
        }
    }

    @Test
    void directIoChecksAlignmentBeforeAnyIo() throws IOException {
        Path p = Pattern.file(dir.resolve("f"), 1 << 20);
        long block = Files.getFileStore(p).getBlockSize();
        try (Arena arena = Arena.ofConfined();
             PositionalFile f = PositionalFile.open(p, Engine.IO_URING, SluiceOption.DIRECT)) {
            MemorySegment buf = arena.allocate(2 * block, 4096);
            assertEquals(2 * block, f.read(buf, 4 * block));
            assertPattern(buf.toArray(ValueLayout.JAVA_BYTE), 4 * block);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> f.read(buf, 100));
            assertTrue(e.getMessage().contains("O_DIRECT") && e.getMessage().contains(String.valueOf(block)),
                    e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> f.read(buf.asSlice(1, block), 0));
            assertThrows(IllegalArgumentException.class, () -> f.read(buf.asSlice(0, 1000), 0));
            byte[] heap = new byte[(int) block];
            assertEquals(block, f.read(heap, block), "heap memory goes through aligned registered chunks");
            assertPattern(heap, block);
        }
        assertThrows(UnsupportedOperationException.class,
                () -> PositionalFile.open(p, Engine.CHANNEL, SluiceOption.DIRECT));
    }

    @Test
    void vectoredDirectIoChecksEveryPieceBeforeAnyIo() throws IOException {
        Path p = Pattern.file(dir.resolve("f"), 1 << 20);
        int block = (int) Files.getFileStore(p).getBlockSize();
        try (Arena arena = Arena.ofConfined();
             PositionalFile f = PositionalFile.open(p, Engine.IO_URING, WRITE, SluiceOption.DIRECT)) {
            MemorySegment a = arena.allocate(block, 4096);
            MemorySegment b = arena.allocate(3L * block, 4096);
            MemorySegment heap = MemorySegment.ofArray(new byte[2 * block]); // bounced through aligned chunk space
            long n = f.read(2L * block, a, heap, b);
            assertEquals(6L * block, n);
            assertPattern(a.toArray(ValueLayout.JAVA_BYTE), 2L * block);
            assertPattern(heap.toArray(ValueLayout.JAVA_BYTE), 3L * block);
            assertPattern(b.toArray(ValueLayout.JAVA_BYTE), 5L * block);
            assertEquals(6L * block, f.write(block, a, heap, b), "written back one block earlier");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> f.read(0, a, b.asSlice(0, block - 1)));
            assertTrue(e.getMessage().contains("O_DIRECT"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> f.read(0, a, b.asSlice(1, block)));
            assertThrows(IllegalArgumentException.class, () -> f.read(0, a, MemorySegment.ofArray(new byte[100])));
            assertThrows(IllegalArgumentException.class, () -> f.write(7, a, b));
        }
        byte[] disk = Files.readAllBytes(p);
        assertPattern(java.util.Arrays.copyOfRange(disk, block, 7 * block), 2L * block);
    }

    @Test
    void aSlotKeepsItsIovecArrayAcrossVectoredCalls() throws IOException {
        Path p = Pattern.file(dir.resolve("f"), 1 << 20);
        UringPool one = new UringPool(1, 1, 1);
        try (Arena arena = Arena.ofConfined(); PositionalFile f = UringFile.open(p, OpenSpec.parse(), one)) {
            UringLane lane = one.lanes[0];
            assertEquals(1, lane.slots(), "one slot, so every request uses the same one");
            MemorySegment[] three = {arena.allocate(10), arena.allocate(20), arena.allocate(30)};
            assertEquals(60, f.read(0, three));
            MemorySegment first = lane.iovOf(0);
            assertEquals(60, f.read(100, three));
            assertSame(first, lane.iovOf(0), "reused, not allocated per call");
            MemorySegment[] many = new MemorySegment[300];
            for (int i = 0; i < many.length; i++) {
                many[i] = arena.allocate(7);
            }
            assertEquals(2100, f.read(5, many));
            MemorySegment grown = lane.iovOf(0);
            assertTrue(grown.byteSize() >= 300 * Uapi.IOVEC_SIZE, "grown to the longer vector");
            assertEquals(60, f.read(7, three));
            assertSame(grown, lane.iovOf(0), "kept after growing");
            for (int i = 0; i < many.length; i++) {
                assertPattern(many[i].toArray(ValueLayout.JAVA_BYTE), 5 + 7L * i);
            }
            assertPattern(three[2].toArray(ValueLayout.JAVA_BYTE), 37);
        } finally {
            one.close();
        }
    }

    /**
     * Bytes the current (platform) thread allocates on average per {@code call} once warm: the least of several rounds
     * after {@code warm} calls, since a round during which the JIT compiler replaces interpreted code counts the
     * interpreter's allocations too.
     */
    private static double allocatedPerCall(int warm, int perRound, IoCall call) throws IOException {
        var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int i = 0;
        for (; i < warm; i++) {
            call.run(i);
        }
        double least = Double.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            long before = mx.getCurrentThreadAllocatedBytes();
            for (int end = i + perRound; i < end; i++) {
                call.run(i);
            }
            least = Math.min(least, (mx.getCurrentThreadAllocatedBytes() - before) / (double) perRound);
        }
        return least;
    }

    interface IoCall {
        void run(int i) throws IOException;
    }

    private static void assumeAllocationCounting() {
        assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean mx
                && mx.isThreadAllocatedMemorySupported(), "per-thread allocation counting is not supported here");
        var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        if (!mx.isThreadAllocatedMemoryEnabled()) {
            mx.setThreadAllocatedMemoryEnabled(true);
        }
    }

    @Test
    void warmBatchCallsAllocateNothingPerRequest() throws IOException {
        assumeAllocationCounting();
        Path p = Pattern.file(dir.resolve("f"), 1 << 20);
        // Rings of its own: the default ones stay as other tests left them.
        UringPool own = new UringPool(1, 64, 2);
        try (Arena arena = Arena.ofConfined(); PositionalFile f = UringFile.open(p, OpenSpec.parse(), own)) {
            IoBatch batch = IoBatch.create(16);
            MemorySegment[] bufs = new MemorySegment[16];
            for (int i = 0; i < bufs.length; i++) {
                bufs[i] = arena.allocate(4096, 4096);
            }
            long[] checked = new long[1];
            // Scratch arrays, a callback and a boolean[]/long[]/int[] per call were some 500 bytes a batch of 16.
            double perBatch = allocatedPerCall(20_000, 10_000, round -> {
                for (int i = 0; i < bufs.length; i++) {
                    batch.read(f, bufs[i], ((round * 16L + i) * 4096) % (1 << 20));
                }
                if (batch.submit() != 0) {
                    batch.throwIfFailed();
                }
                for (int i = 0; i < bufs.length; i++) {
                    checked[0] += batch.result(i);
                }
                batch.clear();
            });
            assertEquals(70_000L * 16 * 4096, checked[0], "every read complete");
            assertTrue(perBatch < 64, "a warm batch of 16 reads allocated " + perBatch + " bytes on average");
            assertPattern(bufs[3].toArray(ValueLayout.JAVA_BYTE), ((69_999 * 16L + 3) * 4096) % (1 << 20));
        } finally {
            own.close();
        }
    }

    @Test
    void warmVectoredCallsAllocateNothing() throws IOException {
        assumeAllocationCounting();
        Path p = Pattern.file(dir.resolve("f"), 1 << 20);
        // Rings of its own: the default ones stay as other tests left them.
        UringPool own = new UringPool(1, 64, 2);
        try (Arena arena = Arena.ofConfined(); PositionalFile f = UringFile.open(p, OpenSpec.parse(), own)) {
            MemorySegment[] four = {arena.allocate(512), arena.allocate(1024), arena.allocate(100),
                    arena.allocate(2000)};
            long[] checked = new long[1];
            // A callback and a one-element result array per call were some 50 bytes.
            double perCall = allocatedPerCall(50_000, 20_000, round -> {
                checked[0] += f.read((round * 3637L) % (1 << 19), four);
            });
            assertEquals(150_000L * 3636, checked[0], "every vectored read complete");
            assertTrue(perCall < 16, "a warm vectored read allocated " + perCall + " bytes on average");
            assertPattern(four[3].toArray(ValueLayout.JAVA_BYTE), (149_999 * 3637L) % (1 << 19) + 1636);
        } finally {
            own.close();
        }
    }

    @Test
    void vectoredCallsFromManyThreadsOnASmallRing() throws Exception {
        // 8 slots and 2 bounce chunks for 16 threads: vectors wait for slots, heap pieces for chunks, and each slot's
        // iovec array is reused by requests of different lengths.
        Path p = Pattern.file(dir.resolve("f"), 8 << 20);
        UringPool small = new UringPool(1, 8, 2);
        try (PositionalFile f = UringFile.open(p, OpenSpec.parse(), small)) {
            List<Future<?>> all = new ArrayList<>();
            try (ExecutorService ex = Executors.newFixedThreadPool(16)) {
                for (int t = 0; t < 16; t++) {
                    long seed = t;
                    all.add(ex.submit(() -> {
                        SplittableRandom rnd = new SplittableRandom(seed);
                        for (int round = 0; round < 300; round++) {
                            int count = 2 + rnd.nextInt(rnd.nextBoolean() ? 6 : 40);
                            ByteBuffer[] bufs = new ByteBuffer[count];
                            for (int i = 0; i < count; i++) {
                                int len = rnd.nextInt(3000);
                                bufs[i] = rnd.nextBoolean() ? ByteBuffer.allocate(len) : ByteBuffer.allocateDirect(len);
                            }
                            long pos = rnd.nextLong(7 << 20);
                            long done = PositionalFileContract.readVectorFully(f, pos, bufs);
                            long at = pos;
                            for (ByteBuffer b : bufs) {
                                assertEquals(b.capacity(), b.position(), "every buffer filled");
                                assertPattern(PositionalFileContract.bytesOf(b, 0, b.capacity()), at);
                                at += b.capacity();
                            }
                            assertEquals(at - pos, Math.max(0, done));
                        }
                        return null;
                    }));
                }
                for (Future<?> fu : all) {
                    fu.get(50, TimeUnit.SECONDS);
                }
            }
        } finally {
            small.close();
        }
    }

    @Test
    void asyncCallbacksMayMakeBlockingCallsOnTheSameFile() throws Exception {
        Path p = Pattern.file(dir.resolve("f"), 1 << 20);
        try (Arena arena = Arena.ofShared(); PositionalFile f = PositionalFile.open(p, Engine.IO_URING)) {
            List<CompletableFuture<byte[]>> all = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                long at = i * 3000L;
                MemorySegment b = arena.allocate(3000);
                all.add(f.readAsync(b, at).thenApply(n -> {
                    // A blocking read from inside a completion: must not deadlock the lane.
                    byte[] again = new byte[n];
                    try {
                        f.readFully(again, 0, n, at);
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                    assertPattern(b.toArray(ValueLayout.JAVA_BYTE), at);
                    return again;
                }));
            }
            for (int i = 0; i < 300; i++) {
                assertPattern(all.get(i).get(20, TimeUnit.SECONDS), i * 3000L);
            }
        }
    }

    /** A million random reads and writes through batches, checked against a model by checksum. */
    @Test
    void soakOfAMillionRandomReadsAndWrites() throws IOException {
        int blocks = 4096;
        int bs = 4096;
        byte[] model = new byte[blocks * bs];
        Path p = dir.resolve("soak");
        long seed = Long.getLong("sluice.test.seed", System.nanoTime());
        SplittableRandom rnd = new SplittableRandom(seed);
        try (Arena arena = Arena.ofShared();
             PositionalFile f = PositionalFile.open(p, Engine.IO_URING, CREATE_NEW, WRITE)) {
            f.writeFully(new byte[model.length], 0, model.length, 0);
            IoBatch batch = IoBatch.create(32);
            MemorySegment[] bufs = new MemorySegment[32];
            for (int i = 0; i < 32; i++) {
                bufs[i] = arena.allocate(bs, 4096);
            }
            int[] block = new int[32];
            boolean[] write = new boolean[32];
            CRC32 crc = new CRC32();
            int ops = 0;
            while (ops < 1_000_000) {
                batch.clear();
                java.util.BitSet used = new java.util.BitSet(blocks);
                for (int i = 0; i < 32; i++) {
                    // distinct blocks within a batch: its requests may run in any order
                    int b;
                    do {
                        b = rnd.nextInt(blocks);
                    } while (used.get(b));
                    used.set(b);
                    block[i] = b;
                    write[i] = rnd.nextInt(4) == 0;
                    if (write[i]) {
                        long v = rnd.nextLong();
                        bufs[i].fill((byte) v);
                        bufs[i].set(ValueLayout.JAVA_LONG, 0, v);
                        batch.write(f, bufs[i], (long) b * bs);
                    } else {
                        batch.read(f, bufs[i], (long) b * bs);
                    }
                }
                assertEquals(0, batch.submit(), "seed " + seed);
                for (int i = 0; i < 32; i++) {
                    assertEquals(bs, batch.result(i), "seed " + seed);
                    int off = block[i] * bs;
                    if (write[i]) {
                        MemorySegment.copy(bufs[i], ValueLayout.JAVA_BYTE, 0, model, off, bs);
                    } else {
                        crc.reset();
                        crc.update(bufs[i].asByteBuffer());
                        long got = crc.getValue();
                        crc.reset();
                        crc.update(model, off, bs);
                        if (got != crc.getValue()) {
                            throw new AssertionError("block " + block[i] + " differs from the model after " + ops
                                    + " operations; re-run with -Dsluice.test.seed=" + seed);
                        }
                    }
                }
                ops += 32;
            }
            byte[] disk = Files.readAllBytes(p);
            assertTrue(java.util.Arrays.equals(model, disk), "final file differs; seed " + seed);
        }
    }

    @Test
    void sizeIsWhatTheFileSystemSaysForEverythingThatOpens() throws Exception {
        Path p = Pattern.file(dir.resolve("f"), 12345);
        UringPool own = new UringPool(1, 8, 2);
        try {
            try (PositionalFile f = UringFile.open(p, OpenSpec.parse(), own)) {
                assertEquals(12345, f.size());
            }
            // PositionalFile.open refuses what is neither a regular file nor a block device, but the engine must not
            // make up a size either: lseek(SEEK_END) on an ext4 directory answers Long.MAX_VALUE, on a FIFO ESPIPE.
            Path d = Files.createDirectory(dir.resolve("d"));
            try (PositionalFile f = UringFile.open(d, OpenSpec.parse(), own)) {
                assertEquals(Files.readAttributes(d, BasicFileAttributes.class).size(), f.size(),
                        "a directory's size is its st_size, as FileChannel.size() says");
            }
            try (Fifo fifo = new Fifo(dir); PositionalFile f = UringFile.open(fifo.path, OpenSpec.parse(WRITE), own)) {
                assertEquals(0, f.size(), "a FIFO's st_size");
            }
        } finally {
            own.close();
        }
    }

    @Test
    void sizeOfABlockDeviceIsTheDeviceSize() throws Exception {
        // A loop device over a file of a known size where this user may attach one (root, loop devices allowed).
        long bytes = 3 << 20;
        Path backing = Pattern.file(dir.resolve("disk.img"), bytes);
        String loop = run("losetup", "--find", "--show", backing.toString());
        if (loop != null) {
            try (PositionalFile f = PositionalFile.open(Path.of(loop), Engine.IO_URING)) {
                assertEquals(bytes, f.size(), loop);
            } finally {
                run("losetup", "--detach", loop);
            }
            return;
        }
        // Otherwise any block device this user may open, against its size in 512-byte sectors from sysfs.
        try (Stream<Path> devices = Files.list(Path.of("/sys/class/block"))) {
            for (Path sys : (Iterable<Path>) devices::iterator) {
                Path dev = Path.of("/dev", sys.getFileName().toString());
                long sectors = Long.parseLong(Files.readString(sys.resolve("size")).trim());
                PositionalFile f;
                try {
                    f = PositionalFile.open(dev, Engine.IO_URING);
                } catch (IOException e) {
                    continue; // not this user's, or not there
                }
                try (f) {
                    assertEquals(sectors * 512, f.size(), dev.toString());
                    return;
                }
            }
        } catch (IOException e) {
            assumeTrue(false, "no /sys/class/block here: " + e);
        }
        assumeTrue(false, "no block device this user may open, and losetup refused");
    }

    /** Runs a command; its first line of output when it succeeds, else null (also when it is not installed). */
    private static String run(String... command) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.waitFor() == 0 ? out.lines().findFirst().orElse("") : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** The offsets in {@link Uapi} against the C compiler's view of this machine's kernel header. */
    @Test
    void structLayoutsMatchTheKernelHeader() throws Exception {
        Path header = Path.of("/usr/include/linux/io_uring.h");
        assumeTrue(Files.exists(header), "no kernel uapi headers (linux-libc-dev) here");
        Path c = dir.resolve("layout.c");
        Files.writeString(c, """
                #include <stdio.h>
                #include <stddef.h>
                #include <linux/io_uring.h>
                #define P(name, v) printf("%s=%ld\\n", name, (long) (v))
                int main(void) {
                    P("SQE_SIZE", sizeof(struct io_uring_sqe));
                    P("SQE_FLAGS", offsetof(struct io_uring_sqe, flags));
                    P("SQE_FD", offsetof(struct io_uring_sqe, fd));
                    P("SQE_OFF", offsetof(struct io_uring_sqe, off));
                    P("SQE_ADDR", offsetof(struct io_uring_sqe, addr));
                    P("SQE_LEN", offsetof(struct io_uring_sqe, len));
                    P("SQE_OP_FLAGS", offsetof(struct io_uring_sqe, rw_flags));
                    P("SQE_USER_DATA", offsetof(struct io_uring_sqe, user_data));
                    P("SQE_BUF_INDEX", offsetof(struct io_uring_sqe, buf_index));
                    P("SQE_FILE_INDEX", offsetof(struct io_uring_sqe, file_index));
                    P("CQE_SIZE", sizeof(struct io_uring_cqe));
                    P("CQE_RES", offsetof(struct io_uring_cqe, res));
                    P("CQE_FLAGS", offsetof(struct io_uring_cqe, flags));
                    P("PARAMS_SIZE", sizeof(struct io_uring_params));
                    P("P_FEATURES", offsetof(struct io_uring_params, features));
                    P("P_SQ_OFF", offsetof(struct io_uring_params, sq_off));
                    P("P_CQ_OFF", offsetof(struct io_uring_params, cq_off));
                    P("SQ_OFF_ARRAY", offsetof(struct io_sqring_offsets, array));
                    P("SQ_OFF_FLAGS", offsetof(struct io_sqring_offsets, flags));
                    P("CQ_OFF_CQES", offsetof(struct io_cqring_offsets, cqes));
                    P("RSRC_REGISTER_SIZE", sizeof(struct io_uring_rsrc_register));
                    P("RR_DATA", offsetof(struct io_uring_rsrc_register, data));
                    P("RSRC_UPDATE2_SIZE", sizeof(struct io_uring_rsrc_update2));
                    P("RU_NR", offsetof(struct io_uring_rsrc_update2, nr));
                    P("IORING_OP_READ", IORING_OP_READ);
                    P("IORING_OP_WRITE", IORING_OP_WRITE);
                    P("IORING_OP_OPENAT", IORING_OP_OPENAT);
                    P("IORING_OP_CLOSE", IORING_OP_CLOSE);
                    P("IORING_OP_ASYNC_CANCEL", IORING_OP_ASYNC_CANCEL);
                    P("IORING_REGISTER_FILES2", IORING_REGISTER_FILES2);
                    P("IORING_REGISTER_FILES_UPDATE2", IORING_REGISTER_FILES_UPDATE2);
                    P("IORING_SETUP_SUBMIT_ALL", IORING_SETUP_SUBMIT_ALL);
                    P("IORING_OFF_SQES", IORING_OFF_SQES);
                    P("IOSQE_FIXED_FILE", IOSQE_FIXED_FILE);
                    P("IOSQE_IO_LINK", IOSQE_IO_LINK);
                    P("IOSQE_IO_HARDLINK", IOSQE_IO_HARDLINK);
                    P("IORING_FILE_INDEX_ALLOC", (int) IORING_FILE_INDEX_ALLOC);
                    return 0;
                }
                """);
        Path exe = dir.resolve("layout");
        Process cc;
        try {
            cc = new ProcessBuilder("cc", "-o", exe.toString(), c.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "no C compiler here: " + e.getMessage());
            return;
        }
        String ccOut = new String(cc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(cc.waitFor(60, TimeUnit.SECONDS));
        assumeTrue(cc.exitValue() == 0, "the header is too old for this check: " + ccOut);
        Process run = new ProcessBuilder(exe.toString()).start();
        String out = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(run.waitFor(10, TimeUnit.SECONDS));
        Map<String, Long> expected = Map.ofEntries(
                Map.entry("SQE_SIZE", Uapi.SQE_SIZE), Map.entry("SQE_FLAGS", Uapi.SQE_FLAGS),
                Map.entry("SQE_FD", Uapi.SQE_FD), Map.entry("SQE_OFF", Uapi.SQE_OFF),
                Map.entry("SQE_ADDR", Uapi.SQE_ADDR), Map.entry("SQE_LEN", Uapi.SQE_LEN),
                Map.entry("SQE_OP_FLAGS", Uapi.SQE_OP_FLAGS), Map.entry("SQE_USER_DATA", Uapi.SQE_USER_DATA),
                Map.entry("SQE_BUF_INDEX", Uapi.SQE_BUF_INDEX), Map.entry("SQE_FILE_INDEX", Uapi.SQE_FILE_INDEX),
                Map.entry("CQE_SIZE", Uapi.CQE_SIZE), Map.entry("CQE_RES", Uapi.CQE_RES),
                Map.entry("CQE_FLAGS", Uapi.CQE_FLAGS), Map.entry("PARAMS_SIZE", Uapi.PARAMS_SIZE),
                Map.entry("P_FEATURES", Uapi.P_FEATURES), Map.entry("P_SQ_OFF", Uapi.P_SQ_OFF),
                Map.entry("P_CQ_OFF", Uapi.P_CQ_OFF), Map.entry("SQ_OFF_ARRAY", Uapi.SQ_OFF_ARRAY),
                Map.entry("SQ_OFF_FLAGS", Uapi.SQ_OFF_FLAGS), Map.entry("CQ_OFF_CQES", Uapi.CQ_OFF_CQES),
                Map.entry("RSRC_REGISTER_SIZE", Uapi.RSRC_REGISTER_SIZE), Map.entry("RR_DATA", Uapi.RR_DATA),
                Map.entry("RSRC_UPDATE2_SIZE", Uapi.RSRC_UPDATE2_SIZE), Map.entry("RU_NR", Uapi.RU_NR),
                Map.entry("IORING_OP_READ", (long) Uapi.IORING_OP_READ),
                Map.entry("IORING_OP_WRITE", (long) Uapi.IORING_OP_WRITE),
                Map.entry("IORING_OP_OPENAT", (long) Uapi.IORING_OP_OPENAT),
                Map.entry("IORING_OP_CLOSE", (long) Uapi.IORING_OP_CLOSE),
                Map.entry("IORING_OP_ASYNC_CANCEL", (long) Uapi.IORING_OP_ASYNC_CANCEL),
                Map.entry("IORING_REGISTER_FILES2", (long) Uapi.IORING_REGISTER_FILES2),
                Map.entry("IORING_REGISTER_FILES_UPDATE2", (long) Uapi.IORING_REGISTER_FILES_UPDATE2),
                Map.entry("IORING_SETUP_SUBMIT_ALL", (long) Uapi.IORING_SETUP_SUBMIT_ALL),
                Map.entry("IORING_OFF_SQES", Uapi.IORING_OFF_SQES),
                Map.entry("IOSQE_FIXED_FILE", (long) Uapi.IOSQE_FIXED_FILE),
                Map.entry("IOSQE_IO_LINK", (long) Uapi.IOSQE_IO_LINK),
                Map.entry("IOSQE_IO_HARDLINK", (long) Uapi.IOSQE_IO_HARDLINK),
                Map.entry("IORING_FILE_INDEX_ALLOC", (long) Uapi.IORING_FILE_INDEX_ALLOC));
        int checked = 0;
        for (String line : out.split("\n")) {
            String[] kv = line.split("=");
            assertEquals(expected.get(kv[0]), Long.valueOf(kv[1]), kv[0]);
            checked++;
        }
        assertEquals(expected.size(), checked, out);
    }
}
