package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.Engine;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice bench channels} end to end on a small file, with short samples (no figure is checked). */
class BenchChannelsCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    @Test
    void everyRowOfBothPairsIsMeasuredAndRatioed() throws Exception {
        Assumptions.assumeTrue(Engine.IO_URING.isAvailable(), () -> Engine.IO_URING.unavailabilityCause().orElse(""));
        Path data = Files.createDirectories(dir.resolve("data"));
        Path json = dir.resolve("rows.json");
        int rc = run("bench", "--size", "8m", "--block-sizes", "4k", "--engines", "channel,io_uring", "--dir",
                data.toString(), "channels", "--rounds", "1", "--duration", "20", "--depth", "8", "--json",
                json.toString());
        assertEquals(Main.OK, rc, err::toString);
        String rows = Files.readString(json);
        Matcher m = Pattern.compile("\\{\"engine\": \"([A-Za-z_-]+)\", \"workload\": \"randread\", \"blockSize\": 4096, "
                + "\"threads\": (\\d), \"opsPerMs\": ([0-9.]+),.*?\"direct\": (true|false), \"depth\": (\\d+)")
                .matcher(rows);
        List<String> seen = new java.util.ArrayList<>();
        while (m.find()) {
            assertTrue(Double.parseDouble(m.group(3)) > 0, m.group());
            seen.add(m.group(1) + " " + m.group(2) + " " + m.group(4) + " " + m.group(5));
        }
        // In the report's order, which groups rows by thread count: compared as sets.
        java.util.Set<String> expected = new java.util.TreeSet<>(List.of(
                "jdk-AsynchronousFileChannel 1 false 8", "sluice-AsynchronousFileChannel 1 false 8",
                "jdk-AsynchronousFileChannel 2 false 8", "sluice-AsynchronousFileChannel 2 false 8",
                "jdk-AsynchronousFileChannel 1 true 8", "sluice-AsynchronousFileChannel 1 true 8",
                "jdk-AsynchronousFileChannel 2 true 8", "sluice-AsynchronousFileChannel 2 true 8",
                "CHANNEL 1 false 1", "sluice-FileChannel-CHANNEL 1 false 1",
                "IO_URING 1 false 1", "sluice-FileChannel-IO_URING 1 false 1"));
        boolean fio = fioInstalled();
        if (fio) {
            // fio beside the asynchronous rows, on their cells: the device's own reference for each way.
            for (String cell : List.of(" 1 false 8", " 2 false 8", " 1 true 8", " 2 true 8")) {
                expected.add("fio-io_uring" + cell);
                expected.add("fio-psync-job-per-request" + cell);
            }
        }
        assertEquals(expected, new java.util.TreeSet<>(seen), rows);
        assertEquals(fio ? 20 : 12, seen.size(), rows);
        String log = err.toString();
        if (fio) {
            assertTrue(log.contains("fio-io_uring                       / fio-psync-job-per-request    randread 4 KiB, "
                    + "O_DIRECT, depth 8"), log);
        }
        for (String ratio : new String[] {
            "sluice-AsynchronousFileChannel     / jdk-AsynchronousFileChannel  randread 4 KiB, depth 8",
            "sluice-AsynchronousFileChannel     / jdk-AsynchronousFileChannel  randread 4 KiB, O_DIRECT, depth 8",
            "sluice-FileChannel-CHANNEL         / CHANNEL                      randread 4 KiB",
            "sluice-FileChannel-IO_URING        / IO_URING                     randread 4 KiB"}) {
            assertTrue(log.contains(ratio), ratio + "\n" + log);
        }
        assertTrue(log.contains("/1] randread 4 KiB, 1 thread"), "progress: " + log);
        try (Stream<Path> left = Files.list(data)) {
            assertEquals(List.of(), left.toList(), "the file is removed at the end");
        }
    }

    private static boolean fioInstalled() {
        try {
            Process p = new ProcessBuilder("fio", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (java.io.IOException | InterruptedException e) {
            return false;
        }
    }

    @Test
    void badOptionsAreRefused() {
        assertEquals(Main.BAD_INPUT, run("bench", "--dir", dir.toString(), "channels", "--depth", "0"));
        assertEquals(Main.BAD_INPUT, run("bench", "--dir", dir.toString(), "--engines", "fio", "channels"));
        assertEquals(Main.BAD_INPUT, run("bench", "--size", "1k", "--dir", dir.toString(), "channels"));
    }
}
