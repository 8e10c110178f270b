package io.sluice.chunks;

import java.util.List;
import java.util.function.LongSupplier;

/**
 * The same chunk size every time, chosen by the caller; read-ahead on or off as asked. It still times its windows
 * (of about {@value #WINDOW_MILLIS} ms), so its {@link #trace()} shows the rate it got.
 */
public final class FixedPolicy implements ChunkPolicy {
    static final long WINDOW_MILLIS = 10;

    private final int size;
    private final boolean readAhead;
    private final Windows windows;

    private FixedPolicy(int size, boolean readAhead, LongSupplier clock) {
        if (size < 1 || size > (1 << 30)) {
            throw new IllegalArgumentException("chunk size must be 1 byte to 1 GiB: " + size);
        }
        this.size = size;
        this.readAhead = readAhead;
        this.windows = new Windows(clock, WINDOW_MILLIS * 1_000_000, 1);
    }

    /**
     * Chunks of {@code size} bytes, no read-ahead.
     *
     * @throws IllegalArgumentException unless {@code size} is 1 byte to 1 GiB
     */
    public static FixedPolicy of(int size) {
        return new FixedPolicy(size, false, System::nanoTime);
    }

    /** Chunks of {@code size} bytes, reading the next one ahead when {@code readAhead} and the reader can. */
    public static FixedPolicy of(int size, boolean readAhead) {
        return new FixedPolicy(size, readAhead, System::nanoTime);
    }

    /** As {@link #of(int, boolean)}, timing its trace with {@code nanoTime} (for tests). */
    public static FixedPolicy of(int size, boolean readAhead, LongSupplier nanoTime) {
        return new FixedPolicy(size, readAhead, nanoTime);
    }

    @Override
    public int start(boolean readAheadAvailable) {
        windows.restart();
        return size;
    }

    @Override
    public int next(long bytes) {
        if (windows.add(bytes)) {
            windows.close(size, readAhead, "");
        }
        return size;
    }

    @Override
    public boolean readAhead() {
        return readAhead;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public List<ChunkTrace> trace() {
        return windows.trace();
    }

    @Override
    public String toString() {
        return "fixed " + ChunkTrace.formatSize(size) + (readAhead ? ", read-ahead" : "");
    }
}
