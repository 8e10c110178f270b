package io.sluice.zip;

import java.util.zip.ZipException;

/** Builds the messages of every {@link ZipException} Sluice throws: the archive, the entry and the offset. */
final class ZipErrors {
    private ZipErrors() {
    }

    /** A problem with entry {@code entry} (a name, or {@code #index} when the name is unreadable) at {@code offset}. */
    static ZipException entry(String archive, String entry, long offset, String what) {
        return new ZipException(archive + ": entry '" + entry + "' at offset " + offset + ": " + what);
    }

    /** A problem with the archive's structure at {@code offset}, before any entry can be named. */
    static ZipException archive(String archive, long offset, String what) {
        return new ZipException(archive + ": at offset " + offset + ": " + what);
    }

    /** {@code e} with {@code cause} attached; returns {@code e}. */
    static ZipException withCause(ZipException e, Throwable cause) {
        e.initCause(cause);
        return e;
    }
}
