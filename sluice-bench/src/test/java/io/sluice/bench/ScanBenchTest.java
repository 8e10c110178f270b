package io.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.ParallelScan;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice bench scan}'s generator, and the ParallelScan parser against the baseline on files made to be
 * awkward.
 */
class ScanBenchTest {
    @TempDir
    Path dir;

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
