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
     * @param noisy   whether its rounds disagree too much to trust (drawn pale with a dashed outline)
     */
    record Bar(String series, double value, double low, double high, String tooltip, boolean noisy) {
        /** A bar that is not noisy. */
        Bar(String series, double value, double low, double high, String tooltip) {
            this(series, value, low, high, tooltip, false);
        }
    }

    /** A horizontal reference line, over one group or the whole chart. */
    record Reference(String label, double value, boolean memory, String tooltip) {
    }

    /** One group of bars along the x axis. */
    record Group(String label, String sublabel, List<Bar> bars, List<Reference> references) {
    }

    private static final int LEFT = 74;
    private static final int RIGHT = 16;
    /** Room above the plot for the value labels of the tallest bars, written upwards. */
    private static final int TOP = 46;
    private static final int BOTTOM = 46;
    /** Bars spanning more than this factor are drawn on a log scale, where a linear one would leave slivers. */
    static final double LOG_SPAN = 30;
    /** Dash patterns of fio's lines, one per fio job in a chart, so that print tells them apart. */
    private static final List<String> DASHES = List.of("7 3", "2 2", "9 3 2 3", "1 4", "12 4");
    private static final int BAR = 16;
    private static final int GROUP_GAP = 26;

    private final String title;
    private final String unit;
    private final List<String> series;
    private final List<Group> groups;
    private final List<Reference> chartReferences;
    private final List<String> fio;
    private final List<String> offScale = new ArrayList<>();
    private boolean log;
    private double axisMin;
    private double axisMax;
    private int plotHeight = 230;

    /**
     * @param series          the series in legend order; a group draws its bars in this order, leaving no gap for a
     *                        series it lacks
     * @param chartReferences lines across the whole chart (a memory rate in MB/s)
     */
    BarChart(String title, String unit, List<String> series, List<Group> groups, List<Reference> chartReferences) {
        this(title, unit, series, groups, chartReferences, List.of());
    }

    /**
     * @param fio the labels of the fio references, in legend order: each gets its own dash pattern
     *            ({@link #legendLine})
     */
    BarChart(String title, String unit, List<String> series, List<Group> groups, List<Reference> chartReferences,
             List<String> fio) {
        this.title = title;
        this.unit = unit;
        this.series = List.copyOf(series);
        this.groups = List.copyOf(groups);
        this.chartReferences = List.copyOf(chartReferences);
        this.fio = List.copyOf(fio);
    }

    /** Whether the last {@link #svg} drew its axis on a log scale. */
    boolean logScale() {
        return log;
    }

    /** A short line as the legend shows it: the dash of fio's {@code k}-th line, or the memory line. */
    static String legendLine(int k, boolean memory) {
        return String.format(Locale.ROOT, "<svg class=\"key\" width=\"26\" height=\"8\" aria-hidden=\"true\"><line "
                + "class=\"%s\" x1=\"1\" y1=\"4\" x2=\"25\" y2=\"4\"%s/></svg>", memory ? "ref-memory" : "ref-fio",
                memory ? "" : " stroke-dasharray=\"" + DASHES.get(k % DASHES.size()) + "\"");
    }

    private String dash(String fioLabel) {
        int k = fio.indexOf(fioLabel);
        return DASHES.get(Math.max(0, k) % DASHES.size());
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
        double dataMin = Double.NaN;
        for (Group g : groups) {
            for (Bar b : g.bars()) {
                if (b.value() > 0 && !Double.isInfinite(b.value())) {
                    dataMin = Double.isNaN(dataMin) ? b.value() : Math.min(dataMin, b.value());
                }
            }
        }
        log = !Double.isNaN(dataMin) && dataMax / dataMin > LOG_SPAN;
        double step = niceStep(max > 0 ? max / 5 : 1);
        axisMax = Math.max(step, Math.ceil(max / step - 1e-9) * step);
        axisMin = 0;
        if (log) {
            double lowest = dataMin;
            for (Group g : groups) {
                for (Bar b : g.bars()) {
                    if (b.low() > 0) {
                        lowest = Math.min(lowest, b.low());
                    }
                }
            }
            axisMin = Math.pow(10, Math.floor(Math.log10(lowest)));
            axisMax = Math.pow(10, Math.ceil(Math.log10(max) - 1e-9));
        }

        // every group at least as wide as its labels, so that no two labels run into each other
        int perGroup = Math.max(1, maxBars()) * BAR + GROUP_GAP;
        for (Group g : groups) {
            perGroup = Math.max(perGroup, (int) Math.ceil(Math.max(g.label().length(), g.sublabel().length()) * 6.6) + 12);
        }
        int plotWidth = Math.max(360, groups.size() * perGroup);
        int width = LEFT + plotWidth + RIGHT;
        // a chart of few bars is short; the plot grows with the bars it holds, up to 230 px
        plotHeight = Math.min(230, 140 + 10 * Math.max(0, groups.size() * Math.max(1, maxBars()) - 2));
        boolean subs = groups.stream().anyMatch(g -> !g.sublabel().isEmpty());
        int height = TOP + plotHeight + (subs ? BOTTOM : BOTTOM - 15);
        double groupWidth = groups.isEmpty() ? plotWidth : (double) plotWidth / groups.size();

        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
                + "width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"%s\">", width, height, width, height,
                Html.escape(title)));
        s.append("<title>").append(Html.escape(title)).append("</title>");
        // grid and y axis
        List<Double> ticks = new ArrayList<>();
        if (log) {
            for (double v = axisMin; v <= axisMax * 1.0001; v *= 10) {
                ticks.add(v);
            }
        } else {
            for (int i = 0; i * step <= axisMax + step / 2; i++) {
                ticks.add(i * step);
            }
        }
        for (double v : ticks) {
            double y = y(v);
            s.append(String.format(Locale.ROOT, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>",
                    LEFT, y, LEFT + plotWidth, y));
            s.append(String.format(Locale.ROOT, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>",
                    LEFT - 6, y + 4, Html.escape(log ? (v >= 1 ? String.format(Locale.ROOT, "%,.0f", v) : Format.number(v)) : tick(v, step))));
        }
        s.append(String.format(Locale.ROOT, "<text class=\"unit\" transform=\"translate(14 %d) rotate(-90)\" "
                + "text-anchor=\"middle\">%s</text>", TOP + plotHeight / 2, Html.escape(unit)));
        s.append(String.format(Locale.ROOT, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", LEFT,
                TOP + plotHeight, LEFT + plotWidth, TOP + plotHeight));

        for (int gi = 0; gi < groups.size(); gi++) {
            Group g = groups.get(gi);
            double gx = LEFT + gi * groupWidth;
            List<Bar> bars = ordered(g.bars());
            double barsWidth = bars.size() * BAR;
            double x0 = gx + (groupWidth - barsWidth) / 2;
            for (int bi = 0; bi < bars.size(); bi++) {
                Bar b = bars.get(bi);
                double x = x0 + bi * BAR;
                double labelFrom = TOP + plotHeight;
                String color = colors.getOrDefault(b.series(), "#777777");
                if (Double.isNaN(b.value())) {
                    s.append(String.format(Locale.ROOT, "<text class=\"na\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">"
                            + "n/a<title>%s</title></text>", x + BAR / 2.0, TOP + plotHeight - 3,
                            Html.escape(b.tooltip())));
                    continue;
                }
                double top = y(Math.max(0, b.value()));
                double h = TOP + plotHeight - top;
                s.append(String.format(Locale.ROOT, "<rect class=\"bar\"%s data-series=\"%s\" x=\"%.1f\" y=\"%.1f\" "
                        + "width=\"%d\" height=\"%.1f\" fill=\"%s\"><title>%s</title></rect>", b.noisy() ? " data-noisy=\"true\"" : "",
                        Html.escape(b.series()), x + 1, top, BAR - 2, h, Html.escape(color), Html.escape(b.tooltip())));
                labelFrom = top;
                if (b.value() == 0) {
                    // a zero has no height: a tick on the axis says it was measured
                    s.append(String.format(Locale.ROOT, "<line class=\"zero\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                            + "stroke=\"%s\"/>", x + 1, TOP + plotHeight - 1, x + BAR - 1, TOP + plotHeight - 1,
                            Html.escape(color)));
                }
                if (!Double.isNaN(b.low()) && !Double.isNaN(b.high()) && b.high() > b.low()) {
                    double yl = y(Math.max(0, b.low()));
                    double yh = y(Math.min(b.high(), axisMax));
                    double cx = x + BAR / 2.0;
                    s.append(String.format(Locale.ROOT, "<line class=\"whisker\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                            + "y2=\"%.1f\"/>", cx, yl, cx, yh));
                    s.append(String.format(Locale.ROOT, "<line class=\"whisker\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                            + "y2=\"%.1f\"/>", cx - 3, yl, cx + 3, yl));
                    s.append(String.format(Locale.ROOT, "<line class=\"whisker\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                            + "y2=\"%.1f\"/>", cx - 3, yh, cx + 3, yh));
                    labelFrom = Math.min(labelFrom, yh);
                }
                // the figure itself, written upwards from the top of the bar or its whisker: readable on paper
                s.append(String.format(Locale.ROOT, "<text class=\"value\" transform=\"translate(%.1f %.1f) rotate(-90)\">"
                        + "%s</text>", x + BAR / 2.0 + 3.5, labelFrom - 3, Html.escape(Format.number(b.value()))));
            }
            for (Reference r : g.references()) {
                if (Double.isNaN(r.value())) {
                    continue;
                }
                if (r.value() > limit) {
                    // the memory line is one thread's figure for the block size: the group's threads do not apply
                    String text = (r.memory() ? r.label() : r.label() + " over " + g.label()
                            + (g.sublabel().isEmpty() ? "" : ", " + g.sublabel())) + ": " + Format.number(r.value()) + " "
                            + unit;
                    if (!offScale.contains(text)) {
                        offScale.add(text);
                    }
                    continue;
                }
                double ry = y(r.value());
                s.append(String.format(Locale.ROOT, "<line class=\"%s\" data-ref=\"%s\" x1=\"%.1f\" y1=\"%.1f\" "
                        + "x2=\"%.1f\" y2=\"%.1f\"%s><title>%s</title></line>", r.memory() ? "ref-memory" : "ref-fio",
                        Html.escape(r.label()), x0 - 4, ry, x0 + barsWidth + 4, ry,
                        r.memory() ? "" : " stroke-dasharray=\"" + dash(r.label()) + "\"", Html.escape(r.tooltip())));
            }
            double cx = gx + groupWidth / 2;
            s.append(String.format(Locale.ROOT, "<text class=\"group\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>",
                    cx, TOP + plotHeight + 16, Html.escape(g.label())));
            if (!g.sublabel().isEmpty()) {
                s.append(String.format(Locale.ROOT, "<text class=\"group sub\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">"
                        + "%s</text>", cx, TOP + plotHeight + 31, Html.escape(g.sublabel())));
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
            double ry = y(r.value());
            s.append(String.format(Locale.ROOT, "<line class=\"%s\" data-ref=\"%s\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
                    + "y2=\"%.1f\"%s><title>%s</title></line>", r.memory() ? "ref-memory" : "ref-fio",
                    Html.escape(r.label()), LEFT, ry, LEFT + plotWidth, ry,
                    r.memory() ? "" : " stroke-dasharray=\"" + dash(r.label()) + "\"", Html.escape(r.tooltip())));
        }
        if (groups.isEmpty()) {
            s.append(String.format(Locale.ROOT, "<text class=\"na\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">no rows</text>",
                    LEFT + plotWidth / 2, TOP + plotHeight / 2));
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

    private double y(double v) {
        if (log) {
            double c = Math.max(v, axisMin);
            return TOP + plotHeight * (1 - Math.log(c / axisMin) / Math.log(axisMax / axisMin));
        }
        return TOP + plotHeight * (1 - v / axisMax);
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
