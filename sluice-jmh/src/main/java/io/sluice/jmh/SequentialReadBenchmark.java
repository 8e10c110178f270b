package io.sluice.jmh;

import java.io.IOException;
import java.lang.foreign.Arena;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Large sequential reads from a file that is entirely in the page cache: copy bandwidth per engine, against two
 * plain {@link java.nio.channels.FileChannel} baselines.
 *
 * <p>One operation is one positional read of {@code readSize} bytes (1 MiB by default; multiply ops/ms by the size
 * for bandwidth). Each thread walks the file front to back from its own start, an equal share of the file apart, and
 * wraps to the beginning at the end, so threads read different parts of the file at once. Buffers as in
 * {@link RandomReadBenchmark}; unavailable engines fail their trial in setup in the same way.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx2g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class SequentialReadBenchmark {
    /** A Sluice engine name, or {@code naive-direct}, {@code jdk-aligned} or {@code jdk-mapped}. */
    @Param({"naive-direct", "jdk-aligned", "jdk-mapped", "CLASSIC", "CHANNEL", "MMAP", "IO_URING"})
    public String engine;

    /** Bytes per read; the file size must be a multiple of it. */
    @Param({"1048576"})
    public int readSize;

    /** Bytes in the data file; it must fit in free memory to stay in the page cache. Default 1 GiB. */
    @Param({"1073741824"})
    public long fileSize;

    private ReadTarget target;

    @Setup(Level.Trial)
    public void createFile() throws IOException {
        if (readSize <= 0 || fileSize < readSize || fileSize % readSize != 0) {
            // Whole reads only: a short read at the end would be a different, cheaper operation.
            throw new IllegalArgumentException(
                    "fileSize " + fileSize + " must be a positive multiple of readSize " + readSize);
        }
        target = ReadTarget.create(engine, fileSize);
    }

    @TearDown(Level.Trial)
    public void deleteFile() throws IOException {
        if (target != null) {
            target.close();
        }
    }

    /** What each benchmark thread owns: its reader with its buffer, and where it is in the file. */
    @State(Scope.Thread)
    public static class PerThread {
        private Arena arena;
        BlockReader reader;
        long position;
        int readSize;
        long fileSize;

        @Setup(Level.Trial)
        public void setUp(SequentialReadBenchmark bench, ThreadParams thread) throws IOException {
            // A shared arena, since JMH does not promise that the thread which sets a state up tears it down.
            arena = Arena.ofShared();
            readSize = bench.readSize;
            fileSize = bench.fileSize;
            reader = bench.target.newReader(readSize, arena);
            long reads = fileSize / readSize;
            position = reads * thread.getThreadIndex() / thread.getThreadCount() * readSize;
            int n = reader.readAt(position);
            if (n != readSize) {
                throw new IllegalStateException(bench.engine + " read " + n + " of " + readSize + " bytes");
            }
            if (thread.getThreadIndex() == 0) {
                // On a line of its own: JMH has already printed the first iteration's label when setup runs.
                System.out.println(System.lineSeparator() + "# " + bench.target + ": " + thread.getThreadCount()
                        + " thread(s), each reading into a " + reader.describeBuffer());
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            arena.close();
        }

        long next() {
            long p = position;
            long after = p + readSize;
            position = after == fileSize ? 0 : after;
            return p;
        }
    }

    /** One sequential read, on one thread. */
    @Benchmark
    @Threads(1)
    public int read(PerThread t) throws IOException {
        return t.reader.readAt(t.next());
    }

    /** One sequential read per thread, on every CPU at once; the score is the sum over threads. */
    @Benchmark
    @Threads(Threads.MAX)
    public int readAllCores(PerThread t) throws IOException {
        return t.reader.readAt(t.next());
    }
}
