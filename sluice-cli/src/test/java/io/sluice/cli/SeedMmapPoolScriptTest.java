package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/seed-mmap-pool.py on logs written as scripts/seed-mmap-harness.sh writes its standard error: the post's
 * harness's lines and `sluice bench jruby`'s, with times chosen so that the pooled medians are known.
 */
class SeedMmapPoolScriptTest {
    private static final Path SCRIPT = Path.of("").toAbsolutePath().getParent().resolve("scripts/seed-mmap-pool.py");

    /** The post's harness's line for one measured pass, as the harness script prints it. */
    private static String post(int round, int kib, String row, double seconds) {
        String label = row.startsWith("ruby File") ? row + ", " + kib + "k String" : row + ", " + kib + "k ruby String";
        return String.format(java.util.Locale.ROOT, "  round %d  new file    1.000s  | %-52s %f   %f   %f (  %f)",
                round, label, 0.2, 0.05, 0.25, seconds);
    }

    /** `sluice bench jruby`'s line for one timed run. */
    private static String ours(String file, int kib, String row, int round, double seconds) {
        return String.format(java.util.Locale.ROOT, "  seqwrite  %-6s %7d  %-28s round %-7d %.3fs real %9.1f MB/s",
                file, kib * 1024, row, round, seconds, 2097.152 / seconds);
    }

    private static Result run(Path... logs) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("python3", SCRIPT.toString()));
        for (Path l : logs) {
            command.add(l.toString());
        }
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "no python3 here: " + e.getMessage());
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), out);
        return new Result(p.exitValue(), out);
    }

    private record Result(int exit, String out) {}

    @Test
    void aNewFileCellsRunsAreSplitIntoTheFastAndTheSlowCase(@TempDir Path tmp) throws Exception {
        // The fastest run of the cell is 0.50 s, so the fast case is up to 0.625 s: MmapFileExt's 0.50 and 0.50 and
        // MappedWriter's 0.52; the rest (2.0; 1.8 and 1.9) are the slow case.
        Path a = tmp.resolve("a.txt");
        List<String> log = new ArrayList<>();
        double[] fastest = {0.5, 2.0, 0.5};
        double[] writer = {1.8, 0.52, 1.9};
        for (int r = 1; r <= 3; r++) {
            log.add(post(r, 1, "java MmapFileExt, unboxed, unsafe", 1.0));
            log.add(post(r, 1, "Sluice::MappedWriter", 1.0));
            log.add(ours("rewritten", 1, "MmapFileExt-unboxed-unsafe", r, 0.2));
            log.add(ours("rewritten", 1, "Sluice::MappedWriter", r, 0.2));
            // Each new-file run says how long after the delete its timing began: 0.20 s for the fast ones, 1.50 s
            // for the slow.
            log.add(ours("new", 1, "MmapFileExt-unboxed-unsafe", r, fastest[r - 1])
                    + (fastest[r - 1] < 1 ? "  0.200s after the delete" : "  1.500s after the delete"));
            log.add(ours("new", 1, "Sluice::MappedWriter", r, writer[r - 1])
                    + (writer[r - 1] < 1 ? "  0.200s after the delete" : "  1.500s after the delete"));
        }
        Files.write(a, log);
        Result r = run(a);
        assertEquals(0, r.exit(), r.out());
        assertTrue(Pattern.compile("(?m)^1k +MmapFileExt-unboxed-unsafe +0\\.500 +0\\.500 \\( 2 of  3\\) +2\\.000 "
                + "+0\\.200 / +1\\.500$").matcher(r.out()).find(), r.out());
        assertTrue(Pattern.compile("(?m)^1k +Sluice::MappedWriter +0\\.520 +0\\.520 \\( 1 of  3\\) +1\\.850 "
                + "+0\\.200 / +1\\.500$").matcher(r.out()).find(), r.out());
        // In the fast case MappedWriter takes 0.52 s to the fastest's 0.50: 0.96 of its MB/s.
        assertTrue(Pattern.compile("(?m)^ +MappedWriter / MmapFileExt +0\\.96$").matcher(r.out()).find(), r.out());
    }

    @Test
    void twoLogsArePooledIntoOneMedianPerRowWithItsInterval(@TempDir Path tmp) throws Exception {
        // Log 1: the post's fastest at 1.0 s a pass, MappedWriter at 2.0 s; log 2: 1.0 and 0.5 s. Pooled, each row's
        // median is the middle of {1.0 x 4} and {2.0, 2.0, 0.5, 0.5, 0.5}: 1.0 / 0.5 = 2.00 by MB/s.
        Path a = tmp.resolve("a.txt");
        Path b = tmp.resolve("b.txt");
        List<String> one = new ArrayList<>(List.of("uptime: 03:05:39 up  2:59",
                "sluice bench jruby: cached 4k, JVM generation 1 of 1"));
        List<String> two = new ArrayList<>();
        for (int r = 1; r <= 2; r++) {
            one.add(post(r, 4, "ruby File", 3.0));
            one.add(post(r, 4, "java MmapFileExt, unboxed, unsafe", 1.0));
            one.add(post(r, 4, "Sluice::MappedWriter", 2.0));
            two.add(post(r, 4, "java MmapFileExt, unboxed, unsafe", 1.0));
            two.add(post(r, 4, "Sluice::MappedWriter", 0.5));
        }
        two.add(post(3, 4, "Sluice::MappedWriter", 0.5));
        // Ours: the fastest at 0.30 s, MappedWriter at 0.25 s (1.20); new-file runs (3.0 and 9.0 s) have a table of
        // their own, and rehearsals do not count.
        for (int r = 1; r <= 3; r++) {
            one.add(ours("cached", 4, "MmapFileExt-unboxed-unsafe", r, 0.30));
            one.add(ours("cached", 4, "Sluice::MappedWriter", r, 0.25));
            one.add(ours("new", 4, "MmapFileExt-unboxed-unsafe", r, 3.0));
            one.add(ours("new", 4, "Sluice::MappedWriter", r, 9.0));
        }
        one.add("  seqwrite  cached    4096  Sluice::MappedWriter         rehearsal     9.000s real     233.0 MB/s");
        Files.write(a, one);
        Files.write(b, two);

        Result r = run(a, b);
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("from 2 log(s)"), r.out());
        Matcher m = Pattern.compile("(?m)^4k +(\\S+) \\((\\S+)-(\\S+)\\), (\\d+) runs"
                + " +(\\S+) \\((\\S+)-(\\S+)\\), (\\d+) runs"
                + " +(\\S+) \\((\\S+)-(\\S+)\\)$").matcher(r.out());
        assertTrue(m.find(), r.out());
        assertEquals("2.00", m.group(1), r.out());
        assertEquals("4", m.group(4), "the fewer runs of the two rows: " + r.out());
        // A resample of MappedWriter's five runs has the median 2.0 (three or more of them drawn as 2.0: about a
        // third of the resamples) or 0.5, so the ratio is 0.50 or 2.00 and the interval spans both.
        assertEquals("0.50", m.group(2), r.out());
        assertEquals("2.00", m.group(3), r.out());
        assertEquals("1.20", m.group(5), r.out());
        assertEquals("1.20", m.group(6), "every run the same: no spread to draw from: " + r.out());
        assertEquals("3", m.group(8), r.out());
        assertEquals("1.67", m.group(9), "2.00 / 1.20: " + r.out());
        Pattern newFiles = Pattern.compile("(?m)^new file, .*\n4k +0\\.33 \\(0\\.33-0\\.33\\), 3 runs$");
        assertTrue(newFiles.matcher(r.out()).find(), r.out());
        // By predecessor: each of MappedWriter's new-file runs came just after the fastest's; the fastest's came after
        // cached-file runs, which do not count.
        assertTrue(Pattern.compile("(?m)^Sluice::MappedWriter +9\\.00 \\(3\\) +- *$").matcher(r.out()).find(), r.out());
        assertTrue(Pattern.compile("(?m)^MmapFileExt-unboxed-unsafe +- +- *$").matcher(r.out()).find(), r.out());
        // Split by case: every run within 1.25x of the cell's fastest (3.0 s) is the fastest's; none is MappedWriter's,
        // so there is no fast-case ratio.
        assertTrue(Pattern.compile("(?m)^4k +MmapFileExt-unboxed-unsafe +3\\.000 +3\\.000 \\( 3 of  3\\) +-$")
                .matcher(r.out()).find(), r.out());
        assertTrue(Pattern.compile("(?m)^4k +Sluice::MappedWriter +9\\.000 +- \\( 0 of  3\\) +9\\.000$")
                .matcher(r.out()).find(), r.out());
        assertTrue(!Pattern.compile("(?m)^ +MappedWriter / MmapFileExt +\\d").matcher(r.out()).find(), r.out());
        // No 1k or 16k runs in these logs: no lines for them.
        assertTrue(!r.out().contains("\n1k ") && !r.out().contains("\n16k "), r.out());
        // The same logs give the same intervals.
        assertEquals(r.out(), run(a, b).out());
    }

    @Test
    void oursRewrittenCellsAreComparedAndItsCachedOnesShownBesideAndOlderLogsAreNotPooledWithThem(@TempDir Path tmp)
            throws Exception {
        // The post's harness: 1.0 s a pass for its fastest, 0.8 s for MappedWriter (1.25). Ours: rewritten 1.0 and
        // 0.8 (1.25, compared), cached 1.0 and 1.25 (0.80, shown beside, not compared).
        Path log = tmp.resolve("rewritten.txt");
        Path older = tmp.resolve("cached-only.txt");
        List<String> lines = new ArrayList<>();
        List<String> before = new ArrayList<>();
        for (int r = 1; r <= 3; r++) {
            lines.add(post(r, 1, "java MmapFileExt, unboxed, unsafe", 1.0));
            lines.add(post(r, 1, "Sluice::MappedWriter", 0.8));
            lines.add(ours("rewritten", 1, "MmapFileExt-unboxed-unsafe", r, 1.0));
            lines.add(ours("rewritten", 1, "Sluice::MappedWriter", r, 0.8));
            lines.add(ours("cached", 1, "MmapFileExt-unboxed-unsafe", r, 1.0));
            lines.add(ours("cached", 1, "Sluice::MappedWriter", r, 1.25));
            before.add(post(r, 1, "java MmapFileExt, unboxed, unsafe", 1.0));
            before.add(post(r, 1, "Sluice::MappedWriter", 0.8));
            before.add(ours("cached", 1, "MmapFileExt-unboxed-unsafe", r, 1.0));
            before.add(ours("cached", 1, "Sluice::MappedWriter", r, 1.25));
        }
        Files.write(log, lines);
        Files.write(older, before);

        Result r = run(log);
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("sluice bench jruby (rewritten)"), r.out());
        assertTrue(Pattern.compile("(?m)^1k +1\\.25 \\(1\\.25-1\\.25\\), 3 runs +1\\.25 \\(1\\.25-1\\.25\\), 3 runs"
                + " +1\\.00 ").matcher(r.out()).find(), r.out());
        assertTrue(Pattern.compile("(?m)^over a file already written, .*\n1k +0\\.80 \\(0\\.80-0\\.80\\), 3 runs$")
                .matcher(r.out()).find(), r.out());
        // A log from before the rewritten cells compares ours' cached cells, as it always did.
        Result old = run(older);
        assertEquals(0, old.exit(), old.out());
        assertTrue(old.out().contains("sluice bench jruby (cached)"), old.out());
        assertTrue(Pattern.compile("(?m)^1k +1\\.25 .* +0\\.80 \\(").matcher(old.out()).find(), old.out());
        // The two do not measure the same pass in ours: not pooled.
        Result mixed = run(log, older);
        assertNotEquals(0, mixed.exit(), mixed.out());
        assertTrue(mixed.out().contains("logs with and without sluice bench jruby's rewritten cells, not pooled"),
                mixed.out());
    }

    @Test
    void logsOfOneProtocolArePooledAndLogsOfTwoAreRefused(@TempDir Path tmp) throws Exception {
        // Settled logs: a "protocol:" line, and round lines that say the MiB written back during each row's JVM.
        Path a = tmp.resolve("settled-a.txt");
        Path b = tmp.resolve("settled-b.txt");
        Path old = tmp.resolve("before-the-option.txt");
        List<String> settled = new ArrayList<>(List.of("protocol: settled"));
        List<String> rakefile = new ArrayList<>();
        for (int r = 1; r <= 3; r++) {
            String fastest = post(r, 16, "java MmapFileExt, unboxed, unsafe", 1.0);
            String writer = post(r, 16, "Sluice::MappedWriter", 0.8);
            settled.add(fastest.replace("  | ", "  written back     12 MiB  | "));
            settled.add(writer.replace("  | ", "  written back      0 MiB  | "));
            rakefile.add(post(r, 16, "java MmapFileExt, unboxed, unsafe", 1.0));
            rakefile.add(post(r, 16, "Sluice::MappedWriter", 0.8));
        }
        Files.write(a, settled);
        Files.write(b, settled);
        Files.write(old, rakefile);

        Result pooled = run(a, b);
        assertEquals(0, pooled.exit(), pooled.out());
        assertTrue(pooled.out().contains("from 2 log(s), protocol settled:"), pooled.out());
        // 1.0 / 0.8 by seconds, six runs a row from the two logs.
        assertTrue(Pattern.compile("(?m)^16k +1\\.25 \\(1\\.25-1\\.25\\), 6 runs").matcher(pooled.out()).find(),
                pooled.out());
        // A log without the line came from before --protocol: the post's Rakefile order.
        Result alone = run(old);
        assertEquals(0, alone.exit(), alone.out());
        assertTrue(alone.out().contains("from 1 log(s), protocol rakefile:"), alone.out());
        Result mixed = run(a, old);
        assertNotEquals(0, mixed.exit(), mixed.out());
        assertTrue(mixed.out().contains("logs of different protocols, not pooled: " + a + " (settled), " + old
                + " (rakefile)"), mixed.out());
    }

    @Test
    void thePostsPassesAreAlsoShownByTheRowWhoseJvmRanJustBefore(@TempDir Path tmp) throws Exception {
        // Two rounds in different orders; the row before is the previous line, across rounds too.
        Path log = tmp.resolve("settled.txt");
        Files.write(log, List.of("protocol: settled",
                post(1, 16, "ruby File", 3.0), post(1, 16, "java MmapFileExt, unboxed, unsafe", 1.0),
                post(1, 16, "Sluice::MappedWriter", 0.8),
                post(2, 16, "Sluice::MappedWriter", 0.9), post(2, 16, "ruby File", 3.0),
                post(2, 16, "java MmapFileExt, unboxed, unsafe", 1.2)));
        Result r = run(log);
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("by the row whose JVM ran just before:\n"
                + " ".repeat(29) + "after MappedWriter       after MmapFileExt        after ruby File"), r.out());
        // The fastest ran after ruby File both times (1.0 and 1.2); MappedWriter once after it, once after itself.
        assertTrue(Pattern.compile("(?m)^16k MmapFileExt +- +- +1\\.100 \\(2\\) *$").matcher(r.out()).find(), r.out());
        assertTrue(Pattern.compile("(?m)^16k MappedWriter +0\\.900 \\(1\\) +0\\.800 \\(1\\) +- *$").matcher(r.out())
                .find(), r.out());
    }

    @Test
    void eachRoundsTwoPassesArePairedWithinTheirLogAndChunkSize(@TempDir Path tmp) throws Exception {
        // The machine slows down round by round for the fastest (1, 2, 4 s) while MappedWriter's third pass is quick:
        // unpaired, the medians give 2.0 / 1.1 = 1.82; round by round the ratios are 0.91, 0.91 and 4.00.
        Path a = tmp.resolve("a.txt");
        Path b = tmp.resolve("b.txt");
        List<String> one = new ArrayList<>(List.of("protocol: settled"));
        double[] fastest = {1.0, 2.0, 4.0};
        double[] writer = {1.1, 2.2, 1.0};
        for (int r = 1; r <= 3; r++) {
            one.add(post(r, 4, "Sluice::MappedWriter", writer[r - 1]));
            one.add(post(r, 4, "ruby File", 5.0));
            one.add(post(r, 4, "java MmapFileExt, unboxed, unsafe", fastest[r - 1]));
            // Ours: 0.30 / 0.25 every cached round; a new-file run of the same round is not its pair.
            one.add(ours("cached", 4, "MmapFileExt-unboxed-unsafe", r, 0.30));
            one.add(ours("cached", 4, "Sluice::MappedWriter", r, 0.25));
            one.add(ours("new", 4, "Sluice::MappedWriter", r, 9.0));
        }
        // Another chunk size's round 1 is a pair of its own.
        one.add(post(1, 16, "java MmapFileExt, unboxed, unsafe", 1.0));
        one.add(post(1, 16, "Sluice::MappedWriter", 1.0));
        Files.write(a, one);
        // Another log's round 1 too: pooled, 4k has four rounds.
        Files.write(b, List.of("protocol: settled", post(1, 4, "java MmapFileExt, unboxed, unsafe", 1.0),
                post(1, 4, "Sluice::MappedWriter", 0.5)));

        Result r = run(a);
        assertEquals(0, r.exit(), r.out());
        assertTrue(Pattern.compile("(?m)^4k +1\\.82 \\(").matcher(r.out()).find(), "unpaired: " + r.out());
        assertTrue(r.out().contains("paired by round"), r.out());
        // A resample of the three rounds has the median 4.00 when two or three of its draws are round 3 (7 in 27).
        assertTrue(Pattern.compile("(?m)^4k +0\\.91 \\(0\\.91-4\\.00\\), 3 rounds +1\\.20 \\(1\\.20-1\\.20\\), "
                + "3 rounds$").matcher(r.out()).find(), r.out());
        assertTrue(Pattern.compile("(?m)^16k +1\\.00 \\(1\\.00-1\\.00\\), 1 rounds +- *$").matcher(r.out()).find(),
                r.out());
        Result pooled = run(a, b);
        assertEquals(0, pooled.exit(), pooled.out());
        // 0.91, 0.91, 2.00 and 4.00: the median of four is halfway between the middle two.
        assertTrue(Pattern.compile("(?m)^4k +1\\.45 \\(\\S+\\), 4 rounds ").matcher(pooled.out()).find(), pooled.out());
    }

    @Test
    void aFileWithoutRunsOfBothWritersIsRefusedByName(@TempDir Path tmp) throws Exception {
        Path notALog = Files.writeString(tmp.resolve("notes.txt"), "nothing measured here\n");
        Result r = run(notALog);
        assertNotEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("no runs of both writers in " + notALog), r.out());
        Result none = run();
        assertNotEquals(0, none.exit(), none.out());
        assertTrue(none.out().contains("seed-mmap-pool.py LOG..."), none.out());
    }
}
