package io.sluice.cli;

import io.sluice.Engine;
import io.sluice.bench.Bench;
import io.sluice.bench.BenchChecks;
import io.sluice.bench.ByteSize;
import io.sluice.bench.Report;
import io.sluice.bench.Row;
import io.sluice.bench.SectionOutput;
import io.sluice.bench.SectionReport;
import io.sluice.bench.Workload;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sluice bench}: which engine reads fastest on this machine, side by side in one run; {@code sluice bench
 * write} and {@code sluice bench bigfile} do the same for writes.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        subcommands = {BenchWriteCommand.class, BenchBigFileCommand.class, BenchUringCommand.class,
                ZipBenchCommand.class, BenchChunksCommand.class, BenchScanCommand.class,
                BenchJRubyCommand.class, BenchKvCommand.class, BenchClassLoadCommand.class, BenchChannelsCommand.class,
                BenchAllCommand.class},
        description = {
            "Measure random and sequential reads for every engine side by side, with fio as the reference when it is "
                    + "installed. Generates its own test file (removed afterwards) and warms the page cache first.",
            "The table goes to standard output, progress to standard error. Sections: 'sluice bench write' and "
                    + "'sluice bench bigfile' (writes), 'sluice bench uring' (io_uring batches and O_DIRECT), "
                    + "'sluice bench zip' (zip readers), 'sluice bench chunks' (seed 001's read size), "
                    + "'sluice bench scan' (the One Billion Row Challenge on ParallelScan), "
                    + "'sluice bench jruby' (seed 000 from JRuby), 'sluice bench kv' (Sluice::DB), "
                    + "'sluice bench channels' (sluice-nio's channels against the JDK's and the engines'); 'sluice bench all' "
                    + "runs every section within a time budget and writes one report page (--report)."})
final class BenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--size", defaultValue = "1g", paramLabel = "BYTES",
            description = "Size of the test file (default: ${DEFAULT-VALUE}); suffixes k, m, g.")
    String size;

    @Option(names = "--dir", paramLabel = "DIR",
            description = "An existing directory to create the test file in (default: the system temp directory); the "
                    + "benchmark makes and removes a directory of its own inside it. Point it at the disk you care "
                    + "about.")
    Path dir;

    @Option(names = "--threads", split = ",", paramLabel = "N",
            description = "Thread counts to measure (default: 1 and every core).")
    List<Integer> threads;

    @Option(names = "--engines", split = ",", paramLabel = "NAME",
            description = "Engines to measure: classic, channel, mmap, io_uring, auto, naive-direct (default: all "
                    + "available and naive-direct, a plain FileChannel with ByteBuffer.allocateDirect buffers). With "
                    + "auto, AUTO's thresholds are calibrated first in --dir and stored for this machine.")
    List<String> engines;

    @Option(names = "--block-sizes", split = ",", defaultValue = "512,4k,16k,64k", paramLabel = "BYTES",
            description = "Block sizes of the random-read workloads (default: ${DEFAULT-VALUE}).")
    List<String> blockSizes;

    @Option(names = "--seq-block-size", defaultValue = "1m", paramLabel = "BYTES",
            description = "Block size of the sequential-read workload; 0 to skip it (default: ${DEFAULT-VALUE}).")
    String seqBlockSize;

    @Mixin
    SampleOptions sampling;

    @Option(names = "--no-fio", description = "Do not run fio even when it is installed.")
    boolean noFio;

    @Option(names = "--no-fork", description = "Measure every Java contender in this JVM, as before forking was the "
            + "default. Without it each runs in a JVM of its own (same JVM options), so no engine's reads are "
            + "compiled with another's type profile.")
    boolean noFork;

    @Option(names = "--forks", defaultValue = "1", paramLabel = "N",
            description = "JVMs per forked Java contender in every cell, one after another (default: ${DEFAULT-VALUE}: "
                    + "one JVM for the whole run). With N > 1 each cell's rounds are split into N groups and every "
                    + "Java contender gets a fresh JVM, warmed up anew, for each, so a row's median and spread cover "
                    + "several JVMs' compilation rather than one's luck. At most --rounds; not with --no-fork. Also "
                    + "read by 'bench channels' (given before 'channels').")
    int forks;

    @Override
    public Integer call() throws IOException, InterruptedException {
        Bench.Options o = options();
        SectionReport page = startReport(sampling.report, o.dir(), spec);
        PrintWriter err = spec.commandLine().getErr();
        SectionOutput.describeMachine(err);
        if (o.engines().stream().anyMatch(e -> e.equalsIgnoreCase("auto"))) {
            // Measured here, on the benchmark's device, and stored for every later JVM on this machine.
            err.println("auto      " + Engine.calibrateAuto(o.dir()));
        }
        List<Row> rows = new Bench(o, err).run();
        emit(rows, w -> "CLASSIC", sampling.json, spec);
        if (page != null) {
            page.finish("engines", w -> Report.json(rows, x -> "CLASSIC", w));
        }
        return Main.OK;
    }

    /**
     * Prints the table to standard output, and the JSON rows to {@code json} ('-': standard output instead); writes
     * the {@code --report} page if the section has that option and did not write it itself ({@link SectionReport}).
     */
    static void emit(List<Row> rows, Function<Workload, String> baseline, Path json, CommandSpec spec)
            throws IOException {
        writeRows(json, spec, w -> Report.json(rows, baseline, w), w -> Report.table(rows, baseline, w));
        OptionSpec option = spec.findOption("--report");
        OptionSpec dirOption = spec.findOption("--dir");
        SectionReport.late(option == null ? null : option.getValue(), dirOption == null ? null : dirOption.getValue(),
                spec.name().equals("bench") ? "engines" : spec.name(), w -> Report.json(rows, baseline, w),
                spec.commandLine().getErr(), commandText(spec));
    }

    /**
     * Prints a section's table ({@code table}) to standard output, and its JSON rows ({@code rows}) to {@code json}
     * ('-': to standard output instead of the table), saying on standard error where they went.
     */
    static void writeRows(Path json, CommandSpec spec, Consumer<PrintWriter> rows, Consumer<PrintWriter> table)
            throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        LineTrackingWriter.endLine(err);
        SectionOutput.writeRows(json, spec.commandLine().getOut(), err, rows, table);
    }

    /** {@link SectionReport#start} for a section's {@code --report}, or null without one. */
    static SectionReport startReport(Path page, Path dir, CommandSpec spec) {
        return SectionReport.start(page, dir, spec.commandLine().getErr(), commandText(spec));
    }

    /** The command line as typed, for a report page: {@code sluice bench write --size 1g}. */
    static String commandText(CommandSpec spec) {
        return "sluice " + String.join(" ", spec.root().commandLine().getParseResult().originalArgs());
    }

    /** The thread counts to measure: the given ones, checked, or 1 and every core. */
    static List<Integer> threadCounts(List<Integer> given) {
        int cores = Runtime.getRuntime().availableProcessors();
        List<Integer> t = given != null ? given : cores == 1 ? List.of(1) : List.of(1, cores);
        for (int n : t) {
            if (n < 1 || n > 1024) {
                throw new IllegalArgumentException("--threads must be between 1 and 1024: " + n);
            }
        }
        return t;
    }

    Bench.Options options() {
        long fileSize = ByteSize.parse(size);
        List<Integer> bs = new ArrayList<>();
        for (String s : blockSizes) {
            bs.add(blockSize(s, "--block-sizes"));
        }
        int seq = seqBlockSize.equals("0") ? 0 : blockSize(seqBlockSize, "--seq-block-size");
        for (int b : bs) {
            if (b > fileSize) {
                throw new IllegalArgumentException("--size " + size + " is smaller than a block of " + b + " bytes");
            }
        }
        List<Integer> t = threadCounts(threads);
        List<String> e = engines;
        if (e == null) {
            e = new ArrayList<>();
            for (Engine engine : Engine.values()) {
                if (engine.isAvailable()) {
                    e.add(engine.name());
                }
            }
            e.add("naive-direct");
        }
        long sampleNanos = sampling.sampleNanos();
        BenchChecks.forks(forks, sampling.rounds, !noFork);
        BenchChecks.json(sampling.json);
        Path d = BenchChecks.dir(dir);
        BenchChecks.space(d, fileSize, "--size " + size);
        return new Bench.Options(fileSize, d, t, e, bs, seq, sampleNanos, sampling.rounds, !noFio,
                !noFork, forks);
    }

    static int blockSize(String s, String option) {
        long b = ByteSize.parse(s);
        if (b < 1 || b > (256 << 20)) {
            throw new IllegalArgumentException(option + ": block size must be 1 byte to 256 MiB: " + s);
        }
        return (int) b;
    }
}
