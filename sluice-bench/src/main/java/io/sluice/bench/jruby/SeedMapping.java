package io.sluice.bench.jruby;

import java.io.Closeable;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The seed's mmap writer as its {@code MmapFile} and {@code MmapFileExt} make it: one {@code MappedByteBuffer} over
 * the whole target, mapped when the writer is made, filled by {@code put} and never moved. The one departure: the
 * buffer is mapped in a shared arena, so that {@link #close()} unmaps it at once, where the seed leaves that to the
 * garbage collector (which here would keep the pages of the benchmark's deleted 1-2 GB files alive between runs).
 * A {@code ByteBuffer} holds at most {@value #MAX_SIZE} bytes, so neither can the seed's writers write more.
 */
final class SeedMapping implements Closeable {
    /** The most one {@code ByteBuffer} can map. */
    static final long MAX_SIZE = Integer.MAX_VALUE;

    private final Path path;
    private final FileChannel channel;
    private final long size;
    /** Every mapping made, the current one last: the seed leaves the earlier ones to the garbage collector. */
    private final List<Arena> arenas = new ArrayList<>();
    private ByteBuffer buffer;
    /** The file offset the current buffer starts at. */
    private long mapped;

    /**
     * Maps {@code size} bytes of {@code path} from 0, growing the file to that length as mapping does.
     *
     * @param truncate whether to empty the file first (a new file) or keep its bytes (the cached-file runs)
     * @throws IllegalArgumentException if {@code size} is over {@value #MAX_SIZE}
     */
    SeedMapping(String path, boolean truncate, long size) throws IOException {
        if (size < 0 || size > MAX_SIZE) {
            throw new IllegalArgumentException("the seed's writers map the whole file in one MappedByteBuffer, at most "
                    + MAX_SIZE + " bytes: " + size + " bytes for " + path);
        }
        this.path = Path.of(path);
        this.channel = truncate
                ? FileChannel.open(this.path, StandardOpenOption.READ, StandardOpenOption.WRITE,
                        StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING)
                : FileChannel.open(this.path, StandardOpenOption.READ, StandardOpenOption.WRITE,
                        StandardOpenOption.CREATE);
        this.size = size;
        try {
            map(0);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * The seed's {@code seek(pos)}: maps {@code size} bytes from {@code pos} again, a new buffer written from its
     * start. The earlier mapping stays until {@link #close()}, as the seed's stays until the garbage collector
     * frees it: no unmap inside a timed pass.
     */
    void seek(long pos) throws IOException {
        map(pos);
    }

    private void map(long pos) throws IOException {
        Arena a = Arena.ofShared();
        try {
            buffer = channel.map(FileChannel.MapMode.READ_WRITE, pos, size, a).asByteBuffer();
            mapped = pos;
        } catch (IOException | RuntimeException e) {
            a.close();
            throw new IOException("mmap(path=" + path + ", pos=" + pos + ", len=" + size + "): " + e.getMessage(), e);
        }
        arenas.add(a);
    }

    /**
     * Copies {@code src[off, off + len)} into the mapping, as the seed's {@code write}: past the mapped size it
     * fails ({@code BufferOverflowException}).
     */
    void put(byte[] src, int off, int len) {
        buffer.put(src, off, len);
    }

    /**
     * Unmaps every mapping, cuts the file where the current one's writes end (a short run then shows in the file's
     * length) and closes it.
     */
    @Override
    public void close() throws IOException {
        long end = mapped + buffer.position();
        for (Arena a : arenas) {
            a.close();
        }
        try (channel) {
            channel.truncate(end);
        } catch (IOException e) {
            throw new IOException("ftruncate(path=" + path + ", len=" + end + "): " + e.getMessage(), e);
        }
    }
}
