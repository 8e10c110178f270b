package io.sluice.internal.uring;

import static io.sluice.internal.uring.Uapi.*;

import io.sluice.internal.Errno;
import io.sluice.internal.Native;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * One io_uring instance: its descriptor, its submission and completion rings mapped into this process, and the
 * calls that move entries through them. Nothing here is thread-safe; the caller serialises each side.
 *
 * <h2>Memory ordering</h2>
 * The rings are shared with the kernel, so each index has one writer and one reader, paired like this:
 * <ul>
 *   <li>SQ tail: we write it with release after filling the entries, so the kernel never sees a tail before the
 *       entries it covers; the kernel reads it with acquire.</li>
 *   <li>SQ head: the kernel writes it (release) as it consumes entries; we read it with acquire before reusing
 *       an entry slot.</li>
 *   <li>CQ tail: the kernel writes it (release) after writing the completions; we read it with acquire before
 *       reading any completion it covers.</li>
 *   <li>CQ head: we write it with release once per drained batch, after reading the completions, so the kernel
 *       does not overwrite an entry we are still reading.</li>
 *   <li>SQ flags ({@code NEED_WAKEUP}, with SQPOLL): a full fence between publishing the tail and reading the
 *       flag, so we cannot read a stale "awake" while the poller goes to sleep having missed our tail.</li>
 * </ul>
 *
 * <h2>Setup</h2>
 * {@link #create} asks for the modern flags and drops them one at a time, newest first, when the kernel answers
 * EINVAL (as fio does). Flags that tie a ring to one submitting thread (SINGLE_ISSUER, DEFER_TASKRUN) or defer
 * completion work until that thread enters the kernel (COOP_TASKRUN) are not used: Sluice's rings are shared by
 * many threads and reaped by another. For the same reason the ring descriptor is not registered
 * (IORING_REGISTER_RING_FDS registers into the calling thread's private table).
 */
public final class Ring implements AutoCloseable {
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private final int fd;
    private final int flags;
    private final int features;
    private final int sqEntries;
    private final int cqEntries;
    private final MemorySegment sqRing;
    private final MemorySegment cqRing;
    private final MemorySegment sqes;
    private final long sqRingLength;
    private final long cqRingLength;
    private final long sqHeadOff;
    private final long sqTailOff;
    private final long sqFlagsOff;
    private final int sqMask;
    private final long cqHeadOff;
    private final long cqTailOff;
    private final long cqesOff;
    private final long cqOverflowOff;
    private final int cqMask;
    /** Our copy of the SQ tail: entries up to here are prepared; {@link #submit} publishes them. */
    private int sqTailLocal;
    private boolean closed;

    private Ring(int fd, MemorySegment params) throws IOException {
        this.fd = fd;
        this.flags = params.get(ValueLayout.JAVA_INT, P_FLAGS);
        this.features = params.get(ValueLayout.JAVA_INT, P_FEATURES);
        this.sqEntries = params.get(ValueLayout.JAVA_INT, P_SQ_ENTRIES);
        this.cqEntries = params.get(ValueLayout.JAVA_INT, P_CQ_ENTRIES);
        long sqArray = Integer.toUnsignedLong(params.get(ValueLayout.JAVA_INT, P_SQ_OFF + SQ_OFF_ARRAY));
        long cqes = Integer.toUnsignedLong(params.get(ValueLayout.JAVA_INT, P_CQ_OFF + CQ_OFF_CQES));
        boolean noArray = (flags & IORING_SETUP_NO_SQARRAY) != 0;
        // With NO_SQARRAY (6.6+) the kernel reports array offset 0; such kernels always offer SINGLE_MMAP, whose
        // one mapping covers both rings.
        long sqLen = sqArray + 4L * sqEntries;
        long cqLen = cqes + CQE_SIZE * cqEntries;
        boolean single = (features & IORING_FEAT_SINGLE_MMAP) != 0;
        if (single) {
            sqLen = cqLen = Math.max(sqLen, cqLen);
        }
        long sqAddr = 0;
        long cqAddr = 0;
        long sqesAddr = 0;
        boolean success = false;
        try {
            sqAddr = map(sqLen, IORING_OFF_SQ_RING, "SQ ring");
            cqAddr = single ? sqAddr : map(cqLen, IORING_OFF_CQ_RING, "CQ ring");
            sqesAddr = map(SQE_SIZE * sqEntries, IORING_OFF_SQES, "SQEs");
            success = true;
        } finally {
            if (!success) {
                if (cqAddr > 0 && cqAddr != sqAddr) {
                    Native.munmap(cqAddr, cqLen);
                }
                if (sqAddr > 0) {
                    Native.munmap(sqAddr, sqLen);
                }
            }
        }
        this.sqRingLength = sqLen;
        this.cqRingLength = single ? 0 : cqLen;
        this.sqRing = MemorySegment.ofAddress(sqAddr).reinterpret(sqLen);
        this.cqRing = MemorySegment.ofAddress(cqAddr).reinterpret(cqLen);
        this.sqes = MemorySegment.ofAddress(sqesAddr).reinterpret(SQE_SIZE * sqEntries);
        this.sqHeadOff = off(params, P_SQ_OFF + OFF_HEAD);
        this.sqTailOff = off(params, P_SQ_OFF + OFF_TAIL);
        this.sqFlagsOff = off(params, P_SQ_OFF + SQ_OFF_FLAGS);
        this.sqMask = sqRing.get(ValueLayout.JAVA_INT, off(params, P_SQ_OFF + OFF_RING_MASK));
        this.cqHeadOff = off(params, P_CQ_OFF + OFF_HEAD);
        this.cqTailOff = off(params, P_CQ_OFF + OFF_TAIL);
        this.cqOverflowOff = off(params, P_CQ_OFF + CQ_OFF_OVERFLOW);
        this.cqesOff = cqes;
        this.cqMask = cqRing.get(ValueLayout.JAVA_INT, off(params, P_CQ_OFF + OFF_RING_MASK));
        if (!noArray) {
            // Entry i of the SQ array names SQE i, once and for all: we fill SQEs in ring order.
            for (int i = 0; i < sqEntries; i++) {
                sqRing.set(ValueLayout.JAVA_INT, sqArray + 4L * i, i);
            }
        }
        this.sqTailLocal = (int) INT.getAcquire(sqRing, sqTailOff);
    }

    private static long off(MemorySegment params, long at) {
        return Integer.toUnsignedLong(params.get(ValueLayout.JAVA_INT, at));
    }

    private long map(long length, long offset, String what) throws IOException {
        long addr = Native.mmap(length, Native.PROT_READ | Native.PROT_WRITE, Native.MAP_SHARED | Native.MAP_POPULATE,
                fd, offset);
        if (addr < 0) {
            throw new IOException("mmap(io_uring " + what + ", len=" + length + "): " + Errno.describe((int) addr)
                    + (addr == -Errno.ENOMEM ? " (locked-memory limit: raise 'ulimit -l')" : ""));
        }
        return addr;
    }

    /**
     * Sets up a ring with room for {@code entries} submissions (rounded up to a power of two by the kernel) and
     * twice as many completions.
     *
     * @param extraFlags IORING_SETUP_SQPOLL or IORING_SETUP_IOPOLL, or 0; these are never dropped
     * @throws IOException naming errno when the kernel refuses even the plainest ring
     */
    public static Ring create(int entries, int extraFlags) throws IOException {
        // Newest last: on EINVAL the last one is dropped and setup retried.
        int[] optional = {IORING_SETUP_CQSIZE | IORING_SETUP_CLAMP, IORING_SETUP_SUBMIT_ALL, IORING_SETUP_NO_SQARRAY};
        int n = optional.length;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment params = arena.allocate(PARAMS_SIZE, 8);
            for (;;) {
                int flags = extraFlags;
                for (int i = 0; i < n; i++) {
                    flags |= optional[i];
                }
                params.fill((byte) 0);
                params.set(ValueLayout.JAVA_INT, P_FLAGS, flags);
                if ((flags & IORING_SETUP_CQSIZE) != 0) {
                    params.set(ValueLayout.JAVA_INT, P_CQ_ENTRIES, entries * 2);
                }
                if ((flags & IORING_SETUP_SQPOLL) != 0) {
                    params.set(ValueLayout.JAVA_INT, P_SQ_THREAD_IDLE, 50);
                }
                long rc = Native.syscall(SYS_IO_URING_SETUP, entries, params.address(), 0, 0, 0, 0);
                if (rc >= 0) {
                    int fd = (int) rc;
                    try {
                        return new Ring(fd, params);
                    } catch (IOException | RuntimeException e) {
                        Native.close(fd);
                        throw e;
                    }
                }
                if (rc == -Errno.EINVAL && n > 0) {
                    n--;
                    continue;
                }
                throw new IOException("io_uring_setup(entries=" + entries + ", flags=0x" + Integer.toHexString(flags)
                        + "): " + Errno.describe((int) rc));
            }
        }
    }

    public int fd() {
        return fd;
    }

    /** The setup flags the kernel accepted. */
    public int flags() {
        return flags;
    }

    /** IORING_FEAT_* bits the kernel reported. */
    public int features() {
        return features;
    }

    public int sqEntries() {
        return sqEntries;
    }

    public int cqEntries() {
        return cqEntries;
    }

    // ---------------------------------------------------------------- submission side

    /** Free submission slots. */
    public int sqSpace() {
        int head = (int) INT.getAcquire(sqRing, sqHeadOff);
        return sqEntries - (sqTailLocal - head);
    }

    /**
     * Claims the next submission entry, zeroed, and returns its offset for the {@code prep} calls; -1 when the ring is
     * full (submit, then try again).
     */
    public long nextSqe() {
        if (sqSpace() == 0) {
            return -1;
        }
        long at = SQE_SIZE * (sqTailLocal & sqMask);
        sqTailLocal++;
        for (long o = 0; o < SQE_SIZE; o += 8) {
            sqes.set(ValueLayout.JAVA_LONG, at + o, 0L);
        }
        return at;
    }

    /** Fills a read/write-shaped entry: READ, WRITE, READ_FIXED, WRITE_FIXED, READV, WRITEV, FSYNC, NOP. */
    public void prep(long sqe, byte opcode, int fd, boolean fixedFile, long addr, int len, long offset, long userData) {
        sqes.set(ValueLayout.JAVA_BYTE, sqe + SQE_OPCODE, opcode);
        sqes.set(ValueLayout.JAVA_BYTE, sqe + SQE_FLAGS, fixedFile ? IOSQE_FIXED_FILE : 0);
        sqes.set(ValueLayout.JAVA_INT, sqe + SQE_FD, fd);
        sqes.set(ValueLayout.JAVA_LONG, sqe + SQE_OFF, offset);
        sqes.set(ValueLayout.JAVA_LONG, sqe + SQE_ADDR, addr);
        sqes.set(ValueLayout.JAVA_INT, sqe + SQE_LEN, len);
        sqes.set(ValueLayout.JAVA_LONG, sqe + SQE_USER_DATA, userData);
    }

    /** Sets the entry's IOSQE_* flags (keeping IOSQE_FIXED_FILE from {@link #prep}): IO_LINK, IO_HARDLINK. */
    public void addFlags(long sqe, byte value) {
        sqes.set(ValueLayout.JAVA_BYTE, sqe + SQE_FLAGS, (byte) (sqes.get(ValueLayout.JAVA_BYTE, sqe + SQE_FLAGS) | value));
    }

    /** Sets the op-specific flags word (fsync_flags, rw_flags, open_flags). */
    public void opFlags(long sqe, int value) {
        sqes.set(ValueLayout.JAVA_INT, sqe + SQE_OP_FLAGS, value);
    }

    /** Sets the registered-buffer index of a READ_FIXED/WRITE_FIXED entry. */
    public void bufIndex(long sqe, int index) {
        sqes.set(ValueLayout.JAVA_SHORT, sqe + SQE_BUF_INDEX, (short) index);
    }

    /** Sets the direct-descriptor slot for OPENAT (slot + 1, 0 meaning a normal descriptor) or CLOSE. */
    public void fileIndex(long sqe, int value) {
        sqes.set(ValueLayout.JAVA_INT, sqe + SQE_FILE_INDEX, value);
    }

    /**
     * Entries prepared and not yet consumed by the kernel. Counted against the kernel's SQ head, not against what we
     * last asked it to take: an enter that failed (EAGAIN, EBUSY) or took only some leaves the rest in the ring, and
     * the next {@link #submit} must ask for them too.
     */
    public int unsubmitted() {
        return sqTailLocal - (int) INT.getAcquire(sqRing, sqHeadOff);
    }

    /**
     * Publishes the prepared entries without entering the kernel, for a caller that enters itself (timings of other
     * ways to enter).
     *
     * @return entries published and not yet consumed by the kernel
     */
    public int publish() {
        // Release: the entries written before must be visible to the kernel before the tail that covers them.
        INT.setRelease(sqRing, sqTailOff, sqTailLocal);
        return unsubmitted();
    }

    /**
     * Publishes the prepared entries and enters the kernel to submit them, optionally waiting for completions.
     *
     * @param state  errno capture memory owned by the calling thread ({@link Native#newCallState()})
     * @param minComplete completions to wait for (0: do not wait)
     * @return entries the kernel consumed, or {@code -errno}; EINTR, EAGAIN and EBUSY are returned for the caller
     *         to retry after reaping
     */
    public int submit(MemorySegment state, int minComplete) {
        int toSubmit = publish();
        int enterFlags = minComplete > 0 ? IORING_ENTER_GETEVENTS : 0;
        if ((flags & IORING_SETUP_SQPOLL) != 0) {
            // Full fence: our tail store above must be ordered before reading NEED_WAKEUP, or we could miss that the
            // poller went to sleep without seeing the tail.
            VarHandle.fullFence();
            if ((sqRing.get(ValueLayout.JAVA_INT, sqFlagsOff) & IORING_SQ_NEED_WAKEUP) != 0) {
                enterFlags |= IORING_ENTER_SQ_WAKEUP;
            } else if (minComplete == 0) {
                return toSubmit; // the poller takes them; no system call at all
            }
            toSubmit = 0; // with SQPOLL the kernel thread submits; enter only wakes or waits
        }
        long rc = Native.syscall(state, SYS_IO_URING_ENTER, fd, toSubmit, minComplete, enterFlags, 0, 0);
        return (int) rc;
    }

    /**
     * Waits in the kernel until at least {@code minComplete} completions are ready; also flushes completions that
     * overflowed into the kernel's backlog.
     *
     * @return 0 or {@code -errno} (EINTR: retry)
     */
    public int await(MemorySegment state, int minComplete) {
        return (int) Native.syscall(state, SYS_IO_URING_ENTER, fd, 0, minComplete, IORING_ENTER_GETEVENTS, 0, 0);
    }

    // ---------------------------------------------------------------- completion side

    /** Receives completions from {@link #drain}. */
    @FunctionalInterface
    public interface Completions {
        void complete(long userData, int res, int flags);
    }

    /**
     * Hands every ready completion to {@code sink}, then releases them to the kernel with one head store.
     *
     * @return how many were drained
     */
    public int drain(Completions sink) {
        int head = cqRing.get(ValueLayout.JAVA_INT, cqHeadOff);
        // Acquire: completions up to this tail are fully written before we read them.
        int tail = (int) INT.getAcquire(cqRing, cqTailOff);
        int n = tail - head;
        for (int i = 0; i < n; i++) {
            long at = cqesOff + CQE_SIZE * ((head + i) & cqMask);
            sink.complete(cqRing.get(ValueLayout.JAVA_LONG, at + CQE_USER_DATA),
                    cqRing.get(ValueLayout.JAVA_INT, at + CQE_RES), cqRing.get(ValueLayout.JAVA_INT, at + CQE_FLAGS));
        }
        if (n > 0) {
            // Release: we are done reading these entries; the kernel may reuse their slots.
            INT.setRelease(cqRing, cqHeadOff, tail);
        }
        return n;
    }

    /** Completions ready to drain. */
    public int cqReady() {
        return (int) INT.getAcquire(cqRing, cqTailOff) - cqRing.get(ValueLayout.JAVA_INT, cqHeadOff);
    }

    /** Whether completions overflowed into the kernel's backlog (they are flushed by {@link #await}). */
    public boolean cqOverflowed() {
        return (sqRing.get(ValueLayout.JAVA_INT, sqFlagsOff) & IORING_SQ_CQ_OVERFLOW) != 0;
    }

    /** With SQPOLL: whether the kernel thread has gone to sleep and the next submission must wake it. */
    public boolean sqNeedsWakeup() {
        VarHandle.fullFence(); // as in submit: a fresh read of the flag the kernel thread sets before sleeping
        return (sqRing.get(ValueLayout.JAVA_INT, sqFlagsOff) & IORING_SQ_NEED_WAKEUP) != 0;
    }

    /** Completions the kernel dropped for lack of room (always 0 on kernels with IORING_FEAT_NODROP). */
    public int cqDropped() {
        return cqRing.get(ValueLayout.JAVA_INT, cqOverflowOff);
    }

    // ---------------------------------------------------------------- registration

    private void register(int opcode, long arg, int nrArgs, String what) throws IOException {
        long rc = Native.syscall(SYS_IO_URING_REGISTER, fd, opcode, arg, nrArgs, 0, 0);
        if (rc < 0) {
            throw new IOException("io_uring_register(" + what + "): " + Errno.describe((int) rc));
        }
    }

    /** Registers an empty (sparse) table of {@code slots} files, to be filled by {@link #updateFile}. */
    public void registerSparseFiles(int slots) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment r = arena.allocate(RSRC_REGISTER_SIZE, 8);
            r.set(ValueLayout.JAVA_INT, RR_NR, slots);
            r.set(ValueLayout.JAVA_INT, RR_FLAGS, IORING_RSRC_REGISTER_SPARSE);
            register(IORING_REGISTER_FILES2, r.address(), (int) RSRC_REGISTER_SIZE, "REGISTER_FILES2 sparse " + slots);
        }
    }

    /** Puts {@code fileFd} in registered slot {@code slot} ({@code -1} empties the slot). */
    public void updateFile(int slot, int fileFd) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fds = arena.allocateFrom(ValueLayout.JAVA_INT, fileFd);
            MemorySegment u = arena.allocate(RSRC_UPDATE2_SIZE, 8);
            u.set(ValueLayout.JAVA_INT, RU_OFFSET, slot);
            u.set(ValueLayout.JAVA_LONG, RU_DATA, fds.address());
            u.set(ValueLayout.JAVA_INT, RU_NR, 1);
            register(IORING_REGISTER_FILES_UPDATE2, u.address(), (int) RSRC_UPDATE2_SIZE, "FILES_UPDATE2 slot " + slot);
        }
    }

    /**
     * Registers buffers for READ_FIXED/WRITE_FIXED; entry i of {@code buffers} becomes buffer index i. The memory must
     * stay allocated until the ring is closed.
     */
    public void registerBuffers(MemorySegment... buffers) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment iov = arena.allocate(IOVEC_SIZE * buffers.length, 8);
            for (int i = 0; i < buffers.length; i++) {
                iov.set(ValueLayout.JAVA_LONG, IOVEC_SIZE * i, buffers[i].address());
                iov.set(ValueLayout.JAVA_LONG, IOVEC_SIZE * i + 8, buffers[i].byteSize());
            }
            register(IORING_REGISTER_BUFFERS, iov.address(), buffers.length, "REGISTER_BUFFERS " + buffers.length);
        }
    }

    /**
     * Unmaps the rings and closes the descriptor. The kernel cancels whatever is still in flight, but memory named
     * by those requests may be written until it has; callers wait for their completions first.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        Native.munmap(sqes.address(), sqes.byteSize());
        if (cqRingLength > 0) {
            Native.munmap(cqRing.address(), cqRingLength);
        }
        Native.munmap(sqRing.address(), sqRingLength);
        Native.close(fd);
    }
}
