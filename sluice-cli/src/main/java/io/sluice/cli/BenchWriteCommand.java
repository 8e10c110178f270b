package io.sluice.cli;

import io.sluice.bench.BenchChecks;
import io.sluice.bench.ByteSize;
import io.sluice.bench.Row;
import io.sluice.bench.SectionOutput;
import io.sluice.bench.SectionReport;
import io.sluice.bench.WriteBench;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sluice bench write}: small sequential writes through the JDK's classes and MappedWriter, side by side. */
@Command(name = "write", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Write a file front to back in small chunks through FileOutputStream, BufferedOutputStream (64 KiB), "
                    + "RandomAccessFile, FileChannel (heap and page-aligned direct buffers) and MappedWriter, to a new "
                    + "file and over a file in the page cache; each run is timed from open to close, nothing forced.",
            "Ratios are to FileOutputStream. The table goes to standard output, progress to standard error."})
final class BenchWriteCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    JobBenchOptions common;

    @Option(names = "--size", defaultValue = "256m", paramLabel = "BYTES",
            description = "Bytes written per run (default: ${DEFAULT-VALUE}, about a minute in all on 2 cores).")
    String size;

    @Option(names = "--chunk-sizes", split = ",", defaultValue = "1k,4k,16k", paramLabel = "BYTES",
            description = "Bytes per write call (default: ${DEFAULT-VALUE}).")
    List<String> chunkSizes;

    @Option(names = "--writers", split = ",", paramLabel = "NAME",
            description = "Writers to measure (default: all; the IO_URING ones where io_uring is available): "
                    + "FileOutputStream, BufferedOutputStream, RandomAccessFile, FileChannel-heap, FileChannel-direct, "
                    + "MappedWriter, IO_URING (one write per ring round trip), IO_URING-batch (32 chunks per call), "
                    + "AUTO (the default engine: one pwrite per chunk).")
    List<String> writers;

    @Override
    public Integer call() throws IOException {
        long bytes = common.sizeAndRounds(size);
        int rounds = common.rounds;
        List<Integer> chunks = new ArrayList<>();
        for (String c : chunkSizes) {
            chunks.add(BenchCommand.blockSize(c, "--chunk-sizes"));
        }
        List<String> names = new ArrayList<>();
        if (writers == null) {
            for (WriteBench.Writer w : WriteBench.Writer.values()) {
                boolean uring = w == WriteBench.Writer.URING || w == WriteBench.Writer.URING_BATCH;
                if (!uring || io.sluice.Engine.IO_URING.isAvailable()) {
                    names.add(w.label());
                }
            }
        } else {
            for (String w : writers) {
                names.add(WriteBench.Writer.parse(w).label());
            }
        }
        BenchChecks.json(common.json);
        Path d = common.dir();
        // a new file and one kept in the page cache, each of the size
        BenchChecks.space(d, BenchChecks.times(bytes, 2), "--size " + size + " (two files of that size)");
        SectionReport page = BenchCommand.startReport(common.report, d, spec);
        PrintWriter err = spec.commandLine().getErr();
        SectionOutput.describeMachine(err);
        err.printf("sluice bench write: %s per run in chunks of %s to %s; writers %s; %d rounds%n",
                ByteSize.format(bytes), chunkSizes, d, names, rounds);
        List<Row> rows = new WriteBench(new WriteBench.Options(bytes, d, chunks, names, rounds), err).run();
        BenchCommand.emit(rows, w -> WriteBench.BASELINE, common.json, spec);
        if (page != null) {
            page.finish("write", w -> io.sluice.bench.Report.json(rows, x -> WriteBench.BASELINE, w));
        }
        return Main.OK;
    }
}
