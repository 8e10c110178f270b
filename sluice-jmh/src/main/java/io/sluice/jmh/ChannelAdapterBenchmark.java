package io.sluice.jmh;

import io.sluice.Engine;
import io.sluice.PositionalFile;
import io.sluice.nio.SluiceChannels;
import java.io.IOException;
import java.lang.foreign.Arena;
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
 * What sluice-nio's {@link FileChannel} adds to its engine's own API, as {@code sluice bench channels} compares them:
 * the same reads of a warm file, one at a time, through {@link PositionalFile#read(ByteBuffer, long)}
 * ({@code api=engine}) or through the adapter's {@link FileChannel#read(ByteBuffer, long)} ({@code api=adapter}) over
 * the same engine. The buffer is the bench's: a heap buffer over a {@code byte[]} for CLASSIC, page-aligned direct
 * memory for the others (the engine side reads CLASSIC into the {@code byte[]} itself, as its bench row does).
 *
 * <p>{@code order=random} reads random blocks, as the bench does; {@code hot} reads the thread's first block every
 * time (every thread the same one), so the copy comes from the CPU's cache and the difference between the two sides is almost all of a read.
 * {@link #read} runs one thread, {@link #read2} two sharing the file and the channel.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx2g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ChannelAdapterBenchmark {
    /** The engine under both sides: CLASSIC, CHANNEL, MMAP, IO_URING or AUTO. */
    @Param({"MMAP", "AUTO"})
    public String engine;

    /** {@code engine} (the PositionalFile) or {@code adapter} (the FileChannel over it). */
    @Param({"engine", "adapter"})
    public String api;

    /** Bytes per read. */
    @Param({"512", "4096"})
    public int blockSize;

    /** {@code random} or {@code hot}. */
    @Param({"random"})
    public String order;

    /** Bytes in the data file; it must fit in free memory to stay in the page cache. Default 512 MiB, as the bench. */
    @Param({"536870912"})
    public long fileSize;

    private Path path;
    private PositionalFile file;
    private FileChannel channel;

    @Setup(Level.Trial)
    public void open() throws IOException {
        if (!api.equals("engine") && !api.equals("adapter")) {
            throw new IllegalArgumentException("api must be engine or adapter: " + api);
        }
        if (!order.equals("random") && !order.equals("hot")) {
            throw new IllegalArgumentException("order must be random or hot: " + order);
        }
        Engine e = Engine.parse(engine);
        e.requireAvailable();
        path = BenchFile.create(fileSize);
        if (api.equals("engine")) {
            file = PositionalFile.open(path, e);
        } else {
            channel = SluiceChannels.open(path, e, StandardOpenOption.READ);
        }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        try {
            if (file != null) {
                file.close();
            }
            if (channel != null) {
                channel.close();
            }
        } finally {
            BenchFile.delete(path);
        }
    }

    /** One thread's buffer and positions. */
    @State(Scope.Thread)
    public static class PerThread {
        private Arena arena;
        ByteBuffer buffer;
        byte[] array;
        Offsets offsets;
        boolean intoArray;

        @Setup(Level.Trial)
        public void setUp(ChannelAdapterBenchmark bench, ThreadParams thread) throws IOException {
            arena = Arena.ofShared();
            boolean classic = Engine.parse(bench.engine) == Engine.CLASSIC;
            if (classic) {
                array = new byte[bench.blockSize];
                buffer = ByteBuffer.wrap(array);
            } else {
                buffer = arena.allocate(bench.blockSize, 4096).asByteBuffer();
            }
            intoArray = classic && bench.file != null;
            offsets = bench.order.equals("random")
                    ? Offsets.random(bench.fileSize, bench.blockSize, 3000L + thread.getThreadIndex()) : null;
            int n = bench.readOnce(this, position());
            if (n != bench.blockSize) {
                throw new IllegalStateException(bench.engine + "/" + bench.api + " read " + n + " of "
                        + bench.blockSize + " bytes");
            }
        }

        /** The next random block, or for {@code hot} the file's first block (read-only, so threads may share it). */
        long position() {
            return offsets != null ? offsets.next() : 0;
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            arena.close();
        }
    }

    int readOnce(PerThread t, long position) throws IOException {
        if (channel != null) {
            return channel.read(t.buffer.clear(), position);
        }
        if (t.intoArray) {
            return file.read(t.array, 0, t.array.length, position);
        }
        return file.read(t.buffer.clear(), position);
    }

    /** One read on one thread. */
    @Benchmark
    @Threads(1)
    public int read(PerThread t) throws IOException {
        return readOnce(t, t.position());
    }

    /** One read on each of two threads sharing the file; the score is the sum. */
    @Benchmark
    @Threads(2)
    public int read2(PerThread t) throws IOException {
        return readOnce(t, t.position());
    }
}
