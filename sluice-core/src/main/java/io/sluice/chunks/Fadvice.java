package io.sluice.chunks;

import io.sluice.internal.Native;
import java.nio.file.Path;
import java.util.Locale;

/**
 * {@code posix_fadvise} on a descriptor of its own, for {@link CacheAdvice}: page-cache advice (DONTNEED, WILLNEED)
 * acts on the file's pages, whoever opened it, so the reader's engine need not expose its descriptor. (SEQUENTIAL, by contrast, changes
 * the read-ahead of the one open file description it is given, so it would do nothing here; the reader asks the
 * engine for it with {@link io.sluice.Advice#SEQUENTIAL} instead.) Every failure is silent: a hint changes speed,
 * never results.
 */
final class Fadvice implements AutoCloseable {
    private final int fd;

    private Fadvice(int fd) {
        this.fd = fd;
    }

    /** Whether this JVM may give the advice at all: Linux, native access, a known architecture. */
    static boolean supported() {
        return Native.isEnabled() && Native.isSupportedArchitecture()
                && System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux");
    }

    /** A descriptor for advice on {@code path}, or null when that cannot be had. */
    static Fadvice open(Path path) {
        if (!supported()) {
            return null;
        }
        try {
            int fd = Native.open(path.toString(), Native.O_RDONLY | Native.O_CLOEXEC, 0);
            return fd < 0 ? null : new Fadvice(fd);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Asks the kernel to drop the file's clean pages from the page cache; returns 0 or the error number. */
    int dontNeed() {
        return Native.posixFadvise(fd, 0, 0, Native.POSIX_FADV_DONTNEED);
    }

    /** Asks the kernel to start reading {@code length} bytes at {@code offset}; returns 0 or the error number. */
    int willNeed(long offset, long length) {
        return Native.posixFadvise(fd, offset, length, Native.POSIX_FADV_WILLNEED);
    }

    @Override
    public void close() {
        Native.close(fd);
    }
}
