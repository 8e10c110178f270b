package io.sluice.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report page in a real browser: Chromium, headless, loads the page, and the test fails on any console message
 * or script error, checks that every chart in the DOM Chromium built has drawn bars, and keeps a screenshot in
 * {@code target/report.png}. Chromium comes from the machine (Debian: {@code apt-get install chromium}, which
 * {@code .ci/run} does); without it the test is skipped, unless {@code SLUICE_REQUIRE_CHROMIUM} is set, as CI sets
 * it where it could install Chromium, which makes its absence a failure.
 */
class ReportBrowserTest {
    private static Path chromium;

    @TempDir
    Path profile;

    @BeforeAll
    static void findChromium() {
        chromium = onPath("chromium", "chromium-browser");
        if (chromium == null && System.getenv("SLUICE_REQUIRE_CHROMIUM") != null) {
            fail("SLUICE_REQUIRE_CHROMIUM is set but neither chromium nor chromium-browser is on PATH");
        }
    }

    /**
     * Skips each test, rather than the class, without Chromium: an assumption failing in {@code @BeforeAll} aborts
     * the class before any test is reported, and the build counted it as "Tests run: 0" rather than as skipped.
     */
    @BeforeEach
    void needChromium() {
        Assumptions.assumeTrue(chromium != null, "Chromium is not installed (neither chromium nor chromium-browser "
                + "on PATH): the page is not checked in a browser. Debian: apt-get install chromium");
    }

    private static Path onPath(String... names) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String name : names) {
            for (String dir : path.split(File.pathSeparator)) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p) && !Files.isDirectory(p)) {
                    return p;
                }
            }
        }
        return null;
    }

    /**
     * What Chromium made of a page: the DOM after loading, its console, what the probe found wrong in the laid-out
     * charts (one line each) and the page's full height in CSS pixels.
     */
    private record Loaded(String dom, List<String> console, List<String> problems, int height) {
    }

    /**
     * Runs in the page once it is parsed: for every chart, the series its bars draw against the number its figure
     * announces, and every pair of its text labels whose boxes, as laid out, overlap by more than a pixel either way.
     * Writes them, and the page's height, as attributes of the root element for --dump-dom to carry out.
     */
    private static final String PROBE = "document.addEventListener('DOMContentLoaded', function () {"
            + " var problems = [];"
            + " document.querySelectorAll('figure.chart').forEach(function (f) {"
            + "  var want = Number(f.getAttribute('data-series')); var seen = {};"
            + "  f.querySelectorAll('svg.chart rect.bar').forEach(function (r) { seen[r.getAttribute('data-series')] = 1; });"
            + "  var got = Object.keys(seen).length;"
            + "  if (got === 0 || got !== want) { problems.push(f.id + ': ' + got + ' series drawn, ' + want + ' expected'); }"
            + "  var svg = f.querySelector('svg.chart'); if (!svg || svg.getBoundingClientRect().height < 50) {"
            + "   problems.push(f.id + ': no chart drawn'); }"
            + "  var texts = Array.prototype.slice.call(f.querySelectorAll('svg.chart text'))"
            + "   .map(function (t) { return { t: t.textContent, b: t.getBoundingClientRect() }; })"
            + "   .filter(function (x) { return x.b.width > 0 && x.b.height > 0; });"
            + "  for (var i = 0; i < texts.length; i++) { for (var j = i + 1; j < texts.length; j++) {"
            + "   var a = texts[i].b, b = texts[j].b;"
            + "   var w = Math.min(a.right, b.right) - Math.max(a.left, b.left);"
            + "   var h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);"
            + "   if (w > 1 && h > 1) { problems.push(f.id + ': \\'' + texts[i].t + '\\' overlaps \\'' + texts[j].t"
            + "    + '\\''); } } }"
            + " });"
            + " document.documentElement.setAttribute('data-test-problems', problems.join('\\n'));"
            + " document.documentElement.setAttribute('data-test-height',"
            + "  String(document.documentElement.scrollHeight));"
            + "});";

    /**
     * Loads a copy of the page with a line of script in front that writes any uncaught error into the DOM (the page
     * itself has no script), and collects Chromium's console lines from its log.
     */
    private Loaded load(Path page) throws IOException, InterruptedException {
        String html = Files.readString(page);
        String probe = html.replaceFirst("<head>", java.util.regex.Matcher.quoteReplacement("<head><script>"
                + "window.addEventListener('error', function (e) { "
                + "document.documentElement.setAttribute('data-test-error', String(e.message)); });" + PROBE
                + "</script>"));
        Path copy = page.resolveSibling("probe-" + page.getFileName());
        Files.writeString(copy, probe);
        Result r = chromium(List.of("--enable-logging=stderr", "--v=0", "--window-size=1280,2000", "--dump-dom",
                copy.toUri().toString()));
        List<String> console = new ArrayList<>();
        for (String line : r.err().split("\n")) {
            // Chromium logs each console message as INFO:CONSOLE(line) "message", source: ...
            if (line.contains(":CONSOLE")) {
                console.add(line);
            }
        }
        int at = r.out().indexOf("data-test-error=\"");
        if (at >= 0) {
            console.add("uncaught: " + r.out().substring(at, Math.min(r.out().length(), at + 200)));
        }
        List<String> problems = new ArrayList<>();
        String found = attribute(r.out(), "data-test-problems");
        if (found == null) {
            problems.add("the probe did not run");
        } else if (!found.isEmpty()) {
            problems.addAll(List.of(found.split("\n")));
        }
        String height = attribute(r.out(), "data-test-height");
        return new Loaded(r.out(), console, problems, height == null ? 0 : Integer.parseInt(height));
    }

    /** An attribute of the dumped root element, entities undone, or null. */
    private static String attribute(String dom, String name) {
        int at = dom.indexOf(name + "=\"");
        if (at < 0) {
            return null;
        }
        int from = at + name.length() + 2;
        return dom.substring(from, dom.indexOf('"', from)).replace("&#39;", "'").replace("&quot;", "\"")
                .replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    }

    private record Result(String out, String err) {
    }

    private Result chromium(List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--no-first-run", "--hide-scrollbars", "--user-data-dir=" + profile));
        command.addAll(args);
        Path out = profile.resolve("stdout");
        Path err = profile.resolve("stderr");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("Chromium did not finish in 120 s: " + command);
        }
        return new Result(Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    private static Path target() throws IOException {
        return Files.createDirectories(Path.of("target", "report-browser").toAbsolutePath());
    }

    /**
     * Checks a loaded page: no console line; as many charts as were written, each with bars of as many series as its
     * legend; no two text labels of a chart overlapping as laid out.
     */
    private static void check(String html, Loaded loaded) {
        assertEquals(List.of(), loaded.console(), "console messages or script errors");
        assertEquals(List.of(), loaded.problems(), "charts without their series, or with labels over each other");
        List<String> written = ReportPageTest.charts(html);
        List<String> drawn = ReportPageTest.charts(loaded.dom());
        assertEquals(written.size(), drawn.size(), "charts in the DOM Chromium built");
        assertTrue(drawn.size() > 0, "no chart at all");
        for (String chart : drawn) {
            int bars = ReportPageTest.count(chart, "<rect class=\"bar\"");
            int lines = ReportPageTest.count(chart, "<line");
            assertTrue(bars > 0 && lines > 0, "a chart without marks: " + chart.substring(0, Math.min(300,
                    chart.length())));
        }
    }

    @Test
    void theFixturePageLoadsCleanlyWithEveryChartDrawnAndAScreenshot() throws Exception {
        ReportDocument d = ReportInput.parse(ReportPageTest.resource("fixture-run.json"), "fixture-run.json",
                w -> fail(w)).orElseThrow();
        String html = ReportPage.render(List.of(d), SeedClaims.load(), "Sluice benchmarks: which strategy wins here, "
                + "and do the seeds' claims hold?", "The records of docs/benchmarks/ (2026-11-22 and 23) as one "
                + "document, with the machine their records name.");
        Path page = target().resolve("fixture.html");
        Files.writeString(page, html);
        Loaded loaded = load(page);
        check(html, loaded);
        assertTrue(loaded.height() > 2000, "the page's height: " + loaded.height());
        // the whole page, top to bottom: a window as tall as the page
        Path png = Path.of("target", "report.png").toAbsolutePath();
        Files.deleteIfExists(png);
        chromium(List.of("--screenshot=" + png, "--window-size=1280," + loaded.height(), page.toUri().toString()));
        byte[] bytes = Files.readAllBytes(png);
        assertTrue(bytes.length > 10_000 && bytes[1] == 'P' && bytes[2] == 'N' && bytes[3] == 'G',
                "a PNG screenshot of some size: " + bytes.length + " bytes");
    }

    @Test
    void theRecordsInDocsBenchmarksRender() throws Exception {
        Path records = Path.of("..", "docs", "benchmarks");
        Assumptions.assumeTrue(Files.isDirectory(records), "no docs/benchmarks beside this module");
        Path page = target().resolve("docs-benchmarks.html");
        // What `sluice report docs/benchmarks -o page` does.
        Reports.write(page, Reports.page(List.of(records), null, w -> { }));
        check(Files.readString(page), load(page));
    }

    @Test
    void theHarnessSeesConsoleMessagesAndScriptErrors() throws Exception {
        // Without this, a Chromium that logged nothing would let every page pass.
        Path page = target().resolve("broken.html");
        Files.writeString(page, "<!DOCTYPE html><html><head><title>x</title></head><body><svg class=\"chart\">"
                + "<rect class=\"bar\"/><line/></svg><script>console.error('said'); throw new Error('thrown');"
                + "</script></body></html>");
        Loaded loaded = load(page);
        String all = String.join("\n", loaded.console());
        assertTrue(all.contains("said"), all);
        assertTrue(all.contains("thrown"), all);
    }

    @Test
    void theProbeSeesMissingSeriesAndOverlappingLabels() throws Exception {
        // Without this, a probe that found nothing would let every page pass.
        Path page = target().resolve("overlapping.html");
        Files.writeString(page, "<!DOCTYPE html><html><head><title>x</title></head><body><figure class=\"chart\" "
                + "id=\"f\" data-series=\"2\"><svg class=\"chart\" width=\"300\" height=\"100\">"
                + "<rect class=\"bar\" data-series=\"a\" x=\"0\" y=\"0\" width=\"10\" height=\"10\"/>"
                + "<text x=\"20\" y=\"50\">first label</text><text x=\"30\" y=\"52\">second label</text>"
                + "</svg></figure></body></html>");
        Loaded loaded = load(page);
        String all = String.join("\n", loaded.problems());
        assertTrue(all.contains("f: 1 series drawn, 2 expected"), all);
        assertTrue(all.contains("'first label' overlaps 'second label'"), all);
    }
}
