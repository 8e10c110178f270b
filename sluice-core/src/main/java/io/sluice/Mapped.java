package io.sluice;

import io.sluice.internal.AlignedBuffers;
import io.sluice.internal.Errno;
import io.sluice.internal.Native;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Mapping regions for {@link ParallelScan} and {@link MappedWriter}.
 *
 * <p>Writable mappings get {@code madvise} hints (below). Read mappings get none: {@code MADV_POPULATE_READ} on each
 * region (one call instead of a fault every 16 pages) measured no faster on a warm file here, and it reads every page
 * of a region even when the visitor needs few.
 */
final class Mapped {
    /** From {@code include/uapi/asm-generic/mman-common.h}. */
    private static final int MADV_HUGEPAGE = 14;
    private static final int MADV_POPULATE_WRITE = 23;

    private Mapped() {
    }

    /**
     * Asks for large page-cache folios behind a mapping about to be written (a hint: skipped without native access,
     * failures ignored). A new file's pages arrive zero-filled before they can be written, and in 2 MiB folios that
     * costs far less than in 4 KiB pages: 1 KiB writes to a new file through {@link MappedWriter} ran at about 3.6
     * GB/s with it against 2.4 without, in alternating runs here. Needs transparent huge pages "always" or "madvise".
     */
    static void preferLargeFolios(MemorySegment mapping) {
        if (Native.isEnabled()) {
            Native.madvise(mapping.address(), mapping.byteSize(), MADV_HUGEPAGE);
        }
    }

    /**
     * Makes {@code [from, to)} of a writable mapping writable now, in one call ({@code MADV_POPULATE_WRITE}, Linux
     * 5.14), instead of a page fault per page as the copies touch them. No faster, but the file system is asked for
     * the pages here: a full disk is {@code EFAULT} from this call, a plain error, rather than SIGBUS in the middle
     * of a copy, which the JVM reports only on a best-effort basis.
     *
     * @return 0; {@code EFAULT} when the file system could not supply the pages (full, over quota, or the file was
     *         cut by another process); {@code EINVAL} when the kernel does not know the call (before 5.14), or any
     *         other errno, after which the copies fault the pages in themselves; -1 without native access
     */
    static int populateForWriting(MemorySegment mapping, long from, long to) {
        if (!Native.isEnabled()) {
            return -1;
        }
        // madvise wants a page-aligned start; a mapping itself starts on a page.
        long start = (mapping.address() + from) & -AlignedBuffers.PAGE;
        return Native.madvise(start, mapping.address() + to - start, MADV_POPULATE_WRITE);
    }

    /** The failure for {@code EFAULT} from {@link #populateForWriting}. */
    static IOException noPages(String op, Path path, long position, long length, int errno) {
        return new IOException(op + "(path=" + path + ", pos=" + position + ", len=" + length
                + "): the file system could not supply the pages (madvise MADV_POPULATE_WRITE: "
                + Errno.describe(errno) + "): it is full or over quota, or another process cut the file");
    }

    /** Maps {@code [position, position + length)} of the file, naming the file and range when it fails. */
    static MemorySegment map(FileChannel channel, FileChannel.MapMode mode, Path path, long position, long length,
            Arena arena) throws IOException {
        try {
            return channel.map(mode, position, length, arena);
        } catch (IOException e) {
            IOException hinted = MappedFile.withMapHint(e);
            throw new IOException("mmap(path=" + path + ", pos=" + position + ", len=" + length + "): "
                    + hinted.getMessage(), hinted);
        }
    }

    /** The failure for SIGBUS on a mapped read: the file was cut by another process while mapped. */
    static IOException sigbus(String op, Path path, long position, long length, InternalError e) {
        return new IOException(op + "(path=" + path + ", pos=" + position + ", len=" + length
                + "): the file was cut by another process while mapped (SIGBUS)", e);
    }
}
