package io.sluice.cli;

import io.sluice.bench.BenchChecks;
import io.sluice.bench.ByteSize;
import io.sluice.bench.SectionOutput;
import io.sluice.bench.SectionReport;
import io.sluice.bench.jruby.JRubyBench;
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

/**
 * {@code sluice bench jruby}: seed 000's JRuby table. The work is in {@link JRubyBench} (module sluice-bench), which
 * runs JRuby from the jruby-complete jar the build copied, so no JRuby installation is needed.
 */
@Command(name = "jruby", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "From JRuby: write a file front to back in 1k, 4k and 16k String chunks with each strategy of the JRuby "
                    + "mmap experiments (Ruby File, PureMmapFile over NIO with String#to_java_bytes, a Java method "
                    + "taking the String by automatic conversion, unboxed safe and unsafe as plain Java and as a JRuby "
                    + "extension), each as the seed wrote it (one mapping of the whole file, opened and closed outside the "
                    + "timing), and with Sluice::MappedWriter (one window of the whole file, and 64 MiB windows), to a "
                    + "new file, over a cached one, and rewritten as the seed's harness times its pass (the file "
                    + "written once, then the writer's own seek(0) and the writes again); then read a "
                    + "cached file sequentially and at random with Ruby's File#read and IO#pread and with "
                    + "Sluice::File#pread. A rehearsal round, then the measured rounds.",
            "JRuby runs from the jruby-complete jar with native access: each writer in a JVM of its own, as the seed's "
                    + "harness runs each row, and the reads in one more, after untimed warm-up runs of every row. The table goes to standard output, progress to standard error. Several minutes "
                    + "with the defaults (about 500 GB pass through the page cache)."})
final class BenchJRubyCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--size", defaultValue = "1g", paramLabel = "BYTES",
            description = "Bytes written, and read, per run (default: ${DEFAULT-VALUE}; the seed wrote 2000m; its "
                    + "writers map the whole file in one buffer, so at most 2047m with them).")
    String size;

    @Option(names = "--chunk-sizes", split = ",", defaultValue = "1k,4k,16k", paramLabel = "BYTES",
            description = "Bytes per String (default: ${DEFAULT-VALUE}).")
    List<String> chunkSizes;

    @Option(names = "--rounds", defaultValue = "3", paramLabel = "N",
            description = "Measured rounds after the rehearsal (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--forks", defaultValue = "1", paramLabel = "N",
            description = "JRuby JVMs per writer in each write cell (default: ${DEFAULT-VALUE}: each writer in one JVM "
                    + "for the whole run). With N > 1 each cell's rounds are split into N groups, and each group is "
                    + "measured by a fresh JVM per writer after a rehearsal of its own, as the seed's harness gives "
                    + "every row and chunk size a fresh JVM: a row's median then covers several JVMs' compilation of "
                    + "its loop rather than one's. With N > 1 equal to --rounds, as in the seed's harness, each writer's "
                    + "JVM runs alone: started, rehearsed, measured and ended before the next writer's starts; in the "
                    + "rewritten cells with no warm-up or rehearsal round, as the seed's harness times a JVM's second "
                    + "pass with only its first before it. At most "
                    + "--rounds. The reads stay in one JVM.")
    int forks;

    @Option(names = "--heap", defaultValue = "1g", paramLabel = "BYTES",
            description = "Heap of each JRuby JVM, fixed and touched when it starts (-Xms, -Xmx, -XX:+AlwaysPreTouch; "
                    + "default: ${DEFAULT-VALUE}), so that no timed run grows the heap into memory touched for the "
                    + "first time, which on a VM can cost more than the writes. 0: the JVM's own sizing. The writers' "
                    + "JVMs of a cell live at once, so this much for each.")
    String heap;

    @Option(names = "--dir", paramLabel = "DIR",
            description = "Where to write (default: the system temp directory).")
    Path dir;

    @Option(names = "--no-writes", description = "Skip the write table.")
    boolean noWrites;

    @Option(names = "--no-reads", description = "Skip the read table.")
    boolean noReads;

    @Option(names = "--only", split = ",", paramLabel = "NAME",
            description = "Measure only these rows, by their JSON names: ruby-File, PureMmapFile, MmapFile-autoboxing, "
                    + "MmapFile-unboxed-safe, MmapFile-unboxed-unsafe, MmapFileExt-unboxed-safe, "
                    + "MmapFileExt-unboxed-unsafe, Sluice::MappedWriter, Sluice::MappedWriter-windows, ruby-File#read, "
                    + "ruby-IO#pread, "
                    + "Sluice::File#pread, Sluice::File#pread-mmap (default: all).")
    List<String> only;

    @Option(names = "--jruby-jar", paramLabel = "JAR",
            description = "The jruby-complete jar to run (default: the one the build copied to sluice-cli/target/jruby).")
    Path jrubyJar;

    @Mixin
    RowsOutputOptions output;

    @Override
    public Integer call() throws IOException, InterruptedException {
        List<Integer> chunks = new ArrayList<>();
        for (String c : chunkSizes) {
            chunks.add(BenchCommand.blockSize(c, "--chunk-sizes"));
        }
        // The same checks as every other section, before JRuby starts: a run takes minutes.
        BenchChecks.json(output.json);
        BenchChecks.rounds(rounds);
        BenchChecks.forks(forks, rounds, true);
        Path d = BenchChecks.dir(dir);
        long bytes = ByteSize.parse(size);
        BenchChecks.space(d, bytes, "--size " + size + " (one file at a time)");
        JRubyBench.Options o = new JRubyBench.Options(bytes, d, chunks, rounds, !noWrites, !noReads,
                only != null ? only : List.of(), jrubyJar, forks, ByteSize.parse(heap));
        JRubyBench.checkMemory(o);
        SectionReport page = BenchCommand.startReport(output.report, d, spec);
        PrintWriter err = spec.commandLine().getErr();
        SectionOutput.describeMachine(err);
        JRubyBench.Result result = JRubyBench.run(o, err);
        BenchCommand.writeRows(output.json, spec, w -> JRubyBench.json(result, w),
                w -> JRubyBench.table(result, w));
        if (page != null) {
            page.finish("jruby", w -> JRubyBench.json(result, w));
        }
        return Main.OK;
    }
}
