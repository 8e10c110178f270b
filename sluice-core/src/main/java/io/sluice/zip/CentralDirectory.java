package io.sluice.zip;

import static io.sluice.zip.ZipLayout.CENATX;
import static io.sluice.zip.ZipLayout.CENCOM;
import static io.sluice.zip.ZipLayout.CENCRC;
import static io.sluice.zip.ZipLayout.CENDSK;
import static io.sluice.zip.ZipLayout.CENEXT;
import static io.sluice.zip.ZipLayout.CENFLG;
import static io.sluice.zip.ZipLayout.CENHDR;
import static io.sluice.zip.ZipLayout.CENHOW;
import static io.sluice.zip.ZipLayout.CENLEN;
import static io.sluice.zip.ZipLayout.CENNAM;
import static io.sluice.zip.ZipLayout.CENOFF;
import static io.sluice.zip.ZipLayout.CENSIG;
import static io.sluice.zip.ZipLayout.CENSIZ;
import static io.sluice.zip.ZipLayout.CENTIM;
import static io.sluice.zip.ZipLayout.CENVEM;
import static io.sluice.zip.ZipLayout.FLAG_UTF8;
import static io.sluice.zip.ZipLayout.LOCHDR;
import static io.sluice.zip.ZipLayout.LOCSIG;
import static io.sluice.zip.ZipLayout.UNICODE_PATH_EXTRA;
import static io.sluice.zip.ZipLayout.ZIP64_EXTRA;
import static io.sluice.zip.ZipLayout.ZIP64_MAGIC16;
import static io.sluice.zip.ZipLayout.ZIP64_MAGIC32;
import static io.sluice.zip.ZipLayout.u16;
import static io.sluice.zip.ZipLayout.u32;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;
import java.util.zip.CRC32;
import java.util.zip.ZipException;

/**
 * An archive's central directory, parsed once into parallel arrays indexed by entry number (in central directory
 * order), one byte table holding every raw name, and an open-addressing hash index over the names.
 *
 * <p>Why arrays rather than one object per entry: a jar of 100,000 entries costs a few arrays here instead of
 * 100,000 objects of a dozen fields each, parsing touches memory sequentially, and the tables are immutable once
 * built, so any number of threads read them with no lock and no volatile read (they are published through the final
 * field of {@link ConcurrentZipFile}).
 *
 * <p>Offsets stored here are positions in the file: the archive's own offsets plus {@link EndRecord#base()}, which
 * is non-zero when something (a launcher script, a self-extractor) is prepended to the archive.
 */
final class CentralDirectory {
    private static final int[] NO_INTS = new int[0];
    /** The most entries an archive may have, so the hash index (twice as many slots) fits in an array. */
    static final int MAX_ENTRIES = 1 << 28;
    /** The MS-DOS directory attribute, in the low byte of the external attributes. */
    private static final int MSDOS_DIRECTORY = 0x10;
    /** "Version made by" host 3: the high 16 bits of the external attributes are a Unix mode. */
    static final int UNIX_HOST = 3;
    private static final int S_IFMT = 0xF000;
    private static final int S_IFDIR = 0x4000;

    final String archive;
    final EndRecord end;
    final int count;
    final long[] localOffsets;
    final long[] compressedSizes;
    final long[] sizes;
    final int[] crcs;
    /** General purpose flags in the high 16 bits, the compression method in the low 16. */
    final int[] flagsAndMethods;
    /** The MS-DOS date in the high 16 bits, the time in the low 16 (APPNOTE 4.4.6). */
    final int[] dosTimes;
    final int[] externalAttributes;
    /** The system that made each entry ("version made by", high byte: 3 is Unix). */
    final byte[] madeBy;
    /** Position of each entry's central directory header, to read its comment on demand. */
    final long[] headerPositions;
    /** Where entry i's room ends: the next local header in file order, or the central directory. */
    private final long[] dataLimits;
    /** Entry i's raw name is {@code names[nameStarts[i], nameStarts[i + 1])}. */
    final int[] nameStarts;
    final byte[] names;
    /**
     * A random start for the name hash, so that nobody can make an archive whose names all land in one run of slots
     * (which would make open quadratic).
     */
    private final int hashSeed;
    /** Slots of entry number + 1, 0 for empty; its length is a power of two, at least twice {@link #count}. */
    private final int[] hashSlots;
    /** Whether some name without the UTF-8 flag has a byte above 0x7F, so lookups must also try the legacy charset. */
    private final boolean legacyNames;
    /**
     * The entries whose name in {@link #names} is the UTF-8 one of an Info-ZIP Unicode Path extra field (which
     * 7-Zip and WinZip write beside a legacy name) rather than the header's own; null when there are none.
     */
    private final BitSet unicodePaths;
    /** The charset of names without the UTF-8 flag; null means code page 437, as APPNOTE says. */
    private final Charset legacyCharset;
    /** The entries that are directories: by the raw name's trailing slash, or by their attributes. */
    private final BitSet directories;

    private CentralDirectory(Builder b, EndRecord end, Charset legacyCharset) {
        this.archive = b.archive;
        this.end = end;
        this.count = b.count;
        this.localOffsets = Arrays.copyOf(b.localOffsets, count);
        this.compressedSizes = Arrays.copyOf(b.compressedSizes, count);
        this.sizes = Arrays.copyOf(b.sizes, count);
        this.crcs = Arrays.copyOf(b.crcs, count);
        this.flagsAndMethods = Arrays.copyOf(b.flagsAndMethods, count);
        this.dosTimes = Arrays.copyOf(b.dosTimes, count);
        this.externalAttributes = Arrays.copyOf(b.externalAttributes, count);
        this.madeBy = Arrays.copyOf(b.madeBy, count);
        this.headerPositions = Arrays.copyOf(b.headerPositions, count);
        this.dataLimits = b.dataLimits;
        this.nameStarts = Arrays.copyOf(b.nameStarts, count + 1);
        this.names = Arrays.copyOf(b.names, b.nameBytes);
        this.legacyNames = b.legacyNames;
        this.unicodePaths = b.unicodePaths;
        this.legacyCharset = legacyCharset;
        this.directories = b.directories;
        this.hashSeed = java.util.concurrent.ThreadLocalRandom.current().nextInt();
        this.hashSlots = count == 0 ? NO_INTS : new int[Integer.highestOneBit(count) << 2];
        int mask = hashSlots.length - 1;
        for (int i = 0; i < count; i++) {
            int from = nameStarts[i];
            int to = nameStarts[i + 1];
            int slot = hash(names, from, to) & mask;
            for (int j; (j = hashSlots[slot] - 1) >= 0; slot = (slot + 1) & mask) {
                if (isUtf8(j) == isUtf8(i) && Arrays.equals(names, nameStarts[j], nameStarts[j + 1], names, from, to)) {
                    // A repeated name: the first stays the one found. Not inserting it keeps an archive of one name
                    // repeated a million times from making every insert walk all the previous ones.
                    slot = -1;
                    break;
                }
            }
            if (slot >= 0) {
                hashSlots[slot] = i + 1;
            }
        }
    }

    /**
     * Parses the central directory of the archive in {@code file}.
     *
     * @param legacyCharset the charset of names without the UTF-8 flag, or null for code page 437
     * @throws ZipException naming the archive, the entry and the offset of the first problem found
     */
    static CentralDirectory parse(ArchiveBytes file, String archive, Charset legacyCharset) throws ZipException {
        EndRecord end = EndRecord.find(file, archive);
        Builder b = new Builder(archive, end);
        long pos = end.cenStart();
        long limit = end.cenStart() + end.cenSize();
        while (pos < limit) {
            pos = b.add(file, pos, limit);
        }
        // Old writers stored the entry count modulo 65536 without a Zip64 record, so a count that agrees in its low
        // 16 bits is taken as the same count (as the JDK and Info-ZIP do).
        long declared = end.entries();
        if (b.count != declared && (declared != (b.count & 0xFFFF) || end.zip64())) {
            throw ZipErrors.archive(archive, end.position(), "the end record declares " + declared
                    + " entries but the central directory holds " + b.count);
        }
        b.checkOverlaps(file);
        return new CentralDirectory(b, end, legacyCharset);
    }

    long dataLimit(int i) {
        return dataLimits[i];
    }

    // ---------------------------------------------------------------- names

    private int hash(byte[] bytes, int from, int to) {
        // FNV-1a from a random basis, then MurmurHash3's finalizer, so every bit of the slot number depends on every
        // byte of the name and on the seed (FNV's low bits alone depend only on the low bits of each byte).
        int h = 0x811C9DC5 ^ hashSeed;
        for (int i = from; i < to; i++) {
            h = (h ^ bytes[i]) * 0x01000193;
        }
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        return h ^ (h >>> 16);
    }

    /** Whether entry i's name in {@link #names} is UTF-8: its flag says so, or it came from a Unicode Path field. */
    boolean isUtf8(int i) {
        return ((flagsAndMethods[i] >>> 16) & FLAG_UTF8) != 0 || (unicodePaths != null && unicodePaths.get(i));
    }

    /**
     * Whether entry i is a directory: its raw name ends with a slash (a Unicode Path only spells the name), or it holds
     * no data and its attributes say directory (the MS-DOS directory bit, or a Unix directory mode).
     */
    boolean isDirectory(int i) {
        return directories.get(i);
    }

    int flags(int i) {
        return flagsAndMethods[i] >>> 16;
    }

    int method(int i) {
        return flagsAndMethods[i] & 0xFFFF;
    }

    /**
     * Entry i's name, decoded as UTF-8 when its flag says so, when it came from a Unicode Path field or when it is
     * plain ASCII, else the legacy way.
     */
    String name(int i) {
        return decode(isUtf8(i), names, nameStarts[i], nameStarts[i + 1] - nameStarts[i]);
    }

    /** Entry i's comment from its bytes {@code b}, as its UTF-8 flag says (a Unicode Path says nothing of it). */
    String comment(int i, byte[] b) {
        return decode((flags(i) & FLAG_UTF8) != 0, b, 0, b.length);
    }

    private String decode(boolean utf8, byte[] b, int from, int len) {
        if (utf8 || isAscii(b, from, from + len)) {
            return new String(b, from, len, StandardCharsets.UTF_8);
        }
        return legacyCharset == null ? Cp437.decode(b, from, len) : new String(b, from, len, legacyCharset);
    }

    private static boolean isUtf8(byte[] b, int from, int len) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(java.nio.ByteBuffer.wrap(b, from, len));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    private static boolean isAscii(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] < 0) {
                return false;
            }
        }
        return true;
    }

    /** The entry named {@code name}, the first in central directory order when names repeat; -1 if none. */
    int find(String name) {
        if (count == 0) {
            return -1;
        }
        byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
        boolean ascii = isAscii(utf8, 0, utf8.length);
        int i = probe(utf8, ascii ? 0 : 1);
        if (i < 0 && legacyNames && !ascii) {
            byte[] legacy = encodeLegacy(name);
            if (legacy != null) {
                i = probe(legacy, 2);
            }
        }
        return i;
    }

    /** {@code need}: 0 any entry, 1 only UTF-8-flagged ones, 2 only unflagged ones. */
    private int probe(byte[] key, int need) {
        int mask = hashSlots.length - 1;
        for (int slot = hash(key, 0, key.length) & mask; ; slot = (slot + 1) & mask) {
            int i = hashSlots[slot] - 1;
            if (i < 0) {
                return -1;
            }
            int from = nameStarts[i];
            if (nameStarts[i + 1] - from == key.length
                    && Arrays.equals(names, from, nameStarts[i + 1], key, 0, key.length)
                    && (need == 0 || (need == 1) == isUtf8(i))) {
                return i;
            }
        }
    }

    private byte[] encodeLegacy(String name) {
        if (legacyCharset == null) {
            return Cp437.encode(name);
        }
        try {
            var bytes = legacyCharset.newEncoder().onUnmappableCharacter(CodingErrorAction.REPORT)
                    .onMalformedInput(CodingErrorAction.REPORT).encode(java.nio.CharBuffer.wrap(name));
            byte[] out = new byte[bytes.remaining()];
            bytes.get(out);
            return out;
        } catch (CharacterCodingException | UnsupportedOperationException e) {
            return null;
        }
    }

    /**
     * Whether entry i's name starts with {@code asciiPrefix} ({@code ignoreCase}: in ASCII letters' case only, as
     * the JDK tells {@code META-INF/} names), looked at in the stored bytes without making a String: an ASCII byte
     * at the start of a name is that char in UTF-8, code page 437 and the other charsets names are read in.
     */
    boolean nameStartsWith(int i, String asciiPrefix, boolean ignoreCase) {
        int from = nameStarts[i];
        if (nameStarts[i + 1] - from < asciiPrefix.length()) {
            return false;
        }
        for (int k = 0; k < asciiPrefix.length(); k++) {
            int b = names[from + k];
            int c = asciiPrefix.charAt(k);
            if (b != c && !(ignoreCase && lowerAscii(b) == lowerAscii(c))) {
                return false;
            }
        }
        return true;
    }

    private static int lowerAscii(int c) {
        return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
    }

    /** The entry's name for messages: its name, or {@code #i} when the index is out of range. */
    String describe(int i) {
        return i >= 0 && i < count ? name(i) : "#" + i;
    }

    // ---------------------------------------------------------------- building

    /** Growing arrays while the directory is read; the final tables are trimmed copies. */
    private static final class Builder {
        final String archive;
        final EndRecord end;
        int count;
        long[] localOffsets;
        long[] compressedSizes;
        long[] sizes;
        int[] crcs;
        int[] flagsAndMethods;
        int[] dosTimes;
        int[] externalAttributes;
        byte[] madeBy;
        long[] headerPositions;
        int[] nameStarts;
        byte[] names;
        int nameBytes;
        boolean legacyNames;
        BitSet unicodePaths;
        final BitSet directories = new BitSet();
        long[] dataLimits;
        /** The fixed part of the header being read. */
        private final byte[] header = new byte[CENHDR];

        Builder(String archive, EndRecord end) {
            this.archive = archive;
            this.end = end;
            // The declared count is trusted only as far as the directory's size allows, so a lying end record cannot
            // make us allocate more than the file could describe.
            long fits = Math.min(end.cenSize() / CENHDR + 1, MAX_ENTRIES);
            int capacity = (int) Math.min(Math.max(end.entries(), 1), fits);
            localOffsets = new long[capacity];
            compressedSizes = new long[capacity];
            sizes = new long[capacity];
            crcs = new int[capacity];
            flagsAndMethods = new int[capacity];
            dosTimes = new int[capacity];
            externalAttributes = new int[capacity];
            madeBy = new byte[capacity];
            headerPositions = new long[capacity];
            nameStarts = new int[capacity + 1];
            names = new byte[(int) Math.min(end.cenSize(), 1 << 16)];
        }

        private void grow() {
            int n = (int) Math.min((long) localOffsets.length * 2, Integer.MAX_VALUE - 16);
            if (n <= count) {
                throw new IllegalStateException("too many entries");
            }
            localOffsets = Arrays.copyOf(localOffsets, n);
            compressedSizes = Arrays.copyOf(compressedSizes, n);
            sizes = Arrays.copyOf(sizes, n);
            crcs = Arrays.copyOf(crcs, n);
            flagsAndMethods = Arrays.copyOf(flagsAndMethods, n);
            dosTimes = Arrays.copyOf(dosTimes, n);
            externalAttributes = Arrays.copyOf(externalAttributes, n);
            madeBy = Arrays.copyOf(madeBy, n);
            headerPositions = Arrays.copyOf(headerPositions, n);
            nameStarts = Arrays.copyOf(nameStarts, n + 1);
        }

        /** The header being read, for messages; made only for one, since it would cost a String per entry. */
        private String where() {
            return "central directory header #" + count;
        }

        /** Reads the header at {@code pos}; returns the position of the next one. */
        long add(ArchiveBytes f, long pos, long limit) throws ZipException {
            if (limit - pos < CENHDR) {
                throw ZipErrors.archive(archive, pos, where() + " is cut short by the end of the central directory");
            }
            // One copy of the fixed part, read from the array: field by field out of the mapping costs more.
            f.copy(pos, header, 0, CENHDR);
            if ((int) u32(header, 0) != CENSIG) {
                throw ZipErrors.archive(archive, pos, where() + " has no central directory signature");
            }
            int nameLen = u16(header, CENNAM);
            int extraLen = u16(header, CENEXT);
            int commentLen = u16(header, CENCOM);
            long next = pos + CENHDR + nameLen + extraLen + commentLen;
            if (next > limit) {
                throw ZipErrors.archive(archive, pos, where() + " (" + (next - pos)
                        + " bytes with its name, extra field and comment) runs past the end of the central directory");
            }
            if (count == MAX_ENTRIES) {
                throw ZipErrors.archive(archive, pos, "more than " + MAX_ENTRIES + " entries, which is not supported");
            }
            if (count == localOffsets.length) {
                grow();
            }
            roomForName(nameLen, pos);
            f.copy(pos + CENHDR, names, nameBytes, nameLen);
            int flags = u16(header, CENFLG);
            boolean rawDirectory = nameLen > 0 && names[nameBytes + nameLen - 1] == '/';
            // The name kept in the table: the header's, or the UTF-8 one of a Unicode Path field that matches it.
            int tableLen = nameLen;
            byte[] unicode = (flags & FLAG_UTF8) == 0 && extraLen > 0
                    ? unicodePath(f, pos + CENHDR + nameLen, extraLen, names, nameBytes, nameLen) : null;
            if (unicode != null) {
                sameSeparators(unicode, names, nameBytes, nameLen);
                roomForName(unicode.length, pos);
                System.arraycopy(unicode, 0, names, nameBytes, unicode.length);
                tableLen = unicode.length;
                if (unicodePaths == null) {
                    unicodePaths = new BitSet();
                }
                unicodePaths.set(count);
            } else if (!isAscii(names, nameBytes, nameBytes + nameLen)) {
                if ((flags & FLAG_UTF8) == 0) {
                    legacyNames = true;
                } else if (!isUtf8(names, nameBytes, nameLen)) {
                    // Refused, as by the JDK: a name that decodes with replacement characters could not be looked
                    // up, and two different names could decode alike.
                    throw ZipErrors.archive(archive, pos, where() + " has a name flagged as UTF-8 that is not UTF-8");
                }
            }
            int i = count;
            nameStarts[i] = nameBytes;
            nameBytes += tableLen;
            nameStarts[i + 1] = nameBytes;
            count++;

            long csize = u32(header, CENSIZ);
            long size = u32(header, CENLEN);
            long offset = u32(header, CENOFF);
            int disk = u16(header, CENDSK);
            if (csize == ZIP64_MAGIC32 || size == ZIP64_MAGIC32 || offset == ZIP64_MAGIC32 || disk == ZIP64_MAGIC16) {
                long[] values = {size, csize, offset, disk};
                zip64Extra(f, pos + CENHDR + nameLen, extraLen, values, pos, i);
                size = values[0];
                csize = values[1];
                offset = values[2];
                disk = (int) values[3];
            }
            if (disk != 0) {
                throw ZipErrors.entry(archive, name(i), pos, "starts on disk " + disk
                        + ": archives split over several disks are not supported");
            }
            if (size < 0 || csize < 0 || offset < 0) {
                throw ZipErrors.entry(archive, name(i), pos, "has a negative size or offset in its Zip64 field");
            }
            long local = end.base() + offset;
            if (offset > end.cenStart() || local > end.cenStart() - LOCHDR) {
                throw ZipErrors.entry(archive, name(i), pos, "local header offset " + offset
                        + " is outside the archive's data, which ends where the central directory starts, at "
                        + (end.cenStart() - end.base()));
            }
            localOffsets[i] = local;
            compressedSizes[i] = csize;
            sizes[i] = size;
            crcs[i] = (int) u32(header, CENCRC);
            flagsAndMethods[i] = flags << 16 | u16(header, CENHOW);
            dosTimes[i] = (int) u32(header, CENTIM);
            externalAttributes[i] = (int) u32(header, CENATX);
            madeBy[i] = header[CENVEM + 1];
            headerPositions[i] = pos;
            if (rawDirectory || size == 0 && directoryAttributes(externalAttributes[i], madeBy[i])) {
                directories.set(i);
            }
            return next;
        }

        /**
         * Whether external attributes {@code attributes} of an entry made on host {@code host} say directory: the
         * MS-DOS directory bit in the low byte (which Info-ZIP sets on Unix as well), or, from Unix, the directory
         * type in the mode in the high 16 bits.
         */
        private static boolean directoryAttributes(int attributes, byte host) {
            return (attributes & MSDOS_DIRECTORY) != 0
                    || (host & 0xFF) == UNIX_HOST && ((attributes >>> 16) & S_IFMT) == S_IFDIR;
        }

        /**
         * Gives a Unicode Path name the separators of the raw name it spells: where the raw name has no backslash,
         * each backslash of the Unicode Path is a separator written the Windows way (WinZip does so) and becomes a
         * slash. The name would otherwise differ from the raw one in its structure: {@code ä\} for the directory
         * {@code ä/} is no directory, and is not found by the raw name's lookup. A raw name with backslashes keeps
         * them, and so does its Unicode Path.
         */
        private static void sameSeparators(byte[] unicode, byte[] raw, int from, int len) {
            for (int k = from; k < from + len; k++) {
                if (raw[k] == '\\') {
                    return;
                }
            }
            for (int k = 0; k < unicode.length; k++) {
                if (unicode[k] == '\\') {
                    unicode[k] = '/';
                }
            }
        }

        /** Makes room in {@link #names} for a name of {@code len} bytes more. */
        private void roomForName(int len, long pos) throws ZipException {
            if ((long) nameBytes + len > Integer.MAX_VALUE - 16) {
                throw ZipErrors.archive(archive, pos, "the entry names add up to more than 2 GiB");
            }
            if (nameBytes + len > names.length) {
                names = Arrays.copyOf(names, (int) Math.min(Integer.MAX_VALUE - 16,
                        Math.max((long) names.length * 2, (long) nameBytes + len)));
            }
        }

        /**
         * The UTF-8 name of the Info-ZIP Unicode Path field among the {@code extraLen} bytes of extra data at
         * {@code extra}, or null when there is none or it cannot be trusted: a version other than 1, a name that
         * is not UTF-8, or a CRC-32 that does not match the header's raw name {@code raw[from, from + len)} (a tool
         * that renamed the entry without knowing the field left the old name in it).
         */
        private static byte[] unicodePath(ArchiveBytes f, long extra, int extraLen, byte[] raw, int from, int len) {
            long p = extra;
            long end = extra + extraLen;
            while (end - p >= 4) {
                int id = f.u16(p);
                int size = f.u16(p + 2);
                if (p + 4 + size > end) {
                    return null;
                }
                if (id == UNICODE_PATH_EXTRA) {
                    if (size < 6 || f.byteAt(p + 4) != 1) {
                        return null;
                    }
                    CRC32 crc = new CRC32();
                    crc.update(raw, from, len);
                    if ((int) crc.getValue() != f.int32(p + 5)) {
                        return null;
                    }
                    byte[] name = new byte[size - 5];
                    f.copy(p + 9, name, 0, name.length);
                    return isUtf8(name, 0, name.length) ? name : null;
                }
                p += 4 + size;
            }
            return null;
        }

        /**
         * Replaces the fields that are 0xFFFFFFFF (0xFFFF for the disk) with the Zip64 extra field's values, which
         * appear in the order size, compressed size, offset, disk and only for the fields that need them (4.5.3).
         */
        private void zip64Extra(ArchiveBytes f, long extra, int extraLen, long[] values, long header, int i)
                throws ZipException {
            long p = extra;
            long end = extra + extraLen;
            while (end - p >= 4) {
                int id = f.u16(p);
                int len = f.u16(p + 2);
                if (p + 4 + len > end) {
                    throw ZipErrors.entry(archive, name(i), p, "extra field 0x" + Integer.toHexString(id) + " of "
                            + len + " bytes runs past the end of the extra data");
                }
                if (id == ZIP64_EXTRA) {
                    long q = p + 4;
                    long qEnd = q + len;
                    for (int k = 0; k < 4; k++) {
                        boolean wanted = k == 3 ? values[k] == ZIP64_MAGIC16 : values[k] == ZIP64_MAGIC32;
                        if (!wanted) {
                            continue;
                        }
                        int width = k == 3 ? 4 : 8;
                        if (qEnd - q < width) {
                            throw ZipErrors.entry(archive, name(i), p, "Zip64 extra field of " + len
                                    + " bytes lacks the " + new String[] {"size", "compressed size", "offset",
                                        "disk number"}[k] + " its central directory header defers to it");
                        }
                        values[k] = width == 8 ? f.u64(q) : f.u32(q);
                        q += width;
                    }
                    return;
                }
                p += 4 + len;
            }
            // No Zip64 field: the 32-bit values are the real ones (a file of exactly 4 GiB - 1 bytes, say).
            if (values[3] == ZIP64_MAGIC16) {
                values[3] = 0;
            }
        }

        /**
         * Refuses entries whose data would overlap another entry's: the "overlapping files" zip bomb reuses one
         * compressed stream for many entries. An entry occupies at least its 30-byte local header, its name and its
         * compressed data, ahead of the next entry's header and of the central directory; a compressed size that
         * reaches past the central directory is reported as the absurd size it is, not as an overlap. With a prefix
         * taken from the end record's offset, the first entry must start where the prefix puts it.
         */
        void checkOverlaps(ArchiveBytes f) throws ZipException {
            int[] order = byOffset();
            dataLimits = new long[count];
            for (int k = 0; k < count; k++) {
                int i = order[k];
                if (k == 0 && end.base() > 0 && f.int32(localOffsets[i]) != LOCSIG) {
                    // The end record's offset disagrees with where the directory is, which is how a prepended
                    // launcher shows; but then the first entry must be where that prefix puts it.
                    throw ZipErrors.entry(archive, name(i), localOffsets[i] - end.base(), "no local header at file"
                            + " offset " + localOffsets[i] + ", where the central directory puts the first entry if"
                            + " the " + end.base() + " bytes before it were prepended to the archive (the end record"
                            + " says the central directory is at offset " + (end.cenStart() - end.base())
                            + ", yet it is at " + end.cenStart() + ")");
                }
                // The raw name's length, as in the local header: the table may hold a longer Unicode Path.
                int nameLen = unicodePaths != null && unicodePaths.get(i) ? f.u16(headerPositions[i] + CENNAM)
                        : nameStarts[i + 1] - nameStarts[i];
                long floorEnd = localOffsets[i] + LOCHDR + nameLen;
                long dataEnd = floorEnd + compressedSizes[i];
                long next = k + 1 < count ? localOffsets[order[k + 1]] : end.cenStart();
                dataLimits[i] = next;
                if (dataEnd < floorEnd || dataEnd > end.cenStart()) {
                    throw ZipErrors.entry(archive, name(i), localOffsets[i] - end.base(), "compressed size "
                            + compressedSizes[i] + " runs past the end of the data at " + (end.cenStart() - end.base())
                            + ", where the central directory starts");
                }
                if (dataEnd > next) {
                    throw ZipErrors.entry(archive, name(i), localOffsets[i] - end.base(), compressedSizes[i]
                            + " bytes of data overlap the local header of entry '" + name(order[k + 1]) + "' at "
                            + (next - end.base()) + " (entries must not share data)");
                }
            }
        }

        /** Entry numbers in order of local header offset; the identity when already ordered, as in most archives. */
        private int[] byOffset() {
            boolean sorted = true;
            for (int i = 1; i < count && sorted; i++) {
                sorted = localOffsets[i - 1] <= localOffsets[i];
            }
            int[] order = new int[count];
            for (int i = 0; i < count; i++) {
                order[i] = i;
            }
            if (!sorted) {
                // Rare (archives rewritten by some tools), so boxing is acceptable here.
                Integer[] boxed = Arrays.stream(order).boxed().toArray(Integer[]::new);
                Arrays.sort(boxed, (a, c) -> Long.compare(localOffsets[a], localOffsets[c]));
                for (int i = 0; i < count; i++) {
                    order[i] = boxed[i];
                }
            }
            return order;
        }

        private String name(int i) {
            int from = nameStarts[i];
            return new String(names, from, nameStarts[i + 1] - from, StandardCharsets.UTF_8);
        }
    }
}
