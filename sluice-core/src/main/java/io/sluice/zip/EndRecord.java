package io.sluice.zip;

import static io.sluice.zip.ZipLayout.CENSIG;
import static io.sluice.zip.ZipLayout.ENDCOM;
import static io.sluice.zip.ZipLayout.ENDDCD;
import static io.sluice.zip.ZipLayout.ENDDSK;
import static io.sluice.zip.ZipLayout.ENDHDR;
import static io.sluice.zip.ZipLayout.ENDOFF;
import static io.sluice.zip.ZipLayout.ENDSIG;
import static io.sluice.zip.ZipLayout.ENDSIZ;
import static io.sluice.zip.ZipLayout.ENDSUB;
import static io.sluice.zip.ZipLayout.ENDTOT;
import static io.sluice.zip.ZipLayout.MAX_COMMENT;
import static io.sluice.zip.ZipLayout.ZIP64_ENDDCD;
import static io.sluice.zip.ZipLayout.ZIP64_ENDDSK;
import static io.sluice.zip.ZipLayout.ZIP64_ENDHDR;
import static io.sluice.zip.ZipLayout.ZIP64_ENDOFF;
import static io.sluice.zip.ZipLayout.ZIP64_ENDSIG;
import static io.sluice.zip.ZipLayout.ZIP64_ENDSIZ;
import static io.sluice.zip.ZipLayout.ZIP64_ENDSUB;
import static io.sluice.zip.ZipLayout.ZIP64_ENDTOT;
import static io.sluice.zip.ZipLayout.ZIP64_LOCHDR;
import static io.sluice.zip.ZipLayout.ZIP64_LOCOFF;
import static io.sluice.zip.ZipLayout.ZIP64_LOCSIG;
import static io.sluice.zip.ZipLayout.ZIP64_MAGIC16;
import static io.sluice.zip.ZipLayout.ZIP64_MAGIC32;

import java.util.zip.ZipException;

/**
 * Where the central directory is, from the end of central directory record and, when present, the Zip64 records.
 *
 * <p>{@code base} is where the archive really starts in the file. Offsets inside an archive count from its first
 * byte, so when a launcher script or a self-extractor is prepended they are all short by the prefix's length. The
 * central directory always ends where the (Zip64) end record starts, so its real position is known, and its stored
 * offset tells how long the prefix is (the JDK's {@code ZipFile} does the same).
 *
 * @param position   where the end record is in the file
 * @param cenStart   where the central directory starts in the file
 * @param cenSize    its size in bytes
 * @param entries    the declared number of entries
 * @param base       the length of whatever precedes the archive (0 for most files)
 * @param zip64      whether a Zip64 end record was used
 * @param commentPosition where the archive comment starts in the file
 * @param commentLength   its length, cut to what the file holds
 */
record EndRecord(long position, long cenStart, long cenSize, long entries, long base, boolean zip64,
                 long commentPosition, int commentLength) {

    /**
     * Finds the end record by scanning back from the end of the file (it may be followed by a comment of up to
     * 65535 bytes) and checks that the central directory it points to is where it says.
     *
     * @throws ZipException naming the archive and the offset when no usable end record is found
     */
    static EndRecord find(ArchiveBytes f, String archive) throws ZipException {
        long size = f.size();
        if (size < ENDHDR) {
            throw ZipErrors.archive(archive, 0, "not a zip archive: " + size + " bytes is shorter than an end record");
        }
        long stop = Math.max(0, size - ENDHDR - MAX_COMMENT);
        ZipException first = null;
        for (long pos = size - ENDHDR; pos >= stop; pos--) {
            // The signature starts with 'P' (0x50): test one byte before reading four.
            if (f.byteAt(pos) != 0x50 || f.int32(pos) != ENDSIG) {
                continue;
            }
            try {
                return at(f, archive, pos);
            } catch (ZipException e) {
                // A comment can contain the signature; an earlier candidate may still be the real record. The
                // candidate nearest the end is the one to blame if none works.
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
        throw ZipErrors.archive(archive, stop, "not a zip archive: no end of central directory record in the last "
                + (size - stop) + " bytes");
    }

    private static EndRecord at(ArchiveBytes f, String archive, long pos) throws ZipException {
        long size = f.size();
        // A comment cut short (or padding after it) is tolerated, as by the JDK and Info-ZIP: it carries no data.
        int commentLength = (int) Math.min(f.u16(pos + ENDCOM), size - pos - ENDHDR);
        long disk = f.u16(pos + ENDDSK);
        long cenDisk = f.u16(pos + ENDDCD);
        long entriesHere = f.u16(pos + ENDSUB);
        long entries = f.u16(pos + ENDTOT);
        long cenSize = f.u32(pos + ENDSIZ);
        long cenOffset = f.u32(pos + ENDOFF);
        long cenEnd = pos;
        boolean zip64 = false;
        long locator = pos - ZIP64_LOCHDR;
        if (locator >= 0 && f.int32(locator) == ZIP64_LOCSIG) {
            long record = zip64Record(f, locator);
            boolean needed = disk == ZIP64_MAGIC16 || cenDisk == ZIP64_MAGIC16 || entriesHere == ZIP64_MAGIC16
                    || entries == ZIP64_MAGIC16 || cenSize == ZIP64_MAGIC32 || cenOffset == ZIP64_MAGIC32;
            if (record < 0 && needed) {
                throw ZipErrors.archive(archive, locator, "Zip64 locator points to offset "
                        + f.u64(locator + ZIP64_LOCOFF) + ", where there is no Zip64 end record");
            }
            // With no record there and no field asking for one, the signature is a coincidence (the tail of the last
            // entry's name, say) and the end record stands alone.
            if (record >= 0) {
                zip64 = true;
                cenEnd = record;
                if (disk == ZIP64_MAGIC16) {
                    disk = f.u32(record + ZIP64_ENDDSK);
                }
                if (cenDisk == ZIP64_MAGIC16) {
                    cenDisk = f.u32(record + ZIP64_ENDDCD);
                }
                if (entriesHere == ZIP64_MAGIC16) {
                    entriesHere = f.u64(record + ZIP64_ENDSUB);
                }
                if (entries == ZIP64_MAGIC16) {
                    entries = f.u64(record + ZIP64_ENDTOT);
                }
                if (cenSize == ZIP64_MAGIC32) {
                    cenSize = f.u64(record + ZIP64_ENDSIZ);
                }
                if (cenOffset == ZIP64_MAGIC32) {
                    cenOffset = f.u64(record + ZIP64_ENDOFF);
                }
            }
        }
        if (disk != 0 || cenDisk != 0) {
            throw ZipErrors.archive(archive, pos, "archive is split over several disks (this is disk " + disk
                    + "), which is not supported");
        }
        if (entries < 0 || cenSize < 0 || cenOffset < 0) {
            throw ZipErrors.archive(archive, pos, "Zip64 end record has an entry count, size or offset above 2^63");
        }
        // The entries on this disk (entriesHere) are not checked against the total: on the only disk both should be
        // the same, but the total is the count that is checked against the directory itself, and the JDK, Python's
        // zipfile, Info-ZIP and Commons Compress all read archives whose two counts differ.
        long cenStart = cenEnd - cenSize;
        if (cenStart < 0) {
            throw ZipErrors.archive(archive, pos, "central directory of " + cenSize
                    + " bytes is larger than everything before its end record (" + cenEnd + " bytes)");
        }
        long base = cenStart - cenOffset;
        if (base < 0) {
            throw ZipErrors.archive(archive, pos, "central directory offset " + cenOffset
                    + " points past where it really is (" + cenStart + "): the start of the archive is missing");
        }
        if (entries > cenSize / ZipLayout.CENHDR) {
            throw ZipErrors.archive(archive, pos, entries + " entries cannot fit in a central directory of "
                    + cenSize + " bytes");
        }
        if (cenSize > 0 && f.int32(cenStart) != CENSIG) {
            throw ZipErrors.archive(archive, cenStart, "no central directory where the end record at " + pos
                    + " says it starts");
        }
        // An empty directory where its offset does not put it is an empty archive with something before it (a
        // launcher with an empty archive appended), as the JDK, Python's zipfile and Commons Compress read it: no entry
        // can be misread from it, so there is nothing to refuse.
        return new EndRecord(pos, cenStart, cenSize, entries, base, zip64, pos + ENDHDR, commentLength);
    }

    /**
     * The Zip64 end record the locator at {@code locator} points to, or -1 if there is none. Its stored offset counts
     * from the start of the archive, so with a prefix it is short; the record normally sits right before the
     * locator, which is where it is looked for when the stored offset misses.
     */
    private static long zip64Record(ArchiveBytes f, long locator) {
        long stored = f.u64(locator + ZIP64_LOCOFF);
        if (stored >= 0 && stored <= locator - ZIP64_ENDHDR && f.int32(stored) == ZIP64_ENDSIG) {
            return stored;
        }
        long adjacent = locator - ZIP64_ENDHDR;
        if (adjacent >= 0 && f.int32(adjacent) == ZIP64_ENDSIG) {
            return adjacent;
        }
        return -1;
    }
}
