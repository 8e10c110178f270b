package io.sluice.cli;

import io.sluice.cli.wc.CharWidths;
import io.sluice.cli.wc.CtypeLocale;
import io.sluice.cli.wc.WordCounter;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * What the fuzzer does with arbitrary bytes: counts them as {@code sluice wc} does and compares with a plain
 * reference. The first byte of an input picks the environment (which locale, whether {@code POSIXLY_CORRECT}), the
 * second how standard input arrives (the size of each read); the rest is the text. The contract checked:
 * <ul>
 *   <li>{@link WordCounter} over the whole text gives the lines, words, characters and widest line of
 *       {@link #reference}, a byte-at-a-time count written from the rules in {@link WordCounter}'s comment (it
 *       decodes by computing each value and refusing it when a shorter form would do, rather than by the counter's
 *       ranges of second bytes); only the tables of classes and widths ({@link WordCounter#classify},
 *       {@link CharWidths}) are shared;</li>
 *   <li>where the JDK's strict UTF-8 decoder accepts the whole text, the characters in UTF-8 are its code points,
 *       and in the C locale the bytes;</li>
 *   <li>the text cut after newlines and counted in pieces by two counters then {@link WordCounter#add}ed (as
 *       {@code ParallelScan} does) counts the same;</li>
 *   <li>{@code sluice wc -lwmcL} reading the text from standard input in reads of random sizes prints the same counts
 *       and exits 0, and the locale it uses is the one the environment names.</li>
 * </ul>
 * Texts are cut to {@link #MAX_BYTES}, so the time one takes is bounded.
 */
final class WcFuzzTarget {
    static final int MAX_BYTES = 64 << 10;

    /** Environments, and whether each selects UTF-8: none of them needs a locale installed. */
    private static final List<Map<String, String>> ENVS = List.of(
            Map.of("LANG", "C.UTF-8"),
            Map.of("LC_ALL", "C"),
            Map.of("LC_ALL", "C.utf8", "POSIXLY_CORRECT", "1"),
            Map.of("LANG", "POSIX"),
            Map.of("LANG", "C.UTF-8", "LC_CTYPE", "C"),
            Map.of("LC_CTYPE", "C.UTF8", "LANG", "C"),
            Map.of("LANG", "C.UTF-8", "LC_MESSAGES", "xx/yy"),
            Map.of());
    private static final boolean[] UTF8 = {true, false, true, false, false, true, false, false};

    private WcFuzzTarget() {
    }

    /** The counts that are compared. */
    record Counts(long lines, long words, long chars, long width) {
    }

    /** Returns the counts; throws AssertionError on a misbehaviour. */
    static Counts exercise(byte[] bytes) {
        int mode = bytes.length > 0 ? bytes[0] & 0xFF : 0;
        int reads = bytes.length > 1 ? bytes[1] & 0xFF : 0;
        byte[] text = Arrays.copyOfRange(bytes, Math.min(2, bytes.length), Math.min(bytes.length, 2 + MAX_BYTES));
        Map<String, String> env = ENVS.get(mode % ENVS.size());
        boolean utf8 = UTF8[mode % ENVS.size()];
        boolean noBreakIsSpace = !env.containsKey("POSIXLY_CORRECT");
        if (CtypeLocale.isUtf8(env) != utf8) {
            throw new AssertionError("CtypeLocale.isUtf8(" + env + ") is " + !utf8);
        }

        Counts expected = reference(text, utf8, noBreakIsSpace);
        WordCounter all = new WordCounter(utf8, noBreakIsSpace, true);
        all.count(MemorySegment.ofArray(text));
        check(expected, counts(all), "WordCounter", env);
        WordCounter words = new WordCounter(utf8, noBreakIsSpace, false);
        words.count(MemorySegment.ofArray(text));
        check(new Counts(expected.lines, expected.words, 0, 0), counts(words), "WordCounter without -m/-L", env);
        checkJdk(text, utf8, expected);

        SplittableRandom random = new SplittableRandom(Arrays.hashCode(bytes));
        check(expected, inPieces(text, utf8, noBreakIsSpace, random), "pieces cut after newlines", env);
        check(expected, command(text, env, 1 + reads * (1 + random.nextInt(64)), random), "sluice wc -", env);
        return expected;
    }

    private static Counts counts(WordCounter c) {
        return new Counts(c.lines(), c.words(), c.chars(), c.maxLineWidth());
    }

    private static void check(Counts expected, Counts actual, String what, Map<String, String> env) {
        if (!expected.equals(actual)) {
            throw new AssertionError(what + " with " + env + ": " + actual + ", the reference " + expected);
        }
    }

    /**
     * The counts, one byte or character at a time. In UTF-8 a lead byte claims a length (two to six bytes); the
     * sequence is a character when it is all there, its other bytes are continuation bytes, its value needs that
     * length, and it is not a surrogate. Otherwise the lead byte alone is skipped: no character, no class, no width.
     */
    static Counts reference(byte[] text, boolean utf8, boolean noBreakIsSpace) {
        long lines = 0;
        long words = 0;
        long chars = 0;
        long widest = 0;
        long width = 0;
        boolean inWord = false;
        int i = 0;
        while (i < text.length) {
            int b = text[i] & 0xFF;
            int cls;
            if (b < 0x80) {
                chars++;
                i++;
                boolean space = b == ' ' || b == '\t' || b == '\n' || b == 0x0B || b == '\f' || b == '\r';
                cls = space ? WordCounter.SPACE : b > ' ' && b < 0x7F ? WordCounter.PRINTABLE : WordCounter.OTHER;
                if (b >= ' ' && b < 0x7F) {
                    width++;
                } else if (b == '\t') {
                    width = (width / 8 + 1) * 8;
                } else if (b == '\n' || b == '\r' || b == '\f') {
                    widest = Math.max(widest, width);
                    width = 0;
                }
                if (b == '\n') {
                    lines++;
                }
            } else if (!utf8) {
                chars++;
                i++;
                cls = WordCounter.OTHER;
            } else {
                int cp = decode(text, i);
                if (cp < 0) {
                    i++;
                    cls = WordCounter.OTHER;
                } else {
                    i += length(b);
                    chars++;
                    cls = WordCounter.classify(cp, noBreakIsSpace);
                    width += Math.max(0, CharWidths.of(cp));
                }
            }
            if (cls == WordCounter.PRINTABLE && !inWord) {
                words++;
                inWord = true;
            } else if (cls == WordCounter.SPACE) {
                inWord = false;
            }
        }
        return new Counts(lines, words, chars, Math.max(widest, width));
    }

    /** The length a lead byte from 0x80 up claims, or 0 for a byte that leads nothing. */
    private static int length(int b) {
        if (b >= 0xC0 && b <= 0xDF) {
            return 2;
        }
        if (b >= 0xE0 && b <= 0xEF) {
            return 3;
        }
        if (b >= 0xF0 && b <= 0xF7) {
            return 4;
        }
        if (b >= 0xF8 && b <= 0xFB) {
            return 5;
        }
        if (b == 0xFC || b == 0xFD) {
            return 6;
        }
        return 0;
    }

    /** The value of the sequence at {@code i}, or -1 when there is none. */
    private static int decode(byte[] text, int i) {
        int b = text[i] & 0xFF;
        int n = length(b);
        if (n == 0 || i + n > text.length) {
            return -1;
        }
        long value = b & ((1 << (7 - n)) - 1);
        for (int k = 1; k < n; k++) {
            int c = text[i + k] & 0xFF;
            if (c < 0x80 || c > 0xBF) {
                return -1;
            }
            value = value << 6 | (c & 0x3F);
        }
        long[] least = {0, 0, 0x80, 0x800, 0x10000, 0x200000, 0x4000000};
        if (value < least[n] || value >= 0xD800 && value <= 0xDFFF) {
            return -1;
        }
        return (int) value;
    }

    /** Where the JDK's strict decoder reads the whole text, its code points are the characters. */
    private static void checkJdk(byte[] text, boolean utf8, Counts expected) {
        long newlines = 0;
        for (byte b : text) {
            if (b == '\n') {
                newlines++;
            }
        }
        if (newlines != expected.lines) {
            throw new AssertionError("reference counts " + expected.lines + " lines, the text has " + newlines);
        }
        if (!utf8) {
            if (expected.chars != text.length) {
                throw new AssertionError("C locale: " + expected.chars + " characters in " + text.length + " bytes");
            }
            return;
        }
        String s;
        try {
            s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(text)).toString();
        } catch (CharacterCodingException e) {
            return;
        }
        long points = s.codePointCount(0, s.length());
        if (points != expected.chars) {
            throw new AssertionError("valid UTF-8 of " + points + " code points counted as " + expected.chars);
        }
    }

    /** Cuts after random newlines; two counters take the pieces in turn and are added, as threads' counters are. */
    private static Counts inPieces(byte[] text, boolean utf8, boolean noBreakIsSpace, SplittableRandom random) {
        WordCounter[] counters = {new WordCounter(utf8, noBreakIsSpace, true), new WordCounter(utf8, noBreakIsSpace,
                true)};
        int from = 0;
        int turn = 0;
        for (int i = 0; i < text.length; i++) {
            if (text[i] == '\n' && random.nextInt(3) == 0) {
                counters[turn++ % 2].count(MemorySegment.ofArray(text).asSlice(from, i + 1 - from));
                from = i + 1;
            }
        }
        counters[turn % 2].count(MemorySegment.ofArray(text).asSlice(from, text.length - from));
        return counts(counters[0].add(counters[1]));
    }

    /** {@code sluice wc -lwmcL} on standard input that arrives in reads of up to {@code maxRead} bytes. */
    private static Counts command(byte[] text, Map<String, String> env, int maxRead, SplittableRandom random) {
        WcCommand wc = WcCommand.quick(new String[] {"wc", "-lwmcL"});
        wc.env = env;
        wc.stdin = new ByteArrayInputStream(text) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 1 + random.nextInt(maxRead)));
            }
        };
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = wc.run(new PrintWriter(out), new PrintWriter(err));
        String[] f = out.toString().trim().split(" +");
        if (exit != 0 || !err.toString().isEmpty() || f.length != 5 || Long.parseLong(f[3]) != text.length) {
            throw new AssertionError("sluice wc exited " + exit + ", printed '" + out + "', '" + err + "'");
        }
        return new Counts(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[4]));
    }
}
