package io.sluice.cli;

import io.sluice.cli.bench.Report;
import io.sluice.cli.bench.Row;
import io.sluice.cli.bench.ZipBench;
import io.sluice.cli.bench.ZipReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
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

    @Option(names = "--duration", defaultValue = "250", paramLabel = "MS",
            description = "Length of one timed sample in milliseconds (default: ${DEFAULT-VALUE}).")
    long durationMs;

    @Option(names = "--rounds", defaultValue = "5", paramLabel = "N",
            description = "Samples per row; the table shows their median and spread (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--json", paramLabel = "FILE",
            description = "Also write the rows as a JSON array to FILE ('-' for standard output, instead of the table).")
    Path json;

    @Override
    public Integer call() throws IOException, InterruptedException {
        int cores = Runtime.getRuntime().availableProcessors();
        List<Integer> t = threads != null ? threads : cores == 1 ? List.of(1) : List.of(1, cores);
        for (int n : t) {
            if (n < 1 || n > 1024) {
                throw new IllegalArgumentException("--threads must be between 1 and 1024: " + n);
            }
        }
        List<String> r = readers != null ? readers : ZipReader.NAMES;
        for (String name : r) {
            if (!ZipReader.NAMES.contains(name)) {
                throw new IllegalArgumentException("unknown reader '" + name + "' (known: " + ZipReader.NAMES + ")");
            }
        }
        if (smallEntries < 1 || bigEntries < 1 || durationMs < 1 || rounds < 1) {
            throw new IllegalArgumentException("--small-entries, --big-entries, --duration and --rounds must be positive");
        }
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        err.printf(Locale.ROOT, "Java %s, %s %s %s, %d cores%n", Runtime.version(), System.getProperty("os.name"),
                System.getProperty("os.version"), System.getProperty("os.arch"), cores);
        Path d = dir != null ? dir : Path.of(System.getProperty("java.io.tmpdir"));
        List<Row> rows = new ZipBench(new ZipBench.Options(d, smallEntries, bigEntries, t, r,
                durationMs * 1_000_000, rounds), err).run();
        String baseline = r.contains("jdk") ? "jdk" : r.get(0);
        boolean jsonToStdout = json != null && json.toString().equals("-");
        if (jsonToStdout) {
            Report.json(rows, out, baseline);
        } else {
            Report.table(rows, out, baseline);
            if (json != null) {
                try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(json, StandardCharsets.UTF_8))) {
                    Report.json(rows, w, baseline);
                }
                err.println("wrote " + json);
            }
        }
        return Main.OK;
    }
}
