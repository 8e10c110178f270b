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
 * Random positional reads of one block each from a file that is entirely in the page cache: the cost of a read
 * call and its copy, per engine and block size, against two plain {@link java.nio.channels.FileChannel} baselines.
 *
 * <p>One operation is one read of {@code blockSize} bytes at a block-aligned position drawn from a per-thread
 * precomputed table ({@link Offsets}). All threads share one open file; each reads into its own buffer, made once
 * (see {@link ReadTarget} for which buffer each variant uses, and why). {@link #read} runs on one thread and
 * {@link #readAllCores} on as many threads as the machine has CPUs; JMH's {@code -t} overrides both.
 *
 * <p>An engine that cannot run here (see {@link io.sluice.Engine#isAvailable()}) fails its trial in setup, before
 * any file is made, with the cause in the message; JMH reports the failure and goes on with the next parameters.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx2g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class RandomReadBenchmark {
    /** A Sluice engine name, or {@code naive-direct}, {@code jdk-aligned} or {@code jdk-mapped}. */
    @Param({"naive-direct", "jdk-aligned", "jdk-mapped", "CLASSIC", "CHANNEL", "MMAP", "IO_URING"})
    public String engine;

    /** Bytes per read. */
    @Param({"512", "4096", "16384", "65536"})
    public int blockSize;

    /** Bytes in the data file; it must fit in free memory to stay in the page cache. Default 1 GiB. */
    @Param({"1073741824"})
    public long fileSize;

    private ReadTarget target;

    @Setup(Level.Trial)
    public void createFile() throws IOException {
        target = ReadTarget.create(engine, fileSize);
    }

    @TearDown(Level.Trial)
    public void deleteFile() throws IOException {
        if (target != null) {
            target.close();
        }
    }

    /** What each benchmark thread owns: its reader with its buffer, and its table of positions. */
    @State(Scope.Thread)
    public static class PerThread {
        private Arena arena;
        BlockReader reader;
        Offsets offsets;

        @Setup(Level.Trial)
        public void setUp(RandomReadBenchmark bench, ThreadParams thread) throws IOException {
            // A shared arena, since JMH does not promise that the thread which sets a state up tears it down.
            arena = Arena.ofShared();
            reader = bench.target.newReader(bench.blockSize, arena);
            offsets = Offsets.random(bench.target.size(), bench.blockSize, 1000L + thread.getThreadIndex());
            // A short read would make the numbers meaningless, so one real read is checked before measuring.
            int n = reader.readAt(0);
            if (n != bench.blockSize) {
                throw new IllegalStateException(bench.engine + " read " + n + " of " + bench.blockSize + " bytes");
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
    }

    /** One random read, on one thread. */
    @Benchmark
    @Threads(1)
    public int read(PerThread t) throws IOException {
        return t.reader.readAt(t.offsets.next());
    }

    /** One random read, on every CPU at once; the score is the sum over threads. */
    @Benchmark
    @Threads(Threads.MAX)
    public int readAllCores(PerThread t) throws IOException {
        return t.reader.readAt(t.offsets.next());
    }
}
