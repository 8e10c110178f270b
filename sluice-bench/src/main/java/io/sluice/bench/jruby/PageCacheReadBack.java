package io.sluice.bench.jruby;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;

/**
 * For {@code bench.rb}: reads back into the page cache the parts of a file the kernel dropped, before a cached cell's
 * timed run. In Java rather than in the script: JRuby, handed the JDK's own implementation class of
 * {@link MemorySegment}, warned on every call that it redefined a constant for it.
 */
public final class PageCacheReadBack {
    private PageCacheReadBack() {
    }

    /**
     * Checks each {@code piece} bytes of the channel's file with {@code mincore} ({@link MemorySegment#isLoaded()})
     * and loads the pieces not all resident ({@link MemorySegment#load()}); the mapping is gone when this returns.
     *
     * @param channel the file, open for reading
     * @param piece   bytes checked at a time
     * @return the bytes of the pieces that had to be loaded
     * @throws IOException when the file cannot be mapped
     */
    public static long readBack(FileChannel channel, long piece) throws IOException {
        if (piece < 1) {
            throw new IllegalArgumentException("piece must be positive: " + piece);
        }
        long size = channel.size();
        long missing = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment map = channel.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            for (long offset = 0; offset < size; offset += piece) {
                MemorySegment part = map.asSlice(offset, Math.min(piece, size - offset));
                if (!part.isLoaded()) {
                    part.load();
                    missing += part.byteSize();
                }
            }
        }
        return missing;
    }
}
