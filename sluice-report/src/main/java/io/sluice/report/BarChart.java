package io.sluice.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A grouped bar chart as inline SVG: groups along the x axis (a block size and thread count), one bar per series
 * (an engine, a writer) with a whisker from the slowest to the fastest round, and reference lines (fio running the
 * same job, the machine's memory copy rate). Static markup only: tooltips are SVG {@code <title>} elements, which
 * browsers show without any script.
 */
final class BarChart {
    /**
     * One bar.
     *
     * @param value   the median; NaN draws no bar but says "n/a"
     * @param low     the whisker's lower end, NaN for none
     * @param high    the whisker's upper end, NaN for none
     * @param tooltip what hovering over the bar says
     */
    record Bar(String series, double value, double low, double high, String tooltip) {
    }

    /** A horizontal reference line, over one group or the whole chart. */
    record Reference(String label, double value, boolean memory, String tooltip) {
    }

    /** One group of bars along the x axis. */
    record Group(String label, String sublabel, List<Bar> bars, List<Reference> references) {
    }

    private static final int LEFT = 74;
    private static final int RIGHT = 16;
    private static final int TOP = 14;
    private static final int PLOT_HEIGHT = 230;
    private static final int BOTTOM = 46;
    private static final int BAR = 16;
    private static final int GROUP_GAP = 26;

    private final String title;
    private final String unit;
    private final List<String> series;
    private final List<Group> groups;
    private final List<Reference> chartReferences;
    private final List<String> offScale = new ArrayList<>();

    /**
     * @param series          the series in legend order; a group draws its bars in this order, leaving no gap for a
     *                        series it lacks
     * @param chartReferences lines across the whole chart (a memory rate in MB/s)
     */
    BarChart(String title, String unit, List<String> series, List<Group> groups, List<Reference> chartReferences) {
        this.title = title;
        this.unit = unit;
        this.series = List.copyOf(series);
        this.groups = List.copyOf(groups);
        this.chartReferences = List.copyOf(chartReferences);
    }

    /** Reference lines left out because drawing them would flatten the bars, as "label value" texts. */
    List<String> offScale() {
        return List.copyOf(offScale);
    }

    /** The chart; {@code colors} maps each series to a CSS color. */
    String svg(Map<String, String> colors) {
        offScale.clear();
        double dataMax = 0;
        for (Group g : groups) {
            for (Bar b : g.bars()) {
                dataMax = Math.max(dataMax, finite(b.value()));
                dataMax = Math.max(dataMax, finite(b.high()));
            }
        }
        // A reference line far above the bars would squash them to nothing: it is named under the chart instead.
        double limit = dataMax > 0 ? dataMax * 1.6 : Double.MAX_VALUE;
        double max = dataMax;
        for (Group g : groups) {
            for (Reference r : g.references()) {
                if (finite(r.value()) <= limit) {
                    max = Math.max(max, finite(r.value()));
                }
            }
        }
        for (Reference r : chartReferences) {
            if (finite(r.value()) <= limit) {
                max = Math.max(max, finite(r.value()));
            }
        }
        double step = niceStep(max > 0 ? max / 5 : 1);
        double axisMax = Math.max(step, Math.ceil(max / step - 1e-9) * step);

        int perGroup = Math.max(1, maxBars()) * BAR + GROUP_GAP;
        int plotWidth = Math.max(360, groups.size() * perGroup);
        int width = LEFT + plotWidth + RIGHT;
        int height = TOP + PLOT_HEIGHT + BOTTOM;
        double groupWidth = groups.isEmpty() ? plotWidth : (double) plotWidth / groups.size();

        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
                + "width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"%s\">", width, height, width, height,
                Html.escape(title)));
        s.append("<title>").append(Html.escape(title)).append("</title>");
        // grid and y axis
        for (int i = 0; i * step <= axisMax + step / 2; i++) {
            double v = i * step;
            double y = y(v, axisMax);
            s.append(String.format(Locale.ROOT, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>",
                    LEFT, y, LEFT + plotWidth, y));
            s.append(String.format(Locale.ROOT, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>",
                    LEFT - 6, y + 4, Html.escape(tick(v, step))));
        }
        s.append(String.format(Locale.ROOT, "<text class=\"unit\" transform=\"translate(14 %d) rotate(-90)\" "
                + "text-anchor=\"middle\">%s</text>", TOP + PLOT_HEIGHT / 2, Html.escape(unit)));
        s.append(String.format(Locale.ROOT, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", LEFT,
                TOP + PLOT_HEIGHT, LEFT + plotWidth, TOP + PLOT_HEIGHT));

        for (int gi = 0; gi < groups.size(); gi++) {
            Group g = groups.get(gi);
            double gx = LEFT + gi * groupWidth;
            List<Bar> bars = ordered(g.bars());
            double barsWidth = bars.size() * BAR;
            double x0 = gx + (groupWidth - barsWidth) / 2;
            for (int bi = 0; bi < bars.size(); bi++) {
                Bar b = bars.get(bi);
                double x = x0 + bi * BAR;
                String color = colors.getOrDefault(b.series(), "#777777");
                if (Double.isNaN(b.value())) {
                    s.append(String.format(Locale.ROOT, "<text class=\"na\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">"
                            + "n/a<title>%s</title></text>", x + BAR / 2.0, TOP + PLOT_HEIGHT - 3,
                            Html.escape(b.tooltip())));
                    continue;
                }
                double top = y(Math.max(0, b.value()), axisMax);
                double h = TOP + PLOT_HEIGHT - top;
                s.append(String.format(Locale.ROOT, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" "
                        + "fill=\"%s\"><title>%s</title></rect>", x + 1, top, BAR - 2, h, Html.escape(color),
                        Html.escape(b.tooltip())));
                if (b.value() == 0) {
                    // a zero has no height: a tick on the axis says it was measured
                    s.append(String.format(Locale.ROOT, "<line class=\"zero\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                            + "stroke=\"%s\"/>", x + 1, TOP + PLOT_HEIGHT - 1, x + BAR - 1, TOP + PLOT_HEIGHT - 1,
                            Html.escape(color)));
                }
                if (!Double.isNaN(b.low()) && !Double.isNaN(b.high()) && b.high() > b.low()) {
                    double yl = y(Math.max(0, b.low()), axisMax);
                    double yh = y(Math.min(b.high(), axisMax), axisMax);
                    double cx = x + BAR / 2.0;
                    s.append(String.format(Locale.ROOT, "<line class=\"whisker\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                            + "y2=\"%.1f\"/>", cx, yl, cx, yh));
                    s.append(String.format(Locale.ROOT, "<line class=\"whisker\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                            + "y2=\"%.1f\"/>", cx - 3, yl, cx + 3, yl));
                    s.append(String.format(Locale.ROOT, "<line class=\"whisker\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                            + "y2=\"%.1f\"/>", cx - 3, yh, cx + 3, yh));
                }
            }
            for (Reference r : g.references()) {
                if (Double.isNaN(r.value())) {
                    continue;
                }
                if (r.value() > limit) {
                    offScale.add(r.label() + " over " + g.label() + (g.sublabel().isEmpty() ? "" : ", " + g.sublabel())
                            + ": " + Format.number(r.value()) + " " + unit);
                    continue;
                }
                double ry = y(r.value(), axisMax);
                s.append(String.format(Locale.ROOT, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\">"
                        + "<title>%s</title></line>", r.memory() ? "ref-memory" : "ref-fio", x0 - 4, ry,
                        x0 + barsWidth + 4, ry, Html.escape(r.tooltip())));
            }
            double cx = gx + groupWidth / 2;
            s.append(String.format(Locale.ROOT, "<text class=\"group\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>",
                    cx, TOP + PLOT_HEIGHT + 16, Html.escape(g.label())));
            if (!g.sublabel().isEmpty()) {
                s.append(String.format(Locale.ROOT, "<text class=\"group sub\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">"
                        + "%s</text>", cx, TOP + PLOT_HEIGHT + 31, Html.escape(g.sublabel())));
            }
        }
        for (Reference r : chartReferences) {
            if (Double.isNaN(r.value())) {
                continue;
            }
            if (r.value() > limit) {
                offScale.add(r.label() + ": " + Format.number(r.value()) + " " + unit);
                continue;
            }
            double ry = y(r.value(), axisMax);
            s.append(String.format(Locale.ROOT, "<line class=\"%s\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\">"
                    + "<title>%s</title></line>", r.memory() ? "ref-memory" : "ref-fio", LEFT, ry, LEFT + plotWidth,
                    ry, Html.escape(r.tooltip())));
        }
        if (groups.isEmpty()) {
            s.append(String.format(Locale.ROOT, "<text class=\"na\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">no rows</text>",
                    LEFT + plotWidth / 2, TOP + PLOT_HEIGHT / 2));
        }
        s.append("</svg>");
        return s.toString();
    }

    private int maxBars() {
        int n = 0;
        for (Group g : groups) {
            n = Math.max(n, g.bars().size());
        }
        return n;
    }

    private List<Bar> ordered(List<Bar> bars) {
        List<Bar> out = new ArrayList<>();
        for (String name : series) {
            for (Bar b : bars) {
                if (b.series().equals(name)) {
                    out.add(b);
                }
            }
        }
        for (Bar b : bars) {
            if (!series.contains(b.series())) {
                out.add(b);
            }
        }
        return out;
    }

    private static double y(double v, double axisMax) {
        return TOP + PLOT_HEIGHT * (1 - v / axisMax);
    }

    private static double finite(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? 0 : v;
    }

    /** 1, 2, 2.5 or 5 times a power of ten, at least {@code raw}. */
    static double niceStep(double raw) {
        if (!(raw > 0) || Double.isInfinite(raw)) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * p >= raw * (1 - 1e-9)) {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static String tick(double v, double step) {
        int decimals = Math.max(0, java.math.BigDecimal.valueOf(step).stripTrailingZeros().scale());
        return String.format(Locale.ROOT, "%,." + Math.min(decimals, 6) + "f", v);
    }
}
