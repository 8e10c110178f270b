package io.sluice.zip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * The two ways {@link ArchiveBytes} reads, through a buffer view (a segment over a {@code byte[]}) and through the
 * segment's layouts (one over a {@code long[]}, which no buffer can view, as for archives over 2 GiB), give the same
 * little-endian fields, the same copies and the same refusal of reads past the end.
 */
class ArchiveBytesTest {
    private static final int SIZE = 64;

    private static byte[] pattern() {
        byte[] b = new byte[SIZE];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (i * 37 + 0x91);
        }
        return b;
    }

    private static ArchiveBytes viewed() {
        return new ArchiveBytes(MemorySegment.ofArray(pattern()));
    }

    private static ArchiveBytes throughLayouts() {
        long[] words = new long[SIZE / 8];
        ByteBuffer.wrap(pattern()).order(ByteOrder.nativeOrder()).asLongBuffer().get(words);
        return new ArchiveBytes(MemorySegment.ofArray(words));
    }

    @Test
    void bothWaysReadTheSameFields() {
        ByteBuffer expected = ByteBuffer.wrap(pattern()).order(ByteOrder.LITTLE_ENDIAN);
        for (ArchiveBytes a : new ArchiveBytes[] {viewed(), throughLayouts()}) {
            assertEquals(SIZE, a.size());
            for (int pos = 0; pos + 8 <= SIZE; pos += 3) {
                assertEquals(expected.get(pos), a.byteAt(pos));
                assertEquals(expected.getShort(pos) & 0xFFFF, a.u16(pos));
                assertEquals(expected.getInt(pos), a.int32(pos));
                assertEquals(expected.getInt(pos) & 0xFFFF_FFFFL, a.u32(pos));
                assertEquals(expected.getLong(pos), a.u64(pos));
            }
            byte[] copy = new byte[20];
            a.copy(7, copy, 3, 17);
            byte[] want = new byte[20];
            System.arraycopy(pattern(), 7, want, 3, 17);
            assertArrayEquals(want, copy);
        }
    }

    @Test
    void bothWaysRefuseReadsPastTheEnd() {
        for (ArchiveBytes a : new ArchiveBytes[] {viewed(), throughLayouts()}) {
            assertThrows(IndexOutOfBoundsException.class, () -> a.int32(SIZE - 3));
            assertThrows(IndexOutOfBoundsException.class, () -> a.u64(-1));
            assertThrows(IndexOutOfBoundsException.class, () -> a.byteAt(SIZE));
            assertThrows(IndexOutOfBoundsException.class, () -> a.copy(SIZE - 4, new byte[8], 0, 8));
        }
    }
}
