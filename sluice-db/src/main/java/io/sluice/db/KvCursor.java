package io.sluice.db;

import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;

/**
 * A position among a {@link KvStore}'s keys, moving in key order. Steps walk one version of the tree while no write
 * is made; after a write (by any thread) the cursor reads the tree as it is now, as Kyoto Cabinet's cursor does: its
 * key and value are those of its key now (or, if that key was removed by another call, of the next key after it),
 * and a step goes to the key after (or before) its key now. {@link KvStore#clear} and an aborted transaction leave
 * every cursor nowhere. One thread at a time; any number of cursors at once.
 */
public final class KvCursor {
    private final KvStore owner;
    private final MVMap<byte[], byte[]> map;
    private Cursor<byte[], byte[]> cursor;
    private boolean forward;
    private byte[] key;
    private byte[] value;
    /** Whether the cursor reads the tree again after writes (else it walks the version of its jump). */
    private final boolean live;
    /** The store's count of changes when the cursor last read the tree. */
    private long seen;
    /** The store's count of clears and aborts when the cursor jumped: one since leaves it nowhere. */
    private long clears;

    KvCursor(KvStore owner, MVMap<byte[], byte[]> map, boolean live) {
        this.owner = owner;
        this.map = map;
        this.live = live;
    }

    /** Whether writes were made since the cursor last read the tree, and it is to see them. */
    private boolean stale() {
        return live && seen != owner.changes();
    }

    /** Moves to the first key at or after {@code from} (the first key when null); returns whether there is one. */
    public boolean jump(byte[] from) {
        owner.checkOpen();
        forward = true;
        seen = owner.changes();
        clears = owner.clears();
        cursor = map.cursor(from);
        return advance();
    }

    /** Moves to the last key at or before {@code from} (the last key when null); returns whether there is one. */
    public boolean jumpBack(byte[] from) {
        owner.checkOpen();
        forward = false;
        seen = owner.changes();
        clears = owner.clears();
        cursor = map.cursor(from, null, true);
        return advance();
    }

    /** Moves to the next key; returns whether there is one (false also when the cursor is nowhere). */
    public boolean step() {
        if (key == null) {
            return false;
        }
        if (!forward || stale()) {
            if (clears != owner.clears()) {
                return clear();
            }
            forward = true;
            seen = owner.changes();
            // A key removed by another call: Kyoto Cabinet's cursor first finds its place at the next key, then steps.
            byte[] at = map.containsKey(key) ? key : map.ceilingKey(key);
            byte[] higher = at == null ? null : map.higherKey(at);
            if (higher == null) {
                return clear();
            }
            cursor = map.cursor(higher);
        }
        return advance();
    }

    /** Moves to the previous key; returns whether there is one (false also when the cursor is nowhere). */
    public boolean stepBack() {
        if (key == null) {
            return false;
        }
        if (forward || stale()) {
            if (clears != owner.clears()) {
                return clear();
            }
            forward = false;
            seen = owner.changes();
            byte[] lower = map.lowerKey(key);
            if (lower == null) {
                return clear();
            }
            cursor = map.cursor(lower, null, true);
        }
        return advance();
    }

    private boolean advance() {
        owner.checkOpen();
        if (cursor != null && cursor.hasNext()) {
            key = cursor.next();
            value = cursor.getValue();
            return true;
        }
        return clear();
    }

    private boolean clear() {
        cursor = null;
        key = null;
        value = null;
        return false;
    }

    /** The current key (the store's own array), or null when the cursor is nowhere or past either end. */
    public byte[] key() {
        if (key != null && stale()) {
            resync();
        }
        return key;
    }

    /**
     * After writes: the cursor's key if it is still there, else the next key after it, whichever way the cursor was
     * moving (Kyoto Cabinet's cursor finds its place again that way), keeping its direction for the next step.
     */
    private void resync() {
        if (clears != owner.clears()) {
            clear();
            return;
        }
        boolean back = !forward;
        if (jump(key) && back) {
            forward = false;
            cursor = map.cursor(key, null, true);
            cursor.next();
        }
    }

    /** The current value (the store's own array), or null when the cursor is nowhere or past either end. */
    public byte[] value() {
        if (key != null && stale()) {
            resync();
        }
        return value;
    }

    /**
     * Moves one key on in the direction the cursor last moved: {@link #step} after {@link #jump} or a step,
     * {@link #stepBack} after {@link #jumpBack} or a step back (as Kyoto Cabinet's cursor does when a read asks to
     * step). Returns whether there is a key there.
     */
    public boolean stepOn() {
        return forward ? step() : stepBack();
    }

    /**
     * Reads the tree again at the current key, as it is now: the cursor stays on its key with its current value,
     * or, if the key has been removed, moves on to the next key in the direction it last moved. Returns whether it
     * is on a key (false also when it was nowhere).
     */
    public boolean refresh() {
        if (key == null) {
            return false;
        }
        if (clears != owner.clears()) {
            return clear();
        }
        return forward ? jump(key) : jumpBack(key);
    }

    /** Forgets the position. */
    public void reset() {
        clear();
    }
}
