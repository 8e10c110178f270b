package io.sluice.cli;

import io.sluice.Engine;
import io.sluice.bench.BenchChecks;
import io.sluice.bench.ByteSize;
import io.sluice.bench.ChunksBench;
import io.sluice.bench.SectionOutput;
import io.sluice.bench.SectionReport;
import io.sluice.chunks.ChunkTrace;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sluice bench chunks}: a MAF parser fed at each fixed chunk size and by the adaptive reader, side by side. */
@Command(name = "chunks", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Seed 001's workload: parse a generated MAF file (UCSC's multiple alignment format) into an index of its "
                    + "blocks through Sluice's ChunkedReader, at fixed chunk sizes from 16 KiB to 8 MiB and with the "
                    + "adaptive policy, side by side, with the page cache warm and cold (the file's pages dropped with "
                    + "posix_fadvise before each run; no root needed).",
            "The table goes to standard output, progress to standard error. With the defaults (1 GiB) it takes "
                    + "several minutes."})
final class BenchChunksCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    JobBenchOptions common;

    @Option(names = "--size", defaultValue = "1g", paramLabel = "BYTES",
            description = "Size of the generated MAF file (default: ${DEFAULT-VALUE}).")
    String size;

    @Option(names = "--chunk-sizes", split = ",", paramLabel = "BYTES",
            description = "Fixed chunk sizes to measure beside the adaptive reader (default: 16k to 8m in powers of "
                    + "two).")
    List<String> chunkSizes;

    @Option(names = "--ahead-sizes", split = ",", paramLabel = "BYTES",
            description = "Fixed chunk sizes to measure again with read-ahead on, which the adaptive reader may "
                    + "choose too ('none' for none; default: the adaptive reader's first guess).")
    List<String> aheadSizes;

    @Option(names = "--raw", description = "Also read the file at the same sizes with no parsing at all.")
    boolean raw;

    @Option(names = "--cache", split = ",", defaultValue = "warm,cold", paramLabel = "STATE",
            description = "Page-cache states to measure: warm, cold (default: ${DEFAULT-VALUE}).")
    List<String> cache;

    @Option(names = "--engine", defaultValue = "CHANNEL", paramLabel = "NAME",
            description = "The engine the reader reads through: classic, channel, mmap, io_uring "
                    + "(default: ${DEFAULT-VALUE}).")
    String engine;

    @Option(names = "--trace", description = "Print the adaptive reader's last trace of each table: sizes, rates "
            + "and decisions, window by window.")
    boolean trace;

    @Override
    public Integer call() throws IOException {
        long bytes = common.sizeAndRounds(size);
        List<Integer> sizes = new ArrayList<>();
        if (chunkSizes == null) {
            sizes.addAll(ChunksBench.DEFAULT_SIZES);
        } else {
            for (String c : chunkSizes) {
                sizes.add(BenchCommand.blockSize(c, "--chunk-sizes"));
            }
        }
        List<Integer> ahead = null;
        if (aheadSizes != null) {
            ahead = new ArrayList<>();
            for (String c : aheadSizes) {
                if (!c.trim().equalsIgnoreCase("none")) {
                    ahead.add(BenchCommand.blockSize(c, "--ahead-sizes"));
                }
            }
        }
        boolean warm = false;
        boolean cold = false;
        for (String c : cache) {
            switch (c.trim().toLowerCase(Locale.ROOT)) {
                case "warm" -> warm = true;
                case "cold" -> cold = true;
                default -> throw new IllegalArgumentException("--cache: unknown state '" + c + "' (warm, cold)");
            }
        }
        Engine e = Engine.parse(engine);
        e.requireAvailable();
        Path d = common.dir();
        BenchChecks.json(common.json);
        SectionReport page = BenchCommand.startReport(common.report, d, spec);
        PrintWriter err = spec.commandLine().getErr();
        SectionOutput.describeMachine(err);
        err.printf(Locale.ROOT, "sluice bench chunks: %s of MAF in %s, chunks %s and adaptive, %s, %s%s, %d rounds%n",
                ByteSize.format(bytes), d, sizes.stream().map(ByteSize::format).toList(), e, String.join(",", cache),
                raw ? ", with raw reads" : "", common.rounds);
        ChunksBench bench = new ChunksBench(new ChunksBench.Options(bytes, d, sizes, ahead, true, raw, warm, cold,
                common.rounds, e, trace), err);
        List<ChunksBench.Result> results = bench.run();
        PrintWriter out = spec.commandLine().getOut();
        Path json = common.json;
        boolean jsonToStdout = json != null && json.toString().equals("-");
        if (jsonToStdout) {
            ChunksBench.json(results, e, out);
        } else {
            ChunksBench.table(results, e, bytes, bench.notes(), out);
            for (Map.Entry<String, List<ChunkTrace>> t : bench.traces().entrySet()) {
                out.println();
                out.println("adaptive trace, " + t.getKey() + " (last round):");
                t.getValue().forEach(w -> out.println("  " + w));
            }
            out.flush();
        }
        if (json != null && !jsonToStdout) {
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(json, StandardCharsets.UTF_8))) {
                ChunksBench.json(results, e, w);
            }
            err.println("wrote " + json);
        }
        if (page != null) {
            page.finish("chunks", w -> ChunksBench.json(results, e, w));
        }
        return Main.OK;
    }
}
