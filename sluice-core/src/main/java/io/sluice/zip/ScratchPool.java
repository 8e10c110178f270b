package io.sluice.zip;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.zip.Inflater;

/**
 * Idle {@link Scratch}es of one archive, claimed and returned with one atomic operation on a slot, so that readers
 * never wait on one another (no lock, no {@code ThreadLocal}, which virtual threads would multiply).
 *
 * <p>Reuse pays twice: a scratch's inflater holds about 40 KiB of native zlib state that costs a native allocation
 * to make, and its 64 KiB buffer would otherwise be allocated for every entry read. Returned scratches have their
 * inflater {@link Inflater#reset() reset}; those that find no free slot, and all of them once the pool is closed,
 * have it {@link Inflater#end() ended} so its native memory is freed at once rather than by the garbage collector.
 */
final class ScratchPool {
    /**
     * A buffer that bytes of the mapped archive are copied into before native code (the CRC-32, the inflater) sees
     * them, and the inflater that reads it, made on first use since stored entries need none. Used by one stream at a
     * time.
     */
    static final class Scratch {
        /** Big enough that the copy and the native call it feeds cost little per byte; small enough to stay in L2. */
        static final int SIZE = 64 * 1024;

        final byte[] buffer = new byte[SIZE];
        private byte[] output;
        private Inflater inflater;

        /** A second buffer, for what is inflated only to be checked; made on first use. */
        byte[] output() {
            if (output == null) {
                output = new byte[SIZE];
            }
            return output;
        }

        /** The inflater for raw deflate data (no zlib header, as in zip entries), made on first use. */
        Inflater inflater() {
            if (inflater == null) {
                inflater = new Inflater(true);
            }
            return inflater;
        }

        void reset() {
            if (inflater != null) {
                inflater.reset();
            }
        }

        void end() {
            if (inflater != null) {
                inflater.end();
                inflater = null;
            }
        }
    }

    private final AtomicReferenceArray<Scratch> slots;
    private volatile boolean closed;

    ScratchPool(int capacity) {
        slots = new AtomicReferenceArray<>(capacity);
    }

    /** An idle scratch, or a new one. */
    Scratch claim() {
        int n = slots.length();
        int start = start(n);
        for (int k = 0; k < n; k++) {
            int i = (start + k) % n;
            Scratch s = slots.getPlain(i);
            if (s != null && slots.compareAndSet(i, s, null)) {
                return s;
            }
        }
        return new Scratch();
    }

    /** Takes {@code s} back, its inflater reset; ends the inflater when the pool is full or closed. */
    void release(Scratch s) {
        if (!closed) {
            s.reset();
            int n = slots.length();
            int start = start(n);
            for (int k = 0; k < n; k++) {
                int i = (start + k) % n;
                if (slots.getPlain(i) == null && slots.compareAndSet(i, null, s)) {
                    // close() may have swept this slot just before our store; if so, take it back and end it here.
                    if (closed && slots.compareAndSet(i, s, null)) {
                        s.end();
                    }
                    return;
                }
            }
        }
        s.end();
    }

    /** Ends the inflater of every idle scratch; those in use are ended when they are released. */
    void close() {
        closed = true;
        for (int i = 0; i < slots.length(); i++) {
            Scratch s = slots.getAndSet(i, null);
            if (s != null) {
                s.end();
            }
        }
    }

    /** Threads start looking at different slots, so they rarely compete for the same one. */
    private static int start(int n) {
        long id = Thread.currentThread().threadId();
        return (int) ((id * 0x9E37_79B9_7F4A_7C15L) >>> 40) % n;
    }
}
