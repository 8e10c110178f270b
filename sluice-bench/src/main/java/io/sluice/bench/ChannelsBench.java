package io.sluice.bench;

import io.sluice.Engine;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The channels section: Sluice behind the JDK's types against what they replace. The JDK's
 * {@link java.nio.channels.AsynchronousFileChannel} against sluice-nio's over IO_URING, on random reads of
 * {@code asyncBlockSize} with {@code depth} in flight per thread, through the page cache and with O_DIRECT (the JDK's
 * own {@code ExtendedOpenOption.DIRECT} on both); then sluice-nio's {@link java.nio.channels.FileChannel} over each
 * engine against that engine's own {@link io.sluice.PositionalFile}, one random read at a time at each block size.
 */
public final class ChannelsBench {
    /**
     * What to run: the test file's size and directory, the block sizes of the adapter rows, the engines to wrap, the
     * thread counts of the asynchronous rows and of the adapter rows, reads in flight per thread, the block size of
     * the asynchronous rows, whether to add the O_DIRECT rows, the sampling, whether to run fio beside the
     * asynchronous rows (when it is installed), whether each Java contender runs in a JVM of its own
     * ({@link ForkedContender}) or all in this one, and in how many JVMs per cell, one after another
     * ({@link BenchChecks#forks}).
     */
    public record Options(long fileSize, Path dir, List<Integer> blockSizes, List<Engine> engines,
                          List<Integer> asyncThreads, List<Integer> adapterThreads, int depth, int asyncBlockSize,
                          boolean direct, long sampleNanos, int rounds, boolean fio, boolean fork, int forks) {
        /** Copies the lists and checks {@code forks} against {@code rounds} and {@code fork}. */
        public Options {
            BenchChecks.forks(forks, rounds, fork);
            blockSizes = List.copyOf(blockSizes);
            engines = List.copyOf(engines);
            asyncThreads = List.copyOf(asyncThreads);
            adapterThreads = List.copyOf(adapterThreads);
        }
    }

    /**
     * The row each workload's ratios are taken against in the table and the JSON: the JDK's asynchronous channel for
     * the rows with reads in flight; CHANNEL for the adapter rows (each adapter's ratio to its own engine is in
     * {@link #ratios}).
     */
    public static String baseline(Workload w) {
        return w.depth() > 1 ? AsyncChannelContender.JDK : Engine.CHANNEL.name();
    }

    /** fio's io_uring at the cell's depth, one job per thread. */
    static final String FIO_URING = "fio-io_uring";
    /** fio's psync with one job per request in flight. */
    static final String FIO_PSYNC = "fio-psync-job-per-request";

    private final Options o;
    private final PrintWriter log;

    public ChannelsBench(Options options, PrintWriter log) {
        this.o = options;
        this.log = log;
    }

    public List<Row> run() throws IOException, InterruptedException {
        log.printf(Locale.ROOT, "sluice bench channels: %s file; AsynchronousFileChannel: random reads of %s, %d in "
                        + "flight per thread, threads %s, cached%s; FileChannel adapter: engines %s, random reads of %s, "
                        + "threads %s; %s; %d rounds of %d ms%n",
                ByteSize.format(o.fileSize()), ByteSize.format(o.asyncBlockSize()), o.depth(), o.asyncThreads(),
                o.direct() ? " and O_DIRECT" : "", o.engines(), o.blockSizes().stream().map(ByteSize::format).toList(),
                o.adapterThreads(), Bench.forkText(o.fork(), o.forks()), o.rounds(), o.sampleNanos() / 1_000_000);
        List<Row> rows = new ArrayList<>();
        try (DataFile data = DataFile.create(o.dir(), o.fileSize(), bytes -> { })) {
            data.warm();
            log.printf(Locale.ROOT, "test file %s; page cache %.0f%% resident%n", data.path(),
                    PageCache.residentFraction(data.path()) * 100);
            if (Engine.IO_URING.isAvailable()) {
                rows.addAll(async(data, false));
                if (o.direct()) {
                    long align = Files.getFileStore(data.path()).getBlockSize();
                    if (o.asyncBlockSize() % align == 0) {
                        rows.addAll(async(data, true));
                    } else {
                        log.printf(Locale.ROOT, "note: no O_DIRECT rows: %s is not a multiple of the file system's "
                                + "block size (%d bytes)%n", ByteSize.format(o.asyncBlockSize()), align);
                    }
                }
            } else {
                log.println("note: no AsynchronousFileChannel rows: IO_URING is unavailable ("
                        + Engine.IO_URING.unavailabilityCause().orElse("") + ")");
            }
            for (Engine e : o.engines()) {
                if (!e.isAvailable()) {
                    log.println("note: no " + e + " rows: " + e.unavailabilityCause().orElse(""));
                    continue;
                }
                rows.addAll(adapter(data, e));
            }
        }
        ratios(rows, log);
        return rows;
    }

    private List<Row> async(DataFile data, boolean direct) throws IOException, InterruptedException {
        List<Contender> all = new ArrayList<>();
        try {
            if (o.fork()) {
                all.add(ForkedContender.async(true, data.path(), data.size(), o.depth(), direct, log));
                all.add(ForkedContender.async(false, data.path(), data.size(), o.depth(), direct, log));
            } else {
                all.add(AsyncChannelContender.jdk(data.path(), data.size(), o.depth(), direct));
                all.add(AsyncChannelContender.sluice(data.path(), data.size(), o.depth(), direct));
            }
            if (o.fio() && FioContender.version() != null) {
                // What the device and kernel allow each way of keeping depth reads in flight, in the same cell: one
                // ring with depth requests (submitted and reaped as whole batches, as the contenders wait for all
                // their futures), and depth threads each blocking in pread (how the JDK's channel does it).
                all.add(new FioContender(FIO_URING, "io_uring", data.path(), data.size(), List.of(), o.depth()));
                all.add(FioContender.jobPerRequest(FIO_PSYNC, "psync", data.path(), data.size(), o.depth()));
            }
            return Bench.measure(all, List.of(new Workload(Workload.RANDREAD, o.asyncBlockSize(), 1, direct)),
                    o.asyncThreads(), o.sampleNanos(), o.rounds(), o.forks(), log, true);
        } finally {
            for (Contender c : all) {
                c.close();
            }
        }
    }

    private List<Row> adapter(DataFile data, Engine engine) throws IOException, InterruptedException {
        List<Contender> all = new ArrayList<>();
        try {
            if (o.fork()) {
                // Each in its own JVM: the adapter's reads end in the engine's, and in one JVM the two rows would
                // share that engine's call sites and their type profile.
                all.add(ForkedContender.sluice(engine, data.path(), data.size(), log));
                all.add(ForkedContender.fileChannelAdapter(engine, data.path(), data.size(), log));
            } else {
                all.add(new SluiceContender(engine, data.path(), data.size()));
                all.add(new FileChannelAdapterContender(engine, data.path(), data.size()));
            }
            List<Workload> ws = new ArrayList<>();
            for (int bs : o.blockSizes()) {
                ws.add(new Workload(Workload.RANDREAD, bs));
            }
            log.println("FileChannel adapter over " + engine + ":");
            return Bench.measure(all, ws, o.adapterThreads(), o.sampleNanos(), o.rounds(), o.forks(), log, true);
        } finally {
            for (Contender c : all) {
                c.close();
            }
        }
    }

    /**
     * Prints the ratios the section is about, medians side by side in one cell: Sluice's asynchronous channel to the
     * JDK's, and each FileChannel adapter to its own engine; and, where fio ran, fio's io_uring to fio's psync with a
     * job per request: the most the first ratio can be on this device, since each channel is at best its fio.
     */
    static void ratios(List<Row> rows, PrintWriter log) {
        log.println("ratios (medians of the same cell):");
        for (Row r : rows) {
            String against = r.engine().equals(AsyncChannelContender.SLUICE) ? AsyncChannelContender.JDK
                    : r.engine().equals(FIO_URING) ? FIO_PSYNC
                    : r.engine().startsWith(FileChannelAdapterContender.PREFIX)
                            ? r.engine().substring(FileChannelAdapterContender.PREFIX.length()) : null;
            if (against == null) {
                continue;
            }
            for (Row b : rows) {
                if (b.engine().equals(against) && b.workload().equals(r.workload()) && b.threads() == r.threads()) {
                    log.printf(Locale.ROOT, "  %-34s / %-28s %-32s %d thread%s: %.2f (spreads %.0f%%, %.0f%%)%n",
                            r.engine(), against, r.workload(), r.threads(), r.threads() == 1 ? "" : "s",
                            r.opsPerMs() / b.opsPerMs(), r.spread() * 100, b.spread() * 100);
                }
            }
        }
        log.flush();
    }
}
