package io.sluice;

import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Searching eight bytes at once in a {@code long} ("SIMD within a register"), for parsers' hot loops: load a word
 * with {@link #WORD}, find the first delimiter in it with {@link #firstIndexOf}, keep the bytes before it with
 * {@link #lowBytes}. Every method is a few arithmetic instructions with no branch and no allocation, small enough for
 * the JIT to inline into the caller's loop.
 *
 * <p>Words are little-endian throughout: byte 0 of a word is the byte at the lowest address, whatever the machine's
 * order, so "first" means first in the file. Load them with {@link #WORD}; a word loaded another way must be put in
 * this order first.
 *
 * {@snippet :
 * long semicolon = Swar.broadcast((byte) ';');             // once, outside the loop
 * long word = records.get(Swar.WORD, at);                 // eight bytes from at
 * int n = Swar.firstIndexOf(word, semicolon);             // 0..7, or 8 when none of the eight is ';'
 * if (n < 8) {
 *     long name = Swar.lowBytes(word, n);                 // the n bytes before ';', the rest zeroed
 * }
 * }
 *
 * <p>Loading eight bytes near the end of the data needs eight readable bytes; {@link ParallelScan#scanPadded} hands
 * over records followed by {@value ParallelScan#PADDING} readable bytes for that.
 */
public final class Swar {
    /** A little-endian {@code long} at any byte offset: how words are loaded for these methods. */
    public static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private static final long ONES = 0x0101_0101_0101_0101L;
    private static final long HIGHS = 0x8080_8080_8080_8080L;
    private static final long LOW7 = 0x7F7F_7F7F_7F7F_7F7FL;

    private Swar() {
    }

    /** {@code b} in each of the eight bytes of a word: the pattern the searches compare against. */
    public static long broadcast(byte b) {
        return (b & 0xFFL) * ONES;
    }

    /**
     * The index (0 to 7) of the first byte of {@code word} equal to the byte {@code pattern} repeats, or 8 when none
     * is.
     *
     * <p>This is the short form, {@code (x - 0x01..01) & ~x & 0x80..80} of {@code x = word ^ pattern}, which marks
     * every zero byte of {@code x} but may also mark a byte above one: subtracting 1 from a zero byte borrows from
     * the next, so a 0x01 byte sitting above a match looks like a match too. Such false marks only ever sit above a
     * true one, since no borrow starts below the lowest zero byte, so the lowest mark, the only one used here, is
     * always right. To count matches or walk through all of them, use {@link #matches}, which is exact.
     *
     * @param pattern {@link #broadcast} of the byte sought
     */
    public static int firstIndexOf(long word, long pattern) {
        long x = word ^ pattern;
        return Long.numberOfTrailingZeros((x - ONES) & ~x & HIGHS) >>> 3;
    }

    /**
     * 0x80 in each byte of the result whose byte in {@code word} equals the byte {@code pattern} repeats, 0 in every
     * other byte: exact, with none of {@link #firstIndexOf}'s false marks above a match, so the marks can be counted
     * ({@code Long.bitCount}) and walked through ({@code marks & (marks - 1)} clears the lowest;
     * {@code Long.numberOfTrailingZeros(marks) >>> 3} is its index). One more operation than the short form.
     *
     * @param pattern {@link #broadcast} of the byte sought
     */
    public static long matches(long word, long pattern) {
        long x = word ^ pattern;
        // Adding 0x7F to the low seven bits of a byte carries into its high bit unless they are all 0; OR-ing x
        // itself back covers its own high bit. Nothing carries across bytes, so no byte affects another.
        return ~(((x & LOW7) + LOW7) | x | LOW7);
    }

    /**
     * The first {@code n} bytes of {@code word} (its low {@code 8 * n} bits), the others zero: a name's bytes before
     * the delimiter {@link #firstIndexOf} found at {@code n}. Every {@code n} from 0 to 8 works, including 8 (the
     * whole word), where a plain {@code (1L << 8 * n) - 1} mask fails because Java shifts by {@code 64 % 64 = 0}.
     *
     * @param n 0 to 8
     */
    public static long lowBytes(long word, int n) {
        // (1 << 8n) - 1 for n up to 7; for n = 8 the shift is by 0 and gives 0, and -(n >>> 3) supplies every bit.
        long mask = ((1L << (n << 3)) - 1) | -(long) (n >>> 3);
        return word & mask;
    }
}
