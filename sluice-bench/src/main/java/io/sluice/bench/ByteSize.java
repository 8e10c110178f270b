package io.sluice.bench;

import io.sluice.report.Format;
import java.util.Locale;

/** Byte counts as people write them: {@code 512}, {@code 4k}, {@code 64KiB}, {@code 1m}, {@code 1g} (binary units). */
public final class ByteSize {
    private ByteSize() {
    }

    /**
     * Parses a size with an optional binary suffix (k, m, g, t; "KiB", "kb" and "K" all mean 1024).
     *
     * @throws IllegalArgumentException naming the text when it is not a size
     */
    public static long parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT).replace("_", "");
        if (t.endsWith("ib")) {
            t = t.substring(0, t.length() - 2);
        } else if (t.endsWith("b")) {
            t = t.substring(0, t.length() - 1);
        }
        long unit = 1;
        if (!t.isEmpty()) {
            switch (t.charAt(t.length() - 1)) {
                case 'k' -> unit = 1L << 10;
                case 'm' -> unit = 1L << 20;
                case 'g' -> unit = 1L << 30;
                case 't' -> unit = 1L << 40;
                default -> unit = 1;
            }
        }
        if (unit != 1) {
            t = t.substring(0, t.length() - 1);
        }
        try {
            long n = Long.parseLong(t.trim());
            if (n < 0 || n > Long.MAX_VALUE / unit) {
                throw new NumberFormatException();
            }
            return n * unit;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a size: '" + text + "' (examples: 512, 4k, 64KiB, 1g)");
        }
    }

    /** {@code 512 B}, {@code 4 KiB}, {@code 1.5 GiB}: as the report page writes sizes ({@link Format#bytes}). */
    public static String format(long bytes) {
        return Format.bytes(bytes);
    }
}
