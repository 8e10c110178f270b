package io.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The read table's layout, on rows made up so that the fio column holds engines of different name lengths. */
class ReportTableTest {
    private static Row row(String engine, String fio, double opsPerMs) {
        Workload w = new Workload(Workload.RANDREAD, 4096);
        return new Row(engine, w, 1, fio, List.of(new Sample(opsPerMs, opsPerMs * 4096 * 1000)));
    }

    private static List<String> tableLines(List<Row> rows) {
        StringWriter s = new StringWriter();
        Report.table(rows, new PrintWriter(s, true));
        List<String> lines = new ArrayList<>();
        boolean in = false;
        for (String l : s.toString().split("\n")) {
            in = l.startsWith("  engine") || in && !l.isBlank();
            if (in) {
                lines.add(l);
            }
        }
        return lines;
    }

    @Test
    void theFioRatiosLineUpWhateverTheFioEngineIsCalled() {
        List<Row> rows = List.of(row("CLASSIC", "fio-psync", 100), row("IO_URING depth 32", "fio-io_uring", 1234.5),
                row("fio-psync", null, 98), row("fio-io_uring", null, 1200));
        List<String> lines = tableLines(rows);
        assertEquals(5, lines.size(), lines::toString);
        String header = lines.getFirst();
        assertTrue(header.contains("x fio"), header);
        // Every ratio ends where the header's "x fio" ends, so their decimal points line up.
        int end = header.indexOf("x fio") + "x fio".length();
        Set<Integer> points = new TreeSet<>();
        for (String l : lines.subList(1, 3)) {
            assertTrue(l.length() > end && l.charAt(end) == ' ' && l.charAt(end - 3) == '.', l + "\n" + header);
            points.add(l.lastIndexOf('.', end));
        }
        assertEquals(1, points.size(), String.join("\n", lines));
        assertTrue(lines.get(1).endsWith("1.02  psync"), lines.get(1));
        assertTrue(lines.get(2).endsWith("1.03  io_uring"), lines.get(2));
    }

    @Test
    void withoutFioRowsThereAreNoFioColumns() {
        List<String> lines = tableLines(List.of(row("CLASSIC", "fio-psync", 100), row("CHANNEL", "fio-psync", 150)));
        assertEquals(3, lines.size(), lines::toString);
        assertFalse(lines.getFirst().contains("fio"), lines.getFirst());
        assertTrue(lines.get(2).endsWith("1.50"), lines.get(2));
    }
}
