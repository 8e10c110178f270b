package io.sluice.bench;

import io.sluice.Engine;
import io.sluice.PositionalFile;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;

/** The benchmark's test file: made in its own new directory, filled with random bytes, and removed afterwards. */
final class DataFile implements AutoCloseable {
    private static final int CHUNK = 1 << 20;

    /** Its directory, removed with it, also when the user stops the run with Ctrl-C. */
    private final ScratchDir dir;
    private final Path file;
    private final long size;

    private DataFile(ScratchDir dir, long size) {
        this.dir = dir;
        this.file = dir.resolve("data.bin");
        this.size = size;
    }

    /**
     * Creates {@code size} random bytes in a new directory under {@code parent} (which must exist), reporting
     * progress in bytes.
     *
     * @throws IOException naming the directory when the file cannot be written (no space, say)
     */
    static DataFile create(Path parent, long size, LongConsumer progress) throws IOException {
        DataFile d = new DataFile(ScratchDir.create(parent, "sluice-bench-"), size);
        boolean success = false;
        try (Arena arena = Arena.ofConfined();
             PositionalFile f = PositionalFile.open(d.file, Engine.CHANNEL, StandardOpenOption.WRITE,
                     StandardOpenOption.CREATE_NEW)) {
            ByteBuffer chunk = arena.allocate(CHUNK, 4096).asByteBuffer();
            new SplittableRandom(42).longs(CHUNK / 8).forEach(chunk::putLong);
            for (long pos = 0; pos < size; pos += CHUNK) {
                int n = (int) Math.min(CHUNK, size - pos);
                // A different first word per chunk, so no two chunks are equal.
                chunk.putLong(0, pos);
                f.writeFully(chunk.clear().limit(n), pos);
                progress.accept(pos + n);
            }
            success = true;
            return d;
        } finally {
            if (!success) {
                d.close();
            }
        }
    }

    /** Reads the whole file once so it is in the page cache; returns the bytes per second it took. */
    double warm() throws IOException {
        long t0 = System.nanoTime();
        try (Arena arena = Arena.ofConfined(); PositionalFile f = PositionalFile.open(file, Engine.CHANNEL)) {
            ByteBuffer buf = arena.allocate(CHUNK, 4096).asByteBuffer();
            for (long pos = 0; pos < size; pos += CHUNK) {
                f.read(buf.clear(), pos);
            }
        }
        return size / ((System.nanoTime() - t0) / 1e9);
    }

    Path path() {
        return file;
    }

    long size() {
        return size;
    }

    @Override
    public void close() {
        dir.close();
    }
}
