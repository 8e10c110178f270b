package io.sluice;

import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.internal.AlignedBuffers;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The contract on the CHANNEL engine, plus its bounce buffers and its way with interrupts. */
class ChannelFileTest extends PositionalFileContract {
    @Override
    Engine engine() {
        return Engine.CHANNEL;
    }

    private static long address(ByteBuffer b) {
        return MemorySegment.ofBuffer(b).address();
    }

    @Test
    void alignedBuffersStartOnAPage() {
        for (int size : new int[] {1, 100, 4095, 4096, 4097, 256 * 1024 + 1}) {
            ByteBuffer b = AlignedBuffers.allocate(size);
            assertTrue(b.isDirect());
            assertEquals(0, address(b) % AlignedBuffers.PAGE, "allocate(" + size + ") at " + address(b));
            assertEquals(size, b.limit());
            assertEquals(0, b.position());
        }
        try (Arena arena = Arena.ofConfined()) {
            for (long size : new long[] {1, 4096, 12_345}) {
                MemorySegment s = AlignedBuffers.allocate(arena, size);
                assertEquals(0, s.address() % AlignedBuffers.PAGE);
                assertEquals(size, s.byteSize());
            }
        }
    }

    @Test
    void bufferPoolHandsOutAlignedClearedBuffersAndKeepsAFew() {
        AlignedBuffers pool = new AlignedBuffers(64 * 1024, 4);
        assertEquals(64 * 1024, pool.bufferSize());
        ByteBuffer b = pool.acquire();
        assertEquals(0, address(b) % AlignedBuffers.PAGE);
        assertEquals(64 * 1024, b.capacity());
        b.position(100).limit(200);
        pool.release(b);
        ByteBuffer again = pool.acquire();
        assertSame(b, again, "a released buffer is reused");
        assertEquals(0, again.position(), "and comes back cleared");
        assertEquals(again.capacity(), again.limit());

        List<ByteBuffer> taken = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ByteBuffer t = pool.acquire(); // more than the pool keeps: fresh ones
            assertEquals(0, address(t) % AlignedBuffers.PAGE);
            assertEquals(64 * 1024, t.capacity());
            taken.forEach(x -> assertNotSame(x, t));
            taken.add(t);
        }
        taken.forEach(pool::release); // only 4 are kept
        Map<ByteBuffer, Boolean> kept = new IdentityHashMap<>();
        int reused = 0;
        for (int i = 0; i < 10; i++) {
            ByteBuffer t = pool.acquire();
            if (taken.stream().anyMatch(x -> x == t)) {
                reused++;
            }
            assertFalse(kept.containsKey(t), "a buffer handed out twice");
            kept.put(t, true);
        }
        assertEquals(4, reused);
    }

    @Test
    void theEnginesOwnBounceBuffersAreAligned() throws ReflectiveOperationException {
        Field f = ChannelFile.class.getDeclaredField("BOUNCE");
        f.setAccessible(true);
        AlignedBuffers bounce = (AlignedBuffers) f.get(null);
        List<ByteBuffer> taken = new ArrayList<>();
        for (int i = 0; i < 3 * Runtime.getRuntime().availableProcessors() + 5; i++) {
            ByteBuffer b = bounce.acquire();
            assertEquals(0, address(b) % AlignedBuffers.PAGE);
            assertEquals(bounce.bufferSize(), b.remaining());
            taken.add(b);
        }
        taken.forEach(bounce::release);
    }

    @Test
    void heapReadsFromManyThreadsThroughTheBouncePool() throws Exception {
        long size = 6 * MiB + 11;
        Path p = patternFile("f", size);
        Dst[] heap = {Dst.ARRAY_SLICE, Dst.HEAP_BUFFER, Dst.HEAP_SEGMENT, Dst.LONG_SEGMENT};
        try (PositionalFile f = open(p)) {
            // more threads than pooled buffers, and requests of more than one bounce buffer
            Workers.run(16, JOIN, w -> {
                SplittableRandom rnd = new SplittableRandom(100 + w);
                byte[] into = new byte[600 * 1024];
                for (int i = 0; i < 120; i++) {
                    int len = 1 + rnd.nextInt(i % 4 == 0 ? into.length : 8192);
                    long pos = rnd.nextLong(size - len);
                    assertEquals(len, heap[(w + i) % heap.length].read(f, pos, into, len, false));
                    assertPattern(into, len, pos);
                }
            });
        }
    }

    @Test
    void anInterruptedCallerGetsClosedByInterruptAndTheFileStaysOpen() throws IOException {
        Path p = patternFile("f", 100_000);
        try (PositionalFile f = open(p, WRITE)) {
            List<Executable> calls = List.of(
                    () -> f.read(ByteBuffer.allocateDirect(100), 0),
                    () -> f.read(new byte[100], 0),
                    () -> f.read(MemorySegment.ofArray(new byte[100]), 0),
                    () -> f.write(ByteBuffer.allocateDirect(10), 200_000),
                    () -> f.write(new byte[10], 0, 10, 200_000),
                    f::size,
                    () -> f.force(true),
                    () -> f.truncate(50_000));
            for (int i = 0; i < calls.size(); i++) {
                Thread.currentThread().interrupt();
                try {
                    assertThrows(ClosedByInterruptException.class, calls.get(i), "call #" + i);
                    assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status is kept");
                } finally {
                    Thread.interrupted();
                }
                assertTrue(f.isOpen());
                assertPattern(Dst.DIRECT_BUFFER.readFully(f, 1234, 5000), 5000, 1234);
                assertEquals(100_000, f.size(), "nothing was written or truncated");
            }
        }
    }

    @Test
    void anAlreadyInterruptedCallerDoesNotCloseTheChannelForOthers() throws Exception {
        Path p = patternFile("f", 10_000);
        try (PositionalFile f = open(p)) {
            Field rc = ChannelFile.class.getDeclaredField("channel");
            rc.setAccessible(true);
            Object reopening = rc.get(f);
            Field ch = ReopeningChannel.class.getDeclaredField("channel");
            ch.setAccessible(true);
            Object before = ch.get(reopening);
            for (int i = 0; i < 20; i++) {
                Thread.currentThread().interrupt();
                try {
                    assertThrows(ClosedByInterruptException.class, () -> f.read(ByteBuffer.allocateDirect(10), 0));
                } finally {
                    Thread.interrupted();
                }
            }
            assertSame(before, ch.get(reopening), "the refused calls must not have closed and reopened the channel");
            assertTrue(((java.nio.channels.FileChannel) before).isOpen());
        }
    }

    @Test
    void aCallerInterruptedJustAfterAnotherInterruptClosedTheChannelGetsClosedByInterrupt() throws Exception {
        Path p = patternFile("f", 10_000);
        try (PositionalFile f = open(p)) {
            Field rc = ChannelFile.class.getDeclaredField("channel");
            rc.setAccessible(true);
            ReopeningChannel reopening = (ReopeningChannel) rc.get(f);
            FileChannel taken = reopening.get();
            // Another thread's interrupt during a call closes the shared channel, as the JDK does for everyone.
            Thread other = Thread.ofPlatform().start(() -> {
                Thread.currentThread().interrupt();
                assertThrows(ClosedByInterruptException.class, () -> taken.read(ByteBuffer.allocate(1), 0));
            });
            other.join();
            assertFalse(taken.isOpen());
            // This thread took the channel before that and is interrupted before its own call starts: the JDK sees
            // only a closed channel and says so, though the file is open for everyone else.
            Thread.currentThread().interrupt();
            try {
                ClosedChannelException plain = assertThrows(ClosedChannelException.class,
                        () -> taken.read(ByteBuffer.allocateDirect(10), 0));
                assertFalse(plain instanceof ClosedByInterruptException, "what the JDK says here");
                ClosedByInterruptException e = assertThrows(ClosedByInterruptException.class,
                        () -> reopening.recover(taken, plain));
                assertSame(plain, e.getCause(), "the JDK's own exception is kept as the cause");
                assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status is kept");
            } finally {
                Thread.interrupted();
            }
            assertTrue(f.isOpen());
            assertPattern(Dst.DIRECT_BUFFER.readFully(f, 100, 1000), 1000, 100);
        }
    }

    @Test
    void aClosedByInterruptForAnInterruptAlreadyTakenIsRetriedNotThrown() throws Exception {
        Path p = patternFile("f", 10_000);
        try (PositionalFile f = open(p)) {
            Field rc = ChannelFile.class.getDeclaredField("channel");
            rc.setAccessible(true);
            ReopeningChannel reopening = (ReopeningChannel) rc.get(f);
            FileChannel taken = reopening.get();
            // What the JDK leaves when Thread.interrupt sets the status, the caller clears it and begins a call, and
            // only then does the interrupt close the channel of that call: ClosedByInterruptException, status clear.
            Thread.currentThread().interrupt();
            ClosedByInterruptException stale;
            try {
                stale = assertThrows(ClosedByInterruptException.class,
                        () -> taken.read(ByteBuffer.allocateDirect(10), 0));
            } finally {
                Thread.interrupted();
            }
            assertFalse(taken.isOpen());
            reopening.recover(taken, stale);
            assertFalse(Thread.currentThread().isInterrupted());
            FileChannel fresh = reopening.get();
            assertNotSame(taken, fresh, "reopened for the retry");
            assertPattern(Dst.DIRECT_BUFFER.readFully(f, 100, 1000), 1000, 100);
        }
    }
}
