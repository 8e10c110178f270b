package io.sluice;

import io.sluice.internal.Errno;
import io.sluice.internal.Native;
import io.sluice.internal.uring.Ring;
import io.sluice.internal.uring.Uapi;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One io_uring ring shared by many threads: submitters take a short lock to fill and publish entries; whoever finds
 * completions ready drains them (one thread at a time) and hands each to its waiter.
 *
 * <p>Why this shape: a page-cache read submitted through io_uring usually completes during the submitting system call,
 * so the submitter finds its own completion at once and returns, one system call per read like {@code pread}. When a
 * request does not complete at once (O_DIRECT, a cold page), the caller parks and this lane's reaper thread, a
 * platform thread, waits in the kernel and wakes it. Virtual threads therefore never block in {@code io_uring_enter}:
 * they park and free their carrier. Asynchronous requests complete their futures on the reaper (or draining) thread.
 *
 * <p>Back-pressure: in-flight requests are bounded by the number of request slots, which is at most the submission
 * queue size and half the completion queue size, so requests alone never overflow the completion queue; a caller
 * finding no free slot waits for one rather than failing.
 *
 * <p>Cancellation: an interrupted waiter may ask the kernel to cancel its request ({@link #await(int, boolean)}), and
 * closing a file cancels its requests ({@link #cancelFile}). Either way the request's slot stays taken until the
 * request's completion has been collected, so memory the kernel may still write (the caller's, the slot's iovec
 * array, a bounce chunk) is never handed back early. Cancellation entries take no slot; there is at most one per slot
 * per round of asking, and the kernel keeps completions that find the queue full (IORING_FEAT_NODROP, required).
 *
 * <p>Interrupts: no wait here spins while the thread's interrupt status is set ({@code LockSupport.park} returns at
 * once then); the status is taken off for the wait and put back before returning.
 */
final class UringLane implements AutoCloseable {
    /** Bytes per registered bounce chunk, used when the caller's memory is on the Java heap. */
    static final int CHUNK = 64 * 1024;

    /** One request slot, reused: no allocation per request on the blocking path. */
    static final class Op {
        volatile boolean done;
        int res;
        volatile Thread waiter;
        /**
         * The file whose request this is, from its submission until the slot is freed; null for requests that belong
         * to no open file (opens, closes, PathReads chains). Written and cleared under the submit lock, where
         * {@link #cancelFile} reads it. Asynchronous requests end their use of the file through it too.
         */
        UringFile file;
        /** Set for asynchronous requests only, with the fields below; completed after the drain. */
        CompletableFuture<Integer> future;
        byte opcode;
        long position;
        int length;
        /** Memory the kernel writes or reads, kept reachable until the completion. */
        Object keepAlive;
        /** Bounce chunk held by an asynchronous request, or -1; {@link #copyTo} receives a read's bytes. */
        int chunk = -1;
        MemorySegment copyTo;
        /** This slot's iovec array for READV/WRITEV, grown on demand and then reused; see {@link #iovec}. */
        MemorySegment iov;
    }

    /**
     * The iovec array of {@code op}'s slot with room for {@code count} entries. It belongs to the slot, so it stays
     * valid while the request is in flight (the kernel may read it late, from an SQPOLL thread or a worker) and is
     * allocated only when a slot first meets a longer vector. Called by the thread holding the slot (see
     * {@link #reserve}), before the request is published.
     */
    static MemorySegment iovec(Op op, int count) {
        long need = Uapi.IOVEC_SIZE * count;
        if (op.iov == null || op.iov.byteSize() < need) {
            long size = Math.max(Uapi.IOVEC_SIZE * 8, Long.highestOneBit(need - 1) << 1);
            op.iov = Arena.ofAuto().allocate(size, 8);
        }
        return op.iov;
    }

    final Ring ring;
    private final ReentrantLock sqLock = new ReentrantLock();
    /** errno capture for submissions: used only under {@link #sqLock}. */
    private final MemorySegment submitState = Native.newCallState();
    private final Op[] ops;
    /** Free slot indexes, guarded by {@link #sqLock}. */
    private final int[] freeSlots;
    private int freeTop;
    /** Registered bounce memory: chunk i is at {@code CHUNK * i}; registered as buffer index 0. */
    private final MemorySegment slab;
    private final int[] freeChunks;
    private int freeChunkTop;
    private final AtomicBoolean draining = new AtomicBoolean();
    /** The drain callback, made once rather than per drain. */
    private final Ring.Completions sink = this::complete;
    /** Requests submitted whose completions have not been drained yet. */
    private final AtomicInteger pending = new AtomicInteger();
    private final Thread reaper;
    /** errno capture for the reaper thread's kernel waits. */
    private final MemorySegment reaperState = Native.newCallState();
    private volatile boolean reaperIdle;
    private volatile boolean closed;
    /** A kernel thread submits for this ring (IORING_SETUP_SQPOLL). */
    private final boolean sqPoll;
    /** With SQPOLL, how long a waiter watches the completion queue before parking: about one device round trip. */
    private static final long SQPOLL_SPIN_NANOS = 50_000;
    /**
     * user_data of this lane's IORING_OP_ASYNC_CANCEL entries and of the NOP that wakes the reaper at close, which hold
     * no slot (request slots are 0 and up): their completions are only counted.
     */
    private static final long CANCEL = -1L;

    UringLane(int entries, int chunks, String name) throws IOException {
        this(entries, chunks, name, 0);
    }

    /** @param setupFlags IORING_SETUP_SQPOLL and/or IORING_SETUP_IOPOLL, or 0 */
    UringLane(int entries, int chunks, String name, int setupFlags) throws IOException {
        this.ring = Ring.create(entries, setupFlags);
        this.sqPoll = (ring.flags() & Uapi.IORING_SETUP_SQPOLL) != 0;
        boolean success = false;
        try {
            int slots = Math.min(ring.sqEntries(), ring.cqEntries() / 2);
            ops = new Op[slots];
            freeSlots = new int[slots];
            for (int i = 0; i < slots; i++) {
                ops[i] = new Op();
                freeSlots[freeTop++] = slots - 1 - i;
            }
            asyncDone = new int[slots];
            slab = Arena.ofAuto().allocate((long) CHUNK * chunks, 4096);
            freeChunks = new int[chunks];
            for (int i = 0; i < chunks; i++) {
                freeChunks[freeChunkTop++] = chunks - 1 - i;
            }
            ring.registerBuffers(slab);
            reaper = Thread.ofPlatform().daemon().name(name).unstarted(this::reap);
            reaper.start();
            success = true;
        } finally {
            if (!success) {
                ring.close();
            }
        }
    }

    int slots() {
        return ops.length;
    }

    /** Request slots not in use (for tests: every slot is free again once the lane is quiet). */
    int freeSlots() {
        sqLock.lock();
        try {
            return freeTop;
        } finally {
            sqLock.unlock();
        }
    }

    // ---------------------------------------------------------------- submitting

    /** Request description for {@link #submit}: kept in one reusable place per call site, not allocated. */
    interface Prep {
        /** Fills entry {@code sqe} of {@code ring} for request {@code i}, with user data {@code slot}. */
        void prep(Ring ring, long sqe, int i, int slot, Op op);
    }

    /**
     * Submits up to {@code n} requests prepared by {@code prep} in one system call, as many as there are free slots
     * and submission entries now, without waiting; their slots go to {@code slotsOut[from...]}.
     *
     * @return how many were submitted, possibly 0 (then await one of your own, or {@link #backOff()})
     */
    int trySubmit(int n, Prep prep, int[] slotsOut, int from) throws IOException {
        return trySubmit(n, 1, prep, slotsOut, from, null);
    }

    /**
     * As {@link #trySubmit(int, Prep, int[], int)}, but claims entries only in whole groups of {@code group}, so a
     * linked chain of that length is never split between two system calls (the kernel would run a chain cut short).
     */
    int trySubmit(int n, int group, Prep prep, int[] slotsOut, int from) throws IOException {
        return trySubmit(n, group, prep, slotsOut, from, null);
    }

    /**
     * As {@link #trySubmit(int, int, Prep, int[], int)}, for requests of {@code file} (or of no file, null): they are
     * refused with {@link AsynchronousCloseException} once the file is closed, and found by {@link #cancelFile}.
     */
    int trySubmit(int n, int group, Prep prep, int[] slotsOut, int from, UringFile file) throws IOException {
        sqLock.lock();
        try {
            checkOpen(file);
            int take = Math.min(n, Math.min(freeTop, ring.sqSpace()));
            take -= take % group;
            int claimed = 0;
            while (claimed < take) {
                long sqe = ring.nextSqe();
                if (sqe < 0) {
                    break;
                }
                int slot = freeSlots[--freeTop];
                Op op = ops[slot];
                op.done = false;
                op.waiter = null;
                op.file = file;
                prep.prep(ring, sqe, from + claimed, slot, op);
                slotsOut[from + claimed] = slot;
                claimed++;
            }
            if (claimed > 0) {
                pending.addAndGet(claimed);
                enterSubmit();
            }
            return claimed;
        } finally {
            sqLock.unlock();
        }
    }

    /** Waits a little for other threads' requests to free slots. */
    void backOff() {
        IoCounters.uringSlotWait();
        drainIfFree();
        wakeReaper();
        pause(20_000);
    }

    /** Parks for about {@code nanos}, really: with the interrupt status set parkNanos would return at once. */
    private void pause(long nanos) {
        boolean interrupted = Thread.interrupted();
        LockSupport.parkNanos(this, nanos);
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Under {@link #sqLock}: refuses a request when the lane is closed, or when {@code file} is. The check is under the
     * lock because {@link #cancelFile} scans under it: a request submitted before the scan is found by it, one
     * submitted after it sees the file closed (a file is marked closed before it is scanned for).
     */
    private void checkOpen(UringFile file) throws IOException {
        if (closed) {
            throw new IOException("io_uring lane is closed");
        }
        if (file != null && !file.isOpen()) {
            // The caller holds a use of the file, taken while it was open: it was closed under the call.
            throw new AsynchronousCloseException();
        }
    }

    /**
     * While a blocking call of {@code file} waits for a free slot, an interrupt ends it: nothing was submitted, so
     * there is nothing to cancel.
     */
    private static void checkInterrupt(UringFile file) throws ClosedByInterruptException {
        if (file != null && Thread.currentThread().isInterrupted()) {
            throw new ClosedByInterruptException();
        }
    }

    /**
     * Submits one request and returns its slot. For an asynchronous request {@code future} and the fields after it
     * are set before the entry is published, since its completion may be drained by another thread at once.
     * {@code file} is the file the request belongs to, or null (see {@link #trySubmit(int, int, Prep, int[], int,
     * UringFile)}); a blocking request of a file also gives up waiting for a slot when the thread is interrupted.
     */
    int submitOne(byte opcode, int fd, boolean fixedFile, long addr, int len, long offset, int opFlags, int bufIndex,
                  CompletableFuture<Integer> future, UringFile file, Object keepAlive, int chunk, MemorySegment copyTo)
            throws IOException {
        for (;;) {
            sqLock.lock();
            try {
                checkOpen(file);
                long sqe = freeTop > 0 ? ring.nextSqe() : -1;
                if (sqe >= 0) {
                    int slot = freeSlots[--freeTop];
                    Op op = ops[slot];
                    op.done = false;
                    op.waiter = null;
                    op.future = future;
                    op.file = file;
                    op.opcode = opcode;
                    op.position = offset;
                    op.length = len;
                    op.keepAlive = keepAlive;
                    op.chunk = chunk;
                    op.copyTo = copyTo;
                    ring.prep(sqe, opcode, fd, fixedFile, addr, len, offset, slot);
                    if (opFlags != 0) {
                        ring.opFlags(sqe, opFlags);
                    }
                    if (bufIndex >= 0) {
                        ring.bufIndex(sqe, bufIndex);
                    }
                    pending.incrementAndGet();
                    enterSubmit();
                    if (future != null) {
                        // Nobody waits on an asynchronous request: the reaper must be awake to complete it.
                        wakeReaper();
                    }
                    return slot;
                }
            } finally {
                sqLock.unlock();
            }
            if (future == null) {
                checkInterrupt(file);
            }
            // Back-pressure: every slot is in flight. Let completions drain, then try again.
            backOff();
        }
    }

    /**
     * Claims a free request slot without publishing an entry, waiting while every slot is in flight. The caller fills
     * what the slot owns (its {@link #iovec}) outside the lock, then publishes with {@link #submitReserved}, or gives
     * the slot back with {@link #free}. This is how a vectored call describes its request without a callback object.
     * As in {@link #submitOne}, the call ends if {@code file} is closed or the thread interrupted while it waits.
     */
    int reserve(UringFile file) throws IOException {
        for (;;) {
            sqLock.lock();
            try {
                checkOpen(file);
                if (freeTop > 0) {
                    int slot = freeSlots[--freeTop];
                    Op op = ops[slot];
                    op.done = false;
                    op.waiter = null;
                    return slot;
                }
            } finally {
                sqLock.unlock();
            }
            checkInterrupt(file);
            backOff();
        }
    }

    /** The slot object of {@code slot}, for a caller holding it from {@link #reserve}. */
    Op op(int slot) {
        return ops[slot];
    }

    /**
     * Publishes and submits the blocking request of a slot taken with {@link #reserve}. A free submission entry is
     * all but certain (every entry waiting in the queue holds a slot, and there are no more slots than entries), but
     * with SQPOLL the kernel may not have taken them yet: then wait and retry. If the lane or {@code file} is closed
     * meanwhile, the slot is given back and the call throws.
     */
    void submitReserved(int slot, UringFile file, byte opcode, int fd, boolean fixedFile, long addr, int len,
                        long offset) throws IOException {
        for (;;) {
            sqLock.lock();
            try {
                try {
                    checkOpen(file);
                } catch (IOException e) {
                    free(slot, ops[slot]);
                    throw e;
                }
                long sqe = ring.nextSqe();
                if (sqe >= 0) {
                    ops[slot].file = file;
                    ring.prep(sqe, opcode, fd, fixedFile, addr, len, offset, slot);
                    pending.incrementAndGet();
                    enterSubmit();
                    return;
                }
            } finally {
                sqLock.unlock();
            }
            backOff();
        }
    }

    /** Hands the published entries to the kernel, retrying while it is busy. Caller holds {@link #sqLock}. */
    private void enterSubmit() throws IOException {
        for (int spins = 0; ring.unsubmitted() > 0; spins++) {
            int rc = ring.submit(submitState, 0);
            if (rc >= 0 && sqPoll) {
                // The poller takes the entries when it gets to them; Ring.submit woke it if it slept. Waiting here
                // for the kernel's SQ head to move would only spin under the lock.
                return;
            }
            if (rc >= 0) {
                if (rc == 0) {
                    Thread.onSpinWait();
                }
                continue;
            }
            if (rc == -Errno.EINTR || rc == -Errno.EAGAIN || rc == -Errno.EBUSY) {
                // EAGAIN/EBUSY: the kernel is short of resources or of CQ room; reaping makes room.
                drainIfFree();
                Thread.onSpinWait();
                continue;
            }
            throw new IOException("io_uring_enter(submit " + ring.unsubmitted() + "): " + Errno.describe(rc));
        }
    }

    // ---------------------------------------------------------------- completing

    /** Waits for the request in {@code slot} and returns its result; the slot is freed. Interrupts do not end it. */
    int await(int slot) {
        return await(slot, false);
    }

    /**
     * Waits for the request in {@code slot} and returns its result; the slot is freed. The wait always lasts until the
     * completion has been collected, since until then the kernel may write the request's memory. With
     * {@code interruptible}, an interrupt of the waiting thread (or a status already set) asks the kernel to cancel the
     * request, which then usually completes at once with -ECANCELED; the caller learns of the interrupt from its
     * status, which is set when this returns, and may still get the request's result if it completed first.
     */
    int await(int slot, boolean interruptible) {
        Op op = ops[slot];
        if (!op.done) {
            drainIfFree();
        }
        if (!op.done && sqPoll) {
            // The kernel thread submits and completes without us: watch the completion queue for a moment rather
            // than pay for a park, an unpark and the reaper's wake-up for a request that is about to complete.
            long deadline = System.nanoTime() + SQPOLL_SPIN_NANOS;
            while (!op.done && System.nanoTime() - deadline < 0) {
                if (ring.cqReady() > 0) {
                    drainIfFree();
                } else {
                    Thread.onSpinWait();
                }
            }
        }
        if (!op.done && Thread.currentThread() == reaper) {
            // A dependent action of an async request, run by the reaper, made a blocking call: nobody else waits in
            // the kernel for this lane, so the reaper does it here.
            while (!op.done) {
                if (ring.cqReady() == 0) {
                    ring.await(reaperState, 1);
                }
                drainIfFree();
            }
        }
        if (!op.done) {
            op.waiter = Thread.currentThread();
            boolean interrupted = false;
            boolean cancelled = false;
            while (!op.done) {
                // park returns at once while the interrupt status is set: take it off for the wait, put it back after.
                if (Thread.interrupted()) {
                    interrupted = true;
                    if (interruptible && !cancelled) {
                        cancelled = true;
                        cancel(slot);
                        drainIfFree(); // a cancelled poll usually completes within the cancel's own system call
                        continue;
                    }
                }
                wakeReaper();
                // Parking (not a blocking system call) lets a virtual thread's carrier run other work meanwhile.
                LockSupport.park(this);
                if (!op.done) {
                    drainIfFree();
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        int res = op.res;
        free(slot, op);
        return res;
    }

    // ---------------------------------------------------------------- cancelling

    /** Fills {@code sqe} with a cancellation of the request in {@code slot}. Caller holds {@link #sqLock}. */
    private void prepCancel(long sqe, int slot) {
        ring.prep(sqe, Uapi.IORING_OP_ASYNC_CANCEL, -1, false, slot, 0, 0, CANCEL);
        pending.incrementAndGet();
    }

    /**
     * Posts a NOP whose completion wakes a reaper waiting in the kernel. The reaper enters {@code io_uring_enter} to
     * wait for one completion whenever requests are pending, and a waiter that drains first can take that completion
     * from under it; the reaper then sleeps in the kernel until the next one. In use the next request's completion
     * comes soon enough, but at close nothing else would ever come. Counted in {@code pending} like a cancellation,
     * so the reaper collects it before it leaves.
     */
    private void postWakeup() {
        sqLock.lock();
        try {
            long sqe = ring.nextSqe();
            if (sqe >= 0) {
                ring.prep(sqe, Uapi.IORING_OP_NOP, -1, false, 0, 0, 0, CANCEL);
                pending.incrementAndGet();
                enterSubmit();
            }
        } catch (IOException e) {
            // The entry stays queued for the next enter; close asks again on its next turn.
        } finally {
            sqLock.unlock();
        }
    }

    /**
     * Asks the kernel to cancel the request in {@code slot}, which the calling waiter holds, so its user_data names
     * that request and no other. The request then completes (cancelled, or with its result if it was done or past
     * stopping) and is collected as usual.
     */
    private void cancel(int slot) {
        for (;;) {
            sqLock.lock();
            try {
                long sqe = ring.nextSqe();
                if (sqe >= 0) {
                    prepCancel(sqe, slot);
                    enterSubmit();
                    return;
                }
            } catch (IOException e) {
                // The kernel refused the enter outright: the entry stays queued for the next one, and meanwhile the
                // request ends on its own, as it would have without the interrupt.
                return;
            } finally {
                sqLock.unlock();
            }
            pause(20_000); // SQPOLL: the kernel thread has not taken the queued entries yet
        }
    }

    /**
     * Asks the kernel to cancel every request of {@code file} in flight on this lane, one IORING_OP_ASYNC_CANCEL by
     * user_data each (every kernel since 5.5 has it, and it matches exactly this file's requests whichever way they
     * name it: registered slot or descriptor). Under the submit lock, so no slot found here can be freed and given to
     * another request before its cancellation is in the queue ahead of that request's entry.
     *
     * <p>An IOPOLL ring refuses cancellations (EINVAL, counted like any completion): its reads end when the device
     * answers.
     *
     * @return how many cancellations were queued; some may be missing when the queue was full (SQPOLL), so callers
     *         that wait ask again now and then
     */
    int cancelFile(UringFile file) {
        int asked = 0;
        sqLock.lock();
        try {
            for (int s = 0; s < ops.length; s++) {
                Op op = ops[s];
                if (op.file == file && !op.done) {
                    long sqe = ring.nextSqe();
                    if (sqe < 0) {
                        enterSubmit();
                        sqe = ring.nextSqe();
                        if (sqe < 0) {
                            break;
                        }
                    }
                    prepCancel(sqe, s);
                    asked++;
                }
            }
            if (asked > 0) {
                enterSubmit();
                wakeReaper();
            }
        } catch (IOException e) {
            // As in cancel(int): the entries stay queued, and the caller asks again while it waits.
        } finally {
            sqLock.unlock();
        }
        return asked;
    }

    /** Gives a slot back; its bounce chunk too. */
    void free(int slot, Op op) {
        op.keepAlive = null;
        op.future = null;
        op.copyTo = null;
        op.waiter = null;
        sqLock.lock();
        try {
            op.file = null;
            if (op.chunk >= 0) {
                freeChunks[freeChunkTop++] = op.chunk;
                op.chunk = -1;
            }
            freeSlots[freeTop++] = slot;
        } finally {
            sqLock.unlock();
        }
    }

    /** A free bounce chunk index, or -1. */
    int takeChunk() {
        sqLock.lock();
        try {
            return freeChunkTop > 0 ? freeChunks[--freeChunkTop] : -1;
        } finally {
            sqLock.unlock();
        }
    }

    void giveChunk(int chunk) {
        sqLock.lock();
        try {
            freeChunks[freeChunkTop++] = chunk;
        } finally {
            sqLock.unlock();
        }
    }

    /** The registered memory of bounce chunk {@code chunk}. */
    MemorySegment chunk(int chunk) {
        return slab.asSlice((long) CHUNK * chunk, CHUNK);
    }

    /**
     * Delivers the completions ready now, unless another thread is doing so: for a thread waiting for calls that do
     * not wait on this lane themselves (a closer), which may be this lane's reaper, busy running a completion callback.
     */
    void drainReady() {
        drainIfFree();
    }

    /** Drains ready completions unless another thread is doing so (it will deliver ours too). */
    private void drainIfFree() {
        if (ring.cqReady() > 0 && draining.compareAndSet(false, true)) {
            drainHoldingRole();
        }
    }

    /**
     * Drains, then releases the drain role, then completes asynchronous requests. Their futures are completed only
     * after the role is released because completing runs the caller's dependent actions on this thread, and one that
     * made a blocking call on this lane would otherwise wait forever for a drain that only it could do.
     */
    private void drainHoldingRole() {
        int asyncCount;
        int[] async;
        try {
            asyncDoneCount = 0;
            ring.drain(sink);
            asyncCount = asyncDoneCount;
            async = asyncCount == 0 ? null : java.util.Arrays.copyOf(asyncDone, asyncCount);
        } finally {
            draining.set(false);
        }
        for (int i = 0; i < asyncCount; i++) {
            finishAsync(async[i]);
        }
    }

    /** Async slots completed during the current drain; guarded by the drain role. */
    private int[] asyncDone;
    private int asyncDoneCount;

    private void complete(long userData, int res, int flags) {
        if (userData == CANCEL) {
            // The cancelled request reports for itself; whether the cancellation found it (0, ENOENT, EALREADY) is
            // of no use to anyone.
            pending.decrementAndGet();
            return;
        }
        int slot = (int) userData;
        Op op = ops[slot];
        op.res = res;
        if (op.future != null) {
            asyncDone[asyncDoneCount++] = slot;
        } else {
            op.done = true;
            Thread w = op.waiter;
            if (w != null && w != Thread.currentThread()) {
                LockSupport.unpark(w);
            }
        }
        pending.decrementAndGet();
    }

    private void finishAsync(int slot) {
        Op op = ops[slot];
        CompletableFuture<Integer> f = op.future;
        UringFile file = op.file;
        int res = op.res;
        Throwable failure = null;
        int n = 0;
        try {
            if (res < 0) {
                failure = file.completionFailure(op.opcode, op.position, op.length, res, false);
            } else {
                n = UringFile.isRead(op.opcode) && res == 0 && op.length > 0 ? -1 : res;
                if (op.copyTo != null && n > 0) {
                    HeapCopies.copy(chunk(op.chunk), 0, op.copyTo, 0, n);
                }
            }
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            // Slot and file are released before the future completes: completing runs the caller's dependent
            // actions here, and one that makes another call must find the slot free and the file not busy.
            op.done = true;
            free(slot, op);
            file.endUse();
        }
        if (failure != null) {
            f.completeExceptionally(failure);
        } else {
            f.complete(n);
        }
    }

    private void wakeReaper() {
        if (reaperIdle) {
            LockSupport.unpark(reaper);
        }
    }

    /** The reaper: waits in the kernel for completions while any request is outstanding. */
    private void reap() {
        MemorySegment state = reaperState;
        while (!closed || pending.get() > 0) {
            if (pending.get() == 0) {
                reaperIdle = true;
                if (pending.get() == 0 && !closed) {
                    LockSupport.park(this);
                }
                reaperIdle = false;
                continue;
            }
            if (ring.cqReady() == 0) {
                int rc = ring.await(state, 1);
                if (rc < 0 && rc != -Errno.EINTR && rc != -Errno.EAGAIN && rc != -Errno.EBUSY) {
                    // Nothing sensible to do but report and slow down; requests stay pending.
                    System.err.println("sluice: io_uring_enter(wait): " + Errno.describe(rc));
                    LockSupport.parkNanos(1_000_000);
                }
            }
            if (draining.compareAndSet(false, true)) {
                drainHoldingRole();
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /** For tests: the iovec array slot {@code slot} holds, or null. */
    MemorySegment iovOf(int slot) {
        return ops[slot].iov;
    }

    /** Outstanding requests (for tests and close). */
    int pending() {
        return pending.get();
    }

    /**
     * Stops new submissions, waits until every request in flight has completed (so the kernel no longer writes any
     * memory they name) and every waiter has collected its completion and left (so no thread reads the ring any more),
     * then unmaps and closes the ring.
     */
    @Override
    public void close() {
        sqLock.lock();
        try {
            closed = true;
        } finally {
            sqLock.unlock();
        }
        LockSupport.unpark(reaper);
        boolean interrupted = false;
        while (reaper.isAlive()) {
            try {
                reaper.join(100);
            } catch (InterruptedException e) {
                interrupted = true;
            }
            LockSupport.unpark(reaper);
            if (reaper.isAlive()) {
                postWakeup();
            }
        }
        // A waiter frees its slot only after its last look at the ring; one woken just now may still be looking.
        while (freeSlots() != ops.length || draining.get()) {
            if (Thread.interrupted()) {
                interrupted = true;
            }
            LockSupport.parkNanos(this, 100_000);
        }
        ring.close();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
