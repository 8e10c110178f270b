package io.sluice.bench;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/** Prints benchmark rows as a table grouped by workload and thread count, or as the JSON array scripts read. */
public final class Report {
    private Report() {
    }

    /** Rows grouped by (workload, threads), in the order they were measured. */
    static Map<String, List<Row>> cells(List<Row> rows) {
        Map<String, List<Row>> cells = new LinkedHashMap<>();
        for (Row r : rows) {
            // Rows differing only in depth (one request at a time, or a batch) are compared in one cell.
            Workload w = r.workload();
            String key = w.name() + "/" + w.blockSize() + "/" + w.direct() + "/" + w.file() + "/" + r.threads();
            cells.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
        }
        return cells;
    }

    private static Row find(List<Row> cell, String engine) {
        for (Row r : cell) {
            if (r.engine().equals(engine)) {
                return r;
            }
        }
        return null;
    }

    /** This row's median over the named row's median in the same cell, or NaN when that row is absent. */
    static double ratio(List<Row> cell, Row row, String engine) {
        return ratio(row, engine == null ? null : find(cell, engine));
    }

    private static double ratio(Row row, Row base) {
        return base == null || base.opsPerMs() == 0 ? Double.NaN : row.opsPerMs() / base.opsPerMs();
    }

    /**
     * The baseline row for a cell: the row of that name in the cell, or else, for a baseline measured at one thread
     * count only (a single-threaded loop, say), the row of that name on the same workload at any thread count.
     */
    static Row baseline(List<Row> rows, List<Row> cell, String engine) {
        Row inCell = find(cell, engine);
        if (inCell != null) {
            return inCell;
        }
        Workload w = cell.get(0).workload();
        for (Row r : rows) {
            if (r.engine().equals(engine) && r.workload().equals(w)) {
                return r;
            }
        }
        return null;
    }

    /** The read benchmark's table: ratios to CLASSIC. */
    public static void table(List<Row> rows, PrintWriter out) {
        table(rows, w -> "CLASSIC", out);
    }

    /** The table, with each row's ratio to the baseline {@code baseline} names for its workload. */
    public static void table(List<Row> rows, Function<Workload, String> baseline, PrintWriter out) {
        // Rows name their fio reference whether or not fio ran; the columns are for runs that have fio rows.
        boolean anyFio = rows.stream().anyMatch(r -> r.fioReference() != null
                && rows.stream().anyMatch(f -> f.engine().equals(r.fioReference())));
        for (List<Row> cell : cells(rows).values()) {
            Row first = cell.get(0);
            String base = baseline.apply(first.workload());
            Row baseRow = baseline(rows, cell, base);
            String ratioHeader = "x" + base;
            out.printf(Locale.ROOT, "%n%s, %d thread%s%n", first.workload().withDepth(1), first.threads(),
                    first.threads() == 1 ? "" : "s");
            List<String> headers = new ArrayList<>(List.of("engine", "ops/ms", "MB/s", "spread", ratioHeader));
            List<TextTable.Align> aligns = new ArrayList<>(List.of(TextTable.Align.LEFT, TextTable.Align.RIGHT,
                    TextTable.Align.RIGHT, TextTable.Align.RIGHT, TextTable.Align.RIGHT));
            if (anyFio) {
                // The ratio and the fio engine it is taken against are two columns, so that ratios line up whatever
                // the engine's name.
                headers.addAll(List.of("x fio", "fio engine"));
                aligns.addAll(List.of(TextTable.Align.RIGHT, TextTable.Align.LEFT));
            }
            TextTable table = new TextTable("  ", headers, aligns);
            for (Row r : cell) {
                double vsFio = ratio(cell, r, r.fioReference());
                List<String> cells = new ArrayList<>(List.of(label(r), String.format(Locale.ROOT, "%.1f",
                        r.opsPerMs()), String.format(Locale.ROOT, "%.1f", r.mbPerSec()),
                        String.format(Locale.ROOT, "%.1f%%", r.spread() * 100), fmt(ratio(r, baseRow))));
                if (anyFio) {
                    cells.add(fmt(vsFio));
                    cells.add(Double.isNaN(vsFio) ? "" : r.fioReference().substring(4));
                }
                table.row(cells.toArray(String[]::new));
            }
            table.print(out);
        }
        out.println();
        out.println("ops/ms and MB/s are medians over rounds; spread is (max - min) / median; x columns are ratios of");
        out.println("medians measured side by side in this run" + (anyFio
                ? " (x fio: against fio running the same job with the named engine)." : "."));
        out.flush();
    }

    /** The engine, and the depth when it keeps more than one request in flight. */
    private static String label(Row r) {
        return r.engine() + (r.workload().depth() > 1 ? " depth " + r.workload().depth() : "");
    }

    private static String fmt(double ratio) {
        return Double.isNaN(ratio) ? "" : String.format(Locale.ROOT, "%.2f", ratio);
    }

    /** The read benchmark's JSON: baseline CLASSIC. */
    public static void json(List<Row> rows, PrintWriter out) {
        json(rows, w -> "CLASSIC", out);
    }

    /**
     * One JSON array, one object per row. The field names are stable; scripts depend on them: {@code engine},
     * {@code workload}, {@code blockSize}, {@code threads}, {@code opsPerMs}, {@code mbPerSec} (medians),
     * {@code spread}, {@code rounds}, {@code ratioToClassic}, {@code fioReference}, {@code ratioToFio}, {@code direct},
     * {@code depth} (requests in flight per thread), and, added later, {@code file} ({@code new} or {@code cached}), {@code baseline} (the row the
     * {@code ratioToBaseline} is taken against: CLASSIC for reads), {@code opsPerMsMin} and {@code opsPerMsMax} (the
     * slowest and fastest round), and {@code forked} and {@code forks} (only on rows that say whether their contender
     * ran in a JVM of its own, and in how many one after another). docs/bench-json.md describes them all.
     */
    public static void json(List<Row> rows, Function<Workload, String> baseline, PrintWriter out) {
        Map<String, List<Row>> cells = cells(rows);
        out.println("[");
        int i = 0;
        for (List<Row> cell : cells.values()) {
            String base = baseline.apply(cell.get(0).workload());
            Row baseRow = baseline(rows, cell, base);
            for (Row r : cell) {
                out.printf(Locale.ROOT, "  {\"engine\": \"%s\", \"workload\": \"%s\", \"blockSize\": %d, \"threads\": %d, "
                                + "\"opsPerMs\": %.3f, \"mbPerSec\": %.3f, \"spread\": %.4f, \"rounds\": %d, "
                                + "\"opsPerMsMin\": %.3f, \"opsPerMsMax\": %.3f, \"ratioToClassic\": %s, \"fioReference\": %s, \"ratioToFio\": %s, \"direct\": %s, \"depth\": %d, "
                                + "\"file\": \"%s\", \"baseline\": \"%s\", \"ratioToBaseline\": %s%s}%s%n",
                        r.engine(), r.workload().name(), r.workload().blockSize(), r.threads(), r.opsPerMs(),
                        r.mbPerSec(), r.spread(), r.samples().size(), r.samples().stream().mapToDouble(Sample::opsPerMs)
                                .min().orElse(0), r.samples().stream().mapToDouble(Sample::opsPerMs).max().orElse(0),
                        num(ratio(cell, r, "CLASSIC")),
                        r.fioReference() == null ? "null" : "\"" + r.fioReference() + "\"",
                        num(ratio(cell, r, r.fioReference())), r.workload().direct(), r.workload().depth(),
                        r.workload().file(), base, num(ratio(r, baseRow)),
                        (r.forked() == null ? "" : ", \"forked\": " + r.forked())
                                + (r.forks() == null ? "" : ", \"forks\": " + r.forks()),
                        ++i < rows.size() ? "," : "");
            }
        }
        out.println("]");
        out.flush();
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "null" : String.format(Locale.ROOT, "%.4f", v);
    }
}
