package io.sluice;

import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.sluice.internal.Errno;
import io.sluice.internal.Native;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The contract on the MMAP engine, plus remapping, advice, huge mappings and closing under readers. */
class MappedFileTest extends PositionalFileContract {
    @Override
    Engine engine() {
        return Engine.MMAP;
    }

    @Override
    boolean servesPseudoFilesAndDevices() {
        return false;
    }

    @Test
    void nativeAccessIsOnSoAdviceReallyReachesTheKernel() {
        // surefire passes --enable-native-access=ALL-UNNAMED; without it the advice tests would skip madvise
        assertTrue(Native.isEnabled());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment page = arena.allocate(4 * 4096, 4096);
            assertEquals(0, Native.madvise(page.address(), page.byteSize(), Native.MADV_RANDOM));
            assertEquals(Errno.EINVAL, Native.madvise(page.address() + 1, 4096, Native.MADV_RANDOM),
                    "an unaligned address");
        }
    }

    @ParameterizedTest
    @EnumSource(Advice.class)
    void everyAdviceReadsAndGrowsCorrectly(Advice advice) throws IOException {
        long size = 3 * MiB + 5;
        Path p = patternFile("f", size);
        try (PositionalFile r = open(p, advice); PositionalFile w = open(p, WRITE, advice)) {
            for (Dst via : Dst.values()) {
                assertPattern(via.readFully(r, 4097, 300_000), 300_000, 4097);
                assertPattern(via.readFully(r, size - 10, 10), 10, size - 10);
            }
            // growing remaps, with the advice applied again to the new mapping
            w.writeFully(Pattern.bytes(size, 100_000), 0, 100_000, size);
            assertPattern(Dst.NATIVE_SEGMENT.readFully(w, size - 50, 100_050), 100_050, size - 50);
            assertPattern(Dst.HEAP_BUFFER.readFully(r, size - 50, 100_050), 100_050, size - 50);
        }
    }

    @Test
    void writesThatGrowTheFileWhileOthersRead() throws Exception {
        Path p = dir.resolve("f");
        int chunk = 64 * 1024 + 7;
        int chunks = 60;
        AtomicLong written = new AtomicLong();
        AtomicBoolean done = new AtomicBoolean();
        try (PositionalFile f = open(p, CREATE_NEW, WRITE); PositionalFile other = open(p)) {
            CountDownLatch readersRunning = new CountDownLatch(4);
            // readers on the writer's own handle, and one on a second handle that must notice growth by itself
            Workers readers = new Workers(4, w -> {
                PositionalFile g = w == 3 ? other : f;
                SplittableRandom rnd = new SplittableRandom(w);
                byte[] into = new byte[chunk];
                for (int i = 0; !done.get() || i < 20; i++) {
                    long known = written.get();
                    int len = 1 + rnd.nextInt(chunk);
                    Dst via = Dst.values()[(w + i) % Dst.values().length];
                    if (known > len && rnd.nextBoolean()) {
                        long pos = rnd.nextLong(known - len);
                        // the second handle may still have a shorter mapping, and return a short count
                        int n = via.read(g, pos, into, len, false);
                        assertTrue(n > 0 && (n == len || g == other), "read of " + len + " at " + pos + ": " + n);
                        assertPattern(into, n, pos);
                    } else {
                        // At the edge, the end of the file or bytes being written: a write grows the file (zeros)
                        // before it copies its bytes in.
                        int n = via.readRacing(g, known, into, len);
                        for (int b = 0; b < n; b++) {
                            if (into[b] != 0 && into[b] != Pattern.at(known + b)) {
                                fail("byte " + (known + b) + " is neither written nor zero: " + into[b]);
                            }
                        }
                    }
                    if (i == 20) {
                        readersRunning.countDown();
                    }
                }
                assertFalse(Thread.currentThread().isInterrupted(), "remaps do not interrupt readers");
            });
            readers.await(readersRunning, JOIN);
            for (int k = 0; k < chunks; k++) {
                long pos = (long) k * chunk;
                Src.values()[k % Src.values().length].write(f, pos, Pattern.bytes(pos, chunk), 0, chunk, true);
                written.set(pos + chunk);
            }
            done.set(true);
            readers.join(JOIN);
            assertFalse(Thread.currentThread().isInterrupted());
            assertEquals((long) chunks * chunk, f.size());
            assertPattern(Dst.ARRAY_SLICE.readFully(other, 0, chunks * chunk), chunks * chunk, 0);
        }
    }

    @Test
    void appendsMapNothingAndTheMappingGrowsOnlyWhenAReadOrAnInPlaceWriteNeedsIt() throws IOException {
        Path p = dir.resolve("f");
        int piece = 8192;
        int pieces = 48;
        int total = piece * pieces;
        try (PositionalFile f = open(p, CREATE_NEW, WRITE)) {
            MappedFile mapped = (MappedFile) f;
            // Appends in pieces, as an index writer's output stream makes them: each must not map the file again.
            for (int k = 0; k < pieces; k++) {
                long pos = (long) k * piece;
                Src.values()[k % Src.values().length].write(f, pos, Pattern.bytes(pos, piece), 0, piece, true);
                assertEquals(pos + piece, f.size(), "size after append " + k);
            }
            assertEquals(0, mapped.maps(), "maps made by " + pieces + " appends");
            assertEquals(0, mapped.mappedSize());
            // A read of the appended bytes maps the file once, at its size.
            assertPattern(Dst.ARRAY_SLICE.readFully(f, 0, total), total, 0);
            assertEquals(1, mapped.maps());
            assertEquals(total, mapped.mappedSize());
            // Writes inside the mapping are copies.
            for (Src via : Src.values()) {
                via.write(f, 100, Pattern.bytes(100, 5000), 0, 5000, true);
            }
            assertEquals(1, mapped.maps());
            // More appends, then an in-place write inside what they appended: one map covers it, and the reads after.
            for (int k = 0; k < pieces; k++) {
                long pos = total + (long) k * piece;
                Src.values()[k % Src.values().length].write(f, pos, Pattern.bytes(pos, piece), 0, piece, true);
            }
            assertEquals(1, mapped.maps());
            long inPlace = total + 3L * piece + 11;
            Src.ARRAY_SLICE.write(f, inPlace, Pattern.bytes(inPlace, 300), 0, 300, true);
            assertEquals(2, mapped.maps());
            assertEquals(2L * total, mapped.mappedSize());
            for (Dst via : Dst.values()) {
                assertPattern(via.readFully(f, 0, 2 * total), 2 * total, 0);
            }
            assertEquals(2, mapped.maps());
            assertEquals(2L * total, f.size());
        }
        assertEquals(2L * total, Files.size(p));
        assertPattern(Files.readAllBytes(p), 2 * total, 0);
    }

    @Test
    void truncateWhileOthersRead() throws Exception {
        long size = 8 * MiB;
        Path p = patternFile("f", size);
        AtomicBoolean done = new AtomicBoolean();
        try (PositionalFile f = open(p, WRITE)) {
            CountDownLatch readersRunning = new CountDownLatch(3);
            Workers readers = new Workers(3, w -> {
                SplittableRandom rnd = new SplittableRandom(w);
                byte[] into = new byte[128 * 1024];
                for (int i = 0; !done.get() || i < 20; i++) {
                    int len = 1 + rnd.nextInt(into.length);
                    long pos = rnd.nextLong(size);
                    // whatever is read is what was there: truncation only takes bytes away at the end
                    int n = Dst.values()[(w + i) % Dst.values().length].readRacing(f, pos, into, len);
                    if (n > 0) {
                        assertPattern(into, n, pos);
                    }
                    if (i == 20) {
                        readersRunning.countDown();
                    }
                }
            });
            readers.await(readersRunning, JOIN);
            for (long s = size; s > 0; s -= 512 * 1024) {
                f.truncate(s - 1);
                assertEquals(s - 1, f.size());
            }
            done.set(true);
            readers.join(JOIN);
        }
    }

    @Test
    void aSparseFileOfMoreThanFourGiBIsReadableAtItsEnd() throws IOException {
        Path p = dir.resolve("big");
        long size = 5 * GiB + 777;
        try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
            raf.setLength(size);
        }
        Pattern.write(p, size - 8192, 8192);
        try (PositionalFile f = open(p, Advice.RANDOM)) {
            assertEquals(size, f.size());
            for (Dst via : Dst.values()) {
                assertPattern(via.readFully(f, size - 8192, 8192), 8192, size - 8192);
                assertZeros(via.readFully(f, (1L << 32) - 100, 200), 200, "the hole across 4 GiB");
                byte[] into = new byte[100];
                assertEquals(-1, via.read(f, size, into, 100, false));
                assertEquals(10, via.read(f, size - 10, into, 100, false));
                assertPattern(into, 10, size - 10);
            }
        }
    }

    @RepeatedTest(5)
    void closeWhileReadersAndAWriterRunNeverCrashes() throws Exception {
        long size = 16 * MiB;
        Path p = patternFile("f", size);
        PositionalFile f = open(p, WRITE);
        int threads = 5;
        CountDownLatch running = new CountDownLatch(threads);
        Workers workers = new Workers(threads, w -> {
            SplittableRandom rnd = new SplittableRandom(w);
            Arena arena = Arena.ofShared();
            MemorySegment big = arena.allocate(2 * MiB);
            try {
                for (int i = 0; ; i++) {
                    try {
                        if (w == 0) {
                            // the writer keeps growing the file: every write remaps
                            long pos = size + i * 4096L;
                            f.writeFully(Pattern.bytes(pos, 4096), 0, 4096, pos);
                        } else {
                            long pos = rnd.nextLong(size - big.byteSize());
                            f.readFully(big, pos);
                        }
                    } catch (ClosedChannelException expected) {
                        assertFalse(Thread.currentThread().isInterrupted(), "closing does not interrupt");
                        return;
                    }
                    if (i == 2) {
                        running.countDown();
                    }
                    if (i > 100_000) {
                        fail("never saw the close");
                    }
                }
            } finally {
                arena.close();
            }
        });
        workers.await(running, JOIN);
        f.close();
        assertFalse(f.isOpen());
        workers.join(JOIN);
    }

    @Test
    void aFileCutByAnotherHandleIsFollowedRatherThanFailed() throws IOException {
        Path p = patternFile("f", 1 * MiB);
        try (PositionalFile mapped = open(p, READ, WRITE);
                FileChannel cutter = FileChannel.open(p, WRITE)) {
            assertPattern(Dst.ARRAY_SLICE.readFully(mapped, 0, 8192), 8192, 0);
            cutter.truncate(4096);
            // Touching the lost pages raises SIGBUS; the engine then maps the real size, as CHANNEL sees it.
            for (Dst via : Dst.values()) {
                assertEquals(-1, via.read(mapped, 8192, new byte[100], 100, false), via.toString());
            }
            long at = 100_000;
            for (Src via : Src.values()) {
                cutter.truncate(4096);
                via.write(mapped, at, Pattern.bytes(at, 10), 0, 10, false);
                assertEquals(at + 10, mapped.size(), via.toString());
                assertPattern(Dst.HEAP_BUFFER.readFully(mapped, at, 10), 10, at);
            }
            assertTrue(mapped.isOpen());
            assertPattern(Dst.HEAP_BUFFER.readFully(mapped, 0, 4096), 4096, 0);
        }
    }

    // ---------------------------------------------------------------- a file shrunk by another process

    /** Cuts {@code p} to {@code size} bytes with the {@code truncate} command: another process, as in real life. */
    static void cutByAnotherProcess(Path p, long size) throws IOException, InterruptedException {
        Process cut = new ProcessBuilder("truncate", "-s", Long.toString(size), p.toString())
                .redirectErrorStream(true).start();
        String out = new String(cut.getInputStream().readAllBytes());
        assertEquals(0, cut.waitFor(), "truncate -s " + size + ": " + out);
    }

    /** What a read returned: the count and the bytes it reported. */
    static String readResult(PositionalFile f, Dst via, long pos, int len) throws IOException {
        byte[] into = new byte[len];
        int n = via.read(f, pos, into, len, false);
        return "read " + len + " at " + pos + " via " + via + ": " + n + " "
                + HexFormat.of().formatHex(into, 0, Math.max(0, Math.min(n, 64)))
                + (n > 64 ? " #" + Arrays.hashCode(Arrays.copyOf(into, n)) : "");
    }

    /**
     * One sequence of reads, writes and size calls with the file shrunk by another process in between, page-aligned
     * and not, to zero, under both the part of the mapping the engine touched and parts it never did.
     */
    static List<String> underCuts(Path p, Engine engine) throws Exception {
        List<String> log = new ArrayList<>();
        Dst[] dsts = Dst.values();
        Src[] srcs = Src.values();
        try (PositionalFile f = PositionalFile.open(p, engine, WRITE)) {
            log.add(readResult(f, Dst.ARRAY_SLICE, 8192, 100));
            cutByAnotherProcess(p, 64 * KiB);
            log.add(readResult(f, Dst.NATIVE_SEGMENT, 100_000, 100));
            log.add(readResult(f, Dst.HEAP_BUFFER, 64 * KiB - 50, 100));
            log.add(readResult(f, Dst.DIRECT_BUFFER, 64 * KiB, 1));
            for (Dst via : dsts) {
                log.add(readResult(f, via, 500_000, 4096));
            }
            log.add("size " + f.size());
            cutByAnotherProcess(p, 0);
            log.add("size " + f.size());
            for (Dst via : dsts) {
                log.add(readResult(f, via, 0, 10));
                log.add(readResult(f, via, 1000, 10));
            }
            log.add("write " + Src.ARRAY_SLICE.write(f, 300_000, Pattern.bytes(300_000, 100), 0, 100, true));
            log.add("size " + f.size());
            log.add(readResult(f, Dst.LONG_SEGMENT, 299_950, 200));
            // Not on a page boundary: the page holding the new end stays mapped, so look past it first.
            cutByAnotherProcess(p, 123_457);
            log.add(readResult(f, Dst.HEAP_SEGMENT, 130_000, 100));
            log.add(readResult(f, Dst.ARRAY_SLICE, 123_400, 100));
            log.add("size " + f.size());
            // Writes into the range the cut took away grow the file again, as pwrite does.
            cutByAnotherProcess(p, 8192);
            for (int i = 0; i < srcs.length; i++) {
                long pos = 50_000 + 1000L * i;
                log.add(srcs[i] + " wrote in " + srcs[i].write(f, pos, Pattern.bytes(pos, 100), 0, 100, false)
                        + " calls; size " + f.size());
            }
            log.add(readResult(f, Dst.HEAP_BUFFER, 8100, 200));
            log.add(readResult(f, Dst.NATIVE_SEGMENT, 49_990, 200));
            // A vectored read across the new end is short, one past it is the end.
            cutByAnotherProcess(p, 40_960);
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment a = arena.allocate(3000);
                MemorySegment b = arena.allocate(3000);
                log.add("vectored " + f.read(40_960 - 4000, a, b) + " then " + f.read(45_000, a, b));
            }
            log.add("size " + f.size());
        }
        log.add("file " + Files.size(p));
        return log;
    }

    @Test
    void aFileShrunkByAnotherProcessReadsAndWritesAsWithChannel() throws Exception {
        List<String> channel = underCuts(patternFile("channel", MiB), Engine.CHANNEL);
        List<String> mapped = underCuts(patternFile("mapped", MiB), Engine.MMAP);
        assertEquals(String.join("\n", channel), String.join("\n", mapped));
    }

    /**
     * Reads at {@code positions} through a byte[], a native segment and a direct buffer, kept in one method so the
     * warm-up and the reads after a cut run the same compiled code; returns each read's count.
     */
    static int[] readEach(PositionalFile f, long[] positions, byte[] array, MemorySegment segment, ByteBuffer buffer)
            throws IOException {
        int[] counts = new int[positions.length * 3];
        for (int i = 0; i < positions.length; i++) {
            counts[3 * i] = f.read(array, positions[i]);
            counts[3 * i + 1] = f.read(segment, positions[i]);
            counts[3 * i + 2] = f.read(buffer.clear(), positions[i]);
        }
        return counts;
    }

    /** Writes {@code data} at {@code position} through a byte[], a native segment and a heap buffer in turn. */
    static void writeEach(PositionalFile f, long position, byte[] data, MemorySegment segment, int kind)
            throws IOException {
        switch (kind % 3) {
            case 0 -> f.writeFully(data, 0, data.length, position);
            case 1 -> f.writeFully(segment.copyFrom(MemorySegment.ofArray(data)), position);
            default -> f.writeFully(ByteBuffer.wrap(data), position);
        }
    }

    @Test
    void compiledReadsAndWritesPastACutAnswerAsChannelDoes() throws IOException {
        long size = 4 * MiB;
        Path p = patternFile("f", size);
        byte[] array = new byte[512];
        ByteBuffer buffer = ByteBuffer.allocateDirect(512);
        try (Arena arena = Arena.ofConfined();
                PositionalFile f = open(p, WRITE);
                FileChannel cutter = FileChannel.open(p, WRITE)) {
            MemorySegment segment = arena.allocate(512);
            long[] warm = new long[16];
            for (int i = 0; i < warm.length; i++) {
                warm[i] = i * 200_000L + 3;
            }
            // Enough calls for the JIT to compile the read path; SIGBUS then arrives as a compiled-code fault.
            for (int round = 0; round < 2_000; round++) {
                for (int n : readEach(f, warm, array, segment, buffer)) {
                    assertEquals(512, n);
                }
                writeEach(f, 100 + round, Pattern.bytes(100 + round, 512), segment, round);
            }
            for (int k = 0; k < 12; k++) {
                long cut = (k % 4) * 256 * KiB + (k % 3) * 4096;
                // A FileChannel of this JVM cuts the file as another process would: the kernel sees a truncate.
                cutter.truncate(cut);
                // A write into the range the cut took away (still mapped) grows the file again, as on CHANNEL.
                long at = cut + 20_000 + k;
                writeEach(f, at, Pattern.bytes(at, 512), segment, k);
                assertEquals(at + 512, f.size());
                assertPattern(Dst.HEAP_SEGMENT.readFully(f, at, 512), 512, at);
                try (FileChannel check = FileChannel.open(p, READ)) {
                    ByteBuffer got = ByteBuffer.allocate(512);
                    assertEquals(512, check.read(got, at));
                    assertPattern(got.array(), 512, at);
                }
                // Reads past the new end are the end of the file, reads across it are short.
                cutter.truncate(cut);
                long[] past = {cut + 8192 + 1000L * k, cut, cut + 100_000};
                int[] counts = readEach(f, past, array, segment, buffer);
                for (int i = 0; i < counts.length; i++) {
                    assertEquals(-1, counts[i], "read " + i + " past a cut to " + cut);
                }
                assertEquals(cut, f.size());
                if (cut > 0) {
                    int[] across = readEach(f, new long[] {cut - 100}, array, segment, buffer);
                    assertEquals(List.of(100, 100, 100), Arrays.stream(across).boxed().toList(), "across " + cut);
                }
                // Back to the full size, and mapped at it, for the next round.
                f.truncate(0);
                Pattern.write(p, 0, size);
                for (int n : readEach(f, warm, array, segment, buffer)) {
                    assertEquals(512, n);
                }
            }
        }
    }

    @Test
    void filesThatCannotBeMappedAreRefusedAtOpen() throws IOException {
        for (String name : new String[] {"/proc/cpuinfo", "/proc/self/status",
                "/sys/kernel/mm/transparent_hugepage/enabled"}) {
            Path p = Path.of(name);
            if (!Files.isReadable(p)) {
                continue;
            }
            IOException e = assertThrows(IOException.class, () -> open(p).close(), name);
            assertTrue(e.getMessage().contains(name) && e.getMessage().contains("Engine.CHANNEL"), e.getMessage());
        }
        // Without native access the file system's type decides; both ways agree here.
        for (String name : new String[] {"/proc/cpuinfo", "/sys/kernel/mm/transparent_hugepage/enabled"}) {
            Path p = Path.of(name);
            if (Files.isReadable(p)) {
                assertNotNull(Mapped.unmappableByProbe(p, false), name);
                assertNotNull(Mapped.unmappableByFileSystem(p), name);
            }
        }
        Path ordinary = Files.createFile(dir.resolve("ordinary"));
        assertNull(Mapped.unmappableByProbe(ordinary, false));
        assertNull(Mapped.unmappableByFileSystem(ordinary));
        // An ordinary empty file is no such file: it opens, reads as empty and grows.
        Path empty = Files.createFile(dir.resolve("empty"));
        try (PositionalFile f = open(empty, WRITE)) {
            assertEquals(-1, f.read(new byte[10], 0));
            f.writeFully(Pattern.bytes(0, 10), 0, 10, 0);
            assertPattern(Dst.ARRAY_SLICE.readFully(f, 0, 10), 10, 0);
        }
    }
}
