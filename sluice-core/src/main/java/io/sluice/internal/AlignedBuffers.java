package io.sluice.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Page-aligned direct buffers, and a small lock-free pool of them for bounce copies.
 *
 * <p>Why aligned: the kernel copies from the page cache to user memory fastest when the destination starts on
 * a page boundary; a destination a few bytes into a page (as {@link ByteBuffer#allocateDirect} returns, 16 bytes
 * in) can make page-cache reads several times slower on some CPUs; on others (an AMD EPYC with FSRM, measured in
 * docs/benchmarks/) it costs 0 to 10%. Aligning costs nothing, so every buffer Sluice allocates itself starts
 * on a page.
 *
 * <p>Why a pool rather than a {@code ThreadLocal}: callers may be virtual threads, of which there can be
 * millions; a fixed array of slots claimed with a swap costs one atomic operation per borrow and bounds memory.
 */
public final class AlignedBuffers {
    /** The alignment of every buffer from here: the common page size. */
    public static final int PAGE = 4096;

    private final int bufferSize;
    private final AtomicReferenceArray<ByteBuffer> slots;

    /** A pool of buffers of {@code bufferSize} bytes, keeping at most {@code slots} idle ones. */
    public AlignedBuffers(int bufferSize, int slots) {
        this.bufferSize = bufferSize;
        this.slots = new AtomicReferenceArray<>(slots);
    }

    /** A fresh page-aligned direct buffer of {@code size} bytes, freed by the garbage collector. */
    public static ByteBuffer allocate(int size) {
        return Arena.ofAuto().allocate(Math.max(size, 1), PAGE).asByteBuffer().limit(size);
    }

    /** A fresh page-aligned native segment of {@code size} bytes in {@code arena}. */
    public static MemorySegment allocate(Arena arena, long size) {
        return arena.allocate(size, PAGE);
    }

    /** The size of each pooled buffer. */
    public int bufferSize() {
        return bufferSize;
    }

    /** A buffer from the pool (cleared), or a new one when the pool is empty. Give it back with {@link #release}. */
    public ByteBuffer acquire() {
        int n = slots.length();
        int start = (int) (Thread.currentThread().threadId() % n);
        for (int i = 0; i < n; i++) {
            int s = (start + i) % n;
            if (slots.getPlain(s) != null) {
                ByteBuffer b = slots.getAndSet(s, null);
                if (b != null) {
                    return b.clear();
                }
            }
        }
        return allocate(bufferSize);
    }

    /** Returns a buffer to the pool; when every slot is taken the buffer is left to the garbage collector. */
    public void release(ByteBuffer buffer) {
        int n = slots.length();
        int start = (int) (Thread.currentThread().threadId() % n);
        for (int i = 0; i < n; i++) {
            int s = (start + i) % n;
            if (slots.getPlain(s) == null && slots.compareAndSet(s, null, buffer)) {
                return;
            }
        }
    }
}
