package io.sluice.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The SVG bar chart on its own: scale, whiskers, reference lines, empty charts. */
class BarChartTest {
    private static BarChart.Bar bar(String series, double v) {
        return new BarChart.Bar(series, v, v * 0.9, v * 1.1, series + " " + v);
    }

    @Test
    void stepsAreRoundNumbers() {
        assertEquals(1, BarChart.niceStep(0.7), 1e-12);
        assertEquals(2, BarChart.niceStep(1.5), 1e-12);
        assertEquals(2.5, BarChart.niceStep(2.2), 1e-12);
        assertEquals(500, BarChart.niceStep(301), 1e-9);
        assertEquals(1000, BarChart.niceStep(1000), 1e-9);
        assertEquals(0.05, BarChart.niceStep(0.041), 1e-12);
        assertEquals(1, BarChart.niceStep(0), 1e-12);
        assertEquals(1, BarChart.niceStep(Double.NaN), 1e-12);
    }

    @Test
    void barsAreScaledToTheAxisAndTheTallestReachesNearTheTop() {
        BarChart c = new BarChart("t", "MB/s", List.of("a", "b"),
                List.of(new BarChart.Group("4 KiB", "1 thread", List.of(bar("a", 100), bar("b", 400)), List.of())),
                List.of());
        String svg = c.svg(Map.of("a", "#111111", "b", "#222222"));
        // axis to 500 in steps of 100 (440 with the whisker): two bars get the shortest plot, 140 px, so the 400 bar
        // is 112 px tall
        assertTrue(svg.contains(">500</text>"), svg);
        assertTrue(svg.contains("height=\"112.0\" fill=\"#222222\""), svg);
        assertTrue(svg.contains("height=\"28.0\" fill=\"#111111\""), svg);
        assertEquals(6, BarChartTest.countOf(svg, "class=\"whisker\""), svg);
    }

    @Test
    void aReferenceFarAboveTheBarsIsNamedInsteadOfDrawn() {
        BarChart c = new BarChart("t", "MB/s", List.of("a"),
                List.of(new BarChart.Group("g", "", List.of(bar("a", 100)),
                        List.of(new BarChart.Reference("fio-psync", 120, false, "fio")))),
                List.of(new BarChart.Reference("memory copy", 10_000, true, "memory")));
        String svg = c.svg(Map.of("a", "#111111"));
        assertEquals(1, countOf(svg, "class=\"ref-fio\""), svg);
        assertEquals(0, countOf(svg, "class=\"ref-memory\""), svg);
        assertEquals(List.of("memory copy: 10,000 MB/s"), c.offScale());
    }

    @Test
    void aChartWithoutGroupsSaysSo() {
        String svg = new BarChart("t", "ops/ms", List.of(), List.of(), List.of()).svg(Map.of());
        assertTrue(svg.contains(">no rows</text>"), svg);
        assertTrue(svg.startsWith("<svg class=\"chart\"") && svg.endsWith("</svg>"), svg);
    }

    static int countOf(String s, String what) {
        return s.split(java.util.regex.Pattern.quote(what), -1).length - 1;
    }

    @Test
    void thePlotGrowsWithTheBarsItHoldsUpToAFixedMost() {
        BarChart small = new BarChart("t", "MB/s", List.of("a", "b"),
                List.of(new BarChart.Group("g", "", List.of(bar("a", 1), bar("b", 2)), List.of())), List.of());
        List<BarChart.Group> many = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) {
            many.add(new BarChart.Group("g" + i, "", List.of(bar("a", 1), bar("b", 2)), List.of()));
        }
        BarChart big = new BarChart("t", "MB/s", List.of("a", "b"), many, List.of());
        int h1 = height(small.svg(Map.of()));
        int h2 = height(big.svg(Map.of()));
        assertTrue(h1 < h2, h1 + " vs " + h2);
        assertEquals(230 + 46 + 31, h2, "16 bars: the whole 230 px plot");
    }

    private static int height(String svg) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("height=\"(\\d+)\" role").matcher(svg);
        assertTrue(m.find(), svg);
        return Integer.parseInt(m.group(1));
    }
}
