package io.sluice.cli.wc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Whether a character is printable and how many columns it takes, as glibc's {@code iswprint} and {@code wcwidth}
 * answer in the C.UTF-8 locale: what GNU {@code wc} uses for words ({@code -w}) and line widths ({@code -L}).
 *
 * <p>The answers come from {@code glibc-widths.txt}, a table of ranges written from glibc 2.36 (the file's header says
 * how), not from the JDK's Unicode tables: the two follow different Unicode versions, so a character assigned in one
 * and not the other would count differently (U+1FAE9 is printable to JDK 25 and not to glibc 2.36). Another glibc
 * version can differ from the table in the same way, for characters new to Unicode.
 *
 * <p>Loaded on first use (only UTF-8 counting needs it); immutable afterwards, so safe to share between threads.
 */
public final class CharWidths {
    /** Class of a code point: {@code iswprint} refuses it. */
    public static final int NOT_PRINTABLE = -1;

    /** The class of every BMP code point from U+0080, as {@code width + 1}: 0 not printable, then 1, 2, 3. */
    private static final byte[] BMP = new byte[0x10000];
    /** Ranges above the BMP: first code point of each, and its class as {@code width + 1}. */
    private static final int[] STARTS;
    private static final byte[] CLASSES;

    static {
        int[] starts = new int[2048];
        byte[] classes = new byte[2048];
        int n = 0;
        byte[] text;
        try (InputStream in = CharWidths.class.getResourceAsStream("glibc-widths.txt")) {
            if (in == null) {
                throw new IllegalStateException("glibc-widths.txt is missing from the class path");
            }
            text = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("reading glibc-widths.txt", e);
        }
        // Lines are "<hex first code point> <N|0|1|2>"; '#' starts a comment line.
        int i = 0;
        while (i < text.length) {
            int end = i;
            while (end < text.length && text[end] != '\n') {
                end++;
            }
            if (end > i && text[i] != '#') {
                int space = i;
                while (text[space] != ' ') {
                    space++;
                }
                int cp = Integer.parseInt(new String(text, i, space - i, StandardCharsets.US_ASCII), 16);
                byte c = text[space + 1] == 'N' ? 0 : (byte) (text[space + 1] - '0' + 1);
                if (n == starts.length) {
                    starts = Arrays.copyOf(starts, n * 2);
                    classes = Arrays.copyOf(classes, n * 2);
                }
                starts[n] = cp;
                classes[n] = c;
                n++;
            }
            i = end + 1;
        }
        if (n == 0 || starts[0] != 0x80) {
            throw new IllegalStateException("glibc-widths.txt does not start at U+0080");
        }
        for (int k = 0; k < n; k++) {
            int from = starts[k];
            int to = k + 1 < n ? starts[k + 1] : 0x110000;
            if (from < 0x10000) {
                Arrays.fill(BMP, from, Math.min(to, 0x10000), classes[k]);
            }
        }
        STARTS = Arrays.copyOf(starts, n);
        CLASSES = Arrays.copyOf(classes, n);
    }

    private CharWidths() {
    }

    /**
     * The columns code point {@code cp} (U+0080 or more) takes: 0, 1 or 2, or {@link #NOT_PRINTABLE}. Code points
     * past U+10FFFF (which glibc's decoder accepts in five- and six-byte forms) are not printable.
     */
    public static int of(int cp) {
        if (cp < 0x10000) {
            return BMP[cp] - 1;
        }
        if (cp > 0x10FFFF) {
            return NOT_PRINTABLE;
        }
        int k = Arrays.binarySearch(STARTS, cp);
        return CLASSES[k >= 0 ? k : -k - 2] - 1;
    }
}
