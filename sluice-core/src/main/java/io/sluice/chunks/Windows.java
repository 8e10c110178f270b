package io.sluice.chunks;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Groups chunk reports into measurement windows (at least {@code minChunks} chunks and {@code minNanos}) and keeps
 * the most recent windows as a trace. The clock is read once per report; a window's time is the sum of the intervals
 * between consecutive reports that fell in it. Not thread-safe: one reader at a time, as {@link ChunkPolicy} says.
 */
final class Windows {
    /** Windows kept in the trace; older ones are dropped. */
    static final int TRACE_CAPACITY = 1024;

    private final LongSupplier clock;
    private final long minNanos;
    private final int minChunks;
    private final ChunkTrace[] ring = new ChunkTrace[TRACE_CAPACITY];
    private long closed;
    private long mark;
    private long bytes;
    private long nanos;
    private int chunks;

    Windows(LongSupplier clock, long minNanos, int minChunks) {
        if (minNanos < 1 || minChunks < 1) {
            throw new IllegalArgumentException("a window needs at least 1 ns and 1 chunk: " + minNanos + ", "
                    + minChunks);
        }
        this.clock = clock;
        this.minNanos = minNanos;
        this.minChunks = minChunks;
    }

    /** Starts timing afresh (a new reader): the open window keeps what it has, the gap before now is not counted. */
    void restart() {
        mark = clock.getAsLong();
    }

    /** Adds a consumed chunk of {@code b} bytes, timed since the previous report; true when the window is full. */
    boolean add(long b) {
        long now = clock.getAsLong();
        nanos += Math.max(0, now - mark);
        mark = now;
        bytes += b;
        chunks++;
        return chunks >= minChunks && nanos >= minNanos;
    }

    /** Lets a chunk go unmeasured: its time is not counted anywhere. */
    void skip() {
        mark = clock.getAsLong();
    }

    /** Drops what the open window holds (the setting changed before it filled). */
    void discard() {
        bytes = 0;
        nanos = 0;
        chunks = 0;
    }

    /** The open window's rate in bytes per second. */
    double rate() {
        return nanos == 0 ? 0 : bytes * 1e9 / nanos;
    }

    /** Closes the open window into the trace with what was decided, and starts the next one. */
    void close(int size, boolean readAhead, String note) {
        ring[(int) (closed % TRACE_CAPACITY)] = new ChunkTrace(closed, size, readAhead, bytes, nanos, note);
        closed++;
        discard();
    }

    /** The number of windows closed so far. */
    long count() {
        return closed;
    }

    List<ChunkTrace> trace() {
        List<ChunkTrace> out = new ArrayList<>();
        for (long w = Math.max(0, closed - TRACE_CAPACITY); w < closed; w++) {
            out.add(ring[(int) (w % TRACE_CAPACITY)]);
        }
        return out;
    }
}
