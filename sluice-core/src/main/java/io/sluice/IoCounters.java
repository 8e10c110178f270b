package io.sluice;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts of the engines' slow paths since the JVM started, for monitoring: the periodic JFR event
 * {@code io.sluice.IoCounters} reports them, and anything else may read them. Only slow paths count (a wait, a fault),
 * so the fast paths pay nothing.
 */
public final class IoCounters {
    private static final LongAdder URING_SLOT_WAITS = new LongAdder();
    private static final LongAdder MAPPED_FAULTS = new LongAdder();

    private IoCounters() {
    }

    /**
     * How many times a thread found every request slot of an io_uring ring in flight and waited (about 20 µs each)
     * for completions to free one: the ring's back-pressure. Steady growth means more requests in flight than the
     * rings hold.
     */
    public static long uringSlotWaits() {
        return URING_SLOT_WAITS.sum();
    }

    /**
     * How many times a copy from or to an MMAP (or AUTO) mapping raised SIGBUS: a page of the file was gone (another
     * process cut the file, which the engine follows by remapping) or could not be read or written (a device error, a
     * full file system).
     */
    public static long mappedFaults() {
        return MAPPED_FAULTS.sum();
    }

    static void uringSlotWait() {
        URING_SLOT_WAITS.increment();
    }

    static void mappedFault() {
        MAPPED_FAULTS.increment();
    }
}
