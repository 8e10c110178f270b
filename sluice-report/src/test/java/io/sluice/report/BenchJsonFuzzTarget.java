package io.sluice.report;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the fuzzer does with arbitrary bytes: reads them as a bench JSON file, as {@code sluice report} does, and
 * renders the page of what was read. The contract checked:
 * <ul>
 *   <li>{@link ReportInput#parse} throws nothing: text that is not benchmark rows is skipped with warnings, each
 *       naming the source;</li>
 *   <li>{@link Json#parse} returns a value or throws an {@link IllegalArgumentException} saying where; a value read
 *       and written back by {@link Json#write} reads again as the same value (a number that is not finite, which
 *       JSON cannot say, as null);</li>
 *   <li>every row of a document read names its engine and workload, and {@link ReportPage#render} makes a page of
 *       the document without throwing.</li>
 * </ul>
 * Inputs are cut to {@link #MAX_BYTES}.
 */
final class BenchJsonFuzzTarget {
    static final String NAME = "fuzzed.json";
    /** The longest input used: the seeds are 1 to 5 KiB. */
    static final int MAX_BYTES = 64 << 10;
    private static final SeedClaims CLAIMS = SeedClaims.load();

    private BenchJsonFuzzTarget() {
    }

    /** Returns the number of rows read; throws AssertionError on a misbehaviour. */
    static int exercise(byte[] bytes) {
        String text = new String(bytes, 0, Math.min(bytes.length, MAX_BYTES), StandardCharsets.UTF_8);
        roundTrip(text);
        List<String> warnings = new ArrayList<>();
        Optional<ReportDocument> doc;
        try {
            doc = ReportInput.parse(text, NAME, warnings::add);
        } catch (RuntimeException e) {
            throw new AssertionError("ReportInput.parse threw " + e, e);
        }
        for (String w : warnings) {
            if (!w.contains(NAME)) {
                throw new AssertionError("warning without the source: " + w);
            }
        }
        if (doc.isEmpty()) {
            if (warnings.isEmpty()) {
                throw new AssertionError("skipped without a warning");
            }
            return 0;
        }
        int rows = 0;
        for (ReportSection s : doc.get().sections()) {
            for (ReportRow r : s.rows()) {
                if (r.engine() == null || r.workload() == null) {
                    throw new AssertionError("a row without engine or workload: " + r);
                }
                rows++;
            }
        }
        try {
            ReportPage.render(List.of(doc.get()), CLAIMS, "fuzz", "fuzz");
        } catch (RuntimeException e) {
            throw new AssertionError("ReportPage.render threw " + e, e);
        }
        return rows;
    }

    private static void roundTrip(String text) {
        Object v;
        try {
            v = Json.parse(text);
        } catch (IllegalArgumentException e) {
            String m = e.getMessage();
            if (m == null || !m.startsWith("not JSON: ") || !m.contains(" at line ")) {
                throw new AssertionError("JSON error without a place: " + e.getMessage(), e);
            }
            return;
        } catch (RuntimeException e) {
            throw new AssertionError("Json.parse threw " + e, e);
        }
        StringBuilder out = new StringBuilder();
        Json.write(v, out);
        Object again;
        try {
            again = Json.parse(out.toString());
        } catch (IllegalArgumentException e) {
            throw new AssertionError("Json.write wrote what Json.parse refuses: " + out, e);
        }
        if (!same(v, again)) {
            throw new AssertionError("written and read back as another value:\n" + v + "\n" + again);
        }
    }

    /** Equal values, where a number that is not finite equals null (what {@link Json#write} makes of it). */
    private static boolean same(Object a, Object b) {
        if (a instanceof Double d && !Double.isFinite(d)) {
            return b == null;
        }
        if (a instanceof Double x && b instanceof Double y) {
            return x.doubleValue() == y.doubleValue();
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            for (int i = 0; i < x.size(); i++) {
                if (!same(x.get(i), y.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            if (!x.keySet().equals(y.keySet())) {
                return false;
            }
            Iterator<?> i = x.keySet().iterator();
            Iterator<?> j = y.keySet().iterator();
            while (i.hasNext()) {
                Object k = i.next();
                if (!k.equals(j.next()) || !same(x.get(k), y.get(k))) {
                    return false;
                }
            }
            return true;
        }
        return a == null ? b == null : a.equals(b);
    }
}
