package io.sluice.maf;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Names interned as small numbers, looked up straight from a line's bytes: a name seen before costs a hash and a
 * compare, no {@code String}. Open addressing over one byte pool.
 */
final class Names {
    private byte[] pool = new byte[1024];
    private int poolUsed;
    private int[] starts = new int[64];
    private int[] lengths = new int[64];
    private int[] hashes = new int[64];
    private int count;
    /** Slot: id + 1, or 0 when empty. */
    private int[] table = new int[128];

    int count() {
        return count;
    }

    String name(int id) {
        return new String(pool, starts[id], lengths[id], StandardCharsets.ISO_8859_1);
    }

    /** The id of the source name of {@code line}, bytes {@code [0, length)}; added when new. */
    int intern(MafLine line, int length) {
        int h = 0x811c9dc5;
        for (int i = 0; i < length; i++) {
            h = (h ^ line.srcByte(i)) * 0x01000193;
        }
        int mask = table.length - 1;
        for (int slot = mix(h) & mask; ; slot = (slot + 1) & mask) {
            int e = table[slot];
            if (e == 0) {
                return add(line, length, h, slot);
            }
            int id = e - 1;
            if (hashes[id] == h && lengths[id] == length && same(line, length, starts[id])) {
                return id;
            }
        }
    }

    /** The id of {@code name}, or -1. */
    int find(String name) {
        byte[] b = name.getBytes(StandardCharsets.ISO_8859_1);
        int h = 0x811c9dc5;
        for (byte x : b) {
            h = (h ^ x) * 0x01000193;
        }
        int mask = table.length - 1;
        for (int slot = mix(h) & mask; ; slot = (slot + 1) & mask) {
            int e = table[slot];
            if (e == 0) {
                return -1;
            }
            int id = e - 1;
            if (hashes[id] == h && lengths[id] == b.length
                    && Arrays.equals(pool, starts[id], starts[id] + b.length, b, 0, b.length)) {
                return id;
            }
        }
    }

    private static int mix(int h) {
        return h ^ (h >>> 16);
    }

    private boolean same(MafLine line, int length, int at) {
        for (int i = 0; i < length; i++) {
            if (pool[at + i] != line.srcByte(i)) {
                return false;
            }
        }
        return true;
    }

    private int add(MafLine line, int length, int hash, int slot) {
        if (poolUsed + length > pool.length) {
            pool = Arrays.copyOf(pool, Math.max(pool.length * 2, poolUsed + length));
        }
        for (int i = 0; i < length; i++) {
            pool[poolUsed + i] = line.srcByte(i);
        }
        if (count == starts.length) {
            starts = Arrays.copyOf(starts, count * 2);
            lengths = Arrays.copyOf(lengths, count * 2);
            hashes = Arrays.copyOf(hashes, count * 2);
        }
        int id = count++;
        starts[id] = poolUsed;
        lengths[id] = length;
        hashes[id] = hash;
        poolUsed += length;
        table[slot] = id + 1;
        if (count * 2 > table.length) {
            rehash();
        }
        return id;
    }

    private void rehash() {
        int[] bigger = new int[table.length * 2];
        int mask = bigger.length - 1;
        for (int id = 0; id < count; id++) {
            int slot = mix(hashes[id]) & mask;
            while (bigger[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            bigger[slot] = id + 1;
        }
        table = bigger;
    }
}
