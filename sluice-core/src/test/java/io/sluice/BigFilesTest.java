package io.sluice;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link BigFiles}: fill writes the source over and over, sum adds every byte, at any thread count. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BigFilesTest {
    @TempDir
    Path dir;

    static long naiveSum(byte[] b) {
        long s = 0;
        for (byte x : b) {
            s += x & 0xFF;
        }
        return s;
    }

    @ParameterizedTest
    @CsvSource({"0, 1", "1, 1", "1000, 2", "3000000, 1", "3000000, 3", "5242887, 2"})
    void fillRepeatsTheSourceAndSumReadsItAllBack(long size, int threads) throws IOException {
        byte[] source = new byte[1_000_003];
        new SplittableRandom(size).nextBytes(source);
        Path p = dir.resolve("f");
        BigFiles.fill(p, size, source, threads);
        byte[] got = Files.readAllBytes(p);
        assertEquals(size, got.length);
        for (int i = 0; i < got.length; i++) {
            if (got[i] != source[i % source.length]) {
                throw new AssertionError("byte " + i + ": " + got[i] + ", expected " + source[i % source.length]);
            }
        }
        long expected = naiveSum(got);
        for (int t = 1; t <= 3; t++) {
            assertEquals(expected, BigFiles.sum(p, t), "sum with " + t + " threads");
        }
    }

    @Test
    void fillReplacesALongerFile() throws IOException {
        Path p = Files.write(dir.resolve("f"), new byte[100_000]);
        BigFiles.fill(p, 10, new byte[] {1, 2, 3});
        assertArrayEquals(new byte[] {1, 2, 3, 1, 2, 3, 1, 2, 3, 1}, Files.readAllBytes(p));
        assertEquals(19, BigFiles.sum(p));
    }

    @Test
    void sumBytesNeverOverflowsItsLanes() {
        for (int size : new int[] {0, 7, 8, 1023, 1024, 1025, 4096 * 3 + 5, 1 << 20}) {
            byte[] ones = new byte[size];
            Arrays.fill(ones, (byte) 0xFF);
            assertEquals(255L * size, BigFiles.sumBytes(MemorySegment.ofArray(ones)), "size " + size);
        }
    }

    @Test
    void argumentsAreChecked() throws IOException {
        Path p = dir.resolve("f");
        assertThrows(IllegalArgumentException.class, () -> BigFiles.fill(p, -1, new byte[1], 1));
        assertThrows(IllegalArgumentException.class, () -> BigFiles.fill(p, 10, new byte[0], 1));
        assertThrows(IllegalArgumentException.class, () -> BigFiles.fill(p, 10, new byte[1], 0));
        assertThrows(IllegalArgumentException.class, () -> BigFiles.sum(p, 0));
        BigFiles.fill(p, 0, new byte[0], 1);
        assertEquals(0, Files.size(p));
        assertEquals(0, BigFiles.sum(p));
        assertThrows(java.nio.file.NoSuchFileException.class, () -> BigFiles.sum(dir.resolve("missing")));
    }

    @Test
    void sumRefusesFilesWithoutAKnownLength() throws Exception {
        for (Path p : ParallelScanTest.filesWithoutAKnownLength(dir)) {
            IOException e = assertThrows(IOException.class, () -> BigFiles.sum(p, 2), p::toString);
            assertTrue(e.getMessage().contains(p.toString()), e.getMessage());
        }
    }
}
