package io.sluice;

import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.sluice.internal.Errno;
import io.sluice.internal.Native;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
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
    void aFileCutByAnotherHandleFailsWithoutACrash() throws IOException {
        Path p = patternFile("f", 1 * MiB);
        try (PositionalFile mapped = open(p, READ, WRITE);
                FileChannel cutter = FileChannel.open(p, WRITE)) {
            assertPattern(Dst.ARRAY_SLICE.readFully(mapped, 0, 8192), 8192, 0);
            cutter.truncate(4096);
            // Touching the lost pages raises SIGBUS, which HotSpot turns into an InternalError that it delivers
            // asynchronously: MappedFile turns it into an IOException when it arrives inside the copy, but it may
            // arrive just after. Either way the JVM lives on, no stale bytes come back, and the file stays usable.
            for (Dst via : Dst.values()) {
                assertCutFailure(p, () -> via.read(mapped, 8192, new byte[100], 100, false));
            }
            for (Src via : Src.values()) {
                assertCutFailure(p, () -> via.write(mapped, 100_000, new byte[10], 0, 10, false));
            }
            assertTrue(mapped.isOpen());
            assertPattern(Dst.HEAP_BUFFER.readFully(mapped, 0, 4096), 4096, 0);
        }
    }

    private static void assertCutFailure(Path p, org.junit.jupiter.api.function.Executable call) {
        Throwable t = assertThrows(Throwable.class, call);
        if (t instanceof IOException e) {
            assertTrue(e.getMessage().contains(p.toString()) && e.getMessage().contains("SIGBUS"), e.getMessage());
        } else if (!(t instanceof InternalError)) {
            throw new AssertionError("expected IOException or InternalError", t);
        }
    }
}
