package io.sluice.cli.bench;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
            String key = w.name() + "/" + w.blockSize() + "/" + w.direct() + "/" + r.threads();
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
        Row base = engine == null ? null : find(cell, engine);
        return base == null || base.opsPerMs() == 0 ? Double.NaN : row.opsPerMs() / base.opsPerMs();
    }

    /** The read benchmark's table: ratios to CLASSIC and to fio. */
    public static void table(List<Row> rows, PrintWriter out) {
        table(rows, out, "CLASSIC");
    }

    /**
     * The table with a ratio column to the row named by the first of {@code baselines} present in each cell; the fio
     * column is shown only when some row has a fio reference.
     */
    public static void table(List<Row> rows, PrintWriter out, String... baselines) {
        boolean fio = rows.stream().anyMatch(r -> r.fioReference() != null);
        int width = Math.max(13, rows.stream().mapToInt(r -> label(r).length()).max().orElse(0));
        for (List<Row> cell : cells(rows).values()) {
            Row first = cell.get(0);
            Workload w = first.workload();
            String baseline = baselines[0];
            for (String b : baselines) {
                if (find(cell, b) != null) {
                    baseline = b;
                    break;
                }
            }
            out.printf(Locale.ROOT, "%n%s %s%s, %d thread%s%n", w.name(), ByteSize.format(w.blockSize()),
                    w.direct() ? ", O_DIRECT" : "", first.threads(), first.threads() == 1 ? "" : "s");
            out.printf(Locale.ROOT, "  %-" + width + "s %10s %10s %7s %9s %15s%n", "engine", "ops/ms", "MB/s",
                    "spread", "x" + baseline, fio ? "x fio" : "");
            for (Row r : cell) {
                double vsBaseline = ratio(cell, r, baseline);
                double vsFio = ratio(cell, r, r.fioReference());
                out.printf(Locale.ROOT, "  %-" + width + "s %10s %10.1f %6.1f%% %9s %15s%n", label(r),
                        ops(r.opsPerMs()), r.mbPerSec(), r.spread() * 100, fmt(vsBaseline),
                        Double.isNaN(vsFio) ? "" : fmt(vsFio) + " " + r.fioReference().substring(4));
            }
        }
        out.println();
        out.println("ops/ms and MB/s are medians over rounds; spread is (max - min) / median; x columns are ratios of");
        out.println("medians measured side by side in this run" + (fio
                ? " (x fio: against fio running the same job with the named engine)." : "."));
        out.flush();
    }

    /** The engine, and the depth when it keeps more than one request in flight. */
    private static String label(Row r) {
        return r.engine() + (r.workload().depth() > 1 ? " depth " + r.workload().depth() : "");
    }

    /** One decimal, or three significant digits below 10 so that slow operations (whole big entries) still show. */
    private static String ops(double opsPerMs) {
        return String.format(Locale.ROOT, opsPerMs >= 10 ? "%.1f" : "%.3g", opsPerMs);
    }

    private static String fmt(double ratio) {
        return Double.isNaN(ratio) ? "" : String.format(Locale.ROOT, "%.2f", ratio);
    }

    /**
     * One JSON array, one object per row. The field names are stable; scripts depend on them: {@code engine},
     * {@code workload}, {@code blockSize}, {@code threads}, {@code opsPerMs}, {@code mbPerSec} (medians),
     * {@code spread}, {@code rounds}, {@code ratioToClassic}, {@code fioReference}, {@code ratioToFio}, {@code direct}, {@code depth}.
     */
    public static void json(List<Row> rows, PrintWriter out) {
        json(rows, out, null);
    }

    /**
     * The JSON array as {@link #json(List, PrintWriter)}, each object followed, when {@code baseline} is not null, by
     * {@code baseline} (its name) and {@code ratioToBaseline}.
     */
    public static void json(List<Row> rows, PrintWriter out, String baseline) {
        Map<String, List<Row>> cells = cells(rows);
        out.println("[");
        int i = 0;
        for (List<Row> cell : cells.values()) {
            for (Row r : cell) {
                out.printf(Locale.ROOT, "  {\"engine\": \"%s\", \"workload\": \"%s\", \"blockSize\": %d, \"threads\": %d, "
                                + "\"opsPerMs\": %.3f, \"mbPerSec\": %.3f, \"spread\": %.4f, \"rounds\": %d, "
                                + "\"ratioToClassic\": %s, \"fioReference\": %s, \"ratioToFio\": %s, \"direct\": %s, "
                                + "\"depth\": %d%s}%s%n",
                        r.engine(), r.workload().name(), r.workload().blockSize(), r.threads(), r.opsPerMs(),
                        r.mbPerSec(), r.spread(), r.samples().size(), num(ratio(cell, r, "CLASSIC")),
                        r.fioReference() == null ? "null" : "\"" + r.fioReference() + "\"",
                        num(ratio(cell, r, r.fioReference())), r.workload().direct(), r.workload().depth(),
                        baseline == null ? "" : ", \"baseline\": \"" + baseline
                                + "\", \"ratioToBaseline\": " + num(ratio(cell, r, baseline)),
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
