package io.sluice.cli;

import io.sluice.Engine;
import io.sluice.bench.BenchChecks;
import io.sluice.bench.ByteSize;
import io.sluice.bench.ChannelsBench;
import io.sluice.bench.Row;
import io.sluice.bench.SectionReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code sluice bench channels}: sluice-nio's AsynchronousFileChannel and FileChannel against the JDK's asynchronous
 * channel and against the engines' own API.
 */
@Command(name = "channels", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Sluice behind the JDK's types. The JDK's AsynchronousFileChannel against Sluice's over io_uring "
                    + "(rows jdk-AsynchronousFileChannel, sluice-AsynchronousFileChannel): random reads of "
                    + "--async-block-size with --depth in flight per thread, through the page cache and with O_DIRECT "
                    + "(the JDK's ExtendedOpenOption.DIRECT on both), at each of --async-threads. Then Sluice's "
                    + "FileChannel over each engine (rows sluice-FileChannel-ENGINE) against the engine's own "
                    + "PositionalFile, one random read at a time at each block size. Beside the asynchronous rows, "
                    + "unless --no-fio, fio on the same cells: io_uring at --depth (fio-io_uring) and psync with one "
                    + "job per read in flight (fio-psync-job-per-request), the device's own ratio for the JDK's way "
                    + "(a pool thread per read) and Sluice's (one ring). The ratios of the pairs follow the progress "
                    + "on standard error.",
            "--size, --dir, --threads (of the FileChannel rows, default 1), --engines, --block-sizes and --forks are "
                    + "options of 'sluice bench' and go before 'channels': sluice bench --size 256m channels "
                    + "--rounds 3.",
            "The table goes to standard output, progress to standard error."})
final class BenchChannelsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @ParentCommand
    BenchCommand parent;

    @Option(names = "--depth", defaultValue = "32", paramLabel = "N",
            description = "Reads in flight per thread in the AsynchronousFileChannel rows (default: ${DEFAULT-VALUE}).")
    int depth;

    @Option(names = "--async-threads", split = ",", defaultValue = "1,2", paramLabel = "N",
            description = "Threads of the AsynchronousFileChannel rows, one or more (default: ${DEFAULT-VALUE}).")
    List<Integer> asyncThreads;

    @Option(names = "--async-block-size", defaultValue = "4k", paramLabel = "BYTES",
            description = "Bytes per read in the AsynchronousFileChannel rows (default: ${DEFAULT-VALUE}).")
    String asyncBlockSize;

    @Option(names = "--no-direct", description = "Skip the O_DIRECT rows.")
    boolean noDirect;

    @Option(names = "--no-fork", description = "Measure every Java contender in this JVM (also an option of "
            + "'sluice bench'). Without it each runs in a JVM of its own, so the adapter and its engine do not share "
            + "one type profile.")
    boolean noFork;

    @Mixin
    SampleOptions sampling;

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (depth < 1 || depth > 4096) {
            throw new IllegalArgumentException("--depth must be between 1 and 4096: " + depth);
        }
        for (int n : asyncThreads) {
            if (n < 1 || n > 1024) {
                throw new IllegalArgumentException("--async-threads must be between 1 and 1024: " + n);
            }
        }
        PrintWriter err = spec.commandLine().getErr();
        long fileSize = ByteSize.parse(parent.size);
        int asyncBs = BenchCommand.blockSize(asyncBlockSize, "--async-block-size");
        List<Integer> sizes = new ArrayList<>();
        for (String s : parent.blockSizes) {
            sizes.add(BenchCommand.blockSize(s, "--block-sizes"));
        }
        for (int b : sizes) {
            if (b > fileSize || asyncBs > fileSize) {
                throw new IllegalArgumentException("--size " + parent.size + " is smaller than a block of "
                        + Math.max(b, asyncBs) + " bytes");
            }
        }
        List<Engine> engines = new ArrayList<>();
        if (parent.engines == null) {
            for (Engine e : Engine.values()) {
                if (e.isAvailable()) {
                    engines.add(e);
                }
            }
        } else {
            for (String name : parent.engines) {
                try {
                    engines.add(Engine.valueOf(name.toUpperCase(Locale.ROOT)));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--engines: not an engine of the FileChannel rows: " + name
                            + " (classic, channel, mmap, io_uring, auto)");
                }
            }
        }
        List<Integer> adapterThreads = parent.threads != null ? BenchCommand.threadCounts(parent.threads) : List.of(1);
        long sampleNanos = sampling.sampleNanos();
        boolean fork = !(noFork || parent.noFork);
        BenchChecks.forks(parent.forks, sampling.rounds, fork);
        BenchChecks.json(sampling.json);
        Path dir = BenchChecks.dir(parent.dir);
        BenchChecks.space(dir, fileSize, "--size " + parent.size);
        SectionReport page = BenchCommand.startReport(sampling.report, dir, spec);
        io.sluice.bench.SectionOutput.describeMachine(err);
        var o = new ChannelsBench.Options(fileSize, dir, sizes, engines, asyncThreads, adapterThreads, depth, asyncBs,
                !noDirect, sampleNanos, sampling.rounds, !parent.noFio, fork, parent.forks);
        List<Row> rows = new ChannelsBench(o, err).run();
        BenchCommand.emit(rows, ChannelsBench::baseline, sampling.json, spec);
        if (page != null) {
            page.finish("channels", w -> io.sluice.bench.Report.json(rows, ChannelsBench::baseline, w));
        }
        return Main.OK;
    }
}
