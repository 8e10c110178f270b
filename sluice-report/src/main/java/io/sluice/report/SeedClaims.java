package io.sluice.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the project's seeds claimed, read from {@code seed-claims.json} (a resource beside this class), and how a
 * claim fares against rows measured here.
 *
 * <p>A {@link Comparison} is one of a seed's tables reduced to ratios: for each of its rows, the seed's two figures
 * and their ratio; for each {@link Reading}, the ratio of two of our rows that answer the same question. The verdict
 * compares directions, not sizes, since the machines differ: a ratio at least {@value #LEVEL} times one way counts as
 * faster (or slower), anything nearer 1 as level. One cell (a row of the seed's table against one reading of ours):
 * <ul>
 * <li><em>holds</em> when ours points the same way as the seed's (level counting as a way);</li>
 * <li><em>inverted</em> when ours points the other way (the seed's first faster, ours slower, or the reverse);</li>
 * <li><em>exceeded</em> when one of the two is level and ours favours the seed's first more than the seed did (the
 *     seed level, ours clearly faster: zip's lock-free reader at 5.22x where the seed found 1.04x);</li>
 * <li><em>falls short</em> when one of the two is level and ours favours it less;</li>
 * <li><em>not measured</em> when no rows here answer it.</li>
 * </ul>
 * A rate ({@link Kind#RATE}, {@link Kind#MEMORY}) holds within {@value #LEVEL} of the seed's figure either way, is
 * exceeded above and falls short below. The claim as a whole ({@link #overall}) takes the verdict of most of its
 * measured cells; on a tie, the less favourable of the tied ones (inverted, falls short, holds, exceeded), so that a
 * claim is never reported better than half its cells; with no cell measured it is not measured.
 */
public final class SeedClaims {
    /** The factor below which two figures count as level, either way: 10%. */
    public static final double LEVEL = 1.10;

    /** The resource the claims are read from. */
    static final String RESOURCE = "seed-claims.json";

    private final List<Seed> seeds;

    private SeedClaims(List<Seed> seeds) {
        this.seeds = List.copyOf(seeds);
    }

    /** The seeds, in the order of the resource. */
    public List<Seed> seeds() {
        return seeds;
    }

    /** The seed whose comparisons read rows of {@code section}, or null. */
    public Seed seedOf(String section) {
        for (Seed s : seeds) {
            if (s.sections().contains(section)) {
                return s;
            }
        }
        return null;
    }

    /** The claims shipped with Sluice. */
    public static SeedClaims load() {
        try (InputStream in = SeedClaims.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " missing from the jar");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read resource " + RESOURCE, e);
        }
    }

    /** Claims from JSON text in the resource's shape. */
    public static SeedClaims parse(String json) {
        Map<String, Object> root = map(Json.parse(json), "the claims");
        List<Seed> seeds = new ArrayList<>();
        for (Object o : list(root.get("seeds"), "seeds")) {
            Map<String, Object> s = map(o, "a seed");
            List<Comparison> comparisons = new ArrayList<>();
            for (Object c : list(s.get("comparisons"), "comparisons")) {
                comparisons.add(comparison(map(c, "a comparison")));
            }
            Table table = null;
            if (s.get("table") instanceof Map<?, ?> t) {
                Map<String, Object> tm = map(t, "a table");
                List<List<Object>> rows = new ArrayList<>();
                for (Object r : list(tm.get("rows"), "table rows")) {
                    rows.add(List.copyOf(list(r, "a table row").stream().map(v -> v == null ? "" : v).toList()));
                }
                table = new Table(text(tm.get("caption")), strings(tm.get("columns")), rows);
            }
            seeds.add(new Seed(text(s.get("id")), text(s.get("title")), text(s.get("claim")), text(s.get("published")),
                    text(s.get("machine")), text(s.get("method")), strings(s.get("sections")), table, comparisons));
        }
        return new SeedClaims(seeds);
    }

    private static Comparison comparison(Map<String, Object> c) {
        List<ClaimRow> rows = new ArrayList<>();
        for (Object o : list(c.get("rows"), "comparison rows")) {
            Map<String, Object> r = map(o, "a comparison row");
            List<Double> seed = new ArrayList<>();
            if (r.get("seed") instanceof List<?> l) {
                for (Object v : l) {
                    seed.add(v instanceof Number n ? n.doubleValue() : Double.NaN);
                }
            }
            rows.add(new ClaimRow(text(r.get("label")), r.get("key") instanceof Map<?, ?> k ? map(k, "a key") : Map.of(),
                    seed, r.get("seedRatio") instanceof Number n ? n.doubleValue() : Double.NaN,
                    text(r.get("seedText"))));
        }
        List<Reading> ours = new ArrayList<>();
        for (Object o : list(c.get("ours"), "readings")) {
            Map<String, Object> r = map(o, "a reading");
            ours.add(new Reading(text(r.get("label")), text(r.get("section")),
                    r.get("metric") instanceof String m ? m : "mbPerSec", map(r.get("row"), "a reading's row"),
                    r.get("base") instanceof Map<?, ?> b ? map(b, "a reading's base") : null));
        }
        String kind = c.get("kind") instanceof String k ? k : "ratio";
        return new Comparison(text(c.get("caption")), Kind.parse(kind), strings(c.get("seedColumns")),
                !Boolean.FALSE.equals(c.get("higherIsBetter")), rows, ours, text(c.get("why")));
    }

    /**
     * One seed.
     *
     * @param claim     what it claimed, in one sentence, or null
     * @param published where it was published, as far as its text says, or null
     * @param sections  the sections whose rows its comparisons read
     * @param table     the seed's own figures as it gave them, or null when its comparisons carry them all
     */
    public record Seed(String id, String title, String claim, String published, String machine, String method, List<String> sections, Table table,
                       List<Comparison> comparisons) {
    }

    /** A table of the seed's own figures, cells as the resource has them (numbers or text). */
    public record Table(String caption, List<String> columns, List<List<Object>> rows) {
    }

    /** What a comparison's number means. */
    public enum Kind {
        /** Two figures of the seed against two rows of ours; directions compared. */
        RATIO,
        /** A rate the seed reached (MB/s) against the rate of one row of ours; ours must reach it. */
        RATE,
        /** One row of ours against this machine's memory copy rate; the seed's claim is "as fast as memory". */
        MEMORY;

        static Kind parse(String s) {
            return switch (s) {
                case "ratio" -> RATIO;
                case "rate" -> RATE;
                case "memory" -> MEMORY;
                default -> throw new IllegalArgumentException("unknown comparison kind '" + s + "'");
            };
        }
    }

    /**
     * One of a seed's tables, as ratios.
     *
     * @param seedColumns    what the seed's two figures per row are (one for {@link Kind#RATE})
     * @param higherIsBetter whether the seed's figures are rates (the ratio is first / second) or times (second /
     *                       first), so that a ratio above 1 always means the first is faster
     */
    public record Comparison(String caption, Kind kind, List<String> seedColumns, boolean higherIsBetter,
                             List<ClaimRow> rows, List<Reading> ours, String why) {
    }

    /**
     * One row of a seed's table.
     *
     * @param key       fields added to both of a reading's selectors for this row ({@code blockSize}, {@code threads})
     * @param seed      the seed's figures
     * @param seedRatio the ratio when the seed gave none to compute it from (NaN otherwise)
     * @param seedText  what the seed said instead of figures, or null
     */
    public record ClaimRow(String label, Map<String, Object> key, List<Double> seed, double seedRatio,
                           String seedText) {
    }

    /**
     * A pair of our rows answering a comparison's question.
     *
     * @param section the section whose rows are read
     * @param metric  the field compared ({@code mbPerSec} unless said)
     * @param row     selects the row standing for the seed's first figure; {@code threads} may be {@code min} or
     *                {@code max}
     * @param base    selects the row standing for its second; {@code engine} may be {@code @baseline}; null for
     *                {@link Kind#RATE} and {@link Kind#MEMORY}
     */
    public record Reading(String label, String section, String metric, Map<String, Object> row,
                          Map<String, Object> base) {
    }

    /** How a claim fares here, in order from the least to the most favourable to the seed's first figure. */
    public enum Verdict {
        /** Ours points the other way. */
        INVERTED("inverted"),
        /** One of the two is level, and ours favours the seed's first less than the seed did. */
        FALLS_SHORT("falls short"),
        /** Ours points the way the seed's does (both level counting as one way). */
        HOLDS("holds"),
        /** One of the two is level, and ours favours the seed's first more than the seed did. */
        EXCEEDED("exceeded"),
        /** No rows here answer it. */
        NOT_MEASURED("not measured");

        private final String words;

        Verdict(String words) {
            this.words = words;
        }

        /** The verdict as the page writes it. */
        public String words() {
            return words;
        }

        /** The CSS class of its chip: the words with hyphens. */
        public String css() {
            return words.replace(' ', '-');
        }
    }

    /**
     * One verdict for a claim from the verdicts of its cells: the one most measured cells have; on a tie, the least
     * favourable of the tied ones; {@link Verdict#NOT_MEASURED} when none was measured.
     */
    public static Verdict overall(List<Verdict> cells) {
        int[] counts = new int[Verdict.values().length];
        for (Verdict v : cells) {
            if (v != Verdict.NOT_MEASURED) {
                counts[v.ordinal()]++;
            }
        }
        Verdict best = Verdict.NOT_MEASURED;
        int most = 0;
        // the declaration order runs from the least favourable up, and only a strictly larger count replaces
        for (Verdict v : Verdict.values()) {
            if (v != Verdict.NOT_MEASURED && counts[v.ordinal()] > most) {
                most = counts[v.ordinal()];
                best = v;
            }
        }
        return best;
    }

    /**
     * A reading evaluated on one section's rows.
     *
     * @param ratio   ours: row over base (or over the seed's rate, or over memory), NaN when not measured
     * @param row     the row found, or null
     * @param base    the base row found, or null
     * @param verdict how the seed's claim fares
     */
    public record Outcome(double ratio, ReportRow row, ReportRow base, Verdict verdict) {
    }

    /** The seed's ratio for a row of its table: above 1 when its first figure is the faster. */
    public static double seedRatio(Comparison c, ClaimRow r) {
        if (!Double.isNaN(r.seedRatio())) {
            return r.seedRatio();
        }
        List<Double> s = r.seed();
        if (c.kind() != Kind.RATIO || s.size() < 2) {
            return Double.NaN;
        }
        return c.higherIsBetter() ? s.get(0) / s.get(1) : s.get(1) / s.get(0);
    }

    /**
     * Evaluates one reading for one row of a comparison on a section's rows.
     *
     * @param machine the machine record of the rows' document, for {@link Kind#MEMORY}; may be null
     */
    public static Outcome evaluate(Comparison c, ClaimRow claim, Reading reading, List<ReportRow> rows,
                                   Map<String, Object> machine) {
        Map<String, Object> rowSelector = new LinkedHashMap<>(reading.row());
        rowSelector.putAll(claim.key());
        Object threads = rowSelector.remove("threads");
        List<ReportRow> candidates = new ArrayList<>();
        for (ReportRow r : rows) {
            if (!r.isFio() && r.matches(rowSelector)) {
                candidates.add(r);
            }
        }
        candidates = byThreads(candidates, threads);
        if (candidates.isEmpty()) {
            return new Outcome(Double.NaN, null, null, Verdict.NOT_MEASURED);
        }
        ReportRow row = candidates.get(0);
        double value = row.number(reading.metric());
        switch (c.kind()) {
            case RATE -> {
                double seed = claim.seed().isEmpty() ? Double.NaN : claim.seed().get(0);
                double ratio = value / seed;
                return new Outcome(ratio, row, null, atLeast(ratio));
            }
            case MEMORY -> {
                double memory = machine != null && machine.get("memoryCopyMBps") instanceof Number n
                        ? n.doubleValue() : Double.NaN;
                double ratio = value / memory;
                return new Outcome(ratio, row, null, atLeast(ratio));
            }
            default -> {
                ReportRow base = base(reading, claim, row, rows);
                if (base == null) {
                    return new Outcome(Double.NaN, row, null, Verdict.NOT_MEASURED);
                }
                double ratio = value / base.number(reading.metric());
                return new Outcome(ratio, row, base, verdict(seedRatio(c, claim), ratio));
            }
        }
    }

    private static ReportRow base(Reading reading, ClaimRow claim, ReportRow row, List<ReportRow> rows) {
        if (reading.base() == null) {
            return null;
        }
        Map<String, Object> selector = new LinkedHashMap<>(reading.base());
        selector.putAll(claim.key());
        selector.remove("threads");
        if ("@baseline".equals(selector.get("engine"))) {
            if (row.baseline() == null) {
                return null;
            }
            selector.put("engine", row.baseline());
        }
        ReportRow anyThreads = null;
        for (ReportRow r : rows) {
            if (r != row && !r.isFio() && r.matches(selector)) {
                if (r.threads() == row.threads()) {
                    return r;
                }
                if (anyThreads == null) {
                    anyThreads = r;
                }
            }
        }
        // A baseline measured at one thread count only (a single-threaded loop) stands for every count, as in the
        // sections' own tables.
        return anyThreads;
    }

    private static List<ReportRow> byThreads(List<ReportRow> rows, Object threads) {
        if (threads == null || rows.isEmpty()) {
            return rows;
        }
        int want;
        if (threads instanceof Number n) {
            want = n.intValue();
        } else if ("min".equals(threads)) {
            want = rows.stream().mapToInt(ReportRow::threads).min().orElseThrow();
        } else if ("max".equals(threads)) {
            want = rows.stream().mapToInt(ReportRow::threads).max().orElseThrow();
        } else {
            throw new IllegalArgumentException("threads must be a number, min or max: " + threads);
        }
        return rows.stream().filter(r -> r.threads() == want).toList();
    }

    /** The verdict of a ratio of ours against the seed's: directions compared, level within {@link #LEVEL}. */
    public static Verdict verdict(double seedRatio, double ours) {
        if (Double.isNaN(seedRatio) || Double.isNaN(ours) || Double.isInfinite(ours) || ours <= 0) {
            return Verdict.NOT_MEASURED;
        }
        int seed = direction(seedRatio);
        int here = direction(ours);
        if (seed == here) {
            return Verdict.HOLDS;
        }
        if (seed != 0 && here == -seed) {
            return Verdict.INVERTED;
        }
        return here > seed ? Verdict.EXCEEDED : Verdict.FALLS_SHORT;
    }

    /** A rate of ours over the seed's (or over memory): reached within {@link #LEVEL}, beyond it, or short of it. */
    static Verdict atLeast(double ratio) {
        if (Double.isNaN(ratio) || Double.isInfinite(ratio) || ratio <= 0) {
            return Verdict.NOT_MEASURED;
        }
        int d = direction(ratio);
        return d > 0 ? Verdict.EXCEEDED : d < 0 ? Verdict.FALLS_SHORT : Verdict.HOLDS;
    }

    private static int direction(double ratio) {
        return ratio >= LEVEL ? 1 : ratio <= 1 / LEVEL ? -1 : 0;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o, String what) {
        if (!(o instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException(what + " must be a JSON object");
        }
        return (Map<String, Object>) m;
    }

    private static List<?> list(Object o, String what) {
        if (!(o instanceof List<?> l)) {
            throw new IllegalArgumentException(what + " must be a JSON array");
        }
        return l;
    }

    private static List<String> strings(Object o) {
        List<String> out = new ArrayList<>();
        if (o instanceof List<?> l) {
            for (Object v : l) {
                out.add(String.valueOf(v));
            }
        }
        return out;
    }

    private static String text(Object o) {
        return o == null ? null : String.valueOf(o);
    }
}
