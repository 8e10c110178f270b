package io.sluice.report;

import java.util.Locale;

/** Numbers and sizes as the page writes them. */
public final class Format {
    private Format() {
    }

    /** A measured figure with about three significant digits: {@code 1,451}, {@code 68.8}, {@code 0.54}; NaN as "n/a". */
    static String number(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "n/a";
        }
        double a = Math.abs(v);
        if (a >= 100 || v == 0) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 0.01) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.2g", v);
    }

    /** A ratio: {@code 3.86x}, or "n/a". */
    static String ratio(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, v >= 100 ? "%.0fx" : "%.2fx", v);
    }

    /** A fraction as a percentage: {@code 12%}, or "n/a". */
    static String percent(double fraction) {
        if (Double.isNaN(fraction) || Double.isInfinite(fraction)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%.0f%%", fraction * 100);
    }

    /**
     * A byte count in binary units: {@code 512 B}, {@code 4 KiB}, {@code 1.5 GiB} (whole where exact, else one decimal).
     * The harness's tables print sizes the same way, through this method.
     *
     * @param bytes the count
     * @return the count in words
     */
    public static String bytes(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        int u = 0;
        double v = bytes;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return (v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.1f", v)) + " " + units[u];
    }
}
