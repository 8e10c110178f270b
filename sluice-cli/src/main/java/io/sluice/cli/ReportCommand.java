package io.sluice.cli;

import io.sluice.bench.BenchChecks;
import io.sluice.report.Reports;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice report}: the report page from saved benchmark JSON. */
@Command(name = "report", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Build one self-contained HTML page (no script, nothing loaded from elsewhere) from benchmark rows saved "
                    + "with --json: each seed's claims beside our ratios with a verdict and the known reason, charts of "
                    + "every section, and the machine when the file records it.",
            "Reads the arrays every 'sluice bench' section writes and the document 'sluice bench all --json' writes. "
                    + "A file in another format (hyperfine's output, say) is skipped with a warning. A directory "
                    + "stands for the .json files in it."})
final class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "JSON files of rows, or directories of them.")
    List<Path> files;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE.html", description = "The page to write.")
    Path output;

    @Option(names = "--title", paramLabel = "TEXT", description = "The page's heading.")
    String title;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        BenchChecks.output(output, "-o");
        String html = Reports.page(files, title, w -> err.println("sluice: warning: " + w));
        Reports.write(output, html);
        err.println("wrote " + output);
        return Main.OK;
    }
}
