package io.sluice.cli;

import io.sluice.bench.BenchChecks;
import io.sluice.bench.BigFileBench;
import io.sluice.bench.ByteSize;
import io.sluice.bench.Row;
import io.sluice.bench.SectionOutput;
import io.sluice.bench.SectionReport;
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

    /** Seed 002's workload scaled to a small machine; less where memory is short (see {@link #defaultSize}). */
    static final long DEFAULT_SIZE = 4L << 30;

    @Option(names = "--size", paramLabel = "BYTES",
            description = "Size of the file (default: 4g, or half the memory available when that is less); it must "
                    + "fit in free memory to stay cached.")
    String size;

    @Option(names = "--threads", split = ",", paramLabel = "N",
            description = "Thread counts to measure (default: 1 and every core).")
    List<Integer> threads;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        long bytes = size != null ? common.sizeAndRounds(size) : common.sizeAndRounds(defaultSize(memAvailable(), err));
        int rounds = common.rounds;
        List<Integer> t = BenchCommand.threadCounts(threads);
        BenchChecks.json(common.json);
        Path d = common.dir();
        BenchChecks.space(d, bytes, size != null ? "--size " + size : "the file of " + ByteSize.format(bytes));
        SectionReport page = BenchCommand.startReport(common.report, d, spec);
        SectionOutput.describeMachine(err);
        err.printf("sluice bench bigfile: %s file in %s, threads %s, %d rounds%n", ByteSize.format(bytes), d, t, rounds);
        List<Row> rows = new BigFileBench(new BigFileBench.Options(bytes, d, t, rounds), err).run();
        BenchCommand.emit(rows, BigFileBench::baseline, common.json, spec);
        if (page != null) {
            page.finish("bigfile", w -> io.sluice.bench.Report.json(rows, BigFileBench::baseline, w));
        }
        return Main.OK;
    }

    /**
     * {@link #DEFAULT_SIZE}, or the largest power of two up to half of Linux's MemAvailable when that is less (at
     * least 256 MiB): a file that does not stay in the page cache would measure the disk, not the copy.
     */
    static long defaultSize(long available, PrintWriter err) {
        if (available <= 0 || available / 2 >= DEFAULT_SIZE) {
            return DEFAULT_SIZE;
        }
        long fit = Math.max(256L << 20, Long.highestOneBit(available / 2));
        err.printf("note: %s of memory available, so the file is %s rather than %s (--size to choose)%n",
                ByteSize.format(available), ByteSize.format(fit), ByteSize.format(DEFAULT_SIZE));
        return fit;
    }

    /** MemAvailable from /proc/meminfo in bytes, or -1 where there is none. */
    static long memAvailable() {
        try {
            for (String line : java.nio.file.Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemAvailable:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or an unexpected format: the default stands
        }
        return -1;
    }
}
