package io.sluice.cli;

import io.sluice.Engine;
import io.sluice.cli.bench.ByteSize;
import io.sluice.cli.bench.Row;
import io.sluice.cli.bench.UringBench;
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

/** {@code sluice bench uring}: io_uring one request at a time and in batches, warm and O_DIRECT, beside fio. */
@Command(name = "uring", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Random reads through io_uring one at a time and in batches of --depth, with a warm page cache and with "
                    + "O_DIRECT, beside FileChannel and fio's psync and io_uring engines.",
            "The table goes to standard output, progress to standard error."})
final class BenchUringCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @ParentCommand
    BenchCommand parent;

    @Option(names = "--depth", defaultValue = "32", paramLabel = "N",
            description = "Reads in flight per thread in the batched rows (default: ${DEFAULT-VALUE}).")
    int depth;

    @Option(names = "--block-size", defaultValue = "4k", paramLabel = "BYTES",
            description = "Bytes per read (default: ${DEFAULT-VALUE}).")
    String blockSize;

    @Option(names = "--no-direct", description = "Skip the O_DIRECT rows.")
    boolean noDirect;

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
        int bs = (int) ByteSize.parse(blockSize);
        if (bs < 512 || bs > fileSize || bs % 512 != 0) {
            throw new IllegalArgumentException("--block-size must be a multiple of 512 no larger than --size: " + blockSize);
        }
        // One thread unless asked: the point is what one thread gets from keeping many requests in flight.
        List<Integer> threads = parent.threads != null ? BenchCommand.threadCounts(parent.threads) : List.of(1);
        Path dir = parent.dir != null ? parent.dir : Path.of(System.getProperty("java.io.tmpdir"));
        BenchCommand.describeMachine(err);
        var o = new UringBench.Options(fileSize, dir, threads, bs, depth, !noDirect, sampling.sampleNanos(),
                sampling.rounds, !parent.noFio);
        List<Row> rows = new UringBench(o, err).run();
        BenchCommand.emit(rows, w -> w.direct() ? UringBench.DIRECT_BASELINE : "CHANNEL", sampling.json, spec);
        return Main.OK;
    }
}
