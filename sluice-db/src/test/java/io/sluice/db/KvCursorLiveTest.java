package io.sluice.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cursors that see the writes made after their jump, as Kyoto Cabinet's do (before, a cursor walked the version of
 * its jump), and the calls added for Kyoto Cabinet's API: pollFirst, snapshotCursor, copyTo.
 */
class KvCursorLiveTest {
    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static KvStore abd() {
        KvStore kv = KvStore.inMemory();
        kv.put(b("a"), b("1"));
        kv.put(b("b"), b("2"));
        kv.put(b("d"), b("4"));
        return kv;
    }

    @Test
    void aCursorSeesKeysAddedAndValuesChangedAfterItsJump() throws IOException {
        try (KvStore kv = abd()) {
            KvCursor c = kv.cursor();
            assertTrue(c.jump(b("b")));
            kv.put(b("b"), b("two"));
            assertArrayEquals(b("two"), c.value());
            kv.put(b("c"), b("3"));
            assertTrue(c.step());
            assertArrayEquals(b("c"), c.key());
        }
    }

    @Test
    void aRemovedKeyMovesTheCursorToTheNextAndAClearOrAbortLeavesItNowhere() throws IOException {
        try (KvStore kv = abd()) {
            KvCursor c = kv.cursor();
            assertTrue(c.jumpBack(b("b")));
            kv.remove(b("b"));
            assertArrayEquals(b("d"), c.key(), "the next key, whichever way the cursor moved");
            assertTrue(c.stepBack());
            assertArrayEquals(b("a"), c.key());
            kv.clear();
            assertNull(c.key());
            assertFalse(c.step());
        }
        try (KvStore kv = abd()) {
            KvCursor c = kv.cursor();
            assertTrue(c.jump(null));
            kv.beginTransaction();
            kv.put(b("z"), b("9"));
            kv.abortTransaction();
            assertFalse(c.step(), "an aborted transaction leaves cursors nowhere");
        }
    }

    @Test
    void stepOnGoesTheWayTheCursorLastMoved() throws IOException {
        try (KvStore kv = abd()) {
            KvCursor c = kv.cursor();
            assertTrue(c.jumpBack(null));
            assertTrue(c.stepOn());
            assertArrayEquals(b("b"), c.key());
            assertTrue(c.jump(b("a")));
            assertTrue(c.stepOn());
            assertArrayEquals(b("b"), c.key());
        }
    }

    @Test
    void aSnapshotCursorWalksTheVersionOfItsJump() throws IOException {
        try (KvStore kv = abd()) {
            KvCursor c = kv.snapshotCursor();
            assertTrue(c.jump(null));
            kv.remove(b("b"));
            kv.put(b("c"), b("3"));
            assertTrue(c.step());
            assertArrayEquals(b("b"), c.key());
            assertTrue(c.step());
            assertArrayEquals(b("d"), c.key());
        }
    }

    @Test
    void pollFirstTakesTheFirstRecordAndCopyToCopiesWhatIsCommitted() throws IOException {
        Path f = dir.resolve("s.db");
        Path copy = dir.resolve("copy.db");
        try (KvStore kv = KvStore.open(f, true, true, false)) {
            kv.put(b("b"), b("2"));
            kv.put(b("a"), b("1"));
            byte[][] first = kv.pollFirst();
            assertArrayEquals(b("a"), first[0]);
            assertArrayEquals(b("1"), first[1]);
            kv.copyTo(copy);
            assertArrayEquals(b("2"), kv.exclusively(() -> kv.get(b("b"))));
        }
        try (KvStore kv = KvStore.open(copy, false, false, false, false)) {
            assertNull(kv.get(b("a")));
            assertArrayEquals(b("2"), kv.get(b("b")));
            assertNull(kv.droppedAtOpen());
        }
        try (KvStore kv = KvStore.inMemory()) {
            assertNull(kv.pollFirst());
            assertThrows(IllegalStateException.class, () -> kv.copyTo(copy));
        }
    }
}
