package io.sluice.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.Engine;
import io.sluice.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice bench chunks} end to end on a small file, and its summary arithmetic. */
class ChunksBenchTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    @Test
    void everyRowOfEveryTableIsMeasuredAndTheFileIsRemoved() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        Path json = dir.resolve("rows.json");
        int rc = run("bench", "chunks", "--size", "2m", "--chunk-sizes", "64k,128k,8m", "--ahead-sizes", "128k", "--raw",
                "--rounds", "2", "--dir", data.toString(), "--json", json.toString(), "--trace");
        assertEquals(Main.OK, rc, err::toString);
        String table = out.toString();
        for (String cell : new String[] {"maf-parse, warm", "raw-read, warm", "maf-parse, cold", "raw-read, cold"}) {
            assertTrue(table.contains(cell + " page cache, 2 MiB, CHANNEL"), cell + ":\n" + table);
        }
        assertTrue(table.contains("adaptive / best fixed ("), table);
        assertTrue(table.contains("adaptive / same round, median over rounds: "), table);
        assertTrue(table.contains("adaptive windows in trials: "), table);
        assertTrue(table.contains("128 KiB / 8 MiB: "), table);
        assertTrue(table.contains("the seed: 1.58 (30 / 19 MB/s, JRuby), 1.33 (24 / 18, MRI)"), table);
        assertTrue(table.contains("adaptive trace, maf-parse, warm (last round):"), table);
        assertTrue(table.contains("  128 KiB ahead "), table);
        assertTrue(err.toString().contains("adaptive first guess "), err::toString);

        String rows = Files.readString(json);
        Matcher m = Pattern.compile("\\{\"engine\": \"([^\"]+)\", \"workload\": \"(maf-parse|raw-read)\", "
                + "\"blockSize\": (\\d+), \"threads\": 1, \"opsPerMs\": [0-9.]+, \"mbPerSec\": ([0-9.]+).*?"
                + "\"file\": \"(cached|cold)\", \"baseline\": \"([^\"]+)\", \"ratioToBaseline\": ([0-9.]+), "
                + "\"cache\": \"(warm|cold)\", \"ioEngine\": \"CHANNEL\"([^}]*)}").matcher(rows);
        int n = 0;
        int adaptive = 0;
        int ahead = 0;
        while (m.find()) {
            n++;
            assertTrue(Double.parseDouble(m.group(4)) > 0, m.group());
            if (m.group(1).equals("adaptive")) {
                adaptive++;
                assertEquals("0", m.group(3));
                assertTrue(m.group(9).contains("\"settledSize\": ") && m.group(9).contains("\"worstRoundRatio\": "),
                        m.group());
                assertTrue(Pattern.compile("\"pairedRoundRatio\": [0-9.]+, \"roundRatio\": [0-9.]+, "
                        + "\"trialShare\": [0-9.]+, \"readAheadChosen\": \\[(true|false)(, (true|false))*]")
                        .matcher(m.group(9)).find(), m.group());
            }
            if (m.group(1).equals("128 KiB")) {
                assertTrue(m.group(9).contains("\"readAhead\": false") && m.group(9).contains("\"seedRatio\": 1.5789"),
                        m.group());
            }
            if (m.group(1).equals("128 KiB ahead")) {
                ahead++;
                assertEquals("131072", m.group(3));
                assertTrue(m.group(9).contains("\"readAhead\": true") && !m.group(9).contains("seedRatio"), m.group());
            }
        }
        assertEquals(20, n, "(3 sizes + 1 with read-ahead + adaptive) x parse and raw x warm and cold:\n" + rows);
        assertEquals(4, adaptive);
        assertEquals(4, ahead);
        try (Stream<Path> left = Files.list(data)) {
            assertEquals(List.of(), left.toList(), "the generated file is removed");
        }
    }

    @Test
    void badOptionsAreBadInput() {
        assertEquals(Main.BAD_INPUT, run("bench", "chunks", "--cache", "lukewarm", "--size", "1m"));
        assertTrue(err.toString().contains("unknown state 'lukewarm'"), err::toString);
        assertEquals(Main.BAD_INPUT, run("bench", "chunks", "--engine", "turbo", "--size", "1m"));
        assertEquals(Main.BAD_INPUT, run("bench", "chunks", "--chunk-sizes", "0", "--size", "1m"));
        assertEquals(Main.BAD_INPUT, run("bench", "chunks", "--rounds", "0", "--size", "1m"));
        assertEquals(Main.BAD_INPUT, run("bench", "chunks", "--ahead-sizes", "0", "--size", "1m"));
    }

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
