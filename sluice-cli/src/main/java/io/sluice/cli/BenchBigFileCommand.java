package io.sluice.cli;

import io.sluice.cli.bench.BigFileBench;
import io.sluice.cli.bench.ByteSize;
import io.sluice.cli.bench.Row;
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

/** {@code sluice bench bigfile}: a big file written from memory and read back, by one thread and by every core. */
@Command(name = "bigfile", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Write a big file from random arrays prepared in memory (BigFiles.fill) and read every byte back "
                    + "(BigFiles.sum), at 1 thread and every core, against a single-threaded FileChannel loop and, "
                    + "for reading, a plain Java mmap long-sum measured beside it.",
            "The table goes to standard output, progress to standard error."})
final class BenchBigFileCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    JobBenchOptions common;

    @Option(names = "--size", defaultValue = "1g", paramLabel = "BYTES",
            description = "Size of the file (default: ${DEFAULT-VALUE}); it must fit in free memory to stay cached.")
    String size;

    @Option(names = "--threads", split = ",", paramLabel = "N",
            description = "Thread counts to measure (default: 1 and every core).")
    List<Integer> threads;

    @Override
    public Integer call() throws IOException {
        long bytes = common.sizeAndRounds(size);
        int rounds = common.rounds;
        List<Integer> t = BenchCommand.threadCounts(threads);
        Path d = common.dir();
        PrintWriter err = spec.commandLine().getErr();
        BenchCommand.describeMachine(err);
        err.printf("sluice bench bigfile: %s file in %s, threads %s, %d rounds%n", ByteSize.format(bytes), d, t, rounds);
        List<Row> rows = new BigFileBench(new BigFileBench.Options(bytes, d, t, rounds), err).run();
        BenchCommand.emit(rows, BigFileBench::baseline, common.json, spec);
        return Main.OK;
    }
}
