package io.sluice.cli.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.ParallelScan;
import io.sluice.cli.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice bench scan} end to end on a small file, its generator, and the ParallelScan parser against the
 * baseline on files made to be awkward.
 */
class ScanBenchTest {
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
        Path kept = data.resolve(Measurements.fileName(5000, 1));
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

    @Test
    void theGeneratorWritesTheFormatFromTheStationListDeterministically() throws IOException {
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        int rows = Measurements.CHUNK_ROWS + 1000; // two chunks
        PrintWriter quiet = new PrintWriter(new StringWriter());
        long size = Measurements.write(a, dir.resolve("a.partial"), rows, 7, 2, quiet);
        Measurements.write(b, dir.resolve("b.partial"), rows, 7, 1, quiet);
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b), "the same on 1 thread and 2");
        assertEquals(size, Files.size(a));
        assertTrue(size < Measurements.estimatedSize(rows), "the estimate is an upper bound");
        Set<String> names = new HashSet<>();
        Stations.all().forEach(s -> names.add(s.name()));
        assertEquals(413, names.size());
        Pattern line = Pattern.compile("(-?)(\\d{1,2})\\.(\\d)");
        Set<String> seen = new HashSet<>();
        long count = 0;
        for (String l : Files.readAllLines(a, StandardCharsets.UTF_8)) {
            count++;
            int semicolon = l.indexOf(';');
            String name = l.substring(0, semicolon);
            assertTrue(names.contains(name), l);
            seen.add(name);
            Matcher m = line.matcher(l.substring(semicolon + 1));
            assertTrue(m.matches(), l);
            assertFalse(m.group(1).equals("-") && m.group(2).equals("0") && m.group(3).equals("0"), "no -0.0: " + l);
        }
        assertEquals(rows, count);
        assertEquals(names, seen, "every station appears in a million rows");
        Measurements.write(b, dir.resolve("b.partial"), rows, 8, 2, quiet);
        assertFalse(java.util.Arrays.equals(Files.readAllBytes(a), Files.readAllBytes(b)), "another seed");
        assertFalse(Files.exists(dir.resolve("a.partial")));
    }

    /** Both rows on {@code p}, the ParallelScan one also in segments of the given sizes; all must agree. */
    static void assertSameAsBaseline(Path p, long... segments) throws IOException {
        Averages baseline = BaselineAverages.run(p);
        for (int threads = 1; threads <= 3; threads++) {
            assertEquals(baseline, ScanAverages.run(p, threads), threads + " threads");
            for (long segment : segments) {
                ParallelScan scan = ParallelScan.lines().withThreads(threads).withSegmentSize(segment);
                for (ParallelScan s : List.of(scan, scan.withReads(4096))) {
                    assertEquals(baseline, s.scanPadded(p, StationTable::new, ScanAverages::parse,
                            StationTable::merge).result(), s.toString());
                }
            }
        }
    }

    @Test
    void namesOfEveryLengthAroundTheWordsAndEveryShapeOfTemperature() throws IOException {
        SplittableRandom rnd = new SplittableRandom(5);
        StringBuilder b = new StringBuilder();
        String[] temperatures = {"-99.9", "99.9", "0.0", "-0.1", "0.1", "9.9", "-9.9", "10.0", "-10.0", "5.5", "-5.5"};
        // lengths 1 to 40 bytes (around 8, 16, 24 and 32), ASCII and with two-byte UTF-8 characters
        for (int length = 1; length <= 40; length++) {
            for (String base : new String[] {"x", "é"}) {
                String name = base.repeat(length);
                for (String t : temperatures) {
                    b.append(name).append(';').append(t).append('\n');
                }
                for (int i = 0; i < 20; i++) {
                    b.append(name).append(';').append(rnd.nextInt(-999, 1000) / 10.0).append('\n');
                }
            }
        }
        // names that share their first 16 bytes, and one that is a prefix of another
        for (String name : new String[] {"Sixteen bytes ok", "Sixteen bytes okay", "Sixteen bytes ok, too",
                "Sixteen bytes ok, two"}) {
            b.append(name).append(";1.5\n").append(name).append(";-2.5\n");
        }
        Path p = Files.writeString(dir.resolve("awkward"), b, StandardCharsets.UTF_8);
        assertSameAsBaseline(p, 1, 37, 4096);
        // and without the final newline
        Files.writeString(p, b.substring(0, b.length() - 1), StandardCharsets.UTF_8);
        assertSameAsBaseline(p, 1, 37, 4096);
    }

    @Test
    void manyStationsGrowTheTablesAndMergeRight() throws IOException {
        SplittableRandom rnd = new SplittableRandom(9);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 60_000; i++) {
            int station = rnd.nextInt(5000);
            b.append("station-").append(Integer.toString(station, 36).repeat(1 + station % 5)).append(';')
                    .append(rnd.nextInt(-999, 1000) / 10.0).append('\n');
        }
        Path p = Files.writeString(dir.resolve("many"), b, StandardCharsets.UTF_8);
        assertSameAsBaseline(p, 4096, 100_000);
    }

    @Test
    void aGeneratedFileGivesTheBaselinesResult() throws IOException {
        Path p = dir.resolve("m");
        Measurements.write(p, dir.resolve("m.partial"), 200_000, 3, 2, new PrintWriter(new StringWriter()));
        Averages baseline = BaselineAverages.run(p);
        assertEquals(200_000, baseline.rows());
        assertTrue(baseline.text().startsWith("{Abha="), baseline.text());
        assertEquals(baseline, ScanAverages.run(p, 2));
    }

    @Test
    void aDifferenceIsShownWithItsStation() {
        String d = ScanBench.firstDifference("{Abha=1.0/2.0/3.0, Accra=4.0/5.0/6.0}",
                "{Abha=1.0/2.0/3.0, Accra=4.0/5.1/6.0}");
        assertEquals("at character 31, the baseline has \"Accra=4.0/5.0/6.0}\" where this row has "
                + "\"Accra=4.0/5.1/6.0}\"", d);
        assertEquals("{a=1, b=2, ..., d=4}", ScanBench.abbreviated("{a=1, b=2, c=3, d=4}"));
        assertEquals("{a=1, Flores,  Pet\u00e9n=2, ..., d=4}",
                ScanBench.abbreviated("{a=1, Flores,  Pet\u00e9n=2, Washington, D.C.=3, d=4}"));
        ByteBuffer chunk = Measurements.chunk(1, 0, 3);
        assertTrue(chunk.remaining() > 3 * 6, "three lines");
    }
}
