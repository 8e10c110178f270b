package io.sluice.bench.jruby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The Java half of {@code sluice bench jruby}: the child's command, and the table and JSON made from its samples. */
class JRubyBenchTest {
    /** Sample lines as bench.rb prints them: three rounds after a rehearsal that must not count. */
    private static List<String> lines() {
        List<String> l = new ArrayList<>();
        l.add("info\tjruby\t10.0.6.0 (Ruby 3.4.5) on Java 25, compile mode FORCE, native access on");
        l.add("something JRuby printed on its own");
        String[][] rows = {
            // contender, real seconds of the rehearsal and of rounds 1..3
            {"ruby-File", "9.0", "3.0", "2.0", "4.0"},
            {"MmapFile-autoboxing", "9.0", "8.0", "8.0", "8.0"},
            {"MmapFileExt-unboxed-unsafe", "9.0", "1.0", "1.2", "1.1"},
            {"Sluice::MappedWriter", "9.0", "0.8", "1.0", "0.9"},
        };
        for (String[] r : rows) {
            for (int round = 0; round <= 3; round++) {
                l.add(String.join("\t", "sample", "seqwrite", "new", "1024", r[0], Integer.toString(round),
                        "1000000000", "976562", r[round + 1], "0.5", "0.25"));
            }
        }
        l.add(String.join("\t", "sample", "randread", "cached", "4096", "ruby-File#read", "1", "1000000000", "244140",
                "2.0", "0.1", "0.1"));
        l.add(String.join("\t", "sample", "randread", "cached", "4096", "Sluice::File#pread", "1", "1000000000",
                "244140", "1.0", "0.1", "0.1"));
        return l;
    }

    @Test
    void rowsHoldTheMeasuredRoundsAndTheirMedians() {
        JRubyBench.Result r = JRubyBench.parse(lines());
        assertTrue(r.runtime().startsWith("10.0.6.0"), r.runtime());
        assertEquals(6, r.rows().size());
        JRubyBench.Row file = r.rows().get(0);
        assertEquals("ruby-File", file.contender());
        assertEquals(3, file.samples().size(), "the rehearsal is not a sample");
        assertEquals(3.0, file.real(), 1e-9);
        assertEquals(0.5, file.user(), 1e-9);
        assertEquals(1000.0 / 3.0, file.mbPerSec(), 1e-6);
        assertEquals((500.0 - 250.0) / (1000.0 / 3.0), file.spread(), 1e-9);
    }

    @Test
    void theTableHasTheSeedsShapeAndRatiosButNoInternalTargets() {
        StringWriter s = new StringWriter();
        JRubyBench.table(JRubyBench.parse(lines()), new PrintWriter(s));
        String t = s.toString();
        assertTrue(t.contains("seqwrite, 1k String chunks, new file: 1000000000 bytes per run; medians of 3 rounds"), t);
        // Fastest first, numbered as the seed's summary; user, system, total, (real).
        Matcher first = Pattern.compile("(?m)^1 Sluice::MappedWriter +0\\.500000 +0\\.250000 +0\\.750000 +\\(0\\.900000\\)")
                .matcher(t);
        assertTrue(first.find(), t);
        // x File: 3.0 / 0.9; the seed's ratio for the extension's unsafe writes at 1k was 4.198 / 1.466.
        assertTrue(t.contains("3.33"), t);
        assertTrue(t.contains("2.86"), t);
        // The project's own targets are no business of a user's run.
        assertFalse(t.contains("targets"), t);
        assertFalse(Pattern.compile("(?m)\\bmet$").matcher(t).find(), t);
    }

    @Test
    void jsonRowsCarryTheCommonFieldsAndTheSeedRatio() {
        StringWriter s = new StringWriter();
        JRubyBench.json(JRubyBench.parse(lines()), new PrintWriter(s));
        String j = s.toString();
        assertEquals(6, j.split("\"engine\"", -1).length - 1, j);
        for (String field : new String[] {"workload", "blockSize", "threads", "opsPerMs", "mbPerSec", "spread",
                "rounds", "ratioToClassic", "fioReference", "ratioToFio", "direct", "depth", "file", "baseline",
                "ratioToBaseline", "userSec", "systemSec", "realSec", "seedRatioToBaseline"}) {
            assertTrue(j.contains("\"" + field + "\": "), field);
        }
        assertTrue(j.contains("\"engine\": \"Sluice::MappedWriter\", \"workload\": \"seqwrite\", \"blockSize\": 1024"), j);
        assertTrue(j.contains("\"seedRatioToBaseline\": 2.8636"), j);
        assertTrue(j.trim().startsWith("[") && j.trim().endsWith("]"), j);
        assertTrue(!j.contains("},\n]"), "no comma after the last row");
    }

    @Test
    void theChildRunsJRubyWithNativeAccessOnTheJarsItFinds(@org.junit.jupiter.api.io.TempDir Path tmp)
            throws Exception {
        Path jar = Files.createFile(tmp.resolve("jruby-complete-10.0.6.0.jar"));
        JRubyBench.Options o = new JRubyBench.Options(1 << 20, tmp, List.of(1024, 4096), 3, true, false,
                List.of("Sluice::MappedWriter", "ruby-File"), jar);
        List<List<String>> children = JRubyBench.commands(o);
        // One JVM per writer, as the seed's harness gives each row.
        assertEquals(2, children.size(), children::toString);
        List<String> c = children.get(0);
        assertTrue(c.contains("--enable-native-access=ALL-UNNAMED"), c::toString);
        // The default heap, fixed and touched at start: no timed run grows it.
        assertTrue(c.containsAll(List.of("-Xms1073741824", "-Xmx1073741824", "-XX:+AlwaysPreTouch")), c::toString);
        // Writes as the seed's harness runs them: JRuby's own compile mode (FORCE halved every writer's speed).
        assertTrue(c.stream().noneMatch(a -> a.startsWith("-Djruby.compile.mode")), c::toString);
        assertEquals("true", c.get(c.indexOf("--writes") + 1), c::toString);
        assertEquals("false", c.get(c.indexOf("--reads") + 1), c::toString);
        String classPath = c.get(c.indexOf("-cp") + 1);
        for (String entry : classPath.split(java.io.File.pathSeparator)) {
            assertTrue(Files.exists(Path.of(entry)), entry);
        }
        assertTrue(classPath.startsWith(jar.toString()), classPath);
        // `require "sluice"` defines Sluice::DB, whose classes live in sluice-db and need MVStore.
        for (Class<?> needed : List.of(io.sluice.db.KvStore.class, org.h2.mvstore.MVStore.class)) {
            String jarOf = Path.of(needed.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
            assertTrue(List.of(classPath.split(java.io.File.pathSeparator)).contains(jarOf), needed + " in " + classPath);
        }
        assertEquals("1024,4096", c.get(c.indexOf("--chunk-sizes") + 1));
        assertEquals("false", c.get(c.indexOf("--reads") + 1));
        assertTrue(!c.contains("--readers"), c::toString);
        for (int i = 0; i < 2; i++) {
            List<String> child = children.get(i);
            assertEquals(List.of("Sluice::MappedWriter", "ruby-File").get(i), child.get(child.indexOf("--writers") + 1));
            assertEquals(child.indexOf("--writers"), child.lastIndexOf("--writers"), child::toString);
            assertEquals("true", child.get(child.indexOf("--serve") + 1), child::toString);
        }
    }

    @Test
    void writesAndReadsRunInJvmsOfTheirOwnEachWithItsCompileMode(@org.junit.jupiter.api.io.TempDir Path tmp)
            throws Exception {
        Path jar = Files.createFile(tmp.resolve("jruby-complete-10.0.6.0.jar"));
        JRubyBench.Options o = new JRubyBench.Options(1 << 20, tmp, List.of(1024), 3, true, true, List.of(), jar);
        List<List<String>> children = JRubyBench.commands(o);
        // Every writer in a JVM of its own, then the reads.
        assertEquals(JRubyBench.writersToRun(o).size() + 1, children.size(), children::toString);
        assertEquals(9, JRubyBench.writersToRun(o).size());
        List<String> writes = children.get(0);
        List<String> reads = children.get(children.size() - 1);
        assertTrue(reads.stream().noneMatch("--serve"::equals), reads::toString);
        assertEquals("true", writes.get(writes.indexOf("--writes") + 1));
        assertEquals("false", writes.get(writes.indexOf("--reads") + 1));
        assertTrue(writes.stream().noneMatch(a -> a.startsWith("-Djruby.compile.mode")), writes::toString);
        assertEquals("false", reads.get(reads.indexOf("--writes") + 1));
        assertEquals("true", reads.get(reads.indexOf("--reads") + 1));
        assertTrue(reads.contains("-Djruby.compile.mode=FORCE"), reads::toString);
        // Each child's info line names its side; the result keeps both.
        JRubyBench.Result r = JRubyBench.parse(List.of(
                "info\tjruby\t10.0.6.0 (Ruby 3.4.5) on Java 25, compile mode JIT (writes), native access on",
                "info\tjruby\t10.0.6.0 (Ruby 3.4.5) on Java 25, compile mode FORCE (reads), native access on"));
        assertTrue(r.runtime().contains("JIT (writes)") && r.runtime().contains("FORCE (reads)"), r.runtime());
    }

    @Test
    void optionsAreChecked(@org.junit.jupiter.api.io.TempDir Path tmp) {
        assertThrows(IllegalArgumentException.class,
                () -> new JRubyBench.Options(1 << 20, tmp, List.of(1024), 3, true, true, List.of("turbo"), null));
        assertThrows(IllegalArgumentException.class,
                () -> new JRubyBench.Options(1024, tmp, List.of(4096), 3, true, true, List.of(), null));
        assertThrows(IllegalArgumentException.class,
                () -> new JRubyBench.Options(1024, tmp, List.of(1024), 0, true, true, List.of(), null));
        assertThrows(IOException.class, () -> JRubyBench.jrubyJar(tmp.resolve("missing.jar")));
        assertThrows(IllegalArgumentException.class,
                () -> new JRubyBench.Options(1 << 20, tmp, List.of(1024), 3, true, true, List.of(), null, 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new JRubyBench.Options(1 << 20, tmp, List.of(1024), 3, true, true, List.of(), null, 4));
        assertTrue(e.getMessage().contains("--forks 4 is more than --rounds 3"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new JRubyBench.Options(1 << 20, tmp, List.of(1024), 3, true, true, List.of(), null, 1, 10 << 20));
        assertTrue(e.getMessage().contains("--heap must be 0"), e.getMessage());
        JRubyBench.Options least = new JRubyBench.Options(1 << 20, tmp, List.of(1024), 3, true, true, List.of(), null,
                1, 64 << 20);
        assertEquals(64L << 20, least.heap());
    }

    @Test
    void everyChildGetsTheFixedHeapAskedForAndNoneWithZero(@org.junit.jupiter.api.io.TempDir Path tmp)
            throws Exception {
        Path jar = Files.createFile(tmp.resolve("jruby-complete-10.0.6.0.jar"));
        JRubyBench.Options fixed = new JRubyBench.Options(1 << 20, tmp, List.of(1024), 3, true, true, List.of(), jar, 1,
                512L << 20);
        List<List<String>> children = JRubyBench.commands(fixed);
        assertEquals(10, children.size(), "nine writers and the reads");
        for (List<String> c : children) {
            assertTrue(c.containsAll(List.of("-Xms536870912", "-Xmx536870912", "-XX:+AlwaysPreTouch")), c::toString);
            // JVM options, before JRuby's main class.
            assertTrue(c.indexOf("-XX:+AlwaysPreTouch") < c.indexOf("org.jruby.Main"), c::toString);
        }
        JRubyBench.Options own = new JRubyBench.Options(1 << 20, tmp, List.of(1024), 3, true, true, List.of(), jar, 1,
                0);
        for (List<String> c : JRubyBench.commands(own)) {
            assertTrue(c.stream().noneMatch(a -> a.startsWith("-Xms") || a.startsWith("-Xmx")
                    || a.contains("PreTouch")), c::toString);
        }
    }

    @Test
    void aRunWhoseHeapsWouldNotFitIsRefusedBeforeAnyJvmStarts(@org.junit.jupiter.api.io.TempDir Path tmp) {
        JRubyBench.Options o = new JRubyBench.Options(1L << 30, tmp, List.of(1024), 3, true, true,
                List.of("ruby-File", "Sluice::MappedWriter", "Sluice::File#pread"), null, 1, 2L << 30);
        // Two writers' JVMs at once, 2 GiB each, and the 1 GiB file: 5 GiB.
        JRubyBench.checkMemory(o, 5L << 30);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JRubyBench.checkMemory(o, (5L << 30) - 1));
        assertTrue(e.getMessage().contains("--heap 2 GiB for each of 2 JRuby JVMs"), e.getMessage());
        assertTrue(e.getMessage().contains("needs 5.0 GiB") && e.getMessage().contains("--heap 0"), e.getMessage());
        // Unknown memory, or the JVM's own sizing: nothing to check.
        JRubyBench.checkMemory(o, -1);
        JRubyBench.checkMemory(new JRubyBench.Options(1L << 30, tmp, List.of(1024), 3, true, true, List.of(), null, 1,
                0), 1);
        // Reads alone: one JVM.
        JRubyBench.Options reads = new JRubyBench.Options(1L << 30, tmp, List.of(1024), 3, false, true, List.of(), null,
                1, 1L << 30);
        JRubyBench.checkMemory(reads, 2L << 30);
        assertThrows(IllegalArgumentException.class, () -> JRubyBench.checkMemory(reads, (2L << 30) - 1));
    }

    @Test
    void forksDealTheMeasuredRoundsOutAndEachRehearsesFirst() {
        assertEquals(List.of(List.of(0, 1, 2, 3, 4, 5, 6, 7)), JRubyBench.roundGroups(7, 1));
        assertEquals(List.of(List.of(0, 1, 4, 7), List.of(0, 2, 5), List.of(0, 3, 6)), JRubyBench.roundGroups(7, 3));
        assertEquals(List.of(List.of(0, 1), List.of(0, 2), List.of(0, 3)), JRubyBench.roundGroups(3, 3));
    }

    @Test
    void everyRowFollowsEveryOtherEquallyOften() {
        for (int n = 1; n <= 8; n++) {
            int[][] follows = new int[n][n];
            for (int k = 0; k < 2 * n; k++) {
                int[] o = JRubyBench.order(n, k);
                assertEquals(n, java.util.Arrays.stream(o).distinct().count(), java.util.Arrays.toString(o));
                int rows = n;
                assertTrue(java.util.Arrays.stream(o).allMatch(i -> i >= 0 && i < rows), java.util.Arrays.toString(o));
                for (int j = 1; j < n; j++) {
                    follows[o[j - 1]][o[j]]++;
                }
            }
            for (int a = 0; a < n; a++) {
                for (int b = 0; b < n; b++) {
                    assertEquals(a == b ? 0 : 2, follows[a][b],
                            "row " + b + " after row " + a + " in " + 2 * n + " rounds of " + n + " rows");
                }
            }
        }
        // The first rounds of three rows, as a run with the default rows of the harness script starts.
        assertEquals(List.of("[0, 1, 2]", "[1, 2, 0]", "[2, 0, 1]", "[2, 1, 0]", "[0, 2, 1]", "[1, 0, 2]"),
                java.util.stream.IntStream.range(0, 6).mapToObj(k -> java.util.Arrays.toString(JRubyBench.order(3, k)))
                        .toList());
    }

    /** The real thing: JRuby children, one per writer and cell and group of rounds, their samples gathered. */
    @Test
    void withForksEveryCellIsMeasuredByFreshJvmsThatShareItsRounds(@org.junit.jupiter.api.io.TempDir Path tmp)
            throws Exception {
        // Real JVMs start with a fixed heap, as a run's do (a smaller one than the default, for the test's sake).
        JRubyBench.Options o = new JRubyBench.Options(256 << 10, tmp, List.of(4096), 3, true, false,
                List.of("Sluice::MappedWriter"), null, 2, 256L << 20);
        StringWriter progress = new StringWriter();
        JRubyBench.Result r = JRubyBench.run(o, new PrintWriter(progress, true));
        String p = progress.toString();
        assertEquals(2, r.forks());
        assertEquals(3, r.rows().size(), p);
        for (JRubyBench.Row row : r.rows()) {
            assertEquals("Sluice::MappedWriter", row.contender());
            // Rounds 1 and 3 from the first JVM, round 2 from the second; neither's rehearsal.
            assertEquals(3, row.samples().size(), p);
            assertTrue(row.samples().stream().allMatch(s -> s.bytes() == 256 << 10), row::toString);
        }
        assertEquals(List.of("new", "cached", "rewritten"), r.rows().stream().map(JRubyBench.Row::file).toList());
        // Three cells, two generations each, one writer: six JVMs, the first's whole command printed, the others named.
        assertEquals(1, count(p, "sluice bench jruby: " + java.io.File.separator), p);
        assertEquals(5, count(p, "sluice bench jruby: a JVM for Sluice::MappedWriter"), p);
        // Each generation's JVM warms up on its cell's chunk size alone.
        List<String> one = JRubyBench.serveCommand(o, "Sluice::MappedWriter", List.of(16384));
        assertEquals("16384", one.get(one.indexOf("--chunk-sizes") + 1), one::toString);
        assertEquals(one.indexOf("--chunk-sizes"), one.lastIndexOf("--chunk-sizes"), one::toString);
        for (String g : List.of("new 4k, JVM generation 1 of 2", "new 4k, JVM generation 2 of 2",
                "cached 4k, JVM generation 1 of 2", "cached 4k, JVM generation 2 of 2",
                "rewritten 4k, JVM generation 1 of 2", "rewritten 4k, JVM generation 2 of 2")) {
            assertTrue(p.contains(g), p);
        }
        try (var left = Files.list(tmp)) {
            assertEquals(List.of(), left.toList(), "the files written are removed");
        }
        StringWriter table = new StringWriter();
        JRubyBench.table(r, new PrintWriter(table, true));
        assertTrue(table.toString().contains("medians of 3 rounds from 2 JVMs per row, each after a rehearsal"),
                table::toString);
        assertTrue(table.toString().contains("Every JRuby JVM had a fixed heap of 256 MiB"), table::toString);
    }

    @Test
    void withAForkForEveryRoundEachWritersJvmRunsAloneAsInTheSeedsHarness(@org.junit.jupiter.api.io.TempDir Path tmp)
            throws Exception {
        JRubyBench.Options o = new JRubyBench.Options(256 << 10, tmp, List.of(4096), 2, true, false,
                List.of("Sluice::MappedWriter", "MmapFileExt-unboxed-unsafe"), null, 2, 256L << 20);
        StringWriter progress = new StringWriter();
        JRubyBench.Result r = JRubyBench.run(o, new PrintWriter(progress, true));
        String p = progress.toString();
        // Three cells, two writers: six rows, each with both measured rounds.
        assertEquals(6, r.rows().size(), p);
        for (JRubyBench.Row row : r.rows()) {
            assertEquals(2, row.samples().size(), row::toString);
        }
        // Every JVM's runs come between its start and the next JVM's: a writer's rehearsal and round, then the other's;
        // a rewritten cell's JVM, as one of the post's harness, neither warms up nor rehearses.
        String current = null;
        String cell = null;
        int jvms = 0;
        int runs = 0;
        int warmUps = 0;
        for (String line : p.split("\n")) {
            if (line.contains(", JVM generation ")) {
                cell = line.substring("sluice bench jruby: ".length()).split(" ")[0];
            } else if (line.contains("sluice bench jruby: ") && line.contains("--writers ")) {
                current = line.substring(line.indexOf("--writers ") + 10).split(" ")[0];
                jvms++;
                assertEquals(cell.equals("rewritten"), line.contains("--warm-up false"), line);
            } else if (line.startsWith("sluice bench jruby: a JVM for ")) {
                current = line.substring("sluice bench jruby: a JVM for ".length()).trim();
                jvms++;
            } else if (line.contains("warming up:")) {
                assertNotEquals("rewritten", cell, "a rewritten cell's JVM warmed up:\n" + p);
                warmUps++;
            } else if (line.trim().startsWith("seqwrite")) {
                String[] f = line.trim().split("\\s+");
                assertEquals(current, f[3], "a run of " + f[3] + " while the JVM of " + current + " is the one alive:\n" + p);
                assertEquals(cell, f[1], line);
                assertFalse(cell.equals("rewritten") && line.contains("rehearsal"), "a rewritten cell rehearsed:\n" + p);
                // The progress line says what the kernel did during the run.
                assertTrue(line.contains(" faults") && line.contains(" MiB written back") && line.contains("s system"),
                        line);
                // A new file's run says how long after the delete before it its timing began.
                assertEquals(cell.equals("new"), line.matches(".*  \\d+\\.\\d{3}s after the delete$"), line);
                runs++;
            }
        }
        // Three cells, two generations each, two writers: twelve JVMs. The new and cached cells' JVMs warm up and
        // run a rehearsal and a measured round each; the rewritten cell's run their measured round alone.
        assertEquals(12, jvms, p);
        assertEquals(8, warmUps, p);
        assertEquals(8 + 8 + 4, runs, p);
        StringWriter table = new StringWriter();
        JRubyBench.table(r, new PrintWriter(table, true));
        assertTrue(table.toString().contains("rewritten file: 262144 bytes per run; medians of 2 rounds from 2 JVMs per row, "
                + "each a fresh JVM's first run"), table::toString);
        assertTrue(table.toString().contains("cached file: 262144 bytes per run; medians of 2 rounds from 2 JVMs per row, "
                + "each after a rehearsal"), table::toString);
        try (var left = Files.list(tmp)) {
            assertEquals(List.of(), left.toList(), "the files written are removed");
        }
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + 1)) {
            n++;
        }
        return n;
    }

    @Test
    void theSeedsWritersAreRefusedMoreThanOneBufferMaps(@org.junit.jupiter.api.io.TempDir Path tmp) {
        long over = JRubyBench.SEED_MAX_SIZE + 1;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new JRubyBench.Options(over, tmp, List.of(1024), 1, true, false, List.of(), null));
        assertTrue(e.getMessage().contains("--size " + over), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new JRubyBench.Options(over, tmp, List.of(1024), 1, true,
                false, List.of("MmapFileExt-unboxed-unsafe"), null));
        // Rows that do not map the whole file, and reads, may go past it.
        new JRubyBench.Options(over, tmp, List.of(1024), 1, true, false,
                List.of("ruby-File", "Sluice::MappedWriter", "Sluice::MappedWriter-windows"), null);
        new JRubyBench.Options(over, tmp, List.of(1024), 1, false, true, List.of(), null);
        new JRubyBench.Options(JRubyBench.SEED_MAX_SIZE, tmp, List.of(1024), 1, true, false, List.of(), null);
    }
}
