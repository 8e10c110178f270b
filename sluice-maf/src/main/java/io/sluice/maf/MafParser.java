package io.sluice.maf;

import io.sluice.chunks.ChunkedReader;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * A streaming parser of UCSC's Multiple Alignment Format, fed the input in chunks of any size, in order: lines cut
 * by a chunk's end are carried over to the next chunk. Each line is checked and reported to a {@link MafHandler}.
 *
 * <p>The format (version 1):
 * <ul>
 *   <li>The first line is the header, {@code ##maf version=1} with optional {@code key=value} pairs
 *       ({@code scoring=}, {@code program=}). Other lines starting with {@code #} are comments, anywhere.</li>
 *   <li>{@code track} and {@code browser} lines may come before the header: UCSC's genome browser asks for a
 *       {@code track} line first in a MAF custom track, and its downloads keep them. They are skipped, not
 *       reported.</li>
 *   <li>A block starts with an {@code a} line of {@code key=value} pairs and ends with a blank line (or the next
 *       {@code a} line, or the end of the input). {@code score=} must be a decimal number and {@code pass=} a whole
 *       one, as the format defines them (UCSC's reader would read {@code score=abc} as 0 without a word); other keys
 *       are passed on unchecked. A block has at least one {@code s} line.</li>
 *   <li>{@code s src start size strand srcSize text}: start is 0-based, on the reverse strand when strand is
 *       {@code -}; start + size is at most srcSize (UCSC's reader refuses the line otherwise); every text of a block
 *       has the same number of columns (ditto). The text holds bases (letters, any case: IUPAC codes and soft
 *       masking) and gaps: {@code -}, and {@code .}, which some aligners write for a gap and which counts, like
 *       {@code -}, as no base; size equals the text's letters. Any other byte in a text is refused.</li>
 *   <li>{@code i src leftStatus leftCount rightStatus rightCount} (statuses {@code C I N n M T}) and
 *       {@code q src quality} (one of {@code 0-9 F -} per column) follow the {@code s} line of the same src.</li>
 *   <li>{@code e src start size strand srcSize status} (status {@code C I M n T}): size is the length of the
 *       unaligned stretch the block bridges, which may run past the end of the source (UCSC's reader keeps it as a
 *       gap length, not a range, and bioruby-maf's {@code big-block.maf} has such lines), so only start is checked:
 *       at most srcSize.</li>
 *   <li>A last line that stops short (a field missing, or a text or quality shorter than the block's columns),
 *       with or without its newline, is what a copy cut off in mid-write leaves: it is dropped, the block before it
 *       is kept, and {@link #cutShortAt()} says where (bioruby-maf keeps the blocks of such a file, as of its
 *       {@code big-block.maf}, whose last line lacks an {@code i} line's last field; UCSC's reader stops at the short
 *       line). Such a line with anything after it, even a blank line, is refused; anything wrong in what the line
 *       does hold is refused too.</li>
 * </ul>
 * <p>The hot loop works on bytes: a newline is found in the chunk eight bytes at a time, the line is copied into one
 * reused array (a line cut by the chunk's end is completed there from the next chunk), its fields are parsed in place,
 * the text is checked and its dashes counted eight bytes at a time, and no {@code String} is made unless a handler
 * asks for one. (Parsing from the array rather than the segment: the per-field loops then compile to plain indexed
 * loads, and the copy of a line already in the CPU's cache costs less than what it saves.) Not thread-safe.
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
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long LOWS = 0x7f7f7f7f7f7f7f7fL;
    private static final long NEWLINES = '\n' * ONES;
    private static final long CASE = 0x20 * ONES;
    /** Added to a byte below 0x80, these set its high bit exactly when it is at least 'a', '{', '-' and '/'. */
    private static final long FROM_A = (0x80 - 'a') * ONES;
    private static final long PAST_Z = (0x80 - 'z' - 1) * ONES;
    private static final long FROM_DASH = (0x80 - '-') * ONES;
    private static final long PAST_DOT = (0x80 - '.' - 1) * ONES;
    /** The longest line; a longer one is refused rather than exhausting memory. */
    private static final int MAX_LINE = 1 << 30;

    private final MafHandler handler;
    private final String source;
    private final MafLine line = new MafLine();

    private long offset;
    private long lineNumber;
    /** The current line, or the part of it seen so far when a chunk cut it; its first byte is at input offset {@code lineOffset}. */
    private byte[] buf = new byte[4096];
    private int length;
    private long lineOffset;
    private boolean carrying;
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
    /** The error just made is one a line cut short gives. */
    private boolean shortError;
    /**
     * A line stopped short: refused if any input follows, dropped by {@link #finish()} if it was the last (the input
     * offset of its first byte is {@link #shortAt}).
     */
    private MafFormatException pendingShort;
    private long shortAt;
    private long cutShortAt = -1;

    /** The field cursor within the current line, and the last token's start. */
    private int p;
    private int tokenFrom;

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

    /**
     * The input offset of the input's last line when it stopped short (a field missing, a text or quality shorter
     * than its block's), which {@link #finish()} dropped as the mark of a cut-off copy; -1 when there was none.
     */
    public long cutShortAt() {
        return cutShortAt;
    }

    // ---------------------------------------------------------------- feeding

    /** Parses the next {@code chunk} of the input; it may end anywhere, even inside a line. */
    public void feed(MemorySegment chunk) throws MafFormatException {
        if (finished) {
            throw new IllegalStateException("finish() was called");
        }
        long n = chunk.byteSize();
        if (pendingShort != null && n > 0) {
            throw pendingShort;
        }
        long pos = 0;
        while (pos < n) {
            long nl = indexOfNewline(chunk, pos, n);
            long end = nl < 0 ? n : nl;
            if (!carrying) {
                lineOffset = offset + pos;
            }
            append(chunk, pos, end - pos);
            if (nl < 0) {
                carrying = true;
                break;
            }
            carrying = false;
            int l = length;
            length = 0;
            parseLineOrHold(l);
            pos = nl + 1;
            if (pendingShort != null && pos < n) {
                throw pendingShort;
            }
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
        boolean unterminated = carrying;
        if (carrying) {
            carrying = false;
            int l = length;
            length = 0;
            parseLineOrHold(l);
        }
        finished = true;
        if (pendingShort != null) {
            cutShortAt = shortAt;
            pendingShort = null;
        }
        if (!headerSeen) {
            if (lineNumber > 0) {
                throw new MafFormatException(source, unterminated ? lineNumber : lineNumber + 1, offset,
                        "no '##maf version=1' header after the track and browser lines");
            }
            throw new MafFormatException(source, 1, 0, "empty input: no '##maf version=1' header");
        }
        if (inBlock) {
            endBlock(offset);
        }
    }

    /** Appends {@code from[at, at + n)} to the line in {@link #buf}. */
    private void append(MemorySegment from, long at, long n) throws MafFormatException {
        long need = length + n;
        if (need > MAX_LINE) {
            throw error(lineOffset, "a line longer than " + MAX_LINE + " bytes");
        }
        if (need > buf.length) {
            buf = Arrays.copyOf(buf, (int) Math.min(MAX_LINE, Math.max(need, 2L * buf.length)));
        }
        MemorySegment.copy(from, BYTE, at, buf, length, (int) n);
        length = (int) need;
    }

    // ---------------------------------------------------------------- lines

    /** A byte that separates tokens: space, tab, or a carriage return (of a CRLF file, or stray). */
    static boolean blank(byte b) {
        return b == ' ' || b == '\t' || b == '\r';
    }

    /**
     * {@link #parseLine}, but a line that stops short is held rather than refused: it may be the input's last, which
     * a copy cut off in mid-write leaves.
     */
    private void parseLineOrHold(int to) throws MafFormatException {
        try {
            parseLine(to);
        } catch (MafFormatException e) {
            if (!shortError) {
                throw e;
            }
            shortError = false;
            pendingShort = e;
            shortAt = lineOffset;
        }
    }

    /** Parses the line in {@code buf[0, to)} (no newline). */
    private void parseLine(int to) throws MafFormatException {
        byte[] b = buf;
        lineNumber++;
        int end = to;
        while (end > 0 && blank(b[end - 1])) {
            end--;
        }
        if (!headerSeen) {
            header(b, end);
            return;
        }
        if (end == 0) {
            if (inBlock) {
                endBlock(lineOffset);
            }
            return;
        }
        byte type = b[0];
        if (type == '#') {
            return;
        }
        if (end > 1 && !blank(b[1])) {
            throw error(0, "unknown line type '" + text(b, 0, Math.min(end, 20)) + "'"
                    + " (lines start with a, s, i, e, q or #, then a blank)");
        }
        switch (type) {
            case 'a' -> blockStart(b, end);
            case 's' -> sequence(b, end);
            case 'i' -> info(b, end);
            case 'e' -> empty(b, end);
            case 'q' -> quality(b, end);
            default -> throw error(0, "unknown line type '" + (char) (type & 0xff) + "'");
        }
    }

    private void header(byte[] b, int end) throws MafFormatException {
        p = 0;
        boolean word = token(b, end);
        if (word && (isWord(b, "track") || isWord(b, "browser"))) {
            return;
        }
        if (!word || !text(b, tokenFrom, p).equals("##maf")) {
            throw error(0, "not MAF: the first line must be '##maf version=1', not '" + text(b, 0, Math.min(end, 40))
                    + "'");
        }
        int pairs = p;
        String version = null;
        while (token(b, end)) {
            String pair = text(b, tokenFrom, p);
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw error(tokenFrom, "header: expected key=value, not '" + pair + "'");
            }
            if (pair.startsWith("version=")) {
                version = pair.substring(eq + 1);
            }
        }
        if (version == null) {
            throw error(0, "header: no version=");
        }
        if (!version.equals("1")) {
            throw error(0, "header: version " + version + " is not supported (only 1)");
        }
        headerSeen = true;
        line.reset(b, lineOffset, end, lineNumber, '#');
        line.pairsFrom = skipBlanks(b, pairs, end);
        handler.header(line);
    }

    /** The token just read is {@code word}. */
    private boolean isWord(byte[] b, String word) {
        return p - tokenFrom == word.length() && text(b, tokenFrom, p).equals(word);
    }

    private void blockStart(byte[] b, int end) throws MafFormatException {
        if (inBlock) {
            // No blank line before it: the format asks for one, but the next block is unmistakable.
            endBlock(lineOffset);
        }
        p = 1;
        while (token(b, end)) {
            int eq = tokenFrom;
            while (eq < p && b[eq] != '=') {
                eq++;
            }
            if (eq == tokenFrom || eq == p) {
                throw error(tokenFrom, "a line: expected key=value, not '" + text(b, tokenFrom, p) + "'");
            }
            String key = text(b, tokenFrom, eq);
            if (key.equals("score") && !decimal(b, eq + 1, p)) {
                throw error(eq + 1, "a line: score '" + text(b, eq + 1, p) + "' is not a decimal number");
            }
            if (key.equals("pass") && !whole(b, eq + 1, p)) {
                throw error(eq + 1, "a line: pass '" + text(b, eq + 1, p) + "' is not a whole number");
            }
        }
        inBlock = true;
        blockOffset = lineOffset;
        blockLine = lineNumber;
        rows = 0;
        lastSrcLength = -1;
        blocks++;
        line.reset(b, lineOffset, end, lineNumber, 'a');
        line.pairsFrom = skipBlanks(b, 1, end);
        handler.blockStart(line);
    }

    private void sequence(byte[] b, int end) throws MafFormatException {
        requireBlock('s');
        MafLine l = line;
        l.reset(b, lineOffset, end, lineNumber, 's');
        p = 1;
        src(b, end, 's');
        l.srcFrom = tokenFrom;
        l.srcTo = p;
        l.start = number(b, end, "s", "start");
        int startAt = tokenFrom;
        l.size = number(b, end, "s", "size");
        int sizeAt = tokenFrom;
        l.strand = strand(b, end, "s");
        l.srcSize = number(b, end, "s", "srcSize");
        int t = skipBlanks(b, p, end);
        if (t == end) {
            throw missing(end, "s line: no alignment text");
        }
        long bases = bases(b, t, end);
        if (bases < 0) {
            int bad = (int) (-1 - bases);
            throw error(bad, "s line: " + describe(b[bad]) + " in the alignment text"
                    + (blank(b[bad]) ? " (a field after the text?)" : " (bases are letters, gaps '-' or '.')"));
        }
        int columnsHere = end - t;
        if (rows > 0 && columnsHere != columns) {
            String problem = "s line: a text of " + columnsHere + " columns in a block whose first has " + columns;
            throw columnsHere < columns ? missing(t, problem) : error(t, problem);
        }
        if (bases != l.size) {
            throw error(sizeAt, "s line: size " + l.size + " does not match the " + bases + " bases of the text");
        }
        if (l.start > l.srcSize - l.size) {
            throw error(startAt, "s line: start " + l.start + " + size " + l.size + " is past srcSize " + l.srcSize);
        }
        rows++;
        columns = columnsHere;
        l.textFrom = t;
        l.textTo = end;
        rememberSrc(b, l.srcFrom, l.srcTo);
        lastTextLength = columnsHere;
        handler.sequence(l);
    }

    private void info(byte[] b, int end) throws MafFormatException {
        requireBlock('i');
        MafLine l = line;
        l.reset(b, lineOffset, end, lineNumber, 'i');
        p = 1;
        src(b, end, 'i');
        l.srcFrom = tokenFrom;
        l.srcTo = p;
        sameSrc(b, 'i');
        l.leftStatus = status(b, end, "i", "leftStatus", "CINnMT");
        l.leftCount = number(b, end, "i", "leftCount");
        l.rightStatus = status(b, end, "i", "rightStatus", "CINnMT");
        l.rightCount = number(b, end, "i", "rightCount");
        noMore(b, end, 'i');
        handler.info(l);
    }

    private void empty(byte[] b, int end) throws MafFormatException {
        requireBlock('e');
        MafLine l = line;
        l.reset(b, lineOffset, end, lineNumber, 'e');
        p = 1;
        src(b, end, 'e');
        l.srcFrom = tokenFrom;
        l.srcTo = p;
        l.start = number(b, end, "e", "start");
        int startAt = tokenFrom;
        l.size = number(b, end, "e", "size");
        l.strand = strand(b, end, "e");
        l.srcSize = number(b, end, "e", "srcSize");
        l.status = status(b, end, "e", "status", "CIMnT");
        noMore(b, end, 'e');
        if (l.start > l.srcSize) {
            throw error(startAt, "e line: start " + l.start + " is past srcSize " + l.srcSize);
        }
        handler.empty(l);
    }

    private void quality(byte[] b, int end) throws MafFormatException {
        requireBlock('q');
        MafLine l = line;
        l.reset(b, lineOffset, end, lineNumber, 'q');
        p = 1;
        src(b, end, 'q');
        l.srcFrom = tokenFrom;
        l.srcTo = p;
        sameSrc(b, 'q');
        int t = skipBlanks(b, p, end);
        if (t == end) {
            throw missing(end, "q line: no quality");
        }
        for (int i = t; i < end; i++) {
            byte x = b[i];
            if ((x < '0' || x > '9') && x != 'F' && x != '-') {
                throw error(i, "q line: " + describe(x) + " in the quality (0-9, F or -)");
            }
        }
        if (end - t != lastTextLength) {
            String problem = "q line: " + (end - t) + " qualities for a text of " + lastTextLength + " columns";
            throw end - t < lastTextLength ? missing(t, problem) : error(t, problem);
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

    private void requireBlock(char type) throws MafFormatException {
        if (!inBlock) {
            throw error(0, type + " line outside a block (no 'a' line before it)");
        }
    }

    private void src(byte[] b, int end, char type) throws MafFormatException {
        if (!token(b, end)) {
            throw missing(end, type + " line: no src");
        }
    }

    /** The src just read names the sequence of the last {@code s} line. */
    private void sameSrc(byte[] b, char type) throws MafFormatException {
        if (lastSrcLength < 0) {
            throw error(tokenFrom, type + " line: no s line before it in this block");
        }
        if (!Arrays.equals(b, tokenFrom, p, lastSrc, 0, lastSrcLength)) {
            throw error(tokenFrom, type + " line: src '" + text(b, tokenFrom, p)
                    + "' is not the src of the s line before it ('" + text(lastSrc, 0, lastSrcLength) + "')");
        }
    }

    private void rememberSrc(byte[] b, int from, int to) {
        int n = to - from;
        if (n > lastSrc.length) {
            lastSrc = new byte[Math.max(n, lastSrc.length * 2)];
        }
        System.arraycopy(b, from, lastSrc, 0, n);
        lastSrcLength = n;
    }

    private static int skipBlanks(byte[] b, int i, int end) {
        while (i < end && blank(b[i])) {
            i++;
        }
        return i;
    }

    /** The next field: {@code [tokenFrom, p)}; false when the line has no more. */
    private boolean token(byte[] b, int end) {
        int i = skipBlanks(b, p, end);
        if (i == end) {
            p = i;
            return false;
        }
        tokenFrom = i;
        while (i < end && !blank(b[i])) {
            i++;
        }
        p = i;
        return true;
    }

    private long number(byte[] b, int end, String type, String field) throws MafFormatException {
        if (!token(b, end)) {
            throw missing(end, type + " line: no " + field);
        }
        long v = 0;
        for (int i = tokenFrom; i < p; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9 || v > (Long.MAX_VALUE - d) / 10) {
                throw badNumber(b, type, field, d >= 0 && d <= 9);
            }
            v = v * 10 + d;
        }
        return v;
    }

    /** Out of line, so that {@link #number} stays small enough to inline into every caller. */
    private MafFormatException badNumber(byte[] b, String type, String field, boolean tooLarge) {
        return error(tokenFrom, type + " line: " + field + " '" + text(b, tokenFrom, p) + "' "
                + (tooLarge ? "is too large" : "is not a number"));
    }

    private char strand(byte[] b, int end, String type) throws MafFormatException {
        if (!token(b, end)) {
            throw missing(end, type + " line: no strand");
        }
        byte x = b[tokenFrom];
        if (p - tokenFrom != 1 || (x != '+' && x != '-')) {
            throw error(tokenFrom, type + " line: strand '" + text(b, tokenFrom, p) + "' is not + or -");
        }
        return (char) x;
    }

    private char status(byte[] b, int end, String type, String field, String allowed) throws MafFormatException {
        if (!token(b, end)) {
            throw missing(end, type + " line: no " + field);
        }
        byte x = b[tokenFrom];
        if (p - tokenFrom != 1 || allowed.indexOf(x) < 0) {
            throw error(tokenFrom, type + " line: " + field + " '" + text(b, tokenFrom, p) + "' is not one of "
                    + allowed);
        }
        return (char) x;
    }

    private void noMore(byte[] b, int end, char type) throws MafFormatException {
        if (token(b, end)) {
            throw error(tokenFrom, type + " line: unexpected field '" + text(b, tokenFrom, p) + "'");
        }
    }

    /** {@code b[from, to)} is a decimal number: a sign, digits with at most one point, an exponent. */
    private static boolean decimal(byte[] b, int from, int to) {
        int i = from;
        if (i < to && (b[i] == '-' || b[i] == '+')) {
            i++;
        }
        int digits = 0;
        boolean point = false;
        for (; i < to; i++) {
            byte x = b[i];
            if (x >= '0' && x <= '9') {
                digits++;
            } else if (x == '.' && !point) {
                point = true;
            } else {
                break;
            }
        }
        if (digits == 0) {
            return false;
        }
        if (i < to && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            if (i < to && (b[i] == '-' || b[i] == '+')) {
                i++;
            }
            return whole(b, i, to);
        }
        return i == to;
    }

    /** {@code b[from, to)} is one or more digits. */
    private static boolean whole(byte[] b, int from, int to) {
        if (from == to) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (b[i] < '0' || b[i] > '9') {
                return false;
            }
        }
        return true;
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
     * The number of letters in {@code b[from, to)}, or {@code -1 - i} where byte {@code i} is neither a letter nor a
     * gap ({@code -} or {@code .}).
     */
    static long bases(byte[] b, int from, int to) {
        long count = 0;
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long w = (long) LONGS.get(b, i);
            long ascii = ~w & HIGHS;
            long low = w & LOWS;
            // Folding in 0x20 maps upper case onto lower case and nothing else into 'a'..'z'; no sum carries out of
            // its byte, since every byte is at most 0x7f before the addition.
            long folded = low | CASE;
            long letters = (folded + FROM_A) & ~(folded + PAST_Z) & ascii;
            long gaps = (low + FROM_DASH) & ~(low + PAST_DOT) & ascii;
            long good = (letters | gaps) & HIGHS;
            if (good != HIGHS) {
                return -1 - (i + (Long.numberOfTrailingZeros(~good & HIGHS) >>> 3));
            }
            count += Long.bitCount(letters & HIGHS);
        }
        for (; i < to; i++) {
            int x = b[i] & 0xff;
            int folded = x | 0x20;
            if (folded >= 'a' && folded <= 'z') {
                count++;
            } else if (x != '-' && x != '.') {
                return -1 - i;
            }
        }
        return count;
    }

    // ---------------------------------------------------------------- messages

    /** A problem at byte {@code at} of the current line. */
    private MafFormatException error(int at, String problem) {
        return new MafFormatException(source, lineNumber, lineOffset + at, problem);
    }

    /**
     * A problem at byte {@code at} of the current line that a line cut short would give (a field or part of a text
     * missing): held, and refused only if more input follows (see {@link #parseLineOrHold}).
     */
    private MafFormatException missing(int at, String problem) {
        shortError = true;
        return error(at, problem);
    }

    /** A problem at input offset {@code at}, outside any one line. */
    private MafFormatException error(long at, String problem) {
        return new MafFormatException(source, lineNumber, at, problem);
    }

    private static String describe(byte b) {
        int v = b & 0xff;
        return v > ' ' && v < 0x7f ? "'" + (char) v + "'" : String.format("byte 0x%02x", v);
    }

    private static String text(byte[] b, int from, int to) {
        return new String(b, from, to - from, StandardCharsets.ISO_8859_1);
    }
}
