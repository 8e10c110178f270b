package io.sluice.maf;

import io.sluice.chunks.ChunkedReader;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A streaming parser of UCSC's Multiple Alignment Format, fed the input in chunks of any size, in order: lines cut
 * by a chunk's end are carried over to the next chunk. Each line is checked and reported to a {@link MafHandler}.
 *
 * <p>The format (version 1):
 * <ul>
 *   <li>The first line is the header, {@code ##maf version=1} with optional {@code key=value} pairs
 *       ({@code scoring=}, {@code program=}). Other lines starting with {@code #} are comments, anywhere.</li>
 *   <li>A block starts with an {@code a} line of {@code key=value} pairs ({@code score=}) and ends with a blank line
 *       (or the next {@code a} line, or the end of the input). It has at least one {@code s} line.</li>
 *   <li>{@code s src start size strand srcSize text}: start is 0-based, on the reverse strand when strand is
 *       {@code -}; size equals the non-dash characters of the text; start + size is at most srcSize; every text of a
 *       block has the same number of columns.</li>
 *   <li>{@code i src leftStatus leftCount rightStatus rightCount} (statuses {@code C I N n M T}) and
 *       {@code q src quality} (one of {@code 0-9 F -} per column) follow the {@code s} line of the same src.</li>
 *   <li>{@code e src start size strand srcSize status} (status {@code C I M n T}).</li>
 * </ul>
 * Fields are separated by runs of spaces or tabs; trailing blanks and a CR before the LF are ignored. Anything else is
 * refused with a {@link MafFormatException} giving the line number and the byte offset of the first wrong byte.
 *
 * <p>The hot loop works on bytes: a newline is found eight bytes at a time, numbers are parsed in place, the text is
 * checked and its dashes counted eight bytes at a time, and no {@code String} is made unless a handler asks for one.
 * Not thread-safe.
 *
 * {@snippet :
 * MafIndex.Builder index = MafIndex.builder();
 * MafParser parser = new MafParser(index, "chr22.maf");
 * try (ChunkedReader r = ChunkedReader.open(path)) {
 *     for (MemorySegment chunk; (chunk = r.next()) != null; ) {
 *         parser.feed(chunk);
 *     }
 * }
 * parser.finish();
 * MafIndex idx = index.build();
 * }
 */
public final class MafParser {
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long LOWS = 0x7f7f7f7f7f7f7f7fL;
    private static final long NEWLINES = '\n' * ONES;
    private static final long DASHES = '-' * ONES;
    /** Added to the low seven bits of a byte, sets its high bit exactly when the byte is 0x21 ('!') or more. */
    private static final long ABOVE_BLANK = 0x5f * ONES;
    /** The longest line carried across chunks; a longer one is refused rather than exhausting memory. */
    private static final long MAX_LINE = 1L << 30;

    private final MafHandler handler;
    private final String source;
    private final MafLine line = new MafLine();

    private long offset;
    private long lineNumber;
    private MemorySegment carry = Arena.ofAuto().allocate(4096, 8);
    private long carryLength;
    private long carryStart;
    private boolean headerSeen;
    private boolean finished;

    private boolean inBlock;
    private long blockOffset;
    private long blockLine;
    private int rows;
    private long columns;
    private long blocks;
    private byte[] lastSrc = new byte[64];
    private int lastSrcLength = -1;
    private long lastTextLength;

    /** The field cursor within the current line, and the last token's start. */
    private long p;
    private long tokenFrom;

    /**
     * A parser reporting to {@code handler}.
     *
     * @param source what is parsed (a file name), for error messages
     */
    public MafParser(MafHandler handler, String source) {
        this.handler = Objects.requireNonNull(handler, "handler");
        this.source = Objects.requireNonNull(source, "source");
    }

    /**
     * Parses all of {@code reader}'s input into {@code handler}, then {@link #finish()}es.
     *
     * @return the parser, for its counts
     */
    public static MafParser parse(ChunkedReader reader, MafHandler handler, String source) throws IOException {
        MafParser parser = new MafParser(handler, source);
        for (MemorySegment chunk; (chunk = reader.next()) != null; ) {
            parser.feed(chunk);
        }
        parser.finish();
        return parser;
    }

    /** The bytes fed so far. */
    public long bytes() {
        return offset;
    }

    /** The lines parsed so far. */
    public long lines() {
        return lineNumber;
    }

    /** The blocks started so far. */
    public long blocks() {
        return blocks;
    }

    // ---------------------------------------------------------------- feeding

    /** Parses the next {@code chunk} of the input; it may end anywhere, even inside a line. */
    public void feed(MemorySegment chunk) throws MafFormatException {
        if (finished) {
            throw new IllegalStateException("finish() was called");
        }
        long n = chunk.byteSize();
        long pos = 0;
        if (carryLength > 0) {
            long nl = indexOfNewline(chunk, 0, n);
            appendCarry(chunk, 0, nl < 0 ? n : nl);
            if (nl < 0) {
                offset += n;
                return;
            }
            long length = carryLength;
            carryLength = 0;
            parseLine(carry, carryStart, 0, length);
            pos = nl + 1;
        }
        while (pos < n) {
            long nl = indexOfNewline(chunk, pos, n);
            if (nl < 0) {
                carryStart = offset + pos;
                appendCarry(chunk, pos, n - pos);
                break;
            }
            parseLine(chunk, offset, pos, nl);
            pos = nl + 1;
        }
        offset += n;
    }

    /** {@link #feed(MemorySegment)} for a buffer, from its position to its limit (the position is not moved). */
    public void feed(ByteBuffer chunk) throws MafFormatException {
        feed(MemorySegment.ofBuffer(chunk));
    }

    /** {@link #feed(MemorySegment)} for {@code bytes[off, off + len)}. */
    public void feed(byte[] bytes, int off, int len) throws MafFormatException {
        Objects.checkFromIndexSize(off, len, bytes.length);
        feed(MemorySegment.ofArray(bytes).asSlice(off, len));
    }

    /**
     * The input is over: parses a last line that had no newline and ends the open block.
     *
     * @throws MafFormatException if the input had no header (it was empty, say) or its last block is wrong
     */
    public void finish() throws MafFormatException {
        if (finished) {
            return;
        }
        if (carryLength > 0) {
            long length = carryLength;
            carryLength = 0;
            parseLine(carry, carryStart, 0, length);
        }
        finished = true;
        if (!headerSeen) {
            throw new MafFormatException(source, 1, 0, "empty input: no '##maf version=1' header");
        }
        if (inBlock) {
            endBlock(offset);
        }
    }

    private void appendCarry(MemorySegment from, long at, long length) throws MafFormatException {
        long need = carryLength + length;
        if (need > MAX_LINE) {
            throw error(carryStart, "a line longer than " + MAX_LINE + " bytes");
        }
        if (need > carry.byteSize()) {
            MemorySegment bigger = Arena.ofAuto().allocate(Math.max(need, carry.byteSize() * 2), 8);
            MemorySegment.copy(carry, 0, bigger, 0, carryLength);
            carry = bigger;
        }
        MemorySegment.copy(from, at, carry, carryLength, length);
        carryLength = need;
    }

    // ---------------------------------------------------------------- lines

    private static boolean blank(byte b) {
        return b == ' ' || b == '\t' || b == '\r';
    }

    /** Parses {@code s[from, to)} (no newline); {@code base} is the input offset of {@code s}'s byte 0. */
    private void parseLine(MemorySegment s, long base, long from, long to) throws MafFormatException {
        lineNumber++;
        long end = to;
        while (end > from && blank(s.get(BYTE, end - 1))) {
            end--;
        }
        if (!headerSeen) {
            header(s, base, from, end);
            return;
        }
        if (end == from) {
            if (inBlock) {
                endBlock(base + from);
            }
            return;
        }
        byte type = s.get(BYTE, from);
        if (type == '#') {
            return;
        }
        if (from + 1 < end && !blank(s.get(BYTE, from + 1))) {
            throw error(base + from, "unknown line type '" + text(s, from, Math.min(end, from + 20)) + "'"
                    + " (lines start with a, s, i, e, q or #, then a blank)");
        }
        switch (type) {
            case 'a' -> blockStart(s, base, from, end);
            case 's' -> sequence(s, base, from, end);
            case 'i' -> info(s, base, from, end);
            case 'e' -> empty(s, base, from, end);
            case 'q' -> quality(s, base, from, end);
            default -> throw error(base + from, "unknown line type '" + (char) (type & 0xff) + "'");
        }
    }

    private void header(MemorySegment s, long base, long from, long end) throws MafFormatException {
        p = from;
        if (!token(s, end) || !text(s, tokenFrom, p).equals("##maf")) {
            throw error(base + from, "not MAF: the first line must be '##maf version=1', not '"
                    + text(s, from, Math.min(end, from + 40)) + "'");
        }
        long pairs = p;
        String version = null;
        while (token(s, end)) {
            String pair = text(s, tokenFrom, p);
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw error(base + tokenFrom, "header: expected key=value, not '" + pair + "'");
            }
            if (pair.startsWith("version=")) {
                version = pair.substring(eq + 1);
            }
        }
        if (version == null) {
            throw error(base + from, "header: no version=");
        }
        if (!version.equals("1")) {
            throw error(base + from, "header: version " + version + " is not supported (only 1)");
        }
        headerSeen = true;
        line.reset(s, base, from, end, lineNumber, '#');
        line.pairsFrom = skipBlanks(s, pairs, end);
        handler.header(line);
    }

    private void blockStart(MemorySegment s, long base, long from, long end) throws MafFormatException {
        if (inBlock) {
            // No blank line before it: the format asks for one, but the next block is unmistakable.
            endBlock(base + from);
        }
        p = from + 1;
        while (token(s, end)) {
            long eq = -1;
            for (long i = tokenFrom; i < p; i++) {
                if (s.get(BYTE, i) == '=') {
                    eq = i;
                    break;
                }
            }
            if (eq <= tokenFrom) {
                throw error(base + tokenFrom, "a line: expected key=value, not '" + text(s, tokenFrom, p) + "'");
            }
        }
        inBlock = true;
        blockOffset = base + from;
        blockLine = lineNumber;
        rows = 0;
        lastSrcLength = -1;
        blocks++;
        line.reset(s, base, from, end, lineNumber, 'a');
        line.pairsFrom = skipBlanks(s, from + 1, end);
        handler.blockStart(line);
    }

    private void sequence(MemorySegment s, long base, long from, long end) throws MafFormatException {
        requireBlock(base + from, 's');
        MafLine l = line;
        l.reset(s, base, from, end, lineNumber, 's');
        p = from + 1;
        src(s, base, end, 's');
        l.srcFrom = tokenFrom;
        l.srcTo = p;
        l.start = number(s, base, end, "s", "start");
        long startAt = tokenFrom;
        l.size = number(s, base, end, "s", "size");
        long sizeAt = tokenFrom;
        l.strand = strand(s, base, end, "s");
        l.srcSize = number(s, base, end, "s", "srcSize");
        long t = skipBlanks(s, p, end);
        if (t == end) {
            throw error(base + end, "s line: no alignment text");
        }
        long dashes = dashes(s, t, end);
        if (dashes < 0) {
            long bad = -1 - dashes;
            throw error(base + bad, "s line: " + describe(s.get(BYTE, bad)) + " in the alignment text"
                    + (blank(s.get(BYTE, bad)) ? " (a field after the text?)" : ""));
        }
        long columnsHere = end - t;
        long bases = columnsHere - dashes;
        if (bases != l.size) {
            throw error(base + sizeAt, "s line: size " + l.size + " does not match the " + bases
                    + " bases of the text");
        }
        if (l.start > l.srcSize - l.size) {
            throw error(base + startAt, "s line: start " + l.start + " + size " + l.size + " is past srcSize "
                    + l.srcSize);
        }
        if (rows > 0 && columnsHere != columns) {
            throw error(base + t, "s line: a text of " + columnsHere + " columns in a block whose first has "
                    + columns);
        }
        rows++;
        columns = columnsHere;
        l.textFrom = t;
        l.textTo = end;
        rememberSrc(s, l.srcFrom, l.srcTo);
        lastTextLength = columnsHere;
        handler.sequence(l);
    }

    private void info(MemorySegment s, long base, long from, long end) throws MafFormatException {
        requireBlock(base + from, 'i');
        MafLine l = line;
        l.reset(s, base, from, end, lineNumber, 'i');
        p = from + 1;
        src(s, base, end, 'i');
        l.srcFrom = tokenFrom;
        l.srcTo = p;
        sameSrc(s, base, 'i');
        l.leftStatus = status(s, base, end, "i", "leftStatus", "CINnMT");
        l.leftCount = number(s, base, end, "i", "leftCount");
        l.rightStatus = status(s, base, end, "i", "rightStatus", "CINnMT");
        l.rightCount = number(s, base, end, "i", "rightCount");
        noMore(s, base, end, 'i');
        handler.info(l);
    }

    private void empty(MemorySegment s, long base, long from, long end) throws MafFormatException {
        requireBlock(base + from, 'e');
        MafLine l = line;
        l.reset(s, base, from, end, lineNumber, 'e');
        p = from + 1;
        src(s, base, end, 'e');
        l.srcFrom = tokenFrom;
        l.srcTo = p;
        l.start = number(s, base, end, "e", "start");
        long startAt = tokenFrom;
        l.size = number(s, base, end, "e", "size");
        l.strand = strand(s, base, end, "e");
        l.srcSize = number(s, base, end, "e", "srcSize");
        l.status = status(s, base, end, "e", "status", "CIMnT");
        noMore(s, base, end, 'e');
        if (l.start > l.srcSize - l.size) {
            throw error(base + startAt, "e line: start " + l.start + " + size " + l.size + " is past srcSize "
                    + l.srcSize);
        }
        handler.empty(l);
    }

    private void quality(MemorySegment s, long base, long from, long end) throws MafFormatException {
        requireBlock(base + from, 'q');
        MafLine l = line;
        l.reset(s, base, from, end, lineNumber, 'q');
        p = from + 1;
        src(s, base, end, 'q');
        l.srcFrom = tokenFrom;
        l.srcTo = p;
        sameSrc(s, base, 'q');
        long t = skipBlanks(s, p, end);
        if (t == end) {
            throw error(base + end, "q line: no quality");
        }
        for (long i = t; i < end; i++) {
            byte b = s.get(BYTE, i);
            if ((b < '0' || b > '9') && b != 'F' && b != '-') {
                throw error(base + i, "q line: " + describe(b) + " in the quality (0-9, F or -)");
            }
        }
        if (end - t != lastTextLength) {
            throw error(base + t, "q line: " + (end - t) + " qualities for a text of " + lastTextLength
                    + " columns");
        }
        l.textFrom = t;
        l.textTo = end;
        handler.quality(l);
    }

    private void endBlock(long endOffset) throws MafFormatException {
        inBlock = false;
        if (rows == 0) {
            throw new MafFormatException(source, blockLine, blockOffset, "a block without any s line");
        }
        handler.blockEnd(endOffset);
    }

    // ---------------------------------------------------------------- fields

    private void requireBlock(long at, char type) throws MafFormatException {
        if (!inBlock) {
            throw error(at, type + " line outside a block (no 'a' line before it)");
        }
    }

    private void src(MemorySegment s, long base, long end, char type) throws MafFormatException {
        if (!token(s, end)) {
            throw error(base + end, type + " line: no src");
        }
    }

    /** The src just read names the sequence of the last {@code s} line. */
    private void sameSrc(MemorySegment s, long base, char type) throws MafFormatException {
        if (lastSrcLength < 0) {
            throw error(base + tokenFrom, type + " line: no s line before it in this block");
        }
        long length = p - tokenFrom;
        boolean same = length == lastSrcLength;
        for (int i = 0; same && i < length; i++) {
            same = s.get(BYTE, tokenFrom + i) == lastSrc[i];
        }
        if (!same) {
            throw error(base + tokenFrom, type + " line: src '" + text(s, tokenFrom, p)
                    + "' is not the src of the s line before it ('"
                    + new String(lastSrc, 0, lastSrcLength, StandardCharsets.ISO_8859_1) + "')");
        }
    }

    private void rememberSrc(MemorySegment s, long from, long to) {
        int length = (int) (to - from);
        if (length > lastSrc.length) {
            lastSrc = new byte[Math.max(length, lastSrc.length * 2)];
        }
        MemorySegment.copy(s, BYTE, from, lastSrc, 0, length);
        lastSrcLength = length;
    }

    private static long skipBlanks(MemorySegment s, long i, long end) {
        while (i < end && blank(s.get(BYTE, i))) {
            i++;
        }
        return i;
    }

    /** The next field: {@code [tokenFrom, p)}; false when the line has no more. */
    private boolean token(MemorySegment s, long end) {
        long i = skipBlanks(s, p, end);
        if (i == end) {
            p = i;
            return false;
        }
        tokenFrom = i;
        while (i < end && !blank(s.get(BYTE, i))) {
            i++;
        }
        p = i;
        return true;
    }

    private long number(MemorySegment s, long base, long end, String type, String field) throws MafFormatException {
        if (!token(s, end)) {
            throw error(base + end, type + " line: no " + field);
        }
        long v = 0;
        for (long i = tokenFrom; i < p; i++) {
            int d = s.get(BYTE, i) - '0';
            if (d < 0 || d > 9) {
                throw error(base + tokenFrom, type + " line: " + field + " '" + text(s, tokenFrom, p)
                        + "' is not a number");
            }
            if (v > (Long.MAX_VALUE - d) / 10) {
                throw error(base + tokenFrom, type + " line: " + field + " '" + text(s, tokenFrom, p)
                        + "' is too large");
            }
            v = v * 10 + d;
        }
        return v;
    }

    private char strand(MemorySegment s, long base, long end, String type) throws MafFormatException {
        if (!token(s, end)) {
            throw error(base + end, type + " line: no strand");
        }
        byte b = s.get(BYTE, tokenFrom);
        if (p - tokenFrom != 1 || (b != '+' && b != '-')) {
            throw error(base + tokenFrom, type + " line: strand '" + text(s, tokenFrom, p) + "' is not + or -");
        }
        return (char) b;
    }

    private char status(MemorySegment s, long base, long end, String type, String field, String allowed)
            throws MafFormatException {
        if (!token(s, end)) {
            throw error(base + end, type + " line: no " + field);
        }
        byte b = s.get(BYTE, tokenFrom);
        if (p - tokenFrom != 1 || allowed.indexOf(b) < 0) {
            throw error(base + tokenFrom, type + " line: " + field + " '" + text(s, tokenFrom, p)
                    + "' is not one of " + allowed);
        }
        return (char) b;
    }

    private void noMore(MemorySegment s, long base, long end, char type) throws MafFormatException {
        if (token(s, end)) {
            throw error(base + tokenFrom, type + " line: unexpected field '" + text(s, tokenFrom, p) + "'");
        }
    }

    // ---------------------------------------------------------------- eight bytes at a time

    /** The index of the first '\n' in {@code s[from, to)}, or -1. */
    static long indexOfNewline(MemorySegment s, long from, long to) {
        long i = from;
        for (; i + 8 <= to; i += 8) {
            long x = s.get(WORD, i) ^ NEWLINES;
            // High bit set exactly in the bytes of x that are zero (no carry crosses a byte).
            long zero = ~(((x & LOWS) + LOWS) | x | LOWS);
            if (zero != 0) {
                return i + (Long.numberOfTrailingZeros(zero) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (s.get(BYTE, i) == '\n') {
                return i;
            }
        }
        return -1;
    }

    /**
     * The number of '-' in {@code s[from, to)}, or {@code -1 - i} where byte {@code i} is a blank or a control
     * byte (a text has none).
     */
    static long dashes(MemorySegment s, long from, long to) {
        long count = 0;
        long i = from;
        for (; i + 8 <= to; i += 8) {
            long w = s.get(WORD, i);
            long below = ~(((w & LOWS) + ABOVE_BLANK) | w) & HIGHS;
            if (below != 0) {
                return -1 - (i + (Long.numberOfTrailingZeros(below) >>> 3));
            }
            long x = w ^ DASHES;
            count += Long.bitCount(~(((x & LOWS) + LOWS) | x | LOWS));
        }
        for (; i < to; i++) {
            int b = s.get(BYTE, i) & 0xff;
            if (b <= ' ') {
                return -1 - i;
            }
            if (b == '-') {
                count++;
            }
        }
        return count;
    }

    // ---------------------------------------------------------------- messages

    private MafFormatException error(long at, String problem) {
        return new MafFormatException(source, lineNumber, at, problem);
    }

    private static String describe(byte b) {
        int v = b & 0xff;
        return v > ' ' && v < 0x7f ? "'" + (char) v + "'" : String.format("byte 0x%02x", v);
    }

    private static String text(MemorySegment s, long from, long to) {
        return new String(s.asSlice(from, to - from).toArray(BYTE), StandardCharsets.ISO_8859_1);
    }
}
