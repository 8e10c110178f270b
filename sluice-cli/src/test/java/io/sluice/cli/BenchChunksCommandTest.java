package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/** {@code sluice bench chunks} end to end on a small file. */
class BenchChunksCommandTest {
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
}
