package io.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The kinds of memory a read can fill, each reached through its own overload. Every destination has guard bytes on
 * both sides, and a read is checked not to touch memory outside the bytes it reports, and to advance a buffer's
 * position by exactly that count.
 */
enum Dst {
    /** A heap buffer that is a slice (non-zero array offset) with a non-zero position. */
    HEAP_BUFFER,
    /** A direct buffer with a non-zero position. */
    DIRECT_BUFFER,
    /** A native segment that is a slice of a larger one. */
    NATIVE_SEGMENT,
    /** A heap segment over a byte[], sliced. */
    HEAP_SEGMENT,
    /** A heap segment over a long[], which has no byte[] behind it. */
    LONG_SEGMENT,
    /** A byte[] slice with a non-zero offset. */
    ARRAY_SLICE;

    static final byte GUARD = (byte) 0xA5;
    static final int PAD = 9;

    /**
     * {@code read} (or {@code readFully}) of {@code len} bytes at {@code pos} through this overload. Copies the
     * bytes read to {@code into[0, n)} and returns n ({@code len} for readFully).
     */
    int read(PositionalFile f, long pos, byte[] into, int len, boolean fully) throws IOException {
        return read(f, pos, into, len, fully, true);
    }

    /**
     * A read that races with a remap or truncate on the MMAP engine: a copy cut short by the remap is retried, and
     * the bytes it had copied may stay in the destination past the count finally reported, so only the memory
     * outside the destination is checked.
     */
    int readRacing(PositionalFile f, long pos, byte[] into, int len) throws IOException {
        return read(f, pos, into, len, false, false);
    }

    private int read(PositionalFile f, long pos, byte[] into, int len, boolean fully, boolean strict)
            throws IOException {
        int total = len + 2 * PAD;
        switch (this) {
            case HEAP_BUFFER -> {
                byte[] backing = guarded(total);
                // arrayOffset PAD - 3 and position 3, so the data lands at backing[PAD]
                ByteBuffer b = ByteBuffer.wrap(backing, PAD - 3, len + 3).slice();
                b.position(3);
                int n = fully ? readFully(f, b, pos, len) : f.read(b, pos);
                assertEquals(3 + Math.max(n, 0), b.position(), "buffer position after reading " + n + " bytes");
                assertEquals(len + 3, b.limit(), "buffer limit");
                return finish(backing, n, into, strict);
            }
            case DIRECT_BUFFER -> {
                ByteBuffer b = ByteBuffer.allocateDirect(total);
                b.put(guarded(total)).clear();
                b.position(PAD).limit(PAD + len);
                int n = fully ? readFully(f, b, pos, len) : f.read(b, pos);
                assertEquals(PAD + Math.max(n, 0), b.position(), "buffer position after reading " + n + " bytes");
                assertEquals(PAD + len, b.limit(), "buffer limit");
                byte[] backing = new byte[total];
                b.limit(total).get(0, backing);
                return finish(backing, n, into, strict);
            }
            case NATIVE_SEGMENT -> {
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment s = arena.allocate(total);
                    s.fill(GUARD);
                    MemorySegment d = s.asSlice(PAD, len);
                    int n = fully ? readFully(f, d, pos, len) : f.read(d, pos);
                    return finish(s.toArray(ValueLayout.JAVA_BYTE), n, into, strict);
                }
            }
            case HEAP_SEGMENT -> {
                byte[] backing = guarded(total);
                MemorySegment d = MemorySegment.ofArray(backing).asSlice(PAD, len);
                int n = fully ? readFully(f, d, pos, len) : f.read(d, pos);
                return finish(backing, n, into, strict);
            }
            case LONG_SEGMENT -> {
                MemorySegment s = MemorySegment.ofArray(new long[(total + 7) / 8]);
                s.fill(GUARD);
                MemorySegment d = s.asSlice(PAD, len);
                int n = fully ? readFully(f, d, pos, len) : f.read(d, pos);
                return finish(s.asSlice(0, total).toArray(ValueLayout.JAVA_BYTE), n, into, strict);
            }
            case ARRAY_SLICE -> {
                byte[] backing = guarded(total);
                int n;
                if (fully) {
                    f.readFully(backing, PAD, len, pos);
                    n = len;
                } else {
                    n = f.read(backing, PAD, len, pos);
                }
                return finish(backing, n, into, strict);
            }
            default -> throw new AssertionError(this);
        }
    }

    /** The bytes read, as a new array; fails if fewer than {@code len} came back. */
    byte[] readFully(PositionalFile f, long pos, int len) throws IOException {
        byte[] out = new byte[len];
        read(f, pos, out, len, true);
        return out;
    }

    private static int readFully(PositionalFile f, ByteBuffer b, long pos, int len) throws IOException {
        f.readFully(b, pos);
        return len;
    }

    private static int readFully(PositionalFile f, MemorySegment d, long pos, int len) throws IOException {
        f.readFully(d, pos);
        return len;
    }

    private static byte[] guarded(int size) {
        byte[] b = new byte[size];
        Arrays.fill(b, GUARD);
        return b;
    }

    /** Checks that only {@code backing[PAD, PAD + n)} changed (or the whole destination, if not strict). */
    private static int finish(byte[] backing, int n, byte[] into, boolean strict) {
        int got = Math.max(n, 0);
        int end = strict ? PAD + got : backing.length - PAD;
        for (int i = 0; i < backing.length; i++) {
            if ((i < PAD || i >= end) && backing[i] != GUARD) {
                fail("a read of " + n + " bytes changed destination byte " + (i - PAD) + " outside what it reported");
            }
        }
        System.arraycopy(backing, PAD, into, 0, got);
        return n;
    }
}
