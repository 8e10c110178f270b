package io.sluice.cli;

import io.sluice.cli.report.ReportDocument;
import io.sluice.cli.report.ReportInput;
import io.sluice.cli.report.ReportPage;
import io.sluice.cli.report.SeedClaims;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
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
    /** The page's heading unless --title says otherwise. */
    static final String TITLE = "Sluice benchmarks: which strategy wins here, and do the seeds' claims hold?";

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
        List<Path> inputs = new ArrayList<>();
        for (Path f : files) {
            if (Files.isDirectory(f)) {
                try (Stream<Path> s = Files.list(f)) {
                    s.filter(p -> p.getFileName().toString().endsWith(".json") && Files.isRegularFile(p)).sorted()
                            .forEach(inputs::add);
                }
            } else if (!Files.exists(f)) {
                throw new NoSuchFileException(f.toString());
            } else {
                inputs.add(f);
            }
        }
        List<ReportDocument> documents = new ArrayList<>();
        for (Path f : inputs) {
            Optional<ReportDocument> d = ReportInput.read(f, w -> err.println("sluice: warning: " + w));
            d.ifPresent(documents::add);
        }
        if (documents.isEmpty()) {
            throw new IllegalArgumentException("nothing to report: no benchmark rows in " + (inputs.isEmpty()
                    ? "any .json file there" : inputs.size() == 1 ? inputs.get(0) : "any of the " + inputs.size()
                    + " files"));
        }
        String generated = "Made " + ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern(
                "yyyy-MM-dd HH:mm 'UTC'")) + " by sluice report from " + (documents.size() == 1
                ? documents.get(0).source() : documents.size() + " files") + ".";
        String html = ReportPage.render(documents, SeedClaims.load(), title != null ? title : TITLE, generated);
        write(output, html);
        err.println("wrote " + output);
        return Main.OK;
    }

    /** Writes the page beside its final name and moves it there, so a failed write leaves no half page. */
    static void write(Path output, String html) throws IOException {
        Path abs = output.toAbsolutePath();
        // Not Files.createTempFile: its file is private to the owner, and the page is for others to read.
        Path tmp = abs.resolveSibling("." + abs.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        try {
            Files.writeString(tmp, html, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE);
            Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
