package io.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.internal.jfr.FileReadEvent;
import io.sluice.internal.jfr.FileWriteEvent;
import io.sluice.internal.jfr.Jfr;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import jdk.jfr.EventType;
import jdk.jfr.Recording;
import jdk.jfr.SettingDescriptor;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The engines' own JFR events, with {@link PositionalFile} and {@link MappedWriter} used directly: recorded with
 * {@link Recording} and read back with {@link RecordingFile}, and, on the module path, a JVM without {@code jdk.jfr}
 * and one where {@code -XX:StartFlightRecording} brings it in.
 */
class JfrEventsTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Engine.class)
    void eachReadAndWriteOfAnEngineIsOneEvent(Engine engine) throws Exception {
        Assumptions.assumeTrue(engine.isAvailable(), () -> engine.unavailabilityCause().orElse(""));
        Path file = Files.write(dir.resolve("data"), new byte[10_000]);
        List<RecordedEvent> events;
        try (Recording rec = new Recording()) {
            rec.enable("io.sluice.FileRead").withThreshold(Duration.ZERO);
            rec.enable("io.sluice.FileWrite").withThreshold(Duration.ZERO);
            rec.start();
            try (PositionalFile f = PositionalFile.open(file, engine, StandardOpenOption.READ,
                    StandardOpenOption.WRITE); Arena arena = Arena.ofConfined()) {
                f.write(ByteBuffer.wrap(new byte[300]), 4000);
                f.write(arena.allocate(200), 6000);
                f.write(new byte[50], 0, 50, 7000);
                f.write(100, ByteBuffer.allocate(5), ByteBuffer.allocate(6));
                assertEquals(512, f.writeAsync(arena.allocate(512), 8192).get(10, TimeUnit.SECONDS));
                assertEquals(700, f.read(new byte[700], 1234));
                assertEquals(64, f.read(ByteBuffer.allocateDirect(64), 2000));
                assertEquals(-1, f.read(arena.allocate(10), 20_000));
                assertEquals(30, f.read(3000, arena.allocate(10), arena.allocate(20)));
                assertEquals(1024, f.readAsync(arena.allocate(1024), 2048).get(10, TimeUnit.SECONDS));
                f.read(ByteBuffer.allocate(0), 0); // nothing moved: no event
            }
            rec.stop();
            events = read(rec);
        }
        List<RecordedEvent> writes = of(named(events, "io.sluice.FileWrite"), file);
        List<RecordedEvent> reads = of(named(events, "io.sluice.FileRead"), file);
        assertEquals(5, writes.size(), () -> "writes: " + writes);
        assertEquals(5, reads.size(), () -> "reads: " + reads);
        String name = engine.name();
        check(writes.get(0), file, name, 4000, 300);
        check(writes.get(1), file, name, 6000, 200);
        check(writes.get(2), file, name, 7000, 50);
        check(writes.get(3), file, name, 100, 11);
        check(writes.get(4), file, name, 8192, 512);
        check(reads.get(0), file, name, 1234, 700);
        check(reads.get(1), file, name, 2000, 64);
        check(reads.get(2), file, name, 20_000, 0);
        check(reads.get(3), file, name, 3000, 30);
        check(reads.get(4), file, name, 2048, 1024);
        for (int i = 0; i < reads.size(); i++) {
            assertEquals(i == 2, reads.get(i).getBoolean("endOfFile"), reads.get(i).toString());
        }
        assertNotNull(reads.get(0).getStackTrace(), "a stack trace, as jdk.FileRead has");
    }

    @Test
    void aMappedWritersWritesAreEventsAtTheirFilePositions() throws Exception {
        Path file = dir.resolve("log");
        List<RecordedEvent> events;
        try (Recording rec = new Recording()) {
            rec.enable("io.sluice.FileWrite").withThreshold(Duration.ZERO);
            rec.start();
            // A window of one page, so that the third write runs across windows (the slow path).
            try (MappedWriter w = MappedWriter.open(file, 0, MappedWriter.MIN_WINDOW_SIZE)) {
                w.write(new byte[100]);
                w.write(ByteBuffer.allocateDirect(40));
                w.write(MemorySegment.ofArray(new byte[5000]));
            }
            rec.stop();
            events = read(rec);
        }
        List<RecordedEvent> writes = of(named(events, "io.sluice.FileWrite"), file);
        assertEquals(3, writes.size(), () -> "writes: " + writes);
        check(writes.get(0), file, "MappedWriter", 0, 100);
        check(writes.get(1), file, "MappedWriter", 100, 40);
        check(writes.get(2), file, "MappedWriter", 140, 5000);
    }

    @Test
    void theFlagFollowsTheRecordingsAndNothingIsRecordedOutsideOne() throws Exception {
        Path file = Files.write(dir.resolve("gate"), new byte[4096]);
        try (PositionalFile f = PositionalFile.open(file, Engine.CHANNEL, StandardOpenOption.READ)) {
            f.read(new byte[10], 0); // the flag's class is initialized, its listener installed
            assertFalse(Jfr.recording(), "no recording runs yet");
            List<RecordedEvent> events;
            try (Recording rec = new Recording(); Recording other = new Recording()) {
                rec.enable("io.sluice.FileRead").withThreshold(Duration.ZERO);
                rec.start();
                assertTrue(Jfr.recording(), "set by the time start() returns");
                other.start();
                other.stop();
                assertTrue(Jfr.recording(), "another recording's stop leaves it set while this one runs");
                f.read(new byte[11], 100);
                rec.stop();
                assertFalse(Jfr.recording(), "cleared by the time stop() returns");
                f.read(new byte[12], 200); // after the stop: not in the recording
                events = read(rec);
            }
            List<RecordedEvent> reads = of(named(events, "io.sluice.FileRead"), file);
            assertEquals(1, reads.size(), () -> "reads: " + reads);
            check(reads.get(0), file, "CHANNEL", 100, 11);
        }
    }

    @Test
    void nothingIsRecordedUnderTheThresholdNorWhileDisabled() throws Exception {
        Path file = Files.write(dir.resolve("quiet"), new byte[4096]);
        List<RecordedEvent> events;
        try (Recording rec = new Recording()) {
            rec.enable("io.sluice.FileRead").withThreshold(Duration.ofHours(1));
            rec.disable("io.sluice.FileWrite");
            rec.start();
            try (PositionalFile f = PositionalFile.open(file, Engine.CHANNEL, StandardOpenOption.READ,
                    StandardOpenOption.WRITE)) {
                f.read(new byte[100], 0);
                f.write(new byte[100], 0, 100, 0);
            }
            rec.stop();
            events = read(rec);
        }
        assertEquals(List.of(), of(events.stream().filter(e -> e.getEventType().getName().startsWith("io.sluice.File"))
                .toList(), file));
    }

    @Test
    void thresholdsDefaultTo20MsAsTheJdksFileEvents() {
        for (Class<? extends jdk.jfr.Event> c : List.of(FileReadEvent.class, FileWriteEvent.class)) {
            EventType t = EventType.getEventType(c);
            String threshold = t.getSettingDescriptors().stream().filter(s -> s.getName().equals("threshold"))
                    .map(SettingDescriptor::getDefaultValue).findFirst().orElse(null);
            assertEquals("20 ms", threshold, t.getName());
            assertTrue(t.getFields().stream().map(f -> f.getName()).collect(Collectors.toSet())
                    .containsAll(Set.of("path", "position", "bytes", "engine", "duration")), t.getName());
        }
    }

    /**
     * On the module path with {@code jdk.jfr} not even observable ({@code --limit-modules}), reads and writes work and
     * nothing of JFR is loaded; with {@code -XX:StartFlightRecording}, which brings the module in, the same program's
     * reads and writes are in the recording.
     */
    @Test
    void onTheModulePathWithoutJdkJfrNothingBreaksAndWithARecordingEventsArrive() throws Exception {
        Path out = compileConsumer();
        String modulePath = classes() + java.io.File.pathSeparator + out;
        Path data = dir.resolve("child-data");

        String without = runChild(List.of("--module-path", modulePath, "--limit-modules", "consumer",
                "--enable-native-access=io.sluice.core", "-Xlog:class+load=info", "-m", "consumer/consumer.Main",
                data.toString()));
        assertTrue(without.contains("read 100 of 100; jdk.jfr false"), without);
        assertTrue(without.contains("io.sluice.internal.jfr.Jfr "), "the flag's class is loaded:\n" + without);
        for (String c : List.of("jdk.jfr.", "io.sluice.internal.jfr.Jfr$Listener", "io.sluice.internal.jfr.Events",
                "io.sluice.internal.jfr.FileReadEvent", "io.sluice.internal.jfr.FileWriteEvent")) {
            assertFalse(without.contains(c), c + " was loaded:\n" + without);
        }

        Path jfr = dir.resolve("child.jfr");
        String with = runChild(List.of("--module-path", modulePath, "--enable-native-access=io.sluice.core",
                "-XX:StartFlightRecording=filename=" + jfr + ",+io.sluice.FileRead#threshold=0ms,"
                        + "+io.sluice.FileWrite#threshold=0ms",
                "-m", "consumer/consumer.Main", data.toString()));
        assertTrue(with.contains("read 100 of 100; jdk.jfr true"), with);
        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
        List<RecordedEvent> reads = of(named(events, "io.sluice.FileRead"), data);
        List<RecordedEvent> writes = of(named(events, "io.sluice.FileWrite"), data);
        assertEquals(1, reads.size(), () -> with + "\n" + reads);
        check(reads.get(0), data, "CHANNEL", 0, 100);
        assertEquals(1, writes.size(), () -> with + "\n" + writes);
        check(writes.get(0), data, "CHANNEL", 0, 100);
        Path log = Path.of(data + ".log");
        List<RecordedEvent> appends = of(named(events, "io.sluice.FileWrite"), log);
        assertEquals(1, appends.size(), () -> with + "\n" + appends);
        check(appends.get(0), log, "MappedWriter", 0, 10);
    }

    private String runChild(List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElseThrow());
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", cmd));
        assertEquals(0, p.exitValue(), () -> String.join(" ", cmd) + "\n" + out);
        return out;
    }

    /** A module {@code consumer} requiring io.sluice.core alone, whose main writes, reads and appends a little. */
    private Path compileConsumer() throws Exception {
        Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("consumer"));
        Files.writeString(src.resolve("module-info.java"), "module consumer { requires io.sluice.core; }\n");
        Files.writeString(src.resolve("consumer/Main.java"), """
                package consumer;

                import io.sluice.Engine;
                import io.sluice.MappedWriter;
                import io.sluice.PositionalFile;
                import java.nio.file.Path;
                import java.nio.file.StandardOpenOption;

                public class Main {
                    public static void main(String[] args) throws Exception {
                        Path p = Path.of(args[0]);
                        int n;
                        try (PositionalFile f = PositionalFile.open(p, Engine.CHANNEL, StandardOpenOption.READ,
                                StandardOpenOption.WRITE, StandardOpenOption.CREATE)) {
                            f.write(new byte[100], 0, 100, 0);
                            n = f.read(new byte[100], 0);
                        }
                        try (MappedWriter w = MappedWriter.open(Path.of(args[0] + ".log"))) {
                            w.write(new byte[10]);
                        }
                        System.out.println("read " + n + " of 100; jdk.jfr "
                                + ModuleLayer.boot().findModule("jdk.jfr").isPresent());
                    }
                }
                """);
        Path out = dir.resolve("out");
        StringWriter diagnostics = new StringWriter();
        PrintWriter w = new PrintWriter(diagnostics);
        int code = ToolProvider.findFirst("javac").orElseThrow().run(w, w, "--module-path", classes().toString(),
                "-d", out.toString(), src.resolve("module-info.java").toString(),
                src.resolve("consumer/Main.java").toString());
        w.flush();
        assertEquals(0, code, diagnostics.toString());
        return out;
    }

    private static Path classes() throws URISyntaxException {
        return Path.of(PositionalFile.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static void check(RecordedEvent e, Path file, String engine, long position, long bytes) {
        assertEquals(file.toString(), e.getString("path"), e.toString());
        assertEquals(engine, e.getString("engine"), e.toString());
        assertEquals(position, e.getLong("position"), e.toString());
        assertEquals(bytes, e.getLong("bytes"), e.toString());
        assertFalse(e.getDuration().isNegative(), e.toString());
    }

    private List<RecordedEvent> read(Recording rec) throws Exception {
        Path out = dir.resolve("rec-" + System.nanoTime() + ".jfr");
        rec.dump(out);
        return RecordingFile.readAllEvents(out).stream()
                .sorted((a, b) -> a.getStartTime().compareTo(b.getStartTime())).toList();
    }

    private static List<RecordedEvent> of(List<RecordedEvent> events, Path file) {
        return events.stream().filter(e -> file.toString().equals(e.getString("path"))).toList();
    }

    private static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
        return events.stream().filter(e -> e.getEventType().getName().equals(name)).toList();
    }
}
