package io.sluice.zip;

/**
 * The ZIP records Sluice reads, as signatures and field offsets, with the names and numbers of PKWARE's
 * APPNOTE.TXT (section 4.3). Every multi-byte field is little-endian and unaligned.
 */
final class ZipLayout {
    private ZipLayout() {
    }

    static int u16(byte[] b, int at) {
        return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8;
    }

    static long u32(byte[] b, int at) {
        return u16(b, at) | (long) u16(b, at + 2) << 16;
    }

    static long u64(byte[] b, int at) {
        return u32(b, at) | u32(b, at + 4) << 32;
    }

    /**
     * Where the extra field that begins at {@code p} of an extra block ends (its id at {@code p}, its data from
     * {@code p + 4}), or -1 when no whole field begins there: the step of every walk over an extra block.
     */
    static int extraFieldEnd(byte[] x, int p) {
        if (p + 4 > x.length) {
            return -1;
        }
        int end = p + 4 + u16(x, p + 2);
        return end <= x.length ? end : -1;
    }

    // Local file header (4.3.7)
    static final int LOCSIG = 0x04034b50;
    static final int LOCHDR = 30;
    static final int LOCNAM = 26;
    static final int LOCEXT = 28;

    // Central directory file header (4.3.12)
    static final int CENSIG = 0x02014b50;
    static final int CENHDR = 46;
    static final int CENVEM = 4;
    static final int CENFLG = 8;
    static final int CENHOW = 10;
    static final int CENTIM = 12;
    static final int CENCRC = 16;
    static final int CENSIZ = 20;
    static final int CENLEN = 24;
    static final int CENNAM = 28;
    static final int CENEXT = 30;
    static final int CENCOM = 32;
    static final int CENDSK = 34;
    static final int CENATX = 38;
    static final int CENOFF = 42;

    // End of central directory record (4.3.16)
    static final int ENDSIG = 0x06054b50;
    static final int ENDHDR = 22;
    static final int ENDDSK = 4;
    static final int ENDDCD = 6;
    static final int ENDSUB = 8;
    static final int ENDTOT = 10;
    static final int ENDSIZ = 12;
    static final int ENDOFF = 16;
    static final int ENDCOM = 20;
    /** The longest archive comment, so the end record is within this many bytes of the end of the file. */
    static final int MAX_COMMENT = 0xFFFF;

    // Zip64 end of central directory locator (4.3.15)
    static final int ZIP64_LOCSIG = 0x07064b50;
    static final int ZIP64_LOCHDR = 20;
    static final int ZIP64_LOCOFF = 8;

    // Zip64 end of central directory record (4.3.14)
    static final int ZIP64_ENDSIG = 0x06064b50;
    static final int ZIP64_ENDHDR = 56;
    static final int ZIP64_ENDDSK = 16;
    static final int ZIP64_ENDDCD = 20;
    static final int ZIP64_ENDSUB = 24;
    static final int ZIP64_ENDTOT = 32;
    static final int ZIP64_ENDSIZ = 40;
    static final int ZIP64_ENDOFF = 48;

    /** Extra field header id of the Zip64 extended information (4.5.3). */
    static final int ZIP64_EXTRA = 0x0001;
    /**
     * Extra field header id of the Info-ZIP Unicode Path (4.6.9): a version byte (1), the CRC-32 of the header's own
     * name, then the name in UTF-8.
     */
    static final int UNICODE_PATH_EXTRA = 0x7075;
    /** A 16-bit field set to this means "see the Zip64 record". */
    static final int ZIP64_MAGIC16 = 0xFFFF;
    /** A 32-bit field set to this means "see the Zip64 record or extra field". */
    static final long ZIP64_MAGIC32 = 0xFFFF_FFFFL;

    // General purpose bit flags (4.4.4)
    static final int FLAG_ENCRYPTED = 1;
    static final int FLAG_DESCRIPTOR = 1 << 3;
    static final int FLAG_UTF8 = 1 << 11;

    // Compression methods (4.4.5)
    static final int STORED = 0;
    static final int DEFLATED = 8;

    /**
     * Extra field header id of the Info-ZIP extended timestamp (APPNOTE 4.5.x, "UT"): a flags byte (bit 0: a
     * modification time follows), then 32-bit Unix times; the central directory's copy holds the modification time
     * at most.
     */
    static final int EXTENDED_TIMESTAMP_EXTRA = 0x5455;

    /**
     * The name APPNOTE 4.4.5 gives compression method {@code method}, for messages that refuse it, or "unknown"
     * for a number it does not assign.
     */
    static String methodName(int method) {
        return switch (method) {
            case 0 -> "stored";
            case 1 -> "shrunk";
            case 2, 3, 4, 5 -> "reduced with compression factor " + (method - 1);
            case 6 -> "imploded";
            case 7 -> "tokenized";
            case 8 -> "deflated";
            case 9 -> "deflate64";
            case 10 -> "PKWARE DCL imploded";
            case 12 -> "bzip2";
            case 14 -> "LZMA";
            case 16 -> "IBM z/OS CMPSC";
            case 18 -> "IBM TERSE";
            case 19 -> "IBM LZ77 z";
            case 20, 93 -> "Zstandard";
            case 94 -> "MP3";
            case 95 -> "XZ";
            case 96 -> "JPEG variant";
            case 97 -> "WavPack";
            case 98 -> "PPMd version I, rev 1";
            case 99 -> "AE-x encryption marker";
            default -> "unknown";
        };
    }

    /** Deflate's largest possible expansion: 258 bytes from a 1-bit code (RFC 1951), so 1032 bytes per byte in. */
    static final int DEFLATE_MAX_RATIO = 1032;
}
