package io.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.Engine;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Contenders in child JVMs of their own: real JVMs started from this one, reading a real file. */
class ForkedContenderTest {
    private static final Workload RAND_4K = new Workload(Workload.RANDREAD, 4096);

    @Test
    void everyEngineMeasuresInAnotherProcessAndTheCellsRowsSaySo(@TempDir Path dir) throws Exception {
        StringWriter log = new StringWriter();
        PrintWriter out = new PrintWriter(log, true);
        try (DataFile data = DataFile.create(dir, 8L << 20, n -> { })) {
            data.warm();
            List<Contender> all = new ArrayList<>();
            try {
                for (Engine e : Engine.values()) {
                    if (e.isAvailable()) {
                        all.add(ForkedContender.sluice(e, data.path(), data.size(), out));
                    }
                }
                all.add(ForkedContender.naiveDirect(data.path(), data.size(), out));
                long self = ProcessHandle.current().pid();
                for (Contender c : all) {
                    ForkedContender f = (ForkedContender) c;
                    long child = f.childPid();
                    assertNotEquals(self, child, c.name() + " runs in this JVM");
                    assertEquals(f.process().pid(), child, c.name());
                    assertTrue(f.process().parent().map(ProcessHandle::pid).orElse(-1L) == self, c.name());
                }
                List<Row> rows = Bench.cell(all, RAND_4K, 1, 30_000_000L, 2, true);
                assertEquals(all.size(), rows.size());
                for (Row r : rows) {
                    assertTrue(r.opsPerMs() > 0 && r.mbPerSec() > 0, r::toString);
                    assertEquals(2, r.samples().size(), r::toString);
                    assertEquals(Boolean.TRUE, r.forked(), r::toString);
                }
                assertEquals("fio-mmap", rows.stream().filter(r -> r.engine().equals("MMAP")).findFirst()
                        .orElseThrow().fioReference());
                ForkedContender auto = (ForkedContender) all.stream().filter(c -> c.name().equals("AUTO"))
                        .findFirst().orElseThrow();
                // The child's chooser, which has timed the reads just made there.
                assertTrue(auto.autoChoices().startsWith("device "), auto.autoChoices());
            } finally {
                for (Contender c : all) {
                    c.close();
                }
            }
        }
    }

    @Test
    void withTwoForksEveryCellsRowsComeFromTwoFreshWarmedUpChildrenOneAtATime(@TempDir Path dir) throws Exception {
        StringWriter log = new StringWriter();
        PrintWriter out = new PrintWriter(log, true);
        long sample = 20_000_000L;
        try (DataFile data = DataFile.create(dir, 8L << 20, n -> { })) {
            data.warm();
            List<Contender> all = new ArrayList<>();
            try {
                all.add(ForkedContender.sluice(Engine.MMAP, data.path(), data.size(), out));
                all.add(ForkedContender.sluice(Engine.CHANNEL, data.path(), data.size(), out));
                List<Workload> cells = List.of(RAND_4K, new Workload(Workload.RANDREAD, 512));
                List<Row> rows = Bench.measure(all, cells, List.of(1), sample, 4, 2, out, true);
                assertEquals(4, rows.size());
                for (Row r : rows) {
                    assertEquals(4, r.samples().size(), r::toString);
                    assertEquals(Boolean.TRUE, r.forked(), r::toString);
                    assertEquals(2, r.forks(), r::toString);
                }
                StringWriter json = new StringWriter();
                Report.json(rows, new PrintWriter(json));
                assertTrue(json.toString().contains(", \"forked\": true, \"forks\": 2}"), json::toString);
                for (Contender c : all) {
                    ForkedContender f = (ForkedContender) c;
                    List<ForkedContender.Measured> m = f.measured();
                    // Per cell: a warm-up (half a sample) and two rounds in one child, then the same in a fresh one.
                    assertEquals(2 * 6, m.size(), m::toString);
                    java.util.Set<Long> pids = new java.util.LinkedHashSet<>();
                    for (int cell = 0; cell < 2; cell++) {
                        for (int group = 0; group < 2; group++) {
                            int at = cell * 6 + group * 3;
                            long pid = m.get(at).pid();
                            assertEquals(sample / 2, m.get(at).nanos(), m::toString);
                            assertEquals(List.of(new ForkedContender.Measured(pid, sample),
                                    new ForkedContender.Measured(pid, sample)), m.subList(at + 1, at + 3), m::toString);
                            pids.add(pid);
                        }
                    }
                    assertEquals(4, pids.size(), c.name() + ": a JVM of its own for every group of every cell " + m);
                    assertEquals(f.process().pid(), m.getLast().pid());
                    for (long pid : pids) {
                        // Each replaced child was told to quit and reaped before the next one started.
                        boolean last = pid == f.process().pid();
                        assertEquals(last, ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                                c.name() + " child " + pid);
                    }
                }
            } finally {
                for (Contender c : all) {
                    c.close();
                }
            }
        }
    }

    @Test
    void aChildKilledBetweenGroupsIsAnIOExceptionNamingItNotAHang(@TempDir Path dir) throws Exception {
        try (DataFile data = DataFile.create(dir, 8L << 20, n -> { });
             ForkedContender c = ForkedContender.sluice(Engine.CHANNEL, data.path(), data.size(),
                     new PrintWriter(new StringWriter(), true))) {
            ProcessHandle first = c.process();
            // Runs after the forked contender in round 0, the whole first group of two rounds split in two: its
            // second call (the first is its warm-up) kills that child with SIGKILL before the second group.
            Contender killer = new Contender() {
                private int calls;

                @Override
                public String name() {
                    return "killer";
                }

                @Override
                public String fioReference() {
                    return null;
                }

                @Override
                public Sample measure(Workload workload, int threads, long nanos) {
                    if (++calls == 2) {
                        first.destroyForcibly();
                        first.onExit().join();
                    }
                    return new Sample(1, 1);
                }

                @Override
                public void close() {
                }
            };
            long t0 = System.nanoTime();
            IOException e = assertThrows(IOException.class,
                    () -> Bench.cell(List.of(c, killer), RAND_4K, 1, 20_000_000L, 2, 2, false, true));
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertTrue(seconds < 20, "took " + seconds + " s");
            String m = e.getMessage();
            assertTrue(m.startsWith("CHANNEL (child JVM, pid " + first.pid() + "), measuring " + RAND_4K), m);
            assertTrue(m.contains("ended before it was to be replaced") && m.contains("exit code 137"), m);
            assertEquals(first.pid(), c.process().pid(), "no second child started");
        }
    }

    @Test
    void theChannelsSectionsContendersRunForkedToo(@TempDir Path dir) throws Exception {
        PrintWriter out = new PrintWriter(new StringWriter(), true);
        try (DataFile data = DataFile.create(dir, 8L << 20, n -> { })) {
            data.warm();
            List<Contender> all = new ArrayList<>();
            try {
                all.add(ForkedContender.fileChannelAdapter(Engine.MMAP, data.path(), data.size(), out));
                if (Engine.IO_URING.isAvailable()) {
                    all.add(ForkedContender.async(true, data.path(), data.size(), 4, false, out));
                    all.add(ForkedContender.async(false, data.path(), data.size(), 4, false, out));
                }
                assertEquals(FileChannelAdapterContender.PREFIX + "MMAP", all.get(0).name());
                for (Row r : Bench.cell(all, RAND_4K, 1, 30_000_000L, 1)) {
                    assertTrue(r.opsPerMs() > 0, r::toString);
                    boolean async = r.engine().endsWith("AsynchronousFileChannel");
                    // The depth is the contender's own, answered without asking the child.
                    assertEquals(async ? 4 : 1, r.workload().depth(), r::toString);
                    // Asked without sayForked, as the sections that never fork ask: their JSON stays as it was.
                    assertEquals(null, r.forked(), r::toString);
                }
            } finally {
                for (Contender c : all) {
                    c.close();
                }
            }
        }
    }

    @Test
    void aChildKilledMidSampleIsAnIOExceptionNamingItNotAHang(@TempDir Path dir) throws Exception {
        try (DataFile data = DataFile.create(dir, 8L << 20, n -> { });
             ForkedContender c = ForkedContender.sluice(Engine.CHANNEL, data.path(), data.size(),
                     new PrintWriter(new StringWriter(), true))) {
            ProcessHandle child = c.process();
            Thread killer = Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    return;
                }
                child.destroyForcibly();
            });
            long t0 = System.nanoTime();
            // A sample of 60 s: only the kill can end it in time.
            IOException e = assertThrows(IOException.class, () -> c.measure(RAND_4K, 1, 60_000_000_000L));
            double seconds = (System.nanoTime() - t0) / 1e9;
            killer.join();
            assertTrue(seconds < 20, "took " + seconds + " s");
            String m = e.getMessage();
            assertTrue(m.contains("CHANNEL") && m.contains(RAND_4K.toString()) && m.contains("pid " + child.pid()), m);
            assertTrue(m.contains("exit code 137"), m);
            // Asked again, the dead child is the same failure at once, not a wait.
            assertThrows(IOException.class, () -> c.measure(RAND_4K, 1, 10_000_000L));
        }
    }

    @Test
    void aChildThatCannotStartSaysWhyFromItsStandardError(@TempDir Path dir) {
        StringWriter log = new StringWriter();
        Path missing = dir.resolve("no-such-file");
        IOException e = assertThrows(IOException.class,
                () -> ForkedContender.sluice(Engine.CHANNEL, missing, 1 << 20, new PrintWriter(log, true)));
        String m = e.getMessage();
        assertTrue(m.contains("CHANNEL") && m.contains("exit code " + ContenderHost.FAILED), m);
        assertTrue(m.contains("NoSuchFileException") && m.contains(missing.toString()), m);
        // The child's standard error is in the log too, each line marked with the contender.
        assertTrue(log.toString().contains("[CHANNEL, pid ") && log.toString().contains("NoSuchFileException"),
                log::toString);
    }

    @Test
    void closeLeavesNoChildBehind(@TempDir Path dir) throws Exception {
        try (DataFile data = DataFile.create(dir, 1L << 20, n -> { })) {
            ForkedContender c = ForkedContender.sluice(Engine.MMAP, data.path(), data.size(),
                    new PrintWriter(new StringWriter(), true));
            ProcessHandle child = c.process();
            assertTrue(child.isAlive());
            assertTrue(c.measure(RAND_4K, 1, 10_000_000L).opsPerMs() > 0);
            c.close();
            assertFalse(child.isAlive(), "child " + child.pid() + " still runs");
            assertTrue(ProcessHandle.current().children().noneMatch(p -> p.pid() == child.pid()));
            c.close();
        }
    }

    @Test
    void theChildGetsThisJvmsOptionsButNotThoseThatWriteItsFilesOrAttachToIt() {
        List<String> parent = List.of("-Xmx2g", "--enable-native-access=io.sluice.core", "--module-path=/x/core.jar",
                "-XX:AOTCache=/c/a.aot", "-Xlog:aot=off", "-XX:AOTCacheOutput=/c/t.aot", "-XX:+AutoCreateSharedArchive",
                "-XX:SharedArchiveFile=/c/s.jsa", "-agentlib:jdwp=transport=dt_socket,server=y,address=5005",
                "-javaagent:/a/jacoco.jar", "-Xlog:gc:file=/tmp/gc.log", "-Xlog:gc:/tmp/gc2.log",
                "-Xlog:gc*:file=/tmp/gc-%p.log", "-Xlog:gc:stderr", "-XX:StartFlightRecording=filename=/tmp/r.jfr",
                "-XX:+UseParallelGC");
        assertEquals(List.of("-Xmx2g", "--enable-native-access=io.sluice.core", "--module-path=/x/core.jar",
                        "-XX:AOTCache=/c/a.aot", "-Xlog:aot=off", "-XX:SharedArchiveFile=/c/s.jsa",
                        "-Xlog:gc*:file=/tmp/gc-%p.log", "-Xlog:gc:stderr", "-XX:+UseParallelGC"),
                ForkedContender.jvmOptions(parent));
        List<String> cmd = ForkedContender.command(ContenderHost.class.getName(), List.of("a"));
        assertEquals(ProcessHandle.current().info().command().orElseThrow(), cmd.get(0));
        assertEquals(System.getProperty("java.class.path"), cmd.get(cmd.indexOf("-cp") + 1));
        assertEquals(List.of(ContenderHost.class.getName(), "a"), cmd.subList(cmd.size() - 2, cmd.size()));
    }

    @Test
    void theJsonRowsSayWhetherTheirContenderWasForked() {
        List<Sample> one = List.of(new Sample(10, 4.096e7));
        List<Row> rows = List.of(new Row("CLASSIC", RAND_4K, 1, "fio-psync", one, true, 3),
                new Row("MMAP", RAND_4K, 1, "fio-mmap", one, false, 1), new Row("fio-psync", RAND_4K, 1, null, one));
        StringWriter json = new StringWriter();
        Report.json(rows, new PrintWriter(json));
        String[] lines = json.toString().split("\n");
        assertTrue(lines[1].startsWith("  {\"engine\": \"CLASSIC\"")
                && lines[1].endsWith(", \"forked\": true, \"forks\": 3},"), lines[1]);
        assertTrue(lines[2].endsWith(", \"forked\": false, \"forks\": 1},"), lines[2]);
        // A row that does not say keeps the fields it always had.
        assertTrue(lines[3].endsWith("\"ratioToBaseline\": 1.0000}") && !lines[3].contains("forked"), lines[3]);
    }

    @Test
    void anAnswersTextSurvivesTheOneLineProtocol() {
        String text = "device 8:1: a\\b" + System.lineSeparator() + "device 8:2: c";
        String line = ContenderHost.escape(text);
        assertFalse(line.contains("\n"), line);
        assertEquals(text, ContenderHost.unescape(line));
        assertEquals("measure randread 4096 1 false cached 2 5", ContenderHost.measureRequest(RAND_4K, 2, 5));
    }
}
