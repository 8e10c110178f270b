package io.sluice.cli.wc;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;

/**
 * Counts lines, words, characters and the widest line the way GNU coreutils {@code wc} does, for the C locale or a
 * UTF-8 locale.
 *
 * <p>The rules, checked against the {@code wc} binary (coreutils 9.1, glibc 2.36):
 * <ul>
 *   <li>A line is a newline byte; a last line without one is not counted.</li>
 *   <li>A word starts at a printable, non-space character after a space or the start. Characters fall in three
 *       classes: <em>space</em> (tab, newline, vertical tab, form feed, carriage return, space, and in UTF-8 the
 *       printable Unicode spaces {@code iswspace} knows) ends a word; <em>printable</em> continues or starts one;
 *       everything else (control characters, bytes that are not valid UTF-8, code points {@code iswprint} refuses,
 *       among them U+2028 and U+2029) does neither: {@code "a\u0001b"} is one word, a lone {@code "\u0001"} none.
 *       Which characters are printable comes from {@link CharWidths}, a table taken from glibc.</li>
 *   <li>In UTF-8, wc also counts the no-break spaces U+00A0, U+2007, U+202F and the word joiner U+2060 as spaces,
 *       unless {@code POSIXLY_CORRECT} is set.</li>
 *   <li>Characters ({@code -m}): in the C locale, bytes. In UTF-8, what glibc's {@code mbrtowc} decodes: the shortest
 *       form of any value up to 0x7FFFFFFF in one to six bytes, so also four-byte forms past U+10FFFF and the old
 *       five- and six-byte forms (F8 88 80 80 80 is one character), but no longer form of a smaller value and no
 *       surrogate. Any other byte (a stray continuation byte, an overlong form, a surrogate, a sequence cut short)
 *       is skipped on its own and is not a character. Characters past U+10FFFF are not printable.</li>
 *   <li>Line width ({@code -L}): each printable character adds its {@code wcwidth} (CJK and most emoji 2, combining
 *       and other zero-width characters 0; in the C locale each printable ASCII byte 1); a tab moves to the next
 *       multiple of 8; newline, carriage return and form feed end the line (its width counts, and the next starts
 *       at 0); other control characters, invalid bytes and non-printable characters add nothing, vertical tab
 *       included. The widest line counts, the last one too when it has no newline.</li>
 *   <li>In the C locale every byte from 0x80 up is of the third class and adds no width.</li>
 * </ul>
 *
 * <p>Counts add up across calls, so a file can be counted in pieces; a piece must not cut a UTF-8 sequence, which
 * a piece ending after a newline never does. Not thread-safe: one counter per thread, then {@link #add}.
 */
public final class WordCounter {
    /** {@link #classify}: neither printable nor space (a control character, say). */
    public static final byte OTHER = 0;
    /** {@link #classify}: printable, so part of a word. */
    public static final byte PRINTABLE = 1;
    /** {@link #classify}: a space, which ends a word. */
    public static final byte SPACE = 2;

    /** The longest sequence glibc decodes as one character (and {@link #sequenceLength} accepts). */
    public static final int MAX_SEQUENCE = 6;

    /** The word class of each ASCII byte: the same in the C locale and in UTF-8. */
    private static final byte[] ASCII = new byte[128];

    /** What an ASCII byte does to the line width ({@link #countAll}); 0, the rest (control characters), nothing. */
    private static final byte WIDTH_ONE = 1;
    private static final byte WIDTH_TAB = 2;
    private static final byte WIDTH_END = 3;
    private static final byte[] ASCII_WIDTH = new byte[128];

    static {
        for (int b = 0x20; b < 0x7F; b++) {
            ASCII[b] = PRINTABLE;
            ASCII_WIDTH[b] = WIDTH_ONE;
        }
        for (int b : new int[] {' ', '\t', '\n', 0x0B, '\f', '\r'}) {
            ASCII[b] = SPACE;
        }
        ASCII_WIDTH['\t'] = WIDTH_TAB;
        ASCII_WIDTH['\n'] = WIDTH_END;
        ASCII_WIDTH['\r'] = WIDTH_END;
        ASCII_WIDTH['\f'] = WIDTH_END;
    }

    private final boolean utf8;
    private final boolean noBreakIsSpace;
    private final boolean all;
    private long lines;
    private long words;
    private long chars;
    /** The widest line ended so far. */
    private long widest;
    /** The width of the line being counted. */
    private long width;
    private boolean inWord;

    /**
     * A counter for the C locale or UTF-8 that counts lines and words, and with {@code all} characters and line
     * widths too (a slower loop, so only when asked).
     *
     * @param noBreakIsSpace whether U+00A0, U+2007, U+202F and U+2060 end words (GNU wc's default; not when the
     *                       environment has {@code POSIXLY_CORRECT})
     */
    public WordCounter(boolean utf8, boolean noBreakIsSpace, boolean all) {
        this.utf8 = utf8;
        this.noBreakIsSpace = noBreakIsSpace;
        this.all = all;
    }

    /** A counter with the character classes the environment {@code env} selects, as GNU wc would use. */
    public static WordCounter forEnvironment(Map<String, String> env, boolean all) {
        return new WordCounter(CtypeLocale.isUtf8(env), !env.containsKey("POSIXLY_CORRECT"), all);
    }

    /** Newlines counted. */
    public long lines() {
        return lines;
    }

    /** Words counted. */
    public long words() {
        return words;
    }

    /** Characters counted, when made with {@code all}; else 0. */
    public long chars() {
        return chars;
    }

    /** The widest line's width, the line still open included, when made with {@code all}; else 0. */
    public long maxLineWidth() {
        return Math.max(widest, width);
    }

    /** Adds another counter's counts to this one (for the merge of a parallel count); the widths take the wider. */
    public WordCounter add(WordCounter other) {
        lines += other.lines;
        words += other.words;
        chars += other.chars;
        widest = Math.max(maxLineWidth(), other.maxLineWidth());
        width = 0;
        return this;
    }

    /**
     * Counts the bytes of {@code s}, which begins at the start of the input or just after a newline, and ends at a
     * newline or the end of the input.
     */
    public void count(MemorySegment s) {
        // A segment always starts a line outside a word: at the start, or after a newline, which is a space.
        widest = maxLineWidth();
        width = 0;
        inWord = false;
        countMore(s);
    }

    /** Counts the bytes of {@code s} as the continuation of what was counted before (a stream read in pieces). */
    public void countMore(MemorySegment s) {
        if (all) {
            countAll(s);
        } else {
            countWords(s);
        }
    }

    private void countWords(MemorySegment s) {
        long n = s.byteSize();
        long l = lines;
        long w = words;
        boolean in = inWord;
        long i = 0;
        while (i < n) {
            int b = s.get(ValueLayout.JAVA_BYTE, i) & 0xFF;
            byte cls;
            if (b < 0x80) {
                cls = ASCII[b];
                if (b == '\n') {
                    l++;
                }
                i++;
            } else if (!utf8) {
                cls = OTHER;
                i++;
            } else {
                int len = sequenceLength(s, i, n, b);
                if (len == 0) {
                    cls = OTHER;
                    i++;
                } else {
                    cls = classify(decode(s, i, len, b), noBreakIsSpace);
                    i += len;
                }
            }
            if (cls == PRINTABLE) {
                if (!in) {
                    w++;
                    in = true;
                }
            } else if (cls == SPACE) {
                in = false;
            }
        }
        lines = l;
        words = w;
        inWord = in;
    }

    /** {@link #countWords} plus characters and line widths. */
    private void countAll(MemorySegment s) {
        long n = s.byteSize();
        long l = lines;
        long w = words;
        long c = chars;
        long max = widest;
        long pos = width;
        boolean in = inWord;
        long i = 0;
        while (i < n) {
            int b = s.get(ValueLayout.JAVA_BYTE, i) & 0xFF;
            byte cls;
            if (b < 0x80) {
                cls = ASCII[b];
                switch (ASCII_WIDTH[b]) {
                    case WIDTH_ONE -> pos++;
                    case WIDTH_TAB -> pos = (pos | 7) + 1;
                    case WIDTH_END -> {
                        max = Math.max(max, pos);
                        pos = 0;
                        if (b == '\n') {
                            l++;
                        }
                    }
                    default -> {
                    }
                }
                c++;
                i++;
            } else if (!utf8) {
                cls = OTHER;
                c++;
                i++;
            } else {
                int len = sequenceLength(s, i, n, b);
                if (len == 0) {
                    cls = OTHER;
                    i++;
                } else {
                    int cp = decode(s, i, len, b);
                    cls = classify(cp, noBreakIsSpace);
                    pos += Math.max(0, CharWidths.of(cp));
                    c++;
                    i += len;
                }
            }
            if (cls == PRINTABLE) {
                if (!in) {
                    w++;
                    in = true;
                }
            } else if (cls == SPACE) {
                in = false;
            }
        }
        lines = l;
        words = w;
        chars = c;
        widest = max;
        width = pos;
        inWord = in;
    }

    /**
     * The length of the sequence glibc's {@code mbrtowc} decodes from lead byte {@code b} at {@code i}, or 0 when it
     * decodes none there: the shortest form of a value, in one to six bytes, and no surrogate (see the class comment).
     */
    private static int sequenceLength(MemorySegment s, long i, long n, int b) {
        int len;
        int lo = 0x80;
        int hi = 0xBF;
        if (b >= 0xC2 && b <= 0xDF) {
            len = 2;
        } else if (b >= 0xE0 && b <= 0xEF) {
            len = 3;
            if (b == 0xE0) {
                lo = 0xA0;
            } else if (b == 0xED) {
                hi = 0x9F;
            }
        } else if (b >= 0xF0 && b <= 0xF7) {
            len = 4;
            if (b == 0xF0) {
                lo = 0x90;
            }
        } else if (b >= 0xF8 && b <= 0xFB) {
            len = 5;
            if (b == 0xF8) {
                lo = 0x88;
            }
        } else if (b == 0xFC || b == 0xFD) {
            len = 6;
            if (b == 0xFC) {
                lo = 0x84;
            }
        } else {
            return 0;
        }
        if (i + len > n) {
            return 0;
        }
        int c = s.get(ValueLayout.JAVA_BYTE, i + 1) & 0xFF;
        if (c < lo || c > hi) {
            return 0;
        }
        for (int k = 2; k < len; k++) {
            if ((s.get(ValueLayout.JAVA_BYTE, i + k) & 0xC0) != 0x80) {
                return 0;
            }
        }
        return len;
    }

    /** The length a sequence starting with byte {@code b} claims, valid or not (for cutting a stream). */
    public static int claimedLength(int b) {
        return b >= 0xFC ? 6 : b >= 0xF8 ? 5 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
    }

    private static int decode(MemorySegment s, long i, int len, int b) {
        int cp = b & (0x7F >> len);
        for (int k = 1; k < len; k++) {
            cp = cp << 6 | (s.get(ValueLayout.JAVA_BYTE, i + k) & 0x3F);
        }
        return cp;
    }

    /**
     * The class of a code point from U+0080 up, as glibc's {@code iswprint} and {@code iswspace} give it, and with
     * {@code noBreakIsSpace} wc's own list of no-break spaces.
     */
    public static byte classify(int cp, boolean noBreakIsSpace) {
        if (noBreakIsSpace && (cp == 0x00A0 || cp == 0x2007 || cp == 0x202F || cp == 0x2060)) {
            return SPACE;
        }
        // glibc's spaces: Unicode Zs without <noBreak> (so not U+00A0, U+2007, U+202F); Zl and Zp are spaces too,
        // but not printable, and wc looks at printable first.
        if (cp == 0x1680 || (cp >= 0x2000 && cp <= 0x2006) || (cp >= 0x2008 && cp <= 0x200A) || cp == 0x205F
                || cp == 0x3000) {
            return SPACE;
        }
        return CharWidths.of(cp) == CharWidths.NOT_PRINTABLE ? OTHER : PRINTABLE;
    }
}
