package io.sluice.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KvStoreTest {
    @TempDir
    Path dir;

    private static final java.util.Comparator<byte[]> UNSIGNED = Arrays::compareUnsigned;

    private static byte[] b(int... v) {
        byte[] out = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (byte) v[i];
        }
        return out;
    }

    @Test
    void aFileStoreCachesAnEighthOfTheHeapNotMvStores16Megabytes(@TempDir Path tmp) throws IOException {
        long eighth = Runtime.getRuntime().maxMemory() / 8 >> 20;
        try (KvStore kv = KvStore.open(tmp.resolve("cache.kv"), true, true, false)) {
            assertEquals(Math.max(16, Math.min(1024, eighth)), kv.cacheSize());
            // The test JVM's heap is large enough for the cache to be more than MVStore's own default.
            assertTrue(kv.cacheSize() > 16, () -> "cache " + kv.cacheSize() + " MB with a heap of "
                    + (Runtime.getRuntime().maxMemory() >> 20) + " MB");
        }
    }

    @Test
    void randomOperationsMatchASortedMapAcrossReopens() throws IOException {
        Random r = new Random(42);
        TreeMap<byte[], byte[]> model = new TreeMap<>(UNSIGNED);
        Path f = dir.resolve("model.db");
        KvStore kv = KvStore.open(f, true, true, false);
        try {
            for (int i = 0; i < 20_000; i++) {
                byte[] k = randomKey(r);
                switch (r.nextInt(8)) {
                    case 0, 1, 2 -> {
                        byte[] v = randomKey(r);
                        assertArrayEquals(model.put(k, v), kv.put(k, v));
                    }
                    case 3 -> assertArrayEquals(model.remove(k), kv.remove(k));
                    case 4 -> {
                        byte[] v = randomKey(r);
                        assertEquals(model.putIfAbsent(k, v) == null, kv.putIfAbsent(k, v));
                    }
                    case 5 -> assertArrayEquals(model.get(k), kv.get(k));
                    case 6 -> {
                        Map.Entry<byte[], byte[]> e = model.ceilingEntry(k);
                        KvCursor c = kv.cursor();
                        assertEquals(e != null, c.jump(k));
                        for (int n = 0; n < 5 && e != null; n++) {
                            assertArrayEquals(e.getKey(), c.key());
                            assertArrayEquals(e.getValue(), c.value());
                            e = model.higherEntry(e.getKey());
                            assertEquals(e != null, c.step());
                        }
                    }
                    default -> {
                        if (r.nextInt(100) == 0) {
                            kv.close();
                            kv = KvStore.open(f, true, false, false);
                        }
                    }
                }
                assertEquals(model.size(), kv.count());
            }
        } finally {
            kv.close();
        }
        try (KvStore again = KvStore.open(f, false, false, false)) {
            KvCursor c = again.cursor();
            boolean more = c.jump(null);
            for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
                assertTrue(more);
                assertArrayEquals(e.getKey(), c.key());
                assertArrayEquals(e.getValue(), c.value());
                more = c.step();
            }
            assertFalse(more);
        }
    }

    private static byte[] randomKey(Random r) {
        byte[] k = new byte[r.nextInt(4)];
        r.nextBytes(k);
        return k;
    }

    @Test
    void keysOfEveryByteValueSortAsUnsignedBytes() {
        try (KvStore kv = KvStore.inMemory()) {
            List<byte[]> keys = new ArrayList<>();
            for (int i = 255; i >= 0; i--) {
                keys.add(b(i));
                keys.add(b(i, 0));
            }
            keys.add(new byte[0]);
            for (byte[] k : keys) {
                kv.put(k, k);
            }
            keys.sort(UNSIGNED);
            KvCursor c = kv.cursor();
            assertTrue(c.jump(null));
            assertArrayEquals(new byte[0], c.key());
            for (byte[] k : keys) {
                assertArrayEquals(k, c.key());
                c.step();
            }
            assertNull(c.key());
            assertTrue(c.jump(b(0x7f, 1)));
            assertArrayEquals(b(0x80), c.key(), "0x80 sorts after 0x7f, as unsigned");
            assertArrayEquals(b(0xff, 0), kv.lastKey());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void cursorsAtBothEndsAndPastThem() throws IOException {
        try (KvStore kv = KvStore.inMemory()) {
            KvCursor c = kv.cursor();
            assertFalse(c.jump(null), "empty store");
            assertFalse(c.step());
            kv.put(b(1), b(10));
            kv.put(b(2), b(20));
            assertFalse(c.jump(b(3)), "past the last key");
            assertNull(c.key());
            assertTrue(c.jump(b(2)));
            assertFalse(c.step());
            assertFalse(c.step(), "stays past the end");
            assertTrue(c.jumpBack(null));
            assertArrayEquals(b(2), c.key());
            assertTrue(c.stepBack());
            assertArrayEquals(b(1), c.key());
            assertFalse(c.stepBack(), "before the first key");
            assertTrue(c.jumpBack(b(1, 5)));
            assertArrayEquals(b(1), c.key());
            assertTrue(c.step(), "turns round");
            assertArrayEquals(b(2), c.key());
            assertTrue(c.stepBack());
            assertArrayEquals(b(1), c.key());
        }
    }

    @Test
    void anAbortedTransactionLeavesNoTraceAndACommittedOneSurvivesReopening() throws IOException {
        Path f = dir.resolve("tx.db");
        try (KvStore kv = KvStore.open(f, true, true, false)) {
            kv.put(b(1), b(1));
            kv.beginTransaction();
            kv.put(b(2), b(2));
            kv.remove(b(1));
            assertArrayEquals(b(2), kv.get(b(2)), "a transaction sees its own writes");
            kv.abortTransaction();
            assertArrayEquals(b(1), kv.get(b(1)));
            assertNull(kv.get(b(2)));
            kv.beginTransaction();
            kv.put(b(3), b(3));
            kv.commitTransaction(true);
            assertThrows(IllegalStateException.class, () -> kv.commitTransaction(false));
        }
        try (KvStore kv = KvStore.open(f, false, false, false)) {
            assertEquals(2, kv.count());
            assertArrayEquals(b(3), kv.get(b(3)));
        }
    }

    @Test
    void aFailedAtomicBulkWriteIsUndone() {
        try (KvStore kv = KvStore.inMemory()) {
            kv.put(b(9), b(9));
            List<byte[][]> entries = new ArrayList<>();
            entries.add(new byte[][] {b(1), b(1)});
            entries.add(null);
            assertThrows(NullPointerException.class, () -> kv.putAll(entries, true));
            assertNull(kv.get(b(1)));
            assertEquals(1, kv.count());
            assertEquals(1, kv.removeAll(List.of(b(9), b(8)), true));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * A store that cannot be opened is named with the cause the system gave, without MVStore's "Could not open file
     * ... [2.3.232/1]" (which named no cause and carried the library's version).
     */
    @Test
    void aFailedOpenSaysThePathAndTheCause() throws IOException {
        Path plain = Files.writeString(dir.resolve("plain"), "x");
        Path f = plain.resolve("s.db");
        IOException e = assertThrows(IOException.class, () -> KvStore.open(f, true, true, false));
        assertEquals("open(" + f + "): Not a directory", e.getMessage());
        IOException d = assertThrows(IOException.class, () -> KvStore.open(dir, true, true, false));
        assertEquals("open(" + dir + "): Is a directory", d.getMessage());
    }

    @Test
    void readOnlyRefusesWritesAndMissingFilesAreNotCreated() throws IOException {
        Path f = dir.resolve("ro.db");
        assertThrows(NoSuchFileException.class, () -> KvStore.open(f, false, false, false));
        assertThrows(NoSuchFileException.class, () -> KvStore.open(f, true, false, false));
        try (KvStore kv = KvStore.open(f, true, true, false)) {
            kv.put(b(1), b(2));
        }
        try (KvStore a = KvStore.open(f, false, false, false)) {
            assertThrows(ReadOnlyStoreException.class, () -> a.put(b(1), b(3)));
            assertThrows(ReadOnlyStoreException.class, a::beginTransaction);
            assertArrayEquals(b(2), a.get(b(1)));
        }
        try (KvStore kv = KvStore.open(f, true, false, true)) {
            assertEquals(0, kv.count(), "truncated");
        }
    }

    @Test
    void aFileThatIsNotAStoreOrCannotBeMadeIsAnIOException() throws IOException {
        Path junk = dir.resolve("junk");
        java.nio.file.Files.write(junk, new byte[10_000]);
        IOException e = assertThrows(IOException.class, () -> KvStore.open(junk, true, false, false));
        assertTrue(e.getMessage().contains(junk.toString()), e.getMessage());
        assertThrows(IOException.class, () -> KvStore.open(dir.resolve("no/dir/x"), true, true, false));
    }

    @Test
    void anEmptyFileOpenedReadOnlyIsAnIOExceptionAndLeavesTheFileUnlocked() throws IOException {
        // Found by StoreFuzzTest: MVStore tried to write a header into the read-only file, and the unchecked
        // exception that stopped it left the file open and locked for the rest of the JVM's life.
        Path empty = java.nio.file.Files.createFile(dir.resolve("empty.db"));
        IOException e = assertThrows(IOException.class, () -> KvStore.open(empty, false, false, false));
        assertTrue(e.getMessage().contains(empty.toString()), e.getMessage());
        try (KvStore kv = KvStore.open(empty, true, false, false)) {
            kv.put(b(1), b(2));
        }
        try (KvStore kv = KvStore.open(empty, false, false, false)) {
            assertArrayEquals(b(2), kv.get(b(1)));
        }
    }

    @Test
    void transactionsOnSeveralThreadsCommitAndAbortOnlyTheirOwnWrites() throws Exception {
        Path f = dir.resolve("threads.db");
        try (KvStore kv = KvStore.open(f, true, true, false)) {
            int threads = 4;
            int perThread = 300;
            java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                writers.add(Thread.ofPlatform().start(() -> {
                    try {
                        for (int i = 0; i < perThread; i++) {
                            kv.beginTransaction();
                            kv.put(b(id, i % 128, 0), b(i));
                            kv.put(b(id, i % 128, 1), b(i));
                            if (i % 3 == 0) {
                                kv.put(b(id, 200, 0), b(i));
                                kv.abortTransaction();
                            } else {
                                kv.commitTransaction(false);
                            }
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }));
            }
            for (Thread w : writers) {
                w.join();
            }
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            for (int t = 0; t < threads; t++) {
                assertNull(kv.get(b(t, 200, 0)), "aborted writes are gone");
                for (int k = 0; k < 128; k++) {
                    assertArrayEquals(kv.get(b(t, k, 0)), kv.get(b(t, k, 1)), "both halves of a transaction");
                }
            }
        }
        try (KvStore kv = KvStore.open(f, false, false, false)) {
            assertEquals(4 * 128 * 2, kv.count());
        }
    }

    /**
     * A full file system: run with {@code -Dsluice.test.smallfs=DIR} naming a small one (a 2 MiB tmpfs, say); skipped
     * otherwise. A commit that cannot be written is an IOException naming the call and the file, the store closes
     * itself, and what was committed before is there after reopening.
     */
    @Test
    void aCommitOnAFullFileSystemIsAnIOExceptionAndLosesNothingCommittedBefore() throws IOException {
        String smallFs = System.getProperty("sluice.test.smallfs");
        org.junit.jupiter.api.Assumptions.assumeTrue(smallFs != null, "no -Dsluice.test.smallfs");
        Path f = Path.of(smallFs).resolve("full-" + ProcessHandle.current().pid() + ".db");
        java.nio.file.Files.deleteIfExists(f);
        try {
            try (KvStore kv = KvStore.open(f, true, true, false)) {
                kv.beginTransaction();
                kv.put(b(1), b(1));
                kv.commitTransaction(true);
                kv.beginTransaction();
                Random r = new Random(1);
                for (int i = 0; i < 4000; i++) {
                    byte[] v = new byte[1000];
                    r.nextBytes(v);
                    kv.put(java.nio.ByteBuffer.allocate(4).putInt(i + 10).array(), v);
                }
                IOException e = assertThrows(IOException.class, () -> kv.commitTransaction(false));
                assertTrue(e.getMessage().contains("commitTransaction(" + f), e.getMessage());
                assertTrue(kv.isClosed(), "MVStore stops at a failed write, and so does the store");
                assertFalse(kv.inTransaction());
                IllegalStateException later = assertThrows(IllegalStateException.class, () -> kv.get(b(1)));
                assertTrue(later.getMessage().contains("commit failed"), later.getMessage());
            }
            try (KvStore kv = KvStore.open(f, false, false, false)) {
                assertArrayEquals(b(1), kv.get(b(1)));
                assertEquals(1, kv.count());
            }
        } finally {
            java.nio.file.Files.deleteIfExists(f);
        }
    }

    @Test
    void aSecondWriterInTheSameProcessIsRefused() throws IOException {
        Path f = dir.resolve("lock.db");
        try (KvStore kv = KvStore.open(f, true, true, false)) {
            IOException e = assertThrows(IOException.class, () -> KvStore.open(f, true, false, false));
            assertTrue(e.getMessage().contains("locked"), e.getMessage());
            assertThrows(IOException.class, () -> KvStore.open(f, false, false, false));
        }
    }
}
