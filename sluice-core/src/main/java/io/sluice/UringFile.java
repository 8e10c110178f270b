package io.sluice;

import static io.sluice.internal.uring.Uapi.IORING_FSYNC_DATASYNC;
import static io.sluice.internal.uring.Uapi.IORING_OP_CLOSE;
import static io.sluice.internal.uring.Uapi.IORING_OP_FSYNC;
import static io.sluice.internal.uring.Uapi.IORING_OP_OPENAT;
import static io.sluice.internal.uring.Uapi.IORING_OP_READ;
import static io.sluice.internal.uring.Uapi.IORING_OP_READV;
import static io.sluice.internal.uring.Uapi.IORING_OP_READ_FIXED;
import static io.sluice.internal.uring.Uapi.IORING_OP_WRITE;
import static io.sluice.internal.uring.Uapi.IORING_OP_WRITEV;
import static io.sluice.internal.uring.Uapi.IORING_OP_WRITE_FIXED;

import io.sluice.internal.AlignedBuffers;
import io.sluice.internal.Errno;
import io.sluice.internal.Native;
import io.sluice.internal.uring.Ring;
import io.sluice.internal.uring.Uapi;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The IO_URING engine: every read, write, fsync, open and close goes through io_uring rings reached with FFM system
 * calls, no native library. The file is registered in every ring (IOSQE_FIXED_FILE), so the kernel skips the
 * descriptor lookup per request; heap memory is bounced through registered buffers (READ_FIXED/WRITE_FIXED).
 *
 * <p>Native memory (native segments, direct buffers) is handed to the kernel as it is: the caller must keep it
 * allocated until the call returns, or for {@link #readAsync} until the future completes.
 *
 * <p>With {@link SluiceOption#DIRECT} the file is opened with O_DIRECT: positions, lengths and memory addresses must
 * be multiples of the file system's block size ({@link java.nio.file.FileStore#getBlockSize()}), checked before any
 * I/O.
 *
 * <p>Closing cancels this file's requests in flight (IORING_OP_ASYNC_CANCEL), so a read that would never complete (a
 * pipe with no bytes coming) ends, with {@link AsynchronousCloseException} for its caller; it waits for the calls in
 * progress to end, then unregisters and closes the descriptor, so a descriptor number is never reused while a request
 * may still name it. If calls are still in progress {@link #CLOSE_WAIT_NANOS} after the cancellation, close throws an
 * {@code IOException} saying so, and the call that ends last closes the descriptor.
 *
 * <p>Interrupts, as on CHANNEL: a blocking call (read, write, vectored, batch, force, size, truncate) of a thread whose
 * interrupt status is set throws {@link ClosedByInterruptException} before anything is submitted, as
 * {@code FileChannel} does. A thread interrupted while it waits cancels its request and waits for the kernel to be done
 * with it, then throws {@code ClosedByInterruptException}, or returns the result if the request completed first (heap
 * memory moved in several chunks: what moved up to the chunk in progress). Its interrupt status stays set, and the
 * file stays open for every other thread. Asynchronous calls ({@link #readAsync}) do not wait, so an interrupt does
 * not concern them.
 */
final class UringFile extends PositionalFile {
    private static final int CLOSED = 1 << 30;
    /**
     * How long close waits for calls in progress once their requests were cancelled. A cancelled request normally
     * completes within microseconds; one the kernel is already carrying out (a device transfer) cannot be stopped and
     * ends when the device answers, which is what this allows for.
     */
    static final long CLOSE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** While close waits, how often it asks again for the cancellation of requests still in flight. */
    private static final long RECANCEL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /** The rings this file's reads and writes go through. */
    private final UringPool pool;
    /**
     * The rings for open, close and fsync: {@link #pool} itself, except for an IOPOLL pool, whose rings the kernel
     * lets carry only reads and writes.
     */
    private final UringPool ctl;
    private final int fd;
    private final int slot;
    private final int align;
    /** Calls in progress, plus {@link #CLOSED} once closing has begun. */
    private final AtomicInteger users = new AtomicInteger();
    private volatile Thread closer;
    private volatile long closeWaitNanos = CLOSE_WAIT_NANOS;
    /** Set by a close that stopped waiting for calls in progress: the last of them to end releases the descriptor. */
    private volatile boolean releaseOnLastUse;
    /** Whether the descriptor was unregistered and closed (or is being): exactly once, by close or by the last call. */
    private final AtomicBoolean released = new AtomicBoolean();

    private UringFile(Path path, OpenSpec spec, UringPool pool, UringPool ctl, int fd, int slot, int align) {
        super(path, Engine.IO_URING, spec);
        this.pool = pool;
        this.ctl = ctl;
        this.fd = fd;
        this.slot = slot;
        this.align = align;
    }

    static UringFile open(Path path, OpenSpec spec) throws IOException {
        int setup = spec.uringSetupFlags();
        if (setup == 0) {
            return open(path, spec, UringPool.get());
        }
        UringPool polled;
        try {
            polled = UringPool.polled(setup);
        } catch (IOException e) {
            throw new IOException("cannot open " + path + " with " + pollOptions(spec)
                    + ": the kernel refused such an io_uring ring: " + e.getMessage(), e);
        }
        return open(path, spec, polled);
    }

    private static String pollOptions(OpenSpec spec) {
        return spec.sqpoll() && spec.iopoll() ? "SluiceOption.SQPOLL and IOPOLL"
                : spec.sqpoll() ? "SluiceOption.SQPOLL" : "SluiceOption.IOPOLL";
    }

    /** Opens on the given rings (tests use small ones to provoke back-pressure). */
    static UringFile open(Path path, OpenSpec spec, UringPool pool) throws IOException {
        int flags = (spec.writable() ? Native.O_RDWR : Native.O_RDONLY) | Native.O_CLOEXEC;
        var std = spec.standard();
        if (std.contains(StandardOpenOption.CREATE_NEW)) {
            flags |= Native.O_CREAT | Native.O_EXCL;
        } else if (std.contains(StandardOpenOption.CREATE)) {
            flags |= Native.O_CREAT;
        }
        if (std.contains(StandardOpenOption.TRUNCATE_EXISTING)) {
            flags |= Native.O_TRUNC;
        }
        if (std.contains(StandardOpenOption.SYNC)) {
            flags |= Native.O_SYNC;
        } else if (std.contains(StandardOpenOption.DSYNC)) {
            flags |= Native.O_DSYNC;
        }
        if (spec.noFollowLinks()) {
            flags |= Native.O_NOFOLLOW;
        }
        int align = 0;
        if (spec.direct()) {
            flags |= Native.O_DIRECT;
        }
        UringPool ctl = (pool.setupFlags & Uapi.IORING_SETUP_IOPOLL) != 0 ? UringPool.get() : pool;
        int fd = openat(ctl, path, flags);
        boolean success = false;
        int slot = -1;
        try {
            if (spec.direct()) {
                // The file system's own block size: the alignment O_DIRECT transfers need there.
                align = (int) Math.max(512, Files.getFileStore(path).getBlockSize());
            }
            if ((pool.setupFlags & Uapi.IORING_SETUP_IOPOLL) != 0) {
                IopollCheck.deviceCanPoll(path, pool.lane(), fd, align);
            }
            slot = pool.register(fd);
            success = true;
            return new UringFile(path, spec, pool, ctl, fd, slot, align);
        } finally {
            if (!success) {
                Native.close(fd);
            }
        }
    }

    /** openat through the ring; errors become the JDK's own exceptions, as FileChannel.open reports them. */
    private static int openat(UringPool pool, Path path, int flags) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cpath = arena.allocateFrom(path.toString());
            UringLane lane = pool.lane();
            int s = lane.submitOne(IORING_OP_OPENAT, Native.AT_FDCWD, false, cpath.address(), 0666, 0, flags, -1,
                    null, null, null, -1, null);
            int rc = lane.await(s);
            if (rc >= 0) {
                return rc;
            }
            String file = path.toString();
            switch (-rc) {
                case Errno.ENOENT -> throw new NoSuchFileException(file);
                case Errno.EEXIST -> throw new FileAlreadyExistsException(file);
                case Errno.EACCES, Errno.EPERM -> throw new AccessDeniedException(file);
                case Errno.ELOOP -> throw new FileSystemException(file, null, "is a symbolic link and NOFOLLOW_LINKS was given");
                case Errno.EINVAL -> throw new FileSystemException(file, null,
                        "open refused (EINVAL): O_DIRECT is not supported by this file system?");
                default -> throw new FileSystemException(file, null, "openat: " + Errno.describe(rc));
            }
        }
    }

    // ---------------------------------------------------------------- use counting, so close never races a request

    /**
     * Begins a call: counts it, so close waits for it. A blocking call ({@code interruptible}) of a thread whose
     * interrupt status is set is refused, as FileChannel refuses it: submitting it would only mean cancelling it.
     */
    void beginUse(boolean interruptible) throws ClosedChannelException {
        for (;;) {
            int u = users.get();
            if ((u & CLOSED) != 0) {
                throw new ClosedChannelException();
            }
            if (interruptible && Thread.currentThread().isInterrupted()) {
                throw new ClosedByInterruptException();
            }
            if (users.compareAndSet(u, u + 1)) {
                return;
            }
        }
    }

    void endUse() {
        if (users.decrementAndGet() == CLOSED) {
            if (releaseOnLastUse) {
                releaseLate();
                return;
            }
            Thread c = closer;
            if (c != null) {
                LockSupport.unpark(c);
            }
        }
    }

    @Override
    public boolean isOpen() {
        return (users.get() & CLOSED) == 0;
    }

    @Override
    void ensureOpen() throws ClosedChannelException {
        if (!isOpen()) {
            throw new ClosedChannelException();
        }
    }

    static boolean isRead(byte opcode) {
        return opcode == IORING_OP_READ || opcode == IORING_OP_READ_FIXED || opcode == IORING_OP_READV;
    }

    private static String opName(byte opcode) {
        return switch (opcode) {
            case IORING_OP_READ, IORING_OP_READ_FIXED -> "read";
            case IORING_OP_WRITE, IORING_OP_WRITE_FIXED -> "write";
            case IORING_OP_READV -> "readv";
            case IORING_OP_WRITEV -> "writev";
            case IORING_OP_FSYNC -> "fsync";
            default -> "io_uring op " + opcode;
        };
    }

    /**
     * The exception for a request that completed with {@code res < 0}. A request cancelled or interrupted (ECANCELED,
     * EINTR) because its waiter was interrupted ({@code waited}: the calling thread is the waiter, and its status is
     * set) or because the file was closed under it is reported as FileChannel reports those cases.
     */
    IOException completionFailure(byte opcode, long position, long length, int res, boolean waited) {
        if (res == -Errno.ECANCELED || res == -Errno.EINTR) {
            if (waited && Thread.currentThread().isInterrupted()) {
                return new ClosedByInterruptException();
            }
            if (!isOpen()) {
                return new AsynchronousCloseException();
            }
        }
        return errnoFailure(opcode, position, length, res);
    }

    /** A failed completion as an IOException naming op, file, position, length and errno. */
    IOException errnoFailure(byte opcode, long position, long length, int res) {
        return new IOException("io_uring " + opName(opcode) + "(path=" + path() + ", pos=" + position + ", len="
                + length + "): " + Errno.describe(res));
    }

    private void checkDirect(long address, long length, long position) {
        if (align != 0 && ((address | length | position) & (align - 1)) != 0) {
            throw new IllegalArgumentException("O_DIRECT on " + path() + " needs address, length and position aligned to "
                    + align + " bytes (the file system's block size): address=0x" + Long.toHexString(address)
                    + ", len=" + length + ", pos=" + position);
        }
    }

    // ---------------------------------------------------------------- one request, waited for

    /**
     * One request through the calling thread's lane: the result, with end of file as -1 and errors thrown.
     * {@code bufIndex} is 0 for the lane's registered bounce memory, -1 otherwise.
     */
    private int io(UringLane lane, byte opcode, long addr, int len, long position, int opFlags, int bufIndex)
            throws IOException {
        int s = lane.submitOne(opcode, slot >= 0 ? slot : fd, slot >= 0, addr, len, position, opFlags, bufIndex,
                null, this, null, -1, null);
        int res = lane.await(s, true);
        if (res >= 0) {
            return isRead(opcode) && res == 0 && len > 0 ? -1 : res;
        }
        if (res == -Errno.EINVAL && isRead(opcode) && align == 0 && position >= Native.size(fd)) {
            return -1; // an offset so large the kernel refuses it: past the end, as the contract answers -1
        }
        throw completionFailure(opcode, position, len, res, true);
    }

    /** A transfer of native memory at {@code address}. */
    private int direct(byte opcode, long address, int len, long position) throws IOException {
        checkDirect(address, len, position);
        beginUse(true);
        try {
            return io(pool.lane(), opcode, address, len, position, 0, -1);
        } finally {
            endUse();
        }
    }

    /**
     * A transfer of heap memory through the lane's registered bounce chunks, a chunk at a time. {@code heap} is the
     * caller's memory as a segment (array-backed), used from offset 0.
     */
    private int bounced(boolean read, MemorySegment heap, long position) throws IOException {
        long len = heap.byteSize();
        checkDirect(0, len, position);
        beginUse(true);
        UringLane lane = pool.lane();
        int chunk = lane.takeChunk();
        ByteBuffer spare = null;
        try {
            MemorySegment buf;
            long base;
            int bufIndex;
            if (chunk >= 0) {
                buf = lane.chunk(chunk);
                base = buf.address();
                bufIndex = 0;
            } else {
                // Every registered chunk is in use: an unregistered aligned buffer does the same job a little slower.
                spare = AlignedBuffers.allocate(UringLane.CHUNK);
                buf = MemorySegment.ofBuffer(spare);
                base = buf.address();
                bufIndex = -1;
            }
            byte op = read ? (bufIndex == 0 ? IORING_OP_READ_FIXED : IORING_OP_READ)
                    : (bufIndex == 0 ? IORING_OP_WRITE_FIXED : IORING_OP_WRITE);
            long total = 0;
            while (total < len) {
                if (total > 0 && Thread.currentThread().isInterrupted()) {
                    break; // interrupted between chunks: a short transfer of what moved; the next call reports it
                }
                int n = (int) Math.min(len - total, UringLane.CHUNK);
                if (!read) {
                    HeapCopies.copy(heap, total, buf, 0, n);
                }
                int r = io(lane, op, base, n, position + total, 0, bufIndex);
                if (r < 0) {
                    return total == 0 ? -1 : (int) total;
                }
                if (read) {
                    HeapCopies.copy(buf, 0, heap, total, r);
                }
                total += r;
                if (r < n) {
                    break;
                }
            }
            return (int) total;
        } finally {
            if (chunk >= 0) {
                lane.giveChunk(chunk);
            }
            endUse();
        }
    }

    @Override
    int readSegment(MemorySegment dst, long position) throws IOException {
        return dst.isNative() ? direct(IORING_OP_READ, dst.address(), (int) dst.byteSize(), position)
                : bounced(true, dst, position);
    }

    @Override
    int writeSegment(MemorySegment src, long position) throws IOException {
        return src.isNative() ? direct(IORING_OP_WRITE, src.address(), (int) src.byteSize(), position)
                : bounced(false, src, position);
    }

    @Override
    int readBuffer(ByteBuffer dst, long position) throws IOException {
        return readBufferAsSegment(dst, position);
    }

    @Override
    int writeBuffer(ByteBuffer src, long position) throws IOException {
        return writeBufferAsSegment(src, position);
    }

    @Override
    int readArray(byte[] dst, int offset, int length, long position) throws IOException {
        return bounced(true, MemorySegment.ofArray(dst).asSlice(offset, length), position);
    }

    @Override
    int writeArray(byte[] src, int offset, int length, long position) throws IOException {
        return bounced(false, MemorySegment.ofArray(src).asSlice(offset, length), position);
    }

    // ---------------------------------------------------------------- vectored: one READV/WRITEV

    @Override
    long readBuffers(ByteBuffer[] dsts, int offset, int count, long position) throws IOException {
        return count == 1 ? super.readBuffers(dsts, offset, count, position)
                : vector(true, dsts, null, offset, count, position);
    }

    @Override
    long readSegments(MemorySegment[] dsts, int offset, int count, long position) throws IOException {
        return count == 1 ? super.readSegments(dsts, offset, count, position)
                : vector(true, null, dsts, offset, count, position);
    }

    @Override
    long writeBuffers(ByteBuffer[] srcs, int offset, int count, long position) throws IOException {
        return count == 1 ? super.writeBuffers(srcs, offset, count, position)
                : vector(false, srcs, null, offset, count, position);
    }

    @Override
    long writeSegments(MemorySegment[] srcs, int offset, int count, long position) throws IOException {
        return count == 1 ? super.writeSegments(srcs, offset, count, position)
                : vector(false, null, srcs, offset, count, position);
    }

    /**
     * A vector as one IORING_OP_READV/WRITEV. The iovec array is the request slot's own ({@link UringLane#iovec}),
     * filled when the slot is claimed. Native memory is named as it is; heap elements are laid out one after another
     * in one bounce chunk, and the vector is cut where the chunk is full (a short transfer, as the contract allows),
     * so one call never needs more than one chunk. Exactly one of {@code bufs} and {@code segs} is given.
     */
    private long vector(boolean read, ByteBuffer[] bufs, MemorySegment[] segs, int offset, int count, long position)
            throws IOException {
        // Plan: how many elements go in (k), how long the last one is, how much bounce memory the heap ones take.
        int k = 0;
        int lastLen = 0;
        int bounceBytes = 0;
        for (int i = offset; i < offset + count; i++) {
            int len = (int) Math.min(bufs != null ? bufs[i].remaining() : segs[i].byteSize(), MAX_TRANSFER);
            if (isHeap(bufs, segs, i)) {
                checkDirect(0, len, position); // O_DIRECT: each piece a whole number of blocks
                int room = UringLane.CHUNK - bounceBytes;
                if (len > room) {
                    if (k == 0) {
                        k = 1;
                        lastLen = room; // a first element larger than the chunk goes in as far as it fits
                        bounceBytes = room;
                    }
                    break;
                }
                bounceBytes += bounceSpan(len);
            } else if (align != 0) {
                checkDirect(address(bufs, segs, i), len, position);
            }
            k++;
            lastLen = len;
        }
        beginUse(true);
        UringLane lane = pool.lane();
        int chunk = -1;
        try {
            long bounce = 0;
            MemorySegment bounceMem = null;
            if (bounceBytes > 0) {
                chunk = lane.takeChunk();
                bounceMem = chunk >= 0 ? lane.chunk(chunk)
                        : MemorySegment.ofBuffer(AlignedBuffers.allocate(UringLane.CHUNK)); // all chunks busy
                bounce = bounceMem.address();
                if (!read) {
                    long at = 0;
                    for (int j = 0; j < k; j++) {
                        int i = offset + j;
                        if (isHeap(bufs, segs, i)) {
                            int len = j == k - 1 ? lastLen : length(bufs, segs, i);
                            HeapCopies.copy(segment(bufs, segs, i), 0, bounceMem, at, len);
                            at += bounceSpan(len);
                        }
                    }
                }
            }
            byte opcode = read ? IORING_OP_READV : IORING_OP_WRITEV;
            // The slot is claimed first and its own iovec array filled outside the submit lock: no callback object
            // and no result array per call.
            int s = lane.reserve(this);
            MemorySegment iov;
            try {
                iov = UringLane.iovec(lane.op(s), k);
                long at0 = 0;
                for (int j = 0; j < k; j++) {
                    int i = offset + j;
                    int len = j == k - 1 ? lastLen : length(bufs, segs, i);
                    long addr;
                    if (isHeap(bufs, segs, i)) {
                        addr = bounce + at0;
                        at0 += bounceSpan(len);
                    } else {
                        addr = address(bufs, segs, i);
                    }
                    iov.set(ValueLayout.JAVA_LONG, Uapi.IOVEC_SIZE * j, addr);
                    iov.set(ValueLayout.JAVA_LONG, Uapi.IOVEC_SIZE * j + 8, len);
                }
            } catch (RuntimeException | Error e) {
                lane.free(s, lane.op(s)); // not published: the slot is still ours to give back
                throw e;
            }
            lane.submitReserved(s, this, opcode, slot >= 0 ? slot : fd, slot >= 0, iov.address(), k, position);
            int res = lane.await(s, true);
            if (res < 0) {
                if (res == -Errno.EINVAL && read && align == 0 && position >= Native.size(fd)) {
                    return -1;
                }
                long total = 0;
                for (int j = 0; j < k; j++) {
                    total += j == k - 1 ? lastLen : length(bufs, segs, offset + j);
                }
                throw completionFailure(opcode, position, total, res, true);
            }
            if (read && res == 0) {
                return -1; // the first element is never empty, so nothing read means the end of the file
            }
            // Hand out the result: copy bounced bytes to the heap elements, move the buffers' positions.
            long left = res;
            long at = 0;
            for (int j = 0; j < k && left > 0; j++) {
                int i = offset + j;
                int len = j == k - 1 ? lastLen : length(bufs, segs, i);
                int got = (int) Math.min(len, left);
                if (isHeap(bufs, segs, i)) {
                    if (read) {
                        HeapCopies.copy(bounceMem, at, segment(bufs, segs, i), 0, got);
                    }
                    at += bounceSpan(len);
                }
                if (bufs != null) {
                    bufs[i].position(bufs[i].position() + got);
                }
                left -= got;
            }
            return res;
        } finally {
            if (chunk >= 0) {
                lane.giveChunk(chunk);
            }
            endUse();
        }
    }

    /** Bounce bytes a heap element of {@code len} takes: rounded up to the O_DIRECT block, or to 16 bytes. */
    private int bounceSpan(int len) {
        int a = Math.max(align, 16);
        return (len + a - 1) & -a;
    }

    private static boolean isHeap(ByteBuffer[] bufs, MemorySegment[] segs, int i) {
        return bufs != null ? !bufs[i].isDirect() : !segs[i].isNative();
    }

    private static int length(ByteBuffer[] bufs, MemorySegment[] segs, int i) {
        return (int) Math.min(bufs != null ? bufs[i].remaining() : segs[i].byteSize(), MAX_TRANSFER);
    }

    /** The element's bytes (from a buffer's position) as a segment. */
    private static MemorySegment segment(ByteBuffer[] bufs, MemorySegment[] segs, int i) {
        return bufs != null ? MemorySegment.ofBuffer(bufs[i]) : segs[i];
    }

    private static long address(ByteBuffer[] bufs, MemorySegment[] segs, int i) {
        return bufs != null ? (bufs[i].hasRemaining() ? MemorySegment.ofBuffer(bufs[i]).address() : 0)
                : segs[i].address();
    }

    // ---------------------------------------------------------------- asynchronous

    @Override
    CompletableFuture<Integer> startReadAsync(MemorySegment dst, long position) {
        return async(true, dst, position);
    }

    @Override
    CompletableFuture<Integer> startWriteAsync(MemorySegment src, long position) {
        return async(false, src, position);
    }

    private CompletableFuture<Integer> async(boolean read, MemorySegment mem, long position) {
        CompletableFuture<Integer> f = new CompletableFuture<>();
        try {
            checkAsync(read, mem, position);
            long len = Math.min(mem.byteSize(), MAX_TRANSFER);
            if (len == 0) {
                ensureOpen();
                f.complete(0);
                return f;
            }
            UringLane lane = pool.lane();
            int chunk = -1;
            long addr;
            int bufIndex = -1;
            MemorySegment copyTo = null;
            if (mem.isNative()) {
                checkDirect(mem.address(), len, position);
                addr = mem.address();
            } else {
                chunk = lane.takeChunk();
                if (chunk < 0) {
                    // No registered chunk free: do it as a blocking call on a virtual thread rather than fail.
                    return CompletableFuture.supplyAsync(() -> blockingAsync(read, mem, position),
                            r -> Thread.ofVirtual().start(r));
                }
                len = Math.min(len, UringLane.CHUNK);
                MemorySegment c = lane.chunk(chunk);
                if (!read) {
                    HeapCopies.copy(mem, 0, c, 0, len);
                } else {
                    copyTo = mem;
                }
                addr = c.address();
                bufIndex = 0;
            }
            byte op = read ? (bufIndex == 0 ? IORING_OP_READ_FIXED : IORING_OP_READ)
                    : (bufIndex == 0 ? IORING_OP_WRITE_FIXED : IORING_OP_WRITE);
            beginUse(false); // nothing waits for it, so an interrupt has nothing to stop
            try {
                lane.submitOne(op, slot >= 0 ? slot : fd, slot >= 0, addr, (int) len, position, 0, bufIndex, f, this,
                        mem, chunk, copyTo);
            } catch (IOException | RuntimeException e) {
                if (chunk >= 0) {
                    lane.giveChunk(chunk);
                }
                endUse();
                throw e;
            }
        } catch (IOException | RuntimeException e) {
            f.completeExceptionally(e);
        }
        return f;
    }

    private void checkAsync(boolean read, MemorySegment mem, long position) {
        checkPosition(position);
        if (read && mem.isReadOnly()) {
            throw new IllegalArgumentException("read-only destination segment");
        }
        if (!read && !isWritable()) {
            throw new java.nio.channels.NonWritableChannelException();
        }
    }

    private int blockingAsync(boolean read, MemorySegment mem, long position) {
        try {
            // Untimed: the asynchronous call's event covers it.
            return read ? readUntimed(mem, position) : writeUntimed(mem, position);
        } catch (IOException e) {
            throw new java.util.concurrent.CompletionException(e);
        }
    }

    // ---------------------------------------------------------------- batches: one submission per run of requests

    /**
     * What {@link #submit(IoBatch, int, int)} needs per request, kept in the batch and reused, so a warm batch call
     * allocates nothing: a batch is used by one thread at a time, and its capacity bounds every array. It is also
     * the batch's {@link UringLane.Prep}, filling entries from these arrays under the submit lock.
     */
    static final class BatchScratch implements UringLane.Prep {
        private final IoBatch batch;
        /** Per request (by batch index): the native address and length to transfer. */
        final long[] addrs;
        final int[] lens;
        /** The batch indexes going through the ring, in order, and the slot each got. */
        final int[] idx;
        final int[] slotOf;
        int fd;
        boolean fixed;

        BatchScratch(IoBatch batch) {
            int capacity = batch.capacity();
            this.batch = batch;
            addrs = new long[capacity];
            lens = new int[capacity];
            idx = new int[capacity];
            slotOf = new int[capacity];
        }

        @Override
        public void prep(Ring ring, long sqe, int k, int s, UringLane.Op op) {
            int i = idx[k];
            ring.prep(sqe, batch.isRead(i) ? IORING_OP_READ : IORING_OP_WRITE, fd, fixed, addrs[i], lens[i],
                    batch.position(i), s);
        }
    }

    @Override
    void submit(IoBatch batch, int from, int to) {
        UringLane lane = pool.lane();
        try {
            beginUse(true);
        } catch (ClosedChannelException e) {
            // closed, or ClosedByInterruptException: this thread's interrupt status is set
            for (int i = from; i < to; i++) {
                batch.record(i, Long.MIN_VALUE, e);
            }
            return;
        }
        try {
            BatchScratch sc = batch.uringScratch();
            long[] addrs = sc.addrs;
            int[] lens = sc.lens;
            int[] idx = sc.idx;
            int[] slotOf = sc.slotOf;
            sc.fd = slot >= 0 ? slot : fd;
            sc.fixed = slot >= 0;
            int queued = 0;
            for (int i = from; i < to; i++) {
                // Only native memory goes into the shared submission; heap memory runs one by one below.
                MemorySegment m = batch.nativeSegment(i);
                boolean read = batch.isRead(i);
                if (m != null && (read || isWritable()) && !(read && m.isReadOnly())) {
                    long len = Math.min(m.byteSize(), MAX_TRANSFER);
                    if (len > 0 && aligned(m.address(), len, batch.position(i))) {
                        addrs[i] = m.address();
                        lens[i] = (int) len;
                        idx[queued++] = i;
                    }
                }
            }
            // Submit as many as the ring takes, then collect the oldest; repeat. More requests than slots thus flow
            // through in waves instead of waiting for slots that only our own collecting would free. Whatever stops
            // the submitting (an interrupt, the file closed), every request submitted is still collected: the kernel
            // writes its memory until it completes.
            int submitted = 0;
            int collected = 0;
            IOException stop = null;
            while (collected < queued) {
                if (submitted < queued && stop == null) {
                    if (Thread.currentThread().isInterrupted()) {
                        stop = new ClosedByInterruptException();
                    } else {
                        try {
                            submitted += lane.trySubmit(queued - submitted, 1, sc, slotOf, submitted, this);
                        } catch (IOException e) {
                            stop = e;
                        }
                    }
                }
                if (collected < submitted) {
                    int i = idx[collected];
                    int res = lane.await(slotOf[collected], true);
                    collected++;
                    boolean read = batch.isRead(i);
                    long pos = batch.position(i);
                    if (res < 0) {
                        batch.record(i, Long.MIN_VALUE,
                                completionFailure(read ? IORING_OP_READ : IORING_OP_WRITE, pos, lens[i], res, true));
                    } else {
                        batch.record(i, read && res == 0 ? -1 : res, null);
                        batch.advance(i, res);
                    }
                } else if (stop != null) {
                    break;
                } else {
                    lane.backOff(); // every slot is held by other threads' requests
                }
            }
            for (int k = collected; k < queued; k++) {
                batch.record(idx[k], Long.MIN_VALUE, stop); // never submitted
            }
            // The rest (heap memory, misaligned O_DIRECT, empty, refused) one by one, as the single calls answer them.
            int q = 0;
            for (int i = from; i < to; i++) {
                if (q < queued && idx[q] == i) {
                    q++;
                } else {
                    batch.runOne(i);
                }
            }
        } finally {
            endUse();
        }
    }

    /** Whether an O_DIRECT transfer may go as it is (always, without O_DIRECT); {@link #checkDirect} explains. */
    private boolean aligned(long address, long length, long position) {
        return align == 0 || ((address | length | position) & (align - 1)) == 0;
    }

    // ---------------------------------------------------------------- the rest

    /**
     * The size as {@code FileChannel.size()} gives it: a block device's capacity, otherwise the file's {@code st_size}
     * (an lseek to the end would answer Long.MAX_VALUE for an ext4 directory, ESPIPE for a FIFO).
     */
    @Override
    public long size() throws IOException {
        beginUse(true);
        try {
            long s = Native.fileSize(fd);
            if (s < 0) {
                throw new IOException("size(path=" + path() + "): " + Errno.describe((int) s));
            }
            return s;
        } finally {
            endUse();
        }
    }

    @Override
    void truncateFile(long size) throws IOException {
        beginUse(true);
        try {
            if (size < Native.size(fd)) {
                int rc = Native.ftruncate(fd, size);
                if (rc < 0) {
                    throw new IOException("ftruncate(path=" + path() + ", len=" + size + "): " + Errno.describe(rc));
                }
            }
        } finally {
            endUse();
        }
    }

    @Override
    public void force(boolean metadata) throws IOException {
        beginUse(true);
        try {
            int opFlags = metadata ? 0 : IORING_FSYNC_DATASYNC;
            if (ctl == pool) {
                io(pool.lane(), IORING_OP_FSYNC, 0, 0, 0, opFlags, -1);
            } else {
                // IOPOLL rings refuse fsync: it goes through the default rings, by descriptor (not registered there).
                UringLane lane = ctl.lane();
                int rc = lane.await(lane.submitOne(IORING_OP_FSYNC, fd, false, 0, 0, 0, opFlags, -1, null, this, null,
                        -1, null), true);
                if (rc < 0) {
                    throw completionFailure(IORING_OP_FSYNC, 0, 0, rc, true);
                }
            }
        } finally {
            endUse();
        }
    }

    /**
     * Marks the file closed, so no new call begins; cancels the requests in flight and waits for the calls in
     * progress to end (a descriptor number must not be reused while a request may name it); then releases the
     * descriptor. See the class comment for what happens when calls do not end.
     */
    @Override
    boolean closeFile() throws IOException {
        for (;;) {
            int u = users.get();
            if ((u & CLOSED) != 0) {
                return false;
            }
            closer = Thread.currentThread();
            if (users.compareAndSet(u, u | CLOSED)) {
                break;
            }
        }
        if (users.get() != CLOSED) {
            awaitCalls();
            if (users.get() != CLOSED) {
                releaseOnLastUse = true;
                // Read after the flag is set, as endUse reads the flag after its count: either the last call sees the
                // flag, or this sees the count at zero (then both may try; release runs once).
                int left = users.get() & ~CLOSED;
                if (left > 0) {
                    throw new IOException("io_uring close(path=" + path() + "): " + left
                            + (left == 1 ? " call" : " calls") + " still in progress "
                            + TimeUnit.NANOSECONDS.toMillis(closeWaitNanos) + " ms after their requests were cancelled;"
                            + " the file is closed to new calls, and its descriptor is closed when the last one ends");
                }
            }
        }
        release();
        return true;
    }

    /**
     * Cancels this file's requests and waits, up to {@link #closeWaitNanos}, for the calls in progress to end; asks
     * again now and then, since a request caught between two states (being handed to a kernel worker, or arming its
     * poll) may have been missed. It delivers ready completions itself: asynchronous requests are completed by a
     * lane's reaper, and the closer may be that reaper, running a completion callback that closes the file. Interrupts
     * do not shorten the wait; the status is kept.
     */
    private void awaitCalls() {
        long start = System.nanoTime();
        long bound = closeWaitNanos;
        long asked = start;
        boolean interrupted = false;
        cancelRequests();
        pool.drainReady(); // a cancelled poll usually completes within the cancellation's own system call
        while (users.get() != CLOSED) {
            long now = System.nanoTime();
            if (now - start >= bound) {
                break;
            }
            if (now - asked >= RECANCEL_NANOS) {
                cancelRequests();
                asked = now;
            }
            if (Thread.interrupted()) {
                interrupted = true; // parkNanos would not wait while the status is set
            }
            LockSupport.parkNanos(this, Math.min(RECANCEL_NANOS, bound - (now - start))); // endUse unparks us
            pool.drainReady();
            if (ctl != pool) {
                ctl.drainReady();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void cancelRequests() {
        pool.cancel(this);
        if (ctl != pool) {
            ctl.cancel(this);
        }
    }

    /** Unregisters and closes the descriptor, through the ring, unless that was done already. */
    private void release() throws IOException {
        if (!released.compareAndSet(false, true)) {
            return;
        }
        IOException failure = null;
        if (slot >= 0) {
            try {
                pool.unregister(slot);
            } catch (IOException e) {
                failure = e;
            }
        }
        UringLane lane = ctl.lane();
        int rc = lane.await(lane.submitOne(IORING_OP_CLOSE, fd, false, 0, 0, 0, 0, -1, null, null, null, -1, null));
        if (rc < 0) {
            IOException e = new IOException("io_uring close(path=" + path() + "): " + Errno.describe(rc));
            if (failure != null) {
                e.addSuppressed(failure);
            }
            throw e;
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * {@link #release} by the call that ended last after close stopped waiting for it. That may be a lane's reaper
     * completing an asynchronous request, which must not wait on a ring, so the descriptor is closed with close(2);
     * and there is nobody to throw to, so a failure is printed.
     */
    private void releaseLate() {
        if (!released.compareAndSet(false, true)) {
            return;
        }
        try {
            if (slot >= 0) {
                pool.unregister(slot);
            }
        } catch (IOException | RuntimeException e) {
            System.err.println("sluice: closing " + path() + " late: " + e.getMessage());
        }
        int rc = Native.close(fd);
        if (rc < 0) {
            System.err.println("sluice: closing " + path() + " late: close: " + Errno.describe(rc));
        }
    }

    /** For tests: how long close waits for calls in progress after cancelling their requests. */
    void closeWait(long nanos) {
        closeWaitNanos = nanos;
    }

    /** For tests: the descriptor. */
    int fd() {
        return fd;
    }

    /** For tests: the rings this file's reads and writes go through. */
    UringPool pool() {
        return pool;
    }

    /** For tests: the descriptor's registered slot, or -1. */
    int registeredSlot() {
        return slot;
    }
}
