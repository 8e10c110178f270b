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
 * What AUTO costs per read over the engine it sends the read to: the same reads of a warm file through AUTO as it
 * adapts, through AUTO with its thresholds pinned to one path (nothing timed, nothing explored), and through that
 * path's own engine, MMAP for the mapping and CHANNEL for {@code pread}. AUTO against AUTO pinned is the price of
 * the sampling and exploring; AUTO pinned against the engine is the price of the chooser's lookup and the extra call.
 *
 * <p>One operation is one read of {@code blockSize} bytes into a page-aligned direct buffer, at a random block
 * ({@code order=random}), at the next block of the thread's own stretch of the file ({@code sequential}, the
 * bench's 1 MiB cell), or at the thread's first block every time ({@code hot}: the copy comes from the CPU's cache
 * and costs a few nanoseconds, so what is left of a read is its calls and checks, where AUTO's own cost shows most). {@link #read} runs one thread, {@link #read2} two sharing the file, as {@code sluice bench}
 * does. After each trial the chooser's state is printed (see {@link io.sluice.Engine#autoChoices()}), so a score can
 * be read with the path AUTO ended on.
 *
 * <p>The variants, by {@code engine}: {@code AUTO}; {@code AUTO-map}, AUTO with {@code sluice.auto.map-max=1g}
 * (every read here through the mapping); {@code AUTO-pread}, with {@code sluice.auto.map-max=0} (every read by
 * {@code pread}); {@code MMAP}; {@code CHANNEL}. Each trial is its own JVM, so a pin set here holds for that trial only.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx2g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class AutoOverheadBenchmark {
    /** AUTO, AUTO-map, AUTO-pread, MMAP or CHANNEL. */
    @Param({"AUTO", "AUTO-map", "MMAP"})
    public String engine;

    /** Bytes per read. */
    @Param({"512", "4096", "16384"})
    public int blockSize;

    /** {@code random}, {@code sequential} or {@code hot}. */
    @Param({"random"})
    public String order;

    /** Bytes in the data file; it must fit in free memory to stay in the page cache. Default 256 MiB. */
    @Param({"268435456"})
    public long fileSize;

    private ReadTarget target;

    @Setup(Level.Trial)
    public void createFile() throws IOException {
        if (!order.equals("random") && !order.equals("sequential") && !order.equals("hot")) {
            throw new IllegalArgumentException("order must be random, sequential or hot: " + order);
        }
        String pin = switch (engine) {
            case "AUTO-map" -> "1g";
            case "AUTO-pread" -> "0";
            default -> null;
        };
        if (pin != null) {
            System.setProperty("sluice.auto.map-max", pin);
        }
        target = ReadTarget.create(pin != null ? "AUTO" : engine, fileSize);
    }

    @TearDown(Level.Trial)
    public void deleteFile() throws IOException {
        if (target != null) {
            if (engine.startsWith("AUTO")) {
                System.out.println(System.lineSeparator() + "# " + engine + " chooser after the trial: "
                        + io.sluice.Engine.autoChoices());
            }
            target.close();
        }
    }

    /** One thread's reader with its buffer, and where it reads next. */
    @State(Scope.Thread)
    public static class PerThread {
        private Arena arena;
        BlockReader reader;
        Offsets offsets;
        long next;
        long start;
        long end;
        int step;

        @Setup(Level.Trial)
        public void setUp(AutoOverheadBenchmark bench, ThreadParams thread) throws IOException {
            arena = Arena.ofShared();
            reader = bench.target.newReader(bench.blockSize, arena);
            long blocks = bench.target.size() / bench.blockSize;
            // Each thread its own stretch, so two sequential readers do not share pages.
            long share = blocks / thread.getThreadCount();
            start = thread.getThreadIndex() * share * bench.blockSize;
            end = start + share * bench.blockSize;
            next = start;
            step = bench.order.equals("hot") ? 0 : bench.blockSize;
            offsets = bench.order.equals("random")
                    ? Offsets.random(bench.target.size(), bench.blockSize, 2000L + thread.getThreadIndex()) : null;
            int n = reader.readAt(0);
            if (n != bench.blockSize) {
                throw new IllegalStateException(bench.engine + " read " + n + " of " + bench.blockSize + " bytes");
            }
        }

        long position() {
            if (offsets != null) {
                return offsets.next();
            }
            long p = next;
            next = p + step >= end ? start : p + step;
            return p;
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            arena.close();
        }
    }

    /** One read on one thread. */
    @Benchmark
    @Threads(1)
    public int read(PerThread t) throws IOException {
        return t.reader.readAt(t.position());
    }

    /** One read on each of two threads sharing the file; the score is the sum. */
    @Benchmark
    @Threads(2)
    public int read2(PerThread t) throws IOException {
        return t.reader.readAt(t.position());
    }
}
