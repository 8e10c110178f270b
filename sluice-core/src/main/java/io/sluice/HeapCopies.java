package io.sluice;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Copies between the caller's memory and an engine's own (a bounce buffer, a mapping, a registered chunk), used by
 * every engine wherever the caller's side may be heap memory.
 *
 * <p>Why not plain {@link MemorySegment#copy(MemorySegment, long, MemorySegment, long, long)}: for fewer than 64
 * bytes the JDK copies segment to segment with a loop of 8-byte moves in Java, and on Temurin 25.0.3 that loop, as
 * compiled inside the io_uring read path, sometimes copied only the first 8 bytes: in the contract tests a bounced
 * read of 50 or 61 bytes came back with bytes 8 onward still holding the destination's old contents. It showed in
 * about one run in three of the io_uring test classes with the CPUs loaded, never with {@code -XX:-UseSuperWord} or
 * with C1 alone; with these copies, in none of six loaded runs. The array forms of {@code MemorySegment.copy} go
 * through the JDK's native copy for every size, so memory backed by a {@code byte[]} (byte arrays, heap
 * {@code ByteBuffer}s, {@code MemorySegment.ofArray}) takes them. Other heap memory (a {@code long[]}, or a
 * read-only view, whose array is not exposed) still takes the segment form.
 */
final class HeapCopies {
    private HeapCopies() {
    }

    /**
     * {@code MemorySegment.copy(src, srcOffset, dst, dstOffset, length)}, through an array form when either side is
     * backed by a {@code byte[]}.
     */
    static void copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long length) {
        if (length > 0 && dst.heapBase().orElse(null) instanceof byte[] array) {
            // A heap segment's address is its byte offset in the array.
            MemorySegment.copy(src, ValueLayout.JAVA_BYTE, srcOffset, array, Math.toIntExact(dst.address() + dstOffset),
                    Math.toIntExact(length));
        } else if (length > 0 && src.heapBase().orElse(null) instanceof byte[] array) {
            MemorySegment.copy(array, Math.toIntExact(src.address() + srcOffset), dst, ValueLayout.JAVA_BYTE, dstOffset,
                    Math.toIntExact(length));
        } else {
            MemorySegment.copy(src, srcOffset, dst, dstOffset, length);
        }
    }
}
