package io.sluice.jmh;

import io.sluice.IoBatch;
import io.sluice.PositionalFile;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
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
 * {@value #BATCH} random 4 KiB reads handed over as one {@link IoBatch} against the same reads made as single calls,
 * per Sluice engine, from a file that is entirely in the page cache.
 *
 * <p>The synchronous engines run a batch's requests one after another, so today {@link #batch} should score at or a
 * little below {@link #singles} (the batch's bookkeeping is the difference); an engine with a submission queue
 * (io_uring) hands all {@value #BATCH} to the kernel in one system call, and this is where it is expected to win.
 *
 * <p>Scores are per read, not per batch ({@link OperationsPerInvocation}), so they compare directly with
 * {@link RandomReadBenchmark} at {@code blockSize=4096}. Both methods read into the same {@value #BATCH} buffers at
 * the same positions from the per-thread table. There is no plain-JDK variant, since the JDK has no batch API.
 * Unavailable engines fail their trial in setup, as in {@link RandomReadBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx2g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class BatchReadBenchmark {
    /** Reads per batch. */
    static final int BATCH = 32;
    /** Bytes per read. */
    static final int BLOCK = 4096;

    /** A Sluice engine name. */
    @Param({"CLASSIC", "CHANNEL", "MMAP", "IO_URING"})
    public String engine;

    /** Bytes in the data file; it must fit in free memory to stay in the page cache. Default 1 GiB. */
    @Param({"1073741824"})
    public long fileSize;

    private ReadTarget target;

    @Setup(Level.Trial)
    public void createFile() throws IOException {
        if (ReadTarget.sluiceEngine(engine) == null) {
            throw new IllegalArgumentException(engine + " is a plain-JDK baseline; the JDK has no batch API to compare");
        }
        target = ReadTarget.create(engine, fileSize);
    }

    @TearDown(Level.Trial)
    public void deleteFile() throws IOException {
        if (target != null) {
            target.close();
        }
    }

    /** What each benchmark thread owns: a reusable batch, its buffers, and its table of positions. */
    @State(Scope.Thread)
    public static class PerThread {
        private Arena arena;
        PositionalFile file;
        IoBatch batch;
        ByteBuffer[] buffers;
        Offsets offsets;

        @Setup(Level.Trial)
        public void setUp(BatchReadBenchmark bench, ThreadParams thread) throws IOException {
            // A shared arena, since JMH does not promise that the thread which sets a state up tears it down.
            arena = Arena.ofShared();
            file = bench.target.sluiceFile();
            batch = IoBatch.create(BATCH);
            buffers = new ByteBuffer[BATCH];
            for (int i = 0; i < BATCH; i++) {
                buffers[i] = bench.target.newSluiceBuffer(BLOCK, arena);
            }
            offsets = Offsets.random(bench.target.size(), BLOCK, 2000L + thread.getThreadIndex());
            int n = file.read(buffers[0].clear(), 0);
            if (n != BLOCK) {
                throw new IllegalStateException(bench.engine + " read " + n + " of " + BLOCK + " bytes");
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            arena.close();
        }
    }

    /** {@value #BATCH} reads added to one batch and submitted at once. */
    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(BATCH)
    public long batch(PerThread t) throws IOException {
        IoBatch batch = t.batch;
        ByteBuffer[] buffers = t.buffers;
        for (int i = 0; i < BATCH; i++) {
            batch.read(t.file, buffers[i].clear(), t.offsets.next());
        }
        batch.submit();
        long total = 0;
        for (int i = 0; i < BATCH; i++) {
            // result() throws for a failed request, so an error cannot pass as a fast read.
            total += batch.result(i);
        }
        batch.clear();
        return total;
    }

    /** The same {@value #BATCH} reads, one call each. */
    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(BATCH)
    public long singles(PerThread t) throws IOException {
        PositionalFile file = t.file;
        ByteBuffer[] buffers = t.buffers;
        long total = 0;
        for (int i = 0; i < BATCH; i++) {
            total += file.read(buffers[i].clear(), t.offsets.next());
        }
        return total;
    }
}
