package io.sluice.cli;

import io.sluice.bench.BenchChecks;
import io.sluice.bench.Row;
import io.sluice.bench.SectionOutput;
import io.sluice.bench.SectionReport;
import io.sluice.bench.ZipBench;
import io.sluice.bench.ZipBenchArchive;
import io.sluice.bench.ZipReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sluice bench zip}: Sluice's zip reader against the JDK's ZipFile and Commons Compress, side by side. */
@Command(name = "zip", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Read small (4 KiB) and big (8 MiB), stored and deflated entries of a generated archive on 1 thread and on "
                    + "every core, with Sluice's ConcurrentZipFile, java.util.zip.ZipFile and Apache Commons Compress, "
                    + "side by side. An operation looks an entry up, reads all of it and closes its stream.",
            "The table goes to standard output, progress to standard error."})
final class ZipBenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--dir", paramLabel = "DIR",
            description = "An existing directory to write the test archive in (default: the system temp directory); "
                    + "the benchmark makes and removes a directory of its own inside it.")
    Path dir;

    @Option(names = "--small-entries", defaultValue = "256", paramLabel = "N",
            description = "Entries of each small kind, stored and deflated (default: ${DEFAULT-VALUE}).")
    int smallEntries;

    @Option(names = "--big-entries", defaultValue = "8", paramLabel = "N",
            description = "Entries of each big kind (default: ${DEFAULT-VALUE}).")
    int bigEntries;

    @Option(names = "--threads", split = ",", paramLabel = "N",
            description = "Thread counts to measure (default: 1 and every core).")
    List<Integer> threads;

    @Option(names = "--readers", split = ",", paramLabel = "NAME",
            description = "Libraries to measure: sluice, jdk, commons-compress (default: all; jdk is the baseline).")
    List<String> readers;

    @Mixin
    SampleOptions sampling;

    /** Entries of each small kind at most: about 8.5 GiB of archive. */
    static final int MAX_SMALL_ENTRIES = 1_000_000;
    /** Entries of each big kind at most: about 156 GiB of archive. */
    static final int MAX_BIG_ENTRIES = 10_000;

    /**
     * The most bytes the test archive can take: every entry of each kind at full size (deflated ones take about 60%)
     * plus room for its headers and name.
     */
    static long archiveBound(int small, int big) {
        long total = 0;
        for (ZipBenchArchive.Kind k : ZipBenchArchive.Kind.values()) {
            long count = k.size() < (1 << 20) ? small : big;
            total = BenchChecks.plus(total, BenchChecks.times(count, k.size() + 512L));
        }
        return BenchChecks.plus(total, 64 << 10);
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        List<Integer> t = BenchCommand.threadCounts(threads);
        List<String> r = readers != null ? readers : ZipReader.NAMES;
        for (String name : r) {
            if (!ZipReader.NAMES.contains(name)) {
                throw new IllegalArgumentException("unknown reader '" + name + "' (known: " + ZipReader.NAMES + ")");
            }
        }
        if (smallEntries < 1 || smallEntries > MAX_SMALL_ENTRIES) {
            throw new IllegalArgumentException("--small-entries must be 1 to " + MAX_SMALL_ENTRIES + ": "
                    + smallEntries);
        }
        if (bigEntries < 1 || bigEntries > MAX_BIG_ENTRIES) {
            throw new IllegalArgumentException("--big-entries must be 1 to " + MAX_BIG_ENTRIES + ": " + bigEntries);
        }
        long sampleNanos = sampling.sampleNanos();
        BenchChecks.json(sampling.json);
        Path d = BenchChecks.dir(dir);
        BenchChecks.space(d, archiveBound(smallEntries, bigEntries), "an archive of " + smallEntries
                + " small and " + bigEntries + " big entries of each kind");
        SectionReport page = BenchCommand.startReport(sampling.report, d, spec);
        PrintWriter err = spec.commandLine().getErr();
        SectionOutput.describeMachine(err);
        List<Row> rows = new ZipBench(new ZipBench.Options(d, smallEntries, bigEntries, t, r,
                sampleNanos, sampling.rounds), err).run();
        String base = r.contains("jdk") ? "jdk" : r.get(0);
        BenchCommand.emit(rows, w -> base, sampling.json, spec);
        if (page != null) {
            page.finish("zip", w -> io.sluice.bench.Report.json(rows, x -> base, w));
        }
        return Main.OK;
    }
}
