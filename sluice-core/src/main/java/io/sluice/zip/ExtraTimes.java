package io.sluice.zip;

import static io.sluice.zip.ZipLayout.u16;
import static io.sluice.zip.ZipLayout.u32;
import static io.sluice.zip.ZipLayout.u64;

import java.nio.file.attribute.FileTime;
import java.util.concurrent.TimeUnit;

/**
 * An entry's times as the JDK's zip file system reports them: the MS-DOS fields, replaced by the extra fields that
 * hold finer ones, in the order the central directory header lists them. An NTFS field (0x000a) gives modification,
 * access and creation times in 100 ns units; an extended timestamp (0x5455, "UT") gives the modification time in
 * seconds in the central header, and the access and creation times only in the local header, which is read for them.
 * A time no field gives is the modification time.
 */
final class ExtraTimes {
    private static final int NTFS = 0x000a;
    private static final int EXTENDED = ZipLayout.EXTENDED_TIMESTAMP_EXTRA;
    /** 1601-01-01, where Windows counts from, in microseconds from 1970-01-01. */
    private static final long WINDOWS_EPOCH_MICROS = -11_644_473_600_000_000L;

    final FileTime modified;
    final FileTime accessed;
    final FileTime created;

    private ExtraTimes(FileTime modified, FileTime accessed, FileTime created) {
        this.modified = modified;
        this.accessed = accessed == null ? modified : accessed;
        this.created = created == null ? modified : created;
    }

    /** The entry's times; {@code fallback} when neither the MS-DOS fields nor an extra field hold a valid one. */
    static ExtraTimes of(ConcurrentZipFile zip, ConcurrentZipFile.Entry entry, FileTime fallback) {
        FileTime m = entry.getLastModifiedTime();
        FileTime a = null;
        FileTime c = null;
        byte[] x = zip.extraField(entry, false);
        for (int p = 0, next; (next = ZipLayout.extraFieldEnd(x, p)) >= 0; p = next) {
            int id = u16(x, p);
            int data = p + 4;
            int size = next - data;
            if (id == NTFS && size >= 32) {
                // Four reserved bytes, then tagged attributes; tag 1 holds the three times.
                for (int q = data + 4; q + 4 <= data + size;) {
                    int tag = u16(x, q);
                    int tagSize = u16(x, q + 2);
                    if (tag == 1 && tagSize == 24 && q + 4 + 24 <= data + size) {
                        m = windows(u64(x, q + 4));
                        a = windows(u64(x, q + 12));
                        c = windows(u64(x, q + 20));
                        break;
                    }
                    q += 4 + tagSize;
                }
            } else if (id == EXTENDED && size >= 1) {
                int flags = x[data];
                if ((flags & 1) != 0 && size >= 5) {
                    m = unix(u32(x, data + 1));
                }
                FileTime[] local = localAccessAndCreation(zip, entry);
                if (local[0] != null) {
                    a = local[0];
                }
                if (local[1] != null) {
                    c = local[1];
                }
            }
        }
        return new ExtraTimes(m == null ? fallback : m, a, c);
    }

    /** The access and creation times of the local header's extended timestamp, each null if absent. */
    private static FileTime[] localAccessAndCreation(ConcurrentZipFile zip, ConcurrentZipFile.Entry entry) {
        FileTime[] out = new FileTime[2];
        byte[] x = zip.extraField(entry, true);
        for (int p = 0, next; (next = ZipLayout.extraFieldEnd(x, p)) >= 0; p = next) {
            int id = u16(x, p);
            int data = p + 4;
            int size = next - data;
            if (id == EXTENDED && size >= 1) {
                int flags = x[data];
                int at = data + 1;
                int end = data + size;
                if ((flags & 1) != 0) {
                    at += 4;
                }
                if ((flags & 2) != 0 && at + 4 <= end) {
                    out[0] = unix(u32(x, at));
                    at += 4;
                }
                if ((flags & 4) != 0 && at + 4 <= end) {
                    out[1] = unix(u32(x, at));
                }
                break;
            }
        }
        return out;
    }

    private static FileTime unix(long seconds) {
        return FileTime.fromMillis(TimeUnit.SECONDS.toMillis(seconds));
    }

    private static FileTime windows(long hundredNanos) {
        // Milliseconds, as the JDK's zip file system keeps them.
        return FileTime.fromMillis(TimeUnit.MICROSECONDS.toMillis(hundredNanos / 10 + WINDOWS_EPOCH_MICROS));
    }
}
