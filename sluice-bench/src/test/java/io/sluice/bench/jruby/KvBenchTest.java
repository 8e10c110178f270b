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
        KvBench.Options o = new KvBench.Options(3000, 500, 200, 20, 1, tmp, null);
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
        // Every round runs every row, in an order rotated by one each round.
        List<String> rounds = progress.toString().lines().filter(l -> l.startsWith("round ")).toList();
        assertEquals(2, rounds.size(), progress::toString);
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
    void keysSortAsTheirEntryNumbersWithinASequence() {
        // Entries i and i + 25 are one sequence, consecutive starts: their keys must sort in that order.
        assertTrue(java.util.Arrays.compareUnsigned(KvBench.key(7), KvBench.key(32)) < 0);
        assertEquals(16, KvBench.key(123_456).length);
        assertEquals(16, KvBench.value(123_456).length);
    }
}
