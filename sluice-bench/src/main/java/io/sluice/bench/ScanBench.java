package io.sluice.bench;

import io.sluice.ParallelScan;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code sluice bench scan}: the One Billion Row Challenge (min, mean and max temperature per weather station over a
 * file of measurements), with the challenge's baseline algorithm ({@link BaselineAverages}, one thread) as the
 * reference row and {@link ParallelScan} ({@link ScanAverages}) at each thread count beside it.
 *
 * <p>The file is generated first ({@link Measurements}), read once to warm the page cache (checked with
 * {@code mincore} before and after the runs), then every row runs once untimed and once per round, in an order that
 * rotates from round to round. Every run's output is compared with the baseline's first one, character for
 * character, and every run must count the file's rows: a row that differs stops the benchmark with the first
 * difference.
 */
public final class ScanBench {
    /**
     * What to run.
     *
     * @param keep keep the file in {@code dir} (named by rows and seed) for the next run, and use one already there
     */
    public record Options(long rows, long seed, Path dir, List<Integer> threads, int rounds, boolean keep) {
    }

    /** One row's runs. */
    public record Result(String name, int threads, long rows, long fileBytes, List<Long> nanos) {
        /** The median run, in seconds. */
        public double seconds() {
            return Row.median(nanos.stream().mapToDouble(n -> n / 1e9).toArray());
        }

        /** {@code (max - min) / median} of the run times. */
        public double spread() {
            double lo = nanos.stream().mapToLong(Long::longValue).min().orElse(0) / 1e9;
            double hi = nanos.stream().mapToLong(Long::longValue).max().orElse(0) / 1e9;
            double m = seconds();
            return m == 0 ? 0 : (hi - lo) / m;
        }

        /** Rows per second at the median. */
        public double rowsPerSec() {
            return rows / seconds();
        }

        /** MB per second (10^6 bytes) at the median. */
        public double mbPerSec() {
            return fileBytes / seconds() / 1e6;
        }
    }

    /** The row of the challenge's baseline algorithm, and every row's ratio base. */
    public static final String BASELINE = "baseline";
    /** The rows of {@link ScanAverages}. */
    public static final String PARALLEL_SCAN = "ParallelScan";
    /** The {@code workload} of the JSON rows. */
    public static final String WORKLOAD = "1brc";

    private final Options options;
    private final PrintWriter log;
    private String result;
    private long fileBytes;
    private double residentBefore;
    private double residentAfter;

    /** {@code log} receives progress (standard error in the CLI). */
    public ScanBench(Options options, PrintWriter log) {
        this.options = options;
        this.log = log;
    }

    /** About the size of the file of {@code rows} rows, for the free-space check. */
    public static long estimatedSize(long rows) {
        return Measurements.estimatedSize(rows);
    }

    /** The name of the file of {@code rows} rows from {@code seed}, in {@code --dir} when kept. */
    public static String fileName(long rows, long seed) {
        return Measurements.fileName(rows, seed);
    }

    /** A row: how to run it once. */
    private interface Run {
        Averages run() throws IOException;
    }

    private record Job(String name, int threads, Run run) {
    }

    /** Generates (or finds) the file and measures every row. */
    public List<Result> run() throws IOException {
        long t0 = System.nanoTime();
        String name = Measurements.fileName(options.rows(), options.seed());
        // Removed at the end, on failure, and on Ctrl-C; a file to keep is written here too, then moved out whole.
        try (ScratchDir dir = ScratchDir.create(options.dir(), "sluice-bench-scan-")) {
            Path file = options.keep() ? options.dir().resolve(name) : dir.resolve(name);
            if (Files.isRegularFile(file)) {
                log.printf(Locale.ROOT, "using %s, kept from an earlier run%n", file);
            } else {
                log.printf(Locale.ROOT, "generating %,d rows into %s:", options.rows(), file);
                log.flush();
                Measurements.write(file, dir.resolve(name + ".partial"), options.rows(), options.seed(),
                        Runtime.getRuntime().availableProcessors(), log);
            }
            return measure(file, t0);
        }
    }

    private List<Result> measure(Path file, long t0) throws IOException {
        fileBytes = Files.size(file);
        // Warm the page cache, and check the row count on the way.
        long lines = ParallelScan.lines().scan(file, () -> new long[1],
                (n, records, position) -> n[0] += ParallelScan.count(records, (byte) '\n'), (a, b) -> {
                    a[0] += b[0];
                    return a;
                })[0];
        if (lines != options.rows()) {
            throw new IOException(file + " has " + lines + " lines, not " + options.rows()
                    + ": it is not the file this benchmark writes; remove it");
        }
        residentBefore = PageCache.residentFraction(file);
        log.printf(Locale.ROOT, "%s, %,d rows, %.0f%% resident (%.0f s elapsed)%n", ByteSize.format(fileBytes),
                options.rows(), residentBefore * 100, (System.nanoTime() - t0) / 1e9);

        List<Job> jobs = new ArrayList<>();
        jobs.add(new Job(BASELINE, 1, () -> BaselineAverages.run(file)));
        for (int t : options.threads()) {
            jobs.add(new Job(PARALLEL_SCAN, t, () -> ScanAverages.run(file, t)));
        }
        List<List<Long>> nanos = new ArrayList<>();
        for (Job j : jobs) {
            nanos.add(new ArrayList<>());
            log.printf(Locale.ROOT, "warm-up %s", label(j));
            log.flush();
            long n = timed(j);
            log.printf(Locale.ROOT, ": %.2f s, output %s%n", n / 1e9, j.name().equals(BASELINE) ? "recorded"
                    : "identical to the baseline's");
        }
        int rounds = options.rounds();
        for (int round = 0; round < rounds; round++) {
            log.printf(Locale.ROOT, "round %d/%d:", round + 1, rounds);
            for (int k = 0; k < jobs.size(); k++) {
                int idx = (k + round) % jobs.size();
                long n = timed(jobs.get(idx));
                nanos.get(idx).add(n);
                log.printf(Locale.ROOT, " %s %.2f s", label(jobs.get(idx)), n / 1e9);
                log.flush();
            }
            log.println();
        }
        residentAfter = PageCache.residentFraction(file);
        log.printf(Locale.ROOT, "page cache after the run: %.0f%% resident%s%n", residentAfter * 100,
                residentAfter < 0.99 ? " (pages were dropped during the run: treat the figures with care)" : "");
        log.printf(Locale.ROOT, "measured in %.0f s%n", (System.nanoTime() - t0) / 1e9);
        List<Result> results = new ArrayList<>();
        for (int k = 0; k < jobs.size(); k++) {
            Job j = jobs.get(k);
            results.add(new Result(j.name(), j.threads(), options.rows(), fileBytes, List.copyOf(nanos.get(k))));
        }
        return results;
    }

    private static String label(Job j) {
        return j.name() + (j.name().equals(BASELINE) ? "" : " x" + j.threads());
    }

    /** Runs {@code j} once and checks its output; returns the nanoseconds it took. */
    private long timed(Job j) throws IOException {
        long t0 = System.nanoTime();
        Averages a = j.run().run();
        long nanos = Math.max(1, System.nanoTime() - t0);
        if (a.rows() != options.rows()) {
            throw new IllegalStateException(label(j) + " counted " + a.rows() + " rows of " + options.rows());
        }
        if (result == null) {
            result = a.text(); // the baseline runs first
        } else if (!result.equals(a.text())) {
            throw new IllegalStateException(label(j) + " computed another result than the baseline: "
                    + firstDifference(result, a.text()));
        }
        return nanos;
    }

    /** Where two outputs first differ, with some context from each. */
    static String firstDifference(String expected, String actual) {
        int i = 0;
        while (i < expected.length() && i < actual.length() && expected.charAt(i) == actual.charAt(i)) {
            i++;
        }
        int from = Math.max(0, expected.lastIndexOf(", ", i) + 2);
        return "at character " + i + ", the baseline has \"" + excerpt(expected, from) + "\" where this row has \""
                + excerpt(actual, from) + "\"";
    }

    private static String excerpt(String s, int from) {
        return from >= s.length() ? "" : s.substring(from, Math.min(s.length(), from + 60));
    }

    /** The output every row computed (the baseline's). */
    public String result() {
        return result;
    }

    /** The file's size in bytes. */
    public long fileBytes() {
        return fileBytes;
    }

    /** Prints the table: median seconds, spread, rows/s, MB/s, and the ratio to the baseline. */
    public static void table(List<Result> results, ScanBench bench, int rounds, boolean printResult, PrintWriter out) {
        Result base = results.stream().filter(r -> r.name().equals(BASELINE)).findFirst().orElseThrow();
        String text = bench.result();
        long stations = text.chars().filter(c -> c == '=').count(); // names hold no '=' (some hold ", ")
        out.printf(Locale.ROOT, "%n%s: %,d rows, %s, %d stations, %d rounds, page cache %.0f%% resident (%.0f%% "
                        + "after)%n", WORKLOAD, base.rows(), ByteSize.format(bench.fileBytes()), stations, rounds,
                bench.residentBefore * 100, bench.residentAfter * 100);
        TextTable table = new TextTable("  ",
                List.of("row", "threads", "seconds", "spread", "Mrows/s", "MB/s", "x baseline"),
                List.of(TextTable.Align.LEFT, TextTable.Align.RIGHT, TextTable.Align.RIGHT, TextTable.Align.RIGHT,
                        TextTable.Align.RIGHT, TextTable.Align.RIGHT, TextTable.Align.RIGHT));
        for (Result r : results) {
            table.row(r.name(), Integer.toString(r.threads()), String.format(Locale.ROOT, "%.3f", r.seconds()),
                    String.format(Locale.ROOT, "%.1f%%", r.spread() * 100),
                    String.format(Locale.ROOT, "%.2f", r.rowsPerSec() / 1e6),
                    String.format(Locale.ROOT, "%.1f", r.mbPerSec()),
                    String.format(Locale.ROOT, "%.2f", base.seconds() / r.seconds()));
        }
        table.print(out);
        out.println();
        out.println("seconds are medians over rounds; spread is (max - min) / median; x baseline is the baseline's");
        out.println("median time over the row's, both measured side by side in this run. Every run's output was the");
        out.println("baseline's, character for character: " + (printResult ? text : abbreviated(text)));
        out.flush();
    }

    /** The first two stations and the last of an output. */
    static String abbreviated(String text) {
        // Entries end with a digit; a comma inside a name ("Washington, D.C.") follows a letter.
        String[] parts = text.split("(?<=\\d), ");
        if (parts.length <= 3) {
            return text;
        }
        return parts[0] + ", " + parts[1] + ", ..., " + parts[parts.length - 1];
    }

    /**
     * The JSON rows: the fields of every section's rows ({@code engine}, {@code workload} {@value #WORKLOAD},
     * {@code blockSize} 0 since an operation is a row of the file, {@code opsPerMs} rows per millisecond,
     * {@code mbPerSec}, {@code spread}, ..., {@code baseline} and {@code ratioToBaseline}), then {@code seconds}
     * (median), {@code rows}, {@code fileBytes}, {@code rowsPerSec} and {@code outputMatchesBaseline}.
     */
    public static void json(List<Result> results, PrintWriter out) {
        Result base = results.stream().filter(r -> r.name().equals(BASELINE)).findFirst().orElseThrow();
        out.println("[");
        for (int i = 0; i < results.size(); i++) {
            Result r = results.get(i);
            out.printf(Locale.ROOT, "  {\"engine\": \"%s\", \"workload\": \"%s\", \"blockSize\": 0, \"threads\": %d, "
                            + "\"opsPerMs\": %.3f, \"mbPerSec\": %.3f, \"spread\": %.4f, \"rounds\": %d, "
                            + "\"ratioToClassic\": null, \"fioReference\": null, \"ratioToFio\": null, "
                            + "\"direct\": false, \"depth\": 1, \"file\": \"%s\", \"baseline\": \"%s\", "
                            + "\"ratioToBaseline\": %.4f, \"seconds\": %.4f, \"rows\": %d, \"fileBytes\": %d, "
                            + "\"rowsPerSec\": %.1f, \"outputMatchesBaseline\": true}%s%n",
                    r.name(), WORKLOAD, r.threads(), r.rowsPerSec() / 1e3, r.mbPerSec(), r.spread(),
                    r.nanos().size(), Workload.CACHED_FILE, BASELINE, base.seconds() / r.seconds(), r.seconds(),
                    r.rows(), r.fileBytes(), r.rowsPerSec(), i + 1 < results.size() ? "," : "");
        }
        out.println("]");
        out.flush();
    }
}
