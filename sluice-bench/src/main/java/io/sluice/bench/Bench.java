package io.sluice.bench;

import io.sluice.Engine;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code sluice bench} run: make a file, warm the page cache, then measure every contender on every workload
 * and thread count, side by side: each round runs every contender once, and the order rotates between rounds so
 * none is always first or last while the machine's other load comes and goes.
 */
public final class Bench {
    /**
     * What to run. {@code engines} holds engine names and {@value ChannelContender.NAIVE_DIRECT}; {@code fork}: each
     * Java contender in a JVM of its own ({@link ForkedContender}), or all in this one; {@code forks}: how many JVMs
     * each forked contender gets in every cell, one after another, each for a share of the rounds
     * ({@link BenchChecks#forks}: 1 to {@code rounds}, and 1 without {@code fork}).
     */
    public record Options(long fileSize, Path dir, List<Integer> threads, List<String> engines,
                          List<Integer> blockSizes, int seqBlockSize, long sampleNanos, int rounds, boolean fio,
                          boolean fork, int forks) {
        /** Checks {@code forks} against {@code rounds} and {@code fork}. */
        public Options {
            BenchChecks.forks(forks, rounds, fork);
        }
    }

    /**
     * Seconds to start one child JVM and have it open the test file, for the estimate printed at the start: a
     * {@link ForkedContender#restart} with its warm-up took about 0.14 s on the project's idle 2-core machine
     * (docs/bench.md gives the command); a second covers a loaded or slower machine.
     */
    static final double CHILD_START_SECONDS = 1.0;

    private final Options options;
    private final PrintWriter log;

    /** {@code log} receives progress and notes (standard error in the CLI). */
    public Bench(Options options, PrintWriter log) {
        this.options = options;
        this.log = log;
    }

    /** The workloads in the order they run: random reads at each block size, then sequential reads. */
    public List<Workload> workloads() {
        List<Workload> w = new ArrayList<>();
        for (int bs : options.blockSizes()) {
            w.add(new Workload(Workload.RANDREAD, bs));
        }
        if (options.seqBlockSize() > 0) {
            w.add(new Workload(Workload.SEQREAD, options.seqBlockSize()));
        }
        return w;
    }

    /** Checks the engine names and drops, with a note, engines that cannot run here. */
    List<String> runnableEngines() {
        List<String> out = new ArrayList<>();
        for (String name : options.engines()) {
            if (name.equalsIgnoreCase(ChannelContender.NAIVE_DIRECT)) {
                out.add(ChannelContender.NAIVE_DIRECT);
                continue;
            }
            Engine e = Engine.parse(name);
            if (e.isAvailable()) {
                out.add(e.name());
            } else {
                log.printf("note: skipping %s: %s%n", e, e.unavailabilityCause().orElse(""));
            }
        }
        return out;
    }

    /** Runs everything and returns one row per contender, workload and thread count. */
    public List<Row> run() throws IOException, InterruptedException {
        List<String> engines = runnableEngines();
        String fioVersion = options.fio() ? FioContender.version() : null;
        if (options.fio() && fioVersion == null) {
            log.println("note: fio not found on PATH, so there are no reference rows. Install it to compare with what "
                    + "the machine can do: 'apt-get install fio', 'dnf install fio' or 'brew install fio'.");
        }
        List<Workload> workloads = workloads();
        int cells = workloads.size() * options.threads().size();
        int fioRows = fioVersion == null ? 0 : engines.contains(Engine.IO_URING.name()) ? 3 : 2;
        int contenders = engines.size() + fioRows;
        // Each Java contender's JVMs: one for the run, or --forks of them in every cell, each warmed up afresh.
        int jvms = !options.fork() ? 0 : options.forks() == 1 ? 1 : cells * options.forks();
        double warmUps = options.forks() == 1 ? cells : jvms;
        double seconds = (cells * contenders * options.rounds() + warmUps * engines.size() / 2.0)
                * (options.sampleNanos() / 1e9 + 0.02) + cells * options.rounds() * fioRows * 0.15
                + jvms * engines.size() * CHILD_START_SECONDS;
        log.printf(Locale.ROOT, "sluice bench: %s file, %s, threads %s, engines %s%s; %s; %d rounds of %d ms; "
                        + "about %.0f s%n",
                ByteSize.format(options.fileSize()), workloads, options.threads(), engines,
                fioVersion == null ? "" : " + " + fioVersion + (fioRows == 3 ? " (psync, mmap, io_uring)" : " (psync, mmap)"),
                forkText(options.fork(), options.forks()),
                options.rounds(),
                options.sampleNanos() / 1_000_000, seconds);
        log.flush();

        try (DataFile data = DataFile.create(options.dir(), options.fileSize(), new Progress(log, "writing test file",
                options.fileSize()))) {
            log.printf("test file %s%n", data.path());
            double warmRate = data.warm();
            double before = PageCache.residentFraction(data.path());
            log.printf(Locale.ROOT, "page cache warmed: read %s at %.0f MB/s; %.0f%% resident%n",
                    ByteSize.format(options.fileSize()), warmRate / 1e6, before * 100);
            if (before < 0.99) {
                log.println("warning: the file is not fully in the page cache (too little free memory?); "
                        + "figures include device reads.");
            }
            List<Contender> all = open(engines, fioVersion != null, data);
            try {
                List<Row> rows = measure(all, workloads, options.threads(), options.sampleNanos(), options.rounds(),
                        options.forks(), log, true);
                double after = PageCache.residentFraction(data.path());
                log.printf(Locale.ROOT, "page cache after the run: %.0f%% resident%s%n", after * 100,
                        after < 0.99 ? " (the kernel dropped pages during the run: treat figures with care)" : "");
                return rows;
            } finally {
                for (Contender c : all) {
                    c.close();
                }
            }
        }
    }

    private List<Contender> open(List<String> engines, boolean fio, DataFile data) throws IOException {
        List<Contender> all = new ArrayList<>();
        boolean success = false;
        try {
            for (String name : engines) {
                boolean naive = name.equals(ChannelContender.NAIVE_DIRECT);
                if (options.fork()) {
                    all.add(naive ? ForkedContender.naiveDirect(data.path(), data.size(), log)
                            : ForkedContender.sluice(Engine.parse(name), data.path(), data.size(), log));
                } else {
                    all.add(naive ? ChannelContender.naiveDirect(data.path(), data.size())
                            : new SluiceContender(Engine.parse(name), data.path(), data.size()));
                }
            }
            if (fio) {
                all.add(new FioContender("psync", data.path(), data.size()));
                all.add(new FioContender("mmap", data.path(), data.size()));
                if (engines.contains(Engine.IO_URING.name())) {
                    // IO_URING's fair reference: the same ring, one request per system call (depth 1, this bench's
                    // reads are blocking), with the file registered as IO_URING registers it.
                    all.add(new FioContender("io_uring", data.path(), data.size(), List.of("--registerfiles"), 1));
                }
            }
            success = true;
            return all;
        } finally {
            if (!success) {
                for (Contender c : all) {
                    c.close();
                }
            }
        }
    }

    /** How the Java contenders run, for a section's first line: {@code fork} and {@code forks} of its options. */
    static String forkText(boolean fork, int forks) {
        return !fork ? "every Java contender in this JVM (--no-fork)"
                : forks == 1 ? "each Java contender in a JVM of its own"
                : forks + " JVMs per Java contender in every cell, one after another, each warmed up and given a share "
                        + "of the rounds";
    }

    /**
     * Measures every contender on every workload and thread count, side by side: per cell, a warm-up sample each
     * (not recorded), then {@code rounds} rounds in which every contender runs once, in an order that rotates.
     */
    static List<Row> measure(List<Contender> all, List<Workload> workloads, List<Integer> threadCounts,
                             long sampleNanos, int rounds, PrintWriter log) throws IOException, InterruptedException {
        return measure(all, workloads, threadCounts, sampleNanos, rounds, 1, log, false);
    }

    /**
     * {@link #measure}, whose rows say whether each Java contender ran in a JVM of its own, and in how many, when
     * {@code sayForked} (the sections that fork, or could); with {@code forks} above 1 every {@link ForkedContender}
     * gets that many fresh JVMs in every cell ({@link #cell}). A cell's "AUTO chose:" line is asked of AUTO's child
     * after the cell, so with {@code forks} above 1 it is the cell's last child that answers, from the reads of its
     * own share of the rounds.
     */
    static List<Row> measure(List<Contender> all, List<Workload> workloads, List<Integer> threadCounts,
                             long sampleNanos, int rounds, int forks, PrintWriter log, boolean sayForked)
            throws IOException, InterruptedException {
        List<Row> rows = new ArrayList<>();
        long t0 = System.nanoTime();
        int cells = workloads.size() * threadCounts.size();
        int cell = 0;
        for (Workload w : workloads) {
            for (int threads : threadCounts) {
                cell++;
                log.printf(Locale.ROOT, "[%2d/%d] %s, %d thread%s (%.0f s elapsed)%n", cell, cells, w, threads,
                        threads == 1 ? "" : "s", (System.nanoTime() - t0) / 1e9);
                log.flush();
                // The first cell's first group has the children open() started; every later cell starts afresh.
                rows.addAll(cell(all, w, threads, sampleNanos, rounds, forks, cell > 1, sayForked));
                Contender auto = all.stream().filter(c -> c.name().equals(Engine.AUTO.name())).findFirst()
                        .orElse(null);
                if (auto != null) {
                    // What AUTO's reads went by in this cell, so its row can be read with the path it took; a forked
                    // AUTO learned in its own JVM, and only it can say.
                    log.println("         AUTO chose: " + (auto instanceof ForkedContender f ? f.autoChoices()
                            : Engine.autoChoices()));
                }
            }
        }
        log.printf(Locale.ROOT, "measured in %.0f s%n", (System.nanoTime() - t0) / 1e9);
        return rows;
    }

    /**
     * Measures one cell (a workload at a thread count) side by side: a warm-up sample per Java contender, then
     * {@code rounds} rounds in which every contender runs once, in an order that rotates between rounds.
     */
    static List<Row> cell(List<? extends Contender> all, Workload w, int threads, long sampleNanos, int rounds)
            throws IOException, InterruptedException {
        return cell(all, w, threads, sampleNanos, rounds, false);
    }

    /**
     * {@link #cell}, whose rows say whether each Java contender ran in a JVM of its own when {@code sayForked}; the
     * other sections' rows keep the fields they always had.
     */
    static List<Row> cell(List<? extends Contender> all, Workload w, int threads, long sampleNanos, int rounds,
                          boolean sayForked) throws IOException, InterruptedException {
        return cell(all, w, threads, sampleNanos, rounds, 1, false, sayForked);
    }

    /**
     * {@link #cell} with {@code forks} JVMs per {@link ForkedContender}: the rounds are split into {@code forks}
     * consecutive groups, as even as possible, and before each group after the first (and before the first too when
     * {@code restartFirst}: the children have measured another cell) each forked contender's child is replaced by a
     * fresh one ({@link ForkedContender#restart}), which gets a warm-up sample of its own before its rounds. The
     * rotation runs on across the groups as if there were none; fio is neither forked nor restarted. One JVM's
     * compilation is then a share of the row's samples, and the row's spread shows how far the JVMs differ.
     *
     * @throws IllegalArgumentException if {@code forks} is not 1 to {@code rounds}
     */
    static List<Row> cell(List<? extends Contender> all, Workload w, int threads, long sampleNanos, int rounds,
                          int forks, boolean restartFirst, boolean sayForked) throws IOException, InterruptedException {
        if (forks < 1 || forks > rounds) {
            throw new IllegalArgumentException("forks must be 1 to rounds (" + rounds + "): " + forks);
        }
        List<List<Sample>> samples = new ArrayList<>();
        for (int k = 0; k < all.size(); k++) {
            samples.add(new ArrayList<>());
        }
        int round = 0;
        for (int group = 0; group < forks; group++) {
            for (Contender c : all) {
                boolean fresh = forks > 1 && c instanceof ForkedContender && (group > 0 || restartFirst);
                if (fresh) {
                    ((ForkedContender) c).restart(c.adapt(w));
                }
                if (fresh || (group == 0 && !(c instanceof FioContender))) {
                    // Warm-up, not recorded: lets the JIT compile this contender's read path.
                    c.measure(c.adapt(w), threads, sampleNanos / 2);
                }
            }
            int end = round + rounds / forks + (group < rounds % forks ? 1 : 0);
            for (; round < end; round++) {
                for (int k = 0; k < all.size(); k++) {
                    int idx = (k + round) % all.size();
                    Contender c = all.get(idx);
                    samples.get(idx).add(c.measure(c.adapt(w), threads, sampleNanos));
                }
            }
        }
        List<Row> rows = new ArrayList<>();
        for (int k = 0; k < all.size(); k++) {
            Contender c = all.get(k);
            Boolean forked = !sayForked ? null : c instanceof ForkedContender ? Boolean.TRUE
                    : c instanceof JavaContender ? Boolean.FALSE : null;
            Integer jvms = forked == null ? null : forked ? forks : 1;
            rows.add(new Row(c.name(), c.adapt(w), threads, c.fioReference(), List.copyOf(samples.get(k)), forked,
                    jvms));
        }
        return rows;
    }

    /** Progress of a long step on the log, at most every 10%. */
    private static final class Progress implements java.util.function.LongConsumer {
        private final PrintWriter log;
        private final String what;
        private final long total;
        private int shown;

        Progress(PrintWriter log, String what, long total) {
            this.log = log;
            this.what = what;
            this.total = total;
        }

        @Override
        public void accept(long done) {
            int tenth = (int) (done * 10 / Math.max(1, total));
            if (tenth > shown) {
                shown = tenth;
                log.printf("%s: %d%%%n", what, tenth * 10);
                log.flush();
            }
        }
    }
}
