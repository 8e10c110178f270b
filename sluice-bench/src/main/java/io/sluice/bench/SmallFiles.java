package io.sluice.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;

/**
 * The files of the open/read/close rows: {@code count} files of {@code fileSize} random bytes in a new directory,
 * read once so they are in the page cache, and removed afterwards (also on Ctrl-C). An offset into their
 * concatenation names a file and a position in it, so {@link Workload#offsets} picks random blocks across all of them.
 */
final class SmallFiles implements AutoCloseable {
    private final ScratchDir dir;
    private final Path[] files;
    private final int fileSize;

    private SmallFiles(ScratchDir dir, int count, int fileSize) {
        this.dir = dir;
        this.files = new Path[count];
        this.fileSize = fileSize;
        for (int i = 0; i < count; i++) {
            files[i] = dir.resolve(String.format("f%03d.bin", i));
        }
    }

    /**
     * Writes and warms {@code count} files of {@code fileSize} bytes in a new directory under {@code parent} (which
     * must exist).
     */
    static SmallFiles create(Path parent, int count, int fileSize) throws IOException {
        SmallFiles s = new SmallFiles(ScratchDir.create(parent, "sluice-bench-files-"), count, fileSize);
        boolean success = false;
        try {
            ByteBuffer chunk = ByteBuffer.allocateDirect(fileSize);
            SplittableRandom r = new SplittableRandom(43);
            for (Path f : s.files) {
                chunk.clear();
                while (chunk.remaining() >= 8) {
                    chunk.putLong(r.nextLong());
                }
                try (FileChannel c = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    chunk.flip();
                    while (chunk.hasRemaining()) {
                        c.write(chunk);
                    }
                }
                try (FileChannel c = FileChannel.open(f, StandardOpenOption.READ)) {
                    c.read(chunk.clear(), 0); // into the page cache
                }
            }
            success = true;
            return s;
        } finally {
            if (!success) {
                s.close();
            }
        }
    }

    /** The bytes of all files together: the "file size" the workload's offsets are drawn from. */
    long totalSize() {
        return (long) files.length * fileSize;
    }

    int count() {
        return files.length;
    }

    int fileSize() {
        return fileSize;
    }

    /** The file an offset into the concatenation falls in. */
    Path file(long offset) {
        return files[(int) (offset / fileSize)];
    }

    /** The position in its file of an offset into the concatenation. */
    long position(long offset) {
        return offset % fileSize;
    }

    @Override
    public void close() {
        dir.close();
    }
}
