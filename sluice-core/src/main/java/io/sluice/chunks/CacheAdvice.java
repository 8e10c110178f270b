package io.sluice.chunks;

import io.sluice.internal.Errno;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Page-cache advice for whole files, as benchmarks need it: reading a file "cold" without root, by asking the
 * kernel to drop its pages ({@code posix_fadvise(POSIX_FADV_DONTNEED)}) rather than dropping every cache on the
 * machine ({@code /proc/sys/vm/drop_caches}).
 */
public final class CacheAdvice {
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
}
