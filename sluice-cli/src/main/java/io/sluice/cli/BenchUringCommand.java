package io.sluice.cli;

import io.sluice.Engine;
import io.sluice.bench.BenchChecks;
import io.sluice.bench.ByteSize;
import io.sluice.bench.Row;
import io.sluice.bench.SectionOutput;
import io.sluice.bench.SectionReport;
import io.sluice.bench.UringBench;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code sluice bench uring}: io_uring one request at a time and in batches, warm and O_DIRECT, beside fio; reads
 * from many virtual threads; random writes from a few platform threads.
 */
@Command(name = "uring", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Random reads through io_uring one at a time and in batches of --depth, with a warm page cache and with "
                    + "O_DIRECT, beside FileChannel and fio's psync and io_uring engines. Then blocking reads from "
                    + "--vthreads virtual threads through one shared io_uring file against a FileChannel, and random "
                    + "writes over the cached file at each of --write-threads, one at a time and in batches, beside "
                    + "FileChannel and fio. Last, open, read one block, close per request over 64 files (PathReads "
                    + "against FileChannel).",
            "--size, --dir, --threads and --no-fio are options of 'sluice bench' and go before 'uring': "
                    + "sluice bench --size 64m uring --depth 8.",
            "The table goes to standard output, progress to standard error."})
final class BenchUringCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @ParentCommand
    BenchCommand parent;

    @Option(names = "--depth", defaultValue = "32", paramLabel = "N",
            description = "Requests in flight per thread in the batched rows, reads and writes (default: ${DEFAULT-VALUE}).")
    int depth;

    @Option(names = "--block-sizes", split = ",", defaultValue = "4k", paramLabel = "BYTES",
            description = "Bytes per read or write, one or more: 512,4k,16k,64k gives seed 004's table (default: ${DEFAULT-VALUE}).")
    List<String> blockSizes;

    @Option(names = "--no-direct", description = "Skip the O_DIRECT rows.")
    boolean noDirect;

    @Option(names = "--vthreads", defaultValue = "25", paramLabel = "N",
            description = "Virtual threads of the randread-vthreads rows (default: ${DEFAULT-VALUE}, as seed 004).")
    int vthreads;

    @Option(names = "--no-vthreads", description = "Skip the virtual-thread rows.")
    boolean noVthreads;

    @Option(names = "--write-threads", split = ",", defaultValue = "1,2,8", paramLabel = "N",
            description = "Platform threads of the randwrite rows, one or more (default: ${DEFAULT-VALUE}).")
    List<Integer> writeThreads;

    @Option(names = "--no-writes", description = "Skip the random-write rows.")
    boolean noWrites;

    @Option(names = "--no-open-read-close", description = "Skip the open-read-close rows.")
    boolean noOpenReadClose;

    @Option(names = "--sqpoll", description = "Add batched rows on an SQPOLL ring (SluiceOption.SQPOLL) and fio's "
            + "io_uring with --sqthread_poll=1 to the warm section. The kernel's polling thread takes a core.")
    boolean sqpoll;

    @Mixin
    SampleOptions sampling;

    @Override
    public Integer call() throws IOException, InterruptedException {
        Engine.IO_URING.requireAvailable();
        if (depth < 1 || depth > 4096) {
            throw new IllegalArgumentException("--depth must be between 1 and 4096: " + depth);
        }
        PrintWriter err = spec.commandLine().getErr();
        long fileSize = ByteSize.parse(parent.size);
        List<Integer> sizes = new java.util.ArrayList<>();
        for (String b : blockSizes) {
            long bs = ByteSize.parse(b);
            if (bs < 512 || bs > fileSize || bs % 512 != 0 || bs > (64 << 20)) {
                throw new IllegalArgumentException("--block-sizes: each must be a multiple of 512, at most 64 MiB "
                        + "and no larger than --size: " + b);
            }
            sizes.add((int) bs);
        }
        // One thread unless asked: the point is what one thread gets from keeping many requests in flight.
        List<Integer> threads = parent.threads != null ? BenchCommand.threadCounts(parent.threads) : List.of(1);
        if (!noVthreads && (vthreads < 1 || vthreads > 10_000)) {
            throw new IllegalArgumentException("--vthreads must be between 1 and 10000: " + vthreads);
        }
        for (int n : writeThreads) {
            if (n < 1 || n > 1024) {
                throw new IllegalArgumentException("--write-threads must be between 1 and 1024: " + n);
            }
        }
        long sampleNanos = sampling.sampleNanos();
        BenchChecks.json(sampling.json);
        Path dir = BenchChecks.dir(parent.dir);
        long smallFiles = noOpenReadClose ? 0 : (long) UringBench.SMALL_FILES * UringBench.SMALL_FILE_SIZE;
        BenchChecks.space(dir, BenchChecks.plus(fileSize, smallFiles), "--size " + parent.size
                + (noOpenReadClose ? "" : " (and 64 MiB of open-read-close files)"));
        SectionReport page = BenchCommand.startReport(sampling.report, dir, spec);
        SectionOutput.describeMachine(err);
        List<Integer> writers = noWrites ? List.of() : writeThreads;
        var o = new UringBench.Options(fileSize, dir, threads, sizes, depth, !noDirect, sampleNanos,
                sampling.rounds, !parent.noFio, noVthreads ? 0 : vthreads, writers, !noOpenReadClose, sqpoll);
        List<Row> rows = new UringBench(o, err).run();
        BenchCommand.emit(rows, UringBench::baseline, sampling.json, spec);
        if (page != null) {
            page.finish("uring", w -> io.sluice.bench.Report.json(rows, UringBench::baseline, w));
        }
        return Main.OK;
    }
}
