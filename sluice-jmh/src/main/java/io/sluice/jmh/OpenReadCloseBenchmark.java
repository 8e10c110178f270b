package io.sluice.jmh;

import io.sluice.Engine;
import io.sluice.PathReads;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
 * Open, read one block at a random position, close: per request, over {@value #FILES} files of 1 MiB in the page
 * cache, the shape of serving many small files.
 *
 * <ul>
 *   <li>{@code engine=jdk}: {@link FileChannel#open}, one positional read into a page-aligned direct buffer, close;
 *       the baseline. It has no batch form, so its {@link #batch} trial fails at its first call.
 *   <li>{@code engine=IO_URING}: {@link PathReads}, each request an OPENAT into a direct descriptor, a READ and a
 *       CLOSE linked in the ring; {@link #singles} submits one request per call, {@link #batch} {@value #BATCH}.</li>
 *   <li>{@code engine=CHANNEL}: {@link PathReads} on its FileChannel path, which shows what its bookkeeping costs
 *       over the plain loop.</li>
 * </ul>
 * Scores are per request ({@link OperationsPerInvocation}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx2g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class OpenReadCloseBenchmark {
    /** Requests per invocation, and per PathReads submit in {@link #batch}. */
    static final int BATCH = 32;
    /** Files read from. */
    static final int FILES = 64;
    /** Bytes in each file. */
    static final int FILE_SIZE = 1 << 20;

    /** {@code jdk} (plain FileChannel loop), or the engine PathReads is asked to use. */
    @Param({"jdk", "CHANNEL", "IO_URING"})
    public String engine;

    /** Bytes per read: seed 004's sizes. */
    @Param({"512", "4096", "16384", "65536"})
    public int blockSize;

    private Path[] files;

    @Setup(Level.Trial)
    public void createFiles() throws IOException {
        if (engine.equals("IO_URING") && PathReads.directUnavailabilityCause() != null) {
            throw new IllegalStateException("io_uring direct descriptors: " + PathReads.directUnavailabilityCause());
        }
        files = new Path[FILES];
        for (int i = 0; i < FILES; i++) {
            files[i] = BenchFile.create(FILE_SIZE);
        }
    }

    @TearDown(Level.Trial)
    public void deleteFiles() {
        if (files != null) {
            for (Path f : files) {
                if (f != null) {
                    BenchFile.delete(f);
                }
            }
        }
    }

    /** What each thread owns: buffers, a reusable PathReads and its random (file, position) pairs. */
    @State(Scope.Thread)
    public static class PerThread {
        private Arena arena;
        MemorySegment[] buffers;
        ByteBuffer buffer;
        PathReads reads;
        Offsets offsets;
        Path[] files;
        Engine engine;

        @Setup(Level.Trial)
        public void setUp(OpenReadCloseBenchmark bench, ThreadParams thread) {
            arena = Arena.ofShared(); // JMH may tear down on another thread
            buffers = new MemorySegment[BATCH];
            for (int i = 0; i < BATCH; i++) {
                buffers[i] = arena.allocate(bench.blockSize, 4096);
            }
            buffer = buffers[0].asByteBuffer();
            reads = PathReads.create(BATCH);
            // Offsets over the files laid end to end: offset / FILE_SIZE picks the file.
            offsets = Offsets.random((long) FILES * FILE_SIZE, bench.blockSize, 3000L + thread.getThreadIndex());
            files = bench.files;
            engine = bench.engine.equals("jdk") ? null : Engine.valueOf(bench.engine);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            arena.close();
        }
    }

    /** {@value #BATCH} requests, one call each. */
    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(BATCH)
    public long singles(PerThread t) throws IOException {
        long total = 0;
        for (int i = 0; i < BATCH; i++) {
            long o = t.offsets.next();
            Path f = t.files[(int) (o / FILE_SIZE)];
            long pos = o % FILE_SIZE;
            if (t.engine == null) {
                try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
                    total += ch.read(t.buffer.clear(), pos);
                }
            } else {
                PathReads reads = t.reads;
                reads.clear();
                reads.read(f, pos, t.buffers[0]);
                reads.submit(t.engine);
                total += reads.result(0); // throws for a failed request
            }
        }
        return total;
    }

    /** {@value #BATCH} requests in one PathReads submit. */
    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(BATCH)
    public long batch(PerThread t) throws IOException {
        if (t.engine == null) {
            throw new UnsupportedOperationException("the JDK has no batch form of open, read, close");
        }
        PathReads reads = t.reads;
        reads.clear();
        for (int i = 0; i < BATCH; i++) {
            long o = t.offsets.next();
            reads.read(t.files[(int) (o / FILE_SIZE)], o % FILE_SIZE, t.buffers[i]);
        }
        reads.submit(t.engine);
        long total = 0;
        for (int i = 0; i < BATCH; i++) {
            total += reads.result(i);
        }
        return total;
    }
}
