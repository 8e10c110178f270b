package io.sluice.jmh;

import io.sluice.BigFiles;
import io.sluice.ParallelScan;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
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
 * Counting the lines of a text file in the page cache (what {@code sluice wc -l} does): {@link ParallelScan} on
 * {@code threads} threads, handing over mapped segments ({@code scanMapped}) or reading 1 MiB at a time into a
 * per-thread buffer ({@code scanReads}, what {@code wc} uses), against a single-threaded {@link FileChannel} loop
 * counting the same way. One operation is the whole file.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx2g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 2)
public class LineCountBenchmark {
    /** Threads for the scans; 0 means one per core. */
    @Param({"1", "0"})
    public int threads;

    /**
     * Bytes per segment of the scans; 0 keeps ParallelScan's own. Small segments show what a scan pays per segment:
     * {@code -p segmentSize=100} was how mapping once per thread instead of once per segment was measured.
     */
    @Param({"0"})
    public long segmentSize;

    /** Bytes in the file. Default 1 GiB. */
    @Param({"1073741824"})
    public long fileSize;

    private static final int READ = 1 << 20;

    private Path path;
    private ByteBuffer buffer;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        // Lines of 1 to 120 printable characters: a source of 1 MiB of them, repeated.
        SplittableRandom rnd = new SplittableRandom(3);
        StringBuilder text = new StringBuilder();
        while (text.length() < (1 << 20)) {
            int n = 1 + rnd.nextInt(120);
            for (int i = 0; i < n; i++) {
                text.append((char) ('!' + rnd.nextInt(94)));
            }
            text.append('\n');
        }
        path = Files.createTempFile(BenchFile.PREFIX, ".txt");
        BigFiles.fill(path, fileSize, text.toString().getBytes(StandardCharsets.US_ASCII));
        try (FileChannel c = FileChannel.open(path)) {
            c.force(false);
        }
        buffer = Arena.ofAuto().allocate(READ, 4096).asByteBuffer();
        channelLoop();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        BenchFile.delete(path);
    }

    private ParallelScan lines() {
        ParallelScan scan = ParallelScan.lines().withThreads(threads);
        return segmentSize > 0 ? scan.withSegmentSize(segmentSize) : scan;
    }

    private static long count(ParallelScan scan, Path path) throws IOException {
        return scan.scan(path, () -> new long[1],
                (acc, records, position) -> acc[0] += ParallelScan.count(records, (byte) '\n'),
                (a, b) -> new long[] {a[0] + b[0]})[0];
    }

    @Benchmark
    public long scanMapped() throws IOException {
        return count(lines(), path);
    }

    @Benchmark
    public long scanReads() throws IOException {
        return count(lines().withReads(READ), path);
    }

    /** The baseline: one thread, 1 MiB positional reads, the same count per buffer. */
    @Benchmark
    public long channelLoop() throws IOException {
        MemorySegment seg = MemorySegment.ofBuffer(buffer);
        long lines = 0;
        try (FileChannel c = FileChannel.open(path)) {
            long pos = 0;
            for (int k; (k = c.read(buffer.clear(), pos)) > 0; pos += k) {
                lines += ParallelScan.count(seg.asSlice(0, k), (byte) '\n');
            }
        }
        return lines;
    }
}
