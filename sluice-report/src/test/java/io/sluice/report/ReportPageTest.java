package io.sluice.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The page and its charts from fixed JSON: escaping, empty sections, one row, NaN and zero, offline. */
class ReportPageTest {
    private static final String ROW = "{\"engine\": \"%s\", \"workload\": \"%s\", \"blockSize\": 4096, \"threads\": 1, "
            + "\"opsPerMs\": %s, \"mbPerSec\": %s, \"spread\": 0.1, \"rounds\": 5}";

    private static String row(String engine, String workload, String ops, String mb) {
        return String.format(ROW, engine, workload, ops, mb);
    }

    private static ReportDocument doc(String json) {
        List<String> warnings = new ArrayList<>();
        ReportDocument d = ReportInput.parse(json, "test.json", warnings::add).orElseThrow(() ->
                new AssertionError("not read: " + warnings));
        assertEquals(List.of(), warnings);
        return d;
    }

    private static String page(ReportDocument... docs) {
        return ReportPage.render(List.of(docs), SeedClaims.load(), "Test <page>", "made by a test");
    }

    /** The SVG charts of a page, each as its markup. */
    static List<String> charts(String html) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("<svg class=\"chart\".*?</svg>", Pattern.DOTALL).matcher(html);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    static int count(String s, String what) {
        return s.split(Pattern.quote(what), -1).length - 1;
    }

    @Test
    void textFromTheRowsIsEscapedInTablesChartsAndTooltips() {
        String evil = "<script>alert(\\\"x\\\")</script> & 'q'";
        String html = page(doc("[" + row(evil, "randread", "100", "409.6") + ", "
                + row("CHANNEL", "randread", "200", "819.2") + "]"));
        assertFalse(html.contains("<script"), "no script element, neither ours nor one from the data");
        assertFalse(html.contains("alert(\"x\")"), "quotes escaped");
        assertTrue(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;"), html);
        assertTrue(html.contains("<title>Test &lt;page&gt;</title>"), "the title too");
        // the legend, the bar's tooltip and the row table each name it, always escaped
        assertTrue(count(html, "&lt;script&gt;alert") >= 3, html);
        String chart = charts(html).get(0);
        assertEquals(2, count(chart, "<rect class=\"bar\""), chart);
    }

    @Test
    void aSectionWithNoRowsSaysWhyAndDrawsNothing() {
        String html = page(doc("{\"format\": \"sluice-bench\", \"version\": 1, \"command\": \"sluice bench all\", "
                + "\"machine\": null, \"sections\": [{\"name\": \"jruby\", \"skipped\": \"no jruby-complete jar found\", "
                + "\"rows\": []}, {\"name\": \"zip\", \"rows\": []}]}"));
        assertTrue(html.contains("<b>Not run:</b> no jruby-complete jar found"), html);
        assertTrue(html.contains("No rows."), html);
        assertEquals(List.of(), charts(html));
        assertTrue(html.contains("not measured") || html.contains("no rows"), "claims say nothing was measured");
    }

    @Test
    void aSingleRowIsOneChartWithOneBar() {
        String html = page(doc("[" + row("MappedWriter", "seqwrite", "700", "716.8") + "]"));
        List<String> charts = charts(html);
        assertEquals(1, charts.size(), html);
        assertEquals(1, count(charts.get(0), "<rect class=\"bar\""), charts.get(0));
        // a whisker from the spread, since this row records no per-round extremes
        assertEquals(3, count(charts.get(0), "<line class=\"whisker\""), charts.get(0));
    }

    @Test
    void zeroIsAMarkOnTheAxisAndMissingIsNotApplicableNeverNaN() {
        String html = page(doc("[" + row("zero", "randread", "0", "0") + ", " + row("missing", "randread", "null", "null")
                + ", " + row("fine", "randread", "10", "40.96") + "]"));
        String chart = charts(html).get(0);
        assertEquals(2, count(chart, "<rect class=\"bar\""), "zero and fine have bars, missing none: " + chart);
        assertTrue(chart.contains("height=\"0.0\""), chart);
        assertEquals(1, count(chart, "<line class=\"zero\""), chart);
        assertTrue(chart.contains(">n/a<title>missing"), chart);
        for (String bad : List.of("NaN", "Infinity")) {
            assertFalse(html.contains(bad), bad + " in the page");
        }
    }

    @Test
    void allZeroOrAllMissingStillGivesAnAxis() {
        String html = page(doc("[" + row("a", "randread", "0", "0") + ", " + row("b", "randread", "null", "null") + "]"));
        String chart = charts(html).get(0);
        assertTrue(chart.contains("class=\"tick\""), chart);
        assertFalse(html.contains("NaN"), html);
    }

    @Test
    void kvRowsCountEntriesNotBytesAndChartOperations() {
        String kv = "{\"engine\": \"%s\", \"workload\": \"kv-get\", \"blockSize\": %d, \"threads\": 1, "
                + "\"opsPerMs\": %s, \"mbPerSec\": null, \"spread\": 0.1, \"rounds\": 3}";
        String html = page(doc("[" + String.format(kv, "Sluice::DB", 20000, "400") + ", "
                + String.format(kv, "PStore", 400, "50") + "]"));
        List<String> charts = charts(html);
        assertEquals(1, charts.size(), "one panel, one group: the stores differ in entries, not in a block size");
        assertEquals(2, count(charts.get(0), "<rect class=\"bar\""), charts.get(0));
        assertTrue(charts.get(0).contains("ops/ms"), "operations, since bytes mean nothing here");
        assertTrue(html.contains("Sluice::DB (20,000 entries, 1 thread): 400 ops/ms"), html);
        assertFalse(html.contains("19.5 KiB"), "entries are not bytes");
    }

    @Test
    void theOldBareArrayFormatIsRead() throws IOException {
        ReportDocument d = doc(resource("bare-uring-rows.json"));
        assertEquals(null, d.machine());
        assertEquals("uring", d.sections().get(0).name());
        String html = page(d);
        assertTrue(html.contains("records no machine"), html);
        assertFalse(charts(html).isEmpty());
        // seed 004's 4 KiB table row, read from these rows: 987 / 1069
        assertTrue(html.contains("0.92x"), html);
    }

    @Test
    void unknownFormatsAreSkippedWithAWarningNamingTheFile() {
        List<String> warnings = new ArrayList<>();
        assertTrue(ReportInput.parse("{\"results\": [{\"command\": \"wc -l\"}]}", "wc.json", warnings::add).isEmpty());
        assertTrue(ReportInput.parse("[1, 2]", "numbers.json", warnings::add).isEmpty());
        assertTrue(ReportInput.parse("[{\"engine\": \"x\"}]", "noworkload.json", warnings::add).isEmpty());
        assertTrue(ReportInput.parse("[{\"engine\": ", "cut.json", warnings::add).isEmpty());
        assertTrue(ReportInput.parse("[]", "empty.json", warnings::add).isEmpty());
        assertEquals(5, warnings.size(), warnings::toString);
        assertTrue(warnings.get(0).startsWith("skipping wc.json: not benchmark rows") && warnings.get(0)
                .contains("hyperfine"), warnings.get(0));
        assertTrue(warnings.get(1).contains("element 1 is not an object"), warnings.get(1));
        assertTrue(warnings.get(2).contains("engine and workload"), warnings.get(2));
        assertTrue(warnings.get(3).startsWith("skipping cut.json: not JSON: unexpected end"), warnings.get(3));
        assertTrue(warnings.get(4).contains("no rows"), warnings.get(4));
    }

    @Test
    void aSingleValueIsSkippedWithAWarningNullToo() {
        // Found by BenchJsonFuzzTest: a file holding the JSON value null reached a pattern switch without a null
        // case, and 'sluice report' stopped with a NullPointerException instead of skipping the file.
        List<String> warnings = new ArrayList<>();
        assertTrue(ReportInput.parse(" null\n", "null.json", warnings::add).isEmpty());
        assertTrue(ReportInput.parse("\"rows\"", "text.json", warnings::add).isEmpty());
        assertEquals(List.of("skipping null.json: not benchmark rows (a single JSON value)",
                "skipping text.json: not benchmark rows (a single JSON value)"), warnings);
    }

    @Test
    void sectionsOfBareArraysAreToldByWhatOnlyTheyWrite() {
        String[][] cases = {
            {"randread", "{\"baseline\": \"CLASSIC\"}", "engines"},
            {"randread", "{\"baseline\": \"jdk-direct\"}", "uring"},
            {"randwrite", "{}", "uring"},
            {"seqwrite", "{}", "write"},
            {"seqwrite", "{\"userSec\": 1.0}", "jruby"},
            {"fill", "{}", "bigfile"},
            {"smallStored", "{}", "zip"},
            {"maf-parse", "{}", "chunks"},
            {"kv-get", "{}", "kv"},
            {"1brc", "{}", "scan"},
            {"lucene-fetch", "{\"cache\": \"cold\", \"baseline\": \"jdk-NIOFSDirectory\"}", "lucene"},
            {"lines", "{}", "other"},
        };
        for (String[] c : cases) {
            String extra = c[1].substring(1, c[1].length() - 1);
            String json = "[{\"engine\": \"e\", \"workload\": \"" + c[0] + "\"" + (extra.isEmpty() ? "" : ", " + extra)
                    + "}]";
            assertEquals(c[2], doc(json).sections().get(0).name(), json);
        }
    }

    @Test
    void theDocumentReadsBackAsWritten() {
        ReportDocument d = doc(resource("fixture-run.json"));
        ReportDocument again = doc(d.toJson());
        assertEquals(d.machine(), again.machine());
        assertEquals(d.sections().size(), again.sections().size());
        for (int i = 0; i < d.sections().size(); i++) {
            assertEquals(d.sections().get(i).name(), again.sections().get(i).name());
            assertEquals(d.sections().get(i).skipped(), again.sections().get(i).skipped());
            assertEquals(d.sections().get(i).rows(), again.sections().get(i).rows());
        }
    }

    @Test
    void thePageLoadsNothingFromAnywhere() {
        String html = page(doc(resource("fixture-run.json")));
        for (String outside : List.of("<script", "<link", "<img", "<iframe", "@import", "url(", "src=", "http://",
                "https://")) {
            // the only URL allowed is the SVG namespace, which is a name, not a request
            String rest = html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
            assertFalse(rest.contains(outside), outside);
        }
    }

    @Test
    void everyChartOfTheFixtureHasMarksAndFioAndMemoryLinesWhereKnown() {
        ReportDocument d = doc(resource("fixture-run.json"));
        Map<String, Object> machine = new java.util.LinkedHashMap<>(d.machine());
        machine.put("memoryCopyMBps", 9000);
        String html = page(new ReportDocument(d.source(), machine, d.command(), d.sections()));
        List<String> charts = charts(html);
        assertTrue(charts.size() > 20, "charts: " + charts.size());
        for (String c : charts) {
            assertTrue(count(c, "<rect class=\"bar\"") > 0, c);
        }
        assertTrue(html.contains("class=\"ref-fio\""), "fio lines in the engines and uring charts");
        assertTrue(html.contains("class=\"ref-memory\""), "a memory line where it fits the scale");
        assertTrue(html.contains("Off this chart's scale: memory copy"), "and named where it does not");
    }

    private static String spreadRow(String engine, double mb, double spread, int rounds, int threads) {
        return String.format(java.util.Locale.ROOT, "{\"engine\": \"%s\", \"workload\": \"seqwrite\", \"blockSize\": 4096, "
                + "\"threads\": %d, \"opsPerMs\": %s, \"mbPerSec\": %s, \"spread\": %s, \"rounds\": %d}", engine, threads,
                mb / 4.096, mb, spread, rounds);
    }

    private static String caption(String html) {
        Matcher m = Pattern.compile("<figcaption>(.*?)</figcaption>", Pattern.DOTALL).matcher(html);
        assertTrue(m.find(), html);
        return m.group(1);
    }

    @Test
    void aNoisyRowIsFlaggedInTheCaptionTheBarAndTheTable() {
        String html = page(doc("[" + spreadRow("quiet", 100, 0.05, 5, 1) + ", " + spreadRow("shaky", 300, 7.16, 5, 1)
                + "]"));
        assertTrue(caption(html).contains("Noisy: shaky at 1 thread (716%)"), caption(html));
        assertEquals(1, count(charts(html).get(0), "data-noisy=\"true\""), "the shaky bar only, drawn pale and dashed");
        assertTrue(html.contains("716% (noisy)"), "the row table says so");
        assertFalse(html.contains("5% (noisy)"), "the quiet row is not flagged");
    }

    @Test
    void noWinnerIsNamedWhereTheLeadIsWithinTheSpread() {
        String level = page(doc("[" + spreadRow("a", 100, 0.3, 5, 1) + ", " + spreadRow("b", 125, 0.3, 5, 1) + "]"));
        assertFalse(caption(level).contains("Fastest"), caption(level));
        assertTrue(caption(level).contains("Level within noise"), caption(level));
        assertTrue(level.contains("level within noise</span> in all 1 setting"), "and the answer says so");
        String clear = page(doc("[" + spreadRow("a", 100, 0.3, 5, 1) + ", " + spreadRow("b", 140, 0.3, 5, 1) + "]"));
        assertTrue(caption(clear).contains("Fastest beyond the noise: b"), caption(clear));
        assertTrue(clear.contains("<b>b</b>"), "the answer names it");
        assertTrue(clear.contains("1.40x"), "with its lead over the runner-up");
        String oneRound = page(doc("[" + spreadRow("a", 100, 0, 1, 1) + ", " + spreadRow("b", 105, 0, 1, 1) + "]"));
        assertTrue(caption(oneRound).contains("Level within noise"), "one round: only the margin, 5% is within it");
    }

    @Test
    void aRunOfOneRoundShowsNoSpreadAndNoWhisker() {
        String html = page(doc("[" + spreadRow("a", 100, 0, 1, 1) + ", " + spreadRow("b", 300, 0, 1, 1) + "]"));
        assertTrue(html.contains("1 round: no spread"), html);
        assertFalse(html.contains(">0%<"), "no spread of 0% in the table");
        assertFalse(html.contains("spread 0%"), "nor in a tooltip");
        assertEquals(0, count(charts(html).get(0), "class=\"whisker\""), "no whisker for one round");
    }

    @Test
    void aMachineLoadedBeyondItsCoresGetsAWarningAtTheTop() {
        String loaded = "{\"format\": \"sluice-bench\", \"version\": 1, \"command\": \"sluice bench all --quick\", "
                + "\"machine\": {\"cores\": 2, \"loadBefore\": [%s, 1.0, 1.0], \"loadAfter\": [1.5, 1.0, 1.0]}, "
                + "\"sections\": [{\"name\": \"write\", \"rows\": [" + spreadRow("a", 100, 0.1, 5, 1) + "]}]}";
        String html = page(doc(String.format(loaded, "3.25")));
        assertTrue(html.contains("Read with care"), html);
        assertTrue(html.contains("the load average reached 3.25 on 2 cores"), html);
        assertTrue(html.indexOf("Read with care") < html.indexOf("id=\"answer\""), "before everything else");
        assertFalse(page(doc(String.format(loaded, "1.75"))).contains("Read with care"), "within its cores: no warning");
    }

    @Test
    void theMemoryLineOffTheScaleIsOneThreadsFigureWhateverTheGroupsThreads() {
        String json = "{\"format\": \"sluice-bench\", \"version\": 1, \"command\": \"x\", "
                + "\"machine\": {\"memoryCopyMBps\": 100000}, \"sections\": [{\"name\": \"engines\", \"rows\": ["
                + row("MMAP", "randread", "10", "40.96") + ", "
                + row("MMAP", "randread", "18", "73.7").replace("\"threads\": 1", "\"threads\": 2") + "]}]}";
        String html = page(doc(json));
        assertFalse(html.contains("memory copy over 2 threads"), "the one-thread figure is not the 2-thread group's");
        assertTrue(html.contains("memory copy, one thread, 4 KiB: 24,414 ops/ms"), html);
        assertEquals(1, count(html, "memory copy, one thread, 4 KiB:"), "named once, not once per group");
    }

    @Test
    void barsSpanningMoreThanThirtyTimesGetALogScale() {
        String html = page(doc("[" + row("a", "kv-scan", "2", "8.19") + ", " + row("b", "kv-scan", "400", "1638") + "]"));
        assertTrue(caption(html).contains("log scale"), caption(html));
        String chart = charts(html).get(0);
        assertTrue(chart.contains(">1<") && chart.contains(">10<") && chart.contains(">100<")
                && chart.contains(">1,000<"), "a tick per decade: " + chart);
        String linear = page(doc("[" + row("a", "kv-scan", "20", "81.9") + ", " + row("b", "kv-scan", "400", "1638") + "]"));
        assertFalse(caption(linear).contains("log scale"), caption(linear));
    }

    @Test
    void fioLinesHaveADashPatternEachAndALegendEntryEach() {
        String html = page(doc("[" + row("CHANNEL", "randread", "100", "409.6") + ", "
                + row("fio-psync", "randread", "120", "491.5") + ", " + row("fio-io_uring", "randread", "130", "532.5")
                + "]"));
        String chart = charts(html).get(0);
        Matcher m = Pattern.compile("class=\"ref-fio\" data-ref=\"([^\"]+)\"[^>]*stroke-dasharray=\"([^\"]+)\"")
                .matcher(chart);
        Map<String, String> dashes = new java.util.LinkedHashMap<>();
        while (m.find()) {
            dashes.put(m.group(1), m.group(2));
        }
        assertEquals(2, dashes.size(), chart);
        assertEquals(2, new java.util.HashSet<>(dashes.values()).size(), "two patterns: " + dashes);
        assertTrue(html.contains("fio-psync (fio, same job)") && html.contains("fio-io_uring (fio, same job)"), html);
    }

    @Test
    void everyBarCarriesItsFigureAsTextForPrint() {
        String html = page(doc("[" + row("a", "randread", "10", "40.96") + ", " + row("b", "randread", "20", "81.92")
                + "]"));
        String chart = charts(html).get(0);
        assertEquals(2, count(chart, "<text class=\"value\""), chart);
        assertTrue(chart.contains(">20.0</text>"), "the figure charted, ops/ms here: " + chart);
    }

    @Test
    void theAnswerGivesTheWinnersLeadOverTheJdkBaselineClassicWhereRowsNameNone() {
        String html = page(doc("[" + row("CLASSIC", "randread", "100", "409.6") + ", "
                + row("CHANNEL", "randread", "150", "614.4") + ", " + row("MMAP", "randread", "400", "1638.4") + "]"));
        Matcher m = Pattern.compile("<table class=\"answer\">.*?</table>", Pattern.DOTALL).matcher(html);
        assertTrue(m.find(), html);
        String answer = m.group();
        assertTrue(answer.contains("<b>MMAP</b>"), answer);
        assertTrue(answer.contains("2.67x <span class=\"source\">CHANNEL</span>"), "over the runner-up: " + answer);
        assertTrue(answer.contains("4.00x <span class=\"source\">CLASSIC</span>"), "over the JDK's way: " + answer);
        assertTrue(html.indexOf("id=\"answer\"") < html.indexOf("id=\"claims\""), "the answer comes first");
    }

    static String resource(String name) {
        try (InputStream in = ReportPageTest.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new AssertionError("missing test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
