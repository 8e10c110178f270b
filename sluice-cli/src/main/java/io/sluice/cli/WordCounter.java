package io.sluice.cli;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Locale;
import java.util.Map;

/**
 * Counts lines and words the way GNU coreutils {@code wc} does, for the C locale or a UTF-8 locale.
 *
 * <p>The rules, from {@code wc.c} (coreutils 9.1) and checked against the {@code wc} binary:
 * <ul>
 *   <li>A line is a newline byte; a last line without one is not counted.</li>
 *   <li>A word starts at a printable, non-space character after a space or the start. Characters fall in three
 *       classes: <em>space</em> (tab, newline, vertical tab, form feed, carriage return, space, and in UTF-8 the
 *       printable Unicode spaces {@code iswspace} knows) ends a word; <em>printable</em> continues or starts one;
 *       everything else (control characters, bytes that are not valid UTF-8, unassigned code points, U+2028 and
 *       U+2029, which glibc does not count as printable) does neither: {@code "a\u0001b"} is one word, a lone
 *       {@code "\u0001"} none.</li>
 *   <li>In UTF-8, wc also counts the no-break spaces U+00A0, U+2007, U+202F and the word joiner U+2060 as spaces,
 *       unless {@code POSIXLY_CORRECT} is set.</li>
 *   <li>In the C locale every byte from 0x80 up is of the third class. In UTF-8, a sequence glibc's decoder accepts
 *       is one character; any other byte (a stray continuation byte, an overlong form, a surrogate, a sequence cut
 *       short) is skipped on its own, neither space nor printable.</li>
 * </ul>
 * Which Unicode characters are printable comes from the JDK's tables, glibc's from its own Unicode version, so they
 * can differ for characters assigned in one version and not the other (U+1FAE9, new in Unicode 15, is printable to
 * JDK 25 and not to glibc 2.36).
 *
 * <p>Counts add up across calls, so a file can be counted in pieces; a piece must not cut a UTF-8 sequence, which
 * a piece ending after a newline never does. Not thread-safe: one counter per thread, then {@link #add}.
 */
final class WordCounter {
    static final byte OTHER = 0;
    static final byte PRINTABLE = 1;
    static final byte SPACE = 2;

    /** The class of each ASCII byte: the same in the C locale and in UTF-8. */
    private static final byte[] ASCII = new byte[128];

    static {
        for (int b = 0x21; b < 0x7F; b++) {
            ASCII[b] = PRINTABLE;
        }
        for (int b : new int[] {' ', '\t', '\n', 0x0B, '\f', '\r'}) {
            ASCII[b] = SPACE;
        }
    }

    private final boolean utf8;
    private final boolean noBreakIsSpace;
    private long lines;
    private long words;
    private boolean inWord;

    /**
     * A counter for the C locale or UTF-8.
     *
     * @param noBreakIsSpace whether U+00A0, U+2007, U+202F and U+2060 end words (GNU wc's default; not when the
     *                       environment has {@code POSIXLY_CORRECT})
     */
    WordCounter(boolean utf8, boolean noBreakIsSpace) {
        this.utf8 = utf8;
        this.noBreakIsSpace = noBreakIsSpace;
    }

    /** A counter with the character classes the environment {@code env} selects, as GNU wc would use. */
    static WordCounter forEnvironment(Map<String, String> env) {
        return new WordCounter(isUtf8Locale(env), !env.containsKey("POSIXLY_CORRECT"));
    }

    /**
     * Whether the environment selects a UTF-8 locale for character classes, as glibc decides: the first of
     * {@code LC_ALL}, {@code LC_CTYPE}, {@code LANG} that is set and not empty names the locale. Any other locale is
     * treated as C (bytes from 0x80 up are neither space nor printable).
     */
    static boolean isUtf8Locale(Map<String, String> env) {
        for (String name : new String[] {"LC_ALL", "LC_CTYPE", "LANG"}) {
            String v = env.get(name);
            if (v != null && !v.isEmpty()) {
                String l = v.toLowerCase(Locale.ROOT);
                return l.contains("utf-8") || l.contains("utf8");
            }
        }
        return false;
    }

    long lines() {
        return lines;
    }

    long words() {
        return words;
    }

    /** Adds another counter's counts to this one (for the merge of a parallel count). */
    WordCounter add(WordCounter other) {
        lines += other.lines;
        words += other.words;
        return this;
    }

    /**
     * Counts the bytes of {@code s}, which begins at the start of the input or just after a newline, and ends at a
     * newline or the end of the input.
     */
    void count(MemorySegment s) {
        // A segment always starts outside a word: at the start, or after a newline, which is a space.
        inWord = false;
        countMore(s);
    }

    /** Counts the bytes of {@code s} as the continuation of what was counted before (a stream read in pieces). */
    void countMore(MemorySegment s) {
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

    /**
     * The length of the valid UTF-8 sequence that starts with lead byte {@code b} at {@code i}, or 0 when there is
     * none (as glibc's {@code mbrtowc}: no overlong forms, no surrogates, nothing past U+10FFFF).
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
        } else if (b >= 0xF0 && b <= 0xF4) {
            len = 4;
            if (b == 0xF0) {
                lo = 0x90;
            } else if (b == 0xF4) {
                hi = 0x8F;
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
    static byte classify(int cp, boolean noBreakIsSpace) {
        if (noBreakIsSpace && (cp == 0x00A0 || cp == 0x2007 || cp == 0x202F || cp == 0x2060)) {
            return SPACE;
        }
        // glibc's spaces: Unicode Zs without <noBreak> (so not U+00A0, U+2007, U+202F); Zl and Zp are spaces too,
        // but not printable, and wc looks at printable first.
        if (cp == 0x1680 || (cp >= 0x2000 && cp <= 0x2006) || (cp >= 0x2008 && cp <= 0x200A) || cp == 0x205F
                || cp == 0x3000) {
            return SPACE;
        }
        return switch (Character.getType(cp)) {
            case Character.UNASSIGNED, Character.CONTROL, Character.SURROGATE, Character.LINE_SEPARATOR,
                 Character.PARAGRAPH_SEPARATOR -> OTHER;
            default -> PRINTABLE;
        };
    }
}
