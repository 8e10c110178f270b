package io.sluice.jmh;

import io.sluice.PositionalFile;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Reads one block at a given position into a buffer it owns. Each benchmark thread has its own, made once per trial,
 * so a measured read allocates nothing in the benchmark's code and never shares a buffer with another thread.
 *
 * <p>In a forked trial only one implementation is ever loaded, so the call in the benchmark method stays
 * monomorphic and is inlined; this is one reason to keep JMH's forks at 1 or more (see docs/benchmarks/JMH.md).
 */
sealed interface BlockReader {
    /** Reads up to one buffer's worth of bytes at {@code position}; returns the count, as the API it calls does. */
    int readAt(long position) throws IOException;

    /** The buffer read into, described for the log: its kind and how far into a page it starts. */
    String describeBuffer();

    /** A Sluice file read into a {@code byte[]}: the natural API of the CLASSIC engine's RandomAccessFile. */
    record IntoArray(PositionalFile file, byte[] buffer) implements BlockReader {
        @Override
        public int readAt(long position) throws IOException {
            return file.read(buffer, 0, buffer.length, position);
        }

        @Override
        public String describeBuffer() {
            return "byte[" + buffer.length + "] (heap)";
        }
    }

    /** A Sluice file read into a direct buffer. */
    record IntoBuffer(PositionalFile file, ByteBuffer buffer) implements BlockReader {
        @Override
        public int readAt(long position) throws IOException {
            return file.read(buffer.clear(), position);
        }

        @Override
        public String describeBuffer() {
            return describeDirect(buffer);
        }
    }

    /** A plain {@link FileChannel} positional read into a direct buffer: the JDK baselines. */
    record ChannelIntoBuffer(FileChannel channel, ByteBuffer buffer) implements BlockReader {
        @Override
        public int readAt(long position) throws IOException {
            return channel.read(buffer.clear(), position);
        }

        @Override
        public String describeBuffer() {
            return describeDirect(buffer);
        }
    }

    /**
     * A copy out of a mapping of the whole file with {@link MemorySegment#copy}, no checks around it: the floor of any
     * mapped read in Java, which is what MMAP is measured against to see its own cost.
     */
    record MappingIntoBuffer(MemorySegment mapping, MemorySegment buffer) implements BlockReader {
        @Override
        public int readAt(long position) {
            int n = (int) Math.min(buffer.byteSize(), mapping.byteSize() - position);
            MemorySegment.copy(mapping, position, buffer, 0, n);
            return n;
        }

        @Override
        public String describeBuffer() {
            return "direct segment[" + buffer.byteSize() + "] starting " + (buffer.address() % 4096)
                    + " bytes into a 4 KiB page";
        }
    }

    private static String describeDirect(ByteBuffer buffer) {
        long address = MemorySegment.ofBuffer(buffer).address();
        return "direct ByteBuffer[" + buffer.capacity() + "] starting " + (address % 4096) + " bytes into a 4 KiB page";
    }
}
