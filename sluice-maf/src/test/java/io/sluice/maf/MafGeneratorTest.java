package io.sluice.maf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.chunks.AdaptivePolicy;
import io.sluice.chunks.ChunkedReader;
import io.sluice.chunks.FixedPolicy;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generated data: deterministic, of the size asked, valid MAF of the shape promised. */
class MafGeneratorTest {
    @TempDir
    Path dir;

    @Test
    void theSameSeedGivesTheSameBytesAndAnotherDoesNot() throws IOException {
        ByteArrayOutputStream a = new ByteArrayOutputStream();
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        ByteArrayOutputStream c = new ByteArrayOutputStream();
        MafGenerator.write(a, 300_000, 1);
        MafGenerator.write(b, 300_000, 1);
        MafGenerator.write(c, 300_000, 2);
        assertArrayEquals(a.toByteArray(), b.toByteArray());
        assertFalse(java.util.Arrays.equals(a.toByteArray(), c.toByteArray()));
    }

    @Test
    void itIsValidMafOfTheSizeAskedWithEveryKindOfLine() throws IOException {
        Path file = dir.resolve("gen.maf");
        long blocks = MafGenerator.write(file, 2 << 20, 42);
        byte[] bytes = Files.readAllBytes(file);
        assertTrue(bytes.length >= 2 << 20 && bytes.length < (2 << 20) + 100_000, "size " + bytes.length);
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        assertTrue(text.startsWith("##maf version=1 "));
        assertTrue(text.endsWith("\n\n"), "ends with a whole block");
        for (String kind : new String[] {"\ns ", "\ni ", "\ne ", "\nq ", "\na score="}) {
            assertTrue(text.contains(kind), kind.trim());
        }
        assertTrue(text.chars().anyMatch(ch -> ch == 'a' || ch == 'c' || ch == 'g' || ch == 't'), "soft-masked");

        MafParserTest.Recorder r = MafParserTest.parse(bytes, 1 << 16);
        assertEquals(blocks, r.count("a "));
        assertTrue(r.count("s ") > blocks * 5, "rows per block: " + r.count("s ") / (double) blocks);
        assertTrue(r.events.stream().anyMatch(e -> e.startsWith("s ") && e.contains(" - ")), "reverse strands");

        MafIndex fixedSmall;
        try (ChunkedReader reader = ChunkedReader.open(file, FixedPolicy.of(4096))) {
            fixedSmall = MafIndex.build(reader, file.toString());
        }
        MafIndex adaptive;
        try (ChunkedReader reader = ChunkedReader.open(file, AdaptivePolicy.startingAt(1 << 20))) {
            adaptive = MafIndex.build(reader, file.toString());
        }
        assertEquals(blocks, fixedSmall.blockCount());
        assertEquals(blocks, adaptive.blockCount());
        for (int b = 0; b < blocks; b += 97) {
            assertEquals(fixedSmall.offset(b), adaptive.offset(b));
            assertEquals(fixedSmall.speciesMask(b), adaptive.speciesMask(b));
            int block = b;
            int[] found = adaptive.find(adaptive.sequence(b), adaptive.start(b), adaptive.start(b) + 1);
            assertTrue(java.util.Arrays.stream(found).anyMatch(x -> x == block), "block " + b + " is found");
        }
        assertEquals("hg38.chr1", adaptive.sequences().get(0));
        assertEquals(20, adaptive.species().size());
    }
}
