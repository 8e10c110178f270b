package io.sluice.zip;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads of an archive's bytes (a mapping, a slice of one, memory given by a caller, or an array the archive was read
 * into): little-endian fields and copies into arrays, through a {@link ByteBuffer} view of the segment when the
 * segment fits in one (up to 2 GiB, every jar in practice), through the segment's value layouts otherwise.
 *
 * <p>Why a view: a class loader opens its class path's jars before a program's first class, in a cold JVM. There the
 * first read of a segment through a {@link ValueLayout} makes the layout's {@code VarHandle} and spins method handle
 * classes, and the first {@code MemorySegment.copy} into an array spins a type switch: 15 to 25 ms of CPU before the
 * first class, plus the JIT's work on those handles, which a {@code URLClassLoader} (NIO and {@code ZipFile} code
 * the JDK's archive already holds) does not pay. The view's absolute reads go through the same scoped memory access
 * as the segment's (a closed arena gives {@link IllegalStateException}, a lost page {@link InternalError}) with none
 * of that set-up.
 *
 * <p>Threads share one instance: only absolute reads are made, and nothing changes the view's position or limit.
 */
final class ArchiveBytes {
    /** Null when the bytes are an array: no segment is made for one, since the first segment a JVM makes costs. */
    private final MemorySegment segment;
    /** Little-endian, or null when the segment is too big for a buffer (or not one a buffer can view). */
    private final ByteBuffer view;
    private final long size;

    /**
     * Reads of {@code array}, with no {@link MemorySegment}: the first segment of any kind a JVM makes initializes the
     * FFM runtime (its session classes spin two lambdas, its layouts' helpers five method handle classes), milliseconds
     * a class loader opening small jars before a program's first class would otherwise pay.
     */
    ArchiveBytes(byte[] array) {
        this.segment = null;
        this.view = ByteBuffer.wrap(array).order(ByteOrder.LITTLE_ENDIAN);
        this.size = array.length;
    }

    ArchiveBytes(MemorySegment segment) {
        this.segment = segment;
        this.size = segment.byteSize();
        ByteBuffer v = null;
        if (segment.byteSize() <= Integer.MAX_VALUE) {
            try {
                v = segment.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            } catch (UnsupportedOperationException notViewable) {
                // A heap segment over an array other than byte[] (fuzzing, tests): read through its layouts.
            }
        }
        this.view = v;
    }

    /** The number of bytes. */
    long size() {
        return size;
    }

    byte byteAt(long pos) {
        return view != null ? view.get(index(pos, 1)) : segment.get(Layouts.BYTE, pos);
    }

    /** The 32-bit field at {@code pos} as stored (signatures, CRCs, times). */
    int int32(long pos) {
        return view != null ? view.getInt(index(pos, 4)) : segment.get(Layouts.U32, pos);
    }

    int u16(long pos) {
        return (view != null ? view.getShort(index(pos, 2)) : segment.get(Layouts.U16, pos)) & 0xFFFF;
    }

    long u32(long pos) {
        return int32(pos) & 0xFFFF_FFFFL;
    }

    /** A 64-bit field; values past {@code Long.MAX_VALUE} come back negative and are refused by the callers. */
    long u64(long pos) {
        return view != null ? view.getLong(index(pos, 8)) : segment.get(Layouts.U64, pos);
    }

    /** Copies {@code len} bytes at {@code pos} into {@code dst} at {@code off}. */
    void copy(long pos, byte[] dst, int off, int len) {
        if (view != null) {
            view.get(index(pos, len), dst, off, len);
        } else {
            MemorySegment.copy(segment, Layouts.BYTE, pos, dst, off, len);
        }
    }

    /**
     * {@code pos} as a buffer index, after the bounds check the segment would make: the same
     * {@link IndexOutOfBoundsException} for a read past the end, whichever way the bytes are read.
     */
    private int index(long pos, int len) {
        if (pos < 0 || len < 0 || pos > view.limit() - len) {
            throw new IndexOutOfBoundsException("reading " + len + " bytes at " + pos + " of " + view.limit());
        }
        return (int) pos;
    }

    /** The layouts of the segment path, made only when an archive needs it (see the class comment). */
    private static final class Layouts {
        static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
        static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    }
}
