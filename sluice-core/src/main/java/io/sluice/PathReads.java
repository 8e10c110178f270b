package io.sluice;

import static io.sluice.internal.uring.Uapi.IORING_OP_CLOSE;
import static io.sluice.internal.uring.Uapi.IORING_OP_OPENAT;
import static io.sluice.internal.uring.Uapi.IORING_OP_READ;
import static io.sluice.internal.uring.Uapi.IOSQE_IO_HARDLINK;
import static io.sluice.internal.uring.Uapi.IOSQE_IO_LINK;

import io.sluice.internal.Errno;
import io.sluice.internal.FileKinds;
import io.sluice.internal.Native;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Objects;

/**
 * Many one-off reads, each naming its file by path: every request opens its file, reads once at a position, and
 * closes it. This is the shape of serving many small files (a static file server, a build reading sources, an index
 * probing segment files), where opening and closing cost as much as the read.
 *
 * <h2>How it runs</h2>
 * On {@link Engine#IO_URING} each request is one linked chain of three ring entries, and many chains go to the
 * kernel in one system call:
 * <ol>
 *   <li>{@code OPENAT} straight into a <em>direct descriptor</em>, a slot of the ring's registered-file table, so no
 *       normal file descriptor is ever created (none counts against {@code ulimit -n}, no descriptor table lock);</li>
 *   <li>{@code READ} from that slot as a fixed file;</li>
 *   <li>{@code CLOSE} of the slot.</li>
 * </ol>
 * A failed open cancels its read and close (the file was never installed); a failed or short read still closes, so
 * a slot is never left holding a file. Each ring keeps its own range of slots for this, one per request slot of the
 * ring, so no request waits for a descriptor and nothing needs to be given back. {@link #method()} says which way the
 * last {@link #submit} ran.
 *
 * <p>Elsewhere (another engine asked for, io_uring unavailable, a kernel whose {@code OPENAT} refuses direct
 * descriptors with {@code EINVAL}, as before Linux 5.15, or a batch naming a path of another file system, such as a
 * zip file system) each request is {@link FileChannel#open},
 * {@link FileChannel#read(ByteBuffer, long)}, close: the same results through the JDK.
 *
 * <h2>Results</h2>
 * A request has the meaning of one positional read: the bytes read, possibly fewer than asked when the file ends
 * first (a short count, not an error), and -1 when the position is at or past the end. At most 1 GiB is read per
 * request. A {@link ByteBuffer}'s position advances by the bytes read. A failure is an {@link IOException} naming the
 * path, the position and the cause: {@link NoSuchFileException} and {@link AccessDeniedException} for opens that
 * fail so, another {@link FileSystemException} for other failed opens (with the errno on io_uring), a plain
 * {@code IOException} for a failed read (a directory: {@code EISDIR}). A path that is neither a regular file nor a
 * block device (a FIFO, a socket, a character device) is refused before it is opened, as {@link PositionalFile#open}
 * refuses it, with a {@link FileSystemException} naming its kind: opening a FIFO would wait for a writer. That look
 * is one {@code stat} per request, which costs io_uring's batched open-read-close about a third of its rate on a VM
 * whose system calls are dear (docs/benchmarks/2026-11-25-pathreads-kind-check.md). A failed request does not stop
 * the others.
 *
 * <h2>Threads and memory</h2>
 * One instance is filled and submitted by one thread; many threads, platform or virtual, may each submit their own
 * at once. {@code submit} blocks until every request is done; a virtual thread parks rather than pinning its carrier
 * in the kernel. On io_uring an interrupt does not end {@code submit} early: the kernel writes a request's memory
 * until it completes, so every request is waited for (parked, not spinning), and the interrupt status is kept. Through
 * {@link FileChannel}, a request run while the status is set fails, caused by {@code ClosedByInterruptException}.
 * Destinations may be native or heap memory; heap memory is read into native memory first and copied,
 * so native destinations (direct buffers, native segments) are the fast path. The caller keeps destinations alive
 * until {@code submit} returns.
 *
 * {@snippet :
 * PathReads reads = PathReads.create(files.size());
 * for (Path p : files) {
 *     reads.read(p, 0, arena.allocate(4096));
 * }
 * reads.submit();
 * for (int i = 0; i < reads.size(); i++) {
 *     if (reads.error(i) != null) { ... } else { long n = reads.result(i); }
 * }
 * reads.clear();
 * }
 */
public final class PathReads {
    /** Which way a {@link #submit} ran. */
    public enum Method {
        /** io_uring: OPENAT into a direct descriptor, READ, CLOSE, linked, many per system call. */
        IO_URING_DIRECT,
        /** The JDK: {@link FileChannel} open, positional read, close, one request after another. */
        FILE_CHANNEL
    }

    /** One request reads at most this much, as {@link PositionalFile} caps a single transfer. */
    static final int MAX_TRANSFER = 1 << 30;
    /** Ring entries per request: OPENAT, READ, CLOSE. */
    private static final int CHAIN = 3;

    /** Why direct descriptors were found not to work on this kernel, or null. */
    private static volatile String kernelRefusal;
    /**
     * The rings, once found to work: kept here so a submit does not take the pool's lock (three times) to learn
     * what cannot change, which many threads submitting small batches would otherwise contend for.
     */
    private static volatile UringPool rings;

    /** Whether a request whose path is not a regular file or block device is refused before its open. */
    private final boolean checkKinds;
    private final Path[] paths;
    private final Object[] memory;
    private final long[] positions;
    private final long[] results;
    private final IOException[] errors;
    private int size;
    private int submitted;
    private Method method;
    /**
     * Native memory of the io_uring path, kept from one submit to the next so that a small batch costs no allocation:
     * by window position (a chain in flight), the path as a C string and a bounce buffer for heap destinations.
     * Freed by the garbage collector with this object.
     */
    private final Arena scratch = Arena.ofAuto();
    private MemorySegment[] names = new MemorySegment[0];
    private MemorySegment[] bounce = new MemorySegment[0];
    private long[] addr = new long[0];
    private int[] len = new int[0];
    private int[] direct = new int[0];
    private int[] slotOf = new int[0];

    private PathReads(int capacity, boolean checkKinds) {
        this.checkKinds = checkKinds;
        paths = new Path[capacity];
        memory = new Object[capacity];
        positions = new long[capacity];
        results = new long[capacity];
        errors = new IOException[capacity];
    }

    /**
     * Room for up to {@code capacity} requests.
     *
     * @throws IllegalArgumentException if {@code capacity} is not positive
     */
    public static PathReads create(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        return new PathReads(capacity, true);
    }

    /**
     * {@link #create} without the look at each path's kind, as {@link UringFile#open} is {@link PositionalFile#open}
     * without it: for tests that need a request that waits until they end it, a read of a FIFO they feed.
     */
    static PathReads createWithoutKindCheck(int capacity) {
        return new PathReads(capacity, false);
    }

    /**
     * Why {@link #submit()} cannot use io_uring direct descriptors here, or null when it can: io_uring's own
     * {@linkplain Engine#unavailabilityCause() cause}, or the kernel's refusal seen by an earlier submit.
     */
    public static String directUnavailabilityCause() {
        String why = Engine.IO_URING.unavailabilityCause().orElse(null);
        return why != null ? why : kernelRefusal;
    }

    /** How many requests this instance can hold. */
    public int capacity() {
        return paths.length;
    }

    /** How many requests were added since the last {@link #clear()}. */
    public int size() {
        return size;
    }

    /** Adds a read of {@code path} at {@code position} into {@code dst}, up to its size; returns the request's index. */
    public int read(Path path, long position, MemorySegment dst) {
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("read-only destination segment");
        }
        return add(path, position, dst);
    }

    /**
     * Adds a read of {@code path} at {@code position} into {@code dst}, from its position to its limit; returns the
     * request's index. The buffer's position advances by the bytes read.
     */
    public int read(Path path, long position, ByteBuffer dst) {
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("read-only destination buffer");
        }
        return add(path, position, dst);
    }

    private int add(Path path, long position, Object dst) {
        Objects.requireNonNull(path, "path");
        PositionalFile.checkPosition(position);
        if (submitted > 0) {
            throw new IllegalStateException("already submitted: clear() before adding requests");
        }
        if (size == paths.length) {
            throw new IllegalStateException("full (" + paths.length + " requests)");
        }
        int i = size++;
        paths[i] = path;
        memory[i] = dst;
        positions[i] = position;
        return i;
    }

    /**
     * Runs the requests added since the last {@link #clear()} with io_uring direct descriptors where they work here,
     * through {@link FileChannel} otherwise; {@link #method()} says which.
     *
     * @return how many requests failed
     */
    public int submit() {
        return submit(Engine.IO_URING);
    }

    /**
     * Runs the requests added since the last {@link #clear()}: with io_uring direct descriptors when {@code engine}
     * is {@link Engine#IO_URING} and they work here, through {@link FileChannel} otherwise. Each request ends with a
     * {@link #result} or an {@link #error}; this method does not throw for a failed request. Submitting again before
     * {@code clear()} does nothing.
     *
     * @return how many requests failed
     */
    public int submit(Engine engine) {
        Objects.requireNonNull(engine, "engine");
        int from = submitted;
        boolean direct = engine == Engine.IO_URING && (rings != null ? kernelRefusal == null
                : directUnavailabilityCause() == null) && allOnDefaultFileSystem(from);
        method = direct ? Method.IO_URING_DIRECT : Method.FILE_CHANNEL;
        // Requests refused by their file's kind are left out: each run between them goes as one batch.
        int runFrom = from;
        for (int i = from; i <= size; i++) {
            if (i == size || refuseNonRegular(i)) {
                if (runFrom < i) {
                    run(direct, runFrom, i);
                }
                runFrom = i + 1;
            }
        }
        submitted = size;
        int failed = 0;
        for (int k = from; k < size; k++) {
            if (errors[k] != null) {
                failed++;
            }
        }
        return failed;
    }

    private void run(boolean direct, int from, int to) {
        if (direct && method == Method.IO_URING_DIRECT) {
            try {
                UringPool pool = rings;
                if (pool == null) {
                    rings = pool = UringPool.get();
                }
                if (pool.lane().slots() < CHAIN) {
                    throw new IOException("a lane too small for a chain"); // not with the pool's sizes
                }
                runDirect(pool, from, to);
            } catch (IOException e) {
                // The pool could not start, or cannot hold a chain: nothing was submitted.
                method = Method.FILE_CHANNEL;
                runChannel(from, to);
            }
        } else {
            runChannel(from, to);
        }
    }

    /**
     * Fails request {@code i} when its path is neither a regular file nor a block device, as every engine refuses
     * such a path at open: opening a FIFO for reading waits for a writer, on io_uring as through the JDK, and a
     * FIFO, socket or character device has no positions. One {@code stat} per request, before any open.
     */
    private boolean refuseNonRegular(int i) {
        if (!checkKinds) {
            return false;
        }
        int type = FileKinds.type(paths[i], false);
        String kind = FileKinds.nonPositional(type, true);
        if (kind == null || kind.equals("is a directory")) {
            return false; // a directory opens, and its read fails with EISDIR, as documented
        }
        int len = (int) Math.min(destination(i).byteSize(), MAX_TRANSFER);
        record(i, Long.MIN_VALUE, new FileSystemException(paths[i].toString(), null, "open to read at pos="
                + positions[i] + ", len=" + len + ": " + kind + "; a read at a position needs a regular file or a "
                + "block device"));
        return true;
    }

    /** Whether every request from {@code from} names a path of the operating system's file system. */
    private boolean allOnDefaultFileSystem(int from) {
        FileSystem fs = FileSystems.getDefault();
        for (int i = from; i < size; i++) {
            if (paths[i].getFileSystem() != fs) {
                return false; // a zip file system, say: only its provider can open it
            }
        }
        return true;
    }

    /**
     * How the last {@link #submit} ran, or null before the first. {@link Method#FILE_CHANNEL} also when the kernel
     * refused direct descriptors during that submit and the requests were run again through the JDK.
     */
    public Method method() {
        return method;
    }

    /**
     * Request {@code i}'s outcome: the bytes read, or -1 when its position was at or past the end of the file.
     *
     * @throws IllegalStateException if the request has not been submitted, or failed (see {@link #error})
     */
    public long result(int i) {
        return Outcomes.result(results, errors, size, submitted, i);
    }

    /** Request {@code i}'s failure, or null if it succeeded. */
    public IOException error(int i) {
        return Outcomes.error(errors, size, submitted, i);
    }

    /**
     * Throws if any submitted request failed: its failure when only one did, otherwise an {@link IOException} saying
     * how many, caused by the first, with the others attached as suppressed.
     */
    public void throwIfFailed() throws IOException {
        Outcomes.throwIfFailed(errors, submitted, "reads");
    }

    /** Empties this instance for reuse, dropping its references to paths and memory. */
    public void clear() {
        Arrays.fill(paths, 0, size, null);
        Arrays.fill(memory, 0, size, null);
        Arrays.fill(errors, 0, size, null);
        size = 0;
        submitted = 0;
    }


    // ---------------------------------------------------------------- io_uring: linked chains, direct descriptors

    /**
     * Submits chains while there is room, collects the oldest, repeats. A chain's direct descriptor is the table slot
     * owned by its OPENAT's request slot; the OPENAT's completion is collected last, after the CLOSE's, so that
     * request slot (and with it the table slot) is not handed to another chain before the file left it.
     */
    private void runDirect(UringPool pool, int from, int to) {
        UringLane lane = pool.lane();
        int n = to - from;
        // Chains this call may have in flight; their per-chain memory is reused by window position.
        int window = Math.max(1, Math.min(n, lane.slots() / CHAIN));
        if (names.length < window) {
            names = Arrays.copyOf(names, window);
            bounce = Arrays.copyOf(bounce, window);
            addr = new long[window];
            len = new int[window];
            direct = new int[window];
        }
        if (slotOf.length < CHAIN * n) {
            slotOf = new int[CHAIN * Math.max(n, paths.length)];
        }
        Arena arena = scratch;
        MemorySegment[] names = this.names;
        MemorySegment[] bounce = this.bounce;
        long[] addr = this.addr;
        int[] len = this.len;
        int[] direct = this.direct;
        int[] slotOf = this.slotOf;
        UringLane.Prep prep = (ring, sqe, k, slot, op) -> {
            int c = k / CHAIN;
            int w = c % window;
            switch (k % CHAIN) {
                case 0 -> {
                    direct[w] = UringPool.directSlot(slot);
                    ring.prep(sqe, IORING_OP_OPENAT, Native.AT_FDCWD, false, names[w].address(), 0, 0, slot);
                    ring.opFlags(sqe, Native.O_RDONLY); // O_CLOEXEC is refused with a direct slot: none exists
                    ring.fileIndex(sqe, direct[w] + 1);
                    ring.addFlags(sqe, IOSQE_IO_LINK);
                }
                case 1 -> {
                    ring.prep(sqe, IORING_OP_READ, direct[w], true, addr[w], len[w], positions[from + c], slot);
                    // Hard link: a failed or short read (end of file) must not cancel the close.
                    ring.addFlags(sqe, IOSQE_IO_HARDLINK);
                }
                default -> {
                    ring.prep(sqe, IORING_OP_CLOSE, 0, false, 0, 0, 0, slot);
                    ring.fileIndex(sqe, direct[w] + 1);
                }
            }
        };
        int prepared = 0;
        int submittedChains = 0;
        int collected = 0;
        IOException broken = null;
        try {
            while (collected < n) {
                if (submittedChains < n && submittedChains - collected < window) {
                    int upTo = Math.min(n, collected + window);
                    for (; prepared < upTo; prepared++) {
                        int w = prepared % window;
                        int i = from + prepared;
                        names[w] = cString(arena, names[w], paths[i]);
                        MemorySegment dst = destination(i);
                        int l = (int) Math.min(dst.byteSize(), MAX_TRANSFER);
                        len[w] = l;
                        if (dst.isNative()) {
                            addr[w] = dst.address();
                        } else {
                            if (bounce[w] == null || bounce[w].byteSize() < l) {
                                bounce[w] = arena.allocate(Math.max(l, 4096), 4096);
                            }
                            addr[w] = bounce[w].address();
                        }
                    }
                    int got = lane.trySubmit(CHAIN * (upTo - submittedChains), CHAIN, prep, slotOf,
                            CHAIN * submittedChains);
                    submittedChains += got / CHAIN;
                }
                if (collected < submittedChains) {
                    int c = collected++;
                    int closeRes = lane.await(slotOf[CHAIN * c + 2]);
                    int readRes = lane.await(slotOf[CHAIN * c + 1]);
                    int openRes = lane.await(slotOf[CHAIN * c]);
                    int w = c % window;
                    finish(from + c, openRes, readRes, closeRes, len[w], bounce[w]);
                } else {
                    lane.backOff(); // every request slot is held by other threads
                }
            }
        } catch (IOException e) {
            broken = e; // the lane was closed under us
        } finally {
            // Whatever happens, chains in flight are waited for: the kernel writes their memory until they end.
            while (collected < submittedChains) {
                int c = collected++;
                lane.await(slotOf[CHAIN * c + 2]);
                lane.await(slotOf[CHAIN * c + 1]);
                lane.await(slotOf[CHAIN * c]);
                record(from + c, Long.MIN_VALUE, broken != null ? broken : new IOException("read(path="
                        + paths[from + c] + ", pos=" + positions[from + c] + "): interrupted by a failure"));
            }
        }
        if (broken != null) {
            for (int c = submittedChains; c < n; c++) {
                record(from + c, Long.MIN_VALUE, broken);
            }
        }
    }

    /** Records request {@code i}'s outcome from its three completions. */
    private void finish(int i, int openRes, int readRes, int closeRes, int len, MemorySegment bounce) {
        Path path = paths[i];
        long pos = positions[i];
        if (openRes == -Errno.EINVAL || (openRes >= 0 && readRes == -Errno.EINVAL)) {
            if (openRes == -Errno.EINVAL) {
                // A kernel without direct-descriptor OPENAT (before 5.15) refuses the file_index field.
                kernelRefusal = "the kernel refused OPENAT into a direct descriptor (EINVAL): Linux 5.15+ is needed";
                method = Method.FILE_CHANNEL;
            }
            // A read refused as a whole (an offset past what the kernel accepts) gets the JDK's answer.
            runChannel(i, i + 1);
            return;
        }
        if (openRes < 0) {
            record(i, Long.MIN_VALUE, openFailure(path, pos, len, Errno.describe(openRes), -openRes));
            return;
        }
        if (readRes < 0) {
            record(i, Long.MIN_VALUE, new IOException("io_uring read(path=" + path + ", pos=" + pos + ", len=" + len
                    + "): " + Errno.describe(readRes)));
            return;
        }
        if (closeRes < 0) {
            record(i, Long.MIN_VALUE, new IOException("io_uring close(path=" + path + ", direct descriptor) after "
                    + readRes + " bytes read at pos=" + pos + ": " + Errno.describe(closeRes)));
            return;
        }
        if (bounce != null && readRes > 0 && !destination(i).isNative()) {
            HeapCopies.copy(bounce, 0, destination(i), 0, readRes);
        }
        if (readRes > 0 && memory[i] instanceof ByteBuffer b) {
            b.position(b.position() + readRes);
        }
        record(i, readRes == 0 && len > 0 ? -1 : readRes, null);
    }

    /** Request {@code i}'s destination as a segment (a buffer from its position to its limit). */
    private MemorySegment destination(int i) {
        return switch (memory[i]) {
            case MemorySegment s -> s;
            case ByteBuffer b -> MemorySegment.ofBuffer(b);
            default -> throw new AssertionError(memory[i]);
        };
    }

    /** {@code path} as a NUL-terminated string, in {@code reuse} when it fits. */
    private static MemorySegment cString(Arena arena, MemorySegment reuse, Path path) {
        byte[] bytes = path.toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8);
        MemorySegment s = reuse != null && reuse.byteSize() > bytes.length ? reuse
                : arena.allocate(Math.max(bytes.length + 1, 256));
        MemorySegment.copy(bytes, 0, s, ValueLayout.JAVA_BYTE, 0, bytes.length);
        s.set(ValueLayout.JAVA_BYTE, bytes.length, (byte) 0);
        return s;
    }

    /** A failed open as the JDK's exception for its cause, naming path, position, length and cause. */
    private static IOException openFailure(Path path, long pos, long len, String cause, int errno) {
        String file = path.toString();
        String reason = "open to read at pos=" + pos + ", len=" + len + ": " + cause;
        return switch (errno) {
            case Errno.ENOENT -> new NoSuchFileException(file, null, reason);
            case Errno.EACCES, Errno.EPERM -> new AccessDeniedException(file, null, reason);
            default -> new FileSystemException(file, null, reason);
        };
    }

    private void record(int i, long result, IOException error) {
        results[i] = result;
        errors[i] = error;
    }

    // ---------------------------------------------------------------- the JDK: FileChannel open, read, close

    private void runChannel(int from, int to) {
        for (int i = from; i < to; i++) {
            Path path = paths[i];
            long pos = positions[i];
            MemorySegment dst = destination(i);
            int len = (int) Math.min(dst.byteSize(), MAX_TRANSFER);
            FileChannel ch;
            try {
                ch = FileChannel.open(path, StandardOpenOption.READ);
            } catch (NoSuchFileException e) {
                record(i, Long.MIN_VALUE, openFailure(path, pos, len, "no such file", Errno.ENOENT));
                continue;
            } catch (AccessDeniedException e) {
                record(i, Long.MIN_VALUE, openFailure(path, pos, len, "access denied", Errno.EACCES));
                continue;
            } catch (FileSystemException e) {
                record(i, Long.MIN_VALUE, openFailure(path, pos, len, String.valueOf(e.getReason()), 0));
                continue;
            } catch (IOException | RuntimeException e) {
                record(i, Long.MIN_VALUE, new FileSystemException(path.toString(), null,
                        "open to read at pos=" + pos + ", len=" + len + ": " + e));
                continue;
            }
            try (ch) {
                int n;
                if (memory[i] instanceof ByteBuffer b && b.remaining() <= MAX_TRANSFER) {
                    n = ch.read(b, pos); // advances the buffer's position itself
                } else {
                    ByteBuffer view = dst.asSlice(0, len).asByteBuffer();
                    n = ch.read(view, pos);
                    if (n > 0 && memory[i] instanceof ByteBuffer b) {
                        b.position(b.position() + n);
                    }
                }
                record(i, n < 0 || (n == 0 && len > 0) ? -1 : n, null);
            } catch (IOException e) {
                record(i, Long.MIN_VALUE, new IOException("read(path=" + path + ", pos=" + pos + ", len=" + len + "): "
                        + e.getMessage(), e));
            }
        }
    }
}
