package io.sluice.zip;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.zip.Inflater;

/**
 * Idle {@link Inflater}s of one archive, claimed and returned with one atomic operation on a slot, so that readers
 * never wait on one another (no lock, no {@code ThreadLocal}, which virtual threads would multiply).
 *
 * <p>An inflater holds about 40 KiB of native zlib state, and making one costs a native allocation, so reuse pays
 * for small entries. Returned inflaters are {@link Inflater#reset() reset}; those that find no free slot, and all of
 * them once the pool is closed, are {@link Inflater#end() ended} so their native memory is freed at once rather
 * than by the garbage collector.
 */
final class InflaterPool {
    private final AtomicReferenceArray<Inflater> slots;
    private volatile boolean closed;

    InflaterPool(int capacity) {
        slots = new AtomicReferenceArray<>(capacity);
    }

    /** An idle inflater for raw deflate data (no zlib header, as in zip entries), or a new one. */
    Inflater claim() {
        int n = slots.length();
        int start = start(n);
        for (int k = 0; k < n; k++) {
            int i = (start + k) % n;
            Inflater inf = slots.getPlain(i);
            if (inf != null && slots.compareAndSet(i, inf, null)) {
                return inf;
            }
        }
        return new Inflater(true);
    }

    /** Takes {@code inf} back, reset; ends it when the pool is full or closed. */
    void release(Inflater inf) {
        if (!closed) {
            inf.reset();
            int n = slots.length();
            int start = start(n);
            for (int k = 0; k < n; k++) {
                int i = (start + k) % n;
                if (slots.getPlain(i) == null && slots.compareAndSet(i, null, inf)) {
                    // close() may have swept this slot just before our store; if so, take it back and end it here.
                    if (closed && slots.compareAndSet(i, inf, null)) {
                        inf.end();
                    }
                    return;
                }
            }
        }
        inf.end();
    }

    /** Ends every idle inflater; those in use are ended when they are released. */
    void close() {
        closed = true;
        for (int i = 0; i < slots.length(); i++) {
            Inflater inf = slots.getAndSet(i, null);
            if (inf != null) {
                inf.end();
            }
        }
    }

    /** Threads start looking at different slots, so they rarely compete for the same one. */
    private static int start(int n) {
        long id = Thread.currentThread().threadId();
        return (int) ((id * 0x9E37_79B9_7F4A_7C15L) >>> 40) % n;
    }
}
