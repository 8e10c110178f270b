package io.sluice.hadoop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.Advice;
import io.sluice.Engine;
import io.sluice.chunks.CacheAdvice;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the contract suites do not look at: registration, the Sluice stream, options, concurrent positional reads. */
class SluiceLocalFileSystemTest {
    @TempDir
    java.nio.file.Path dir;

    private FileSystem fs;
    private byte[] data;
    private Path file;

    @BeforeEach
    void setUp() throws IOException {
        Configuration conf = new Configuration(false);
        conf.set("fs.file.impl", SluiceLocalFileSystem.class.getName());
        conf.setBoolean("fs.file.impl.disable.cache", true);
        fs = FileSystem.get(URI.create("file:///"), conf);
        data = new byte[300_000];
        new Random(28).nextBytes(data);
        java.nio.file.Path local = dir.resolve("data.bin");
        Files.write(local, data);
        file = new Path(local.toUri());
    }

    @AfterEach
    void tearDown() throws IOException {
        fs.close();
    }

    @Test
    void configurationAloneSelectsItAndItsStreamReadsThroughSluice() throws IOException {
        assertInstanceOf(SluiceLocalFileSystem.class, fs);
        try (FSDataInputStream in = fs.open(file)) {
            assertInstanceOf(SluiceFSInputStream.class, in.getWrappedStream());
            for (String capability : new String[] {StreamCapabilities.VECTOREDIO, StreamCapabilities.READBYTEBUFFER,
                    StreamCapabilities.PREADBYTEBUFFER}) {
                assertTrue(in.hasCapability(capability), capability);
            }
            assertFalse(in.hasCapability(StreamCapabilities.HFLUSH));
            byte[] head = new byte[10];
            in.readFully(head);
            assertArrayEquals(java.util.Arrays.copyOf(data, 10), head);
        }
    }

    @Test
    void engineComesFromTheConfiguration() throws IOException {
        Configuration conf = new Configuration(false);
        conf.set(SluiceLocalFileSystem.ENGINE, "channel");
        try (SluiceLocalFileSystem local = new SluiceLocalFileSystem()) {
            local.initialize(URI.create("file:///"), conf);
            assertEquals(Engine.CHANNEL, local.engine());
        }
        conf.set(SluiceLocalFileSystem.ENGINE, "nonesuch");
        try (SluiceLocalFileSystem local = new SluiceLocalFileSystem()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> local.initialize(URI.create("file:///"), conf));
            assertTrue(e.getMessage().contains("nonesuch"), e.getMessage());
        }
    }

    @Test
    void missingFilesAndDirectoriesAreFileNotFound() {
        assertThrows(FileNotFoundException.class, () -> fs.open(new Path(dir.resolve("missing").toUri())));
        assertThrows(FileNotFoundException.class, () -> fs.open(new Path(dir.toUri())));
    }

    @Test
    void byteBufferReadsSequentialAndPositional() throws IOException {
        try (FSDataInputStream in = fs.open(file, 4096)) {
            ByteBuffer small = ByteBuffer.allocate(100);
            in.seek(5000);
            assertEquals(100, in.read(small));
            assertArrayEquals(java.util.Arrays.copyOfRange(data, 5000, 5100), small.array());
            assertEquals(5100, in.getPos());
            ByteBuffer large = ByteBuffer.allocateDirect(50_000);
            in.readFully(200_000, large);
            large.flip();
            byte[] got = new byte[large.remaining()];
            large.get(got);
            assertArrayEquals(java.util.Arrays.copyOfRange(data, 200_000, 250_000), got);
            assertEquals(5100, in.getPos(), "positional reads leave the position alone");
            assertThrows(EOFException.class, () -> in.readFully(data.length - 10, ByteBuffer.allocate(20)));
            assertEquals(-1, in.read(data.length, ByteBuffer.allocate(1)));
        }
    }

    @Test
    void positionalReadsFromManyThreadsOnOneStream() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (FSDataInputStream in = fs.open(file)) {
            List<Future<?>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long seed = t;
                results.add(pool.submit(() -> {
                    Random random = new Random(seed);
                    byte[] buf = new byte[4096];
                    for (int i = 0; i < 500; i++) {
                        int pos = random.nextInt(data.length - buf.length);
                        in.readFully(pos, buf);
                        assertArrayEquals(java.util.Arrays.copyOfRange(data, pos, pos + buf.length), buf);
                    }
                    return null;
                }));
            }
            for (Future<?> result : results) {
                result.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void vectoredReadMergesCloseRangesAndSlicesTheirBuffer() throws Exception {
        List<ByteBuffer> allocated = new ArrayList<>();
        List<FileRange> ranges = List.of(FileRange.createFileRange(1000, 100), FileRange.createFileRange(1200, 100),
                FileRange.createFileRange(250_000, 5000));
        try (FSDataInputStream in = fs.open(file)) {
            in.readVectored(ranges, n -> {
                ByteBuffer b = ByteBuffer.allocate(n);
                allocated.add(b);
                return b;
            }, b -> { });
            for (FileRange range : ranges) {
                ByteBuffer got = range.getData().get(10, TimeUnit.SECONDS);
                byte[] bytes = new byte[got.remaining()];
                got.get(bytes);
                assertArrayEquals(java.util.Arrays.copyOfRange(data, (int) range.getOffset(),
                        (int) range.getOffset() + range.getLength()), bytes);
            }
        }
        // 1000..1300 is one read (gap 100 < 16 KiB), 250000 another.
        assertEquals(List.of(300, 5000), allocated.stream().map(ByteBuffer::capacity).toList());
    }

    @Test
    void vectoredReadsIntoHeapBuffersUseTheStreamsOwnDescriptorOnly() throws Exception {
        // AUTO engine: a batch would open an io_uring descriptor of its own, though heap requests run one by one.
        List<FileRange> ranges = List.of(FileRange.createFileRange(0, 70_000), FileRange.createFileRange(200_000,
                90_000));
        java.nio.file.Path local = dir.resolve("data.bin").toRealPath();
        try (FSDataInputStream in = fs.open(file)) {
            in.readVectored(ranges, ByteBuffer::allocate);
            for (FileRange range : ranges) {
                ByteBuffer got = range.getData().get(10, TimeUnit.SECONDS);
                byte[] bytes = new byte[got.remaining()];
                got.get(bytes);
                assertArrayEquals(java.util.Arrays.copyOfRange(data, (int) range.getOffset(),
                        (int) range.getOffset() + range.getLength()), bytes);
            }
            assertEquals(1, descriptorsOf(local), "descriptors open on " + local);
        }
    }

    @Test
    void aColdVectoredReadBringsInItsRangesAndNoReadAheadPastThem() throws Exception {
        Assumptions.assumeTrue(CacheAdvice.isSupported(), "no posix_fadvise here");
        java.nio.file.Path local = dir.resolve("big.bin");
        int mib = 1 << 20;
        byte[] big = new byte[16 * mib];
        new Random(6).nextBytes(big);
        Files.write(local, big);
        assertTrue(CacheAdvice.drop(local));
        Assumptions.assumeFalse(resident(local, 0, big.length), "this file system keeps the pages (tmpfs?)");
        List<FileRange> ranges = List.of(FileRange.createFileRange(4 * mib, 3 * mib),
                FileRange.createFileRange(12 * mib, 100_000));
        try (FSDataInputStream in = fs.open(new Path(local.toUri()))) {
            in.readVectored(ranges, ByteBuffer::allocate);
            for (FileRange range : ranges) {
                ByteBuffer got = range.getData().get(10, TimeUnit.SECONDS);
                assertEquals(ByteBuffer.wrap(big, (int) range.getOffset(), range.getLength()), got);
            }
        }
        assertTrue(resident(local, 4 * mib, 3 * mib), "the first range");
        // The kernel's read-ahead, which a cold read would start, reads on past the end of each range.
        assertFalse(resident(local, 7 * mib, 4096), "the page after the first range");
        assertFalse(resident(local, 12 * mib + 102_400, 4096), "the page after the second range's last");
    }

    @Test
    void askingAheadCanBeTurnedOff() throws Exception {
        Assumptions.assumeTrue(CacheAdvice.isSupported(), "no posix_fadvise here");
        java.nio.file.Path local = dir.resolve("big.bin");
        int mib = 1 << 20;
        byte[] big = new byte[16 * mib];
        new Random(7).nextBytes(big);
        Files.write(local, big);
        assertTrue(CacheAdvice.drop(local));
        Assumptions.assumeFalse(resident(local, 0, big.length), "this file system keeps the pages (tmpfs?)");
        Configuration conf = new Configuration(false);
        conf.set("fs.file.impl", SluiceLocalFileSystem.class.getName());
        conf.setBoolean("fs.file.impl.disable.cache", true);
        conf.setBoolean(SluiceLocalFileSystem.WILLNEED, false);
        try (FileSystem plain = FileSystem.get(URI.create("file:///"), conf);
             FSDataInputStream in = plain.open(new Path(local.toUri()))) {
            List<FileRange> ranges = List.of(FileRange.createFileRange(4 * mib, 3 * mib));
            in.readVectored(ranges, ByteBuffer::allocate);
            assertEquals(ByteBuffer.wrap(big, 4 * mib, 3 * mib), ranges.get(0).getData().get(10, TimeUnit.SECONDS));
        }
        // Read-ahead as the kernel does it: past the range's end (assumed to reach a page or more past it).
        Assumptions.assumeTrue(readAheadKb(local) >= 64, "read-ahead too small to show");
        assertTrue(resident(local, 7 * mib, 4096), "the kernel's read-ahead ran on past the range");
    }

    /** The read-ahead of the block device holding {@code file}, in KiB, or -1 when it cannot be found. */
    private static long readAheadKb(java.nio.file.Path file) {
        try {
            long dev = ((Number) Files.getAttribute(file, "unix:dev")).longValue();
            java.nio.file.Path sys = java.nio.file.Path.of("/sys/dev/block/" + ((dev >> 8) & 0xfff) + ":"
                    + ((dev & 0xff) | ((dev >> 12) & 0xfff00)));
            java.nio.file.Path queue = sys.toRealPath().resolve("queue/read_ahead_kb");
            if (!Files.exists(queue)) {
                queue = sys.toRealPath().getParent().resolve("queue/read_ahead_kb"); // a partition: its disk's
            }
            return Long.parseLong(Files.readString(queue).trim());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Whether every page of {@code length} bytes at {@code offset} is in the page cache (mincore; faults nothing). */
    private static boolean resident(java.nio.file.Path file, long offset, long length) throws IOException {
        try (java.nio.channels.FileChannel c = java.nio.channels.FileChannel.open(file)) {
            return c.map(java.nio.channels.FileChannel.MapMode.READ_ONLY, offset, length).isLoaded();
        }
    }

    /** How many of this process's descriptors name {@code path} (Linux: /proc/self/fd). */
    private static long descriptorsOf(java.nio.file.Path path) throws IOException {
        long n = 0;
        try (var fds = Files.list(java.nio.file.Path.of("/proc/self/fd"))) {
            for (java.nio.file.Path fd : fds.toList()) {
                try {
                    if (Files.readSymbolicLink(fd).equals(path)) {
                        n++;
                    }
                } catch (IOException closedMeanwhile) {
                    // the listing's own descriptor, or one another thread closed
                }
            }
        }
        return n;
    }

    private FileSystem withSettings(String... keysAndValues) throws IOException {
        Configuration conf = new Configuration(false);
        conf.set("fs.file.impl", SluiceLocalFileSystem.class.getName());
        conf.setBoolean("fs.file.impl.disable.cache", true);
        for (int i = 0; i < keysAndValues.length; i += 2) {
            conf.set(keysAndValues[i], keysAndValues[i + 1]);
        }
        return FileSystem.get(URI.create("file:///"), conf);
    }

    private static SluiceFSInputStream sluice(FSDataInputStream in) {
        return (SluiceFSInputStream) in.getWrappedStream();
    }

    @Test
    void vectoredReadsInPiecesAreByteIdenticalWithTheFile() throws Exception {
        java.nio.file.Path local = dir.resolve("pieces.bin");
        byte[] big = new byte[3 * 1024 * 1024 + 4321];
        new Random(11).nextBytes(big);
        Files.write(local, big);
        Random random = new Random(12);
        for (String piece : new String[] {"4096", "65537", "1048576", "2m", "0"}) {
            // Many ranges of odd lengths and gaps (some close enough to merge), one smaller than any piece, and two
            // at the end of the file: one ending there, after one a single byte before it.
            List<FileRange> ranges = new ArrayList<>();
            long at = random.nextInt(1000);
            while (true) {
                int length = 1 + random.nextInt(random.nextBoolean() ? 3000 : 400_000);
                if (at + length >= big.length - 200_001) {
                    break;
                }
                ranges.add(FileRange.createFileRange(at, length));
                at += length + random.nextInt(random.nextBoolean() ? 20_000 : 100);
            }
            ranges.add(FileRange.createFileRange(big.length - 200_001, 100_000));
            ranges.add(FileRange.createFileRange(big.length - 100_000, 100_000));
            java.util.Collections.shuffle(ranges, random);
            List<SluiceFSInputStream.PieceRead> reads = java.util.Collections.synchronizedList(new ArrayList<>());
            try (FileSystem pieces = withSettings(SluiceLocalFileSystem.PIECE, piece);
                 FSDataInputStream in = pieces.open(new Path(local.toUri()))) {
                sluice(in).onPiece = reads::add;
                in.readVectored(ranges, ByteBuffer::allocate);
                for (FileRange range : ranges) {
                    assertEquals(ByteBuffer.wrap(big, (int) range.getOffset(), range.getLength()),
                            range.getData().get(10, TimeUnit.SECONDS), piece + ": " + range);
                }
            }
            long limit = piece.equals("0") ? Integer.MAX_VALUE : Long.parseLong(piece.replace("2m", "2097152"));
            for (SluiceFSInputStream.PieceRead read : reads) {
                assertTrue(read.length() <= limit, piece + ": " + read);
            }
            assertTrue(reads.stream().mapToLong(SluiceFSInputStream.PieceRead::length).sum()
                    >= ranges.stream().mapToLong(FileRange::getLength).sum(), piece + ": bytes read");
        }
    }

    @Test
    void pieceSizeZeroReadsEachRangeWholeInTheCallingThread() throws Exception {
        java.nio.file.Path local = dir.resolve("seq.bin");
        int mib = 1 << 20;
        byte[] big = new byte[8 * mib];
        new Random(13).nextBytes(big);
        Files.write(local, big);
        List<FileRange> ranges = List.of(FileRange.createFileRange(0, mib - 1), FileRange.createFileRange(2 * mib,
                mib), FileRange.createFileRange(4 * mib, mib));
        String caller = Thread.currentThread().getName();
        for (String piece : new String[] {"0", "64k"}) {
            List<SluiceFSInputStream.PieceRead> reads = java.util.Collections.synchronizedList(new ArrayList<>());
            try (FileSystem pieces = withSettings(SluiceLocalFileSystem.PIECE, piece);
                 FSDataInputStream in = pieces.open(new Path(local.toUri()))) {
                sluice(in).onPiece = reads::add;
                in.readVectored(ranges, ByteBuffer::allocate);
                for (FileRange range : ranges) {
                    assertEquals(ByteBuffer.wrap(big, (int) range.getOffset(), range.getLength()),
                            range.getData().get(10, TimeUnit.SECONDS));
                }
            }
            if (piece.equals("0")) {
                assertEquals(List.of(new SluiceFSInputStream.PieceRead(0, mib - 1, caller),
                        new SluiceFSInputStream.PieceRead(2 * mib, mib, caller),
                        new SluiceFSInputStream.PieceRead(4 * mib, mib, caller)), reads);
            } else {
                assertEquals(16 + 16 + 16, reads.size(), reads.toString());
                for (SluiceFSInputStream.PieceRead read : reads) {
                    assertTrue(read.thread().equals(caller)
                            || read.thread().startsWith(SluiceFSInputStream.PieceReaders.NAME), read.toString());
                }
            }
        }
    }

    @Test
    void aFileTruncatedUnderAPiecewiseReadFailsEveryFutureWithThePathAndOffset() throws Exception {
        java.nio.file.Path local = dir.resolve("data.bin");
        List<FileRange> ranges = List.of(FileRange.createFileRange(10_000, 50_000),
                FileRange.createFileRange(100_000, 50_000), FileRange.createFileRange(200_000, 99_000));
        int[] calls = {0};
        // The channel engine: a mapped read of a truncated file would fault instead of reading short.
        try (FileSystem pieces = withSettings(SluiceLocalFileSystem.PIECE, "4096", SluiceLocalFileSystem.ENGINE,
                "channel");
             FSDataInputStream in = pieces.open(file)) {
            in.readVectored(ranges, n -> {
                if (++calls[0] == ranges.size()) {
                    // Every buffer is allocated before the first read: the whole read sees the shorter file.
                    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(local,
                            java.nio.file.StandardOpenOption.WRITE)) {
                        ch.truncate(5_000);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
                return ByteBuffer.allocate(n);
            });
            for (FileRange range : ranges) {
                java.util.concurrent.ExecutionException e = assertThrows(
                        java.util.concurrent.ExecutionException.class, () -> range.getData().get(10,
                                TimeUnit.SECONDS));
                assertInstanceOf(EOFException.class, e.getCause(), range.toString());
                String message = e.getCause().getMessage();
                // Whichever piece of the range failed first names the offset it failed at.
                assertTrue(message.contains(local.toString()) && message.contains("end of file at ")
                        && message.contains(String.valueOf(range.getOffset())), message);
            }
        }
    }

    @Test
    void piecesShareOneBoundedPoolOfDaemonThreadsAndClosedStreamsRefuseReads() throws Exception {
        java.nio.file.Path local = dir.resolve("pool.bin");
        byte[] big = new byte[4 << 20];
        new Random(14).nextBytes(big);
        Files.write(local, big);
        List<FSDataInputStream> closed = new ArrayList<>();
        try (FileSystem pieces = withSettings(SluiceLocalFileSystem.PIECE, "64k")) {
            for (int i = 0; i < 40; i++) {
                try (FSDataInputStream in = pieces.open(new Path(local.toUri()))) {
                    List<FileRange> ranges = List.of(FileRange.createFileRange(0, 2 << 20),
                            FileRange.createFileRange(3 << 20, 1 << 20));
                    in.readVectored(ranges, ByteBuffer::allocate);
                    assertEquals(ByteBuffer.wrap(big, 3 << 20, 1 << 20), ranges.get(1).getData().get(10,
                            TimeUnit.SECONDS));
                    closed.add(in);
                }
            }
        }
        List<Thread> readers = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith(SluiceFSInputStream.PieceReaders.NAME)).toList();
        assertTrue(readers.size() <= SluiceFSInputStream.PieceReaders.THREADS, readers.toString());
        assertTrue(readers.stream().allMatch(Thread::isDaemon), readers.toString());
        IOException refused = assertThrows(IOException.class, () -> closed.get(0).readVectored(
                List.of(FileRange.createFileRange(0, 10)), ByteBuffer::allocate));
        assertTrue(refused.getMessage().contains("pool.bin"), refused.getMessage());
    }

    @Test
    void aFailingVectoredReadCompletesEveryFuture() throws Exception {
        List<FileRange> ranges = List.of(FileRange.createFileRange(0, 100), FileRange.createFileRange(100_000, 100),
                FileRange.createFileRange(200_000, 100));
        int[] calls = {0};
        try (FSDataInputStream in = fs.open(file)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> in.readVectored(ranges, n -> {
                if (++calls[0] == 2) {
                    throw new IllegalStateException("no memory for the second range");
                }
                return ByteBuffer.allocate(n);
            }));
            assertEquals("no memory for the second range", e.getMessage());
        }
        for (FileRange range : ranges) {
            assertTrue(range.getData().isCompletedExceptionally(), range.toString());
        }
    }

    @Test
    void openFileOptions() throws Exception {
        try (FSDataInputStream in = fs.openFile(file)
                .opt("fs.option.openfile.read.policy", "unknown-policy, parquet, sequential")
                .opt("fs.option.openfile.length", String.valueOf(data.length))
                .opt(SluiceLocalFileSystem.DIRECT, "true")
                .build().get()) {
            assertTrue(in.getWrappedStream().toString().contains("O_DIRECT"), in.getWrappedStream().toString());
            List<FileRange> ranges = List.of(FileRange.createFileRange(4097, 10_000));
            in.readVectored(ranges, ByteBuffer::allocate);
            ByteBuffer got = ranges.get(0).getData().get(10, TimeUnit.SECONDS);
            byte[] bytes = new byte[got.remaining()];
            got.get(bytes);
            assertArrayEquals(java.util.Arrays.copyOfRange(data, 4097, 14_097), bytes);
        }
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> fs.openFile(file).must("fs.sluice.no-such-option", "1").build());
        assertTrue(unknown.getMessage().contains("fs.sluice.no-such-option"), unknown.getMessage());
        assertEquals(Advice.RANDOM, SluiceLocalFileSystem.advice(List.of("unknown", "parquet", "sequential")));
        assertEquals(Advice.SEQUENTIAL, SluiceLocalFileSystem.advice(List.of("whole-file")));
        assertEquals(Advice.NORMAL, SluiceLocalFileSystem.advice(List.of()));
        assertEquals(4096, SluiceLocalFileSystem.length("4096.0"));
        assertEquals(-1, SluiceLocalFileSystem.length("4.32E61"));
    }
}
