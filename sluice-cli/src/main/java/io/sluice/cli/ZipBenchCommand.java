package io.sluice.cli;

import io.sluice.cli.bench.Row;
import io.sluice.cli.bench.ZipBench;
import io.sluice.cli.bench.ZipReader;
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
            description = "Where to write the test archive (default: the system temp directory).")
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

    @Override
    public Integer call() throws IOException, InterruptedException {
        List<Integer> t = BenchCommand.threadCounts(threads);
        List<String> r = readers != null ? readers : ZipReader.NAMES;
        for (String name : r) {
            if (!ZipReader.NAMES.contains(name)) {
                throw new IllegalArgumentException("unknown reader '" + name + "' (known: " + ZipReader.NAMES + ")");
            }
        }
        if (smallEntries < 1 || bigEntries < 1) {
            throw new IllegalArgumentException("--small-entries and --big-entries must be positive");
        }
        long sampleNanos = sampling.sampleNanos();
        PrintWriter err = spec.commandLine().getErr();
        BenchCommand.describeMachine(err);
        Path d = dir != null ? dir : Path.of(System.getProperty("java.io.tmpdir"));
        List<Row> rows = new ZipBench(new ZipBench.Options(d, smallEntries, bigEntries, t, r,
                sampleNanos, sampling.rounds), err).run();
        String base = r.contains("jdk") ? "jdk" : r.get(0);
        BenchCommand.emit(rows, w -> base, sampling.json, spec);
        return Main.OK;
    }
}
