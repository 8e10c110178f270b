package io.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.Engine;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code sluice bench chunks}' summary arithmetic. */
class ChunksBenchTest {
    private static ChunksBench.Result result(String name, int chunk, double... mbPerSec) {
        List<Sample> samples = java.util.Arrays.stream(mbPerSec).mapToObj(v -> new Sample(0, v * 1e6)).toList();
        return chunk == 0
                ? new ChunksBench.Result(name, chunk, false, ChunksBench.PARSE, ChunksBench.WARM, samples,
                        List.of(256 << 10, 256 << 10, 128 << 10), List.of(0.25, 0.05, 0.1), List.of(), 1, 1)
                : new ChunksBench.Result(name, chunk, false, ChunksBench.PARSE, ChunksBench.WARM, samples, List.of(),
                        List.of(), List.of(), 1, 1);
    }

    @Test
    void theSummaryComparesSideBySideRoundByRound() {
        ChunksBench.Result k128 = result("128 KiB", 128 << 10, 300, 310, 290);
        ChunksBench.Result k256 = result("256 KiB", 256 << 10, 320, 330, 280);
        ChunksBench.Result m8 = result("8 MiB", 8 << 20, 200, 210, 190);
        ChunksBench.Result ad = result(ChunksBench.ADAPTIVE, 0, 310, 300, 280);
        List<ChunksBench.Result> cell = List.of(k128, k256, m8, ad);
        assertEquals(k256, ChunksBench.bestFixed(cell), "the highest median");
        // Round by round against 256 KiB: 310/320, 300/330, 280/280; the worst is the second, the median the first.
        assertEquals(300.0 / 330, ChunksBench.worstRound(ad, k256), 1e-12);
        assertEquals(310.0 / 320, ChunksBench.pairedRatio(ad, k256), 1e-12);
        // Against the fastest fixed run of each round: 310/320, 300/330, 280/290 (128 KiB won the last round).
        assertEquals(280.0 / 290, ChunksBench.roundRatio(ad, cell), 1e-12);
        assertEquals(0.1, ChunksBench.trialShare(ad), 1e-12);
        assertEquals("256 KiB (2/3), 128 KiB (1/3)", ChunksBench.settled(ad.settled()));
        StringWriter table = new StringWriter();
        ChunksBench.table(cell, Engine.CHANNEL, 1 << 30, List.of("a note"), new PrintWriter(table));
        String t = table.toString();
        assertTrue(t.contains("adaptive / best fixed (256 KiB): 0.94 median, 0.91 in the worst round"), t);
        assertTrue(t.contains("adaptive / same round, median over rounds: 0.97 against 256 KiB's run, 0.97 against "
                + "the fastest fixed run"), t);
        assertTrue(t.contains("adaptive windows in trials: 10% (median over runs)"), t);
        assertTrue(t.contains("128 KiB / 8 MiB: 1.50 here"), t);
        assertTrue(t.contains("note: a note"), t);
        StringWriter json = new StringWriter();
        ChunksBench.json(cell, Engine.CHANNEL, new PrintWriter(json));
        assertTrue(json.toString().contains("\"engine\": \"adaptive\", \"workload\": \"maf-parse\", \"blockSize\": 0"),
                json.toString());
        assertTrue(json.toString().contains("\"settledSize\": 262144, \"settledSizes\": [262144, 262144, 131072], "
                + "\"worstRoundRatio\": 0.9091, \"pairedRoundRatio\": 0.9688, \"roundRatio\": 0.9655, "
                + "\"trialShare\": 0.1000"), json.toString());
    }
}
