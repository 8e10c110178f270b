package io.sluice;

import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.DELETE_ON_CLOSE;
import static java.nio.file.StandardOpenOption.SPARSE;
import static java.nio.file.StandardOpenOption.TRUNCATE_EXISTING;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The contract of {@link PositionalFile}, run against every engine: each engine's test extends this class and says
 * only which engine it is, plus what only that engine has.
 *
 * <p>The randomized test takes its seed from {@value #SEED_PROPERTY} when set, so a failure can be replayed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
abstract class PositionalFileContract {
    static final String SEED_PROPERTY = "sluice.test.seed";
    static final String OPS_PROPERTY = "sluice.test.ops";
    static final long KiB = 1L << 10;
    static final long MiB = 1L << 20;
    static final long GiB = 1L << 30;
    static final Duration JOIN = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    /** The engine under test. */
    abstract Engine engine();

    /**
     * Whether the engine serves files whose size does not give their length ({@code /proc}, {@code /sys}) and block
     * devices. MMAP cannot map them and refuses them at open, which its own test checks.
     */
    boolean servesPseudoFilesAndDevices() {
        return true;
    }

    PositionalFile open(Path path, OpenOption... options) throws IOException {
        return PositionalFile.open(path, engine(), options);
    }

    /** A file holding the first {@code size} bytes of {@link Pattern}. */
    Path patternFile(String name, long size) {
        return Pattern.file(dir.resolve(name), size);
    }

    static void assertPattern(byte[] actual, int length, long position) {
        int at = Pattern.mismatch(actual, 0, length, position);
        if (at >= 0) {
            fail("byte " + (position + at) + " of the file: expected " + Pattern.at(position + at) + " but read "
                    + actual[at] + " (read of " + length + " bytes at " + position + ")");
        }
    }

    static void assertZeros(byte[] actual, int length, String what) {
        for (int i = 0; i < length; i++) {
            if (actual[i] != 0) {
                fail(what + ": byte " + i + " is " + actual[i] + ", expected 0");
            }
        }
    }

    // ---------------------------------------------------------------- basics

    @Test
    void reportsPathEngineAndMode() throws IOException {
        Path p = patternFile("f", 100);
        try (PositionalFile r = open(p); PositionalFile w = open(p, WRITE)) {
            assertEquals(p, r.path());
            assertEquals(engine(), r.engine());
            assertFalse(r.isWritable());
            assertTrue(w.isWritable());
            assertTrue(r.isOpen());
            assertEquals(100, r.size());
            assertTrue(r.toString().contains(p.toString()), r.toString());
        }
    }

    // ---------------------------------------------------------------- end of file

    @ParameterizedTest
    @EnumSource(Dst.class)
    void readAtOrPastEndReturnsMinusOne(Dst via) throws IOException {
        Path p = patternFile("f", 10_000);
        Path empty = Files.createFile(dir.resolve("empty"));
        try (PositionalFile f = open(p); PositionalFile e = open(empty)) {
            // including positions past the largest file the file system allows, and where position + length
            // overflows: still just past the end
            for (long pos : new long[] {10_000, 10_001, 1L << 31, 1L << 32, 5 * GiB + 3, 1L << 40, 1L << 44,
                1L << 50, Long.MAX_VALUE / 2, Long.MAX_VALUE - 3, Long.MAX_VALUE}) {
                assertEquals(-1, via.read(f, pos, new byte[16], 16, false), "read at " + pos);
            }
            assertEquals(-1, via.read(e, 0, new byte[16], 16, false), "read of an empty file");
            assertThrows(EOFException.class, () -> via.read(f, Long.MAX_VALUE - 3, new byte[16], 16, true));
            assertEquals(10_000, f.size());
        }
    }

    @ParameterizedTest
    @EnumSource(Dst.class)
    void readStraddlingEndReturnsWhatIsLeft(Dst via) throws IOException {
        Path p = patternFile("f", 10_000);
        try (PositionalFile f = open(p)) {
            byte[] into = new byte[4096];
            // A regular file never returns a short count before its end for a request this small.
            assertEquals(2000, via.read(f, 8000, into, 4096, false));
            assertPattern(into, 2000, 8000);
            assertEquals(1, via.read(f, 9999, into, 4096, false));
            assertPattern(into, 1, 9999);
        }
    }

    @ParameterizedTest
    @EnumSource(Dst.class)
    void zeroLengthReadReturnsZero(Dst via) throws IOException {
        Path p = patternFile("f", 10_000);
        try (PositionalFile f = open(p)) {
            for (long pos : new long[] {0, 5000, 10_000, 1L << 33}) {
                assertEquals(0, via.read(f, pos, new byte[0], 0, false), "zero-length read at " + pos);
                via.read(f, pos, new byte[0], 0, true); // readFully of nothing succeeds, even past the end
            }
            assertEquals(0, f.read(new byte[0], 0));
            assertEquals(0, f.read(new byte[10], 10, 0, 0));
        }
    }

    @ParameterizedTest
    @EnumSource(Dst.class)
    void readFullyPastEndThrowsEofNamingPathAndPosition(Dst via) throws IOException {
        Path p = patternFile("f", 10_000);
        try (PositionalFile f = open(p)) {
            byte[] into = new byte[4096];
            assertEquals(2000, via.read(f, 8000, into, 2000, true), "readFully up to the very end");
            assertPattern(into, 2000, 8000);

            for (long pos : new long[] {8000, 10_000, 123_456}) {
                EOFException e = assertThrows(EOFException.class, () -> via.read(f, pos, into, 4096, true));
                assertTrue(e.getMessage().contains(p.toString()), e.getMessage());
                assertTrue(e.getMessage().contains("pos=" + pos), e.getMessage());
            }
            assertTrue(f.isOpen(), "EOF does not close the file");
        }
    }

    @Test
    void readFullyOfBufferKeepsWhatWasThereAtEof() throws IOException {
        Path p = patternFile("f", 10_000);
        try (PositionalFile f = open(p)) {
            for (ByteBuffer b : List.of(ByteBuffer.allocate(4096), ByteBuffer.allocateDirect(4096))) {
                assertThrows(EOFException.class, () -> f.readFully(b, 8000));
                assertEquals(2000, b.position(), "the bytes before the end were read into " + b);
                byte[] got = new byte[2000];
                b.get(0, got);
                assertPattern(got, 2000, 8000);
            }
        }
    }

    // ---------------------------------------------------------------- every overload, same bytes

    @ParameterizedTest
    @EnumSource(Dst.class)
    void everyReadOverloadGivesTheFileBytes(Dst via) throws IOException {
        Path p = patternFile("f", 600_000);
        try (PositionalFile f = open(p)) {
            // small, odd, crossing 256 KiB (a bounce buffer), and at the start and end of the file
            long[][] cases = {{0, 1}, {12_345, 7777}, {1, 262_145}, {599_000, 1000}, {4095, 4097}, {0, 600_000}};
            for (long[] c : cases) {
                long pos = c[0];
                int len = (int) c[1];
                byte[] into = new byte[len];
                int n = via.read(f, pos, into, len, false);
                assertTrue(n > 0 && n <= len, "read of " + len + " at " + pos + " returned " + n);
                assertPattern(into, n, pos);
                assertPattern(via.readFully(f, pos, len), len, pos);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Src.class)
    void everyWriteOverloadWritesItsBytes(Src via) throws IOException {
        Path p = dir.resolve("f");
        byte[] model = new byte[300_000];
        try (PositionalFile f = open(p, CREATE_NEW, WRITE)) {
            byte[] a = Pattern.bytes(0, 5000);
            via.write(f, 0, a, 0, a.length, false);
            System.arraycopy(a, 0, model, 0, a.length);

            byte[] b = Pattern.bytes(77, 3000); // overlaps the first
            via.write(f, 2500, b, 100, 2900, true);
            System.arraycopy(b, 100, model, 2500, 2900);

            byte[] c = Pattern.bytes(1_000_000, 270_001); // past the end, leaving a hole; longer than a bounce buffer
            via.write(f, 29_999, c, 0, c.length, false);
            System.arraycopy(c, 0, model, 29_999, c.length);

            assertEquals(300_000, f.size());
            assertArrayEquals(model, Dst.ARRAY_SLICE.readFully(f, 0, model.length), "read back through the file");
        }
        assertArrayEquals(model, Files.readAllBytes(p), "read back from disk");
    }

    @ParameterizedTest
    @EnumSource(Src.class)
    void zeroLengthWriteChangesNothing(Src via) throws IOException {
        Path p = patternFile("f", 1000);
        try (PositionalFile f = open(p, WRITE)) {
            assertEquals(0, via.write(f, 5000, new byte[0], 0, 0, false), "no call needed for nothing");
            via.write(f, 5000, new byte[0], 0, 0, true);
            assertEquals(0, f.write(ByteBuffer.allocate(0), 9000));
            assertEquals(0, f.write(MemorySegment.ofArray(new byte[0]), 9000));
            assertEquals(0, f.write(new byte[3], 3, 0, 9000));
            assertEquals(1000, f.size(), "a write of nothing past the end does not grow the file");
        }
    }

    // ---------------------------------------------------------------- short transfers

    @ParameterizedTest
    @EnumSource(Dst.class)
    void readFullyOfMoreThanOneMiBAtOddOffsets(Dst via) throws IOException {
        Path p = patternFile("f", 5 * MiB + 3);
        try (PositionalFile f = open(p)) {
            int len = (int) (3 * MiB + 13);
            long pos = 777_777;
            assertPattern(via.readFully(f, pos, len), len, pos);
            byte[] into = new byte[len];
            int n = via.read(f, pos, into, len, false);
            assertTrue(n > 0 && n <= len, "read returned " + n);
            assertPattern(into, n, pos);
            // the last bytes, ending exactly at the end of the file
            assertPattern(via.readFully(f, 5 * MiB + 3 - len, len), len, 5 * MiB + 3 - len);
        }
    }

    @ParameterizedTest
    @EnumSource(Src.class)
    void writeFullyOfMoreThanOneMiBAtOddOffsets(Src via) throws IOException {
        Path p = dir.resolve("f");
        int len = (int) (3 * MiB + 13);
        long pos = 1_000_003;
        byte[] data = Pattern.bytes(pos - 11, len + 22);
        try (PositionalFile f = open(p, CREATE, WRITE)) {
            via.write(f, pos, data, 11, len, true);
            assertEquals(pos + len, f.size());
            // and with plain writes, which may be short, over the same range plus 1 MiB more
            via.write(f, pos + MiB, data, 11, len, false);
            assertEquals(pos + MiB + len, f.size());
        }
        byte[] disk = Files.readAllBytes(p);
        assertEquals(pos + MiB + len, disk.length);
        assertZeros(disk, (int) pos, "the hole before the first write");
        assertPattern(Arrays.copyOfRange(disk, (int) pos, (int) (pos + MiB)), (int) MiB, pos);
        assertPattern(Arrays.copyOfRange(disk, (int) (pos + MiB), disk.length), len, pos);
    }

    // ---------------------------------------------------------------- bad arguments

    /** Asserts that each call throws {@code expected}, then that the pattern file is exactly as it was. */
    private void assertNoIo(Path p, long size, List<Executable> calls, Class<? extends Throwable> expected)
            throws IOException {
        for (int i = 0; i < calls.size(); i++) {
            assertThrows(expected, calls.get(i), "call #" + i);
        }
        assertEquals(size, Files.size(p), "the file size changed");
        byte[] disk = Files.readAllBytes(p);
        assertPattern(disk, disk.length, 0);
    }

    @Test
    void negativePositionsAreRejectedBeforeAnyIo() throws IOException {
        Path p = patternFile("f", 1000);
        try (PositionalFile f = open(p, WRITE)) {
            ByteBuffer heap = ByteBuffer.allocate(10);
            ByteBuffer direct = ByteBuffer.allocateDirect(10);
            MemorySegment seg = MemorySegment.ofArray(new byte[10]);
            byte[] arr = new byte[10];
            List<Executable> calls = new ArrayList<>();
            for (long pos : new long[] {-1, Long.MIN_VALUE}) {
                calls.addAll(List.of(
                        () -> f.read(heap, pos), () -> f.read(direct, pos), () -> f.read(seg, pos),
                        () -> f.read(arr, pos), () -> f.read(arr, 2, 3, pos),
                        () -> f.read(ByteBuffer.allocate(0), pos), () -> f.read(new byte[0], pos),
                        () -> f.readFully(heap, pos), () -> f.readFully(direct, pos), () -> f.readFully(seg, pos),
                        () -> f.readFully(arr, 2, 3, pos),
                        () -> f.write(heap, pos), () -> f.write(direct, pos), () -> f.write(seg, pos),
                        () -> f.write(arr, 2, 3, pos),
                        () -> f.writeFully(heap, pos), () -> f.writeFully(direct, pos),
                        () -> f.writeFully(seg, pos), () -> f.writeFully(arr, 2, 3, pos),
                        () -> f.truncate(pos)));
            }
            // a write whose end overflows a long
            calls.add(() -> f.write(heap, Long.MAX_VALUE - 3));
            calls.add(() -> f.write(arr, 0, 10, Long.MAX_VALUE - 3));
            calls.add(() -> f.writeFully(seg, Long.MAX_VALUE - 3));
            assertNoIo(p, 1000, calls, IllegalArgumentException.class);
            assertEquals(0, heap.position());
            assertEquals(0, direct.position());
        }
    }

    @Test
    void byteArraySlicesOutOfRangeAreRejectedBeforeAnyIo() throws IOException {
        Path p = patternFile("f", 1000);
        try (PositionalFile f = open(p, WRITE)) {
            byte[] arr = new byte[10];
            int[][] slices = {{-1, 5}, {0, 11}, {8, 3}, {0, -1}, {11, 0}, {Integer.MAX_VALUE, 2}};
            List<Executable> calls = new ArrayList<>();
            for (int[] s : slices) {
                calls.add(() -> f.read(arr, s[0], s[1], 0));
                calls.add(() -> f.readFully(arr, s[0], s[1], 0));
                calls.add(() -> f.write(arr, s[0], s[1], 0));
                calls.add(() -> f.writeFully(arr, s[0], s[1], 0));
            }
            // Objects.checkFromIndexSize reports these, so they are IndexOutOfBoundsException
            assertNoIo(p, 1000, calls, IndexOutOfBoundsException.class);
            assertZeros(arr, arr.length, "the array");
        }
    }

    @Test
    void readOnlyDestinationsAreRejectedBeforeAnyIo() throws IOException {
        Path p = patternFile("f", 1000);
        try (PositionalFile f = open(p, WRITE); Arena arena = Arena.ofConfined()) {
            ByteBuffer heap = ByteBuffer.allocate(10).asReadOnlyBuffer();
            ByteBuffer direct = ByteBuffer.allocateDirect(10).asReadOnlyBuffer();
            MemorySegment seg = arena.allocate(10).asReadOnly();
            List<Executable> calls = List.of(
                    () -> f.read(heap, 0), () -> f.read(direct, 0), () -> f.read(seg, 0),
                    () -> f.readFully(heap, 0), () -> f.readFully(direct, 0), () -> f.readFully(seg, 0),
                    () -> f.read(ByteBuffer.allocate(0).asReadOnlyBuffer(), 0),
                    () -> f.read(MemorySegment.ofArray(new byte[0]).asReadOnly(), 0));
            assertNoIo(p, 1000, calls, IllegalArgumentException.class);
            assertEquals(0, heap.position());
            assertEquals(0, direct.position());
        }
    }

    @Test
    void writesToAFileOpenedForReadingAreRefused() throws IOException {
        Path p = patternFile("f", 1000);
        try (PositionalFile f = open(p)) {
            assertFalse(f.isWritable());
            List<Executable> calls = new ArrayList<>();
            for (Src via : Src.values()) {
                calls.add(() -> via.write(f, 0, new byte[10], 0, 10, false));
                calls.add(() -> via.write(f, 5000, new byte[10], 0, 10, true));
            }
            calls.add(() -> f.write(new byte[0], 0, 0, 0));
            calls.add(() -> f.truncate(0));
            calls.add(() -> f.truncate(500));
            calls.add(() -> f.truncate(5000));
            assertNoIo(p, 1000, calls, NonWritableChannelException.class);
            assertTrue(f.isOpen());
            assertPattern(Dst.ARRAY_SLICE.readFully(f, 0, 1000), 1000, 0);
        }
    }

    @Test
    void aWriteBeyondTheLargestFileFailsNamingTheFile() throws IOException {
        Path p = patternFile("f", 1000);
        try (PositionalFile f = open(p, WRITE)) {
            for (long pos : new long[] {1L << 50, Long.MAX_VALUE - 10}) {
                IOException e = assertThrows(IOException.class, () -> f.write(new byte[1], 0, 1, pos));
                assertTrue(e.getMessage().contains(p.toString()), e.getMessage());
                assertEquals(1000, f.size());
            }
            assertTrue(f.isOpen());
        }
        byte[] disk = Files.readAllBytes(p);
        assertPattern(disk, disk.length, 0);
    }

    @Test
    void negativeTruncateIsRejected() throws IOException {
        Path p = patternFile("f", 1000);
        try (PositionalFile f = open(p, WRITE)) {
            assertThrows(IllegalArgumentException.class, () -> f.truncate(-1));
            assertEquals(1000, f.size());
        }
    }

    // ---------------------------------------------------------------- opening

    @Test
    void missingFileWithoutCreateIsNoSuchFile() {
        Path p = dir.resolve("missing");
        assertThrows(NoSuchFileException.class, () -> open(p).close());
        assertThrows(NoSuchFileException.class, () -> open(p, WRITE).close());
        // CREATE without WRITE is ignored, as FileChannel.open does
        assertThrows(NoSuchFileException.class, () -> open(p, CREATE).close());
        assertFalse(Files.exists(p));
    }

    @Test
    void aDirectoryIsRefusedAtOpenAsTheJdkDoes() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("sub"));
        Path link = Files.createSymbolicLink(dir.resolve("link-to-sub"), sub);
        for (Path p : List.of(sub, link)) {
            for (OpenOption[] options : List.of(new OpenOption[0], new OpenOption[] {WRITE},
                    new OpenOption[] {WRITE, CREATE})) {
                java.nio.file.FileSystemException e = assertThrows(java.nio.file.FileSystemException.class,
                        () -> open(p, options).close(), p + " " + Arrays.toString(options));
                assertEquals(p.toString(), e.getFile());
                assertEquals(p + ": Is a directory", e.getMessage());
            }
        }
    }

    @Test
    void aFifoASocketAndACharacterDeviceAreRefusedBeforeTheEngineOpensThem() throws Exception {
        Path fifo = NonRegularFiles.fifo(dir.resolve("fifo"));
        // A writer holds the FIFO open, so that an engine that opened it before checking would not block forever
        // but read (or fail) instead; destroyed after, since a FIFO with no reader keeps its writer waiting.
        Process writer = new ProcessBuilder("sh", "-c", "exec printf 'some data' > \"$0\"", fifo.toString()).start();
        try {
            assertRefused(fifo, "is a FIFO");
            assertRefused(Files.createSymbolicLink(dir.resolve("link-to-fifo"), fifo), "is a FIFO");
        } finally {
            writer.destroyForcibly().waitFor();
        }
        try (var server = java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
            Path socket = dir.resolve("socket");
            server.bind(java.net.UnixDomainSocketAddress.of(socket));
            assertRefused(socket, "is a socket");
        }
        Path devNull = Path.of("/dev/null");
        assumeTrue(Files.exists(devNull));
        assertRefused(devNull, "is a character device");
    }

    private void assertRefused(Path p, String kind) {
        for (OpenOption[] options : List.of(new OpenOption[0], new OpenOption[] {WRITE})) {
            java.nio.file.FileSystemException e = assertThrows(java.nio.file.FileSystemException.class,
                    () -> open(p, options).close(), p + " " + Arrays.toString(options));
            assertEquals(p.toString(), e.getFile());
            assertEquals(p + ": " + kind + "; positional I/O needs a regular file or a block device", e.getMessage());
        }
    }

    @Test
    void createNewRefusesAnExistingFile() throws IOException {
        Path p = patternFile("f", 1000);
        assertThrows(FileAlreadyExistsException.class, () -> open(p, CREATE_NEW, WRITE).close());
        assertEquals(1000, Files.size(p));

        Path fresh = dir.resolve("fresh");
        try (PositionalFile f = open(fresh, CREATE_NEW, WRITE)) {
            assertEquals(0, f.size());
            assertTrue(Files.exists(fresh));
        }
    }

    @Test
    void createMakesAMissingFileAndKeepsAnExistingOne() throws IOException {
        Path fresh = dir.resolve("fresh");
        try (PositionalFile f = open(fresh, CREATE, WRITE)) {
            assertEquals(0, f.size());
        }
        Path p = patternFile("f", 1000);
        try (PositionalFile f = open(p, CREATE, WRITE)) {
            assertEquals(1000, f.size());
        }
    }

    @Test
    void truncateExistingEmptiesTheFile() throws IOException {
        Path p = patternFile("f", 1000);
        try (PositionalFile f = open(p, TRUNCATE_EXISTING)) {
            // without WRITE the option is ignored, as FileChannel.open does
            assertEquals(1000, f.size());
        }
        try (PositionalFile f = open(p, WRITE, TRUNCATE_EXISTING)) {
            assertEquals(0, f.size());
            assertEquals(-1, f.read(new byte[10], 0));
        }
        assertEquals(0, Files.size(p));
    }

    @Test
    void deleteOnCloseDeletesAtClose() throws IOException {
        Path p = dir.resolve("temp");
        PositionalFile f = open(p, CREATE_NEW, WRITE, DELETE_ON_CLOSE);
        f.writeFully(new byte[100], 0, 100, 0);
        assertTrue(Files.exists(p), "exists while open");
        f.close();
        assertFalse(Files.exists(p), "deleted at close");
        f.close();

        Path r = patternFile("r", 10);
        try (PositionalFile g = open(r, DELETE_ON_CLOSE)) {
            assertEquals(10, g.size());
        }
        assertFalse(Files.exists(r), "read-only file deleted at close");
    }

    @Test
    void appendIsRejected() {
        Path p = dir.resolve("f");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> open(p, CREATE, WRITE, StandardOpenOption.APPEND).close());
        assertTrue(e.getMessage().contains("APPEND"), e.getMessage());
        assertFalse(Files.exists(p), "nothing created");
    }

    @Test
    void unknownAndNullOptionsAreRejected() {
        Path p = patternFile("f", 10);
        OpenOption custom = new OpenOption() {
            @Override
            public String toString() {
                return "CUSTOM";
            }
        };
        assertThrows(UnsupportedOperationException.class, () -> open(p, custom).close());
        assertThrows(NullPointerException.class, () -> open(p, (OpenOption) null).close());
        assertThrows(NullPointerException.class, () -> open(null).close());
    }

    @Test
    void noFollowLinksRefusesASymbolicLink() throws IOException {
        Path target = patternFile("target", 100);
        Path link = Files.createSymbolicLink(dir.resolve("link"), target);
        try (PositionalFile f = open(link)) {
            assertEquals(100, f.size());
        }
        // the JDK reports ELOOP as a plain IOException
        assertThrows(IOException.class, () -> open(link, LinkOption.NOFOLLOW_LINKS).close());
    }

    @ParameterizedTest
    @EnumSource(value = StandardOpenOption.class, names = {"SYNC", "DSYNC", "SPARSE", "READ"})
    void writeThroughOptionsWork(StandardOpenOption option) throws IOException {
        Path p = dir.resolve("f");
        try (PositionalFile f = open(p, CREATE_NEW, WRITE, option)) {
            f.writeFully(Pattern.bytes(0, 10_000), 0, 10_000, 0);
            Src.DIRECT_BUFFER.write(f, 10_000, Pattern.bytes(10_000, 5000), 0, 5000, true);
            assertEquals(15_000, f.size());
        }
        byte[] disk = Files.readAllBytes(p);
        assertEquals(15_000, disk.length);
        assertPattern(disk, disk.length, 0);
    }

    @ParameterizedTest
    @EnumSource(Advice.class)
    void everyAdviceIsAccepted(Advice advice) throws IOException {
        Path p = patternFile("f", 100_000);
        try (PositionalFile f = open(p, advice)) {
            assertPattern(Dst.ARRAY_SLICE.readFully(f, 33, 99_000), 99_000, 33);
        }
    }

    // ---------------------------------------------------------------- closed

    @Test
    void everyCallAfterCloseThrowsClosedChannelException() throws IOException {
        Path p = patternFile("f", 1000);
        PositionalFile f = open(p, WRITE);
        PositionalFile r = open(p);
        f.close();
        r.close();
        assertFalse(f.isOpen());
        f.close(); // a second close does nothing
        r.close();
        assertFalse(f.isOpen());

        ByteBuffer heap = ByteBuffer.allocate(10);
        ByteBuffer direct = ByteBuffer.allocateDirect(10);
        ByteBuffer srcHeap = ByteBuffer.allocate(10);
        ByteBuffer srcDirect = ByteBuffer.allocateDirect(10);
        MemorySegment seg = MemorySegment.ofArray(new byte[10]);
        MemorySegment nat = Arena.ofAuto().allocate(10);
        byte[] arr = new byte[10];
        List<Executable> calls = new ArrayList<>();
        for (long pos : new long[] {0, 2000}) {
            calls.addAll(List.of(
                    () -> f.read(heap, pos), () -> f.read(direct, pos), () -> f.read(seg, pos),
                    () -> f.read(nat, pos), () -> f.read(arr, pos), () -> f.read(arr, 1, 2, pos),
                    () -> f.readFully(heap, pos), () -> f.readFully(direct, pos), () -> f.readFully(seg, pos),
                    () -> f.readFully(arr, 1, 2, pos),
                    () -> f.write(srcHeap, pos), () -> f.write(srcDirect, pos), () -> f.write(seg, pos),
                    () -> f.write(nat, pos), () -> f.write(arr, 1, 2, pos),
                    () -> f.writeFully(srcHeap, pos), () -> f.writeFully(srcDirect, pos),
                    () -> f.writeFully(seg, pos), () -> f.writeFully(arr, 1, 2, pos),
                    () -> r.read(heap, pos), () -> r.write(srcDirect, pos),
                    // zero-length calls, too
                    () -> f.read(ByteBuffer.allocate(0), pos), () -> f.read(new byte[0], pos),
                    () -> f.write(ByteBuffer.allocate(0), pos), () -> f.write(MemorySegment.NULL, pos),
                    () -> f.readFully(ByteBuffer.allocate(0), pos), () -> f.readFully(new byte[0], 0, 0, pos),
                    () -> f.writeFully(ByteBuffer.allocate(0), pos), () -> f.writeFully(new byte[0], 0, 0, pos)));
        }
        calls.addAll(List.of(() -> f.size(), () -> f.truncate(0), () -> f.truncate(5000), () -> f.force(true),
                () -> f.force(false), () -> r.size(), () -> r.force(false)));
        for (int i = 0; i < calls.size(); i++) {
            assertThrows(ClosedChannelException.class, calls.get(i), "call #" + i);
        }
        assertEquals(0, heap.position(), "nothing read into the buffer");
        assertEquals(0, direct.position(), "nothing read into the buffer");
        assertEquals(0, srcHeap.position(), "nothing taken from the buffer");
        assertEquals(0, srcDirect.position(), "nothing taken from the buffer");
        assertEquals(1000, Files.size(p));
        byte[] disk = Files.readAllBytes(p);
        assertPattern(disk, disk.length, 0);
    }

    // ---------------------------------------------------------------- past 4 GiB

    @Test
    void positionsPastFourGiBOnASparseFile() throws IOException {
        Path p = dir.resolve("sparse");
        long far = 5 * GiB + 12_345;
        long edge = (1L << 32) - 7;
        try (PositionalFile f = open(p, CREATE_NEW, WRITE, SPARSE)) {
            Src.ARRAY_SLICE.write(f, edge, Pattern.bytes(edge, 100), 0, 100, true);
            Src.DIRECT_BUFFER.write(f, far, Pattern.bytes(far, 5000), 0, 5000, false);
            assertEquals(far + 5000, f.size());
            for (Dst via : Dst.values()) {
                assertPattern(via.readFully(f, far, 5000), 5000, far);
                assertPattern(via.readFully(f, edge, 100), 100, edge);
                assertZeros(via.readFully(f, GiB, 4096), 4096, "the hole at 1 GiB");
                assertZeros(via.readFully(f, (1L << 31) - 3, 10), 10, "the hole across 2 GiB");
                assertZeros(via.readFully(f, (1L << 32) + 200, 4096), 4096, "the hole past 4 GiB");
                assertZeros(via.readFully(f, far - 4096, 4096), 4096, "the hole just before the data");
                byte[] into = new byte[4096];
                assertEquals(1000, via.read(f, far + 4000, into, 4096, false));
                assertPattern(into, 1000, far + 4000);
                assertEquals(-1, via.read(f, far + 5000, into, 4096, false));
            }
            EOFException e = assertThrows(EOFException.class, () -> f.readFully(new byte[4096], 0, 4096, far + 4000));
            assertTrue(e.getMessage().contains("pos=" + (far + 4000)), e.getMessage());
        }
        assertEquals(far + 5000, Files.size(p));
    }

    // ---------------------------------------------------------------- threads

    @Test
    void manyConcurrentReadersSeeTheRightBytes() throws Exception {
        long size = 8 * MiB + 5;
        Path p = patternFile("f", size);
        try (PositionalFile f = open(p)) {
            Workers.run(8, JOIN, w -> {
                SplittableRandom rnd = new SplittableRandom(w);
                byte[] into = new byte[64 * 1024];
                for (int i = 0; i < 3000; i++) {
                    Dst via = Dst.values()[(w + i) % Dst.values().length];
                    int len = 1 + rnd.nextInt(into.length);
                    long pos = rnd.nextLong(size + 1000);
                    int n = via.read(f, pos, into, len, false);
                    if (pos >= size) {
                        assertEquals(-1, n, "read at " + pos);
                    } else {
                        assertTrue(n > 0 && n <= Math.min(len, size - pos), "read of " + len + " at " + pos + ": " + n);
                        assertPattern(into, n, pos);
                    }
                }
            });
        }
    }

    @Test
    void concurrentWritersToDisjointRegionsGrowTheFileTogether() throws Exception {
        Path p = dir.resolve("f");
        int writers = 4;
        int chunk = 16 * 1024 + 3;
        int chunks = 48;
        try (PositionalFile f = open(p, CREATE_NEW, WRITE)) {
            Workers.run(writers, JOIN, w -> {
                Src via = Src.values()[w * 2];
                for (int k = 0; k < chunks; k++) {
                    long pos = (long) (k * writers + w) * chunk;
                    via.write(f, pos, Pattern.bytes(pos, chunk), 0, chunk, k % 2 == 0);
                    // what this thread wrote stays there while the others grow the file
                    long back = (long) ((k / 2) * writers + w) * chunk;
                    assertPattern(Dst.values()[k % Dst.values().length].readFully(f, back, chunk), chunk, back);
                }
            });
            long size = (long) chunks * writers * chunk;
            assertEquals(size, f.size());
            assertPattern(Dst.NATIVE_SEGMENT.readFully(f, 0, (int) size), (int) size, 0);
        }
    }

    @RepeatedTest(5)
    void closeWhileOthersReadEndsEveryReaderWithClosedChannelException() throws Exception {
        long size = 4 * MiB;
        Path p = patternFile("f", size);
        int readers = 4;
        PositionalFile f = open(p);
        CountDownLatch reading = new CountDownLatch(readers);
        Workers workers = new Workers(readers, w -> {
            SplittableRandom rnd = new SplittableRandom(w);
            byte[] into = new byte[256 * 1024];
            long deadline = System.nanoTime() + JOIN.toNanos();
            for (int i = 0; ; i++) {
                Dst via = Dst.values()[(w + i) % Dst.values().length];
                int len = 1 + rnd.nextInt(into.length);
                long pos = rnd.nextLong(size - len);
                try {
                    assertEquals(len, via.read(f, pos, into, len, false));
                } catch (ClosedChannelException expected) {
                    // includes AsynchronousCloseException: the only way a reader may end
                    assertFalse(f.isOpen());
                    assertFalse(Thread.currentThread().isInterrupted(), "closing does not interrupt readers");
                    return;
                }
                assertPattern(into, len, pos);
                if (i == 3) {
                    reading.countDown();
                }
                if (System.nanoTime() > deadline) {
                    fail("still reading long after the file was closed");
                }
            }
        });
        workers.await(reading, JOIN);
        f.close();
        assertFalse(f.isOpen());
        workers.join(JOIN);
    }

    @Test
    void anInterruptedReaderLeavesTheFileUsableForEveryoneElse() throws Exception {
        long size = 2 * MiB;
        Path p = patternFile("f", size);
        try (PositionalFile f = open(p, WRITE)) {
            AtomicBoolean stop = new AtomicBoolean();
            CountDownLatch bystandersRunning = new CountDownLatch(3);
            // two readers over [0, 2 MiB) and a writer of pattern bytes over [2 MiB, 3 MiB), which must never fail
            Workers bystanders = new Workers(3, w -> {
                SplittableRandom rnd = new SplittableRandom(w);
                byte[] into = new byte[32 * 1024];
                for (int i = 0; !stop.get() || i < 10; i++) {
                    int len = 1 + rnd.nextInt(into.length);
                    if (w < 2) {
                        long pos = rnd.nextLong(size - len);
                        Dst via = Dst.values()[i % Dst.values().length];
                        assertEquals(len, via.read(f, pos, into, len, false));
                        assertPattern(into, len, pos);
                    } else {
                        long pos = size + rnd.nextLong(MiB - len);
                        Src.values()[i % Src.values().length].write(f, pos, Pattern.bytes(pos, len), 0, len, true);
                        assertPattern(Dst.ARRAY_SLICE.readFully(f, pos, len), len, pos);
                    }
                    if (i == 10) {
                        bystandersRunning.countDown();
                    }
                }
            });
            bystanders.await(bystandersRunning, JOIN);

            int rounds = 60;
            for (int round = 0; round < rounds; round++) {
                CountDownLatch victimRunning = new CountDownLatch(1);
                Workers victim = new Workers(1, w -> {
                    SplittableRandom rnd = new SplittableRandom(w);
                    byte[] into = new byte[64 * 1024];
                    try {
                        for (int i = 0; !Thread.currentThread().isInterrupted(); i++) {
                            int len = 1 + rnd.nextInt(into.length);
                            long pos = rnd.nextLong(size - len);
                            if (i % 4 == 3) {
                                // rewrites bytes that are already there, so readers see no change
                                Src.values()[i % Src.values().length]
                                        .write(f, pos, Pattern.bytes(pos, len), 0, len, true);
                            } else {
                                assertEquals(len, Dst.values()[i % Dst.values().length]
                                        .read(f, pos, into, len, false));
                                assertPattern(into, len, pos);
                            }
                            victimRunning.countDown();
                        }
                    } catch (ClosedByInterruptException expected) {
                        assertTrue(Thread.currentThread().isInterrupted(), "interrupt status kept");
                    }
                });
                victim.await(victimRunning, JOIN);
                victim.thread(0).interrupt();
                victim.join(JOIN);

                // this thread still reads and writes through the same file
                assertTrue(f.isOpen());
                long pos = 3 * MiB + round * 4096L;
                byte[] mine = Pattern.bytes(pos + 1, 4096);
                f.writeFully(mine, 0, mine.length, pos);
                assertArrayEquals(mine, Dst.DIRECT_BUFFER.readFully(f, pos, 4096));
                assertPattern(Dst.HEAP_BUFFER.readFully(f, round * 1000L, 5000), 5000, round * 1000L);
                assertEquals(3 * MiB + (round + 1) * 4096L, f.size());
            }
            stop.set(true);
            bystanders.join(JOIN);
            for (int round = 0; round < rounds; round++) {
                long pos = 3 * MiB + round * 4096L;
                assertArrayEquals(Pattern.bytes(pos + 1, 4096), Dst.ARRAY_SLICE.readFully(f, pos, 4096));
            }
        }
    }

    // ---------------------------------------------------------------- truncate and force

    @Test
    void aCutByAnotherProcessInsideAPageReadsAsTheRuleSays() throws Exception {
        long end = 2 * 4096 + 100;
        Path p = patternFile("f", 5 * 4096);
        try (PositionalFile f = open(p)) {
            byte[] into = new byte[100];
            assertEquals(100, f.read(into, 0)); // the file is in use when it is cut
            MappedFileTest.cutByAnotherProcess(p, end);
            for (Dst via : Dst.values()) {
                int n = via.read(f, end + 200, into, 100, false);
                if (engine() == Engine.MMAP || engine() == Engine.AUTO && n != -1) {
                    // The page holding the new end stays mapped, and nothing made the engine look at the size. AUTO
                    // answers so when its read went through its mapping, and as CHANNEL when it went by pread.
                    assertEquals(100, n, engine() + " past the cut, in the page holding the new end, via " + via);
                    assertZeros(into, 100, engine() + " past the cut, in the page holding the new end, via " + via);
                } else {
                    assertEquals(-1, n, "past the cut, via " + via);
                }
            }
            // Once the engine has looked at the size, MMAP too ends the file at the cut.
            assertEquals(end, f.size());
            assertEquals(-1, f.read(into, end + 200));
            assertEquals(-1, f.read(into, end));
            assertEquals(50, f.read(into, end - 50));
            assertPattern(into, 50, end - 50);
        }
    }

    @Test
    void truncateShrinksAndNeverGrows() throws IOException {
        Path p = patternFile("f", 10_000);
        try (PositionalFile f = open(p, WRITE)) {
            f.truncate(4000);
            assertEquals(4000, f.size());
            assertEquals(4000, Files.size(p));
            byte[] into = new byte[100];
            assertEquals(-1, f.read(into, 4000));
            assertEquals(-1, f.read(into, 9000));
            assertEquals(10, f.read(into, 3990));
            assertPattern(into, 10, 3990);

            f.truncate(8000); // larger: nothing happens
            assertEquals(4000, f.size());
            f.truncate(4000); // same: nothing happens
            assertEquals(4000, f.size());

            // growing again after a shrink shows zeros where the cut bytes were, never the old bytes
            f.writeFully(new byte[] {1, 2, 3}, 0, 3, 6000);
            assertEquals(6003, f.size());
            for (Dst via : Dst.values()) {
                assertZeros(via.readFully(f, 4000, 2000), 2000, "the bytes cut by truncate, via " + via);
                assertPattern(via.readFully(f, 0, 4000), 4000, 0);
            }

            f.truncate(0);
            assertEquals(0, f.size());
            assertEquals(-1, f.read(into, 0));
            f.writeFully(new byte[] {7}, 0, 1, 0);
            assertEquals(1, f.size());
        }
        assertArrayEquals(new byte[] {7}, Files.readAllBytes(p));
    }

    @Test
    void forceAfterWrites() throws IOException {
        Path p = dir.resolve("f");
        try (PositionalFile f = open(p, CREATE_NEW, WRITE); PositionalFile r = open(p)) {
            f.force(true); // on an empty file
            f.writeFully(Pattern.bytes(0, 100_000), 0, 100_000, 0);
            f.force(false);
            f.writeFully(Pattern.bytes(100_000, 50_000), 0, 50_000, 100_000);
            f.force(true);
            r.force(false); // a reader may force too; there is nothing to write
            assertEquals(150_000, Files.size(p));
            byte[] disk = Files.readAllBytes(p);
            assertPattern(disk, disk.length, 0);
        }
    }

    @Test
    void anotherHandleSeesWrites() throws IOException {
        Path p = dir.resolve("f");
        try (PositionalFile w = open(p, CREATE_NEW, WRITE); PositionalFile r = open(p)) {
            assertEquals(-1, r.read(new byte[10], 0));
            w.writeFully(Pattern.bytes(0, 70_000), 0, 70_000, 0);
            assertEquals(70_000, r.size());
            assertPattern(Dst.DIRECT_BUFFER.readFully(r, 0, 70_000), 70_000, 0);
            w.writeFully(Pattern.bytes(5 * MiB, 1000), 0, 1000, 5 * MiB);
            assertPattern(Dst.HEAP_SEGMENT.readFully(r, 5 * MiB, 1000), 1000, 5 * MiB);
        }
    }

    // ---------------------------------------------------------------- randomized, against a model

    /** The file as it should be: a growable byte array. */
    private static final class Model {
        byte[] data = new byte[1 << 16];
        int size;

        void write(long pos, byte[] src, int off, int len) {
            if (len == 0) {
                return; // a write of nothing does not grow the file
            }
            int end = Math.toIntExact(pos + len);
            if (end > data.length) {
                data = Arrays.copyOf(data, Math.max(end, data.length * 2));
            }
            System.arraycopy(src, off, data, (int) pos, len);
            size = Math.max(size, end);
        }

        void truncate(long to) {
            if (to < size) {
                Arrays.fill(data, (int) to, size, (byte) 0);
                size = (int) to;
            }
        }
    }

    @RepeatedTest(3)
    void randomOperationsMatchAModel(RepetitionInfo repetition) throws IOException {
        String fixed = System.getProperty(SEED_PROPERTY);
        long seed;
        if (fixed != null && !fixed.isBlank()) {
            assumeTrue(repetition.getCurrentRepetition() == 1, "a seed given with -D" + SEED_PROPERTY + " runs once");
            seed = Long.parseLong(fixed.trim());
        } else {
            seed = ThreadLocalRandom.current().nextLong();
        }
        int ops = Integer.getInteger(OPS_PROPERTY, 5000);
        String replay = "seed " + seed + "; re-run with: ./mvnw -pl sluice-core test -Dtest="
                + getClass().getSimpleName() + "#randomOperationsMatchAModel -D" + SEED_PROPERTY + "=" + seed;
        String[] last = {"open"};
        try {
            runModel(new SplittableRandom(seed), ops, last);
        } catch (Throwable t) {
            AssertionError e = new AssertionError("randomized test failed at " + last[0] + ": " + t + "\n" + replay, t);
            throw e;
        }
    }

    private void runModel(SplittableRandom rnd, int ops, String[] last) throws IOException {
        Path p = dir.resolve("model");
        Model model = new Model();
        byte[] noise = new byte[1 << 20];
        rnd.nextBytes(noise);
        int maxLen = 300 * 1024;
        byte[] into = new byte[maxLen];
        IoBatch batch = IoBatch.create(4);
        try (PositionalFile f = open(p, CREATE_NEW, WRITE)) {
            for (int op = 0; op < ops; op++) {
                int kind = rnd.nextInt(100);
                int len = switch (rnd.nextInt(10)) {
                    case 0 -> 0;
                    case 1, 2, 3, 4 -> 1 + rnd.nextInt(4096);
                    case 5, 6, 7, 8 -> rnd.nextInt(64 * 1024);
                    default -> rnd.nextInt(maxLen + 1);
                };
                long pos = rnd.nextInt(10) == 0
                        ? model.size + rnd.nextLong(2 * MiB)
                        : rnd.nextLong(model.size + 256 * KiB);
                if (model.size > 12 * MiB && kind < 90) {
                    kind = 90; // keep the file small: cut it
                }
                if (kind < 30) {
                    Src via = Src.values()[rnd.nextInt(Src.values().length)];
                    boolean fully = rnd.nextBoolean();
                    int off = rnd.nextInt(noise.length - len + 1);
                    last[0] = "op #" + op + ": " + (fully ? "writeFully" : "write") + " via " + via + " of " + len
                            + " bytes at " + pos;
                    via.write(f, pos, noise, off, len, fully);
                    model.write(pos, noise, off, len);
                } else if (kind < 60) {
                    Dst via = Dst.values()[rnd.nextInt(Dst.values().length)];
                    last[0] = "op #" + op + ": read via " + via + " of " + len + " bytes at " + pos + " (size "
                            + model.size + ")";
                    int n = via.read(f, pos, into, len, false);
                    if (len == 0) {
                        assertEquals(0, n);
                    } else if (pos >= model.size) {
                        assertEquals(-1, n);
                    } else {
                        assertTrue(n > 0 && n <= Math.min(len, model.size - pos), "read returned " + n);
                        assertModel(model, pos, into, n);
                    }
                } else if (kind < 75) {
                    Dst via = Dst.values()[rnd.nextInt(Dst.values().length)];
                    last[0] = "op #" + op + ": readFully via " + via + " of " + len + " bytes at " + pos + " (size "
                            + model.size + ")";
                    if (len > 0 && pos + len > model.size) {
                        assertThrows(EOFException.class, () -> via.read(f, pos, into, len, true));
                    } else {
                        via.read(f, pos, into, len, true);
                        assertModel(model, pos, into, len);
                    }
                } else if (kind < 85) {
                    last[0] = "op #" + op + ": size";
                    assertEquals(model.size, f.size());
                } else if (kind < 88) {
                    boolean meta = rnd.nextBoolean();
                    last[0] = "op #" + op + ": force(" + meta + ")";
                    f.force(meta);
                } else if (kind < 95) {
                    long to = rnd.nextInt(3) == 0 ? model.size + rnd.nextLong(100_000) : rnd.nextLong(model.size + 1);
                    last[0] = "op #" + op + ": truncate(" + to + ") of " + model.size;
                    f.truncate(to);
                    model.truncate(to);
                    assertEquals(model.size, f.size());
                } else {
                    last[0] = "op #" + op + ": batch";
                    runBatch(rnd, f, model, batch, noise, last);
                }
            }
            last[0] = "final comparison (size " + model.size + ")";
            assertEquals(model.size, f.size());
            byte[] all = Dst.NATIVE_SEGMENT.readFully(f, 0, model.size);
            assertModel(model, 0, all, model.size);
        }
        last[0] = "final comparison with the file on disk";
        assertArrayEquals(Arrays.copyOf(model.data, model.size), Files.readAllBytes(p));
    }

    private static void runBatch(SplittableRandom rnd, PositionalFile f, Model model, IoBatch batch, byte[] noise,
            String[] last) throws IOException {
        batch.clear();
        int n = 1 + rnd.nextInt(batch.capacity());
        long[] pos = new long[n];
        int[] lens = new int[n];
        int[] offs = new int[n];
        boolean[] isWrite = new boolean[n];
        ByteBuffer[] bufs = new ByteBuffer[n];
        StringBuilder what = new StringBuilder(last[0]);
        // Requests of one batch may run concurrently and in any order (IoBatch's contract), so a batch is either all
        // reads, or writes to ranges that do not overlap: then every order gives the same file.
        boolean writes = rnd.nextBoolean();
        for (int i = 0; i < n; i++) {
            lens[i] = rnd.nextInt(20_000);
            pos[i] = rnd.nextLong(model.size + 30_000);
            for (int j = 0; writes && j < i; j++) {
                if (pos[i] < pos[j] + lens[j] && pos[j] < pos[i] + lens[i]) {
                    pos[i] = pos[j] + lens[j] + rnd.nextInt(100);
                    j = -1; // moved: check against every earlier write again
                }
            }
            isWrite[i] = writes;
            offs[i] = rnd.nextInt(noise.length - lens[i]);
            bufs[i] = rnd.nextBoolean() ? ByteBuffer.allocate(lens[i]) : ByteBuffer.allocateDirect(lens[i]);
            if (isWrite[i]) {
                bufs[i].put(noise, offs[i], lens[i]).flip();
                batch.write(f, bufs[i], pos[i]);
            } else {
                batch.read(f, bufs[i], pos[i]);
            }
            what.append(isWrite[i] ? " write " : " read ").append(lens[i]).append('@').append(pos[i]);
        }
        last[0] = what.toString();
        assertEquals(0, batch.submit(), "failed requests");
        for (int i = 0; i < n; i++) {
            long r = batch.result(i);
            if (isWrite[i]) {
                assertEquals(lens[i], r, "a batched write of a buffer this small is never short");
                model.write(pos[i], noise, offs[i], lens[i]);
            } else if (lens[i] == 0) {
                assertEquals(0, r);
            } else if (pos[i] >= model.size) {
                assertEquals(-1, r);
            } else {
                assertEquals(Math.min(lens[i], model.size - pos[i]), r, "request " + i);
                byte[] got = new byte[(int) r];
                bufs[i].get(0, got);
                assertModel(model, pos[i], got, (int) r);
            }
        }
    }

    private static void assertModel(Model model, long pos, byte[] actual, int n) {
        if (n == 0) {
            return;
        }
        int at = Arrays.mismatch(actual, 0, n, model.data, (int) pos, (int) pos + n);
        if (at >= 0) {
            fail("byte " + (pos + at) + " of the file: expected " + model.data[(int) pos + at] + " but read "
                    + actual[at] + " (" + n + " bytes at " + pos + ")");
        }
    }

    // ---------------------------------------------------------------- batches

    @Test
    void batchOfReadsAtManyOffsets() throws IOException {
        long size = 2 * MiB;
        Path p = patternFile("f", size);
        try (PositionalFile f = open(p); Arena arena = Arena.ofConfined()) {
            int n = 64;
            IoBatch batch = IoBatch.create(n);
            assertEquals(n, batch.capacity());
            Object[] dsts = new Object[n];
            long[] pos = new long[n];
            for (int i = 0; i < n; i++) {
                pos[i] = (i * 32_771L) % (size - 10_000);
                int len = 1 + (i * 997) % 10_000;
                int slot = switch (i % 3) {
                    case 0 -> batch.read(f, (ByteBuffer) (dsts[i] = ByteBuffer.allocateDirect(len)), pos[i]);
                    case 1 -> batch.read(f, (ByteBuffer) (dsts[i] = ByteBuffer.allocate(len + 5).position(5)), pos[i]);
                    default -> batch.read(f, (MemorySegment) (dsts[i] = arena.allocate(len)), pos[i]);
                };
                assertEquals(i, slot);
            }
            assertEquals(n, batch.size());
            assertEquals(0, batch.submit());
            batch.throwIfFailed();
            for (int i = 0; i < n; i++) {
                assertNull(batch.error(i));
                byte[] got;
                if (dsts[i] instanceof ByteBuffer b) {
                    assertFalse(b.hasRemaining(), "buffer " + i + " filled and its position advanced");
                    got = new byte[b.limit() - (i % 3 == 1 ? 5 : 0)];
                    b.get(i % 3 == 1 ? 5 : 0, got);
                } else {
                    got = ((MemorySegment) dsts[i]).toArray(ValueLayout.JAVA_BYTE);
                }
                assertEquals(got.length, batch.result(i), "request " + i);
                assertPattern(got, got.length, pos[i]);
            }
        }
    }

    @Test
    void batchWithMixedOutcomes() throws IOException {
        Path p = patternFile("f", 10_000);
        try (PositionalFile f = open(p)) {
            IoBatch batch = IoBatch.create(8);
            ByteBuffer good = ByteBuffer.allocate(100);
            ByteBuffer atEof = ByteBuffer.allocateDirect(100);
            ByteBuffer straddle = ByteBuffer.allocate(100);
            ByteBuffer write = ByteBuffer.wrap(new byte[] {1, 2, 3});
            MemorySegment after = MemorySegment.ofArray(new byte[50]);
            int s0 = batch.read(f, good, 500);
            int s1 = batch.read(f, atEof, 10_000);
            int s2 = batch.write(f, write, 0);
            int s3 = batch.read(f, straddle, 9950);
            int s4 = batch.read(f, after, 20);
            assertEquals(1, batch.submit(), "one request failed");

            assertEquals(100, batch.result(s0));
            assertPattern(good.array(), 100, 500);
            assertEquals(-1, batch.result(s1));
            assertEquals(0, atEof.position());
            assertEquals(50, batch.result(s3));
            assertPattern(straddle.array(), 50, 9950);
            assertEquals(50, batch.result(s4));
            assertPattern(after.toArray(ValueLayout.JAVA_BYTE), 50, 20);

            IOException error = batch.error(s2);
            assertNotNull(error);
            assertInstanceOf(NonWritableChannelException.class, error.getCause());
            assertTrue(error.getMessage().contains(p.toString()), error.getMessage());
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> batch.result(s2));
            assertSame(error, e.getCause());
            assertEquals(0, write.position(), "nothing taken from the failed write's buffer");
            IOException thrown = assertThrows(IOException.class, batch::throwIfFailed);
            assertSame(error, thrown);
            for (int s : new int[] {s0, s1, s3, s4}) {
                assertNull(batch.error(s));
            }
        }
        byte[] disk = Files.readAllBytes(p);
        assertPattern(disk, disk.length, 0);
    }

    @Test
    void batchWithSeveralFailuresSaysHowManyAndKeepsEach() throws IOException {
        Path p = patternFile("f", 1000);
        try (PositionalFile f = open(p)) {
            IoBatch batch = IoBatch.create(4);
            ByteBuffer ok = ByteBuffer.allocate(10);
            batch.read(f, ok, 0);
            int w1 = batch.write(f, ByteBuffer.allocate(5), 0);
            int w2 = batch.write(f, ByteBuffer.allocate(5), 10);
            assertEquals(2, batch.submit());
            for (int round = 0; round < 2; round++) {
                IOException thrown = assertThrows(IOException.class, batch::throwIfFailed);
                assertTrue(thrown.getMessage().startsWith("2 of 3 requests failed"), thrown.getMessage());
                assertSame(batch.error(w1), thrown.getCause());
                assertEquals(1, thrown.getSuppressed().length, "the second failure, once, however often asked");
                assertSame(batch.error(w2), thrown.getSuppressed()[0]);
            }
            assertEquals(0, batch.error(w1).getSuppressed().length, "stored failures are left as they were");
        }
    }

    @Test
    void batchWritesThenReads() throws IOException {
        Path p = dir.resolve("f");
        try (PositionalFile f = open(p, CREATE_NEW, WRITE); Arena arena = Arena.ofConfined()) {
            IoBatch batch = IoBatch.create(16);
            for (int i = 0; i < 8; i++) {
                long pos = i * 10_000L + i;
                MemorySegment s = arena.allocate(5000);
                MemorySegment.copy(Pattern.bytes(pos, 5000), 0, s, ValueLayout.JAVA_BYTE, 0, 5000);
                if (i % 2 == 0) {
                    batch.write(f, s, pos);
                } else {
                    batch.write(f, s.asByteBuffer(), pos);
                }
            }
            assertEquals(0, batch.submit());
            for (int i = 0; i < 8; i++) {
                assertEquals(5000, batch.result(i));
            }
            assertEquals(7 * 10_000L + 7 + 5000, f.size());
            for (int i = 0; i < 8; i++) {
                long pos = i * 10_000L + i;
                assertPattern(Dst.ARRAY_SLICE.readFully(f, pos, 5000), 5000, pos);
            }
        }
    }

    @Test
    void batchClearedAndReused() throws IOException {
        Path p = patternFile("f", 100_000);
        Path q = patternFile("g", 50_000);
        try (PositionalFile f = open(p); PositionalFile g = open(q)) {
            IoBatch batch = IoBatch.create(3);
            for (int round = 0; round < 5; round++) {
                ByteBuffer a = ByteBuffer.allocate(1000);
                ByteBuffer b = ByteBuffer.allocateDirect(1000);
                ByteBuffer c = ByteBuffer.allocate(1000);
                long pos = round * 9_999L;
                batch.read(f, a, pos);
                batch.read(g, b, pos + 1); // requests may name different files
                batch.read(f, c, pos + 2);
                assertThrows(IllegalStateException.class, () -> batch.read(f, ByteBuffer.allocate(1), 0), "full");
                assertEquals(0, batch.submit());
                assertThrows(IllegalStateException.class, () -> batch.read(f, ByteBuffer.allocate(1), 0),
                        "adding after submit needs a clear");
                assertEquals(1000, batch.result(0));
                assertEquals(1000, batch.result(1));
                assertEquals(1000, batch.result(2));
                assertPattern(a.array(), 1000, pos);
                byte[] got = new byte[1000];
                b.get(0, got);
                assertPattern(got, 1000, pos + 1);
                assertPattern(c.array(), 1000, pos + 2);
                batch.clear();
                assertEquals(0, batch.size());
                assertThrows(IndexOutOfBoundsException.class, () -> batch.result(0), "cleared");
            }
        }
    }

    @Test
    void batchArgumentsAndUnsubmittedSlots() throws IOException {
        Path p = patternFile("f", 1000);
        try (PositionalFile f = open(p)) {
            assertThrows(IllegalArgumentException.class, () -> IoBatch.create(0));
            assertThrows(IllegalArgumentException.class, () -> IoBatch.create(-1));
            IoBatch batch = IoBatch.create(2);
            assertThrows(IllegalArgumentException.class, () -> batch.read(f, ByteBuffer.allocate(1), -1));
            assertThrows(IllegalArgumentException.class,
                    () -> batch.read(f, ByteBuffer.allocate(1).asReadOnlyBuffer(), 0));
            assertThrows(IllegalArgumentException.class,
                    () -> batch.read(f, MemorySegment.ofArray(new byte[1]).asReadOnly(), 0));
            assertThrows(NullPointerException.class, () -> batch.read(null, ByteBuffer.allocate(1), 0));
            assertEquals(0, batch.size(), "rejected requests take no slot");

            int slot = batch.read(f, ByteBuffer.allocate(10), 0);
            assertThrows(IllegalStateException.class, () -> batch.result(slot));
            assertThrows(IllegalStateException.class, () -> batch.error(slot));
            assertThrows(IndexOutOfBoundsException.class, () -> batch.result(1));
            assertThrows(IndexOutOfBoundsException.class, () -> batch.result(-1));
            batch.read(f, ByteBuffer.allocate(10), 10);
            assertThrows(IllegalStateException.class, () -> batch.read(f, ByteBuffer.allocate(10), 20));
            assertEquals(0, batch.submit());
            assertEquals(10, batch.result(slot));
        }
    }

    @Test
    void batchOnAClosedFileFailsEachRequest() throws IOException {
        Path p = patternFile("f", 1000);
        PositionalFile f = open(p);
        f.close();
        IoBatch batch = IoBatch.create(2);
        batch.read(f, ByteBuffer.allocate(10), 0);
        batch.read(f, ByteBuffer.allocateDirect(10), 500);
        assertEquals(2, batch.submit());
        assertInstanceOf(ClosedChannelException.class, batch.error(0));
        assertInstanceOf(ClosedChannelException.class, batch.error(1));
    }

    // ---------------------------------------------------------------- vectored (scatter/gather)

    /** Calls the vectored read until every buffer is full or the file ends; returns the total, -1 if nothing. */
    static long readVectorFully(PositionalFile f, long pos, ByteBuffer... bufs) throws IOException {
        long total = 0;
        for (;;) {
            long n = f.read(pos + total, bufs);
            if (n < 0) {
                return total == 0 ? -1 : total;
            }
            assertTrue(n > 0 || Arrays.stream(bufs).noneMatch(ByteBuffer::hasRemaining),
                    "a vectored read returned 0 with room left");
            if (n == 0) {
                return total;
            }
            total += n;
        }
    }

    /** The segments' bytes still to fill after {@code done} bytes went into them, as slices. */
    static MemorySegment[] after(MemorySegment[] segs, long done) {
        List<MemorySegment> rest = new ArrayList<>();
        for (MemorySegment s : segs) {
            if (done >= s.byteSize()) {
                done -= s.byteSize();
                continue;
            }
            rest.add(s.asSlice(done));
            done = 0;
        }
        return rest.toArray(MemorySegment[]::new);
    }

    static byte[] bytesOf(ByteBuffer b, int from, int to) {
        byte[] out = new byte[to - from];
        b.get(from, out);
        return out;
    }

    /** Mixed sizes, an empty one in the middle, heap and direct, odd offsets inside the buffers. */
    static ByteBuffer[] mixedBuffers(Arena arena) {
        ByteBuffer odd = ByteBuffer.allocate(5000);
        odd.position(17).limit(4113); // 4096 bytes starting 17 bytes into the array
        return new ByteBuffer[] {
            ByteBuffer.allocate(1), ByteBuffer.allocateDirect(4095), ByteBuffer.allocate(0), odd,
            arena.allocate(65_536, 4096).asByteBuffer(), ByteBuffer.allocate(100_003), ByteBuffer.allocateDirect(0),
            ByteBuffer.allocateDirect(300_001), ByteBuffer.allocate(7)};
    }

    @Test
    void vectoredReadFillsMixedBuffersInOrder() throws IOException {
        Path p = patternFile("f", 600_000);
        try (PositionalFile f = open(p); Arena arena = Arena.ofConfined()) {
            for (long start : new long[] {0, 4095, 123_457}) {
                ByteBuffer[] bufs = mixedBuffers(arena);
                int[] from = new int[bufs.length];
                long want = 0;
                for (int i = 0; i < bufs.length; i++) {
                    from[i] = bufs[i].position();
                    want += bufs[i].remaining();
                }
                long first = f.read(start, bufs);
                assertTrue(first > 0 && first <= want, "first vectored read returned " + first);
                long rest = readVectorFully(f, start + first, bufs);
                assertEquals(want, first + Math.max(0, rest), "bytes read at " + start);
                long pos = start;
                for (int i = 0; i < bufs.length; i++) {
                    assertFalse(bufs[i].hasRemaining(), "buffer " + i + " not filled");
                    int len = bufs[i].position() - from[i];
                    assertPattern(bytesOf(bufs[i], from[i], bufs[i].position()), len, pos);
                    pos += len;
                }
            }
        }
    }

    @Test
    void vectoredReadOfSegmentsFillsEachWhole() throws IOException {
        Path p = patternFile("f", 400_000);
        try (PositionalFile f = open(p); Arena arena = Arena.ofConfined()) {
            MemorySegment[] segs = {
                MemorySegment.ofArray(new byte[3]), arena.allocate(8192, 4096), MemorySegment.ofArray(new byte[0]),
                arena.allocate(70_001).asSlice(1), MemorySegment.ofArray(new byte[200_000]).asSlice(11, 150_000),
                arena.allocate(12)};
            long want = Arrays.stream(segs).mapToLong(MemorySegment::byteSize).sum();
            long start = 999;
            long done = 0;
            while (done < want) {
                long n = f.read(start + done, after(segs, done));
                assertTrue(n > 0, "vectored read returned " + n + " after " + done + " of " + want);
                done += n;
            }
            long pos = start;
            for (int i = 0; i < segs.length; i++) {
                int len = (int) segs[i].byteSize();
                assertPattern(segs[i].toArray(ValueLayout.JAVA_BYTE), len, pos);
                pos += len;
            }
        }
    }

    @Test
    void vectoredReadStopsAtEndOfFileInTheMiddleOfTheVector() throws IOException {
        Path p = patternFile("f", 10_000);
        try (PositionalFile f = open(p); Arena arena = Arena.ofConfined()) {
            ByteBuffer[] bufs = {ByteBuffer.allocate(4096), ByteBuffer.allocateDirect(4096), ByteBuffer.allocate(4096),
                ByteBuffer.allocateDirect(4096)};
            assertEquals(10_000, readVectorFully(f, 0, bufs));
            assertEquals(List.of(4096, 4096, 1808, 0), Arrays.stream(bufs).map(ByteBuffer::position).toList());
            assertPattern(bytesOf(bufs[2], 0, 1808), 1808, 8192);
            assertEquals(-1, f.read(10_000, bufs), "the next read starts at the end");
            assertEquals(-1, f.read(20_000, ByteBuffer.allocate(5)), "past the end");
            assertEquals(1808, bufs[2].position(), "a read at the end changes no buffer");

            MemorySegment[] segs = {arena.allocate(6000), MemorySegment.ofArray(new byte[6000]), arena.allocate(10)};
            long done = 0;
            long n;
            while ((n = f.read(done, after(segs, done))) > 0) {
                done += n;
            }
            assertEquals(-1, n);
            assertEquals(10_000, done);
            assertPattern(segs[1].asSlice(0, 4000).toArray(ValueLayout.JAVA_BYTE), 4000, 6000);
            assertZeros(segs[1].asSlice(4000).toArray(ValueLayout.JAVA_BYTE), 2000, "the segment past the end");
        }
    }

    @Test
    void vectoredCallsOfNothingReturnZero() throws IOException {
        Path p = patternFile("f", 1000);
        try (PositionalFile f = open(p, WRITE)) {
            assertEquals(0, f.read(0, new ByteBuffer[0]));
            assertEquals(0, f.read(5000, ByteBuffer.allocate(0), ByteBuffer.allocateDirect(0)), "nothing asked");
            assertEquals(0, f.read(0, new MemorySegment[] {MemorySegment.ofArray(new byte[0])}));
            assertEquals(0, f.write(9000, ByteBuffer.allocate(0)));
            assertEquals(0, f.write(9000, new MemorySegment[0]));
            assertEquals(1000, f.size(), "a vectored write of nothing does not grow the file");
            f.close();
            assertThrows(ClosedChannelException.class, () -> f.read(0, new ByteBuffer[0]));
            assertThrows(ClosedChannelException.class, () -> f.write(0, ByteBuffer.allocate(0)));
            assertThrows(ClosedChannelException.class, () -> f.read(0, ByteBuffer.allocate(1)));
            assertThrows(ClosedChannelException.class, () -> f.write(0, MemorySegment.ofArray(new byte[1])));
        }
    }

    @Test
    void vectoredArgumentsAreCheckedBeforeAnyIo() throws IOException {
        Path p = patternFile("f", 1000);
        try (PositionalFile f = open(p, WRITE); Arena arena = Arena.ofConfined()) {
            ByteBuffer ok = ByteBuffer.allocateDirect(10);
            ByteBuffer ro = ByteBuffer.allocate(10).asReadOnlyBuffer();
            MemorySegment seg = arena.allocate(10);
            List<Executable> iae = List.of(
                    () -> f.read(0, ok, ro), () -> f.read(0, ok, ByteBuffer.allocate(0).asReadOnlyBuffer()),
                    () -> f.read(0, seg, seg.asReadOnly()), () -> f.read(-1, ok), () -> f.read(-1, seg),
                    () -> f.write(-1, ok), () -> f.write(-1, seg), () -> f.write(Long.MAX_VALUE - 3, ok, ok),
                    () -> f.write(Long.MAX_VALUE - 3, seg));
            assertNoIo(p, 1000, iae, IllegalArgumentException.class);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> f.read(0, ok, ro));
            assertTrue(e.getMessage().contains("read-only destination buffer") && e.getMessage().contains("[1]"),
                    e.getMessage());
            assertEquals(0, ok.position(), "no buffer moved");
            assertZeros(bytesOf(ok, 0, 10), 10, "the writable buffer before the read-only one");
            List<Executable> npe = List.of(
                    () -> f.read(0, (ByteBuffer[]) null), () -> f.read(0, ok, null), () -> f.write(0, ok, null),
                    () -> f.read(0, (MemorySegment[]) null), () -> f.write(0, seg, null));
            assertNoIo(p, 1000, npe, NullPointerException.class);
            assertEquals(0, ok.position());
        }
        try (PositionalFile r = open(p)) {
            assertThrows(NonWritableChannelException.class, () -> r.write(0, ByteBuffer.allocate(1)));
            assertThrows(NonWritableChannelException.class, () -> r.write(0, MemorySegment.ofArray(new byte[1])));
            // a read-only source is fine for a write, and a read-only file reads
            assertEquals(10, readVectorFully(r, 0, ByteBuffer.allocate(4), ByteBuffer.allocateDirect(6)));
        }
    }

    @Test
    void vectoredWriteGathersMixedSourcesInOrder() throws IOException {
        Path p = dir.resolve("f");
        try (PositionalFile f = open(p, CREATE_NEW, WRITE); Arena arena = Arena.ofConfined()) {
            byte[] data = Pattern.bytes(0, 500_000);
            int[] sizes = {1, 0, 4095, 65_536, 3, 100_000, 0, 200_000, 7};
            ByteBuffer[] srcs = new ByteBuffer[sizes.length];
            int at = 0;
            for (int i = 0; i < sizes.length; i++) {
                ByteBuffer b = switch (i % 3) {
                    case 0 -> ByteBuffer.allocate(sizes[i] + 5).position(5);
                    case 1 -> arena.allocate(sizes[i] + 1).asByteBuffer();
                    default -> ByteBuffer.wrap(data.clone()).asReadOnlyBuffer().position(0);
                };
                if (i % 3 == 2) {
                    b.position(at).limit(at + sizes[i]); // a read-only source, the right bytes in place
                } else {
                    b.put(b.position(), data, at, sizes[i]).limit(b.position() + sizes[i]);
                }
                srcs[i] = b;
                at += sizes[i];
            }
            long start = 3000; // leaves a hole before the data
            long done = 0;
            while (Arrays.stream(srcs).anyMatch(ByteBuffer::hasRemaining)) {
                long n = f.write(start + done, srcs);
                assertTrue(n > 0, "vectored write returned " + n);
                done += n;
            }
            assertEquals(at, done);
            assertEquals(start + at, f.size());
            byte[] disk = Files.readAllBytes(p);
            assertZeros(disk, (int) start, "the hole");
            assertArrayEquals(Arrays.copyOf(data, at), Arrays.copyOfRange(disk, (int) start, disk.length));

            // segments, overwriting part of it
            MemorySegment[] segs = {MemorySegment.ofArray(Pattern.bytes(7, 70_000)), arena.allocate(10),
                MemorySegment.ofArray(new byte[0]), MemorySegment.ofArray(new byte[] {1, 2, 3}).asReadOnly()};
            segs[1].fill((byte) 9);
            long w = 0;
            while (w < 70_013) {
                long n = f.write(100 + w, after(segs, w));
                assertTrue(n > 0, "vectored write returned " + n);
                w += n;
            }
            disk = Files.readAllBytes(p);
            assertPattern(Arrays.copyOfRange(disk, 100, 70_100), 70_000, 7);
            assertArrayEquals(new byte[] {9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 1, 2, 3}, Arrays.copyOfRange(disk, 70_100, 70_113));
        }
    }

    @Test
    void vectorsLongerThanIovMaxAreSplit() throws IOException {
        int count = 2 * PositionalFile.IOV_MAX + 300;
        Path p = patternFile("f", 7L * count + 1000);
        try (PositionalFile f = open(p, WRITE); Arena arena = Arena.ofConfined()) {
            ByteBuffer[] bufs = new ByteBuffer[count];
            for (int i = 0; i < count; i++) {
                bufs[i] = i % 2 == 0 ? ByteBuffer.allocate(7) : arena.allocate(7).asByteBuffer();
            }
            assertEquals(7L * count, readVectorFully(f, 13, bufs));
            for (int i = 0; i < count; i++) {
                assertPattern(bytesOf(bufs[i], 0, 7), 7, 13 + 7L * i);
            }
            // write them back one byte further on, then the file reads as the pattern shifted by one
            for (ByteBuffer b : bufs) {
                b.flip();
            }
            long done = 0;
            while (done < 7L * count) {
                done += f.write(14 + done, bufs);
            }
            byte[] disk = Files.readAllBytes(p);
            assertPattern(Arrays.copyOfRange(disk, 14, 14 + 7 * count), 7 * count, 13);
        }
    }

    @Test
    void procFilesOfSizeZeroReadToTheirEnd() throws IOException {
        Path filesystems = Path.of("/proc/filesystems");
        assumeTrue(servesPseudoFilesAndDevices(), "refused at open by this engine");
        assumeTrue(Files.isReadable(filesystems), "no /proc here");
        try (PositionalFile f = open(filesystems)) {
            assertEquals(0, f.size(), "the kernel reports 0");
            NonRegularFiles.assertReadsWhole(f, filesystems, 64);
        }
        try (PositionalFile f = open(Path.of("/proc/self/status"))) {
            NonRegularFiles.assertReadsProcSelfStatus(f);
        }
    }

    @Test
    void aBlockDeviceOpens() throws IOException {
        java.util.Optional<Path> device = NonRegularFiles.readableBlockDevice();
        assumeTrue(servesPseudoFilesAndDevices(), "refused at open by this engine");
        assumeTrue(device.isPresent(), "no readable block device here");
        try (PositionalFile f = open(device.get())) {
            assertTrue(f.size() >= 0);
            f.read(ByteBuffer.allocateDirect(512), 0); // data, or -1 for an empty device such as an unused loop
        }
    }
}
