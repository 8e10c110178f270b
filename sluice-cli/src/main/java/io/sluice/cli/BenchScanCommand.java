package io.sluice.cli;

import io.sluice.bench.BenchChecks;
import io.sluice.bench.ByteSize;
import io.sluice.bench.ScanBench;
import io.sluice.bench.SectionOutput;
import io.sluice.bench.SectionReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sluice bench scan}: the One Billion Row Challenge on ParallelScan, against the challenge's baseline. */
@Command(name = "scan", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "The One Billion Row Challenge: min, mean and max temperature per weather station over a generated file "
                    + "of '<station>;<temperature>' lines (the challenge's 413 stations and distribution). Rows: the "
                    + "challenge's baseline algorithm (Files.lines, String.split, Double.parseDouble, groupingBy into "
                    + "a TreeMap; one thread), and ParallelScan with padded segments, word-at-a-time parsing and a "
                    + "hash table per thread, at 1 thread and every core. Every output must equal the baseline's.",
            "The table goes to standard output, progress to standard error. With the defaults (50 million rows, "
                    + "about 700 MB) the baseline takes most of the time: several minutes."})
final class BenchScanCommand implements Callable<Integer> {
    /** Rows by default: a twentieth of the challenge's billion, so that a run takes minutes on a small machine. */
    static final long DEFAULT_ROWS = 50_000_000;

    @Spec
    CommandSpec spec;

    @Mixin
    JobBenchOptions common;

    @Option(names = "--rows", paramLabel = "N",
            description = "Measurements in the file (default: 50_000_000; the challenge has 1_000_000_000). "
                    + "Underscores and commas are ignored.")
    String rows;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N",
            description = "Seed of the generated file (default: ${DEFAULT-VALUE}): the same rows and seed give the "
                    + "same bytes.")
    long seed;

    @Option(names = "--threads", split = ",", paramLabel = "N",
            description = "Thread counts of the ParallelScan rows (default: 1 and every core).")
    List<Integer> threads;

    @Option(names = "--keep-file",
            description = "Keep the generated file in --dir, named by rows and seed, and use one already there "
                    + "instead of generating it again. Without it the file is removed at the end.")
    boolean keep;

    @Option(names = "--print-result", description = "Print the whole output every row computed, not only its ends.")
    boolean printResult;

    @Override
    public Integer call() throws IOException {
        long n = rows(rows);
        BenchChecks.rounds(common.rounds);
        List<Integer> t = BenchCommand.threadCounts(threads);
        BenchChecks.json(common.json);
        Path d = common.dir();
        long bytes = ScanBench.estimatedSize(n);
        boolean kept = keep && Files.isRegularFile(d.resolve(ScanBench.fileName(n, seed)));
        if (!kept) {
            BenchChecks.space(d, bytes, "--rows " + n + " (about " + ByteSize.format(bytes) + ")");
        }
        SectionReport page = BenchCommand.startReport(common.report, d, spec);
        PrintWriter err = spec.commandLine().getErr();
        SectionOutput.describeMachine(err);
        err.printf(Locale.ROOT, "sluice bench scan: %,d rows in %s, seed %d, ParallelScan threads %s, %d rounds%n", n,
                d, seed, t, common.rounds);
        ScanBench bench = new ScanBench(new ScanBench.Options(n, seed, d, t, common.rounds, keep), err);
        List<ScanBench.Result> results = bench.run();
        Path json = common.json;
        BenchCommand.writeRows(json, spec, w -> ScanBench.json(results, w), w -> ScanBench.table(results, bench, common.rounds, printResult, w));
        if (page != null) {
            page.finish("scan", w -> ScanBench.json(results, w));
        }
        return Main.OK;
    }

    /** {@code --rows}: the default, or a positive count. */
    static long rows(String given) {
        if (given == null) {
            return DEFAULT_ROWS;
        }
        long n;
        try {
            n = Long.parseLong(given.replace("_", "").replace(",", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--rows: not a whole number: '" + given + "'");
        }
        if (n < 1) {
            throw new IllegalArgumentException("--rows must be positive: " + given);
        }
        return n;
    }
}
