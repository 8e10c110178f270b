package io.sluice.hadoop.bench;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Which pages of a file are in the page cache, counted as {@code fincore} counts them: the file mapped (without
 * touching a page) and {@code mincore} asked for one residency byte per page. A cold round is only cold if the
 * drop before it left nothing, and a warm one only warm if everything is there; the bench checks both instead of
 * trusting the advice.
 */
final class PageCache {
    /** The most bytes mapped and asked about at once: the residency vector stays small. */
    private static final long WINDOW = 256L << 20;
    private static final MethodHandle MINCORE;
    private static final long PAGE;

    static {
        Linker linker = Linker.nativeLinker();
        MethodHandle mincore = null;
        long page = 4096;
        try {
            mincore = linker.defaultLookup().find("mincore").map(a -> linker.downcallHandle(a,
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                            ValueLayout.ADDRESS), Linker.Option.captureCallState("errno"))).orElse(null);
            MethodHandle getpagesize = linker.defaultLookup().find("getpagesize").map(a -> linker.downcallHandle(a,
                    FunctionDescriptor.of(ValueLayout.JAVA_INT))).orElse(null);
            if (getpagesize != null) {
                page = (int) getpagesize.invokeExact();
            }
        } catch (Throwable e) {
            // No native access (or not Linux): residency cannot be asked, and isSupported says so.
            mincore = null;
        }
        MINCORE = mincore;
        PAGE = page;
    }

    private PageCache() {
    }

    /** Whether residency can be asked here (Linux's {@code mincore}, native access granted). */
    static boolean isSupported() {
        return MINCORE != null;
    }

    /**
     * The bytes of {@code file} in the page cache, whole pages counted (the last one as far as the file goes).
     *
     * @throws IOException naming the file when it cannot be opened or mapped, or {@code mincore} fails
     * @throws UnsupportedOperationException when {@link #isSupported()} is false
     */
    static long residentBytes(Path file) throws IOException {
        if (MINCORE == null) {
            throw new UnsupportedOperationException("mincore is not available here (Linux and native access needed)");
        }
        long size = Files.size(file);
        long resident = 0;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ); Arena arena = Arena.ofConfined()) {
            MemorySegment errno = arena.allocate(Linker.Option.captureStateLayout());
            MemorySegment vector = arena.allocate((WINDOW + PAGE - 1) / PAGE);
            for (long at = 0; at < size; at += WINDOW) {
                long length = Math.min(WINDOW, size - at);
                try (Arena window = Arena.ofConfined()) {
                    MemorySegment map = ch.map(FileChannel.MapMode.READ_ONLY, at, length, window);
                    int rc = (int) MINCORE.invokeExact(errno, map, length, vector);
                    if (rc != 0) {
                        int code = errno.get(ValueLayout.JAVA_INT,
                                Linker.Option.captureStateLayout().byteOffset(
                                        java.lang.foreign.MemoryLayout.PathElement.groupElement("errno")));
                        throw new IOException("mincore(path=" + file + ", offset=" + at + ", length=" + length
                                + ") failed: errno " + code);
                    }
                    long pages = (length + PAGE - 1) / PAGE;
                    for (long p = 0; p < pages; p++) {
                        if ((vector.get(ValueLayout.JAVA_BYTE, p) & 1) != 0) {
                            resident += Math.min(PAGE, length - p * PAGE);
                        }
                    }
                } catch (IOException e) {
                    throw e;
                } catch (Throwable e) {
                    throw new IOException("mincore(path=" + file + ", offset=" + at + "): " + e, e);
                }
            }
        }
        return resident;
    }
}
