package io.sluice.cli.wc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link LineCounter}: the loop against a plain count, on every path (read, mapped, one or more threads). */
class LineCounterTest {
    @TempDir
    Path dir;

    private static long plainCount(byte[] b, int from, int to) {
        long n = 0;
        for (int i = from; i < to; i++) {
            if (b[i] == '\n') {
                n++;
            }
        }
        return n;
    }

    private static long[] words(byte[] b) {
        long[] w = new long[(b.length + 7) / 8];
        ByteBuffer.wrap(b).order(ByteOrder.nativeOrder()).asLongBuffer().get(w, 0, b.length / 8);
        for (int i = b.length / 8 * 8; i < b.length; i++) {
            w[i / 8] |= (b[i] & 0xFFL) << (8 * (i % 8)); // the tail, little-endian as a read would place it
        }
        return w;
    }

    @Test
    void theLoopCountsExactlyWhateverTheBytesAround() {
        SplittableRandom rnd = new SplittableRandom(13);
        // Every byte value next to newlines (0x0A against 0x0B, 0x8A, 0x00, 0xFF...), and runs of newlines long
        // enough to fill the byte lanes to their limit of 255 before they are summed.
        for (int round = 0; round < 200; round++) {
            byte[] b = new byte[rnd.nextInt(1, 20_000)];
            int density = rnd.nextInt(1, 10);
            for (int i = 0; i < b.length; i++) {
                b[i] = rnd.nextInt(density) == 0 ? (byte) '\n' : (byte) rnd.nextInt(256);
            }
            long[] w = words(b);
            assertEquals(plainCount(b, 0, b.length), LineCounter.countNewlines(w, w.length), "round " + round);
        }
        byte[] all = new byte[8 * 255 * 3 + 24];
        java.util.Arrays.fill(all, (byte) '\n');
        long[] w = words(all);
        assertEquals(all.length, LineCounter.countNewlines(w, w.length));
        assertEquals(0, LineCounter.countNewlines(w, 0));
    }

    @Test
    void everyPathCountsTheSame() throws IOException {
        SplittableRandom rnd = new SplittableRandom(5);
        long piece = LineCounter.PIECE;
        long[] sizes = {0, 1, 7, 8, 9, 65_535, 65_536, 65_537, piece - 1, piece, piece + 1, 2 * piece + 12_345};
        for (long size : sizes) {
            byte[] b = new byte[(int) size];
            for (int i = 0; i < b.length; i++) {
                b[i] = rnd.nextInt(40) == 0 ? (byte) '\n' : (byte) rnd.nextInt(256);
            }
            Path f = Files.write(dir.resolve("f" + size), b);
            long expected = plainCount(b, 0, b.length);
            for (int threads : new int[] {0, 1, 2, 3}) {
                assertEquals(expected, LineCounter.count(f, size, threads), "size " + size + ", threads " + threads);
            }
        }
    }

    /**
     * A file another process cut after its size was taken (as a {@code stat} just before gives it): the count goes to
     * where the file now ends, on one thread and on several, as GNU wc's reads would, and neither fails nor hangs.
     */
    @Test
    void aFileCutBeforeTheCountIsCountedToItsNewEnd() throws Exception {
        int size = (int) (3 * LineCounter.PIECE + 4_000);
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = i % 100 == 99 ? (byte) '\n' : (byte) 'x';
        }
        Path f = dir.resolve("cut");
        for (int cut : new int[] {0, 1, (int) LineCounter.PIECE / 2, (int) LineCounter.PIECE + 77, size - 1}) {
            for (int threads : new int[] {1, 2, 3}) {
                Files.write(f, b);
                truncate(f, cut);
                assertEquals(plainCount(b, 0, cut), LineCounter.count(f, size, threads),
                        "cut at " + cut + ", threads " + threads);
            }
        }
    }

    /** Cuts {@code f} to {@code size} bytes from another process, as a user's {@code truncate} would. */
    private static void truncate(Path f, long size) {
        try {
            Process p = new ProcessBuilder("truncate", "-s", Long.toString(size), f.toString()).inheritIO().start();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, "truncate failed");
            assertEquals(size, Files.size(f));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
