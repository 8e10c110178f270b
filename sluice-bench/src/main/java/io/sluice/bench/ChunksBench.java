package io.sluice.bench;

import io.sluice.Engine;
import io.sluice.chunks.AdaptivePolicy;
import io.sluice.chunks.CacheAdvice;
import io.sluice.chunks.ChunkPolicy;
import io.sluice.chunks.ChunkTrace;
import io.sluice.chunks.ChunkedReader;
import io.sluice.chunks.FixedPolicy;
import io.sluice.maf.MafGenerator;
import io.sluice.maf.MafIndex;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code sluice bench chunks}: seed 001's workload. A MAF file of realistic shape is parsed into an index of its
 * blocks through a {@link ChunkedReader}, at each fixed chunk size and with the {@link AdaptivePolicy}, side by side
 * (every round runs every row once, in an order that rotates from round to round, so a drift in the machine's speed
 * is spread over all rows rather than landing on the ones run last), with the page cache warm and cold (the file's
 * pages dropped with {@code posix_fadvise(DONTNEED)} before each run, checked with {@code mincore}). With {@code raw},
 * the same sizes once more with no parsing at all, to show how much of the effect is the consumer's.
 *
 * <p>Adaptive against fixed is given three ways: the ratio of the medians; and, round by round, the adaptive run
 * against the fastest fixed run of the same round and against the best fixed size's run of the same round, each the
 * median over rounds. On a noisy machine the ratio of medians flatters the fixed sizes (the best of ten medians is
 * partly the luckiest); a ratio within a round compares runs made close together, under much the same load.
 */
public final class ChunksBench {
    /** What to run. */
    /**
     * What to run.
     *
     * @param aheadSizes fixed sizes to measure with read-ahead on as well; null for the adaptive reader's first guess
     */
    public record Options(long size, Path dir, List<Integer> chunkSizes, List<Integer> aheadSizes, boolean parse,
                          boolean raw, boolean warm, boolean cold, int rounds, Engine engine, boolean trace) {
    }

    /**
     * One row: a chunk size (0 for the adaptive reader) on one workload and cache state, with its samples.
     *
     * @param readAhead   a fixed size read with read-ahead on
     * @param settled     adaptive: the size each run settled on, in the order of {@code samples}
     * @param trialShares adaptive: the fraction of each run's windows read at a candidate setting
     *                    ({@link AdaptivePolicy#trialShare()}), in the order of {@code samples}
     * @param aheadChosen adaptive: whether each run ended with read-ahead on, in the order of {@code samples}
     */
    public record Result(String name, int chunkSize, boolean readAhead, String workload, String cache,
                         List<Sample> samples, List<Integer> settled, List<Double> trialShares,
                         List<Boolean> aheadChosen, double residentBefore, double residentAfter) {

        /** Median MB/s (10^6 bytes per second). */
        public double mbPerSec() {
            return Row.median(samples.stream().mapToDouble(Sample::bytesPerSec).toArray()) / 1e6;
        }

        /** {@code (max - min) / median}. */
        public double spread() {
            double[] v = samples.stream().mapToDouble(Sample::bytesPerSec).toArray();
            double m = Row.median(v);
            return m == 0 ? 0 : (Arrays.stream(v).max().orElse(0) - Arrays.stream(v).min().orElse(0)) / m;
        }

        boolean adaptive() {
            return chunkSize == 0;
        }
    }

    /** The name of the adaptive rows. */
    public static final String ADAPTIVE = "adaptive";
    /** The parsing workload: the MAF parser building its index. */
    public static final String PARSE = "maf-parse";
    /** The same reads with no consumer at all. */
    public static final String RAW = "raw-read";
    /** The file's pages in the page cache, checked before and after. */
    public static final String WARM = "warm";
    /** The file's pages dropped before each run. */
    public static final String COLD = "cold";
    /** The seed's ratio of 128 KiB to 8 MB chunks under JRuby: 30 MB/s against 19. */
    public static final double SEED_RATIO = 30.0 / 19.0;
    /** The same under MRI: 24 MB/s against 18. */
    public static final double SEED_RATIO_MRI = 24.0 / 18.0;
    /** The default fixed sizes: 16 KiB to 8 MiB in powers of two. */
    public static final List<Integer> DEFAULT_SIZES = List.of(16 << 10, 32 << 10, 64 << 10, 128 << 10, 256 << 10,
            512 << 10, 1 << 20, 2 << 20, 4 << 20, 8 << 20);

    private final Options options;
    private final PrintWriter log;
    private final List<String> notes = new ArrayList<>();
    /** The trace of the last adaptive run of each cell, when asked for. */
    private final Map<String, List<ChunkTrace>> traces = new TreeMap<>();

    /** {@code log} receives progress (standard error in the CLI). */
    public ChunksBench(Options options, PrintWriter log) {
        this.options = options;
        this.log = log;
    }

    /** What the run found worth saying beside the table (a cold state that could not be made, say). */
    public List<String> notes() {
        return notes;
    }

    /** Generates the file, measures every cell, removes the file. */
    public List<Result> run() throws IOException {
        Files.createDirectories(options.dir());
        Path dir = Files.createTempDirectory(options.dir(), "sluice-bench-chunks-");
        Path file = dir.resolve("data.maf");
        Thread cleanup = new Thread(() -> {
            try {
                Files.deleteIfExists(file);
                Files.deleteIfExists(dir);
            } catch (IOException e) {
                System.err.println("sluice: could not remove " + file + ": " + e.getMessage());
            }
        }, "sluice-bench-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        long t0 = System.nanoTime();
        try {
            log.printf(Locale.ROOT, "generating %s of MAF in %s ", ByteSize.format(options.size()), dir);
            log.flush();
            long blocks = MafGenerator.write(file, options.size(), 1);
            long bytes = Files.size(file);
            log.printf(Locale.ROOT, "(%d blocks, %.0f s)%n", blocks, (System.nanoTime() - t0) / 1e9);
            // Written with dirty pages: synced now, so the first cold drop drops them all.
            try (var c = java.nio.channels.FileChannel.open(file)) {
                c.force(false);
            }
            AdaptivePolicy probe = AdaptivePolicy.forFile(file);
            log.println("adaptive " + probe.origin());
            List<Integer> aheadSizes = options.aheadSizes() == null ? List.of(probe.size()) : options.aheadSizes();
            List<Result> results = new ArrayList<>();
            List<String> caches = new ArrayList<>();
            if (options.warm()) {
                caches.add(WARM);
            }
            if (options.cold()) {
                if (CacheAdvice.isSupported()) {
                    caches.add(COLD);
                } else {
                    notes.add("cold rows skipped: posix_fadvise needs Linux and native access for io.sluice.core");
                }
            }
            List<String> workloads = new ArrayList<>();
            if (options.parse()) {
                workloads.add(PARSE);
            }
            if (options.raw()) {
                workloads.add(RAW);
            }
            int cells = caches.size() * workloads.size();
            int cell = 0;
            for (String cache : caches) {
                for (String workload : workloads) {
                    log.printf(Locale.ROOT, "[%d/%d] %s, %s page cache, %d rounds (%.0f s elapsed) ", ++cell, cells,
                            workload, cache, options.rounds(), (System.nanoTime() - t0) / 1e9);
                    log.flush();
                    results.addAll(cell(file, bytes, blocks, workload, cache, aheadSizes));
                }
            }
            log.printf(Locale.ROOT, "measured in %.0f s%n", (System.nanoTime() - t0) / 1e9);
            return results;
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
        }
    }

    /** Every fixed size and the adaptive reader on one workload and cache state, side by side. */
    private List<Result> cell(Path file, long bytes, long blocks, String workload, String cache,
                              List<Integer> aheadSizes) throws IOException {
        boolean cold = cache.equals(COLD);
        double before;
        double[] worstAfterDrop = {0};
        if (cold) {
            before = dropAndCheck(file);
        } else {
            warm(file);
            before = PageCache.residentFraction(file);
        }
        // The adaptive reader may choose read-ahead; the same at a fixed size keeps the comparison fair.
        List<Fixed> fixed = new ArrayList<>();
        options.chunkSizes().forEach(size -> fixed.add(new Fixed(size, false)));
        aheadSizes.forEach(size -> fixed.add(new Fixed(size, true)));
        List<Job> jobs = new ArrayList<>();
        for (Fixed f : fixed) {
            jobs.add(job(label(f.size()) + (f.ahead() ? " ahead" : ""), file, bytes, blocks, workload, cold,
                    () -> FixedPolicy.of(f.size(), f.ahead()), null, worstAfterDrop));
        }
        List<Integer> adaptiveSizes = new ArrayList<>();
        List<Double> adaptiveShares = new ArrayList<>();
        List<Boolean> adaptiveAhead = new ArrayList<>();
        String key = workload + ", " + cache;
        jobs.add(job(ADAPTIVE, file, bytes, blocks, workload, cold, () -> AdaptivePolicy.forFile(file), p -> {
            adaptiveSizes.add(p.size());
            adaptiveShares.add(((AdaptivePolicy) p).trialShare());
            adaptiveAhead.add(((AdaptivePolicy) p).readAheadChosen());
            if (options.trace()) {
                traces.put(key, p.trace());
            }
        }, worstAfterDrop));
        Workload w = new Workload(workload, 1 << 20, cold ? COLD : Workload.CACHED_FILE);
        List<Row> rows = Job.measure(jobs, w, bytes, options.rounds(), log);
        double after = cold ? worstAfterDrop[0] : PageCache.residentFraction(file);
        if (!cold && (before < 0.99 || after < 0.99)) {
            notes.add(String.format(Locale.ROOT, "%s, warm: %.0f%% of the file resident before, %.0f%% after: pages "
                    + "were dropped during the run, treat the warm figures with care", workload, before * 100,
                    after * 100));
        }
        if (cold && after > 0.01) {
            notes.add(String.format(Locale.ROOT, "%s, cold: up to %.0f%% of the file stayed resident after a drop "
                    + "(another process maps it?): the cold figures are partly warm", workload, after * 100));
        }
        List<Result> out = new ArrayList<>();
        for (int k = 0; k < fixed.size(); k++) {
            Row r = rows.get(k);
            out.add(new Result(r.engine(), fixed.get(k).size(), fixed.get(k).ahead(), workload, cache, r.samples(),
                    List.of(), List.of(), List.of(), before, after));
        }
        Row r = rows.get(fixed.size());
        // The first of each list is the warm-up run's, which Job.measure does not keep either.
        int n = r.samples().size();
        out.add(new Result(r.engine(), 0, false, workload, cache, r.samples(), List.copyOf(lastN(adaptiveSizes, n)),
                List.copyOf(lastN(adaptiveShares, n)), List.copyOf(lastN(adaptiveAhead, n)), before, after));
        return out;
    }

    /** A fixed row's setting. */
    private record Fixed(int size, boolean ahead) {
    }

    private static <T> List<T> lastN(List<T> list, int n) {
        return list.size() > n ? list.subList(list.size() - n, list.size()) : list;
    }

    /** A policy made fresh for each run, and what to do with it afterwards. */
    private interface PolicySource {
        ChunkPolicy make();
    }

    private interface AfterRun {
        void accept(ChunkPolicy policy);
    }

    private Job job(String name, Path file, long bytes, long blocks, String workload, boolean cold,
                    PolicySource policies, AfterRun after, double[] worstAfterDrop) {
        return new Job() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public int threads() {
                return 1;
            }

            @Override
            public long run() throws IOException {
                if (cold) {
                    worstAfterDrop[0] = Math.max(worstAfterDrop[0], dropAndCheck(file));
                }
                ChunkPolicy policy = policies.make();
                long t0 = System.nanoTime();
                long got = workload.equals(PARSE) ? parse(file, policy) : raw(file, policy);
                long t1 = System.nanoTime();
                long want = workload.equals(PARSE) ? blocks : bytes;
                if (got != want) {
                    throw new IOException(name + " " + workload + " of " + file + " found " + got + ", expected "
                            + want);
                }
                if (after != null) {
                    after.accept(policy);
                }
                return t1 - t0;
            }
        };
    }

    /** Parses the file into an index; returns its blocks. */
    long parse(Path file, ChunkPolicy policy) throws IOException {
        try (ChunkedReader r = ChunkedReader.open(file, options.engine(), policy)) {
            return MafIndex.build(r, file.toString()).blockCount();
        }
    }

    /** Reads the file and does nothing with it; returns the bytes. */
    long raw(Path file, ChunkPolicy policy) throws IOException {
        long n = 0;
        try (ChunkedReader r = ChunkedReader.open(file, options.engine(), policy)) {
            for (MemorySegment c; (c = r.next()) != null; ) {
                n += c.byteSize();
            }
        }
        return n;
    }

    /** Drops the file's pages; returns the fraction still resident after. */
    private static double dropAndCheck(Path file) throws IOException {
        CacheAdvice.drop(file);
        return PageCache.residentFraction(file);
    }

    private static void warm(Path file) throws IOException {
        try (ChunkedReader r = ChunkedReader.open(file, FixedPolicy.of(1 << 20))) {
            while (r.next() != null) {
                // reading is the point
            }
        }
    }

    static String label(int size) {
        return ByteSize.format(size);
    }

    /** The traces kept with {@link Options#trace()}, by cell. */
    public Map<String, List<ChunkTrace>> traces() {
        return traces;
    }

    // ---------------------------------------------------------------- report

    /** The best fixed row of a cell (highest median), or null. */
    static Result bestFixed(List<Result> cell) {
        Result best = null;
        for (Result r : cell) {
            if (!r.adaptive() && (best == null || r.mbPerSec() > best.mbPerSec())) {
                best = r;
            }
        }
        return best;
    }

    /** The row of {@code chunkSize} without read-ahead, or null. */
    static Result find(List<Result> cell, int chunkSize) {
        for (Result r : cell) {
            if (r.chunkSize() == chunkSize && !r.readAhead()) {
                return r;
            }
        }
        return null;
    }

    /** The lowest ratio, over rounds, of the adaptive run to the best fixed size's run of the same round. */
    static double worstRound(Result adaptive, Result best) {
        double worst = Double.NaN;
        int n = Math.min(adaptive.samples().size(), best.samples().size());
        for (int i = 0; i < n; i++) {
            double r = adaptive.samples().get(i).bytesPerSec() / best.samples().get(i).bytesPerSec();
            worst = Double.isNaN(worst) ? r : Math.min(worst, r);
        }
        return worst;
    }

    /**
     * The median over rounds of the adaptive run's rate over the fastest fixed run of the same round: the fairer
     * figure on a noisy machine, where a row's median moves with the load of the minutes it ran in. NaN without
     * rounds.
     */
    static double roundRatio(Result adaptive, List<Result> cell) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < adaptive.samples().size(); i++) {
            double fastest = 0;
            for (Result r : cell) {
                if (!r.adaptive() && i < r.samples().size()) {
                    fastest = Math.max(fastest, r.samples().get(i).bytesPerSec());
                }
            }
            if (fastest > 0) {
                ratios.add(adaptive.samples().get(i).bytesPerSec() / fastest);
            }
        }
        return ratios.isEmpty() ? Double.NaN : Row.median(ratios.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** The median over rounds of the adaptive run's rate over {@code best}'s run of the same round; NaN without any. */
    static double pairedRatio(Result adaptive, Result best) {
        int n = Math.min(adaptive.samples().size(), best.samples().size());
        if (n == 0) {
            return Double.NaN;
        }
        double[] ratios = new double[n];
        for (int i = 0; i < n; i++) {
            ratios[i] = adaptive.samples().get(i).bytesPerSec() / best.samples().get(i).bytesPerSec();
        }
        return Row.median(ratios);
    }

    /** The median of the adaptive runs' trial shares, or NaN when none was recorded. */
    static double trialShare(Result adaptive) {
        return adaptive.trialShares().isEmpty() ? Double.NaN
                : Row.median(adaptive.trialShares().stream().mapToDouble(Double::doubleValue).toArray());
    }

    static Map<String, List<Result>> cells(List<Result> results) {
        Map<String, List<Result>> cells = new java.util.LinkedHashMap<>();
        for (Result r : results) {
            cells.computeIfAbsent(r.workload() + ", " + r.cache(), k -> new ArrayList<>()).add(r);
        }
        return cells;
    }

    /** The sizes the adaptive runs settled on, as {@code "256 KiB (4/5), 512 KiB (1/5)"}. */
    static String settled(List<Integer> sizes) {
        Map<Integer, Integer> counts = new TreeMap<>();
        for (int s : sizes) {
            counts.merge(s, 1, Integer::sum);
        }
        List<String> parts = new ArrayList<>();
        counts.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue())
                .forEach(e -> parts.add(label(e.getKey()) + " (" + e.getValue() + "/" + sizes.size() + ")"));
        return String.join(", ", parts);
    }

    /** {@code ", read-ahead on in 3/5"} when any run ended with read-ahead chosen, else nothing. */
    static String aheadChosen(List<Boolean> chosen) {
        long on = chosen.stream().filter(Boolean::booleanValue).count();
        return on == 0 ? "" : ", read-ahead on in " + on + "/" + chosen.size();
    }

    /** Prints the table: per cell, MB/s, spread, ratio to the best fixed size, and the adaptive summary. */
    public static void table(List<Result> results, Engine engine, long bytes, List<String> notes, PrintWriter out) {
        for (Map.Entry<String, List<Result>> e : cells(results).entrySet()) {
            List<Result> cell = e.getValue();
            Result first = cell.get(0);
            Result best = bestFixed(cell);
            out.printf(Locale.ROOT, "%n%s page cache, %s, %s (%.0f%% resident before, %.0f%% %s)%n", e.getKey(),
                    ByteSize.format(bytes), engine, first.residentBefore() * 100, first.residentAfter() * 100,
                    first.cache().equals(COLD) ? "at most after each drop" : "after");
            TextTable table = new TextTable("  ", List.of("chunk", "MB/s", "spread", "x best", "settled on"),
                    List.of(TextTable.Align.LEFT, TextTable.Align.RIGHT, TextTable.Align.RIGHT, TextTable.Align.RIGHT,
                            TextTable.Align.LEFT));
            for (Result r : cell) {
                double ratio = best == null ? Double.NaN : r.mbPerSec() / best.mbPerSec();
                table.row(r.name(), String.format(Locale.ROOT, "%.1f", r.mbPerSec()),
                        String.format(Locale.ROOT, "%.1f%%", r.spread() * 100),
                        Double.isNaN(ratio) ? "" : String.format(Locale.ROOT, "%.2f", ratio),
                        r.adaptive() ? settled(r.settled()) + aheadChosen(r.aheadChosen())
                                : r == best ? "(best fixed)" : "");
            }
            table.print(out);
            Result adaptive = cell.stream().filter(Result::adaptive).findFirst().orElse(null);
            if (adaptive != null && best != null) {
                out.printf(Locale.ROOT, "  adaptive / best fixed (%s): %.2f median, %.2f in the worst round%n",
                        best.name(), adaptive.mbPerSec() / best.mbPerSec(), worstRound(adaptive, best));
                out.printf(Locale.ROOT, "  adaptive / same round, median over rounds: %.2f against %s's run, %.2f "
                        + "against the fastest fixed run%n", pairedRatio(adaptive, best), best.name(),
                        roundRatio(adaptive, cell));
            }
            if (adaptive != null && !adaptive.trialShares().isEmpty()) {
                out.printf(Locale.ROOT, "  adaptive windows in trials: %.0f%% (median over runs)%n",
                        trialShare(adaptive) * 100);
            }
            Result k128 = find(cell, 128 << 10);
            Result m8 = find(cell, 8 << 20);
            if (k128 != null && m8 != null) {
                out.printf(Locale.ROOT, "  128 KiB / 8 MiB: %.2f here; the seed: %.2f (30 / 19 MB/s, JRuby), "
                        + "%.2f (24 / 18, MRI)%n", k128.mbPerSec() / m8.mbPerSec(), SEED_RATIO, SEED_RATIO_MRI);
            }
        }
        out.println();
        out.println("MB/s are medians over rounds (10^6 bytes of the file per second, the consumer's work included);");
        out.println("spread is (max - min) / median; x best is the ratio to the fastest fixed size of the same table,");
        out.println("measured side by side in this run. A cold run drops the file's pages first (posix_fadvise).");
        out.println("\"ahead\" rows read the next chunk ahead while the parser works on the current one, as the adaptive");
        out.println("reader may choose to; they count as fixed sizes.");
        for (String n : notes) {
            out.println("note: " + n);
        }
        out.flush();
    }

    /**
     * The rows as one JSON array, with the fields the other sections use ({@code engine} is the row's name,
     * {@code blockSize} the chunk size, 0 for the adaptive row; {@code file} {@code cached} or {@code cold};
     * {@code baseline} the best fixed size of the table; {@code opsPerMs} chunks per millisecond) and these:
     * {@code cache} ({@code warm}/{@code cold}), {@code ioEngine}, {@code settledSize} (adaptive: the size most runs
     * settled on) and {@code settledSizes}, {@code worstRoundRatio} (adaptive: its lowest ratio to the best fixed
     * size in one round), {@code pairedRoundRatio} (adaptive: the median over rounds of its ratio to the best fixed
     * size's run of the same round), {@code roundRatio} (adaptive: the median over rounds of its ratio to the fastest
     * fixed run of the same round), {@code trialShare} (adaptive: the median over runs of the fraction of windows
     * read at a candidate setting), {@code readAhead} (a fixed row read with read-ahead on), {@code readAheadChosen}
     * (adaptive: whether each run ended with read-ahead on), {@code ratioTo8MiB}, and on the 128 KiB row
     * {@code seedRatio} (30/19).
     */
    public static void json(List<Result> results, Engine engine, PrintWriter out) {
        out.println("[");
        int i = 0;
        int total = results.size();
        for (List<Result> cell : cells(results).values()) {
            Result best = bestFixed(cell);
            Result m8 = find(cell, 8 << 20);
            for (Result r : cell) {
                int mostSettled = mode(r.settled());
                double chunk = r.adaptive() ? mostSettled : r.chunkSize();
                double opsPerMs = chunk > 0 ? r.mbPerSec() * 1e6 / chunk / 1e3 : 0;
                StringBuilder b = new StringBuilder();
                double[] bytes = r.samples().stream().mapToDouble(Sample::bytesPerSec).toArray();
                double perOp = chunk > 0 ? chunk * 1e3 : Double.NaN;
                b.append(String.format(Locale.ROOT, "  {\"engine\": \"%s\", \"workload\": \"%s\", \"blockSize\": %d, "
                                + "\"threads\": 1, \"opsPerMs\": %.3f, \"mbPerSec\": %.3f, \"spread\": %.4f, "
                                + "\"rounds\": %d, \"opsPerMsMin\": %s, \"opsPerMsMax\": %s, \"ratioToClassic\": null, \"fioReference\": null, \"ratioToFio\": null, "
                                + "\"direct\": false, \"depth\": 1, \"file\": \"%s\", \"baseline\": %s, "
                                + "\"ratioToBaseline\": %s, \"cache\": \"%s\", \"ioEngine\": \"%s\", \"readAhead\": %s",
                        r.name(), r.workload(), r.chunkSize(), opsPerMs, r.mbPerSec(), r.spread(), r.samples().size(),
                        num(Arrays.stream(bytes).min().orElse(Double.NaN) / perOp),
                        num(Arrays.stream(bytes).max().orElse(Double.NaN) / perOp),
                        r.cache().equals(COLD) ? COLD : Workload.CACHED_FILE,
                        best == null ? "null" : "\"" + best.name() + "\"",
                        best == null ? "null" : num(r.mbPerSec() / best.mbPerSec()), r.cache(), engine,
                        r.readAhead()));
                if (r.adaptive()) {
                    b.append(String.format(Locale.ROOT, ", \"settledSize\": %d, \"settledSizes\": %s, "
                                    + "\"worstRoundRatio\": %s, \"pairedRoundRatio\": %s, \"roundRatio\": %s, "
                                    + "\"trialShare\": %s, \"readAheadChosen\": %s", mostSettled, r.settled(),
                            best == null ? "null" : num(worstRound(r, best)),
                            best == null ? "null" : num(pairedRatio(r, best)), num(roundRatio(r, cell)),
                            num(trialShare(r)), r.aheadChosen()));
                }
                b.append(", \"ratioTo8MiB\": ").append(m8 == null ? "null" : num(r.mbPerSec() / m8.mbPerSec()));
                if (r.chunkSize() == 128 << 10 && !r.readAhead()) {
                    b.append(", \"seedRatio\": ").append(num(SEED_RATIO));
                }
                b.append('}').append(++i < total ? "," : "");
                out.println(b);
            }
        }
        out.println("]");
        out.flush();
    }

    private static int mode(List<Integer> sizes) {
        Map<Integer, Integer> counts = new TreeMap<>();
        for (int s : sizes) {
            counts.merge(s, 1, Integer::sum);
        }
        return counts.entrySet().stream().max((a, b) -> a.getValue() - b.getValue()).map(Map.Entry::getKey)
                .orElse(0);
    }

    private static String num(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "null" : String.format(Locale.ROOT, "%.4f", v);
    }
}
