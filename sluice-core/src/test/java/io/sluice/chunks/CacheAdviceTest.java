package io.sluice.chunks;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Dropping a file's pages and asking for ranges of it, checked with {@code mincore} through a mapping. */
class CacheAdviceTest {
    private static final int MIB = 1 << 20;

    @TempDir
    Path dir;

    /** Whether every page of {@code length} bytes at {@code offset} is in the page cache (mincore; faults nothing). */
    private static boolean resident(Path file, long offset, long length) throws IOException {
        try (FileChannel c = FileChannel.open(file)) {
            MappedByteBuffer m = c.map(FileChannel.MapMode.READ_ONLY, offset, length);
            return m.isLoaded();
        }
    }

    @Test
    void willNeedReadsTheRangesAskedForAndNothingAfterThem() throws Exception {
        Assumptions.assumeTrue(CacheAdvice.isSupported(), "no posix_fadvise here");
        Path file = dir.resolve("data.bin");
        byte[] data = new byte[16 * MIB];
        new Random(28).nextBytes(data);
        Files.write(file, data);
        assertTrue(CacheAdvice.drop(file));
        Assumptions.assumeFalse(resident(file, 0, data.length), "this file system keeps the pages (tmpfs?)");

        // 3 MiB: more than one WILLNEED piece, and more than many devices' read-ahead limit.
        assertTrue(CacheAdvice.willNeed(file, new long[] {4 * MIB, 12 * MIB}, new long[] {3 * MIB, 4096}));
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!(resident(file, 4 * MIB, 3 * MIB) && resident(file, 12 * MIB, 4096))
                && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertTrue(resident(file, 4 * MIB, 3 * MIB), "the first range, all of it");
        assertTrue(resident(file, 12 * MIB, 4096), "the second range");
        assertFalse(resident(file, 7 * MIB, MIB), "no read-ahead after the first range");
        assertFalse(resident(file, 0, 4 * MIB), "nothing before it");
    }

    @Test
    void willNeedRefusesMisuseAndIsSilentAboutAMissingFile() {
        Path file = dir.resolve("none");
        assertThrows(IllegalArgumentException.class, () -> CacheAdvice.willNeed(file, new long[] {0}, new long[0]));
        assertThrows(IllegalArgumentException.class,
                () -> CacheAdvice.willNeed(file, new long[] {-1}, new long[] {10}));
        assertFalse(CacheAdvice.willNeed(file, new long[] {0}, new long[] {10}));
    }
}
