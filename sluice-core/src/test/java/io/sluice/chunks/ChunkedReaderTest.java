package io.sluice.chunks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sluice.Engine;
import io.sluice.PositionalFile;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The reader on every engine that runs here, over real files. */
class ChunkedReaderTest {
    @TempDir
    Path dir;

    static Stream<Engine> engines() {
        return Stream.of(Engine.values()).filter(Engine::isAvailable);
    }

    private Path file(String name, int size, long seed) throws IOException {
        byte[] b = new byte[size];
        new SplittableRandom(seed).nextBytes(b);
        return Files.write(dir.resolve(name), b);
    }

    /** Every chunk, copied, with its position checked against the bytes before it. */
    private static byte[] drain(ChunkedReader r) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long expected = r.position();
        for (MemorySegment c; (c = r.next()) != null; ) {
            assertEquals(expected, r.chunkPosition());
            assertTrue(c.byteSize() > 0, "never an empty chunk");
            assertTrue(c.isReadOnly());
            out.writeBytes(c.toArray(ValueLayout.JAVA_BYTE));
            expected += c.byteSize();
            assertEquals(expected, r.position());
        }
        return out.toByteArray();
    }

    @ParameterizedTest
    @MethodSource("engines")
    void anEmptyFileHasNoChunks(Engine engine) throws IOException {
        Path empty = Files.write(dir.resolve("empty"), new byte[0]);
        try (ChunkedReader r = ChunkedReader.open(empty, engine, FixedPolicy.of(4096))) {
            assertNull(r.next());
            assertNull(r.next(), "and stays at its end");
            assertNull(r.nextBuffer());
        }
        try (ChunkedReader r = ChunkedReader.open(empty, engine, AdaptivePolicy.forFile(empty))) {
            assertEquals(-1, r.asInputStream().read());
        }
        try (PositionalFile f = PositionalFile.open(empty, engine);
             ChunkedReader r = ChunkedReader.of(f, 0, 0, FixedPolicy.of(10))) {
            assertNull(r.next(), "an empty range asks nothing of the file");
        }
    }

    @ParameterizedTest
    @MethodSource("engines")
    void readsEveryByteInOrderAtAnySize(Engine engine) throws IOException {
        Path p = file("data", (3 << 20) + 12_345, 1);
        byte[] expected = Files.readAllBytes(p);
        for (int size : new int[] {1 << 20, 100_000, 4096, 777}) {
            for (boolean ahead : new boolean[] {false, true}) {
                try (ChunkedReader r = ChunkedReader.open(p, engine, FixedPolicy.of(size, ahead))) {
                    List<Long> sizes = new ArrayList<>();
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    for (MemorySegment c; (c = r.next()) != null; ) {
                        sizes.add(c.byteSize());
                        out.writeBytes(c.toArray(ValueLayout.JAVA_BYTE));
                    }
                    assertArrayEquals(expected, out.toByteArray(), engine + " size " + size + " ahead " + ahead);
                    for (int i = 0; i < sizes.size() - 1; i++) {
                        assertEquals(size, sizes.get(i), "every chunk but the last is full");
                    }
                    assertEquals(expected.length % size == 0 ? size : expected.length % size, sizes.getLast());
                    assertNull(r.next(), "EOF stays EOF");
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("engines")
    void theAdaptivePolicyDeliversTheSameBytes(Engine engine) throws IOException {
        Path p = file("data", 24 << 20, 2);
        AdaptivePolicy policy = AdaptivePolicy.of(64 << 10, 16 << 10, 1 << 20, 200_000, System::nanoTime);
        try (ChunkedReader r = ChunkedReader.open(p, engine, policy)) {
            assertArrayEquals(Files.readAllBytes(p), drain(r));
        }
        assertFalse(policy.trace().isEmpty(), policy::toString);
    }

    @ParameterizedTest
    @MethodSource("engines")
    void aRangeIsReadExactlyAndAFileEndingInsideItIsAnEofError(Engine engine) throws IOException {
        Path p = file("data", 1 << 20, 3);
        byte[] all = Files.readAllBytes(p);
        try (PositionalFile f = PositionalFile.open(p, engine)) {
            for (long[] range : new long[][] {{0, 1 << 20}, {1, 2}, {4095, 4097}, {12_345, 999_999}, {1 << 20, 1 << 20}}) {
                try (ChunkedReader r = ChunkedReader.of(f, range[0], range[1], FixedPolicy.of(65_536, true))) {
                    byte[] want = java.util.Arrays.copyOfRange(all, (int) range[0], (int) range[1]);
                    assertArrayEquals(want, drain(r), engine + " " + range[0] + ".." + range[1]);
                }
            }
            try (ChunkedReader r = ChunkedReader.of(f, 1000, (1 << 20) + 5000, FixedPolicy.of(300_000))) {
                ByteArrayOutputStream got = new ByteArrayOutputStream();
                EOFException e = assertThrows(EOFException.class, () -> {
                    for (MemorySegment c; (c = r.next()) != null; ) {
                        got.writeBytes(c.toArray(ValueLayout.JAVA_BYTE));
                    }
                });
                assertArrayEquals(java.util.Arrays.copyOfRange(all, 1000, all.length), got.toByteArray(),
                        "the bytes up to the end of the file come first");
                assertTrue(e.getMessage().contains(p.toString()) && e.getMessage().contains("pos=1048576")
                        && e.getMessage().contains("[1000, 1053576)"), e.getMessage());
            }
            assertTrue(f.isOpen(), "a reader over an open file leaves it open");
        }
        assertThrows(NullPointerException.class, () -> ChunkedReader.of(null, 0, 1, FixedPolicy.of(1)));
    }

    @Test
    void badRangesAreRefused() throws IOException {
        Path p = file("data", 10, 4);
        try (PositionalFile f = PositionalFile.open(p)) {
            assertThrows(IllegalArgumentException.class, () -> ChunkedReader.of(f, -1, 5, FixedPolicy.of(1)));
            assertThrows(IllegalArgumentException.class, () -> ChunkedReader.of(f, 6, 5, FixedPolicy.of(1)));
        }
    }

    @ParameterizedTest
    @MethodSource("engines")
    void aFileThatGrowsWhileReadIsReadToItsNewEndInFullChunks(Engine engine) throws IOException {
        Path p = file("data", 1 << 20, 5);
        byte[] more = randomBytes(300_001, 6);
        int size = 300_000;
        try (ChunkedReader r = ChunkedReader.open(p, engine, FixedPolicy.of(size));
             FileChannel writer = FileChannel.open(p, StandardOpenOption.WRITE)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            List<Long> sizes = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                MemorySegment c = r.next();
                sizes.add(c.byteSize());
                out.writeBytes(c.toArray(ValueLayout.JAVA_BYTE));
            }
            writer.write(ByteBuffer.wrap(more), 1 << 20);
            // The chunk at 900,000 crosses the old end (1 MiB). MMAP still maps the old size, so its first read there
            // is short; the reader reads on (the engine then maps the new size), and the chunk comes out full.
            for (MemorySegment c; (c = r.next()) != null; ) {
                sizes.add(c.byteSize());
                out.writeBytes(c.toArray(ValueLayout.JAVA_BYTE));
            }
            byte[] now = Files.readAllBytes(p);
            assertEquals((1 << 20) + more.length, now.length);
            assertArrayEquals(now, out.toByteArray(), engine.toString());
            for (int i = 0; i < sizes.size() - 1; i++) {
                assertEquals(size, sizes.get(i), engine + ": chunk " + i + " of " + sizes);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("engines")
    void aFileThatGrowsAfterTheReadAheadFoundItsEndIsReadToItsNewEnd(Engine engine) throws IOException {
        Path p = file("data", 1 << 20, 9);
        byte[] more = randomBytes(100_000, 10);
        try (ChunkedReader r = ChunkedReader.open(p, engine, FixedPolicy.of(512 << 10, true));
             FileChannel writer = FileChannel.open(p, StandardOpenOption.WRITE)) {
            assumeTrue(r.canReadAhead(), "no read-ahead here (one processor)");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(r.next().toArray(ValueLayout.JAVA_BYTE));
            // Returning the second chunk starts the read-ahead at the end of the file as it is now: it finds nothing.
            out.writeBytes(r.next().toArray(ValueLayout.JAVA_BYTE));
            sleepUntilTheReadAheadHasRun();
            writer.write(ByteBuffer.wrap(more), 1 << 20);
            out.writeBytes(drain(r));
            assertArrayEquals(Files.readAllBytes(p), out.toByteArray(), engine.toString());
        }
    }

    private static byte[] randomBytes(int n, long seed) {
        byte[] b = new byte[n];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }

    /** The read-ahead runs on another thread or in the kernel; a moment lets it finish before the file changes. */
    private static void sleepUntilTheReadAheadHasRun() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest
    @MethodSource("engines")
    void aFileThatShrinksWhileReadEndsAtItsNewEnd(Engine engine) throws IOException {
        Path p = file("data", 2 << 20, 7);
        byte[] all = Files.readAllBytes(p);
        int cut = 700_000;
        try (ChunkedReader r = ChunkedReader.open(p, engine, FixedPolicy.of(256 << 10));
             FileChannel cutter = FileChannel.open(p, StandardOpenOption.WRITE)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(r.next().toArray(ValueLayout.JAVA_BYTE));
            cutter.truncate(cut);
            try {
                out.writeBytes(drain(r));
                assertArrayEquals(java.util.Arrays.copyOf(all, cut), out.toByteArray(), engine.toString());
            } catch (IOException e) {
                // The mapping still covers the old size; the engine turns the lost pages' SIGBUS into this.
                assertEquals(Engine.MMAP, engine, () -> "only MMAP may fail here: " + e);
                assertTrue(e.getMessage().contains(p.toString()), e.getMessage());
            }
        }
        // A range promised more than there now is.
        try (PositionalFile f = PositionalFile.open(p, engine);
             ChunkedReader r = ChunkedReader.of(f, 0, 2 << 20, FixedPolicy.of(256 << 10))) {
            assertThrows(EOFException.class, () -> drain(r));
        }
    }

    @ParameterizedTest
    @MethodSource("engines")
    void closingFromAnotherThreadEndsTheReadInProgress(Engine engine) throws Exception {
        Path p = file("data", 32 << 20, 8);
        for (boolean owned : new boolean[] {true, false}) {
            for (boolean ahead : new boolean[] {false, true}) {
                PositionalFile f = owned ? null : PositionalFile.open(p, engine);
                ChunkedReader r = owned ? ChunkedReader.open(p, engine, FixedPolicy.of(64 << 10, ahead))
                        : ChunkedReader.of(f, FixedPolicy.of(64 << 10, ahead));
                CountDownLatch reading = new CountDownLatch(3);
                AtomicReference<Throwable> outcome = new AtomicReference<>();
                Thread reader = Thread.ofPlatform().start(() -> {
                    try {
                        // A slow consumer (512 chunks, a millisecond each), so close() comes long before the end.
                        while (true) {
                            MemorySegment c = r.next();
                            reading.countDown();
                            if (c == null) {
                                throw new AssertionError("the end came before close()");
                            }
                            Thread.sleep(1);
                        }
                    } catch (Throwable t) {
                        outcome.set(t);
                    }
                });
                reading.await();
                r.close();
                reader.join(10_000);
                assertFalse(reader.isAlive());
                Throwable t = outcome.get();
                String where = engine + (owned ? " owned" : " not owned") + (ahead ? " ahead" : "") + ": " + t;
                assertTrue(t instanceof ClosedChannelException, where);
                assertThrows(ClosedChannelException.class, r::next);
                if (owned) {
                    assertFalse(r.file().isOpen(), "the reader opened the file, so it closed it");
                } else {
                    assertTrue(f.isOpen(), "the caller's file stays open");
                    f.close();
                }
                r.close();
            }
        }
    }

    @ParameterizedTest
    @MethodSource("engines")
    void theStreamAndChannelAdaptersGiveTheSameBytes(Engine engine) throws IOException {
        Path p = file("data", (1 << 20) + 17, 9);
        byte[] all = Files.readAllBytes(p);
        try (InputStream in = ChunkedReader.open(p, engine, FixedPolicy.of(50_000)).asInputStream()) {
            assertEquals(all[0] & 0xff, in.read());
            byte[] some = new byte[10];
            assertEquals(10, in.read(some, 0, 10));
            assertArrayEquals(java.util.Arrays.copyOfRange(all, 1, 11), some);
            assertEquals(100_000, in.skip(100_000));
            byte[] rest = in.readAllBytes();
            assertArrayEquals(java.util.Arrays.copyOfRange(all, 100_011, all.length), rest);
            assertEquals(-1, in.read());
            assertEquals(-1, in.read(some, 0, 10));
        }
        try (InputStream in = ChunkedReader.open(p, engine, FixedPolicy.of(300_000)).asInputStream()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            assertEquals(all.length, in.transferTo(out));
            assertArrayEquals(all, out.toByteArray());
        }
        ChunkedReader r = ChunkedReader.open(p, engine, FixedPolicy.of(40_000));
        try (ReadableByteChannel ch = r.asChannel()) {
            ByteBuffer small = ByteBuffer.allocate(3_333);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (int n; (n = ch.read(small.clear())) >= 0; ) {
                assertTrue(n > 0);
                out.write(small.array(), 0, n);
            }
            assertArrayEquals(all, out.toByteArray());
            assertTrue(ch.isOpen());
        }
        assertThrows(ClosedChannelException.class, r::next, "closing the channel closed the reader");
    }

    @Test
    void thePolicyIsToldWhatEachChunkHeldAndItsSizesAreHonoured() throws IOException {
        Path p = file("data", 10_000, 10);
        int[] sizes = {1, 7, 4096, 3, 5000, 5000};
        List<Long> reported = new ArrayList<>();
        int[] starts = {0};
        ChunkPolicy scripted = new ChunkPolicy() {
            int i;

            @Override
            public int start(boolean readAheadAvailable) {
                starts[0]++;
                return sizes[i++];
            }

            @Override
            public int next(long bytes) {
                reported.add(bytes);
                return sizes[Math.min(i++, sizes.length - 1)];
            }

            @Override
            public boolean readAhead() {
                return false;
            }

            @Override
            public int size() {
                return sizes[Math.max(0, i - 1)];
            }

            @Override
            public List<ChunkTrace> trace() {
                return List.of();
            }
        };
        List<Long> got = new ArrayList<>();
        try (ChunkedReader r = ChunkedReader.open(p, scripted)) {
            for (MemorySegment c; (c = r.next()) != null; ) {
                got.add(c.byteSize());
            }
        }
        assertEquals(List.of(1L, 7L, 4096L, 3L, 5000L, 893L), got);
        assertEquals(1, starts[0]);
        assertEquals(got, reported, "each chunk is reported when the next is asked for");
    }

    @Test
    void aPolicyAskingForNothingIsABug() throws IOException {
        Path p = file("data", 100, 11);
        try (ChunkedReader r = ChunkedReader.open(p, new ChunkPolicy() {
            @Override
            public int start(boolean readAheadAvailable) {
                return 0;
            }

            @Override
            public int next(long bytes) {
                return 0;
            }

            @Override
            public boolean readAhead() {
                return false;
            }

            @Override
            public int size() {
                return 0;
            }

            @Override
            public List<ChunkTrace> trace() {
                return List.of();
            }
        })) {
            assertThrows(IllegalStateException.class, r::next);
        }
    }

    @Test
    void aViewIsGoodUntilTheNextChunk() throws IOException {
        Path p = file("data", 8192, 12);
        byte[] all = Files.readAllBytes(p);
        try (ChunkedReader r = ChunkedReader.open(p, FixedPolicy.of(4096))) {
            ByteBuffer first = r.nextBuffer();
            assertTrue(first.isReadOnly());
            assertEquals(4096, first.remaining());
            byte[] b = new byte[4096];
            first.get(b);
            assertArrayEquals(java.util.Arrays.copyOf(all, 4096), b);
            MemorySegment second = r.next();
            assertArrayEquals(java.util.Arrays.copyOfRange(all, 4096, 8192), second.toArray(ValueLayout.JAVA_BYTE));
            assertThrows(IllegalArgumentException.class, () -> second.set(ValueLayout.JAVA_BYTE, 0, (byte) 1));
        }
    }

    @Test
    void theMachinesFirstGuessIsSaneAndExplained() {
        DeviceHints h = DeviceHints.of(dir);
        int guess = h.firstGuess(16 << 10, 8 << 20);
        assertTrue(Integer.bitCount(guess) == 1 && guess >= 16 << 10 && guess <= 8 << 20, h + " -> " + guess);
        assertTrue(AdaptivePolicy.forFile(dir).origin().startsWith("first guess "), h::describe);
    }
}
