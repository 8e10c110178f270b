package io.sluice;

import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sluice.internal.uring.Uapi;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Requests that do not complete on their own: what closing the file and interrupting the waiting thread do to them,
 * and what a thread whose interrupt status is set costs while it waits.
 *
 * <p>The never-completing request is real: a read of a FIFO that has a writer and no bytes. io_uring arms a poll for
 * it and completes it only when bytes arrive, which is what a read blocked on a slow device or a pipe looks like to the
 * engine. The tests open the FIFO with {@link UringFile#open(Path, OpenSpec, UringPool)} directly, on rings of their
 * own, so that whatever {@code PositionalFile.open} accepts, the engine's own handling is what is tested; opening it
 * for writing too means a writer exists from the start, so opening never waits. Every test ends by writing bytes into the FIFO ({@link Fifo#close}), which completes any read
 * still waiting: a test that fails because a call did not return fails on its deadline instead of hanging the build.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class UringCancelTest {
    /** How long a call that should return promptly is given before the test fails. */
    private static final long DEADLINE_SECONDS = 20;

    @TempDir
    Path dir;

    @BeforeAll
    static void available() {
        assertTrue(Engine.IO_URING.isAvailable(), () -> "" + Engine.IO_URING.unavailabilityCause());
    }

    /** What a call on another thread ended with, and whether that thread's interrupt status was set afterwards. */
    private record Outcome(Object value, Throwable thrown, boolean interruptedAfter) {
    }

    /** A call made on a thread of its own, platform or virtual, whose end is awaited with a deadline. */
    private static final class Call {
        final Thread thread;
        final CompletableFuture<Outcome> outcome = new CompletableFuture<>();

        Call(boolean virtual, Callable<?> body) {
            Runnable r = () -> {
                Object value = null;
                Throwable thrown = null;
                try {
                    value = body.call();
                } catch (Throwable t) {
                    thrown = t;
                }
                outcome.complete(new Outcome(value, thrown, Thread.currentThread().isInterrupted()));
            };
            thread = virtual ? Thread.ofVirtual().unstarted(r) : Thread.ofPlatform().daemon().unstarted(r);
            thread.start();
        }

        Outcome await(String what) throws InterruptedException, ExecutionException {
            try {
                return outcome.get(DEADLINE_SECONDS, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                return fail(what + " had not returned after " + DEADLINE_SECONDS + " s");
            }
        }
    }

    /** Waits until {@code pool}'s rings hold at least {@code n} requests in flight. */
    private static void awaitPending(UringPool pool, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
        while (pending(pool) < n) {
            assertTrue(System.nanoTime() - deadline < 0, "the request never reached the ring");
            Thread.sleep(2);
        }
    }

    private static int pending(UringPool pool) {
        int n = 0;
        for (UringLane l : pool.lanes) {
            n += l.pending();
        }
        return n;
    }

    /** Nothing in flight and every request slot free again. */
    private static void assertQuiet(UringPool pool) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
        for (UringLane l : pool.lanes) {
            while (l.pending() != 0 || l.freeSlots() != l.slots()) {
                assertTrue(System.nanoTime() - deadline < 0, "requests still held: " + l.pending() + " pending, "
                        + (l.slots() - l.freeSlots()) + " slots taken");
                Thread.sleep(2);
            }
        }
    }

    /**
     * Closes rings of a test's own once no thread holds a request slot. A thread still inside a lane (a wait that did
     * not end when it should have, and was ended by the FIFO's bytes after the test failed) must be out of it before
     * the rings are unmapped; if one never leaves, the rings are left open rather than unmapped under it.
     */
    private static void closeWhenQuiet(UringPool own) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
        for (UringLane l : own.lanes) {
            while (l.pending() != 0 || l.freeSlots() != l.slots()) {
                if (System.nanoTime() - deadline > 0) {
                    return;
                }
                Thread.sleep(2);
            }
        }
        own.close();
    }

    /** The ways a blocking read reaches the ring. */
    enum Kind { NATIVE, HEAP, VECTOR, BATCH }

    static Stream<Arguments> kindsAndThreads() {
        List<Arguments> all = new ArrayList<>();
        for (Kind k : Kind.values()) {
            all.add(Arguments.of(k, false));
            all.add(Arguments.of(k, true));
        }
        return all.stream();
    }

    /** A read of 64 bytes at 0 of {@code kind}: the bytes read, or what the call or its batch request threw. */
    private static long read(Kind kind, PositionalFile f) throws IOException {
        return switch (kind) {
            case NATIVE -> f.read(ByteBuffer.allocateDirect(64), 0);
            case HEAP -> f.read(new byte[64], 0); // through a registered bounce chunk
            case VECTOR -> f.read(0, ByteBuffer.allocateDirect(32), ByteBuffer.allocateDirect(32)); // one READV
            case BATCH -> {
                IoBatch b = IoBatch.create(1);
                b.read(f, Arena.ofAuto().allocate(64), 0);
                b.submit();
                if (b.error(0) != null) {
                    throw b.error(0);
                }
                yield b.result(0);
            }
        };
    }

    // ---------------------------------------------------------------- close

    @ParameterizedTest(name = "{0}, virtual thread: {1}")
    @MethodSource("kindsAndThreads")
    void closeCancelsAReadThatWouldNeverCompleteAndTheReaderGetsAsynchronousClose(Kind kind, boolean virtual)
            throws Exception {
        UringPool own = new UringPool(1, 8, 2);
        try (Fifo fifo = new Fifo(dir)) {
            UringFile f = UringFile.open(fifo.path, OpenSpec.parse(WRITE), own);
            Call reader = new Call(virtual, () -> read(kind, f));
            awaitPending(own, 1);
            Outcome closed = new Call(false, () -> {
                f.close();
                return "closed";
            }).await("close, with a read in flight that only cancellation ends,");
            assertNull(closed.thrown());
            Outcome read = reader.await("the read of a file closed under it");
            assertInstanceOf(AsynchronousCloseException.class, read.thrown(), () -> "got " + read);
            assertFalse(read.thrown() instanceof ClosedByInterruptException, "nobody interrupted the reader");
            assertFalse(read.interruptedAfter());
            assertQuiet(own);
            assertThrows(ClosedChannelException.class, () -> read(Kind.NATIVE, f));
        } finally {
            closeWhenQuiet(own);
        }
    }

    @Test
    void closeCancelsAsynchronousReadsAndTheirFuturesFailWithAsynchronousClose() throws Exception {
        UringPool own = new UringPool(1, 8, 2);
        try (Arena arena = Arena.ofShared(); Fifo fifo = new Fifo(dir)) {
            UringFile f = UringFile.open(fifo.path, OpenSpec.parse(WRITE), own);
            MemorySegment nativeDst = arena.allocate(64);
            CompletableFuture<Integer> direct = f.readAsync(nativeDst, 0);
            CompletableFuture<Integer> bounced = f.readAsync(MemorySegment.ofArray(new byte[64]), 0);
            awaitPending(own, 2);
            assertNull(new Call(false, () -> {
                f.close();
                return null;
            }).await("close, with asynchronous reads in flight,").thrown());
            // Both held the file open, so both requests ended before close returned. Their futures complete just after
            // (the lane frees the file first, so that a dependent action may call it): done within moments, not at once.
            for (CompletableFuture<Integer> r : List.of(direct, bounced)) {
                ExecutionException e = assertThrows(ExecutionException.class, () -> r.get(10, TimeUnit.SECONDS));
                assertTrue(r.isDone());
                assertInstanceOf(AsynchronousCloseException.class, e.getCause());
            }
            assertQuiet(own);
        } finally {
            closeWhenQuiet(own);
        }
    }

    /**
     * A completion callback runs on the lane's reaper; one that closes the file while another request of it is in
     * flight must not wait for the reaper (itself) to deliver that request's cancellation.
     */
    @Test
    void aCompletionCallbackMayCloseTheFileWhileAnotherRequestIsInFlight() throws Exception {
        UringPool own = new UringPool(1, 8, 2);
        try (Arena arena = Arena.ofShared(); Fifo fifo = new Fifo(dir)) {
            UringFile f = UringFile.open(fifo.path, OpenSpec.parse(WRITE), own);
            CompletableFuture<Integer> a = f.readAsync(arena.allocate(1), 0);
            CompletableFuture<Integer> b = f.readAsync(arena.allocate(1), 0);
            awaitPending(own, 2);
            // One byte: one read completes, and its callback closes the file while the other still waits for bytes.
            CompletableFuture<Object> closedByCallback = CompletableFuture.anyOf(a, b).handle((n, t) -> {
                try {
                    f.close();
                    return "closed";
                } catch (IOException e) {
                    return e;
                }
            });
            fifo.feed("1");
            assertEquals("closed", closedByCallback.get(DEADLINE_SECONDS, TimeUnit.SECONDS));
            CompletableFuture<Integer> other = a.isCompletedExceptionally() ? a : b;
            CompletableFuture<Integer> done = other == a ? b : a;
            assertEquals(1, done.get());
            ExecutionException e = assertThrows(ExecutionException.class, other::get);
            assertInstanceOf(AsynchronousCloseException.class, e.getCause());
            assertQuiet(own);
        } finally {
            closeWhenQuiet(own);
        }
    }

    @Test
    void aCloseThatCannotEndACallReturnsAfterItsBoundAndTheDescriptorIsClosedWhenTheCallEnds() throws Exception {
        Path p = Pattern.file(dir.resolve("f"), 8192);
        UringPool own = new UringPool(1, 8, 2);
        try {
            UringFile f = UringFile.open(p, OpenSpec.parse(), own);
            f.closeWait(TimeUnit.MILLISECONDS.toNanos(300));
            // A call that ignores cancellation, as a request the kernel can no longer stop would: one use of the file
            // begun and not ended. No real request stays deaf to IORING_OP_ASYNC_CANCEL for long on this machine, so
            // this takes the place of one.
            f.beginUse(false);
            Path fdLink = Path.of("/proc/self/fd/" + f.fd());
            Outcome closed = new Call(false, () -> {
                f.close();
                return null;
            }).await("close, with a call that does not end,");
            IOException e = assertInstanceOf(IOException.class, closed.thrown());
            assertTrue(e.getMessage().contains(p.toString()) && e.getMessage().contains("1 call still in progress"),
                    e.getMessage());
            assertFalse(f.isOpen(), "closed for every new call");
            assertThrows(ClosedChannelException.class, () -> read(Kind.NATIVE, f));
            assertEquals(p.toRealPath(), Files.readSymbolicLink(fdLink),
                    "the descriptor stays open while a call may still name it");
            f.endUse();
            assertFalse(Files.exists(fdLink, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                            && p.toRealPath().equals(Files.readSymbolicLink(fdLink)),
                    "closed by the call that ended last");
            f.close(); // closing again does nothing
        } finally {
            closeWhenQuiet(own);
        }
    }

    // ---------------------------------------------------------------- interrupts

    @ParameterizedTest(name = "{0}, virtual thread: {1}")
    @MethodSource("kindsAndThreads")
    void anInterruptedReaderGetsClosedByInterruptAndTheFileStaysUsable(Kind kind, boolean virtual) throws Exception {
        UringPool own = new UringPool(1, 8, 2);
        try (Fifo fifo = new Fifo(dir)) {
            UringFile f = UringFile.open(fifo.path, OpenSpec.parse(WRITE), own);
            Call reader = new Call(virtual, () -> read(kind, f));
            awaitPending(own, 1);
            reader.thread.interrupt();
            Outcome read = reader.await("the interrupted read");
            assertInstanceOf(ClosedByInterruptException.class, read.thrown(), () -> "got " + read);
            assertTrue(read.interruptedAfter(), "the interrupt status is kept");
            // The request was cancelled and waited for: its slot and bounce chunk are free, nothing is in flight.
            assertQuiet(own);
            assertTrue(f.isOpen(), "an interrupt closes nothing for other threads");
            fifo.feed("hello");
            byte[] b = new byte[5];
            assertEquals(5, f.read(b, 0));
            assertArrayEquals("hello".getBytes(StandardCharsets.US_ASCII), b);
            f.close();
        } finally {
            closeWhenQuiet(own);
        }
    }

    /**
     * The same on a ring whose kernel thread takes the entries (SQPOLL): cancellations queue behind the request they
     * cancel and reach the kernel without a system call of ours, and waiters watch the queue before parking.
     */
    @Test
    void onAnSqpollRingInterruptAndCloseCancelToo() throws Exception {
        UringPool sq = new UringPool(1, 8, 2, Uapi.IORING_SETUP_SQPOLL, "test-sqpoll-");
        try (Fifo fifo = new Fifo(dir)) {
            UringFile f = UringFile.open(fifo.path, OpenSpec.parse(WRITE), sq);
            Call interrupted = new Call(true, () -> read(Kind.HEAP, f));
            awaitPending(sq, 1);
            interrupted.thread.interrupt();
            Outcome o = interrupted.await("the interrupted read on an SQPOLL ring");
            assertInstanceOf(ClosedByInterruptException.class, o.thrown(), () -> "got " + o);
            assertTrue(o.interruptedAfter());
            Call reader = new Call(false, () -> read(Kind.VECTOR, f));
            awaitPending(sq, 1);
            assertNull(new Call(false, () -> {
                f.close();
                return null;
            }).await("close on an SQPOLL ring").thrown());
            assertInstanceOf(AsynchronousCloseException.class, reader.await("the read closed under it").thrown());
            assertQuiet(sq);
        } finally {
            closeWhenQuiet(sq);
        }
    }

    @Test
    void aThreadInterruptedBeforeItsCallGetsClosedByInterruptAtOnceAsFromChannel() throws Exception {
        Path p = Pattern.file(dir.resolve("f"), 1 << 20);
        int block = (int) Files.getFileStore(p).getBlockSize();
        for (boolean direct : new boolean[] {false, true}) {
            try (Arena arena = Arena.ofConfined();
                 PositionalFile f = direct ? PositionalFile.open(p, Engine.IO_URING, SluiceOption.DIRECT)
                         : PositionalFile.open(p, Engine.IO_URING)) {
                MemorySegment buf = arena.allocate(block, 4096);
                Thread.currentThread().interrupt();
                try {
                    // Every waiting call, as FileChannel does when the status is set before the call: nothing reaches
                    // the ring, so there is nothing to wait for with the status set (where a park would not park).
                    for (int i = 0; i < 1000; i++) {
                        assertThrows(ClosedByInterruptException.class, () -> f.read(buf, 0));
                    }
                    assertThrows(ClosedByInterruptException.class, () -> f.read(new byte[block], 0));
                    assertThrows(ClosedByInterruptException.class,
                            () -> f.read(0, buf, arena.allocate(block, 4096)));
                    assertThrows(ClosedByInterruptException.class, () -> f.force(false));
                    assertThrows(ClosedByInterruptException.class, f::size);
                    IoBatch batch = IoBatch.create(2);
                    batch.read(f, buf, 0);
                    batch.read(f, MemorySegment.ofArray(new byte[block]), 0);
                    assertEquals(2, batch.submit());
                    assertInstanceOf(ClosedByInterruptException.class, batch.error(0));
                    assertInstanceOf(ClosedByInterruptException.class, batch.error(1));
                    // An asynchronous call does not wait, so an interrupt has nothing to stop.
                    assertEquals(block, f.readAsync(buf, 0).join());
                    assertTrue(Thread.currentThread().isInterrupted(), "the status is kept");
                } finally {
                    Thread.interrupted();
                }
                assertEquals(block, f.read(buf, block), "usable once the status is cleared");
                PositionalFileContract.assertPattern(buf.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), block,
                        block);
            }
        }
    }

    /**
     * A thread with its interrupt status set that really has to wait, here in {@link PathReads}, which finishes every
     * request it submitted, must park: {@code LockSupport.park} returns at once while the status is set, so a park
     * loop would burn a core until the request completes. The FIFO read completes only when the test feeds it, so the
     * thread waits for as long as the test measures it. A parked thread uses next to nothing (the bound leaves room for
     * the last steps into the park after the request was counted); a spinning one used 200 to 550 ms of the 1.5 s here,
     * on two cores shared with other work.
     */
    @Test
    void aThreadWithItsInterruptStatusSetWaitsWithoutSpinning() throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        assumeTrue(mx.isCurrentThreadCpuTimeSupported() && mx.isThreadCpuTimeEnabled(), "no thread CPU time here");
        UringPool pool = UringPool.get(); // PathReads uses the JVM's rings
        try (Fifo fifo = new Fifo(dir)) {
            int before = pending(pool);
            // The public PathReads refuses a FIFO before opening it; this one lets its read wait for the test.
            PathReads reads = PathReads.createWithoutKindCheck(1);
            ByteBuffer dst = ByteBuffer.allocateDirect(64);
            reads.read(fifo.path, 0, dst);
            Call waiter = new Call(false, () -> {
                Thread.currentThread().interrupt();
                return reads.submit();
            });
            awaitPending(pool, before + 2); // the READ and the CLOSE linked after it (the OPENAT completes at once)
            long cpu0 = mx.getThreadCpuTime(waiter.thread.threadId());
            Thread.sleep(1500);
            long cpu1 = mx.getThreadCpuTime(waiter.thread.threadId());
            assertTrue(waiter.thread.isAlive(), "only the FIFO's bytes end this wait");
            long usedMs = TimeUnit.NANOSECONDS.toMillis(cpu1 - cpu0);
            assertTrue(usedMs < 60, "a waiting thread used " + usedMs + " ms of CPU in 1.5 s");
            fifo.feed("abc");
            Outcome o = waiter.await("PathReads.submit");
            assertNull(o.thrown());
            assertEquals(0, o.value(), () -> "failed: " + reads.error(0));
            assertEquals(PathReads.Method.IO_URING_DIRECT, reads.method());
            assertEquals(3, reads.result(0));
            assertTrue(o.interruptedAfter(), "the interrupt status is kept");
        }
    }
}
