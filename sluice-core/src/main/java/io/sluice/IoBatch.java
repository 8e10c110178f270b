package io.sluice;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * Many reads and writes handed over at once, each completing on its own with a result or an error.
 *
 * <p>Why batches are part of the core: an engine with a submission queue (io_uring) can pass a whole batch to the
 * kernel in one system call, and that is where it wins; the synchronous engines run the requests one after another,
 * in order. Either way the caller's code is the same.
 *
 * <p>A batch is a fixed set of reusable request slots, stored in parallel arrays, so adding a request allocates
 * nothing. The cycle is: add requests ({@link #read}, {@link #write}), {@link #submit()}, inspect each slot's
 * {@link #result} or {@link #error}, then {@link #clear()} and reuse. Requests may name different files.
 *
 * <p>A request has the meaning of the single call it mirrors: a read returns the bytes read, possibly fewer than
 * asked, or -1 at end of file; buffer positions advance as with {@link PositionalFile#read(ByteBuffer, long)}.
 * A failed request does not stop the others.
 *
 * <p>The requests of one batch may run concurrently and complete in any order (io_uring does so; the synchronous
 * engines happen to run them in order). A read of bytes that another request of the same batch writes, or two writes
 * to overlapping bytes, therefore have no defined outcome: put requests that depend on each other in separate
 * batches.
 *
 * <p>Not thread-safe: one thread fills and submits a batch; use one batch per thread.
 *
 * {@snippet :
 * IoBatch batch = IoBatch.create(64);
 * for (int i = 0; i < 64; i++) {
 *     batch.read(file, buffers[i], offsets[i]);
 * }
 * batch.submit();
 * for (int i = 0; i < batch.size(); i++) {
 *     if (batch.error(i) != null) { ... } else { long n = batch.result(i); }
 * }
 * batch.clear();
 * }
 */
public final class IoBatch {
    private static final byte READ = 0;
    private static final byte WRITE = 1;

    private final PositionalFile[] files;
    private final Object[] memory;
    private final long[] positions;
    private final byte[] ops;
    private final long[] results;
    private final IOException[] errors;
    private int size;
    private int submitted;
    /** The io_uring engine's reusable per-request scratch, made on first use (see UringFile.BatchScratch). */
    private UringFile.BatchScratch uringScratch;

    private IoBatch(int capacity) {
        files = new PositionalFile[capacity];
        memory = new Object[capacity];
        positions = new long[capacity];
        ops = new byte[capacity];
        results = new long[capacity];
        errors = new IOException[capacity];
    }

    /**
     * A batch of up to {@code capacity} requests.
     *
     * @throws IllegalArgumentException if {@code capacity} is not positive
     */
    public static IoBatch create(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        return new IoBatch(capacity);
    }

    /** How many requests this batch can hold. */
    public int capacity() {
        return files.length;
    }

    /** How many requests were added since the last {@link #clear()}. */
    public int size() {
        return size;
    }

    /** Adds a read of up to {@code dst.byteSize()} bytes at {@code position}; returns its slot. */
    public int read(PositionalFile file, MemorySegment dst, long position) {
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("read-only destination segment");
        }
        return add(READ, file, dst, position);
    }

    /** Adds a read into {@code dst} from its position to its limit at {@code position}; returns its slot. */
    public int read(PositionalFile file, ByteBuffer dst, long position) {
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("read-only destination buffer");
        }
        return add(READ, file, dst, position);
    }

    /** Adds a write of {@code src} at {@code position}; returns its slot. */
    public int write(PositionalFile file, MemorySegment src, long position) {
        return add(WRITE, file, src, position);
    }

    /** Adds a write of {@code src} from its position to its limit at {@code position}; returns its slot. */
    public int write(PositionalFile file, ByteBuffer src, long position) {
        return add(WRITE, file, src, position);
    }

    private int add(byte op, PositionalFile file, Object mem, long position) {
        Objects.requireNonNull(file, "file");
        PositionalFile.checkPosition(position);
        if (submitted > 0) {
            throw new IllegalStateException("batch already submitted: clear() it before adding requests");
        }
        if (size == files.length) {
            throw new IllegalStateException("batch is full (" + files.length + " requests)");
        }
        int i = size++;
        files[i] = file;
        memory[i] = mem;
        positions[i] = position;
        ops[i] = op;
        return i;
    }

    /**
     * Runs every request added since the last {@link #clear()}. Each ends with a {@link #result} or an
     * {@link #error}; this method itself does not throw for a failed request. Submitting again before
     * {@code clear()} does nothing.
     *
     * @return how many requests failed
     */
    public int submit() {
        int from = submitted;
        // Hand each engine its run of consecutive requests on one file, so a queueing engine submits them together.
        int i = from;
        while (i < size) {
            int j = i + 1;
            while (j < size && files[j] == files[i]) {
                j++;
            }
            files[i].submit(this, i, j);
            i = j;
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

    /** Runs request {@code i} synchronously and records its outcome (used by synchronous engines). */
    void runOne(int i) {
        PositionalFile f = files[i];
        long pos = positions[i];
        try {
            results[i] = switch (memory[i]) {
                case MemorySegment s when ops[i] == READ -> f.read(s, pos);
                case MemorySegment s -> f.write(s, pos);
                case ByteBuffer b when ops[i] == READ -> f.read(b, pos);
                case ByteBuffer b -> f.write(b, pos);
                default -> throw new AssertionError(memory[i]);
            };
            errors[i] = null;
        } catch (IOException e) {
            results[i] = Long.MIN_VALUE;
            errors[i] = e;
        } catch (RuntimeException e) {
            // e.g. NonWritableChannelException: recorded for this request, like an I/O error, so others go on.
            results[i] = Long.MIN_VALUE;
            errors[i] = new IOException((ops[i] == READ ? "read" : "write") + "(path=" + f.path() + ", pos=" + pos
                    + "): " + e, e);
        }
    }

    // ---------------------------------------------------------------- for engines that submit a batch themselves

    UringFile.BatchScratch uringScratch() {
        UringFile.BatchScratch s = uringScratch;
        if (s == null) {
            uringScratch = s = new UringFile.BatchScratch(this);
        }
        return s;
    }

    boolean isRead(int i) {
        return ops[i] == READ;
    }

    long position(int i) {
        return positions[i];
    }

    /** Request {@code i}'s memory as a native segment (a direct buffer from its position to its limit), or null. */
    MemorySegment nativeSegment(int i) {
        return switch (memory[i]) {
            case MemorySegment s when s.isNative() -> s;
            case ByteBuffer b when b.isDirect() -> MemorySegment.ofBuffer(b);
            default -> null;
        };
    }

    /** Records request {@code i}'s outcome. */
    void record(int i, long result, IOException error) {
        results[i] = result;
        errors[i] = error;
    }

    /** Advances a buffer's position by the bytes request {@code i} transferred. */
    void advance(int i, int n) {
        if (n > 0 && memory[i] instanceof ByteBuffer b) {
            b.position(b.position() + n);
        }
    }

    /**
     * The outcome of request {@code slot}: bytes transferred, or -1 for a read at end of file.
     *
     * @throws IllegalStateException if the request has not been submitted, or failed (see {@link #error})
     */
    public long result(int slot) {
        return Outcomes.result(results, errors, size, submitted, slot);
    }

    /** The failure of request {@code slot}, or null if it succeeded. */
    public IOException error(int slot) {
        return Outcomes.error(errors, size, submitted, slot);
    }

    /**
     * Throws if any submitted request failed: the failure itself when only one did, otherwise a new
     * {@link IOException} saying how many failed, caused by the first, with the others attached as suppressed.
     * The stored exceptions are not modified, so calling this twice throws the same story twice.
     */
    public void throwIfFailed() throws IOException {
        Outcomes.throwIfFailed(errors, submitted, "requests");
    }

    /** Empties the batch for reuse, dropping references to files and memory. */
    public void clear() {
        Arrays.fill(files, 0, size, null);
        Arrays.fill(memory, 0, size, null);
        Arrays.fill(errors, 0, size, null);
        size = 0;
        submitted = 0;
    }
}
