package io.sluice.hadoop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.Advice;
import io.sluice.Engine;
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
