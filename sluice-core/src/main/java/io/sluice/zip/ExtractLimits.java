package io.sluice.zip;

/**
 * Limits that stop a zip bomb during {@link ConcurrentZipFile#extractTo(java.nio.file.Path, ExtractLimits)}.
 *
 * <p>They are checked against the sizes the central directory declares, before anything is written, and those sizes
 * are binding: an entry that inflates to more than it declares fails as it is read. So an archive over a limit is
 * refused with no partial output.
 *
 * @param maxTotalBytes the most uncompressed bytes all entries together may hold
 * @param maxEntries    the most entries (files and directories) the archive may have
 * @param maxRatio      the largest compression ratio (size / compressed size) an entry may have, checked only for
 *                      entries larger than {@link #RATIO_THRESHOLD} bytes, since small files of repeated bytes
 *                      legitimately compress very well
 */
public record ExtractLimits(long maxTotalBytes, long maxEntries, long maxRatio) {
    /** Entries up to this many bytes (1 MiB) are not held to {@link #maxRatio()}. */
    public static final long RATIO_THRESHOLD = 1L << 20;

    /** 4 GiB in all, 100,000 entries, a ratio of 100 to 1. */
    public static final ExtractLimits DEFAULT = new ExtractLimits(4L << 30, 100_000, 100);

    /** No limits at all: only for archives you trust. */
    public static final ExtractLimits NONE = new ExtractLimits(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE);

    /**
     * Checks that every limit is positive.
     *
     * @throws IllegalArgumentException if one is zero or negative
     */
    public ExtractLimits {
        if (maxTotalBytes <= 0 || maxEntries <= 0 || maxRatio <= 0) {
            throw new IllegalArgumentException("extract limits must be positive: " + maxTotalBytes + " bytes, "
                    + maxEntries + " entries, ratio " + maxRatio);
        }
    }

    /** These limits with {@code maxTotalBytes} changed. */
    public ExtractLimits withMaxTotalBytes(long maxTotalBytes) {
        return new ExtractLimits(maxTotalBytes, maxEntries, maxRatio);
    }

    /** These limits with {@code maxEntries} changed. */
    public ExtractLimits withMaxEntries(long maxEntries) {
        return new ExtractLimits(maxTotalBytes, maxEntries, maxRatio);
    }

    /** These limits with {@code maxRatio} changed. */
    public ExtractLimits withMaxRatio(long maxRatio) {
        return new ExtractLimits(maxTotalBytes, maxEntries, maxRatio);
    }
}
