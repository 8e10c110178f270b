package io.sluice.bench.jruby;

import java.io.Closeable;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The seed's mmap writer, made able to pass 2 GiB the plain NIO way: a {@code MappedByteBuffer} window of the same
 * size as {@link io.sluice.MappedWriter}'s, mapped in a shared arena so that it is unmapped as soon as it is full
 * (not whenever the garbage collector gets to it), the next one mapped after it, and the file cut to the bytes written
 * on close. No {@code madvise}, no page population ahead of the copies: what a hand-written NIO writer does.
 */
final class MappedWindows implements Closeable {
    private final FileChannel channel;
    private final long windowSize;
    private Arena arena;
    private ByteBuffer window;
    private long windowStart;

    MappedWindows(String path, boolean truncate, long windowSize) throws IOException {
        this.channel = truncate
                ? FileChannel.open(Path.of(path), StandardOpenOption.READ, StandardOpenOption.WRITE,
                        StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING)
                : FileChannel.open(Path.of(path), StandardOpenOption.READ, StandardOpenOption.WRITE,
                        StandardOpenOption.CREATE);
        this.windowSize = windowSize;
        this.window = ByteBuffer.allocate(0);
    }

    /** Copies {@code src[off, off + len)} into the window, moving to the next window as often as needed. */
    void put(byte[] src, int off, int len) throws IOException {
        if (len <= window.remaining()) {
            window.put(src, off, len);
            return;
        }
        while (len > 0) {
            if (!window.hasRemaining()) {
                next();
            }
            int n = Math.min(len, window.remaining());
            window.put(src, off, n);
            off += n;
            len -= n;
        }
    }

    private void next() throws IOException {
        long start = arena == null ? 0 : windowStart + window.position();
        unmap();
        arena = Arena.ofShared();
        window = channel.map(FileChannel.MapMode.READ_WRITE, start, windowSize, arena).asByteBuffer();
        windowStart = start;
    }

    private void unmap() {
        if (arena != null) {
            arena.close();
            arena = null;
        }
    }

    @Override
    public void close() throws IOException {
        long end = arena == null ? 0 : windowStart + window.position();
        window = ByteBuffer.allocate(0);
        unmap();
        try (channel) {
            channel.truncate(end);
        }
    }
}
