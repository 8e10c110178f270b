package io.sluice.db;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Recognises Kyoto Cabinet's own database files, which code moved from Kyoto Cabinet to this store may still name
 * (bioruby-maf's test data holds {@code .kct} indexes): a TreeDB file opened read-only is read into memory
 * ({@link KyotoTreeFile}); opened writable, or of a kind that cannot be read, it gives an error that says what the
 * file is and what to do, rather than MVStore's "Store header is corrupt".
 */
final class KyotoCabinetFiles {
    /** Every Kyoto Cabinet file database (hash and tree alike) starts with these bytes. */
    private static final byte[] MAGIC = {'K', 'C', '\n', 0};

    private KyotoCabinetFiles() {
    }

    /**
     * Opens {@code path} as a read-only store if it is a Kyoto Cabinet TreeDB file; returns null for any other file,
     * or one that cannot be read (opening the store then says why).
     *
     * @throws IOException if {@code path} is a Kyoto Cabinet database file and {@code writable}, or it cannot be read
     *     as a TreeDB file (see {@link KyotoTreeFile#read})
     */
    static KvStore openReadOnly(Path path, boolean writable) throws IOException {
        if (!isKyotoCabinet(path)) {
            return null;
        }
        if (writable) {
            throw new DamagedStoreException("open(" + path + "): a Kyoto Cabinet database file (it starts with Kyoto Cabinet's "
                    + "magic \"KC\\n\"), which this store reads but does not write: open it read-only, or build "
                    + "the store anew (a bioruby-maf index: from its MAF file), or list the records with Kyoto "
                    + "Cabinet's own tools (kctreemgr list -pv FILE) and load them");
        }
        return KvStore.readOnlyCopy(path, sink -> KyotoTreeFile.read(path, sink));
    }

    /** Whether {@code path} is a regular file that starts with Kyoto Cabinet's magic. */
    private static boolean isKyotoCabinet(Path path) throws IOException {
        if (!Files.isRegularFile(path) || Files.size(path) < MAGIC.length) {
            return false;
        }
        ByteBuffer head = ByteBuffer.allocate(MAGIC.length);
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            while (head.hasRemaining() && ch.read(head, head.position()) > 0) {
                // Reads until the four bytes are in, as a short read may leave them apart.
            }
        } catch (IOException e) {
            return false;
        }
        return !head.hasRemaining() && head.flip().equals(ByteBuffer.wrap(MAGIC));
    }
}
