package io.sluice.bench;

import io.sluice.BigFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code sluice bench bigfile}: a big file written from random arrays prepared in memory and read back whole,
 * with one thread and with every core (the workload of the "Blazing Disk IO with Java" experiment).
 *
 * <ul>
 *   <li>{@code fill}: {@link BigFiles#fill} against a single-threaded {@code FileChannel} loop writing the same
 *       source from a page-aligned direct buffer, 1 MiB per call. A new file per run.</li>
 *   <li>{@code sum}: {@link BigFiles#sum} against the same loop reading into a direct buffer and adding it up as
 *       longs, and against {@code mmap-long-sum}: each thread maps an equal share of the file with
 *       {@link FileChannel#map} and adds it up as longs, the plain-Java way to read a file at memory speed.
 *       The file is in the page cache, checked before and after.</li>
 * </ul>
 */
public final class BigFileBench {
    /** What to run. */
    public record Options(long size, Path dir, List<Integer> threads, int rounds) {
    }

    /** The row of {@link BigFiles#fill}. */
    public static final String BIGFILES_FILL = "BigFiles.fill";
    /** The row of {@link BigFiles#sum}. */
    public static final String BIGFILES_SUM = "BigFiles.sum";
    /** The rows of the single-threaded FileChannel loop, writing or reading. */
    public static final String CHANNEL_LOOP = "FileChannel-loop";
    /** The row of the plain Java mapped reader adding longs. */
    public static final String MMAP_LONG_SUM = "mmap-long-sum";

    /** The random source copied into the file, as in the original experiment: 128 MiB, or the file if smaller. */
    private static final int SOURCE = 128 << 20;
    /** Bytes per call of the FileChannel loop, and the block size of the rows. */
    private static final int CHUNK = 1 << 20;

    private final Options options;
    private final PrintWriter log;

    /** {@code log} receives progress (standard error in the CLI). */
    public BigFileBench(Options options, PrintWriter log) {
        this.options = options;
        this.log = log;
    }

    /** The baseline of each workload's ratio column. */
    public static String baseline(Workload w) {
        return w.name().equals(Workload.SUM) ? MMAP_LONG_SUM : CHANNEL_LOOP;
    }

    /** Runs both workloads. */
    public List<Row> run() throws IOException {
        long size = options.size();
        int sourceSize = (int) Math.min(SOURCE, size);
        byte[] source = new byte[sourceSize];
        new SplittableRandom(11).nextBytes(source);
        // The loop writes from direct memory, so the JDK copies nothing on the way.
        ByteBuffer direct = Arena.ofAuto().allocate(sourceSize, 4096).asByteBuffer();
        direct.put(source).clear();
        List<Row> rows = new ArrayList<>();
        long t0 = System.nanoTime();
        // Removed at the end, on failure, and on Ctrl-C.
        try (ScratchDir dir = ScratchDir.create(options.dir(), "sluice-bench-bigfile-")) {
            Path file = dir.resolve("data.bin");
            Workload fill = new Workload(Workload.FILL, CHUNK, Workload.NEW_FILE);
            List<Job> jobs = new ArrayList<>();
            for (int t : options.threads()) {
                jobs.add(job(BIGFILES_FILL, t, () -> BigFiles.fill(file, size, source, t), file));
            }
            jobs.add(job(CHANNEL_LOOP, 1, () -> channelFill(file, size, direct), file));
            log.printf(Locale.ROOT, "[1/2] %s, %s, threads %s ", fill, ByteSize.format(size), options.threads());
            log.flush();
            rows.addAll(Job.measure(jobs, fill, size, options.rounds(), log));

            Workload sum = new Workload(Workload.SUM, CHUNK);
            BigFiles.fill(file, size, source, options.threads().getLast());
            channelSum(file, ByteBuffer.allocateDirect(CHUNK));
            double before = PageCache.residentFraction(file);
            log.printf(Locale.ROOT, "[2/2] %s, %s, %.0f%% resident (%.0f s elapsed) ", sum, ByteSize.format(size),
                    before * 100, (System.nanoTime() - t0) / 1e9);
            log.flush();
            ByteBuffer readBuffer = Arena.ofAuto().allocate(CHUNK, 4096).asByteBuffer();
            jobs = new ArrayList<>();
            for (int t : options.threads()) {
                jobs.add(job(BIGFILES_SUM, t, () -> BigFiles.sum(file, t), null));
                jobs.add(job(MMAP_LONG_SUM, t, () -> mmapLongSum(file, t), null));
            }
            jobs.add(job(CHANNEL_LOOP, 1, () -> channelSum(file, readBuffer), null));
            rows.addAll(Job.measure(jobs, sum, size, options.rounds(), log));
            double after = PageCache.residentFraction(file);
            log.printf(Locale.ROOT, "page cache after the run: %.0f%% resident%s%n", after * 100,
                    after < 0.99 ? " (pages were dropped during the run: treat the sum figures with care)" : "");
            log.printf(Locale.ROOT, "measured in %.0f s%n", (System.nanoTime() - t0) / 1e9);
            return rows;
        }
    }

    /** One timed call. */
    private interface Call {
        void run() throws IOException;
    }

    /** A job timing {@code call}; with {@code fresh} set, that file is deleted before and after, untimed. */
    private static Job job(String name, int threads, Call call, Path fresh) {
        return new Job() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public int threads() {
                return threads;
            }

            @Override
            public long run() throws IOException {
                if (fresh != null) {
                    Files.deleteIfExists(fresh);
                }
                long t0 = System.nanoTime();
                call.run();
                long t1 = System.nanoTime();
                if (fresh != null) {
                    Files.delete(fresh);
                }
                return t1 - t0;
            }
        };
    }

    /** The baseline writer: one thread, one positional write of 1 MiB after another, from direct memory. */
    static void channelFill(Path file, long size, ByteBuffer source) throws IOException {
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            int n = source.capacity();
            for (long pos = 0; pos < size; ) {
                int from = (int) (pos % n);
                int len = (int) Math.min(Math.min(CHUNK, n - from), size - pos);
                ByteBuffer b = source.limit(from + len).position(from);
                while (b.hasRemaining()) {
                    pos += c.write(b, pos);
                }
            }
        }
    }

    /** The baseline reader: one thread, 1 MiB positional reads into {@code buffer}, added up as longs. */
    static long channelSum(Path file, ByteBuffer buffer) throws IOException {
        MemorySegment seg = MemorySegment.ofBuffer(buffer);
        long sum = 0;
        try (FileChannel c = FileChannel.open(file)) {
            long pos = 0;
            for (int n; (n = c.read(buffer.clear(), pos)) > 0; pos += n) {
                sum += longSum(seg, n);
            }
        }
        return sum;
    }

    /** The plain-Java mapped reader: each of {@code threads} threads maps its equal share and adds it as longs. */
    static long mmapLongSum(Path file, int threads) throws IOException {
        try (FileChannel c = FileChannel.open(file)) {
            long size = c.size();
            long share = size / threads / 8 * 8;
            AtomicLong total = new AtomicLong();
            List<Thread> ts = new ArrayList<>();
            IOException[] failure = new IOException[1];
            for (int t = 0; t < threads; t++) {
                long from = t * share;
                long len = t == threads - 1 ? size - from : share;
                ts.add(Thread.ofPlatform().start(() -> {
                    try (Arena arena = Arena.ofConfined()) {
                        total.addAndGet(longSum(c.map(FileChannel.MapMode.READ_ONLY, from, len, arena), len));
                    } catch (IOException e) {
                        failure[0] = e;
                    }
                }));
            }
            for (Thread t : ts) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("interrupted");
                }
            }
            if (failure[0] != null) {
                throw failure[0];
            }
            return total.get();
        }
    }

    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** The first {@code n} bytes of {@code s} added up as longs, the tail bytes one by one. */
    static long longSum(MemorySegment s, long n) {
        long sum = 0;
        long i = 0;
        for (; i + 8 <= n; i += 8) {
            sum += s.get(WORD, i);
        }
        for (; i < n; i++) {
            sum += s.get(ValueLayout.JAVA_BYTE, i);
        }
        return sum;
    }
}
