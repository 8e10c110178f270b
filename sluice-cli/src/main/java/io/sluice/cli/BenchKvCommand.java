package io.sluice.cli;

import io.sluice.bench.BenchChecks;
import io.sluice.bench.SectionOutput;
import io.sluice.bench.SectionReport;
import io.sluice.bench.jruby.KvBench;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sluice bench kv}: Sluice::DB against the same store from Java and through JRuby's automatic conversion,
 * Ruby's PStore, and Kyoto Cabinet from MRI and C++, on a maf_index-shaped workload. The work is in {@link KvBench}
 * (module sluice-bench).
 */
@Command(name = "kv", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "An index build shaped like bio-maf's maf_index: bulk-load N entries (16-byte keys of sequence, bin and "
                    + "start; 16-byte values of offset and length), then random gets, then scans of 100 entries from "
                    + "random keys. Rows: Sluice::DB from JRuby; the same MVStore from JRuby through automatic "
                    + "String conversion; KvStore from Java with no JRuby (the binding's overhead); Ruby's PStore at "
                    + "a smaller N; Kyoto Cabinet's TreeDB from MRI (ruby-kyotocabinet) and from C++ (compiled here "
                    + "with g++ against libkyotocabinet-dev), each skipped with the reason where this machine lacks it.",
            "Every row runs in a process of its own (the JRuby rows from the jruby-complete jar), all started first; "
                    + "each round runs every row once, in an order rotated each round, on the same keys, after "
                    + "warm-up rounds that are not counted. Every JVM row has the same fixed heap and collector, and "
                    + "every row with a collector collects before each round's timed work. The default "
                    + "5 M entries take several minutes on an idle machine; --n 200000 takes about one."})
final class BenchKvCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--n", defaultValue = "5000000", paramLabel = "N",
            description = "Entries loaded (default: ${DEFAULT-VALUE}).")
    int n;

    @Option(names = "--pstore-n", paramLabel = "N",
            description = "Entries PStore loads; 0 skips it (default: N / 50, at most 100000).")
    Integer pstoreN;

    @Option(names = "--gets", defaultValue = "200000", paramLabel = "N",
            description = "Random gets per round (default: ${DEFAULT-VALUE}).")
    int gets;

    @Option(names = "--scans", defaultValue = "20000", paramLabel = "N",
            description = "Scans of 100 entries per round (default: ${DEFAULT-VALUE}).")
    int scans;

    @Option(names = "--rounds", defaultValue = "3", paramLabel = "N",
            description = "Measured rounds after the warm-up rounds (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--warmup", defaultValue = "" + KvBench.WARMUP, paramLabel = "N",
            description = "Rounds run first and not counted, while the JIT compilers work (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--heap", defaultValue = KvBench.HEAP, paramLabel = "SIZE",
            description = "The heap of every JVM row's process, fixed and touched at start (-Xms = -Xmx, "
                    + "AlwaysPreTouch, a 512m young generation, so more than 512m); a store caches an eighth of it "
                    + "(default: ${DEFAULT-VALUE}).")
    String heap;

    @Option(names = "--dir", paramLabel = "DIR",
            description = "Where the store files go (default: the system temp directory).")
    Path dir;

    @Mixin
    RowsOutputOptions output;

    @Option(names = "--jruby-jar", paramLabel = "JAR",
            description = "The jruby-complete jar to run (default: the one the build copied to sluice-cli/target/jruby).")
    Path jrubyJar;

    @Override
    public Integer call() throws IOException, InterruptedException {
        int p = pstoreN != null ? pstoreN : Math.min(n / 50, 100_000);
        // The same checks as every other section, before JRuby starts. A store takes about 36 bytes an entry here
        // (7.3 MB for 200,000); 64 leaves room for MVStore's unreclaimed chunks.
        BenchChecks.json(output.json);
        BenchChecks.rounds(rounds);
        Path d = BenchChecks.dir(dir);
        BenchChecks.space(d, BenchChecks.times(n, 64), "--n " + n + " (one store at a time, about 64 bytes an entry)");
        SectionReport page = BenchCommand.startReport(output.report, d, spec);
        KvBench.Options o = new KvBench.Options(n, p, gets, scans, rounds, warmup, heap, d, jrubyJar);
        PrintWriter err = spec.commandLine().getErr();
        SectionOutput.describeMachine(err);
        KvBench.Result result = KvBench.run(o, err);
        BenchCommand.writeRows(output.json, spec, w -> KvBench.json(result, w), w -> KvBench.table(result, w));
        if (page != null) {
            page.finish("kv", w -> KvBench.json(result, w));
        }
        return Main.OK;
    }
}
