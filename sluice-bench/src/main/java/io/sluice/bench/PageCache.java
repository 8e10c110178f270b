package io.sluice.bench;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * How much of a file is in the page cache. A warm-cache figure means nothing if the kernel dropped the file
 * meanwhile (this happens on shared machines), so the benchmark checks before and after it measures, and
 * {@code bench jruby} reads back what was dropped before each cached run ({@link #readBack}).
 */
public final class PageCache {
    private static final long CHUNK = 4L << 20;

    private PageCache() {
    }

    /**
     * The fraction of the file resident in memory, to the nearest 4 MiB chunk: {@link MemorySegment#isLoaded()}
     * asks the kernel ({@code mincore}) whether every page of a mapped range is resident, without touching them.
     */
    static double residentFraction(Path path) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            return size == 0 ? 1.0 : (double) (size - notResident(ch, false)) / size;
        }
    }

    /**
     * Reads into the page cache each 4 MiB chunk of the channel's file that is not all resident
     * ({@link MemorySegment#load()}); the mapping is gone when this returns. Called from {@code bench.rb}: done
     * there, JRuby warned on every call that it redefined a constant for the JDK's own segment class.
     *
     * @param channel the file, open for reading
     * @return the bytes of the chunks that had to be loaded
     * @throws IOException when the file cannot be mapped
     */
    public static long readBack(FileChannel channel) throws IOException {
        return notResident(channel, true);
    }

    /** The bytes of the chunks not all resident, each loaded first when {@code load}. */
    private static long notResident(FileChannel ch, boolean load) throws IOException {
        long size = ch.size();
        if (size == 0) {
            return 0;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment map = ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            long missing = 0;
            for (long off = 0; off < size; off += CHUNK) {
                MemorySegment chunk = map.asSlice(off, Math.min(CHUNK, size - off));
                if (!chunk.isLoaded()) {
                    if (load) {
                        chunk.load();
                    }
                    missing += chunk.byteSize();
                }
            }
            return missing;
        }
    }
}
