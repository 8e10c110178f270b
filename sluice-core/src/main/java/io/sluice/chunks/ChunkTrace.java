package io.sluice.chunks;

import java.util.Locale;

/**
 * One measurement window of a {@link ChunkPolicy}: consecutive chunks read with one setting, the bytes the caller
 * consumed in them and the time that took (reads and the caller's own work between chunks), and what the policy
 * decided when the window closed.
 *
 * @param window    the window's number, from 0, counted over the policy's life
 * @param size      the chunk size the window was read with
 * @param readAhead whether the next chunk was read ahead during the window
 * @param bytes     bytes the caller consumed in the window
 * @param nanos     nanoseconds the window lasted
 * @param note      the decision taken when the window closed ({@code "trial up 256 KiB"}, {@code "accept ..."}), or
 *                  empty
 */
public record ChunkTrace(long window, int size, boolean readAhead, long bytes, long nanos, String note) {
    /** The end-to-end rate of the window in MB/s (10^6 bytes per second). */
    public double mbPerSec() {
        return nanos <= 0 ? 0 : bytes * 1e3 / nanos;
    }

    /** {@code "#12  256 KiB  ahead  812.4 MB/s  accept ..."}: one line of a printed trace. */
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "#%-5d %9s %-6s %9.1f MB/s  %s", window, formatSize(size),
                readAhead ? "ahead" : "", mbPerSec(), note).stripTrailing();
    }

    /** {@code 16 KiB}, {@code 8 MiB}, {@code 1000 B}: the form traces and messages use. */
    static String formatSize(long bytes) {
        if (bytes >= (1 << 20) && bytes % (1 << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " B";
    }
}
