package io.sluice.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store file cut short, as an interrupted copy leaves it: MVStore opens the newest version it finds complete, which
 * used to happen without a word, the later records silently gone.
 */
class KvStoreCutShortTest {
    @TempDir
    Path dir;

    private static final int BATCHES = 5;
    private static final int PER_BATCH = 300;

    /** The file's bytes, and its size after each committed batch. */
    private record Made(byte[] bytes, List<Long> sizes) {
    }

    private Made make(Path f) throws IOException {
        List<Long> sizes = new ArrayList<>();
        try (KvStore kv = KvStore.open(f, true, true, false)) {
            for (int batch = 0; batch < BATCHES; batch++) {
                kv.beginTransaction();
                for (int i = 0; i < PER_BATCH; i++) {
                    kv.put(("k" + batch + "-" + i).getBytes(StandardCharsets.US_ASCII), new byte[40]);
                }
                kv.commitTransaction(false);
                sizes.add(Files.size(f));
            }
        }
        return new Made(Files.readAllBytes(f), sizes);
    }

    private Path cut(byte[] bytes, long length) throws IOException {
        Path c = dir.resolve("cut-" + length + ".db");
        Files.write(c, Arrays.copyOf(bytes, (int) length));
        return c;
    }

    @Test
    void aWholeFileOpensWithNothingDropped() throws IOException {
        Path f = dir.resolve("whole.db");
        make(f);
        try (KvStore kv = KvStore.open(f, false, false, false, false)) {
            assertNull(kv.droppedAtOpen());
            assertEquals(BATCHES * PER_BATCH, kv.count());
        }
    }

    @Test
    void aFileCutShortSaysWhatWasDroppedOrIsRefusedWithoutRepair() throws IOException {
        Path f = dir.resolve("store.db");
        Made made = make(f);
        long whole = made.bytes().length;
        // Inside the last block; at a block boundary inside a chunk; halfway; exactly where an earlier batch's chunk
        // ended (only the header, which names a newer version, tells that one apart from an older whole file).
        List<Long> cuts = List.of(whole - 100, whole - 4096, whole / 2, made.sizes().get(2));
        for (long length : cuts) {
            Path c = cut(made.bytes(), length);
            String where = "cut at " + length + " of " + whole;
            try (KvStore kv = KvStore.open(c, false, false, false)) {
                String dropped = kv.droppedAtOpen();
                assertNotNull(dropped, where + ": nothing said");
                assertTrue(dropped.contains(c.toString()), dropped);
                assertTrue(kv.count() < BATCHES * PER_BATCH, where + ": " + kv.count());
                assertTrue(dropped.contains("version"), dropped);
            }
            DamagedStoreException e = assertThrows(DamagedStoreException.class,
                    () -> KvStore.open(c, false, false, false, false), where);
            assertTrue(e.getMessage().contains(c.toString()), e.getMessage());
            // Refused, and not left locked: a writer repairs it by writing the next version.
            try (KvStore kv = KvStore.open(c, true, false, false)) {
                assertNotNull(kv.droppedAtOpen(), where);
                kv.put(new byte[] {1}, new byte[] {2});
            }
            try (KvStore kv = KvStore.open(c, false, false, false, false)) {
                assertNull(kv.droppedAtOpen(), where + ": written over by a writer");
            }
        }
    }
}
