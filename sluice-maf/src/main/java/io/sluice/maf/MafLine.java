package io.sluice.maf;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One parsed line, as a {@link MafHandler} sees it: the numbers are parsed; the text fields stay bytes (in the
 * parser's line buffer) until a {@code String} is asked for. The parser reuses one instance for every line, so it is valid only during the
 * handler call that receives it.
 *
 * <p>Which accessors mean something depends on {@link #type()}: {@code s} has src, start, size, strand, srcSize and
 * text; {@code i} src, left and right status and count; {@code e} src, start, size, strand, srcSize and status;
 * {@code q} src and quality (as {@link #text()}); {@code a} and the header ({@code '#'}) their {@code key=value}
 * pairs. The others answer 0, -1 or an empty string.
 */
public final class MafLine {
    byte[] buf;
    /** The input offset of {@code buf[0]}, the line's first byte. */
    long base;
    int lineEnd;
    long lineNumber;
    char type;
    int srcFrom;
    int srcTo;
    long start;
    long size;
    char strand;
    long srcSize;
    int textFrom;
    int textTo;
    char leftStatus;
    long leftCount;
    char rightStatus;
    long rightCount;
    char status;
    /** Where the {@code key=value} pairs of an {@code a} line or the header start. */
    int pairsFrom;

    MafLine() {
    }

    void reset(byte[] buf, long base, int lineEnd, long lineNumber, char type) {
        this.buf = buf;
        this.base = base;
        this.lineEnd = lineEnd;
        this.lineNumber = lineNumber;
        this.type = type;
        srcFrom = srcTo = textFrom = textTo = pairsFrom = 0;
        start = size = srcSize = leftCount = rightCount = -1;
        strand = leftStatus = rightStatus = status = 0;
    }

    /** {@code 'a'}, {@code 's'}, {@code 'i'}, {@code 'e'}, {@code 'q'}, or {@code '#'} for the header. */
    public char type() {
        return type;
    }

    /** The line number, from 1. */
    public long lineNumber() {
        return lineNumber;
    }

    /** The input offset of the line's first byte. */
    public long offset() {
        return base;
    }

    /** The source sequence, as {@code hg38.chr22}. */
    public String src() {
        return string(srcFrom, srcTo);
    }

    /** The source name's length in bytes. */
    public int srcLength() {
        return srcTo - srcFrom;
    }

    /** Byte {@code i} of the source name: zero-copy access for indexes that hash names. */
    public byte srcByte(int i) {
        return buf[srcFrom + i];
    }

    /** The 0-based start of the aligned region in the source (on the reverse strand when {@link #strand()} is '-'). */
    public long start() {
        return start;
    }

    /**
     * The number of bases aligned (the letters of the text, which the parser checked); for an {@code e} line, the
     * length of the unaligned stretch the block bridges.
     */
    public long size() {
        return size;
    }

    /** {@code '+'} or {@code '-'}. */
    public char strand() {
        return strand;
    }

    /** The length of the whole source sequence. */
    public long srcSize() {
        return srcSize;
    }

    /** The start on the forward strand: {@link #start()}, or {@code srcSize - start - size} on the reverse. */
    public long forwardStart() {
        return strand == '-' ? srcSize - start - size : start;
    }

    /** The alignment text of an {@code s} line, or the quality string of a {@code q} line. */
    public String text() {
        return string(textFrom, textTo);
    }

    /** {@link #src()}'s bytes, in a new array. */
    public byte[] srcBytes() {
        return Arrays.copyOfRange(buf, srcFrom, srcTo);
    }

    /** {@link #text()}'s bytes, in a new array: one copy, no decoding. */
    public byte[] textBytes() {
        return Arrays.copyOfRange(buf, textFrom, textTo);
    }

    /** The length of {@link #text()} in columns. */
    public int textLength() {
        return textTo - textFrom;
    }

    /** Column {@code i} of the text. */
    public byte textByte(int i) {
        return buf[textFrom + i];
    }

    /** An {@code i} line's status of the sequence before the block ({@code C I N n M T}). */
    public char leftStatus() {
        return leftStatus;
    }

    /** An {@code i} line's count of bases between the previous block and this one. */
    public long leftCount() {
        return leftCount;
    }

    /** An {@code i} line's status of the sequence after the block. */
    public char rightStatus() {
        return rightStatus;
    }

    /** An {@code i} line's count of bases between this block and the next. */
    public long rightCount() {
        return rightCount;
    }

    /** An {@code e} line's status ({@code C I M n T}). */
    public char status() {
        return status;
    }

    /** The {@code key=value} pairs of an {@code a} line or the header, as written. */
    public String pairs() {
        return string(pairsFrom, lineEnd);
    }

    /** The value of {@code key} among the {@code key=value} pairs, or null. */
    public String value(String key) {
        // Pairs end where the parser's tokens end (MafParser.blank), so a value is the one the parser checked.
        for (int p = pairsFrom; p < lineEnd;) {
            while (p < lineEnd && MafParser.blank(buf[p])) {
                p++;
            }
            int from = p;
            int eq = -1;
            while (p < lineEnd && !MafParser.blank(buf[p])) {
                if (eq < 0 && buf[p] == '=') {
                    eq = p;
                }
                p++;
            }
            if (eq > from && string(from, eq).equals(key)) {
                return string(eq + 1, p);
            }
        }
        return null;
    }

    /** The whole line, without its end-of-line and trailing blanks. */
    @Override
    public String toString() {
        return string(0, lineEnd);
    }

    private String string(int from, int to) {
        return new String(buf, from, to - from, StandardCharsets.ISO_8859_1);
    }
}
