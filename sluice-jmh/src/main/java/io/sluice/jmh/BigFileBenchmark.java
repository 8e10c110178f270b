package io.sluice.jmh;

import io.sluice.BigFiles;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A big file written from a random array prepared in memory and read back whole (the matrix of {@code sluice bench
 * bigfile}): {@link BigFiles#fill} and {@link BigFiles#sum} on {@code threads} threads, against a single-threaded
 * {@link FileChannel} loop (1 MiB per call, direct buffers) and, for reading, against {@code mmapLongSum}: each
 * thread maps an equal share and adds it up as longs. One operation is the whole file; divide {@code fileSize} by
 * the score for bandwidth. {@code fill} and {@code channelFill} write a new file per operation; the others read a
 * file written and read once in setup, so it is in the page cache.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx2g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 2)
public class BigFileBenchmark {
    /** Threads for BigFiles and mmapLongSum; 0 means one per core. */
    @Param({"1", "0"})
    public int threads;

    /** Bytes in the file. Default 1 GiB. */
    @Param({"1073741824"})
    public long fileSize;

    private static final int SOURCE = 128 << 20;
    private static final int CHUNK = 1 << 20;
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private int n;
    private byte[] source;
    private ByteBuffer directSource;
    private ByteBuffer readBuffer;
    private Path written;
    private Path cached;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        n = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
        source = new byte[(int) Math.min(SOURCE, fileSize)];
        new SplittableRandom(11).nextBytes(source);
        directSource = Arena.ofAuto().allocate(source.length, 4096).asByteBuffer().put(source).clear();
        readBuffer = Arena.ofAuto().allocate(CHUNK, 4096).asByteBuffer();
        cached = BenchFile.create(fileSize);
        written = BenchFile.create(1);
    }

    @Setup(Level.Invocation)
    public void freshFile() throws IOException {
        // Untimed, and harmless before the read benchmarks: the written file is only for fill and channelFill.
        Files.deleteIfExists(written);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        BenchFile.delete(cached);
        BenchFile.delete(written);
    }

    @Benchmark
    public void fill() throws IOException {
        BigFiles.fill(written, fileSize, source, n);
    }

    /** The baseline writer: one thread, one positional write of 1 MiB after another, from direct memory. */
    @Benchmark
    public void channelFill() throws IOException {
        try (FileChannel c = FileChannel.open(written, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            int len = directSource.capacity();
            for (long pos = 0; pos < fileSize; ) {
                int from = (int) (pos % len);
                ByteBuffer b = directSource.limit(from + (int) Math.min(Math.min(CHUNK, len - from), fileSize - pos))
                        .position(from);
                while (b.hasRemaining()) {
                    pos += c.write(b, pos);
                }
            }
        }
    }

    @Benchmark
    public long sum() throws IOException {
        return BigFiles.sum(cached, n);
    }

    /** The plain-Java mapped reader: each thread maps an equal share and adds it up as longs. */
    @Benchmark
    public long mmapLongSum() throws Exception {
        try (FileChannel c = FileChannel.open(cached)) {
            long share = fileSize / n / 8 * 8;
            AtomicLong total = new AtomicLong();
            Thread[] ts = new Thread[n];
            for (int t = 0; t < n; t++) {
                long from = t * share;
                long len = t == n - 1 ? fileSize - from : share;
                ts[t] = Thread.ofPlatform().start(() -> {
                    try (Arena arena = Arena.ofConfined()) {
                        MemorySegment s = c.map(FileChannel.MapMode.READ_ONLY, from, len, arena);
                        long sum = 0;
                        for (long i = 0; i + 8 <= len; i += 8) {
                            sum += s.get(WORD, i);
                        }
                        total.addAndGet(sum);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
            }
            for (Thread t : ts) {
                t.join();
            }
            return total.get();
        }
    }

    /** The baseline reader: one thread, 1 MiB positional reads into a page-aligned buffer, added up as longs. */
    @Benchmark
    public long channelSum() throws IOException {
        MemorySegment seg = MemorySegment.ofBuffer(readBuffer);
        long sum = 0;
        try (FileChannel c = FileChannel.open(cached)) {
            long pos = 0;
            for (int k; (k = c.read(readBuffer.clear(), pos)) > 0; pos += k) {
                for (int i = 0; i + 8 <= k; i += 8) {
                    sum += seg.get(WORD, i);
                }
            }
        }
        return sum;
    }
}
