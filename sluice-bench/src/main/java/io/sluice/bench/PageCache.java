package io.sluice.bench;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * How much of a file is in the page cache. A warm-cache figure means nothing if the kernel dropped the file
 * meanwhile (this happens on shared machines), so the benchmark checks before and after it measures.
 */
final class PageCache {
    private static final long CHUNK = 4L << 20;

    private PageCache() {
    }

    /**
     * The fraction of the file resident in memory, to the nearest 4 MiB chunk: {@link MemorySegment#isLoaded()}
     * asks the kernel ({@code mincore}) whether every page of a mapped range is resident, without touching them.
     */
    static double residentFraction(Path path) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ); Arena arena = Arena.ofConfined()) {
            long size = ch.size();
            if (size == 0) {
                return 1.0;
            }
            MemorySegment map = ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            long resident = 0;
            for (long off = 0; off < size; off += CHUNK) {
                long len = Math.min(CHUNK, size - off);
                if (map.asSlice(off, len).isLoaded()) {
                    resident += len;
                }
            }
            return (double) resident / size;
        }
    }
}
