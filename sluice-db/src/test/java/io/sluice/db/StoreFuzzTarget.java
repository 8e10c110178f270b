package io.sluice.db;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.h2.mvstore.MVStoreException;

/**
 * What the fuzzer does with arbitrary bytes: writes them as a store file, opens it read-only and then writable, and
 * reads every record each time. The contract checked:
 * <ul>
 *   <li>{@link KvStore#open} returns a store or throws an {@link IOException} whose message names the file's path;
 *       no other exception;</li>
 *   <li>an open store reads every record forward and backward, a finite number of them, and looks each up;
 *       a damaged page found only then is MVStore's {@link MVStoreException}, as {@link KvStore} documents, and no
 *       other exception;</li>
 *   <li>closing throws nothing but an {@link IOException} naming the file;</li>
 *   <li>afterwards no lock of this JVM is left on the file, whether the opens succeeded or not.</li>
 * </ul>
 * A hang or an {@link OutOfMemoryError} is a bug too: the callers' time and memory limits catch them. Inputs are cut
 * to {@link #MAX_BYTES} so that the time one takes stays bounded.
 */
final class StoreFuzzTarget {
    /** The longest input used: a store of a few records is 12 KiB, and mutations past this add only length. */
    static final int MAX_BYTES = 64 << 10;
    /** More records than a file of {@link #MAX_BYTES} can hold: a damaged tree read past this loops. */
    private static final long MAX_RECORDS = MAX_BYTES;

    private StoreFuzzTarget() {
    }

    /** Returns the number of records read without error, over both opens; throws AssertionError on a misbehaviour. */
    static long exercise(byte[] bytes, Path dir) throws IOException {
        Path file = dir.resolve("fuzzed.db").toAbsolutePath();
        Files.write(file, bytes.length > MAX_BYTES ? Arrays.copyOf(bytes, MAX_BYTES) : bytes);
        long read = 0;
        for (boolean writable : new boolean[] {false, true}) {
            KvStore kv;
            try {
                kv = KvStore.open(file, writable, false, false);
            } catch (NoSuchFileException e) {
                throw new AssertionError("the file was written just before: " + e, e);
            } catch (IOException e) {
                checkMessage(e, file);
                continue;
            } catch (RuntimeException e) {
                throw new AssertionError("open(" + file + ", writable " + writable + ") threw " + e, e);
            }
            try {
                read += readAll(kv, file);
            } finally {
                try {
                    kv.close();
                } catch (IOException e) {
                    checkMessage(e, file);
                } catch (RuntimeException e) {
                    throw new AssertionError("close(" + file + ") threw " + e, e);
                }
            }
        }
        checkUnlocked(file);
        return read;
    }

    /** Every open, failed or closed, has let go of the file: no lock of this JVM is left on it. */
    private static void checkUnlocked(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE); FileLock lock = ch.tryLock()) {
            if (lock == null) {
                throw new AssertionError("another process holds a lock on " + file);
            }
        } catch (OverlappingFileLockException e) {
            throw new AssertionError("a store left its lock on " + file + " behind", e);
        }
    }

    /**
     * Reads every record forward, then backward, and looks each key up. Nothing is asserted about the records
     * themselves: MVStore checks its chunks' headers, not the bytes of its pages, so a damaged page can read as
     * keys out of order or values that were never written, without an error.
     */
    private static long readAll(KvStore kv, Path file) {
        try {
            long n = 0;
            KvCursor c = kv.cursor();
            for (boolean more = c.jump(null); more && n < MAX_RECORDS; more = c.step()) {
                kv.get(c.key());
                n++;
            }
            long back = 0;
            for (boolean more = c.jumpBack(null); more && back < MAX_RECORDS; more = c.stepBack()) {
                back++;
            }
            kv.count();
            return n;
        } catch (MVStoreException e) {
            // Documented by KvStore: a page found damaged when read.
            return 0;
        } catch (RuntimeException e) {
            throw new AssertionError("reading " + file + " threw " + e, e);
        }
    }

    private static void checkMessage(Exception e, Path file) {
        String m = e.getMessage();
        if (m == null || !m.contains(file.toString())) {
            throw new AssertionError("exception without the file's path: " + e, e);
        }
    }
}
