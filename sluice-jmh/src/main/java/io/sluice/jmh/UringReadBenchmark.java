package io.sluice.jmh;

import io.sluice.IoBatch;
import io.sluice.PositionalFile;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
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
 * The io_uring section of {@code sluice bench uring} under JMH: random positional reads of {@code blockSize} through
 * the IO_URING engine's registered file, one blocking call at a time ({@link #uring}) and {@value #DEPTH} per
 * {@link IoBatch} ({@link #uringBatch}), against a pre-opened {@link FileChannel} reading into a page-aligned direct
 * buffer ({@link #channel}); and the same reads made by {@value #VTHREADS} virtual threads sharing one file
 * ({@link #uringVirtualThreads} against {@link #channelVirtualThreads}), as in seed 004.
 *
 * <p>The file is in the page cache ({@code direct=false}), or read with O_DIRECT by both sides ({@code -p
 * direct=true}; block sizes must then be whole blocks of the file system, or the trial fails in setup). Scores are
 * per read. {@link #channel} and {@link #uring} pin one thread; JMH's {@code -t 25} gives the seed's 25 platform
 * threads (the score is then the sum over threads).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx2g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class UringReadBenchmark {
    /** Reads per batch in {@link #uringBatch}, the default {@code --depth} of {@code sluice bench uring}. */
    static final int DEPTH = 32;
    /** Virtual threads per invocation of the virtual-thread methods, as in seed 004. */
    static final int VTHREADS = 25;
    /** Reads each virtual thread makes per invocation; starting and joining the threads is a few percent of it. */
    static final int READS_PER_VTHREAD = 64;

    /** Bytes per read. */
    @Param({"512", "4096", "16384", "65536"})
    public int blockSize;

    /** Whether both sides read with O_DIRECT, bypassing the page cache. */
    @Param({"false"})
    public boolean direct;

    /** Bytes in the data file; it must fit in free memory to stay in the page cache. Default 1 GiB. */
    @Param({"1073741824"})
    public long fileSize;

    private UringTarget target;

    @Setup(Level.Trial)
    public void createFile() throws IOException {
        target = UringTarget.create(fileSize, blockSize, false, direct);
    }

    @TearDown(Level.Trial)
    public void deleteFile() throws IOException {
        if (target != null) {
            target.close();
        }
    }

    private void checkFullRead(int n, String who) {
        // A short read would be a cheaper operation and a wrong number.
        if (n != blockSize) {
            throw new IllegalStateException(who + " read " + n + " of " + blockSize + " bytes");
        }
    }

    /** A platform benchmark thread's buffer, batch and positions. */
    @State(Scope.Thread)
    public static class PerThread {
        private Arena arena;
        ByteBuffer buffer;
        MemorySegment[] batchBuffers;
        IoBatch batch;
        Offsets offsets;

        @Setup(Level.Trial)
        public void setUp(UringReadBenchmark bench, ThreadParams thread) throws IOException {
            // Shared, since JMH does not promise that the thread which sets a state up tears it down.
            arena = Arena.ofShared();
            buffer = arena.allocate(bench.blockSize, UringTarget.alignment()).asByteBuffer();
            batchBuffers = new MemorySegment[DEPTH];
            for (int i = 0; i < DEPTH; i++) {
                batchBuffers[i] = arena.allocate(bench.blockSize, UringTarget.alignment());
            }
            batch = IoBatch.create(DEPTH);
            offsets = Offsets.random(bench.target.size(), bench.blockSize, 4000L + thread.getThreadIndex());
            bench.checkFullRead(bench.target.channel().read(buffer.clear(), 0), "FileChannel");
            bench.checkFullRead(bench.target.file().read(buffer.clear(), 0), "IO_URING");
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            arena.close();
        }
    }

    /** One buffer and one table of positions per virtual thread, made once per trial. */
    @State(Scope.Thread)
    public static class VirtualThreads {
        private Arena arena;
        ByteBuffer[] buffers;
        Offsets[] offsets;
        final long[] bytes = new long[VTHREADS];
        final Throwable[] failures = new Throwable[VTHREADS];
        final Thread[] threads = new Thread[VTHREADS];

        @Setup(Level.Trial)
        public void setUp(UringReadBenchmark bench, ThreadParams thread) {
            arena = Arena.ofShared();
            buffers = new ByteBuffer[VTHREADS];
            offsets = new Offsets[VTHREADS];
            for (int v = 0; v < VTHREADS; v++) {
                buffers[v] = arena.allocate(bench.blockSize, UringTarget.alignment()).asByteBuffer();
                offsets[v] = Offsets.random(bench.target.size(), bench.blockSize,
                        5000L + (long) thread.getThreadIndex() * VTHREADS + v);
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            arena.close();
        }

        /** One read into {@code buffer} at {@code position}: the call under test. */
        interface Read {
            int at(ByteBuffer buffer, long position) throws IOException;
        }

        /**
         * Starts {@value #VTHREADS} virtual threads, each making {@value #READS_PER_VTHREAD} blocking reads into its
         * own buffer, waits for all of them, and returns the bytes read.
         */
        long run(Read read, int blockSize) throws Exception {
            for (int v = 0; v < VTHREADS; v++) {
                final int id = v;
                threads[v] = Thread.ofVirtual().start(() -> {
                    try {
                        long sum = 0;
                        for (int i = 0; i < READS_PER_VTHREAD; i++) {
                            int n = read.at(buffers[id], offsets[id].next());
                            if (n != blockSize) {
                                throw new IOException("short read: " + n + " of " + blockSize + " bytes");
                            }
                            sum += n;
                        }
                        bytes[id] = sum;
                    } catch (Throwable e) {
                        failures[id] = e;
                    }
                });
            }
            long total = 0;
            for (int v = 0; v < VTHREADS; v++) {
                threads[v].join();
                if (failures[v] != null) {
                    throw new IllegalStateException("virtual thread " + v + " failed", failures[v]);
                }
                total += bytes[v];
            }
            return total;
        }
    }

    /** One read through a pre-opened FileChannel into a page-aligned direct buffer. */
    @Benchmark
    @Threads(1)
    public int channel(PerThread t) throws IOException {
        return target.channel().read(t.buffer.clear(), t.offsets.next());
    }

    /** One blocking read through the IO_URING engine's registered file. */
    @Benchmark
    @Threads(1)
    public int uring(PerThread t) throws IOException {
        return target.file().read(t.buffer.clear(), t.offsets.next());
    }

    /** {@value #DEPTH} reads handed to the IO_URING engine as one batch, one system call; scored per read. */
    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(DEPTH)
    public long uringBatch(PerThread t) throws IOException {
        PositionalFile file = target.file();
        IoBatch batch = t.batch;
        batch.clear();
        for (int i = 0; i < DEPTH; i++) {
            batch.read(file, t.batchBuffers[i], t.offsets.next());
        }
        batch.submit();
        long total = 0;
        for (int i = 0; i < DEPTH; i++) {
            // result() throws for a failed request, so an error cannot pass as a fast read.
            total += batch.result(i);
        }
        return total;
    }

    /** {@value #VTHREADS} virtual threads reading one shared FileChannel; scored per read. */
    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(VTHREADS * READS_PER_VTHREAD)
    public long channelVirtualThreads(VirtualThreads v) throws Exception {
        FileChannel channel = target.channel();
        return v.run((buffer, position) -> channel.read(buffer.clear(), position), blockSize);
    }

    /** {@value #VTHREADS} virtual threads making blocking reads through one shared IO_URING file; scored per read. */
    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(VTHREADS * READS_PER_VTHREAD)
    public long uringVirtualThreads(VirtualThreads v) throws Exception {
        PositionalFile file = target.file();
        return v.run((buffer, position) -> file.read(buffer.clear(), position), blockSize);
    }
}
