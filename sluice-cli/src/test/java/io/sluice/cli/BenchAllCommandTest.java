package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.report.ReportDocument;
import io.sluice.report.ReportInput;
import io.sluice.report.ReportSection;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice bench all}: which sections run with which arguments, and one small real run. */
class BenchAllCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    @Test
    void theQuickPlanRunsEverySectionQuickWithItsQuickArguments(@TempDir Path tmp) {
        assertEquals(Main.OK, run("bench", "all", "--quick", "--plan", "--dir", tmp.toString(), "--no-fio"),
                err::toString);
        String plan = out.toString();
        for (String section : List.of("engines", "uring", "write", "bigfile", "zip", "chunks", "scan", "jruby",
                "kv")) {
            assertTrue(plan.contains("\n  " + section + " "), section + " missing:\n" + plan);
        }
        assertTrue(plan.startsWith("--quick, estimate "), plan);
        String d = tmp.toString();
        assertTrue(plan.contains("sluice bench --size 256m --block-sizes 4k --rounds 3 --duration 100 --dir " + d
                + " --no-fio\n"), plan);
        assertTrue(plan.contains("sluice bench --size 256m --dir " + d + " --no-fio uring --block-sizes 4k --rounds 3 "
                + "--duration 100 --write-threads 1\n") || plan.matches("(?s).*\n  uring +skipped +io_uring.*"), plan);
        assertTrue(plan.contains("sluice bench write --size 32m --chunk-sizes 1k,16k --rounds 3 --writers "
                + "FileOutputStream,BufferedOutputStream,FileChannel-direct,MappedWriter,IO_URING-batch --dir " + d), plan);
        assertTrue(plan.contains("sluice bench chunks --size 32m --chunk-sizes 128k,8m --rounds 3 --dir " + d), plan);
        assertTrue(plan.contains("sluice bench scan --rows 2000000 --rounds 3 --dir " + d), plan);
        // JRuby's sections run where the jruby-complete jar is, and say why not elsewhere
        assertTrue(plan.contains("sluice bench kv --n 20000") || plan.matches("(?s).*\n  kv +skipped +.*"), plan);
        assertTrue(!plan.contains(" medium ") && !plan.contains(" full "), plan);
    }

    @Test
    void budgetsReadAsPeopleWriteThem() {
        assertEquals(600, BenchAllCommand.budgetSeconds("10m"));
        assertEquals(90, BenchAllCommand.budgetSeconds("90s"));
        assertEquals(90, BenchAllCommand.budgetSeconds("90"));
        assertEquals(5400, BenchAllCommand.budgetSeconds("1h30m"));
        for (String bad : List.of("", "ten", "0", "-5m", "10x", "9999h")) {
            assertThrows(IllegalArgumentException.class, () -> BenchAllCommand.budgetSeconds(bad), bad);
        }
        assertEquals(Main.BAD_INPUT, run("bench", "all", "--budget", "soon", "--plan"));
        assertTrue(err.toString().contains("--budget: not a time: 'soon'"), err::toString);
    }

    @Test
    void unknownSectionsAndBadOutputsAreRefusedBeforeAnythingRuns(@TempDir Path tmp) {
        assertEquals(Main.BAD_INPUT, run("bench", "all", "--sections", "engines,turbo", "--plan"));
        assertTrue(err.toString().contains("unknown section 'turbo' (sections: engines, "), err::toString);
        assertEquals(Main.BAD_INPUT, run("bench", "all", "--report", tmp.resolve("no/dir/r.html").toString()));
        assertTrue(err.toString().contains("--report " + tmp.resolve("no/dir/r.html") + ": directory"), err::toString);
        assertEquals(Main.BAD_INPUT, run("bench", "all", "--sections", "zip", "--skip", "zip"));
        assertTrue(err.toString().contains("no section left to run"), err::toString);
    }

    @Test
    void oneSmallSectionRunsThroughAllIntoTheDocumentAndThePage(@TempDir Path tmp) throws Exception {
        Path json = tmp.resolve("all.json");
        Path page = tmp.resolve("all.html");
        Path dir = Files.createDirectory(tmp.resolve("data"));
        assertEquals(Main.OK, run("bench", "all", "--quick", "--sections", "bigfile", "--dir", dir.toString(),
                "--json", json.toString(), "--report", page.toString()), err::toString);
        // one progress display: every line of the section carries where the whole run stands
        List<String> progress = new ArrayList<>();
        for (String line : err.toString().split("\n")) {
            if (line.contains("] [1/2] fill") || line.contains("] [2/2] sum")) {
                progress.add(line);
            }
        }
        assertEquals(2, progress.size(), err::toString);
        for (String line : progress) {
            assertTrue(line.matches("\\[1/1 bigfile \\d+:\\d\\d, about \\d+:\\d\\d left\\] .*"), line);
        }
        assertTrue(out.toString().contains("== bigfile (quick): sluice bench bigfile --size 256m --rounds 3 --dir "
                + dir), out::toString);
        ReportDocument doc = ReportInput.read(json, w -> { throw new AssertionError(w); }).orElseThrow();
        assertEquals(1, doc.sections().size());
        ReportSection s = doc.sections().get(0);
        assertEquals("bigfile", s.name());
        assertEquals(null, s.skipped());
        assertTrue(s.rows().size() >= 6, s.rows()::toString);
        assertTrue(s.rows().stream().allMatch(r -> !Double.isNaN(r.number("opsPerMsMin"))), "per-round extremes");
        for (String field : List.of("cpu", "cores", "kernel", "fileSystem", "jdk", "loadBefore", "loadAfter")) {
            assertTrue(doc.machine().containsKey(field), field + " in " + doc.machine());
        }
        String html = Files.readString(page);
        assertTrue(html.contains("<svg class=\"chart\""), "charts");
        assertTrue(html.contains("Seed 002"), "the seed of bigfile");
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count(), "the section removed its files");
        }
    }
}
