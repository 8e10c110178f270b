package io.sluice.report;

import java.util.Map;

/**
 * One benchmark row as read from JSON (docs/bench-json.md): the fields every section writes, typed, and every field
 * kept for what a section adds ({@code cache}, {@code userSec}, ...). Missing or null numbers read as NaN.
 *
 * @param fields the row's members as {@link Json} read them
 */
public record ReportRow(Map<String, Object> fields) {
    /** Checks that the row names its contender and workload, the two fields nothing can be drawn without. */
    public ReportRow {
        // Nulls are kept (Map.copyOf would refuse them): a row written back keeps every member it was read with.
        fields = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(fields));
        if (!(fields.get("engine") instanceof String) || !(fields.get("workload") instanceof String)) {
            throw new IllegalArgumentException("a row needs string members engine and workload: " + fields.keySet());
        }
    }

    /** What was measured: an engine, a writer, a library, a chunk size ({@code engine}). */
    public String engine() {
        return (String) fields.get("engine");
    }

    /** {@code randread}, {@code seqwrite}, {@code fill}, {@code smallStored}, {@code maf-parse}, ... */
    public String workload() {
        return (String) fields.get("workload");
    }

    /** Bytes per operation; 0 when the row does not say. */
    public long blockSize() {
        double v = number("blockSize");
        return Double.isNaN(v) ? 0 : (long) v;
    }

    /** Threads (virtual threads for {@code randread-vthreads}); 1 when the row does not say. */
    public int threads() {
        double v = number("threads");
        return Double.isNaN(v) ? 1 : (int) v;
    }

    /** Median operations per millisecond over the rounds. */
    public double opsPerMs() {
        return number("opsPerMs");
    }

    /** Median MB/s (10^6 bytes) over the rounds. */
    public double mbPerSec() {
        return number("mbPerSec");
    }

    /** {@code (max - min) / median} over the rounds, as a fraction. */
    public double spread() {
        return number("spread");
    }

    /** Rounds measured; 0 when the row does not say. */
    public int rounds() {
        double v = number("rounds");
        return Double.isNaN(v) ? 0 : (int) v;
    }

    /** Requests in flight per thread; 1 when the row does not say. */
    public int depth() {
        double v = number("depth");
        return Double.isNaN(v) ? 1 : (int) v;
    }

    /** Whether the reads bypassed the page cache (O_DIRECT). */
    public boolean direct() {
        return Boolean.TRUE.equals(fields.get("direct"));
    }

    /** The fio row this row's {@code ratioToFio} is taken against, or null. */
    public String fioReference() {
        return text("fioReference");
    }

    /** The row this row's {@code ratioToBaseline} is taken against, or null. */
    public String baseline() {
        return text("baseline");
    }

    /** Whether this row is fio's, a reference rather than a contender of ours. */
    public boolean isFio() {
        return engine().startsWith("fio-") || engine().equals("fio");
    }

    /**
     * The slowest and fastest round's ops/ms, when the row carries them ({@code opsPerMsMin}, {@code opsPerMsMax});
     * otherwise the median widened by half the spread each way, the best the spread alone can say.
     *
     * @return {@code {low, high}} in ops/ms, NaN where nothing is known
     */
    public double[] opsRange() {
        double min = number("opsPerMsMin");
        double max = number("opsPerMsMax");
        if (!Double.isNaN(min) && !Double.isNaN(max)) {
            return new double[] {min, max};
        }
        double m = opsPerMs();
        double s = spread();
        if (Double.isNaN(m) || Double.isNaN(s)) {
            return new double[] {Double.NaN, Double.NaN};
        }
        return new double[] {Math.max(0, m * (1 - s / 2)), m * (1 + s / 2)};
    }

    /** Whether the range came from recorded per-round extremes rather than from the spread. */
    public boolean hasRecordedRange() {
        return !Double.isNaN(number("opsPerMsMin")) && !Double.isNaN(number("opsPerMsMax"));
    }

    /** A member as a number: NaN when missing, null or not a number. */
    public double number(String field) {
        return fields.get(field) instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    /** A member as text: strings as they are, numbers and booleans written out, null when missing. */
    public String text(String field) {
        Object v = fields.get(field);
        return switch (v) {
            case null -> null;
            case String s -> s;
            case Double d when d == Math.rint(d) && Math.abs(d) < 1e15 -> Long.toString(d.longValue());
            default -> v.toString();
        };
    }

    /**
     * Whether every member of {@code selector} equals this row's: numbers numerically, anything else as text, with
     * the defaults of {@link #depth}, {@link #threads}, {@link #blockSize} and {@link #direct} for rows that predate
     * those fields. A text value {@code ">N"} matches numbers above N ({@code "depth": ">1"}: batched rows).
     */
    public boolean matches(Map<String, Object> selector) {
        for (Map.Entry<String, Object> e : selector.entrySet()) {
            if (!matches(e.getKey(), e.getValue())) {
                return false;
            }
        }
        return true;
    }

    private boolean matches(String key, Object want) {
        if (key.equals("direct")) {
            return Boolean.valueOf(direct()).equals(want);
        }
        double have = switch (key) {
            // defaults apply: old rows have no depth, and every row has one thread unless it says otherwise
            case "depth" -> depth();
            case "threads" -> threads();
            case "blockSize" -> blockSize();
            default -> number(key);
        };
        if (want instanceof Number n) {
            return n.doubleValue() == have;
        }
        if (want instanceof String s && s.startsWith(">") && !Double.isNaN(have)) {
            try {
                return have > Double.parseDouble(s.substring(1).strip());
            } catch (NumberFormatException x) {
                return false;
            }
        }
        return String.valueOf(want).equals(text(key));
    }
}
