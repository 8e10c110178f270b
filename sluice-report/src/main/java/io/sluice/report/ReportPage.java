package io.sluice.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The report page: one self-contained HTML file (inline CSS and SVG, no script, nothing loaded from anywhere) that
 * puts each seed's claims beside the rows measured here, with charts of every section and the machine they ran on.
 *
 * <p>Layout: how to read the page; the run (sections, times, what was skipped and why); the machine; a summary of
 * every claim's verdicts; then one part per seed (its claims, its own figures, our ratios beside them with the
 * verdict and the known reason, and the charts of its sections); then the sections no seed speaks to.
 */
public final class ReportPage {
    /** Colours for series, told apart also by people with the common colour-vision deficiencies (Okabe and Ito). */
    private static final List<String> PALETTE = List.of("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9",
            "#D55E00", "#F0E442", "#000000", "#999999", "#7F3C8D", "#11A579", "#3969AC");

    private final List<ReportDocument> documents;
    private final SeedClaims claims;
    private final String title;
    private final String generated;
    private final StringBuilder out = new StringBuilder();
    private int chartCount;

    private ReportPage(List<ReportDocument> documents, SeedClaims claims, String title, String generated) {
        this.documents = List.copyOf(documents);
        this.claims = claims;
        this.title = title;
        this.generated = generated;
    }

    /**
     * The page.
     *
     * @param documents the rows, as read from files or as measured in this run
     * @param claims    the seeds' claims ({@link SeedClaims#load()})
     * @param title     the page's heading
     * @param generated a line saying when and how the page was made
     */
    public static String render(List<ReportDocument> documents, SeedClaims claims, String title, String generated) {
        ReportPage p = new ReportPage(documents, claims, title, generated);
        p.page();
        return p.out.toString();
    }

    /** A section instance with the machine of the document it came from. */
    private record Instance(ReportSection section, Map<String, Object> machine) {
    }

    private List<Instance> instances() {
        List<Instance> all = new ArrayList<>();
        for (ReportDocument d : documents) {
            for (ReportSection s : d.sections()) {
                all.add(new Instance(s, d.machine()));
            }
        }
        all.sort((a, b) -> Integer.compare(SectionInfo.order(a.section().name()),
                SectionInfo.order(b.section().name())));
        return all;
    }

    private void page() {
        out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>").append(Html.escape(title)).append("</title>\n<style>\n").append(css())
                .append("</style>\n</head>\n<body>\n<main>\n");
        out.append("<h1>").append(Html.escape(title)).append("</h1>\n");
        out.append("<p class=\"lede\">").append(Html.escape(generated)).append("</p>\n");
        List<Instance> instances = instances();
        summary(instances);
        howToRead();
        machines();
        Set<String> shown = new LinkedHashSet<>();
        for (SeedClaims.Seed seed : claims.seeds()) {
            seed(seed, instances);
            shown.addAll(seed.sections());
        }
        List<Instance> others = instances.stream().filter(i -> !shown.contains(i.section().name())).toList();
        if (!others.isEmpty()) {
            out.append("<h2 id=\"other\">Sections no seed speaks to</h2>\n");
            for (Instance i : others) {
                section(i);
            }
        }
        run();
        out.append("<footer>Made by <code>sluice report</code>. This page is one file: no script, no fonts or "
                + "images from elsewhere; it reads the same offline.</footer>\n");
        out.append("</main>\n</body>\n</html>\n");
    }

    private void howToRead() {
        out.append("<section class=\"box\" id=\"how\"><h2>How to read this page</h2><ul>")
                .append("<li><b>Bars</b> are medians over rounds; in each round every row of a chart ran once, in an "
                        + "order that rotates, so compare bars within a chart. <b>Whiskers</b> span the slowest to the "
                        + "fastest round (half the spread either way where a file does not record them; the spread "
                        + "is (max - min) / median).</li>")
                .append("<li><b>Dashed lines</b>: fio running the same job, what the machine does without the JVM. "
                        + "<b>Dotted red lines</b>: one thread copying memory, which no copy out of the page cache "
                        + "beats on one thread.</li>")
                .append("<li><b>Claims</b>: a seed's table as ratios (above 1: its first column is faster) beside "
                        + "the same ratio of two of our rows measured side by side. It <span class=\"v holds\">holds"
                        + "</span> when ours points the same way (within ")
                .append(Html.escape(Format.percent(SeedClaims.LEVEL - 1)))
                .append(" counts as level), is <span class=\"v inverted\">inverted</span> when ours points the "
                        + "other way, and otherwise <span class=\"v does-not-hold\">does not hold</span>. The "
                        + "reasons are what our records found; the seeds ran on other machines.</li>")
                .append("<li>Hover over a bar for its figures; every row is in the table under its charts.</li>")
                .append("</ul></section>\n");
    }

    private void run() {
        boolean any = false;
        for (ReportDocument d : documents) {
            for (ReportSection s : d.sections()) {
                any |= s.arguments() != null || s.skipped() != null || !Double.isNaN(s.seconds());
            }
        }
        out.append("<h2 id=\"run\">What was read, and how it ran</h2>\n");
        if (!any) {
            out.append("<p>Rows from ");
            List<String> sources = documents.stream().map(ReportDocument::source).toList();
            out.append(Html.escape(sources.isEmpty() ? "no files" : String.join(", ", sources)))
                    .append(".</p>\n");
            return;
        }
        out.append("<table class=\"run\"><thead><tr><th>section</th><th>from</th><th>rows</th><th>time</th>"
                + "<th>arguments, or why it did not run</th></tr></thead><tbody>\n");
        for (ReportDocument d : documents) {
            if (d.command() != null) {
                out.append("<tr><td colspan=\"5\" class=\"command\"><code>").append(Html.escape(d.command()))
                        .append("</code></td></tr>\n");
            }
            for (ReportSection s : d.sections()) {
                out.append("<tr").append(s.skipped() != null ? " class=\"skipped\"" : "").append("><td>")
                        .append(Html.escape(s.name())).append("</td><td>").append(Html.escape(s.source()))
                        .append("</td><td class=\"num\">").append(s.rows().size()).append("</td><td class=\"num\">")
                        .append(Double.isNaN(s.seconds()) ? "" : Html.escape(String.format(Locale.ROOT, "%.0f s",
                                s.seconds())))
                        .append("</td><td>");
                if (s.skipped() != null) {
                    out.append("<b>").append(s.rows().isEmpty() ? "not run" : "incomplete").append(":</b> ")
                            .append(Html.escape(s.skipped()));
                } else if (s.arguments() != null) {
                    out.append("<code>").append(Html.escape(s.arguments())).append("</code>");
                }
                out.append("</td></tr>\n");
            }
        }
        out.append("</tbody></table>\n");
    }

    private static final Map<String, String> MACHINE_LABELS = new LinkedHashMap<>();

    static {
        MACHINE_LABELS.put("date", "Measured");
        MACHINE_LABELS.put("cpu", "CPU");
        MACHINE_LABELS.put("cores", "Cores the JVM sees");
        MACHINE_LABELS.put("memoryBytes", "Memory");
        MACHINE_LABELS.put("os", "System");
        MACHINE_LABELS.put("kernel", "Kernel");
        MACHINE_LABELS.put("arch", "Architecture");
        MACHINE_LABELS.put("dir", "Test directory");
        MACHINE_LABELS.put("fileSystem", "File system");
        MACHINE_LABELS.put("device", "Device");
        MACHINE_LABELS.put("deviceKind", "Device kind");
        MACHINE_LABELS.put("jdk", "JDK");
        MACHINE_LABELS.put("fio", "fio");
        MACHINE_LABELS.put("loadBefore", "Load average before (1, 5, 15 min)");
        MACHINE_LABELS.put("loadAfter", "Load average after");
        MACHINE_LABELS.put("memoryCopyMBps", "Memory copy, one thread");
        MACHINE_LABELS.put("sluice", "Sluice");
    }

    private void machines() {
        out.append("<h2 id=\"machine\">The machine</h2>\n");
        List<Map<String, Object>> seen = new ArrayList<>();
        List<String> without = new ArrayList<>();
        for (ReportDocument d : documents) {
            if (d.machine() == null) {
                without.add(d.source());
                continue;
            }
            if (seen.contains(d.machine())) {
                continue;
            }
            seen.add(d.machine());
            out.append("<table class=\"machine\"><caption>").append(Html.escape(d.source())).append("</caption><tbody>");
            Set<String> keys = new LinkedHashSet<>(MACHINE_LABELS.keySet());
            keys.addAll(d.machine().keySet());
            for (String k : keys) {
                if (!d.machine().containsKey(k)) {
                    continue;
                }
                out.append("<tr><th>").append(Html.escape(MACHINE_LABELS.getOrDefault(k, k))).append("</th><td>")
                        .append(Html.escape(machineValue(k, d.machine().get(k)))).append("</td></tr>");
            }
            out.append("</tbody></table>\n");
        }
        if (!without.isEmpty()) {
            out.append("<p class=\"note\">").append(Html.escape(String.join(", ", without)))
                    .append(without.size() == 1 ? " records" : " record")
                    .append(" no machine (bare rows, as every section's --json writes them); the records in "
                            + "docs/benchmarks/ name the machine beside each file.</p>\n");
        }
    }

    private static String machineValue(String key, Object v) {
        if (v == null) {
            return key.equals("fio") ? "not installed: no fio reference lines" : "unknown";
        }
        return switch (key) {
            case "memoryBytes" -> v instanceof Number n ? Format.bytes(n.longValue()) : String.valueOf(v);
            case "memoryCopyMBps" -> v instanceof Number n ? Format.number(n.doubleValue()) + " MB/s" : String.valueOf(v);
            case "cores" -> v instanceof Number n ? String.valueOf(n.intValue()) : String.valueOf(v);
            case "loadBefore", "loadAfter" -> v instanceof List<?> l ? String.join(", ", l.stream()
                    .map(x -> x instanceof Number n ? String.format(Locale.ROOT, "%.2f", n.doubleValue())
                            : String.valueOf(x)).toList()) : String.valueOf(v);
            default -> v instanceof Double d && d == Math.rint(d) ? String.valueOf(d.longValue()) : String.valueOf(v);
        };
    }

    /** Every outcome of one comparison, by reading and section instance. */
    private List<SeedClaims.Outcome> outcomes(SeedClaims.Comparison c, List<Instance> instances) {
        List<SeedClaims.Outcome> all = new ArrayList<>();
        for (SeedClaims.ClaimRow r : c.rows()) {
            for (SeedClaims.Reading reading : c.ours()) {
                for (Instance i : instances) {
                    if (i.section().name().equals(reading.section())) {
                        all.add(SeedClaims.evaluate(c, r, reading, i.section().rows(), i.machine()));
                    }
                }
            }
        }
        return all;
    }

    private void summary(List<Instance> instances) {
        out.append("<h2 id=\"claims\">The seeds' claims here, at a glance</h2>\n");
        out.append("<table class=\"summary\"><thead><tr><th>seed</th><th>claim</th><th>seed's ratio</th>"
                + "<th>ours</th><th>verdicts</th></tr></thead><tbody>\n");
        for (SeedClaims.Seed seed : claims.seeds()) {
            int n = 0;
            for (SeedClaims.Comparison c : seed.comparisons()) {
                n++;
                List<SeedClaims.Outcome> outcomes = outcomes(c, instances);
                double[] seedRange = range(c.rows().stream().map(r -> seedFigure(c, r)).toList());
                double[] ourRange = range(outcomes.stream().map(o -> c.kind() == SeedClaims.Kind.RATE
                        ? (o.row() == null ? Double.NaN : o.row().mbPerSec()) : o.ratio()).toList());
                out.append("<tr><td>").append(Html.escape(seed.id())).append("</td><td><a href=\"#")
                        .append(anchor(seed, n)).append("\">").append(Html.escape(c.caption())).append("</a></td><td>")
                        .append(Html.escape(rangeText(seedRange, c.kind())))
                        .append("</td><td>").append(Html.escape(rangeText(ourRange, c.kind()))).append("</td><td>");
                verdictCounts(outcomes);
                out.append("</td></tr>\n");
            }
        }
        out.append("</tbody></table>\n");
    }

    private static double seedFigure(SeedClaims.Comparison c, SeedClaims.ClaimRow r) {
        if (c.kind() == SeedClaims.Kind.RATE) {
            return r.seed().isEmpty() ? Double.NaN : r.seed().get(0);
        }
        return SeedClaims.seedRatio(c, r);
    }

    private static double[] range(List<Double> values) {
        double lo = Double.NaN;
        double hi = Double.NaN;
        for (double v : values) {
            if (Double.isNaN(v) || Double.isInfinite(v)) {
                continue;
            }
            lo = Double.isNaN(lo) ? v : Math.min(lo, v);
            hi = Double.isNaN(hi) ? v : Math.max(hi, v);
        }
        return new double[] {lo, hi};
    }

    private static String rangeText(double[] r, SeedClaims.Kind kind) {
        if (Double.isNaN(r[0])) {
            return "n/a";
        }
        if (kind == SeedClaims.Kind.RATE) {
            return r[0] == r[1] ? Format.number(r[0]) + " MB/s"
                    : Format.number(r[0]) + " to " + Format.number(r[1]) + " MB/s";
        }
        return r[0] == r[1] ? Format.ratio(r[0]) : Format.ratio(r[0]) + " to " + Format.ratio(r[1]);
    }

    private void verdictCounts(List<SeedClaims.Outcome> outcomes) {
        Map<SeedClaims.Verdict, Integer> counts = new EnumMap<>(SeedClaims.Verdict.class);
        for (SeedClaims.Outcome o : outcomes) {
            counts.merge(o.verdict(), 1, Integer::sum);
        }
        if (counts.isEmpty()) {
            out.append("<span class=\"v not-measured\">no rows</span>");
        }
        counts.forEach((v, k) -> out.append(badge(v)).append(k > 1 ? "<span class=\"count\">\u00d7" + k + "</span>" : "")
                .append(' '));
    }

    private static String badge(SeedClaims.Verdict v) {
        return "<span class=\"v " + v.words().replace(' ', '-') + "\">" + Html.escape(v.words()) + "</span>";
    }

    private static String anchor(SeedClaims.Seed seed, int comparison) {
        return "seed-" + Html.escape(seed.id()) + "-" + comparison;
    }

    private void seed(SeedClaims.Seed seed, List<Instance> instances) {
        out.append("<h2 id=\"seed-").append(Html.escape(seed.id())).append("\">Seed ").append(Html.escape(seed.id()))
                .append(": ").append(Html.escape(seed.title())).append("</h2>\n");
        out.append("<p class=\"seedinfo\"><b>Its machine:</b> ").append(Html.escape(seed.machine()))
                .append(". <b>Its method:</b> ").append(Html.escape(seed.method())).append(".</p>\n");
        if (seed.table() != null) {
            SeedClaims.Table t = seed.table();
            out.append("<details><summary>").append(Html.escape(t.caption())).append("</summary><table class=\"seedtable\">"
                    + "<thead><tr>");
            for (String c : t.columns()) {
                out.append("<th>").append(Html.escape(c)).append("</th>");
            }
            out.append("</tr></thead><tbody>");
            for (List<Object> row : t.rows()) {
                out.append("<tr>");
                for (Object cell : row) {
                    boolean num = cell instanceof Number;
                    out.append(num ? "<td class=\"num\">" : "<td>").append(Html.escape(num
                            ? Format.number(((Number) cell).doubleValue()) : String.valueOf(cell))).append("</td>");
                }
                out.append("</tr>");
            }
            out.append("</tbody></table></details>\n");
        }
        List<Instance> mine = instances.stream().filter(i -> seed.sections().contains(i.section().name())
                && !i.section().rows().isEmpty()).toList();
        if (mine.isEmpty()) {
            // nothing to set beside the claims: keep them, folded, so the page stays about what was measured
            out.append("<p class=\"note\">No rows of ").append(Html.escape(String.join(" or ", seed.sections())))
                    .append(" were read, so nothing here answers this seed.</p>\n<details><summary>The seed's "
                            + "claims</summary>\n");
        }
        // the issue's order: what the seed claimed, our rows here, then its ratios beside ours
        for (Instance i : instances.stream().filter(i -> seed.sections().contains(i.section().name())).toList()) {
            section(i);
        }
        if (!mine.isEmpty()) {
            out.append("<h3 class=\"claims\">Its claims beside ours</h3>\n");
        }
        int n = 0;
        for (SeedClaims.Comparison c : seed.comparisons()) {
            comparison(seed, ++n, c, mine);
        }
        if (mine.isEmpty()) {
            out.append("</details>\n");
        }
    }

    private void comparison(SeedClaims.Seed seed, int n, SeedClaims.Comparison c, List<Instance> instances) {
        out.append("<h4 id=\"").append(anchor(seed, n)).append("\">").append(Html.escape(c.caption())).append("</h4>\n");
        // one column per reading and section instance that measured anything for it
        List<SeedClaims.Reading> readings = new ArrayList<>();
        List<Instance> columns = new ArrayList<>();
        for (SeedClaims.Reading reading : c.ours()) {
            for (Instance i : instances) {
                if (!i.section().name().equals(reading.section())) {
                    continue;
                }
                boolean measured = false;
                for (SeedClaims.ClaimRow r : c.rows()) {
                    measured |= SeedClaims.evaluate(c, r, reading, i.section().rows(), i.machine()).verdict()
                            != SeedClaims.Verdict.NOT_MEASURED;
                }
                if (measured) {
                    readings.add(reading);
                    columns.add(i);
                }
            }
        }
        boolean manySources = columns.stream().map(i -> i.section().source()).distinct().count() > 1;
        out.append("<table class=\"claim\"><thead><tr><th>seed's row</th>");
        for (String col : c.seedColumns()) {
            out.append("<th>seed: ").append(Html.escape(col)).append("</th>");
        }
        out.append(c.kind() == SeedClaims.Kind.RATIO ? "<th>seed's ratio</th>" : "");
        for (int k = 0; k < readings.size(); k++) {
            out.append("<th>ours: ").append(Html.escape(readings.get(k).label()));
            if (manySources) {
                out.append("<br><span class=\"source\">").append(Html.escape(columns.get(k).section().source()))
                        .append("</span>");
            }
            out.append("</th>");
        }
        if (readings.isEmpty()) {
            out.append("<th>ours</th>");
        }
        out.append("</tr></thead><tbody>\n");
        for (SeedClaims.ClaimRow r : c.rows()) {
            out.append("<tr><td>").append(Html.escape(r.label())).append("</td>");
            for (int k = 0; k < c.seedColumns().size(); k++) {
                String cell = k < r.seed().size() ? Format.number(r.seed().get(k))
                        : r.seedText() != null ? r.seedText() : "";
                out.append("<td class=\"num\">").append(Html.escape(cell)).append("</td>");
            }
            if (c.kind() == SeedClaims.Kind.RATIO) {
                double sr = SeedClaims.seedRatio(c, r);
                out.append("<td class=\"num\">").append(Html.escape(Format.ratio(sr)))
                        .append(r.seed().isEmpty() && r.seedText() != null ? " <span class=\"source\">("
                                + Html.escape(r.seedText()) + ")</span>" : "").append("</td>");
            }
            for (int k = 0; k < readings.size(); k++) {
                Instance i = columns.get(k);
                SeedClaims.Outcome o = SeedClaims.evaluate(c, r, readings.get(k), i.section().rows(), i.machine());
                String value = c.kind() == SeedClaims.Kind.RATE && o.row() != null
                        ? Format.number(o.row().mbPerSec()) + " MB/s (" + Format.ratio(o.ratio()) + ")"
                        : Format.ratio(o.ratio());
                out.append("<td class=\"num\" title=\"").append(Html.escape(outcomeTooltip(c, readings.get(k), o)))
                        .append("\">").append(Html.escape(value)).append(' ').append(badge(o.verdict())).append("</td>");
            }
            if (readings.isEmpty()) {
                out.append("<td>").append(badge(SeedClaims.Verdict.NOT_MEASURED)).append("</td>");
            }
            out.append("</tr>\n");
        }
        out.append("</tbody></table>\n");
        if (c.kind() == SeedClaims.Kind.RATE) {
            out.append("<p class=\"note\">Ours is our rate over the seed's: another machine, so this says only "
                    + "whether this one reaches the seed's figure.</p>\n");
        } else if (c.kind() == SeedClaims.Kind.MEMORY) {
            out.append("<p class=\"note\">Ours is the rate over this machine's memory copy rate (the machine "
                    + "panel); without that figure it is n/a.</p>\n");
        }
        if (c.why() != null) {
            out.append("<p class=\"why\"><b>Why, as far as we know:</b> ").append(Html.escape(c.why())).append("</p>\n");
        }
    }

    private static String outcomeTooltip(SeedClaims.Comparison c, SeedClaims.Reading reading, SeedClaims.Outcome o) {
        if (o.row() == null) {
            return "no row matches in this section";
        }
        String metric = reading.metric();
        String row = label(o.row()) + " " + Format.number(o.row().number(metric)) + " " + unitOf(metric);
        if (o.base() != null) {
            return row + " / " + label(o.base()) + " " + Format.number(o.base().number(metric)) + " "
                    + unitOf(metric) + groupText(o.row());
        }
        if (c.kind() == SeedClaims.Kind.MEMORY) {
            return row + " against the memory copy rate";
        }
        return o.verdict() == SeedClaims.Verdict.NOT_MEASURED && c.kind() == SeedClaims.Kind.RATIO
                ? row + "; no base row" : row;
    }

    private static String groupText(ReportRow r) {
        String size = size(r);
        return " (" + (size.isEmpty() ? "" : size + ", ") + r.threads() + " thread" + (r.threads() == 1 ? "" : "s")
                + ")";
    }

    /** What the row's blockSize says: bytes per operation, or for kv the entries in the store; empty for none. */
    private static String size(ReportRow r) {
        if (r.blockSize() <= 0) {
            return "";
        }
        return r.workload().startsWith("kv-") ? String.format(Locale.ROOT, "%,d entries", r.blockSize())
                : Format.bytes(r.blockSize());
    }

    private static String unitOf(String metric) {
        return switch (metric) {
            case "mbPerSec" -> "MB/s";
            case "opsPerMs" -> "ops/ms";
            default -> metric;
        };
    }

    private static String label(ReportRow r) {
        return r.engine() + (r.depth() > 1 ? " depth " + r.depth() : "");
    }

    private void section(Instance instance) {
        ReportSection s = instance.section();
        SectionInfo info = SectionInfo.of(s.name());
        out.append("<section class=\"bench\"><h3>").append(Html.escape(info.title()))
                .append(" <span class=\"source\">").append(Html.escape(s.source())).append("</span></h3>\n");
        out.append("<p class=\"what\">").append(Html.escape(info.description())).append("</p>\n");
        if (s.skipped() != null) {
            out.append("<p class=\"note skipped\"><b>").append(s.rows().isEmpty() ? "Not run" : "Incomplete")
                    .append(":</b> ").append(Html.escape(s.skipped())).append("</p>\n");
        }
        if (s.rows().isEmpty()) {
            out.append("<p class=\"note\">No rows.</p>\n</section>\n");
            return;
        }
        Map<String, String> colors = colors(s.rows());
        Map<String, List<ReportRow>> panels = new LinkedHashMap<>();
        for (ReportRow r : s.rows()) {
            panels.computeIfAbsent(panelTitle(r), k -> new ArrayList<>()).add(r);
        }
        for (Map.Entry<String, List<ReportRow>> p : panels.entrySet()) {
            chart(info, p.getKey(), p.getValue(), colors, instance.machine());
        }
        rowTable(s.rows());
        out.append("</section>\n");
    }

    private static Map<String, String> colors(List<ReportRow> rows) {
        Map<String, String> colors = new LinkedHashMap<>();
        for (ReportRow r : rows) {
            if (!r.isFio()) {
                colors.putIfAbsent(label(r), PALETTE.get(colors.size() % PALETTE.size()));
            }
        }
        return colors;
    }

    private static String panelTitle(ReportRow r) {
        StringBuilder b = new StringBuilder(r.workload());
        String cache = r.text("cache");
        if (cache != null) {
            b.append(", page cache ").append(cache);
        } else if (r.direct()) {
            b.append(", O_DIRECT");
        } else if (r.text("file") != null) {
            b.append(", ").append(r.text("file")).append(" file");
        }
        return b.toString();
    }

    private void chart(SectionInfo info, String panel, List<ReportRow> rows, Map<String, String> colors,
                       Map<String, Object> machine) {
        boolean ops = info.opsPerMs();
        String unit = ops ? "ops/ms" : "MB/s";
        // When each contender has its own block size (chunk sizes, say), grouping by block size would give every
        // bar a group of its own: group by threads alone.
        Map<String, Set<Long>> sizesBySeries = new LinkedHashMap<>();
        for (ReportRow r : rows) {
            if (!r.isFio()) {
                sizesBySeries.computeIfAbsent(label(r), k -> new LinkedHashSet<>()).add(r.blockSize());
            }
        }
        Set<Long> allSizes = new LinkedHashSet<>();
        sizesBySeries.values().forEach(allSizes::addAll);
        boolean bySize = allSizes.size() > 1 && sizesBySeries.values().stream().anyMatch(v -> v.size() > 1);
        boolean vthreads = rows.get(0).workload().contains("vthreads");

        Map<String, List<ReportRow>> groups = new LinkedHashMap<>();
        for (ReportRow r : rows) {
            groups.computeIfAbsent((bySize ? r.blockSize() : 0) + "/" + r.threads(), k -> new ArrayList<>()).add(r);
        }
        double memory = machine != null && machine.get("memoryCopyMBps") instanceof Number n ? n.doubleValue()
                : Double.NaN;
        List<BarChart.Group> chartGroups = new ArrayList<>();
        Map<String, List<String>> winners = new LinkedHashMap<>();
        for (List<ReportRow> g : groups.values()) {
            ReportRow first = g.get(0);
            String threads = first.threads() + (vthreads ? " virtual thread" : " thread") + (first.threads() == 1 ? "" : "s");
            String label = bySize ? size(first) : threads;
            String sublabel = bySize ? threads : "";
            List<BarChart.Bar> bars = new ArrayList<>();
            List<BarChart.Reference> refs = new ArrayList<>();
            ReportRow best = null;
            for (ReportRow r : g) {
                double value = ops ? r.opsPerMs() : r.mbPerSec();
                if (r.isFio()) {
                    refs.add(new BarChart.Reference(r.engine(), value, false, r.engine() + ": " + Format.number(value)
                            + " " + unit + " (fio running the same job)"));
                    continue;
                }
                double[] range = r.opsRange();
                double scale = r.opsPerMs() > 0 ? value / r.opsPerMs() : Double.NaN;
                bars.add(new BarChart.Bar(label(r), value, range[0] * scale, range[1] * scale, tooltip(r, unit, value,
                        range[0] * scale, range[1] * scale)));
                if (!Double.isNaN(value) && (best == null || value > (ops ? best.opsPerMs() : best.mbPerSec()))) {
                    best = r;
                }
            }
            if (ops && first.blockSize() > 0 && !Double.isNaN(memory) && !info.name().equals("kv")) {
                double v = memory * 1000 / first.blockSize();
                refs.add(new BarChart.Reference("memory copy", v, true, "one thread copying memory: "
                        + Format.number(v) + " " + unit + " of " + Format.bytes(first.blockSize())));
            }
            if (best != null && bars.size() > 1) {
                winners.computeIfAbsent(label(best), k -> new ArrayList<>())
                        .add(label + (sublabel.isEmpty() ? "" : " " + sublabel));
            }
            chartGroups.add(new BarChart.Group(label, sublabel, bars, refs));
        }
        List<BarChart.Reference> chartRefs = new ArrayList<>();
        if (!ops && !Double.isNaN(memory)) {
            chartRefs.add(new BarChart.Reference("memory copy, one thread", memory, true,
                    "one thread copying memory: " + Format.number(memory) + " MB/s"));
        }
        List<String> series = new ArrayList<>();
        for (String s : colors.keySet()) {
            if (rows.stream().anyMatch(r -> !r.isFio() && label(r).equals(s))) {
                series.add(s);
            }
        }
        BarChart chart = new BarChart(info.title() + ": " + panel, unit, series, chartGroups, chartRefs);
        String svg = chart.svg(colors);
        chartCount++;
        out.append("<figure class=\"chart\" id=\"chart-").append(chartCount).append("\"><figcaption><b>")
                .append(Html.escape(panel)).append("</b>, ").append(Html.escape(unit)).append(", higher is better");
        if (!winners.isEmpty()) {
            List<String> parts = new ArrayList<>();
            winners.forEach((engine, where) -> parts.add(engine + (groups.size() == 1 ? "" : " (" + String.join(", ",
                    where) + ")")));
            out.append(". Fastest: ").append(Html.escape(String.join("; ", parts)));
        }
        out.append("</figcaption>\n<div class=\"legend\">");
        for (String s : series) {
            out.append("<span><i style=\"background:").append(Html.escape(colors.get(s))).append("\"></i>")
                    .append(Html.escape(s)).append("</span>");
        }
        // a line kind in the legend only where the chart draws one (the rest is named under it)
        if (svg.contains("class=\"ref-fio\"")) {
            out.append("<span><i class=\"fio\"></i>fio, same job</span>");
        }
        if (svg.contains("class=\"ref-memory\"")) {
            out.append("<span><i class=\"memory\"></i>memory copy, one thread</span>");
        }
        out.append("</div>\n<div class=\"scroll\">").append(svg).append("</div>\n");
        if (!chart.offScale().isEmpty()) {
            out.append("<p class=\"note\">Off this chart's scale: ").append(Html.escape(String.join("; ",
                    chart.offScale()))).append(".</p>\n");
        }
        out.append("</figure>\n");
    }

    private static String tooltip(ReportRow r, String unit, double value, double low, double high) {
        StringBuilder b = new StringBuilder(label(r)).append(groupText(r)).append(": ")
                .append(Format.number(value)).append(' ').append(unit);
        if (r.rounds() > 0) {
            b.append(", median of ").append(r.rounds()).append(" round").append(r.rounds() == 1 ? "" : "s");
        }
        if (!Double.isNaN(low) && !Double.isNaN(high)) {
            b.append(r.hasRecordedRange() ? "; rounds from " : "; about ").append(Format.number(low)).append(" to ")
                    .append(Format.number(high));
        }
        if (!Double.isNaN(r.spread())) {
            b.append("; spread ").append(Format.percent(r.spread()));
        }
        double toBase = r.number("ratioToBaseline");
        if (!Double.isNaN(toBase) && r.baseline() != null && !r.baseline().equals(r.engine())) {
            b.append("; ").append(Format.ratio(toBase)).append(' ').append(r.baseline());
        }
        double toFio = r.number("ratioToFio");
        if (!Double.isNaN(toFio) && r.fioReference() != null) {
            b.append("; ").append(Format.ratio(toFio)).append(' ').append(r.fioReference());
        }
        return b.toString();
    }

    private void rowTable(List<ReportRow> rows) {
        Set<String> extra = new LinkedHashSet<>();
        for (ReportRow r : rows) {
            extra.addAll(r.fields().keySet());
        }
        extra.removeAll(ReportDocument.COMMON_FIELDS);
        extra.remove("cache");
        out.append("<details class=\"rows\"><summary>All ").append(rows.size()).append(" row")
                .append(rows.size() == 1 ? "" : "s").append("</summary><div class=\"scroll\"><table class=\"rows\"><thead><tr>"
                        + "<th>engine</th><th>workload</th><th>block</th><th>threads</th><th>depth</th><th>file</th>"
                        + "<th>ops/ms</th><th>MB/s</th><th>spread</th><th>rounds</th><th>x baseline</th><th>x fio</th>"
                        + (extra.isEmpty() ? "" : "<th>more</th>") + "</tr></thead><tbody>\n");
        for (ReportRow r : rows) {
            String file = r.text("cache") != null ? "cache " + r.text("cache") : Objects.toString(r.text("file"), "");
            if (r.direct()) {
                file = file.isEmpty() ? "O_DIRECT" : file + ", O_DIRECT";
            }
            out.append("<tr").append(r.isFio() ? " class=\"fio\"" : "").append("><td>").append(Html.escape(r.engine()))
                    .append("</td><td>").append(Html.escape(r.workload())).append("</td><td class=\"num\">")
                    .append(Html.escape(size(r)))
                    .append("</td><td class=\"num\">").append(r.threads()).append("</td><td class=\"num\">")
                    .append(r.depth()).append("</td><td>").append(Html.escape(file)).append("</td><td class=\"num\">")
                    .append(Html.escape(Format.number(r.opsPerMs()))).append("</td><td class=\"num\">")
                    .append(Html.escape(Format.number(r.mbPerSec()))).append("</td><td class=\"num\">")
                    .append(Html.escape(Format.percent(r.spread()))).append("</td><td class=\"num\">")
                    .append(r.rounds() > 0 ? String.valueOf(r.rounds()) : "").append("</td><td class=\"num\">")
                    .append(Html.escape(ratioCell(r.number("ratioToBaseline"), r.baseline())))
                    .append("</td><td class=\"num\">")
                    .append(Html.escape(ratioCell(r.number("ratioToFio"), r.fioReference()))).append("</td>");
            if (!extra.isEmpty()) {
                List<String> more = new ArrayList<>();
                for (String k : extra) {
                    if (r.fields().containsKey(k) && r.fields().get(k) != null) {
                        more.add(k + " " + r.text(k));
                    }
                }
                out.append("<td>").append(Html.escape(String.join(", ", more))).append("</td>");
            }
            out.append("</tr>\n");
        }
        out.append("</tbody></table></div></details>\n");
    }

    private static String ratioCell(double ratio, String against) {
        return Double.isNaN(ratio) ? "" : Format.ratio(ratio) + (against == null ? "" : " " + against);
    }

    private static String css() {
        try (InputStream in = ReportPage.class.getResourceAsStream("report.css")) {
            if (in == null) {
                throw new IllegalStateException("resource report.css missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read resource report.css", e);
        }
    }
}
