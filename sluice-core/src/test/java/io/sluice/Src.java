package io.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

/** The kinds of memory a write can take its bytes from, each through its own overload. */
enum Src {
    /** A heap buffer that is a slice (non-zero array offset) with a non-zero position. */
    HEAP_BUFFER,
    /** A read-only view of a heap buffer: it has no accessible array. */
    READ_ONLY_HEAP_BUFFER,
    /** A direct buffer with a non-zero position. */
    DIRECT_BUFFER,
    /** A read-only view of a direct buffer. */
    READ_ONLY_DIRECT_BUFFER,
    /** A slice of a native segment. */
    NATIVE_SEGMENT,
    /** A slice of a heap segment over a byte[]. */
    HEAP_SEGMENT,
    /** A slice of a heap segment over a long[]. */
    LONG_SEGMENT,
    /** A read-only view of a native segment. */
    READ_ONLY_SEGMENT,
    /** A byte[] slice with a non-zero offset. */
    ARRAY_SLICE;

    private static final int PAD = 5;

    /**
     * {@code write} (or {@code writeFully}) of {@code data[off, off + len)} at {@code pos} through this overload.
     * A plain write is repeated until everything is written, checking each step; returns the number of calls.
     */
    int write(PositionalFile f, long pos, byte[] data, int off, int len, boolean fully) throws IOException {
        switch (this) {
            case HEAP_BUFFER, READ_ONLY_HEAP_BUFFER, DIRECT_BUFFER, READ_ONLY_DIRECT_BUFFER -> {
                ByteBuffer b = buffer(data, off, len);
                int start = b.position();
                if (fully) {
                    f.writeFully(b, pos);
                    assertEquals(start + len, b.position(), "buffer position after writeFully");
                    return 1;
                }
                int calls = 0;
                while (b.hasRemaining()) {
                    int before = b.position();
                    int n = f.write(b, pos + before - start);
                    assertTrue(n > 0, "write returned " + n);
                    assertEquals(before + n, b.position(), "buffer position after writing " + n + " bytes");
                    calls++;
                }
                return calls;
            }
            case NATIVE_SEGMENT, HEAP_SEGMENT, LONG_SEGMENT, READ_ONLY_SEGMENT -> {
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment s = segment(arena, data, off, len);
                    if (fully) {
                        f.writeFully(s, pos);
                        return 1;
                    }
                    return writeLoop(f, s, pos);
                }
            }
            case ARRAY_SLICE -> {
                byte[] copy = new byte[len + 2 * PAD];
                System.arraycopy(data, off, copy, PAD, len);
                if (fully) {
                    f.writeFully(copy, PAD, len, pos);
                    return 1;
                }
                int done = 0;
                int calls = 0;
                while (done < len) {
                    int n = f.write(copy, PAD + done, len - done, pos + done);
                    assertTrue(n > 0, "write returned " + n);
                    done += n;
                    calls++;
                }
                return calls;
            }
            default -> throw new AssertionError(this);
        }
    }

    /** Appends {@code data[off, off + len)} to {@code w} through this overload; checks a buffer's position after. */
    void append(MappedWriter w, byte[] data, int off, int len) throws IOException {
        switch (this) {
            case HEAP_BUFFER, READ_ONLY_HEAP_BUFFER, DIRECT_BUFFER, READ_ONLY_DIRECT_BUFFER -> {
                ByteBuffer b = buffer(data, off, len);
                int limit = b.limit();
                w.write(b);
                assertEquals(limit, b.position(), "buffer position after the write");
            }
            case NATIVE_SEGMENT, HEAP_SEGMENT, LONG_SEGMENT, READ_ONLY_SEGMENT -> {
                try (Arena arena = Arena.ofConfined()) {
                    w.write(segment(arena, data, off, len));
                }
            }
            case ARRAY_SLICE -> {
                byte[] copy = new byte[len + 2 * PAD];
                System.arraycopy(data, off, copy, PAD, len);
                w.write(copy, PAD, len);
            }
            default -> throw new AssertionError(this);
        }
    }

    private static int writeLoop(PositionalFile f, MemorySegment s, long pos) throws IOException {
        long done = 0;
        int calls = 0;
        while (done < s.byteSize()) {
            int n = f.write(s.asSlice(done), pos + done);
            assertTrue(n > 0, "write returned " + n);
            done += n;
            calls++;
        }
        return calls;
    }

    /** This kind of buffer holding {@code data[off, off + len)} between its position and limit. */
    ByteBuffer buffer(byte[] data, int off, int len) {
        ByteBuffer b = switch (this) {
            case HEAP_BUFFER, READ_ONLY_HEAP_BUFFER -> ByteBuffer.wrap(new byte[len + 2 * PAD], 2, len + PAD).slice();
            case DIRECT_BUFFER, READ_ONLY_DIRECT_BUFFER -> ByteBuffer.allocateDirect(len + 2 * PAD);
            default -> throw new AssertionError(this);
        };
        b.position(3);
        b.put(data, off, len);
        b.limit(b.position()).position(3);
        return this == READ_ONLY_HEAP_BUFFER || this == READ_ONLY_DIRECT_BUFFER ? b.asReadOnlyBuffer() : b;
    }

    private MemorySegment segment(Arena arena, byte[] data, int off, int len) {
        MemorySegment whole = switch (this) {
            case NATIVE_SEGMENT, READ_ONLY_SEGMENT -> arena.allocate(len + 2L * PAD);
            case HEAP_SEGMENT -> MemorySegment.ofArray(new byte[len + 2 * PAD]);
            case LONG_SEGMENT -> MemorySegment.ofArray(new long[(len + 2 * PAD + 7) / 8]);
            default -> throw new AssertionError(this);
        };
        MemorySegment s = whole.asSlice(PAD, len);
        MemorySegment.copy(data, off, s, ValueLayout.JAVA_BYTE, 0, len);
        return this == READ_ONLY_SEGMENT ? s.asReadOnly() : s;
    }
}
