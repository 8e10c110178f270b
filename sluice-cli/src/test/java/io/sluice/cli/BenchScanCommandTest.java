package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.bench.ScanBench;
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

/** {@code sluice bench scan} end to end on a small file. */
class BenchScanCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    @Test
    void everyRowIsMeasuredAgreesWithTheBaselineAndTheFileIsRemoved() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        Path json = dir.resolve("rows.json");
        int rc = run("bench", "scan", "--rows", "30_000", "--rounds", "2", "--threads", "1,2", "--dir",
                data.toString(), "--json", json.toString());
        assertEquals(Main.OK, rc, err::toString);
        String table = out.toString();
        assertTrue(table.contains("1brc: 30,000 rows, "), table);
        assertTrue(table.contains(" 413 stations, 2 rounds"), table);
        for (String row : new String[] {"baseline            1", "ParallelScan        1", "ParallelScan        2"}) {
            assertTrue(table.contains(row), row + ":\n" + table);
        }
        assertTrue(table.contains("Every run's output was the\nbaseline's, character for character: {Abha="), table);
        assertTrue(err.toString().contains("output identical to the baseline's"), err::toString);

        String rows = Files.readString(json);
        Matcher m = Pattern.compile("\\{\"engine\": \"(baseline|ParallelScan)\", \"workload\": \"1brc\", "
                + "\"blockSize\": 0, \"threads\": (\\d), \"opsPerMs\": ([0-9.]+), \"mbPerSec\": [0-9.]+, "
                + "\"spread\": [0-9.]+, \"rounds\": 2, .*?\"file\": \"cached\", \"baseline\": \"baseline\", "
                + "\"ratioToBaseline\": ([0-9.]+), \"seconds\": [0-9.]+, \"rows\": 30000, \"fileBytes\": (\\d+), "
                + "\"rowsPerSec\": [0-9.]+, \"outputMatchesBaseline\": true}").matcher(rows);
        int n = 0;
        while (m.find()) {
            n++;
            assertTrue(Double.parseDouble(m.group(3)) > 0, m.group());
            if (m.group(1).equals("baseline")) {
                assertEquals("1.0000", m.group(4));
            }
            assertTrue(Long.parseLong(m.group(5)) > 30_000 * 6, m.group());
        }
        assertEquals(3, n, rows);
        try (Stream<Path> left = Files.list(data)) {
            assertEquals(List.of(), left.toList(), "the file is removed at the end");
        }
    }

    @Test
    void aKeptFileIsUsedAgain() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        String[] args = {"bench", "scan", "--rows", "5000", "--rounds", "1", "--threads", "2", "--dir",
                data.toString(), "--keep-file", "--print-result"};
        assertEquals(Main.OK, run(args), err::toString);
        Path kept = data.resolve(ScanBench.fileName(5000, 1));
        assertTrue(Files.isRegularFile(kept), "kept in --dir");
        byte[] first = Files.readAllBytes(kept);
        err.getBuffer().setLength(0);
        assertEquals(Main.OK, run(args), err::toString);
        assertTrue(err.toString().contains("using " + kept + ", kept from an earlier run"), err::toString);
        assertArrayEquals(first, Files.readAllBytes(kept));
        assertFalse(out.toString().contains(", ..., "), "--print-result prints all of it");
        try (Stream<Path> left = Files.list(data)) {
            assertEquals(List.of(kept), left.toList(), "only the kept file stays");
        }
    }

    @Test
    void badRowsAndRoundsAreRefusedBeforeAnythingIsWritten() {
        assertEquals(Main.BAD_INPUT, run("bench", "scan", "--rows", "lots", "--dir", dir.toString()));
        assertTrue(err.toString().contains("--rows: not a whole number: 'lots'"), err::toString);
        assertEquals(Main.BAD_INPUT, run("bench", "scan", "--rows", "0", "--dir", dir.toString()));
        assertEquals(Main.BAD_INPUT, run("bench", "scan", "--rounds", "0", "--dir", dir.toString()));
        assertEquals(Main.BAD_INPUT, run("bench", "scan", "--rows", "900_000_000_000_000_000", "--dir",
                dir.toString()));
        assertTrue(err.toString().contains("is free there"), err::toString);
        assertEquals(Main.OK, run("bench", "--help"));
        assertTrue(out.toString().contains("'sluice bench scan'"), out::toString);
    }
}
