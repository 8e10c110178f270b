package io.sluice.bench;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * One thread's figures per station for {@link ScanAverages}: an open-addressing hash table keyed by the station's
 * name bytes, with linear probing.
 *
 * <p>A slot is {@value #STRIDE} longs in one array (one cache line, give or take the array's header): the name's
 * first 16 bytes as two little-endian words, zero past the name, so that most names compare as two longs; where the
 * whole name is kept and its length; then minimum, maximum and sum in tenths of a degree, and the count. Names longer
 * than 16 bytes are compared byte for byte past the first 16. The table doubles when half full.
 */
final class StationTable {
    static final int STRIDE = 8;
    private static final int K0 = 0;
    private static final int K1 = 1;
    /** Where the name is in {@link #names} (high 32 bits) and its length plus one (low): 0 marks an empty slot. */
    private static final int NAME = 2;
    private static final int MIN = 3;
    private static final int MAX = 4;
    private static final int SUM = 5;
    private static final int COUNT = 6;

    private long[] slots;
    private int mask;
    private int shift;
    private int used;
    private byte[] names = new byte[8192];
    private MemorySegment namesSegment = MemorySegment.ofArray(names);
    private int namesUsed;

    StationTable() {
        resize(1024);
    }

    private void resize(int capacity) {
        long[] old = slots;
        slots = new long[capacity * STRIDE];
        mask = capacity - 1;
        shift = 64 - Integer.numberOfTrailingZeros(capacity);
        if (old != null) {
            for (int b = 0; b < old.length; b += STRIDE) {
                if (old[b + NAME] != 0) {
                    int i = index(old[b + K0], old[b + K1]);
                    while (slots[i * STRIDE + NAME] != 0) {
                        i = (i + 1) & mask;
                    }
                    System.arraycopy(old, b, slots, i * STRIDE, STRIDE);
                }
            }
        }
    }

    private int index(long k0, long k1) {
        // A multiplicative hash of both words; the top bits are the best mixed.
        return (int) (((k0 ^ Long.rotateLeft(k1, 31)) * 0x9E37_79B9_7F4A_7C15L) >>> shift);
    }

    /**
     * The slot (its first index in the table's array) of the station named by the {@code length} bytes of
     * {@code records} at {@code at}, whose first 16 bytes, zero-padded, are {@code k0} and {@code k1}; made empty if
     * the station is new.
     */
    int slot(long k0, long k1, MemorySegment records, long at, int length) {
        long[] s = slots;
        int i = index(k0, k1);
        for (;;) {
            int b = i * STRIDE;
            long name = s[b + NAME];
            if (name == 0) {
                return insert(k0, k1, records, at, length);
            }
            if (s[b + K0] == k0 && s[b + K1] == k1 && (int) name == length + 1
                    && (length <= 16 || sameTail(records, at, length, (int) (name >>> 32)))) {
                return b;
            }
            i = (i + 1) & mask;
        }
    }

    private boolean sameTail(MemorySegment records, long at, int length, int nameAt) {
        return MemorySegment.mismatch(records, at + 16, at + length, namesSegment, nameAt + 16L,
                (long) nameAt + length) < 0;
    }

    private int insert(long k0, long k1, MemorySegment records, long at, int length) {
        if (2 * (used + 1) > mask + 1) {
            resize(2 * (mask + 1));
        }
        if (namesUsed + length > names.length) {
            names = java.util.Arrays.copyOf(names, Math.max(2 * names.length, namesUsed + length));
            namesSegment = MemorySegment.ofArray(names);
        }
        MemorySegment.copy(records, at, namesSegment, namesUsed, length);
        int i = index(k0, k1);
        while (slots[i * STRIDE + NAME] != 0) {
            i = (i + 1) & mask;
        }
        int b = i * STRIDE;
        slots[b + K0] = k0;
        slots[b + K1] = k1;
        slots[b + NAME] = (long) namesUsed << 32 | (length + 1);
        slots[b + MIN] = Long.MAX_VALUE;
        slots[b + MAX] = Long.MIN_VALUE;
        namesUsed += length;
        used++;
        return b;
    }

    /** Adds a measurement of {@code tenths} tenths of a degree to the station at {@code slot}. */
    void add(int slot, long tenths) {
        long[] s = slots;
        s[slot + MIN] = Math.min(s[slot + MIN], tenths);
        s[slot + MAX] = Math.max(s[slot + MAX], tenths);
        s[slot + SUM] += tenths;
        s[slot + COUNT]++;
    }

    /** Adds {@code other}'s figures to this table's and returns this one. */
    StationTable merge(StationTable other) {
        long[] o = other.slots;
        for (int b = 0; b < o.length; b += STRIDE) {
            long name = o[b + NAME];
            if (name != 0) {
                int at = (int) (name >>> 32);
                int length = (int) name - 1;
                int mine = slot(o[b + K0], o[b + K1], other.namesSegment, at, length);
                long[] s = slots;
                s[mine + MIN] = Math.min(s[mine + MIN], o[b + MIN]);
                s[mine + MAX] = Math.max(s[mine + MAX], o[b + MAX]);
                s[mine + SUM] += o[b + SUM];
                s[mine + COUNT] += o[b + COUNT];
            }
        }
        return this;
    }

    /**
     * The challenge's output: stations sorted as Java sorts Strings, each {@code min/mean/max} in degrees with one
     * decimal, the mean rounded as the challenge's reference does.
     */
    Averages result() {
        Map<String, String> sorted = new TreeMap<>();
        long rows = 0;
        for (int b = 0; b < slots.length; b += STRIDE) {
            long name = slots[b + NAME];
            if (name != 0) {
                long count = slots[b + COUNT];
                rows += count;
                // The reference sums doubles, then rounds the sum to a tenth; the exact sum of tenths is what that
                // rounding gives back (its error stays far below half a tenth at these counts), so the same double
                // arithmetic from here on gives the same digits.
                double mean = slots[b + SUM] / 10.0 / count;
                sorted.put(new String(names, (int) (name >>> 32), (int) name - 1, StandardCharsets.UTF_8),
                        slots[b + MIN] / 10.0 + "/" + Math.round(mean * 10.0) / 10.0 + "/" + slots[b + MAX] / 10.0);
            }
        }
        return new Averages(sorted.toString(), rows);
    }
}
