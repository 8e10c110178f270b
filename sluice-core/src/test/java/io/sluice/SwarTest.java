package io.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link Swar} against byte-by-byte references: every lane, every byte value, the borrow case. */
class SwarTest {
    /** The reference: the index of the first byte of {@code word} (little-endian) equal to {@code b}, or 8. */
    static int firstIndexReference(long word, byte b) {
        for (int i = 0; i < 8; i++) {
            if ((byte) (word >>> (8 * i)) == b) {
                return i;
            }
        }
        return 8;
    }

    /** The reference for {@link Swar#matches}: 0x80 in each matching byte. */
    static long matchesReference(long word, byte b) {
        long m = 0;
        for (int i = 0; i < 8; i++) {
            if ((byte) (word >>> (8 * i)) == b) {
                m |= 0x80L << (8 * i);
            }
        }
        return m;
    }

    static void check(long word, byte b) {
        long pattern = Swar.broadcast(b);
        // compared first, the message made only on failure: this runs tens of millions of times
        if (firstIndexReference(word, b) != Swar.firstIndexOf(word, pattern)
                || matchesReference(word, b) != Swar.matches(word, pattern)) {
            String what = String.format("word %016x, byte %02x", word, b & 0xFF);
            assertEquals(firstIndexReference(word, b), Swar.firstIndexOf(word, pattern), what);
            assertEquals(matchesReference(word, b), Swar.matches(word, pattern), what);
        }
    }

    static long word(byte[] bytes) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    @Test
    void broadcastRepeatsTheByteUnsigned() {
        assertEquals(0L, Swar.broadcast((byte) 0));
        assertEquals(0x3B3B_3B3B_3B3B_3B3BL, Swar.broadcast((byte) ';'));
        assertEquals(0x8080_8080_8080_8080L, Swar.broadcast((byte) 0x80));
        assertEquals(-1L, Swar.broadcast((byte) 0xFF));
    }

    @Test
    void everyPairOfLowBytesForEveryTargetByte() {
        // The two lowest lanes take every value, for every byte sought; the six above are fixed to bytes that are
        // not it, to 0x80, or to the byte itself (so the first match may be in lane 2).
        for (int target = 0; target < 256; target++) {
            byte b = (byte) target;
            long[] uppers = {Swar.broadcast((byte) (b ^ 1)), Swar.broadcast((byte) 0x80), Swar.broadcast(b)};
            for (long upper : uppers) {
                for (int pair = 0; pair < 1 << 16; pair++) {
                    check((upper & ~0xFFFFL) | pair, b);
                }
            }
        }
    }

    @Test
    void aMatchInEveryLaneSurroundedByEveryKindOfByte() {
        byte[] others = {0, 1, 0x7F, (byte) 0x80, (byte) 0x81, (byte) 0xFE, (byte) 0xFF, ';', '\n'};
        for (int target = 0; target < 256; target++) {
            byte b = (byte) target;
            for (int lane = 0; lane < 8; lane++) {
                for (byte below : others) {
                    for (byte above : others) {
                        if (below == b) {
                            continue; // the first match would be lower: covered elsewhere
                        }
                        byte[] w = new byte[8];
                        for (int i = 0; i < 8; i++) {
                            w[i] = i < lane ? below : i == lane ? b : above;
                        }
                        check(word(w), b);
                        // the borrow case: the byte right above the match differs from it in the lowest bit only,
                        // so word ^ pattern has 0x01 there, which the short form marks too
                        if (lane < 7) {
                            w[lane + 1] = (byte) (b ^ 1);
                            long x = word(w);
                            check(x, b);
                            assertEquals(lane, Swar.firstIndexOf(x, Swar.broadcast(b)));
                        }
                    }
                }
            }
        }
    }

    @Test
    void absentBytesGiveEightAndNoMarks() {
        for (int target = 0; target < 256; target++) {
            byte b = (byte) target;
            for (long filler : new long[] {Swar.broadcast((byte) (b ^ 1)), Swar.broadcast((byte) (b ^ 0x80)),
                    Swar.broadcast((byte) (b + 1)), Swar.broadcast((byte) (b - 1))}) {
                assertEquals(8, Swar.firstIndexOf(filler, Swar.broadcast(b)));
                assertEquals(0, Swar.matches(filler, Swar.broadcast(b)));
            }
        }
    }

    @Test
    void randomWordsAndWordsMadeOfFewValues() {
        SplittableRandom rnd = new SplittableRandom(13);
        byte[] few = {0, 1, 2, (byte) 0x80, (byte) 0x81, (byte) 0xFF, (byte) 0xFE, ';'};
        for (int i = 0; i < 1_000_000; i++) {
            long w;
            if (i % 2 == 0) {
                w = rnd.nextLong();
            } else {
                byte[] bytes = new byte[8];
                for (int k = 0; k < 8; k++) {
                    bytes[k] = few[rnd.nextInt(few.length)];
                }
                w = word(bytes);
            }
            check(w, i % 3 == 0 ? (byte) rnd.nextInt(256) : few[rnd.nextInt(few.length)]);
        }
    }

    @Test
    void lowBytesKeepsTheFirstNBytesForEveryN() {
        long w = 0x8877_6655_4433_2211L;
        long[] expected = {0, 0x11, 0x2211, 0x33_2211, 0x4433_2211L, 0x55_4433_2211L, 0x6655_4433_2211L,
                0x77_6655_4433_2211L, w};
        for (int n = 0; n <= 8; n++) {
            assertEquals(expected[n], Swar.lowBytes(w, n), "n = " + n);
            assertEquals(n == 8 ? -1L : (1L << (8 * n)) - 1, Swar.lowBytes(-1L, n), "all ones, n = " + n);
        }
    }

    @Test
    void wordLoadsAreLittleEndianAtAnyOffset() {
        byte[] bytes = "abc;defghij".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        MemorySegment s = MemorySegment.ofArray(bytes);
        long semicolon = Swar.broadcast((byte) ';');
        for (int at = 0; at + 8 <= bytes.length; at++) {
            int n = Swar.firstIndexOf(s.get(Swar.WORD, at), semicolon);
            assertEquals(at <= 3 ? 3 - at : 8, n, "from " + at);
        }
        assertEquals(0x63_6261L, Swar.lowBytes(s.get(Swar.WORD, 0), 3), "the name before ';' is \"abc\"");
    }
}
