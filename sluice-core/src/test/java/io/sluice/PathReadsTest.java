package io.sluice;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.internal.Errno;
import io.sluice.internal.Native;
import io.sluice.internal.uring.Uapi;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** PathReads on real files, through io_uring direct descriptors and through the FileChannel path. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PathReadsTest {
    private static final int[] BLOCKS = {512, 4096, 16384, 65536};

    @TempDir
    Path dir;

    /** Files of assorted sizes (some empty, some shorter than a block), pattern content. */
    private List<Path> files(int count, long seed) throws IOException {
        SplittableRandom r = new SplittableRandom(seed);
        List<Path> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int size = switch (i % 4) {
                case 0 -> r.nextInt(200_000);
                case 1 -> r.nextInt(600);
                case 2 -> 65536 * (1 + r.nextInt(3));
                default -> i % 8 == 3 ? 0 : r.nextInt(70_000);
            };
            Path p = dir.resolve("f" + i);
            Files.deleteIfExists(p);
            if (size == 0) {
                Files.createFile(p);
            } else {
                Pattern.write(p, 0, size);
            }
            out.add(p);
        }
        return out;
    }

    private static void assertMethod(Engine engine, PathReads reads) {
        assertEquals(engine == Engine.IO_URING ? PathReads.Method.IO_URING_DIRECT : PathReads.Method.FILE_CHANNEL,
                reads.method(),
                () -> "direct descriptors unavailable: " + PathReads.directUnavailabilityCause());
    }

    /** A destination of {@code len} bytes of a kind picked by {@code kind}. */
    private static Object destination(int kind, int len, Arena arena) {
        return switch (kind) {
            case 0 -> arena.allocate(len);
            case 1 -> ByteBuffer.allocateDirect(len + 3).position(3); // unaligned on purpose
            case 2 -> ByteBuffer.allocate(len + 7).position(7);
            default -> MemorySegment.ofArray(new byte[len]);
        };
    }

    private static int add(PathReads reads, Path p, long pos, Object dst) {
        return dst instanceof ByteBuffer b ? reads.read(p, pos, b) : reads.read(p, pos, (MemorySegment) dst);
    }

    private static byte[] bytesOf(Object dst, int start, int n) {
        byte[] out = new byte[n];
        if (dst instanceof ByteBuffer b) {
            b.get(start, out);
        } else {
            MemorySegment.copy((MemorySegment) dst, ValueLayout.JAVA_BYTE, 0, out, 0, n);
        }
        return out;
    }

    /** Runs a random batch and checks each request against the file's size and the pattern. */
    private static void randomBatch(Engine engine, List<Path> files, int count, SplittableRandom r) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            PathReads reads = PathReads.create(count);
            Object[] dst = new Object[count];
            long[] pos = new long[count];
            int[] len = new int[count];
            int[] start = new int[count];
            Path[] path = new Path[count];
            for (int i = 0; i < count; i++) {
                path[i] = files.get(r.nextInt(files.size()));
                long size = Files.size(path[i]);
                len[i] = BLOCKS[r.nextInt(BLOCKS.length)];
                pos[i] = r.nextInt(8) == 0 ? size + r.nextInt(3) : r.nextLong(size + 1);
                dst[i] = destination(r.nextInt(4), len[i], arena);
                start[i] = dst[i] instanceof ByteBuffer b ? b.position() : 0;
                assertEquals(i, add(reads, path[i], pos[i], dst[i]));
            }
            assertEquals(0, reads.submit(engine));
            assertMethod(engine, reads);
            for (int i = 0; i < count; i++) {
                long size = Files.size(path[i]);
                long want = pos[i] >= size ? -1 : Math.min(len[i], size - pos[i]);
                assertEquals(want, reads.result(i), "request " + i + ": " + path[i] + " pos " + pos[i]);
                int n = (int) Math.max(0, want);
                if (dst[i] instanceof ByteBuffer b) {
                    assertEquals(start[i] + n, b.position(), "buffer position advances by the bytes read");
                }
                assertArrayEquals(Pattern.bytes(pos[i], n), bytesOf(dst[i], start[i], n), "bytes of request " + i);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"IO_URING", "CHANNEL"})
    void manyFilesEverySizeAndKindOfMemory(Engine engine) throws IOException {
        List<Path> files = files(64, 4);
        SplittableRandom r = new SplittableRandom(40);
        for (int round = 0; round < 5; round++) {
            randomBatch(engine, files, 300, r);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"IO_URING", "CHANNEL"})
    void aBatchFarLargerThanTheRing(Engine engine) throws IOException {
        // A lane has at most 256 request slots, 85 chains of three; 3000 requests flow through in waves.
        randomBatch(engine, files(16, 5), 3000, new SplittableRandom(41));
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"IO_URING", "CHANNEL"})
    void failedOpensAndReadsFailAloneAndNameTheFile(Engine engine) throws IOException {
        Path good = Pattern.file(dir.resolve("good"), 10_000);
        Path missing = dir.resolve("missing");
        Path sub = Files.createDirectory(dir.resolve("sub"));
        Path notDir = good.resolve("x"); // a path through a regular file: ENOTDIR
        try (Arena arena = Arena.ofConfined()) {
            PathReads reads = PathReads.create(64);
            List<MemorySegment> dsts = new ArrayList<>();
            Path[] order = new Path[40];
            for (int i = 0; i < order.length; i++) {
                order[i] = switch (i % 10) {
                    case 3 -> missing;
                    case 5 -> sub;
                    case 7 -> notDir;
                    default -> good;
                };
                MemorySegment d = arena.allocate(4096);
                dsts.add(d);
                reads.read(order[i], 100 * i, d);
            }
            assertEquals(12, reads.submit(engine));
            assertMethod(engine, reads);
            for (int i = 0; i < order.length; i++) {
                IOException e = reads.error(i);
                String msg = e == null ? "" : e.getMessage();
                if (order[i] == good) {
                    assertNull(e);
                    assertEquals(4096, reads.result(i));
                    assertArrayEquals(Pattern.bytes(100 * i, 4096), dsts.get(i).toArray(ValueLayout.JAVA_BYTE));
                } else if (order[i] == missing) {
                    assertInstanceOf(NoSuchFileException.class, e);
                    assertTrue(msg.contains(missing.toString()) && msg.contains("pos=" + 100 * i), msg);
                    if (engine == Engine.IO_URING) {
                        assertTrue(msg.contains("ENOENT"), msg);
                    }
                } else if (order[i] == sub) {
                    assertTrue(msg.contains(sub.toString()) && msg.contains("pos=" + 100 * i), msg);
                    if (engine == Engine.IO_URING) {
                        assertTrue(msg.contains("EISDIR"), msg);
                    }
                } else {
                    assertInstanceOf(FileSystemException.class, e);
                    assertTrue(msg.contains(notDir.toString()) && msg.contains("pos=" + 100 * i), msg);
                }
                if (e != null) {
                    int k = i;
                    assertThrows(IllegalStateException.class, () -> reads.result(k));
                }
            }
            IOException all = assertThrows(IOException.class, reads::throwIfFailed);
            assertEquals(11, all.getSuppressed().length, all.getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"IO_URING", "CHANNEL"})
    void endOfFileGivesShortCountsThenMinusOne(Engine engine) throws IOException {
        Path p = Pattern.file(dir.resolve("short"), 1000);
        Path empty = Files.createFile(dir.resolve("empty"));
        try (Arena arena = Arena.ofConfined()) {
            PathReads reads = PathReads.create(8);
            MemorySegment a = arena.allocate(4096);
            MemorySegment b = arena.allocate(4096);
            ByteBuffer c = ByteBuffer.allocateDirect(4096);
            reads.read(p, 0, a);
            reads.read(p, 999, b);
            reads.read(p, 1000, c);
            reads.read(p, 1L << 40, arena.allocate(16));
            reads.read(empty, 0, arena.allocate(16));
            reads.read(p, 10, arena.allocate(0));
            assertEquals(0, reads.submit(engine));
            assertMethod(engine, reads);
            assertEquals(1000, reads.result(0));
            assertArrayEquals(Pattern.bytes(0, 1000), a.asSlice(0, 1000).toArray(ValueLayout.JAVA_BYTE));
            assertEquals(1, reads.result(1));
            assertEquals(Pattern.at(999), b.get(ValueLayout.JAVA_BYTE, 0));
            assertEquals(-1, reads.result(2));
            assertEquals(0, c.position());
            assertEquals(-1, reads.result(3));
            assertEquals(-1, reads.result(4));
            assertEquals(0, reads.result(5), "an empty destination reads nothing, as in PositionalFile");
            assertEquals(0, reads.submit(engine), "submitting again runs nothing");
            assertThrows(IllegalStateException.class, () -> reads.read(p, 0, arena.allocate(1)));
            reads.clear();
            assertEquals(0, reads.size());
        }
    }

    @Test
    void misuseIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> PathReads.create(0));
        PathReads reads = PathReads.create(1);
        Path p = dir.resolve("x");
        assertThrows(IllegalArgumentException.class, () -> reads.read(p, -1, ByteBuffer.allocate(1)));
        assertThrows(IllegalArgumentException.class, () -> reads.read(p, 0, ByteBuffer.allocate(1).asReadOnlyBuffer()));
        assertThrows(NullPointerException.class, () -> reads.read(null, 0, ByteBuffer.allocate(1)));
        reads.read(p, 0, ByteBuffer.allocate(1));
        assertThrows(IllegalStateException.class, () -> reads.read(p, 0, ByteBuffer.allocate(1)));
        assertThrows(IllegalStateException.class, () -> reads.result(0), "not submitted yet");
        assertNull(reads.method());
    }

    @Test
    void platformAndVirtualThreadsAtOnce() throws Exception {
        List<Path> files = files(32, 6);
        try (ExecutorService virt = Executors.newVirtualThreadPerTaskExecutor();
             ExecutorService plat = Executors.newFixedThreadPool(4)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 24; t++) {
                int seed = t;
                Runnable job = () -> {
                    try {
                        SplittableRandom r = new SplittableRandom(seed);
                        for (int round = 0; round < 20; round++) {
                            randomBatch(Engine.IO_URING, files, 1 + r.nextInt(150), r);
                        }
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                };
                done.add(t % 3 == 0 ? plat.submit(job) : virt.submit(job));
            }
            for (Future<?> f : done) {
                f.get(100, TimeUnit.SECONDS);
            }
        }
    }

    /** Open descriptors of this process. */
    private static long openDescriptors() throws IOException {
        try (var s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        }
    }

    @Test
    void aHundredThousandRequestsLeaveNoSlotNoDescriptorNoRequestBehind() throws Exception {
        List<Path> files = files(64, 7);
        Path missing = dir.resolve("missing");
        Path sub = Files.createDirectory(dir.resolve("sub"));
        PathReads warm = PathReads.create(1);
        warm.read(files.get(0), 0, ByteBuffer.allocateDirect(16));
        warm.submit(); // starts the pool, so its rings are not counted as leaks below
        long fdsBefore = openDescriptors();
        SplittableRandom r = new SplittableRandom(42);
        int total = 0;
        int failed = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(65536L * 1000);
            PathReads reads = PathReads.create(1000);
            while (total < 100_000) {
                reads.clear();
                int bad = 0;
                for (int i = 0; i < 1000; i++) {
                    int pick = r.nextInt(100);
                    Path p = pick == 0 ? missing : pick == 1 ? sub : files.get(r.nextInt(files.size()));
                    bad += pick < 2 ? 1 : 0;
                    int len = BLOCKS[r.nextInt(BLOCKS.length)];
                    reads.read(p, r.nextInt(100_000), buf.asSlice(65536L * i, len));
                }
                assertEquals(bad, reads.submit());
                assertEquals(PathReads.Method.IO_URING_DIRECT, reads.method());
                total += 1000;
                failed += bad;
            }
        }
        assertTrue(failed > 1000, "failures were exercised: " + failed);
        assertEquals(fdsBefore, openDescriptors(), "no normal descriptor was opened, or none was left open");
        UringPool pool = UringPool.get();
        try (Arena arena = Arena.ofConfined()) {
            for (UringLane lane : pool.lanes) {
                assertEquals(0, lane.pending(), "requests still in flight");
                assertEquals(lane.slots(), lane.freeSlots(), "request slots leaked");
                // Closing each direct slot again must find it empty (EBADF): no chain left a file installed.
                int n = lane.slots();
                int[] slots = new int[n];
                int got = 0;
                while (got < n) {
                    got += lane.trySubmit(n - got, (ring, sqe, k, slot, op) -> {
                        ring.prep(sqe, Uapi.IORING_OP_CLOSE, 0, false, 0, 0, 0, slot);
                        ring.fileIndex(sqe, UringPool.directSlot(k) + 1);
                    }, slots, got);
                }
                for (int k = 0; k < n; k++) {
                    assertEquals(-Errno.EBADF, lane.await(slots[k]), "direct slot " + UringPool.directSlot(k));
                }
            }
        }
    }

    /** The kernel behaviour the chains rely on, seen on one chain at a time. */
    @Test
    void aFailedOpenCancelsItsChainAndAShortReadStillCloses() throws Exception {
        Path p = Pattern.file(dir.resolve("f"), 100);
        UringLane lane = UringPool.get().lane();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(4096);
            for (Path target : List.of(dir.resolve("missing"), p)) {
                MemorySegment name = arena.allocateFrom(target.toString());
                int[] slots = new int[3];
                int[] direct = new int[1];
                int got = 0;
                while (got == 0) {
                    got = lane.trySubmit(3, 3, (ring, sqe, k, slot, op) -> {
                        switch (k) {
                            case 0 -> {
                                direct[0] = UringPool.directSlot(slot);
                                ring.prep(sqe, Uapi.IORING_OP_OPENAT, Native.AT_FDCWD, false, name.address(), 0, 0,
                                        slot);
                                ring.fileIndex(sqe, direct[0] + 1);
                                ring.addFlags(sqe, Uapi.IOSQE_IO_LINK);
                            }
                            case 1 -> {
                                ring.prep(sqe, Uapi.IORING_OP_READ, direct[0], true, buf.address(), 4096, 0, slot);
                                ring.addFlags(sqe, Uapi.IOSQE_IO_HARDLINK);
                            }
                            default -> {
                                ring.prep(sqe, Uapi.IORING_OP_CLOSE, 0, false, 0, 0, 0, slot);
                                ring.fileIndex(sqe, direct[0] + 1);
                            }
                        }
                    }, slots, 0);
                }
                assertEquals(3, got, "a chain goes in whole");
                int close = lane.await(slots[2]);
                int read = lane.await(slots[1]);
                int open = lane.await(slots[0]);
                if (target == p) {
                    assertEquals(0, open, "OPENAT into a direct slot returns 0");
                    assertEquals(100, read, "a short read at the end of the file");
                    assertEquals(0, close, "the hard link closes after a short read");
                } else {
                    assertEquals(-Errno.ENOENT, open);
                    assertEquals(-Errno.ECANCELED, read);
                    assertEquals(-Errno.ECANCELED, close);
                }
            }
        }
    }

    @Test
    void pathsOfAnotherFileSystemGoThroughItsProvider() throws IOException {
        Path zip = dir.resolve("a.zip");
        byte[] content = Pattern.bytes(0, 5000);
        try (java.nio.file.FileSystem fs = java.nio.file.FileSystems.newFileSystem(zip,
                java.util.Map.of("create", "true"))) {
            Files.write(fs.getPath("inside.bin"), content);
        }
        try (java.nio.file.FileSystem fs = java.nio.file.FileSystems.newFileSystem(zip)) {
            PathReads reads = PathReads.create(2);
            ByteBuffer a = ByteBuffer.allocateDirect(100);
            reads.read(fs.getPath("inside.bin"), 4950, a);
            reads.read(fs.getPath("missing.bin"), 0, ByteBuffer.allocate(10));
            assertEquals(1, reads.submit(Engine.IO_URING));
            assertEquals(PathReads.Method.FILE_CHANNEL, reads.method());
            assertEquals(50, reads.result(0));
            assertArrayEquals(Pattern.bytes(4950, 50), bytesOf(a.flip(), 0, 50));
            assertInstanceOf(NoSuchFileException.class, reads.error(1));
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"IO_URING", "CHANNEL"})
    void aFifoIsRefusedWithoutWaitingForAWriter(Engine engine) throws Exception {
        Path fifo = NonRegularFiles.fifo(dir.resolve("fifo"));
        Path file = Pattern.file(dir.resolve("f"), 100);
        PathReads reads = PathReads.create(2);
        reads.read(fifo, 0, ByteBuffer.allocateDirect(100));
        reads.read(file, 0, ByteBuffer.allocateDirect(100));
        ExecutorService one = Executors.newSingleThreadExecutor();
        try {
            Future<Integer> failed = one.submit(() -> reads.submit(engine));
            int n;
            try {
                n = failed.get(5, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                // Give the waiting open its writer, so the thread ends, then fail.
                try (java.nio.channels.FileChannel w = java.nio.channels.FileChannel.open(fifo,
                        java.nio.file.StandardOpenOption.WRITE)) {
                    w.write(ByteBuffer.wrap(new byte[1]));
                }
                throw new AssertionError("submit still waits on the FIFO after 5 s (" + reads.method() + ")");
            }
            assertEquals(1, n);
            IOException e = reads.error(0);
            assertInstanceOf(FileSystemException.class, e);
            assertTrue(e.getMessage().contains(fifo.toString()) && e.getMessage().contains("is a FIFO"),
                    e.getMessage());
            assertEquals(100, reads.result(1));
        } finally {
            one.shutdownNow();
        }
    }
}
