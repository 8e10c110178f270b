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
 * <p>Layout: a warning where the machine was loaded or many rows are noisy; the answer (per workload, the winner here,
 * by how much over the runner-up and the JDK baseline, and what to use); what each seed claimed, where and on what
 * machine, with one verdict per claim; how to read the page; the machine; then one part per seed (its claims, its own
 * figures, its charts, our ratios beside its with the verdict and the known reason); then the sections no seed speaks
 * to; then the run (sections, times, what was skipped and why).
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

    /** A section instance with the machine of the document it came from; {@code index} names its charts. */
    private record Instance(ReportSection section, Map<String, Object> machine, int index) {
    }

    private List<Instance> instances() {
        List<Instance> all = new ArrayList<>();
        for (ReportDocument d : documents) {
            for (ReportSection s : d.sections()) {
                all.add(new Instance(s, d.machine(), 0));
            }
        }
        all.sort((a, b) -> Integer.compare(SectionInfo.order(a.section().name()),
                SectionInfo.order(b.section().name())));
        List<Instance> numbered = new ArrayList<>();
        for (Instance i : all) {
            numbered.add(new Instance(i.section(), i.machine(), numbered.size() + 1));
        }
        return numbered;
    }

    private void page() {
        out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>").append(Html.escape(title)).append("</title>\n<style>\n").append(css())
                .append("</style>\n</head>\n<body>\n<main>\n");
        out.append("<h1>").append(Html.escape(title)).append("</h1>\n");
        out.append("<p class=\"lede\">").append(Html.escape(generated)).append("</p>\n");
        List<Instance> instances = instances();
        warnings();
        answer(instances);
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
            out.append("<h2 id=\"other\">The sections no seed speaks to</h2>\n");
            for (Instance i : others) {
                section(i);
            }
        }
        run();
        out.append("<footer>Made by <code>sluice report</code>. This page is one file: no script, no fonts or "
                + "images from elsewhere; it reads the same offline.</footer>\n");
        out.append("</main>\n</body>\n</html>\n");
    }

    /** The 1-minute load average the machine record gives {@code key} ({@code loadBefore}, {@code loadAfter}). */
    private static double load(Map<String, Object> machine, String key) {
        return machine != null && machine.get(key) instanceof List<?> l && !l.isEmpty() && l.get(0) instanceof Number n
                ? n.doubleValue() : Double.NaN;
    }

    /**
     * Warnings at the top: a run whose machine had more runnable work than cores (its load average, before or after,
     * above the cores the JVM saw), and a run where a quarter or more of the rows are noisy.
     */
    private void warnings() {
        List<String> lines = new ArrayList<>();
        for (ReportDocument d : documents) {
            Map<String, Object> m = d.machine();
            double cores = m != null && m.get("cores") instanceof Number n ? n.doubleValue() : Double.NaN;
            double load = Math.max(Double.isNaN(load(m, "loadBefore")) ? 0 : load(m, "loadBefore"),
                    Double.isNaN(load(m, "loadAfter")) ? 0 : load(m, "loadAfter"));
            if (!Double.isNaN(cores) && load > cores) {
                lines.add(d.source() + ": the load average reached " + String.format(Locale.ROOT, "%.2f", load)
                        + " on " + (long) cores + " core" + (cores == 1 ? "" : "s") + ", so other work shared the "
                        + "CPUs: figures may be low and noisy, and small differences mean nothing.");
            }
            int rows = 0;
            int noisy = 0;
            for (ReportSection s : d.sections()) {
                for (ReportRow r : s.rows()) {
                    if (!r.isFio()) {
                        rows++;
                        noisy += Standing.noisy(r) ? 1 : 0;
                    }
                }
            }
            if (noisy > 0 && noisy * 4 >= rows) {
                lines.add(d.source() + ": " + noisy + " of " + rows + " rows are noisy (their rounds spread by "
                        + Format.percent(Standing.NOISY) + " of the median or more): a quick or loaded run; "
                        + "measure again with more rounds on a quiet machine before trusting them.");
            }
        }
        if (!lines.isEmpty()) {
            out.append("<section class=\"warning\" id=\"warnings\"><h2>Read with care</h2><ul>");
            for (String l : lines) {
                out.append("<li>").append(Html.escape(l)).append("</li>");
            }
            out.append("</ul></section>\n");
        }
    }

    /** The rows of one section cut into chart panels (workload and file), in the order first met. */
    private static Map<String, List<ReportRow>> panels(List<ReportRow> rows) {
        Map<String, List<ReportRow>> panels = new LinkedHashMap<>();
        for (ReportRow r : rows) {
            panels.computeIfAbsent(panelTitle(r), k -> new ArrayList<>()).add(r);
        }
        return panels;
    }

    private static String chartId(Instance i, int panel) {
        return "chart-" + i.index() + "-" + panel;
    }

    /**
     * The page's first answer: per workload (a chart panel), the contender that leads most of its settings by more
     * than the noise, by how much over the runner-up and over the JDK baseline there (medians over those settings),
     * and what to use; "level within noise" where no setting has a clear leader.
     */
    private void answer(List<Instance> instances) {
        out.append("<h2 id=\"answer\">Which strategy wins here</h2>\n");
        out.append("<p class=\"note\">Per workload, the contender that leads the most settings (block size and "
                + "threads) by more than the rows' spread, measured side by side on this machine. Ratios are "
                + "medians over the settings it leads; the workload's name links to its chart.</p>\n");
        out.append("<table class=\"answer\"><thead><tr><th>workload</th><th>winner here</th>"
                + "<th>over the runner-up</th><th>over the JDK baseline</th><th>use</th></tr></thead><tbody>\n");
        int written = 0;
        for (Instance i : instances) {
            if (i.section().rows().isEmpty()) {
                continue;
            }
            SectionInfo info = SectionInfo.of(i.section().name());
            int pi = 0;
            for (Map.Entry<String, List<ReportRow>> p : panels(i.section().rows()).entrySet()) {
                pi++;
                Map<String, List<ReportRow>> groups = groups(p.getValue());
                Map<String, List<Standing>> wins = new LinkedHashMap<>();
                int settings = 0;
                for (List<ReportRow> g : groups.values()) {
                    Standing st = Standing.of(g, info.opsPerMs());
                    if (st.runnerUp() == null) {
                        continue;
                    }
                    settings++;
                    if (st.clear()) {
                        wins.computeIfAbsent(label(st.best()), k -> new ArrayList<>()).add(st);
                    }
                }
                if (settings == 0) {
                    continue;
                }
                written++;
                out.append("<tr><td><a href=\"#").append(chartId(i, pi)).append("\">")
                        .append(Html.escape(info.name() + ": " + p.getKey())).append("</a></td>");
                String winner = null;
                for (Map.Entry<String, List<Standing>> w : wins.entrySet()) {
                    if (winner == null || w.getValue().size() > wins.get(winner).size()) {
                        winner = w.getKey();
                    }
                }
                if (winner == null) {
                    out.append("<td colspan=\"3\"><span class=\"level\">level within noise</span> in all ")
                            .append(settings).append(" setting").append(settings == 1 ? "" : "s")
                            .append("</td><td>any of them</td></tr>\n");
                    continue;
                }
                List<Standing> its = wins.get(winner);
                List<Double> overRunner = new ArrayList<>();
                List<Double> overBase = new ArrayList<>();
                Set<String> runners = new LinkedHashSet<>();
                String baseline = null;
                for (Standing st : its) {
                    overRunner.add(st.ratio());
                    runners.add(label(st.runnerUp()));
                    double b = st.best().number("ratioToBaseline");
                    if (!Double.isNaN(b) && st.best().baseline() != null) {
                        overBase.add(b);
                        baseline = st.best().baseline();
                    } else {
                        // the engines section names no baseline: the JDK's own way there is CLASSIC
                        // (RandomAccessFile), measured in the same group
                        ReportRow jdk = jdkRow(groups, st.best());
                        if (jdk != null) {
                            overBase.add(Standing.value(st.best(), info.opsPerMs()) / Standing.value(jdk,
                                    info.opsPerMs()));
                            baseline = jdk.engine();
                        }
                    }
                }
                String where = its.size() == settings ? (settings == 1 ? "" : "all " + settings + " settings")
                        : its.size() + " of " + settings + " settings";
                out.append("<td><b>").append(Html.escape(winner)).append("</b>")
                        .append(where.isEmpty() ? "" : " <span class=\"source\">(" + Html.escape(where) + ")</span>")
                        .append("</td><td class=\"num\">").append(Html.escape(Format.ratio(median(overRunner))))
                        .append(" <span class=\"source\">").append(Html.escape(String.join(", ", runners)))
                        .append("</span></td><td class=\"num\">");
                if (baseline == null || baseline.equals(winner)) {
                    out.append(baseline == null ? "" : "is the baseline");
                } else {
                    out.append(Html.escape(Format.ratio(median(overBase)))).append(" <span class=\"source\">")
                            .append(Html.escape(baseline)).append("</span>");
                }
                out.append("</td><td>").append(Html.escape(its.size() * 2 > settings ? winner
                        : winner + " where it leads; elsewhere level or another")).append("</td></tr>\n");
            }
        }
        if (written == 0) {
            out.append("<tr><td colspan=\"5\">No workload here has two contenders to compare.</td></tr>\n");
        }
        out.append("</tbody></table>\n");
    }

    /** The CLASSIC row of the group that holds {@code row}, for rows that name no baseline; or null. */
    private static ReportRow jdkRow(Map<String, List<ReportRow>> groups, ReportRow row) {
        for (List<ReportRow> g : groups.values()) {
            if (g.contains(row)) {
                for (ReportRow r : g) {
                    if (r.engine().equals("CLASSIC") && r != row) {
                        return r;
                    }
                }
            }
        }
        return null;
    }

    private static double median(List<Double> values) {
        List<Double> v = values.stream().filter(x -> !Double.isNaN(x)).sorted().toList();
        if (v.isEmpty()) {
            return Double.NaN;
        }
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }

    /**
     * A panel's rows in groups along the chart's x axis: by block size and threads, or by threads alone when each
     * contender has its own block size (chunk sizes, say), where grouping by size would give every bar a group.
     */
    private static Map<String, List<ReportRow>> groups(List<ReportRow> rows) {
        boolean bySize = bySize(rows);
        Map<String, List<ReportRow>> groups = new LinkedHashMap<>();
        for (ReportRow r : rows) {
            groups.computeIfAbsent((bySize ? r.blockSize() : 0) + "/" + r.threads(), k -> new ArrayList<>()).add(r);
        }
        return groups;
    }

    private static boolean bySize(List<ReportRow> rows) {
        Map<String, Set<Long>> sizesBySeries = new LinkedHashMap<>();
        for (ReportRow r : rows) {
            if (!r.isFio()) {
                sizesBySeries.computeIfAbsent(label(r), k -> new LinkedHashSet<>()).add(r.blockSize());
            }
        }
        Set<Long> allSizes = new LinkedHashSet<>();
        sizesBySeries.values().forEach(allSizes::addAll);
        return allSizes.size() > 1 && sizesBySeries.values().stream().anyMatch(v -> v.size() > 1);
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
                        + "the same ratio of two of our rows measured side by side; within ")
                .append(Html.escape(Format.percent(SeedClaims.LEVEL - 1)))
                .append(" counts as level. Each claim gets one verdict, the one most of its cells have: ")
                .append(badge(SeedClaims.Verdict.HOLDS)).append(" ours points the same way; ")
                .append(badge(SeedClaims.Verdict.EXCEEDED)).append(" the seed's first does better here than the "
                        + "seed found; ").append(badge(SeedClaims.Verdict.FALLS_SHORT)).append(" it does worse, but "
                        + "not the other way; ").append(badge(SeedClaims.Verdict.INVERTED)).append(" ours points the "
                        + "other way. The cells are folded under each claim. The seeds ran on other machines.</li>")
                .append("<li><b>Noise</b>: a row whose rounds spread by ")
                .append(Html.escape(Format.percent(Standing.NOISY)))
                .append(" of its median or more is noisy (a pale bar with a dashed outline, flagged in the caption and the table); a row of one "
                        + "round has no spread. A chart names the fastest of a group only when it leads by more "
                        + "than both rows' spread and at least ")
                .append(Html.escape(Format.percent(Standing.MARGIN)))
                .append("; otherwise the group is level within noise.</li>")
                .append("<li><b>Scales</b>: where a chart's bars span more than 30 times, its axis is "
                        + "logarithmic (marked \"log scale\"): equal steps are equal ratios.</li>")
                .append("<li>Each bar is labelled with its figure; hovering gives the rest, and every row is in "
                        + "the table under its charts.</li>")
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
        out.append("<h2 id=\"claims\">What the seeds claimed, and whether it holds here</h2>\n");
        out.append("<p>The seeds are the published benchmarks Sluice set out to check on this machine. Each claimed "
                + "something about a way of doing file I/O on the JVM, measured on its author's machine:</p>\n<ul "
                + "class=\"seeds\">");
        for (SeedClaims.Seed seed : claims.seeds()) {
            out.append("<li><a href=\"#seed-").append(Html.escape(seed.id())).append("\"><b>Seed ")
                    .append(Html.escape(seed.id())).append("</b></a>, ").append(Html.escape(seed.title()))
                    .append(". ").append(Html.escape(seedSentence(seed))).append("</li>");
        }
        out.append("</ul>\n");
        out.append("<table class=\"summary\"><thead><tr><th>seed</th><th>claim</th><th>seed's ratio</th>"
                + "<th>ours</th><th>verdict</th></tr></thead><tbody>\n");
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
                out.append(badge(SeedClaims.overall(outcomes.stream().map(SeedClaims.Outcome::verdict).toList())));
                verdictCounts(outcomes);
                out.append("</td></tr>\n");
            }
        }
        out.append("</tbody></table>\n");
    }

    /** What the seed claimed, where it was published and on what machine, as its record has them. */
    static String seedSentence(SeedClaims.Seed seed) {
        StringBuilder b = new StringBuilder();
        if (seed.claim() != null) {
            b.append("It claimed: ").append(seed.claim()).append(' ');
        }
        b.append("Published: ").append(seed.published() != null ? strip(seed.published())
                : "not recorded here").append(". Its machine: ").append(strip(seed.machine())).append('.');
        return b.toString();
    }

    private static String strip(String s) {
        return s == null ? "not described" : s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
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

    /** The count of each cell verdict behind a claim's one verdict, folded. */
    private void verdictCounts(List<SeedClaims.Outcome> outcomes) {
        Map<SeedClaims.Verdict, Integer> counts = new EnumMap<>(SeedClaims.Verdict.class);
        for (SeedClaims.Outcome o : outcomes) {
            counts.merge(o.verdict(), 1, Integer::sum);
        }
        if (counts.isEmpty()) {
            out.append(" <span class=\"source\">no rows</span>");
            return;
        }
        List<String> parts = new ArrayList<>();
        counts.forEach((v, k) -> parts.add(k + " " + v.words()));
        out.append("<details class=\"cells\"><summary>").append(outcomes.size()).append(" cell")
                .append(outcomes.size() == 1 ? "" : "s").append("</summary>")
                .append(Html.escape(String.join(", ", parts))).append("</details>");
    }

    private static String badge(SeedClaims.Verdict v) {
        return "<span class=\"v " + v.css() + "\">" + Html.escape(v.words()) + "</span>";
    }

    private static String anchor(SeedClaims.Seed seed, int comparison) {
        return "seed-" + Html.escape(seed.id()) + "-" + comparison;
    }

    private void seed(SeedClaims.Seed seed, List<Instance> instances) {
        out.append("<h2 id=\"seed-").append(Html.escape(seed.id())).append("\">Seed ").append(Html.escape(seed.id()))
                .append(": ").append(Html.escape(seed.title())).append("</h2>\n");
        out.append("<p class=\"seedinfo\">").append(Html.escape(seedSentence(seed)))
                .append(" <b>Its method:</b> ").append(Html.escape(seed.method())).append(".</p>\n");
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
        List<SeedClaims.Verdict> cells = new ArrayList<>();
        for (SeedClaims.Outcome o : outcomes(c, instances)) {
            cells.add(o.verdict());
        }
        out.append("<h4 id=\"").append(anchor(seed, n)).append("\">").append(Html.escape(c.caption())).append(' ')
                .append(badge(SeedClaims.overall(cells))).append("</h4>\n");
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
        out.append("<details class=\"claim\"><summary>The seed's rows beside ours, cell by cell</summary>"
                + "<div class=\"scroll\"><table class=\"claim\"><thead><tr><th>seed's row</th>");
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
        out.append("</tbody></table></div></details>\n");
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
        int pi = 0;
        for (Map.Entry<String, List<ReportRow>> p : panels(s.rows()).entrySet()) {
            chart(chartId(instance, ++pi), info, p.getKey(), p.getValue(), colors, instance.machine());
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

    private void chart(String id, SectionInfo info, String panel, List<ReportRow> rows, Map<String, String> colors,
                       Map<String, Object> machine) {
        boolean ops = info.opsPerMs();
        String unit = ops ? "ops/ms" : "MB/s";
        boolean bySize = bySize(rows);
        boolean vthreads = rows.get(0).workload().contains("vthreads");
        Map<String, List<ReportRow>> groups = groups(rows);
        double memory = machine != null && machine.get("memoryCopyMBps") instanceof Number n ? n.doubleValue()
                : Double.NaN;
        List<BarChart.Group> chartGroups = new ArrayList<>();
        Map<String, List<String>> winners = new LinkedHashMap<>();
        List<String> level = new ArrayList<>();
        List<String> noisy = new ArrayList<>();
        List<String> fio = new ArrayList<>();
        for (List<ReportRow> g : groups.values()) {
            ReportRow first = g.get(0);
            String threads = first.threads() + (vthreads ? " virtual thread" : " thread") + (first.threads() == 1 ? "" : "s");
            String label = bySize ? size(first) : threads;
            String sublabel = bySize ? threads : "";
            String where = label + (sublabel.isEmpty() ? "" : " " + sublabel);
            List<BarChart.Bar> bars = new ArrayList<>();
            List<BarChart.Reference> refs = new ArrayList<>();
            for (ReportRow r : g) {
                double value = ops ? r.opsPerMs() : r.mbPerSec();
                if (r.isFio()) {
                    if (!fio.contains(r.engine())) {
                        fio.add(r.engine());
                    }
                    refs.add(new BarChart.Reference(r.engine(), value, false, r.engine() + ": " + Format.number(value)
                            + " " + unit + " (fio running the same job)"));
                    continue;
                }
                double[] range = r.opsRange();
                double scale = r.opsPerMs() > 0 ? value / r.opsPerMs() : Double.NaN;
                // one round has no spread: no whisker either
                double low = r.rounds() == 1 ? Double.NaN : range[0] * scale;
                double high = r.rounds() == 1 ? Double.NaN : range[1] * scale;
                bars.add(new BarChart.Bar(label(r), value, low, high, tooltip(r, unit, value, low, high),
                        Standing.noisy(r)));
                if (Standing.noisy(r)) {
                    noisy.add(label(r) + " at " + where + " (" + Format.percent(r.spread()) + ")");
                }
            }
            if (ops && first.blockSize() > 0 && !Double.isNaN(memory) && !info.name().equals("kv")) {
                double v = memory * 1000 / first.blockSize();
                // the same one-thread figure over every group of this size, whatever the group's threads
                refs.add(new BarChart.Reference("memory copy, one thread, " + Format.bytes(first.blockSize()), v, true,
                        "one thread copying memory: " + Format.number(v) + " " + unit + " of "
                                + Format.bytes(first.blockSize())));
            }
            Standing st = Standing.of(g, ops);
            if (st.runnerUp() != null) {
                if (st.clear()) {
                    winners.computeIfAbsent(label(st.best()), k -> new ArrayList<>()).add(where);
                } else {
                    level.add(where);
                }
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
        BarChart chart = new BarChart(info.title() + ": " + panel, unit, series, chartGroups, chartRefs, fio);
        String svg = chart.svg(colors);
        chartCount++;
        out.append("<figure class=\"chart\" id=\"").append(id).append("\" data-series=\"").append(series.size())
                .append("\"><figcaption><b>").append(Html.escape(panel)).append("</b>, ").append(Html.escape(unit))
                .append(", higher is better").append(chart.logScale() ? ", log scale" : "");
        boolean one = groups.size() == 1;
        if (!winners.isEmpty()) {
            List<String> parts = new ArrayList<>();
            winners.forEach((engine, where) -> parts.add(engine + (one ? "" : " (" + String.join(", ", where) + ")")));
            out.append(". Fastest beyond the noise: ").append(Html.escape(String.join("; ", parts)));
        }
        if (!level.isEmpty()) {
            out.append(". <span class=\"level\">Level within noise")
                    .append(one ? "" : ": " + Html.escape(String.join(", ", level))).append("</span>");
        }
        if (!noisy.isEmpty()) {
            out.append(". <span class=\"noisy\">Noisy: ").append(Html.escape(String.join(", ", noisy))).append("</span>");
        }
        out.append("</figcaption>\n<div class=\"legend\">");
        for (String s : series) {
            out.append("<span><i style=\"background:").append(Html.escape(colors.get(s))).append("\"></i>")
                    .append(Html.escape(s)).append("</span>");
        }
        // a line kind in the legend only where the chart draws one (the rest is named under it)
        for (int k = 0; k < fio.size(); k++) {
            if (svg.contains("data-ref=\"" + Html.escape(fio.get(k)) + "\"")) {
                out.append("<span>").append(BarChart.legendLine(k, false)).append(Html.escape(fio.get(k)))
                        .append(" (fio, same job)</span>");
            }
        }
        if (svg.contains("class=\"ref-memory\"")) {
            out.append("<span>").append(BarChart.legendLine(0, true)).append("memory copy, one thread</span>");
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
        if (r.rounds() == 1) {
            b.append("; 1 round: no spread");
        } else if (!Double.isNaN(r.spread())) {
            b.append("; spread ").append(Standing.spreadText(r));
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
            out.append("<tr").append(r.isFio() ? " class=\"fio\"" : Standing.noisy(r) ? " class=\"noisy\"" : "")
                    .append("><td>").append(Html.escape(r.engine()))
                    .append("</td><td>").append(Html.escape(r.workload())).append("</td><td class=\"num\">")
                    .append(Html.escape(size(r)))
                    .append("</td><td class=\"num\">").append(r.threads()).append("</td><td class=\"num\">")
                    .append(r.depth()).append("</td><td>").append(Html.escape(file)).append("</td><td class=\"num\">")
                    .append(Html.escape(Format.number(r.opsPerMs()))).append("</td><td class=\"num\">")
                    .append(Html.escape(Format.number(r.mbPerSec()))).append("</td><td class=\"num\">")
                    .append(Html.escape(Standing.spreadText(r))).append("</td><td class=\"num\">")
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
