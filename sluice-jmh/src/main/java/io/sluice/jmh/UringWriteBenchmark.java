package io.sluice.jmh;

import io.sluice.IoBatch;
import io.sluice.PositionalFile;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
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
 * Random positional writes of {@code blockSize}, the write tables of seed 004 and the {@code randwrite} rows of
 * {@code sluice bench uring}: through the IO_URING engine's registered file one blocking call at a time
 * ({@link #uring}) and {@value UringReadBenchmark#DEPTH} per {@link IoBatch} ({@link #uringBatch}), against a
 * pre-opened {@link java.nio.channels.FileChannel} writing from a page-aligned direct buffer ({@link #channel}).
 *
 * <p>The file is written and read through before the trial ({@link BenchFile}), so every measured write overwrites a
 * page that is in the page cache: a page written for the first time would add a page fault and zeroing to the call.
 * Nothing is forced; the kernel writes dirty pages back in the background, for every method alike. Each thread
 * writes its own buffers, filled with random bytes once, at positions from its own table. The methods pin one
 * thread; the seed's tables are {@code -t 1}, {@code -t 8} and {@code -t 20} (the score is the sum over threads).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx2g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class UringWriteBenchmark {
    private static final int DEPTH = UringReadBenchmark.DEPTH;

    /** Bytes per write. */
    @Param({"512", "4096", "16384", "65536"})
    public int blockSize;

    /** Bytes in the data file; it must fit in free memory to stay in the page cache. Default 1 GiB. */
    @Param({"1073741824"})
    public long fileSize;

    private UringTarget target;

    @Setup(Level.Trial)
    public void createFile() throws IOException {
        target = UringTarget.create(fileSize, blockSize, true, false);
    }

    @TearDown(Level.Trial)
    public void deleteFile() throws IOException {
        if (target != null) {
            target.close();
        }
    }

    /** A benchmark thread's buffers, batch and positions. */
    @State(Scope.Thread)
    public static class PerThread {
        private Arena arena;
        ByteBuffer buffer;
        MemorySegment[] batchBuffers;
        IoBatch batch;
        Offsets offsets;

        @Setup(Level.Trial)
        public void setUp(UringWriteBenchmark bench, ThreadParams thread) throws IOException {
            // Shared, since JMH does not promise that the thread which sets a state up tears it down.
            arena = Arena.ofShared();
            SplittableRandom random = new SplittableRandom(6000L + thread.getThreadIndex());
            byte[] bytes = new byte[bench.blockSize];
            buffer = filled(bench.blockSize, random, bytes);
            batchBuffers = new MemorySegment[DEPTH];
            for (int i = 0; i < DEPTH; i++) {
                batchBuffers[i] = MemorySegment.ofBuffer(filled(bench.blockSize, random, bytes));
            }
            batch = IoBatch.create(DEPTH);
            offsets = Offsets.random(bench.target.size(), bench.blockSize, 7000L + thread.getThreadIndex());
            if (thread.getThreadIndex() == 0) {
                bench.checkWritesLand(buffer, arena);
            }
        }

        private ByteBuffer filled(int size, SplittableRandom random, byte[] bytes) {
            random.nextBytes(bytes);
            return arena.allocate(size, UringTarget.alignment()).asByteBuffer().put(bytes).clear();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            arena.close();
        }
    }

    /**
     * Writes {@code src} at 0 through each side and reads it back, so a write that silently does nothing cannot be
     * measured as a fast one.
     */
    void checkWritesLand(ByteBuffer src, Arena arena) throws IOException {
        ByteBuffer back = arena.allocate(blockSize, UringTarget.alignment()).asByteBuffer();
        for (String side : new String[] {"FileChannel", "IO_URING"}) {
            int n = side.equals("FileChannel") ? target.channel().write(src.clear(), 0)
                    : target.file().write(src.clear(), 0);
            target.channel().read(back.clear(), 0);
            if (n != blockSize || !back.flip().equals(src.clear())) {
                throw new IllegalStateException(side + " wrote " + n + " of " + blockSize
                        + " bytes, or the bytes read back differ");
            }
            // Changes the bytes so the second side's check cannot pass on the first side's write.
            src.put(0, (byte) ~src.get(0));
        }
    }

    /** One write through a pre-opened FileChannel from a page-aligned direct buffer. */
    @Benchmark
    @Threads(1)
    public int channel(PerThread t) throws IOException {
        return target.channel().write(t.buffer.clear(), t.offsets.next());
    }

    /** One blocking write through the IO_URING engine's registered file. */
    @Benchmark
    @Threads(1)
    public int uring(PerThread t) throws IOException {
        return target.file().write(t.buffer.clear(), t.offsets.next());
    }

    /** {@value UringReadBenchmark#DEPTH} writes handed to the IO_URING engine as one batch; scored per write. */
    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(DEPTH)
    public long uringBatch(PerThread t) throws IOException {
        PositionalFile file = target.file();
        IoBatch batch = t.batch;
        batch.clear();
        for (int i = 0; i < DEPTH; i++) {
            batch.write(file, t.batchBuffers[i], t.offsets.next());
        }
        batch.submit();
        long total = 0;
        for (int i = 0; i < DEPTH; i++) {
            // result() throws for a failed request, so an error cannot pass as a fast write.
            total += batch.result(i);
        }
        return total;
    }
}
