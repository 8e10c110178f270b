package io.sluice.bench.jruby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small real run of {@code sluice bench kv}: every row loads, finds every key it looks for, and scans; the Kyoto
 * Cabinet rows run where ruby-kyotocabinet, g++ and libkyotocabinet-dev are installed, and are otherwise skipped with
 * a reason.
 */
class KvBenchTest {
    @Test
    void everyRowRunsEveryOperationAndTheTableHasNoInternalTargets(@TempDir Path tmp) throws Exception {
        KvBench.Options o = new KvBench.Options(3000, 500, 200, 20, 1, 2, "1g", tmp, null);
        StringWriter progress = new StringWriter();
        KvBench.Result r = KvBench.run(o, new PrintWriter(progress, true));
        Set<String> expected = new java.util.HashSet<>(Set.of(KvBench.SLUICE, KvBench.AUTO, KvBench.PSTORE,
                KvBench.JAVA, KvBench.KC_MRI, KvBench.KC_CPP));
        expected.removeAll(r.skipped().keySet());
        assertEquals(expected, r.samples().keySet(), progress::toString);
        r.skipped().forEach((row, why) -> {
            assertTrue(row.startsWith("KyotoCabinet"), row + " skipped: " + why);
            assertTrue(why.contains("apt-get install"), why);
            assertTrue(progress.toString().contains("no " + row + " row: " + why), progress::toString);
        });
        if (System.getenv("SLUICE_REQUIRE_KYOTOCABINET") != null) {
            assertEquals(Map.of(), r.skipped(), "Kyoto Cabinet is installed here, so its rows must run");
        }
        r.samples().forEach((row, ops) -> {
            assertEquals(Set.of("load", "get", "scan"), ops.keySet(), row);
            ops.forEach((op, samples) -> assertEquals(1, samples.size(), row + " " + op));
            assertTrue(r.sizes().get(row) > 0, row);
        });
        // The workers' progress comes to the caller's writer too, not to this JVM's standard error.
        assertTrue(progress.toString().contains("  " + KvBench.SLUICE + ": worker " + KvBench.SLUICE + ": jruby"),
                progress::toString);
        // Every round runs every row, in an order rotated by one each round; the two warm-up rounds come first and
        // their samples are dropped (one sample per row and operation above).
        List<String> rounds = progress.toString().lines().filter(l -> l.startsWith("round ")).toList();
        assertEquals(3, rounds.size(), progress::toString);
        assertTrue(rounds.get(0).startsWith("round 0 (warm-up, not counted): "), rounds::toString);
        assertTrue(rounds.get(1).startsWith("round 1 (warm-up, not counted): "), rounds::toString);
        assertTrue(rounds.get(2).startsWith("round 2: "), rounds::toString);
        List<String> first = List.of(rounds.get(0).substring(rounds.get(0).indexOf(": ") + 2).split(", "));
        List<String> second = List.of(rounds.get(1).substring(rounds.get(1).indexOf(": ") + 2).split(", "));
        assertEquals(expected, Set.copyOf(first));
        List<String> rotated = new java.util.ArrayList<>(first);
        java.util.Collections.rotate(rotated, -1);
        assertEquals(rotated, second);
        StringWriter table = new StringWriter();
        KvBench.table(r, new PrintWriter(table, true));
        assertFalse(table.toString().contains("targets"), table::toString);
        assertFalse(table.toString().contains("met\n"), table::toString);
        assertTrue(table.toString().contains("x autoconv"), table::toString);
        assertTrue(table.toString().contains("medians of 1 rounds after 2 warm-up rounds"), table::toString);
        // Every JVM worker started with the heap asked for, and the table says so.
        assertTrue(progress.toString().contains("sluice bench kv: " + KvBench.JAVA + ": "), progress::toString);
        for (String row : List.of(KvBench.SLUICE, KvBench.JAVA)) {
            String started = progress.toString().lines().filter(l -> l.startsWith("sluice bench kv: " + row + ": "))
                    .findFirst().orElseThrow();
            assertTrue(started.contains(" -Xms1g -Xmx1g -Xmn512m -XX:+AlwaysPreTouch -XX:+UseG1GC "), started);
        }
        assertTrue(table.toString().contains("-Xms1g -Xmx1g -Xmn512m -XX:+AlwaysPreTouch -XX:+UseG1GC; System.gc()"),
                table::toString);
        StringWriter json = new StringWriter();
        KvBench.json(r, new PrintWriter(json, true));
        String j = json.toString();
        // Every store times three operations, each a row with the shared fields.
        assertEquals(3 * expected.size(), j.split("\"workload\": \"kv-", -1).length - 1, j);
        assertTrue(j.contains("{\"engine\": \"" + KvBench.SLUICE + "\", \"workload\": \"kv-get\", \"blockSize\": 3000"), j);
        assertTrue(j.contains("\"ratioToJava\": 1.0000"), "the Java row against itself: " + j);
        assertTrue(j.trim().startsWith("[") && j.trim().endsWith("]") && !j.contains(",\n]"), j);
    }

    @Test
    void theKyotoCabinetRowsAreSkippedWithTheReasonWhenTheirToolsAreMissing(@TempDir Path tmp) throws Exception {
        String ruby = System.getProperty(KvBench.RUBY);
        String cxx = System.getProperty(KvBench.CXX);
        System.setProperty(KvBench.RUBY, tmp.resolve("no-ruby").toString());
        System.setProperty(KvBench.CXX, tmp.resolve("no-g++").toString());
        try {
            StringWriter progress = new StringWriter();
            KvBench.Result r = KvBench.run(new KvBench.Options(500, 0, 20, 2, 1, tmp, null),
                    new PrintWriter(progress, true));
            assertEquals(Set.of(KvBench.KC_MRI, KvBench.KC_CPP), r.skipped().keySet(), progress::toString);
            assertTrue(r.skipped().get(KvBench.KC_MRI).startsWith("no " + tmp.resolve("no-ruby")),
                    r.skipped()::toString);
            assertTrue(r.skipped().get(KvBench.KC_MRI).endsWith("apt-get install ruby ruby-kyotocabinet"),
                    r.skipped()::toString);
            assertTrue(r.skipped().get(KvBench.KC_CPP).endsWith("apt-get install g++ libkyotocabinet-dev"),
                    r.skipped()::toString);
            assertEquals(Set.of(KvBench.SLUICE, KvBench.AUTO, KvBench.JAVA), r.samples().keySet());
            StringWriter table = new StringWriter();
            KvBench.table(r, new PrintWriter(table, true));
            assertTrue(table.toString().contains("no " + KvBench.KC_CPP + " row: no " + tmp.resolve("no-g++")),
                    table::toString);
        } finally {
            restore(KvBench.RUBY, ruby);
            restore(KvBench.CXX, cxx);
        }
    }

    private static void restore(String property, String value) {
        if (value == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, value);
        }
    }

    @Test
    void everyJvmRowGetsTheSameFixedPreTouchedHeapAndCollector(@TempDir Path tmp) throws Exception {
        KvBench.Options o = new KvBench.Options(1000, 0, 10, 1, 1, 1, "2g", tmp, null);
        List<String> heap = List.of("-Xms2g", "-Xmx2g", "-Xmn512m", "-XX:+AlwaysPreTouch", "-XX:+UseG1GC");
        List<String> javaRow = KvBench.javaCommand(o);
        List<String> jruby = KvBench.jrubyCommand(o, KvBench.SLUICE);
        // The options go before the main class, where the JVM reads them rather than passing them to main.
        int inJava = java.util.Collections.indexOfSubList(javaRow, heap);
        int inJRuby = java.util.Collections.indexOfSubList(jruby, heap);
        assertTrue(inJava > 0 && inJava < javaRow.indexOf(KvBench.class.getName()), javaRow::toString);
        assertTrue(inJRuby > 0 && inJRuby < jruby.indexOf("org.jruby.Main"), jruby::toString);
        assertEquals(KvBench.ranWith(KvBench.JAVA, o).replace("JVM ", ""),
                KvBench.ranWith(KvBench.SLUICE, o).replace("JRuby on a JVM ", ""));
        assertEquals("C++ (g++ -O2), no collector", KvBench.ranWith(KvBench.KC_CPP, o));
    }

    @Test
    void warmUpRoundsComeFirstAndAreNotCounted(@TempDir Path tmp) {
        KvBench.Options o = new KvBench.Options(1000, 0, 10, 1, 3, 2, "1g", tmp, null);
        assertFalse(o.measured(0));
        assertFalse(o.measured(1));
        assertTrue(o.measured(2));
        assertTrue(o.measured(4));
        assertEquals(KvBench.WARMUP, new KvBench.Options(1000, 0, 10, 1, 3, tmp, null).warmup());
        assertEquals(KvBench.HEAP, new KvBench.Options(1000, 0, 10, 1, 3, tmp, null).heap());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new KvBench.Options(1000, 0, 10, 1, 3, 0, "1g", tmp, null));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new KvBench.Options(1000, 0, 10, 1, 3, 1, "-Xmx1g", tmp, null));
        assertTrue(e.getMessage().contains("--heap") && e.getMessage().contains("-Xmx1g"), e::getMessage);
    }

    @Test
    void theTableGivesEachRowsMedianSlowestAndFastestRoundAndSpread(@TempDir Path tmp) {
        // Three rounds of 1000 entries in 1 s, 0.5 s and 2 s: 1000, 2000 and 500 entries/s.
        Map<String, List<KvBench.Sample>> ops = new java.util.LinkedHashMap<>();
        for (String op : List.of("load", "get", "scan")) {
            ops.put(op, List.of(new KvBench.Sample(1000, 1.0, 1000, 1.0), new KvBench.Sample(1000, 0.5, 1000, 0.5),
                    new KvBench.Sample(1000, 2.0, 1000, 1.0)));
        }
        KvBench.Options o = new KvBench.Options(1000, 0, 10, 1, 3, 2, "3g", tmp, null);
        KvBench.Result r = new KvBench.Result(Map.of(KvBench.JAVA, ops), Map.of(KvBench.JAVA, 4096L), Map.of(), o);
        assertEquals(500, KvBench.min(ops.get("load")));
        assertEquals(2000, KvBench.max(ops.get("load")));
        assertEquals(1.5, KvBench.spread(ops.get("load")), 1e-9);
        StringWriter table = new StringWriter();
        KvBench.table(r, new PrintWriter(table, true));
        String t = table.toString();
        assertTrue(t.contains("load (entries/s; medians of 3 rounds after 2 warm-up rounds)"), t);
        assertTrue(t.lines().anyMatch(l -> l.matches(KvBench.JAVA + " +1000 +1000 +500 +2000 +150\\.0% .*")), t);
        assertTrue(t.matches("(?s).*\\bmin +max +spread\\b.*"), t);
        assertTrue(t.contains(KvBench.JAVA + "  JVM -Xms3g -Xmx3g -Xmn512m -XX:+AlwaysPreTouch -XX:+UseG1GC; "
                + "System.gc()"), t);
        StringWriter json = new StringWriter();
        KvBench.json(r, new PrintWriter(json, true));
        assertTrue(json.toString().contains("\"opsPerMs\": 1.000, \"mbPerSec\": null, \"spread\": 1.5000, "
                + "\"rounds\": 3, \"opsPerMsMin\": 0.500, \"opsPerMsMax\": 2.000"), json::toString);
    }

    @Test
    void keysSortAsTheirEntryNumbersWithinASequence() {
        // Entries i and i + 25 are one sequence, consecutive starts: their keys must sort in that order.
        assertTrue(java.util.Arrays.compareUnsigned(KvBench.key(7), KvBench.key(32)) < 0);
        assertEquals(16, KvBench.key(123_456).length);
        assertEquals(16, KvBench.value(123_456).length);
    }

    /**
     * The Java row's scan gets each key and value from the cursor and reads a byte of both, as the Ruby rows' scan
     * (kv_bench.rb's scan_from) does: its count depends on the keys' bytes and the values', entry by entry in key
     * order, and stops at the last entry.
     */
    @Test
    void theJavaScanReadsABitOfEveryKeyAndValueInKeyOrder(@TempDir Path tmp) throws Exception {
        int n = 300;
        List<Integer> order = new java.util.ArrayList<>();
        try (io.sluice.db.KvStore kv = io.sluice.db.KvStore.open(tmp.resolve("s.db"), true, true, true)) {
            for (int i = 0; i < n; i++) {
                kv.put(KvBench.key(i), KvBench.value(i));
                order.add(i);
            }
            order.sort((a, b) -> java.util.Arrays.compareUnsigned(KvBench.key(a), KvBench.key(b)));
            io.sluice.db.KvCursor cur = kv.cursor();
            for (int from : new int[] {0, 10, 137, order.get(n - 40)}) {
                int at = order.indexOf(from);
                int expected = 0;
                int keysOnly = 0;
                int valuesOnly = 0;
                for (int e : order.subList(at, Math.min(n, at + 100))) {
                    expected += KvBench.key(e)[3] & KvBench.value(e)[15] & 1;
                    keysOnly += KvBench.key(e)[3] & 1;
                    valuesOnly += KvBench.value(e)[15] & 1;
                }
                // A scan that skipped the keys' or the values' bytes would count otherwise.
                assertTrue(expected != keysOnly && expected != valuesOnly, "from entry " + from);
                assertEquals(expected, KvBench.scanFrom(cur, KvBench.key(from)), "from entry " + from);
            }
        }
    }
}
