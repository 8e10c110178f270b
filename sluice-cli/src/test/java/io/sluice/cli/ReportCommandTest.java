package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice report} on saved rows: the page, the warnings, and what it refuses. */
class ReportCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @TempDir
    Path tmp;

    private int run(String... args) {
        return Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    /** A copy of one of the report tests' fixtures, which live with the report's code in sluice-report. */
    private Path fixture(String name) throws IOException {
        Path p = tmp.resolve(name);
        Files.copy(Path.of("..", "sluice-report", "src", "test", "resources", "io", "sluice", "report", name), p);
        return p;
    }

    @Test
    void buildsThePageFromFilesAndDirectoriesSkippingOtherFormats() throws IOException {
        Path rows = fixture("bare-uring-rows.json");
        Path doc = fixture("fixture-run.json");
        Path hyperfine = Files.writeString(tmp.resolve("wc-l.json"), "{\"results\": [{\"command\": \"wc -l x\"}]}");
        Path page = tmp.resolve("page.html");
        assertEquals(Main.OK, run("report", tmp.toString(), "-o", page.toString()), err::toString);
        String html = Files.readString(page);
        assertTrue(html.startsWith("<!DOCTYPE html>") && html.endsWith("</html>\n"), "one whole page");
        assertTrue(html.contains("bare-uring-rows.json") && html.contains("fixture-run.json"), "both sources");
        assertTrue(err.toString().contains("sluice: warning: skipping wc-l.json: not benchmark rows"), err::toString);
        assertTrue(err.toString().contains("wrote " + page), err::toString);
        assertTrue(Files.isReadable(page) && Files.getPosixFilePermissions(page)
                .contains(java.nio.file.attribute.PosixFilePermission.OTHERS_READ), "a page is for others to read");
        assertEquals(Main.OK, run("report", rows.toString(), doc.toString(), hyperfine.toString(), "-o",
                tmp.resolve("again.html").toString(), "--title", "Mine & yours"));
        assertTrue(Files.readString(tmp.resolve("again.html")).contains("<h1>Mine &amp; yours</h1>"));
        try (var s = Files.list(tmp)) {
            assertFalse(s.anyMatch(p -> p.getFileName().toString().endsWith(".tmp")), "no temporary file left");
        }
    }

    @Test
    void aSectionWritesItsOwnPageFromTheRowsItsJsonHas() throws IOException {
        Path dir = java.nio.file.Files.createDirectory(tmp.resolve("data"));
        Path page = tmp.resolve("write.html");
        Path json = tmp.resolve("write.json");
        assertEquals(Main.OK, run("bench", "write", "--size", "1m", "--chunk-sizes", "4k", "--rounds", "1",
                "--writers", "FileOutputStream,MappedWriter", "--dir", dir.toString(), "--json", json.toString(),
                "--report", page.toString()), err::toString);
        String html = Files.readString(page);
        int rows = io.sluice.report.ReportInput.read(json, w -> { throw new AssertionError(w); }).orElseThrow()
                .sections().get(0).rows().size();
        assertEquals(4, rows, "two writers, new and cached file");
        assertTrue(html.contains("All " + rows + " rows"), "the page has the rows the JSON has");
        assertTrue(html.contains("Small sequential writes from Java"), "as the write section");
        assertTrue(html.contains("Load average after") && html.contains("Memory copy, one thread"), "the machine");
        assertTrue(html.contains("sluice bench write --size 1m"), "the command");
        assertTrue(err.toString().contains("wrote " + page), err::toString);
        assertEquals(Main.BAD_INPUT, run("bench", "zip", "--report", tmp.resolve("none/p.html").toString()));
        assertTrue(err.toString().contains("--report " + tmp.resolve("none/p.html")), "checked before the run");
    }

    /** A section as one added later might be written: the shared options and emit, no report code of its own. */
    @picocli.CommandLine.Command(name = "probe")
    static final class ProbeSection implements java.util.concurrent.Callable<Integer> {
        @picocli.CommandLine.Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @picocli.CommandLine.Mixin
        SampleOptions sampling;

        @Override
        public Integer call() throws IOException {
            var w = new io.sluice.bench.Workload(io.sluice.bench.Workload.RANDREAD, 4096);
            var row = new io.sluice.bench.Row("CHANNEL", w, 1, null,
                    java.util.List.of(new io.sluice.bench.Sample(100, 409.6e6)));
            BenchCommand.emit(java.util.List.of(row), x -> "CHANNEL", sampling.json, spec);
            return Main.OK;
        }
    }

    @Test
    void aSectionWithTheReportOptionButNoReportCodeStillWritesThePage() throws IOException {
        Path page = tmp.resolve("probe.html");
        picocli.CommandLine cl = new picocli.CommandLine(new ProbeSection());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        assertEquals(Main.OK, cl.execute("--report", page.toString()), err::toString);
        String html = Files.readString(page);
        assertTrue(html.contains("All 1 row<") && html.contains("sluice bench probe"), html);
        assertTrue(html.contains("Load average after") && !html.contains("Load average before"),
                "the machine looked up after the run, saying nothing of before");
    }

    @Test
    void nothingToReportIsBadInput() throws IOException {
        Path hyperfine = Files.writeString(tmp.resolve("wc-l.json"), "{\"results\": []}");
        assertEquals(Main.BAD_INPUT, run("report", hyperfine.toString(), "-o", tmp.resolve("p.html").toString()));
        assertTrue(err.toString().contains("nothing to report: no benchmark rows in " + hyperfine), err::toString);
        assertFalse(Files.exists(tmp.resolve("p.html")));
    }

    @Test
    void aMissingFileFailsAndAnUnwritablePageIsRefusedBeforeReading() throws IOException {
        assertEquals(Main.FAILED, run("report", tmp.resolve("nope.json").toString(), "-o",
                tmp.resolve("p.html").toString()));
        assertTrue(err.toString().contains("nope.json: no such file or directory"), err::toString);
        Path rows = fixture("bare-uring-rows.json");
        assertEquals(Main.BAD_INPUT, run("report", rows.toString(), "-o", tmp.resolve("no/such/dir/p.html").toString()));
        assertTrue(err.toString().contains("-o " + tmp.resolve("no/such/dir/p.html") + ": directory"), err::toString);
        assertEquals(Main.BAD_INPUT, run("report", rows.toString()));
        assertTrue(err.toString().contains("missing required option"), err::toString);
    }
}
