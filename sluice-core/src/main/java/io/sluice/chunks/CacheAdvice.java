package io.sluice.chunks;

import io.sluice.internal.Errno;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Page-cache advice by path: dropping a file's pages, as benchmarks need it to read a file "cold" without root
 * ({@code posix_fadvise(POSIX_FADV_DONTNEED)} rather than dropping every cache on the machine through
 * {@code /proc/sys/vm/drop_caches}), and asking for ranges of a file ahead of reading them
 * ({@code POSIX_FADV_WILLNEED}).
 */
public final class CacheAdvice {
    /**
     * The most bytes one WILLNEED call asks for. The kernel reads no more for one call than the device's read-ahead
     * limit (the larger of {@code read_ahead_kb} and {@code max_sectors_kb}, 128 KiB and 1280 KiB on many disks) and
     * drops the rest silently, so a range is asked for in pieces no larger than the common limits.
     */
    static final long WILLNEED_PIECE = 512 << 10;

    private CacheAdvice() {
    }

    /** Whether advice can be given here: Linux, with native access for this module. */
    public static boolean isSupported() {
        return Fadvice.supported();
    }

    /**
     * Writes the file's dirty pages back ({@code fdatasync}: the kernel drops only clean pages) and asks the kernel
     * to drop all its pages from the page cache. Pages another process has mapped or locked stay; check with
     * {@code mincore} (or {@link java.lang.foreign.MemorySegment#isLoaded()} on a mapping) when it matters.
     *
     * @return false when advice cannot be given here ({@link #isSupported()}), true when it was given
     * @throws IOException naming the file when it cannot be opened or synced, or the kernel refuses the advice
     */
    public static boolean drop(Path file) throws IOException {
        if (!isSupported()) {
            return false;
        }
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ)) {
            c.force(false);
        }
        Fadvice f = Fadvice.open(file);
        if (f == null) {
            throw new IOException("posix_fadvise(path=" + file + ", DONTNEED): cannot open the file");
        }
        try (f) {
            int rc = f.dontNeed();
            if (rc != 0) {
                throw new IOException("posix_fadvise(path=" + file + ", pos=0, len=0, DONTNEED): "
                        + Errno.describe(rc));
            }
        }
        return true;
    }

    /**
     * Asks the kernel to start reading the given ranges of {@code file} into the page cache
     * ({@code posix_fadvise(POSIX_FADV_WILLNEED)}, in pieces of at most 512 KiB) and returns without waiting for
     * the device. Reads of those ranges that follow wait only for what is still on its way, and the device is given
     * every range at once rather than one read-ahead window at a time. Only the bytes asked for are read: the
     * kernel's read-ahead, which a cache miss starts and which reads on past the end of a range, is not set off by
     * pages already in the cache or on their way.
     *
     * <p>A hint: when the file cannot be opened or the kernel refuses, nothing happens and false is returned; the
     * reads that follow find out what is wrong.
     *
     * @param offsets the ranges' first bytes
     * @param lengths the ranges' lengths, one for each offset
     * @return true when the advice was given, false when it cannot be given here ({@link #isSupported()}) or the file
     *         or the kernel refused it
     * @throws IllegalArgumentException if the arrays differ in length, or an offset or a length is negative
     */
    public static boolean willNeed(Path file, long[] offsets, long[] lengths) {
        if (offsets.length != lengths.length) {
            throw new IllegalArgumentException("willNeed(path=" + file + "): " + offsets.length + " offsets but "
                    + lengths.length + " lengths");
        }
        for (int i = 0; i < offsets.length; i++) {
            if (offsets[i] < 0 || lengths[i] < 0) {
                throw new IllegalArgumentException("willNeed(path=" + file + "): negative range at " + offsets[i]
                        + ", length " + lengths[i]);
            }
        }
        Fadvice f = Fadvice.open(file);
        if (f == null) {
            return false;
        }
        try (f) {
            for (int i = 0; i < offsets.length; i++) {
                long end = offsets[i] + lengths[i];
                for (long at = offsets[i]; at < end; at += WILLNEED_PIECE) {
                    if (f.willNeed(at, Math.min(WILLNEED_PIECE, end - at)) != 0) {
                        return false;
                    }
                }
            }
        }
        return true;
    }
}
