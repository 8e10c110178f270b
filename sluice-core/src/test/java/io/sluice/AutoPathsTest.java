package io.sluice;

import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * AUTO's paths against one another: bytes written by one mechanism read back by another, at page edges, across a
 * truncate and across growth. Each file here has a pinned chooser, so which path a read takes is known: MAP_ALL sends
 * every read the mapping covers to the mapping (and the mapping follows the file at the first read past it),
 * PREAD_ALL sends every read to pread.
 */
class AutoPathsTest {
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    private static AutoChooser pinned(long mapMax) {
        return new AutoChooser(new AutoThresholds(mapMax, mapMax, "test"), false, () -> 0, System::nanoTime);
    }

    private static AutoFile mapAll(Path p, java.nio.file.OpenOption... options) throws IOException {
        return AutoFile.open(p, OpenSpec.parse(options), pinned(Long.MAX_VALUE), 1, false);
    }

    private static AutoFile preadAll(Path p, java.nio.file.OpenOption... options) throws IOException {
        return AutoFile.open(p, OpenSpec.parse(options), pinned(0), 1, false);
    }

    private static void assertMapped(AutoFile f, long end) {
        assertTrue(f.mappedBytes() >= end, "the mapping covers " + end + " (it covers " + f.mappedBytes() + ")");
    }

    @Test
    void pwritesAtPageEdgesReadBackThroughTheMappingAndByPread() throws IOException {
        Path p = Pattern.file(dir.resolve("f"), 4L * PAGE);
        try (AutoFile w = mapAll(p, WRITE); AutoFile other = preadAll(p)) {
            assertPattern(Dst.NATIVE_SEGMENT.readFully(w, 0, 10), 10, 0); // maps the file
            assertMapped(w, 4L * PAGE);
            for (long edge : new long[] {PAGE, 2L * PAGE, 3L * PAGE}) {
                for (int before : new int[] {1, 7, 300}) {
                    byte[] mine = Pattern.bytes(edge * 31 + before, 2 * before + 1);
                    w.writeFully(mine, 0, mine.length, edge - before); // pwrite across the page edge
                    for (Dst via : Dst.values()) {
                        assertArrayEquals(mine, via.readFully(w, edge - before, mine.length), "mapping, via " + via);
                        assertArrayEquals(mine, via.readFully(other, edge - before, mine.length), "pread, via " + via);
                    }
                }
            }
            assertMapped(w, 4L * PAGE);
        }
    }

    @Test
    void writesThatGrowTheFileAreReadThroughTheMappingOnceItFollows() throws IOException {
        Path p = Pattern.file(dir.resolve("f"), PAGE + 10);
        try (AutoFile f = mapAll(p, WRITE)) {
            assertPattern(Dst.ARRAY_SLICE.readFully(f, 0, 100), 100, 0);
            long mapped = f.mappedBytes();
            assertEquals(PAGE + 10, mapped);
            byte[] tail = Pattern.bytes(5, 3 * PAGE);
            f.writeFully(tail, 0, tail.length, 2L * PAGE + 1); // past the end: a gap of zeros, then the bytes
            assertEquals(5L * PAGE + 1, f.size());
            // the first read past the mapping makes it follow the file (pinned to do so at once), then copies
            assertArrayEquals(tail, Dst.HEAP_SEGMENT.readFully(f, 2L * PAGE + 1, tail.length));
            assertMapped(f, 5L * PAGE + 1);
            byte[] gap = Dst.DIRECT_BUFFER.readFully(f, PAGE + 10, PAGE - 9);
            assertArrayEquals(new byte[PAGE - 9], gap, "the gap reads as zeros through the mapping");
            assertEquals(-1, f.read(new byte[1], 0, 1, 5L * PAGE + 1));
        }
    }

    @ParameterizedTest
    @EnumSource(Dst.class)
    void aTruncateInsideAPageEndsTheFileForTheMappingToo(Dst via) throws IOException {
        Path p = Pattern.file(dir.resolve("f"), 5L * PAGE);
        long end = 2L * PAGE + 100;
        try (AutoFile f = mapAll(p, WRITE); AutoFile other = preadAll(p, WRITE)) {
            assertPattern(via.readFully(f, 0, 10), 10, 0);
            assertMapped(f, 5L * PAGE);
            f.truncate(end);
            byte[] into = new byte[300];
            // In the page holding the new end, a stale mapping would still read (zeros): the truncate shrank it first.
            assertEquals(-1, via.read(f, end + 200, into, 100, false), "past the end, in the end's page");
            assertEquals(-1, via.read(f, end, into, 1, false), "at the end");
            assertEquals(-1, via.read(other, end + 200, into, 100, false), "pread past the end");
            assertEquals(50, via.read(f, end - 50, into, 100, false), "across the end");
            assertPattern(into, 50, end - 50);
            // Grown again by pwrite on the other file: the gap reads as zeros whichever path reads it.
            byte[] mine = Pattern.bytes(77, 200);
            other.writeFully(mine, 0, mine.length, 3L * PAGE - 100); // across the page edge
            assertArrayEquals(mine, via.readFully(f, 3L * PAGE - 100, 200), "mapping after growth");
            assertMapped(f, 3L * PAGE + 100);
            assertArrayEquals(new byte[PAGE - 200], via.readFully(f, end, PAGE - 200), "zeros where the cut was");
            assertArrayEquals(new byte[PAGE - 200], via.readFully(other, end, PAGE - 200), "pread, the same");
        }
    }

    @Test
    void writesOneAtATimeArePwritesAndNeverOpenTheRing() throws Exception {
        // ext4 hands a buffered io_uring write to a kernel worker, several times slower than pwrite in the caller.
        Path p = Pattern.file(dir.resolve("f"), 8L * PAGE);
        try (AutoFile f = mapAll(p, WRITE); Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(PAGE);
            for (int i = 0; i < 64; i++) {
                long at = (i * 7L % 8) * PAGE + (i % 3) * 100;
                f.write(seg.asSlice(0, 512), at);
                f.write(java.nio.ByteBuffer.allocateDirect(300), at + 512);
                f.write(java.nio.ByteBuffer.allocate(200), at + 1024);
                f.write(new byte[100], 0, 100, at + 2048);
                f.write(at + 3000, java.nio.ByteBuffer.allocate(10), java.nio.ByteBuffer.allocate(20));
                f.write(at + 3100, seg.asSlice(0, 10), seg.asSlice(10, 20));
            }
            assertFalse(f.ringOpened(), "a single write went through io_uring");
        }
    }

    @Test
    void ringWritesReadBackThroughTheMappingAndPwritesThroughTheRing() throws Exception {
        Path p = Pattern.file(dir.resolve("f"), 8L * PAGE);
        try (AutoFile f = mapAll(p, WRITE); Arena arena = Arena.ofConfined()) {
            assertPattern(Dst.NATIVE_SEGMENT.readFully(f, 0, 10), 10, 0);
            assertNotNull(f.uring(), "io_uring serves this file's batches and asynchronous calls");
            MemorySegment src = arena.allocate(300);
            src.copyFrom(MemorySegment.ofArray(Pattern.bytes(999, 300)));
            assertEquals(300, f.writeAsync(src, PAGE - 150).get());
            assertArrayEquals(Pattern.bytes(999, 300), Dst.LONG_SEGMENT.readFully(f, PAGE - 150, 300));

            IoBatch batch = IoBatch.create(4);
            MemorySegment a = arena.allocate(200);
            a.copyFrom(MemorySegment.ofArray(Pattern.bytes(1234, 200)));
            batch.write(f, a, 3L * PAGE - 100);
            assertEquals(0, batch.submit());
            assertArrayEquals(Pattern.bytes(1234, 200), Dst.HEAP_BUFFER.readFully(f, 3L * PAGE - 100, 200));

            byte[] mine = Pattern.bytes(4321, 500);
            f.writeFully(mine, 0, mine.length, 5L * PAGE - 250); // pwrite
            MemorySegment dst = arena.allocate(500);
            assertEquals(500, f.readAsync(dst, 5L * PAGE - 250).get());
            assertArrayEquals(mine, dst.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
            batch.clear();
            MemorySegment dst2 = arena.allocate(500);
            batch.read(f, dst2, 5L * PAGE - 250);
            assertEquals(0, batch.submit());
            assertEquals(500, batch.result(0));
            assertArrayEquals(mine, dst2.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void theRingIsNotUsedWhenThePathNowNamesAnotherFile() throws Exception {
        Path p = Pattern.file(dir.resolve("f"), 2L * PAGE);
        Path other = Pattern.file(dir.resolve("g"), 2L * PAGE);
        try (AutoFile f = mapAll(p, WRITE); Arena arena = Arena.ofConfined()) {
            Files.move(other, p, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            assertNull(f.uring(), "the path names another inode now");
            MemorySegment src = arena.allocate(100);
            src.copyFrom(MemorySegment.ofArray(Pattern.bytes(55, 100)));
            // still written to the file this handle opened, synchronously
            assertEquals(100, f.writeAsync(src, 10).get());
            assertArrayEquals(Pattern.bytes(55, 100), Dst.ARRAY_SLICE.readFully(f, 10, 100));
        }
        assertPattern(Files.readAllBytes(p), 2 * PAGE, 0); // the file now at the path was not touched
    }

    @Test
    void devicesAndProcFilesAreReadWithoutAMapping() throws IOException {
        try (AutoFile f = mapAll(Path.of("/proc/self/status"))) {
            assertFalse(f.maps());
            byte[] into = new byte[64];
            assertTrue(f.read(into, 0, 64, 0) > 0, "a /proc file, size 0, has bytes");
        }
    }

    @Test
    void onlyTimedReadsReadTheClock() throws IOException {
        Path p = Pattern.file(dir.resolve("f"), 64L * PAGE);
        int[] clockReads = {0};
        // Adaptive, every read to the mapping, the next timed read always SAMPLE_EVERY reads away, none exploring.
        AutoChooser c = new AutoChooser(new AutoThresholds(Long.MAX_VALUE, Long.MAX_VALUE, "test"), true,
                () -> AutoChooser.GAP_SPAN + AutoChooser.SAMPLE_EVERY - 1, () -> {
                    clockReads[0]++;
                    return 0;
                });
        int reads = 10 * AutoChooser.SAMPLE_EVERY;
        try (AutoFile f = AutoFile.open(p, OpenSpec.parse(), c, 1, false); Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(100);
            java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate(100);
            byte[] array = new byte[100];
            for (int i = 0; i < reads; i++) {
                long pos = (i * 997L) % (64L * PAGE - 100);
                byte[] got = switch (i % 3) {
                    case 0 -> {
                        assertEquals(100, f.read(seg, pos));
                        yield seg.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
                    }
                    case 1 -> {
                        assertEquals(100, f.read(buf.clear(), pos));
                        assertEquals(100, buf.position());
                        yield buf.array().clone();
                    }
                    default -> {
                        assertEquals(100, f.read(array, 0, 100, pos));
                        yield array.clone();
                    }
                };
                assertPattern(got, 100, pos);
            }
            assertMapped(f, 64L * PAGE);
        }
        assertEquals(2 * reads / AutoChooser.SAMPLE_EVERY, clockReads[0], "two clock reads per timed read");
    }

    private static void assertPattern(byte[] actual, int length, long position) {
        PositionalFileContract.assertPattern(actual, length, position);
    }
}
