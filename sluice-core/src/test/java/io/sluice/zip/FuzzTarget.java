package io.sluice.zip;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.util.zip.ZipException;

/**
 * What the fuzzer and the damaged-archive tests do with arbitrary bytes: open them as an archive and use every
 * reading method on every entry. Anything but success or a {@link ZipException} that names the archive is a bug; so
 * are a hang and an {@link OutOfMemoryError}, which the callers' time and memory limits catch.
 */
final class FuzzTarget {
    static final String NAME = "fuzzed.zip";

    private FuzzTarget() {
    }

    /** Returns the number of entries read without error; throws AssertionError on a misbehaviour. */
    static int exercise(byte[] bytes) throws IOException {
        ConcurrentZipFile zip;
        try {
            zip = ConcurrentZipFile.of(MemorySegment.ofArray(bytes), NAME);
        } catch (ZipException e) {
            checkMessage(e);
            return 0;
        }
        int good = 0;
        try (zip) {
            zip.getComment();
            for (ConcurrentZipFile.Entry e : zip) {
                e.getLastModifiedTime();
                e.getComment();
                e.isSymbolicLink();
                if (zip.getEntry(e.getName()) == null) {
                    throw new AssertionError("entry '" + e.getName() + "' listed but not found by name");
                }
                try {
                    byte[] all = zip.readAllBytes(e);
                    if (all.length != e.getSize()) {
                        throw new AssertionError("read " + all.length + " bytes of '" + e.getName() + "', declared "
                                + e.getSize());
                    }
                    zip.verify(e);
                    try (InputStream in = zip.getInputStream(e)) {
                        byte[] small = new byte[7];
                        long n = 0;
                        for (int k; (k = in.read(small)) >= 0; ) {
                            n += k;
                        }
                        if (n != all.length) {
                            throw new AssertionError("streamed " + n + " bytes of '" + e.getName() + "', read "
                                    + all.length + " at once");
                        }
                    }
                    good++;
                } catch (ZipException x) {
                    checkMessage(x);
                }
            }
        }
        return good;
    }

    private static void checkMessage(ZipException e) {
        String m = e.getMessage();
        if (m == null || !m.startsWith(NAME + ": ") || !m.contains("offset ")) {
            throw new AssertionError("ZipException without archive and offset: " + m, e);
        }
    }
}
