package io.sluice;

import static java.nio.file.StandardOpenOption.APPEND;
import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.DELETE_ON_CLOSE;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.TRUNCATE_EXISTING;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link MappedWriter}: contents across windows, the file's length, positions, large offsets and failures. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MappedWriterTest {
    static final long KiB = 1L << 10;
    static final long MiB = 1L << 20;
    static final long GiB = 1L << 30;
    /** A directory on a small file system, for the test of a full disk; that test is skipped without it. */
    static final String SMALL_FS_PROPERTY = "sluice.test.smallfs";

    @TempDir
    Path dir;

    /** Reads {@code length} bytes at {@code position} with a plain channel, independent of the writer. */
    static byte[] read(Path p, long position, int length) throws IOException {
        try (FileChannel c = FileChannel.open(p, READ)) {
            ByteBuffer b = ByteBuffer.allocate(length);
            while (b.hasRemaining()) {
                if (c.read(b, position + b.position()) < 0) {
                    fail("file ends at " + (position + b.position()) + ", before " + (position + length));
                }
            }
            return b.array();
        }
    }

    static void assertPatternAt(Path p, long position, int length) throws IOException {
        byte[] got = read(p, position, length);
        int at = Pattern.mismatch(got, 0, length, position);
        if (at >= 0) {
            fail("byte " + (position + at) + ": expected " + Pattern.at(position + at) + " but found " + got[at]);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {4096, 3 * 4096 + 1000, 1 << 20})
    void everyKindOfSourceLandsInOrderAcrossWindows(long window) throws IOException {
        Path p = dir.resolve("f");
        SplittableRandom rnd = new SplittableRandom(window);
        long total = 0;
        try (MappedWriter w = MappedWriter.open(p, -1, window)) {
            assertEquals(0, w.position());
            assertEquals(window, w.windowSize());
            for (int i = 0; i < 400; i++) {
                // mostly small writes, some empty, some spanning several windows
                int len = switch (rnd.nextInt(10)) {
                    case 0 -> 0;
                    case 1 -> (int) (window * 2 + rnd.nextInt(5000));
                    default -> 1 + rnd.nextInt(3000);
                };
                Src via = Src.values()[i % Src.values().length];
                via.append(w, Pattern.bytes(total, len), 0, len);
                total += len;
                assertEquals(total, w.position(), "position after " + via + " of " + len);
            }
            // While open, the file reaches the end of the current window: a whole number of windows.
            long grown = Files.size(p);
            assertTrue(grown >= total && grown % window == 0 && grown - total <= window, "grown to " + grown);
        }
        assertEquals(total, Files.size(p), "close cuts the file to the bytes written");
        assertPatternAt(p, 0, (int) total);
    }

    /**
     * Pages are asked for ahead of the copies only past the file's end: over bytes the file held, the copies fault
     * them in as the seed's writers do, since a request there made 1 KiB overwrites of a cached file written by
     * write() take 1.38 times as long (docs/benchmarks/2026-11-26-deciding-s7.md). Seen through the writer's record of how much of each window
     * was file data when it was mapped, over a file that ends inside the second window.
     */
    @Test
    void onlyThePartOfAWindowPastTheFilesEndIsAskedForAhead() throws Exception {
        long window = 2 << 20;
        Path p = Pattern.file(dir.resolve("f"), (int) (window + window / 2));
        java.lang.reflect.Field existing = MappedWriter.class.getDeclaredField("existing");
        existing.setAccessible(true);
        try (MappedWriter w = MappedWriter.open(p, 0, window, WRITE)) {
            byte[] chunk = new byte[64 << 10];
            long[] seen = new long[3];
            for (int i = 0; i < seen.length; i++) {
                for (long n = 0; n < window; n += chunk.length) {
                    w.write(chunk);
                }
                seen[i] = existing.getLong(w);
            }
            assertArrayEquals(new long[] {window, window / 2, 0}, seen);
        }
        assertEquals(3 * window, Files.size(p));
    }

    @Test
    void noOptionsCreatesOrTruncatesAsFilesNewOutputStreamDoes() throws IOException {
        Path p = dir.resolve("f");
        try (MappedWriter w = MappedWriter.open(p)) {
            w.write(new byte[] {1, 2, 3});
        }
        try (MappedWriter w = MappedWriter.open(p)) {
            assertEquals(0, w.position(), "the old contents are gone");
            w.write(new byte[] {9});
        }
        assertArrayEquals(new byte[] {9}, Files.readAllBytes(p));
    }

    @Test
    void withoutTruncateItAppendsAtTheEnd() throws IOException {
        Path p = Pattern.file(dir.resolve("f"), 10_000);
        for (var options : new java.nio.file.OpenOption[][] {{WRITE}, {APPEND}, {CREATE, WRITE}}) {
            long size = Files.size(p);
            try (MappedWriter w = MappedWriter.open(p, options)) {
                assertEquals(size, w.position());
                w.write(Pattern.bytes(size, 5000));
            }
        }
        assertEquals(25_000, Files.size(p));
        assertPatternAt(p, 0, 25_000);
    }

    @Test
    void openingAtAPositionOverwritesFromThereAndCutsWhereTheWriterEnds() throws IOException {
        Path p = dir.resolve("f");
        Files.write(p, new byte[100_000]);
        Pattern.write(p, 0, 10_000);
        try (MappedWriter w = MappedWriter.open(p, 10_000, 8192, WRITE)) {
            w.write(Pattern.bytes(10_000, 5000));
            assertEquals(100_000, Files.size(p), "not cut before close");
        }
        assertEquals(15_000, Files.size(p));
        assertPatternAt(p, 0, 15_000);
        // past the end: a gap of zeros
        try (MappedWriter w = MappedWriter.open(p, 20_000, 4096, WRITE)) {
            w.write(new byte[] {7});
        }
        byte[] all = Files.readAllBytes(p);
        assertEquals(20_001, all.length);
        for (int i = 15_000; i < 20_000; i++) {
            assertEquals(0, all[i], "gap byte " + i);
        }
        assertEquals(7, all[20_000]);
    }

    @Test
    void aWriterThatWritesNothingLeavesTheFileAsItWas() throws IOException {
        Path fresh = dir.resolve("fresh");
        try (MappedWriter w = MappedWriter.open(fresh)) {
            w.force();
        }
        assertEquals(0, Files.size(fresh));
        Path old = Pattern.file(dir.resolve("old"), 12345);
        try (MappedWriter w = MappedWriter.open(old, WRITE)) {
            w.write(new byte[0]);
        }
        assertEquals(12345, Files.size(old));
    }

    @Test
    void optionsAndArgumentsAreChecked() throws IOException {
        Path p = Pattern.file(dir.resolve("f"), 10);
        assertThrows(FileAlreadyExistsException.class, () -> MappedWriter.open(p, CREATE_NEW, WRITE));
        assertThrows(NoSuchFileException.class, () -> MappedWriter.open(dir.resolve("missing"), WRITE));
        assertThrows(UnsupportedOperationException.class, () -> MappedWriter.open(p, DELETE_ON_CLOSE));
        assertThrows(IllegalArgumentException.class, () -> MappedWriter.open(p, -2, 4096, WRITE));
        assertThrows(IllegalArgumentException.class, () -> MappedWriter.open(p, 0, 4095, WRITE));
        assertEquals(10, Files.size(p), "refused opens change nothing");
        try (MappedWriter w = MappedWriter.open(p, WRITE, TRUNCATE_EXISTING)) {
            byte[] b = new byte[10];
            assertThrows(IndexOutOfBoundsException.class, () -> w.write(b, 5, 6));
            assertThrows(IndexOutOfBoundsException.class, () -> w.write(b, -1, 2));
            assertEquals(0, w.position());
        }
    }

    @Test
    void slicesAreCheckedWithAWindowMappedToo() throws IOException {
        // With a window mapped, a write that fits takes the fast path, which leaves the check of the slice to the
        // copy itself: it must still refuse every bad slice before a byte moves.
        Path p = dir.resolve("f");
        byte[] b = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        try (MappedWriter w = MappedWriter.open(p)) {
            w.write(b, 0, 3);
            assertThrows(IndexOutOfBoundsException.class, () -> w.write(b, 5, 6));
            assertThrows(IndexOutOfBoundsException.class, () -> w.write(b, -1, 2));
            assertThrows(IndexOutOfBoundsException.class, () -> w.write(b, 0, -1));
            assertThrows(IndexOutOfBoundsException.class, () -> w.write(b, 11, 0));
            assertEquals(3, w.position());
            w.write(b, 8, 2);
        }
        assertArrayEquals(new byte[] {1, 2, 3, 9, 10}, Files.readAllBytes(p));
    }

    @Test
    void afterCloseEveryCallFailsButPositionRemains() throws IOException {
        Path p = dir.resolve("f");
        MappedWriter w = MappedWriter.open(p);
        w.write(new byte[100]);
        w.close();
        w.close();
        assertFalse(w.isOpen());
        assertEquals(100, w.position());
        assertThrows(ClosedChannelException.class, () -> w.write(new byte[0]));
        assertThrows(ClosedChannelException.class, () -> w.write(new byte[1]));
        assertThrows(ClosedChannelException.class, () -> w.write(ByteBuffer.allocate(1)));
        assertThrows(ClosedChannelException.class, () -> w.write(MemorySegment.ofArray(new byte[1])));
        assertThrows(ClosedChannelException.class, w::force);
        assertEquals(100, Files.size(p));
    }

    @Test
    void forceKeepsWritingPossibleAndCoversEarlierWindows() throws IOException {
        Path p = dir.resolve("f");
        try (MappedWriter w = MappedWriter.open(p, 0, 4096, CREATE, WRITE)) {
            for (int i = 0; i < 20; i++) {
                long pos = w.position();
                w.write(Pattern.bytes(pos, 3000));
                if (i % 3 == 0) {
                    w.force();
                }
            }
            w.force();
            w.force();
            assertPatternAt(p, 0, 60_000);
        }
        assertEquals(60_000, Files.size(p));
    }

    @Test
    void offsetsAcrossFourGiBAndBeyondAreWrittenWhereTheyBelong() throws IOException {
        Path p = dir.resolve("big");
        long start = (4 * GiB) - 3000;
        try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
            raf.setLength(start);
        }
        // a window of 1 GiB: the file grows, sparse, to 5 GiB while open
        try (MappedWriter w = MappedWriter.open(p, -1, GiB, WRITE)) {
            assertEquals(start, w.position());
            w.write(Pattern.bytes(start, 10_000));
            assertEquals(5 * GiB, Files.size(p));
        }
        assertEquals(start + 10_000, Files.size(p));
        assertPatternAt(p, start, 10_000);
        // and with small windows, far past 4 GiB
        long far = 9 * GiB + 17;
        try (MappedWriter w = MappedWriter.open(p, far, 64 * KiB, WRITE)) {
            for (int i = 0; i < 10; i++) {
                w.write(Pattern.bytes(w.position(), 50_000));
            }
        }
        assertEquals(far + 500_000, Files.size(p));
        assertPatternAt(p, far, 500_000);
        assertArrayEquals(new byte[100], read(p, 8 * GiB, 100), "the gap reads as zeros");
    }

    @Test
    void anInterruptFailsTheNextKernelCallButNotTheWriter() throws Exception {
        Path p = dir.resolve("f");
        Thread.currentThread().interrupt();
        try (MappedWriter w = MappedWriter.open(p, 0, 4096, CREATE, WRITE)) {
            // no window yet: mapping one is a kernel call
            InterruptedIOException e = assertThrows(InterruptedIOException.class, () -> w.write(new byte[10]));
            assertTrue(e.getMessage().contains("mmap(path=" + p) && e.getMessage().contains("interrupted"),
                    e.getMessage());
            assertTrue(Thread.interrupted(), "interrupt status kept");
            assertEquals(0, w.position());
            w.write(Pattern.bytes(0, 4000));
            Thread.currentThread().interrupt();
            // inside the window: a copy, which does not look at the interrupt
            w.write(Pattern.bytes(4000, 96));
            assertThrows(InterruptedIOException.class, () -> w.write(Pattern.bytes(4096, 10)));
            assertThrows(InterruptedIOException.class, w::force);
            assertTrue(Thread.interrupted());
            w.write(Pattern.bytes(4096, 10));
            w.force();
            Thread.currentThread().interrupt();
        } finally {
            // close completed on the interrupted thread and kept its status
            assertTrue(Thread.interrupted(), "close keeps the interrupt status");
        }
        assertEquals(4106, Files.size(p));
        assertPatternAt(p, 0, 4106);
    }

    @Test
    void aFileCutByAnotherHandleFailsTheWriteWithAnIOException() throws IOException {
        Path p = dir.resolve("f");
        try (MappedWriter w = MappedWriter.open(p, 0, MiB, CREATE, WRITE);
                FileChannel cutter = FileChannel.open(p, WRITE)) {
            w.write(Pattern.bytes(0, 8192));
            cutter.truncate(4096);
            // Writing to the lost pages raises SIGBUS; the writer does not grow the file back over what was cut.
            for (Src via : Src.values()) {
                IOException e = assertThrows(IOException.class, () -> via.append(w, new byte[100], 0, 100));
                assertTrue(e.getMessage().contains(p.toString()) && e.getMessage().contains("SIGBUS")
                        && e.getMessage().contains("pos=8192"), e.getMessage());
                assertEquals(8192, w.position(), "a failed write is not counted");
            }
        }
        assertEquals(4096, Files.size(p), "close does not grow a file someone else cut");
        assertPatternAt(p, 0, 4096);
    }

    /**
     * Appends {@code record} {@code times} times, adding each write that returns to {@code acknowledged[0]}: a plain
     * loop, as a caller writes, and one method for warm-up and the real run, so both run the same compiled code.
     */
    static void appendRecords(MappedWriter w, byte[] record, int times, long[] acknowledged) throws IOException {
        for (int i = 0; i < times; i++) {
            w.write(record);
            acknowledged[0] += record.length;
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {100, 1024})
    void aWriteThatFaultsInCompiledCodeIsNotCountedNorKept(int recordSize) throws IOException {
        byte[] record = new byte[recordSize];
        for (int i = 0; i < record.length; i++) {
            record[i] = (byte) (i + 1);
        }
        // Where a compiled SIGBUS surfaces depends on the JIT's choices, and the first failure throws the compiled
        // code away: each round compiles again, and a few rounds make a lucky escape unlikely.
        for (int round = 0; round < 4; round++) {
            Path p = dir.resolve("f" + round);
            long[] acknowledged = {0};
            try (MappedWriter w = MappedWriter.open(p, 0, 64 * MiB, CREATE, WRITE);
                    FileChannel cutter = FileChannel.open(p, WRITE)) {
                // Enough writes for the JIT to compile the write path; SIGBUS then arrives in compiled code.
                for (int i = 0; i < 200; i++) {
                    appendRecords(w, record, 100, acknowledged);
                }
                // Cut the file at the end of the page holding the position: everything acknowledged stays, the
                // pages after it go, and a record that crosses into them is copied in part before the fault.
                long cut = (acknowledged[0] | 4095) + 1;
                cutter.truncate(cut);
                IOException e = assertThrows(IOException.class, () -> appendRecords(w, record, 100_000, acknowledged));
                assertTrue(e.getMessage().contains(p.toString()) && e.getMessage().contains("SIGBUS")
                        && e.getMessage().contains("pos=" + acknowledged[0]), e.getMessage());
                assertEquals(acknowledged[0], w.position(), "the failed write is not counted");
                assertTrue(acknowledged[0] <= cut && cut - acknowledged[0] < record.length,
                        acknowledged[0] + " of " + cut);
                assertThrows(IOException.class, () -> appendRecords(w, record, 1, acknowledged), "the pages stay lost");
                assertEquals(acknowledged[0], w.position());
            }
            assertEquals(acknowledged[0], Files.size(p), "close keeps exactly the bytes acknowledged");
            byte[] all = Files.readAllBytes(p);
            for (int i = 0; i < all.length; i++) {
                if (all[i] != record[i % record.length]) {
                    fail("byte " + i + " is " + all[i]);
                }
            }
        }
    }

    @Test
    void aWriteThatFailsHalfWayAcrossWindowsIsNotCounted() throws IOException {
        Path p = dir.resolve("f");
        try (MappedWriter w = MappedWriter.open(p, 0, 4096, CREATE, WRITE)) {
            w.write(Pattern.bytes(0, 4000));
            Thread.currentThread().interrupt();
            // 96 bytes fit in this window and are copied; mapping the next one is a kernel call, which fails
            assertThrows(InterruptedIOException.class, () -> w.write(Pattern.bytes(4000, 200)));
            assertTrue(Thread.interrupted());
            assertEquals(4000, w.position(), "no byte of the failed write is counted");
            w.write(Pattern.bytes(4000, 9000));
            assertEquals(13_000, w.position());
        }
        assertEquals(13_000, Files.size(p));
        assertPatternAt(p, 0, 13_000);
    }

    /**
     * Runs only when {@value #SMALL_FS_PROPERTY} names a directory on a small, nearly empty file system (as root:
     * {@code mount -t tmpfs -o size=1m tmpfs /mnt/small}), since running out of space cannot be arranged otherwise.
     */
    @Test
    @EnabledIfSystemProperty(named = SMALL_FS_PROPERTY, matches = ".+")
    void aFullFileSystemFailsTheWriteWithoutACrash() throws IOException {
        Path p = Path.of(System.getProperty(SMALL_FS_PROPERTY)).resolve("sluice-full-" + System.nanoTime());
        long free = Files.getFileStore(p.getParent()).getUsableSpace();
        try (MappedWriter w = MappedWriter.open(p, 0, Math.max(MiB, 2 * free), CREATE_NEW, WRITE)) {
            byte[] chunk = new byte[4096];
            Throwable t = assertThrows(Throwable.class, () -> {
                for (long n = 0; n <= free; n += chunk.length) {
                    w.write(chunk);
                }
            });
            // with native access the kernel says so when asked for the pages, not by SIGBUS in the copy
            IOException e = assertInstanceOf(IOException.class, t);
            assertTrue(e.getMessage().contains("EFAULT") && e.getMessage().contains("full"), e.getMessage());
        } finally {
            Files.deleteIfExists(p);
        }
    }

    @Test
    void writesFromAClosedSegmentFailAsTheirOwnError() throws IOException {
        Path p = dir.resolve("f");
        MemorySegment gone;
        try (Arena arena = Arena.ofConfined()) {
            gone = arena.allocate(10);
        }
        try (MappedWriter w = MappedWriter.open(p)) {
            w.write(new byte[1]);
            assertThrows(IllegalStateException.class, () -> w.write(gone));
            assertEquals(1, w.position());
        }
    }

    @Test
    void aFifoOrADeviceIsRefusedAtOpenByItsKind() throws Exception {
        Path fifo = NonRegularFiles.fifo(dir.resolve("fifo"));
        Path devNull = Path.of("/dev/null");
        assertEquals(fifo + ": is a FIFO; a MappedWriter needs a regular file", assertThrows(java.nio.file.FileSystemException.class,
                        () -> MappedWriter.open(fifo, WRITE).close()).getMessage());
        for (java.nio.file.OpenOption[] options : new java.nio.file.OpenOption[][] {{}, {WRITE}, {CREATE, WRITE}}) {
            assertEquals("/dev/null: is a character device; a MappedWriter needs a regular file", assertThrows(java.nio.file.FileSystemException.class,
                            () -> MappedWriter.open(devNull, options).close()).getMessage());
        }
    }
}
