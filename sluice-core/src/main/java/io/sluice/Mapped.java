package io.sluice;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Mapping a region for the parallel readers and writers ({@link ParallelScan}, {@link BigFiles}).
 *
 * <p>No {@code madvise} hints: {@code MADV_POPULATE_READ} on each region (one call instead of a fault every 16 pages)
 * measured no faster on a warm file here, and it reads every page of a region even when the visitor needs few.
 */
final class Mapped {
    private Mapped() {
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
