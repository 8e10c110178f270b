package io.sluice.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.Engine;
import io.sluice.IoCounters;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The JFR events of Sluice's reads and writes as the adapters show them, recorded with {@link Recording} and read back
 * with {@link RecordingFile}: one per engine call, made by sluice-core (its own {@code JfrEventsTest} covers the
 * engines used directly), none from the adapters themselves.
 */
class JfrEventsTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Engine.class)
    void readsAndWritesOfTheFileChannelAreRecorded(Engine engine) throws Exception {
        Assumptions.assumeTrue(engine.isAvailable(), () -> engine.unavailabilityCause().orElse(""));
        Path file = Files.write(dir.resolve("data"), new byte[10_000]);
        List<RecordedEvent> events;
        try (Recording rec = new Recording()) {
            rec.enable("io.sluice.FileRead").withThreshold(Duration.ZERO);
            rec.enable("io.sluice.FileWrite").withThreshold(Duration.ZERO);
            rec.start();
            try (FileChannel ch = SluiceChannels.open(file, engine, StandardOpenOption.READ,
                    StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(new byte[300]), 4000);
                ch.read(ByteBuffer.allocate(700), 1234);
                ch.read(ByteBuffer.allocate(10), 20_000);
                ch.position(100);
                ch.write(new ByteBuffer[] {ByteBuffer.allocate(5), ByteBuffer.allocate(6)});
            }
            rec.stop();
            events = read(rec);
        }
        List<RecordedEvent> reads = of(named(events, "io.sluice.FileRead"), file);
        List<RecordedEvent> writes = of(named(events, "io.sluice.FileWrite"), file);
        assertEquals(2, reads.size(), () -> "reads: " + reads);
        assertEquals(2, writes.size(), () -> "writes: " + writes);
        check(writes.get(0), file, engine, 4000, 300);
        check(reads.get(0), file, engine, 1234, 700);
        assertFalse(reads.get(0).getBoolean("endOfFile"));
        check(reads.get(1), file, engine, 20_000, 0);
        assertTrue(reads.get(1).getBoolean("endOfFile"));
        check(writes.get(1), file, engine, 100, 11);
        assertNotNull(reads.get(0).getStackTrace(), "a stack trace, as jdk.FileRead has");
    }

    @Test
    void asynchronousReadsAndWritesAreRecordedFromSubmissionToCompletion() throws Exception {
        Assumptions.assumeTrue(Engine.IO_URING.isAvailable(), () -> Engine.IO_URING.unavailabilityCause().orElse(""));
        Path file = Files.write(dir.resolve("async"), new byte[8192]);
        List<RecordedEvent> events;
        try (Recording rec = new Recording()) {
            rec.enable("io.sluice.FileRead").withThreshold(Duration.ZERO);
            rec.enable("io.sluice.FileWrite").withThreshold(Duration.ZERO);
            rec.start();
            try (AsynchronousFileChannel ch = SluiceChannels.openAsynchronous(file, Engine.IO_URING,
                    Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE), null)) {
                ch.write(ByteBuffer.allocateDirect(512), 4096).get(10, TimeUnit.SECONDS);
                ch.read(ByteBuffer.allocateDirect(1024), 2048).get(10, TimeUnit.SECONDS);
            }
            rec.stop();
            events = read(rec);
        }
        List<RecordedEvent> reads = of(named(events, "io.sluice.FileRead"), file);
        List<RecordedEvent> writes = of(named(events, "io.sluice.FileWrite"), file);
        assertEquals(1, reads.size(), () -> "reads: " + reads);
        assertEquals(1, writes.size(), () -> "writes: " + writes);
        check(reads.get(0), file, Engine.IO_URING, 2048, 1024);
        check(writes.get(0), file, Engine.IO_URING, 4096, 512);
    }

    @Test
    void nothingIsRecordedUnderTheThresholdNorWhileDisabled() throws Exception {
        Path file = Files.write(dir.resolve("quiet"), new byte[4096]);
        List<RecordedEvent> events;
        try (Recording rec = new Recording()) {
            rec.enable("io.sluice.FileRead").withThreshold(Duration.ofHours(1));
            rec.disable("io.sluice.FileWrite");
            rec.start();
            try (FileChannel ch = SluiceChannels.open(file, Engine.CHANNEL, StandardOpenOption.READ,
                    StandardOpenOption.WRITE)) {
                ch.read(ByteBuffer.allocate(100), 0);
                ch.write(ByteBuffer.allocate(100), 0);
            }
            rec.stop();
            events = read(rec);
        }
        assertEquals(List.of(), of(events.stream().filter(e -> e.getEventType().getName().startsWith("io.sluice.File"))
                .toList(), file));
    }

    @Test
    void countersArrivePeriodicallyWithTheFaultsOfAFileCutUnderAMapping() throws Exception {
        Assumptions.assumeTrue(Engine.MMAP.isAvailable(), () -> Engine.MMAP.unavailabilityCause().orElse(""));
        Path file = Files.write(dir.resolve("cut"), new byte[1 << 20]);
        List<RecordedEvent> events;
        long before = IoCounters.mappedFaults();
        try (Recording rec = new Recording()) {
            rec.enable("io.sluice.IoCounters").withPeriod(Duration.ofMillis(100));
            rec.start();
            try (FileChannel ch = SluiceChannels.open(file, Engine.MMAP, StandardOpenOption.READ)) {
                ch.read(ByteBuffer.allocate(100), 0); // maps the whole file
                try (FileChannel other = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    other.truncate(4096);
                }
                // The page at 512 KiB is gone: the copy faults, the engine follows the new size and finds the end.
                assertEquals(-1, ch.read(ByteBuffer.allocate(100), 512 * 1024));
            }
            long after = IoCounters.mappedFaults();
            assertTrue(after > before, "mapped faults " + before + " -> " + after);
            Thread.sleep(400);
            rec.stop();
            events = read(rec);
        }
        List<RecordedEvent> counters = named(events, "io.sluice.IoCounters");
        assertFalse(counters.isEmpty(), "no io.sluice.IoCounters event");
        RecordedEvent last = counters.get(counters.size() - 1);
        assertTrue(last.getLong("mappedFaults") > before, last.toString());
        assertTrue(last.getLong("uringSlotWaits") >= 0, last.toString());
    }

    @Test
    void ringBackPressureIsCounted() throws Exception {
        Assumptions.assumeTrue(Engine.IO_URING.isAvailable(), () -> Engine.IO_URING.unavailabilityCause().orElse(""));
        Path file = Files.write(dir.resolve("deep"), new byte[16 << 20]);
        long before = IoCounters.uringSlotWaits();
        // Far more O_DIRECT reads in flight than a ring has request slots: submitting waits for slots to free.
        try (AsynchronousFileChannel ch = SluiceChannels.openAsynchronous(file, Engine.IO_URING,
                Set.of(StandardOpenOption.READ, io.sluice.SluiceOption.DIRECT), null)) {
            ByteBuffer buf = ByteBuffer.allocateDirect(8192).alignedSlice(4096).limit(4096);
            List<java.util.concurrent.Future<Integer>> inFlight = new java.util.ArrayList<>();
            for (int i = 0; i < 8192; i++) {
                inFlight.add(ch.read(buf.duplicate(), (long) (i % 4096) * 4096));
            }
            for (var f : inFlight) {
                assertEquals(4096, f.get(30, TimeUnit.SECONDS));
            }
        }
        assertTrue(IoCounters.uringSlotWaits() > before, "slot waits " + before + " -> " + IoCounters.uringSlotWaits());
    }

    private static void check(RecordedEvent e, Path file, Engine engine, long position, long bytes) {
        assertEquals(file.toString(), e.getString("path"), e.toString());
        assertEquals(engine.name(), e.getString("engine"), e.toString());
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

    /**
     * The events of {@code file}: where Sluice's provider is the JVM's default (the lucene-* executions), the test's
     * own file I/O and the recording's are Sluice's reads and writes too.
     */
    private static List<RecordedEvent> of(List<RecordedEvent> events, Path file) {
        return events.stream().filter(e -> file.toString().equals(e.getString("path"))).toList();
    }

    private static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
        return events.stream().filter(e -> e.getEventType().getName().equals(name)).toList();
    }
}
