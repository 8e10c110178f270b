package io.sluice.bench.jruby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A small real run of {@code sluice bench kv}: every row loads, finds every key it looks for, and scans. */
class KvBenchTest {
    @Test
    void everyRowRunsEveryOperationAndTheTableHasNoInternalTargets(@TempDir Path tmp) throws Exception {
        KvBench.Options o = new KvBench.Options(3000, 500, 200, 20, 1, tmp, null);
        StringWriter progress = new StringWriter();
        KvBench.Result r = KvBench.run(o, new PrintWriter(progress, true));
        assertEquals(Set.of(KvBench.SLUICE, KvBench.AUTO, KvBench.PSTORE, KvBench.JAVA), r.samples().keySet(),
                progress::toString);
        r.samples().forEach((row, ops) -> {
            assertEquals(Set.of("load", "get", "scan"), ops.keySet(), row);
            ops.forEach((op, samples) -> assertEquals(1, samples.size(), row + " " + op));
        });
        assertTrue(r.sizes().get(KvBench.SLUICE) > 0);
        // The JRuby child's progress comes to the caller's writer too, not to this JVM's standard error.
        assertTrue(progress.toString().contains("round 1: " + KvBench.SLUICE + ", 3000 entries"), progress::toString);
        StringWriter table = new StringWriter();
        KvBench.table(r, new PrintWriter(table, true));
        assertFalse(table.toString().contains("targets"), table::toString);
        assertFalse(table.toString().contains("met\n"), table::toString);
        assertTrue(table.toString().contains("x autoconv"), table::toString);
        StringWriter json = new StringWriter();
        KvBench.json(r, new PrintWriter(json, true));
        String j = json.toString();
        // Four stores times three operations, each a row with the shared fields.
        assertEquals(12, j.split("\"workload\": \"kv-", -1).length - 1, j);
        assertTrue(j.contains("{\"engine\": \"" + KvBench.SLUICE + "\", \"workload\": \"kv-get\", \"blockSize\": 3000"), j);
        assertTrue(j.contains("\"ratioToJava\": 1.0000"), "the Java row against itself: " + j);
        assertTrue(j.trim().startsWith("[") && j.trim().endsWith("]") && !j.contains(",\n]"), j);
    }

    @Test
    void keysSortAsTheirEntryNumbersWithinASequence() {
        // Entries i and i + 25 are one sequence, consecutive starts: their keys must sort in that order.
        assertTrue(java.util.Arrays.compareUnsigned(KvBench.key(7), KvBench.key(32)) < 0);
        assertEquals(16, KvBench.key(123_456).length);
        assertEquals(16, KvBench.value(123_456).length);
    }
}
