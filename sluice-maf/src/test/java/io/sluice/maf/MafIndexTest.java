package io.sluice.maf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The index of blocks by (sequence, start), on a real file and on awkward made-up ones. */
class MafIndexTest {
    @TempDir
    Path dir;

    private MafIndex index(byte[] input) throws IOException {
        return MafIndex.build(Files.write(dir.resolve("in.maf"), input));
    }

    @Test
    void aRealFilesBlocksAreFoundByPosition() throws IOException {
        byte[] input = MafParserTest.resource("mm8_chr7_tiny.maf");
        String text = new String(input, StandardCharsets.ISO_8859_1);
        MafIndex idx = index(input);
        assertEquals(8, idx.blockCount());
        assertEquals(List.of("mm8.chr7"), idx.sequences());
        assertEquals(List.of("mm8", "rn4", "oryCun1", "hg18", "panTro2", "rheMac2", "canFam2", "dasNov1", "loxAfr1",
                "echTel1"), idx.species().subList(0, 10));
        // Block 0 is mm8.chr7 [80082334, 80082368), block 1 starts at 80082368.
        assertArrayEquals(new int[] {0}, idx.find("mm8.chr7", 80082334, 80082335));
        assertArrayEquals(new int[] {0, 1}, idx.find("mm8.chr7", 80082360, 80082400));
        assertArrayEquals(new int[] {1}, idx.find("mm8.chr7", 80082368, 80082369));
        assertArrayEquals(new int[0], idx.find("mm8.chr7", 0, 80082334));
        assertArrayEquals(new int[0], idx.find("hg18.chr15", 0, Long.MAX_VALUE), "only reference rows are indexed");
        assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6, 7}, idx.find("mm8.chr7", 0, Long.MAX_VALUE));
        for (int b = 0; b < idx.blockCount(); b++) {
            int at = (int) idx.offset(b);
            assertTrue(text.startsWith("a score=", at), "block " + b);
            String block = text.substring(at, (int) (at + idx.length(b)));
            assertEquals(idx.rows(b), block.lines().filter(l -> l.startsWith("s ")).count());
            assertTrue(block.endsWith("\n") && !block.endsWith("\n\n"), "to the blank line, not past it");
            assertEquals(idx.start(b) + (idx.end(b) - idx.start(b)), idx.end(b));
        }
        assertEquals(10, Long.bitCount(idx.speciesMask(0)));
        assertEquals(54, idx.columns(0));
    }

    @Test
    void reverseStrandReferencesAndUnsortedBlocksAreIndexedForwardAndInOrder() throws IOException {
        String maf = "##maf version=1\n"
                + "a\ns chrB 50 10 + 1000 AAAAAAAAAA\n\n"
                + "a\ns chrA 900 10 - 1000 AAAAAAAAAA\ns other.x 0 10 + 10 CCCCCCCCCC\n\n"
                + "a\ns chrB 10 5 + 1000 AAAAA\n\n"
                + "a\ns chrB 0 500 + 1000 " + "A".repeat(500) + "\n\n";
        MafIndex idx = index(maf.getBytes(StandardCharsets.US_ASCII));
        assertEquals(List.of("chrB", "chrA"), idx.sequences());
        assertEquals(90, idx.start(1), "1000 - 900 - 10 on the forward strand");
        assertEquals(100, idx.end(1));
        assertArrayEquals(new int[] {1}, idx.find("chrA", 95, 96));
        assertArrayEquals(new int[] {3, 2, 0}, idx.find("chrB", 12, 55), "sorted by start; the long block 3 too");
        assertArrayEquals(new int[] {3}, idx.find("chrB", 400, 401), "a long block starting far before");
        assertArrayEquals(new int[0], idx.find("chrC", 0, 10));
        assertArrayEquals(new int[0], idx.find("chrB", 20, 20), "an empty range");
        assertEquals(List.of("chrB", "chrA", "other"), idx.species());
        assertEquals(0b110, idx.speciesMask(1));
    }

    @Test
    void aBuilderBuildsOnce() {
        MafIndex.Builder b = MafIndex.builder();
        b.build();
        assertThrows(IllegalStateException.class, b::build);
    }
}
