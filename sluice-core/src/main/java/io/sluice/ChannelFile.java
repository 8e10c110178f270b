package io.sluice;

import io.sluice.internal.AlignedBuffers;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The CHANNEL engine: positional {@code pread}/{@code pwrite} through {@link FileChannel}, with no lock of ours, so
 * threads read in parallel.
 *
 * <p>Direct buffers and native segments go straight to the kernel. Heap arrays, heap buffers and heap segments are
 * copied through page-aligned direct buffers from a pool: the JDK would otherwise use its own temporary direct
 * buffers, which start 16 bytes into a page; on some CPUs that makes the kernel's copy out of the page cache
 * several times slower (on others, such as the AMD EPYC with FSRM in docs/benchmarks/, it costs little), and the
 * JDK may allocate a new one per call for large transfers.
 */
final class ChannelFile extends PositionalFile {
    /** Bounce buffers for heap memory; a request larger than one is done in several system calls. */
    private static final AlignedBuffers BOUNCE =
            new AlignedBuffers(256 * 1024, 4 * Runtime.getRuntime().availableProcessors());

    private final ReopeningChannel channel;

    ChannelFile(Path path, OpenSpec spec) throws IOException {
        super(path, Engine.CHANNEL, spec);
        this.channel = new ReopeningChannel(path, spec);
    }

    /** AUTO's pread and pwrite, over AUTO's channel. */
    ChannelFile(Path path, OpenSpec spec, ReopeningChannel channel) {
        super(path, Engine.CHANNEL, spec);
        this.channel = channel;
    }

    @Override
    public boolean isOpen() {
        return channel.isOpen();
    }

    @Override
    void ensureOpen() throws ClosedChannelException {
        if (!channel.isOpen()) {
            throw new ClosedChannelException();
        }
    }

    // ---------------------------------------------------------------- direct memory: one system call

    private int pread(ByteBuffer dst, long position) throws IOException {
        int len = dst.remaining();
        for (;;) {
            FileChannel c = channel.get();
            try {
                return c.read(dst, position);
            } catch (ClosedChannelException e) {
                channel.recover(c, e);
            } catch (IOException e) {
                // pread refuses a range whose end overflows a file offset (EINVAL); such a position is past the end
                // of the file, which the contract answers with -1. Checked here, off the hot path.
                if (isPastEnd(c, position)) {
                    return -1;
                }
                throw failure("pread", position, len, e);
            }
        }
    }

    private static boolean isPastEnd(FileChannel c, long position) {
        try {
            return position >= c.size();
        } catch (IOException e) {
            return false;
        }
    }

    private int pwrite(ByteBuffer src, long position) throws IOException {
        int len = src.remaining();
        for (;;) {
            FileChannel c = channel.get();
            try {
                return c.write(src, position);
            } catch (ClosedChannelException e) {
                channel.recover(c, e);
            } catch (IOException e) {
                throw failure("pwrite", position, len, e);
            }
        }
    }

    @Override
    int readBuffer(ByteBuffer dst, long position) throws IOException {
        if (dst.isDirect()) {
            return pread(dst, position);
        }
        int n = readArray(dst.array(), dst.arrayOffset() + dst.position(), dst.remaining(), position);
        if (n > 0) {
            dst.position(dst.position() + n);
        }
        return n;
    }

    @Override
    int writeBuffer(ByteBuffer src, long position) throws IOException {
        if (src.isDirect()) {
            return pwrite(src, position);
        }
        // A read-only heap buffer is a valid source but hides its array (array() throws), so it is copied through a
        // bounce buffer as a heap segment instead.
        int n = src.hasArray()
                ? writeArray(src.array(), src.arrayOffset() + src.position(), src.remaining(), position)
                : writeSegment(MemorySegment.ofBuffer(src), position);
        src.position(src.position() + n);
        return n;
    }

    @Override
    int readSegment(MemorySegment dst, long position) throws IOException {
        if (dst.isNative()) {
            return pread(dst.asByteBuffer(), position);
        }
        ByteBuffer b = BOUNCE.acquire();
        try {
            MemorySegment bounce = MemorySegment.ofBuffer(b);
            long total = 0;
            long len = dst.byteSize();
            while (total < len) {
                int chunk = (int) Math.min(len - total, b.capacity());
                b.clear().limit(chunk);
                int n = pread(b, position + total);
                if (n < 0) {
                    return total == 0 ? -1 : (int) total;
                }
                HeapCopies.copy(bounce, 0, dst, total, n);
                total += n;
                if (n < chunk) {
                    break;
                }
            }
            return (int) total;
        } finally {
            BOUNCE.release(b);
        }
    }

    @Override
    int writeSegment(MemorySegment src, long position) throws IOException {
        if (src.isNative()) {
            return pwrite(src.asByteBuffer(), position);
        }
        ByteBuffer b = BOUNCE.acquire();
        try {
            MemorySegment bounce = MemorySegment.ofBuffer(b);
            long total = 0;
            long len = src.byteSize();
            while (total < len) {
                int chunk = (int) Math.min(len - total, b.capacity());
                HeapCopies.copy(src, total, bounce, 0, chunk);
                b.clear().limit(chunk);
                int n = pwrite(b, position + total);
                total += n;
                if (n < chunk) {
                    break;
                }
            }
            return (int) total;
        } finally {
            BOUNCE.release(b);
        }
    }

    // ---------------------------------------------------------------- heap arrays: through aligned bounce buffers

    @Override
    int readArray(byte[] dst, int offset, int length, long position) throws IOException {
        ByteBuffer b = BOUNCE.acquire();
        try {
            int total = 0;
            while (total < length) {
                int chunk = Math.min(length - total, b.capacity());
                b.clear().limit(chunk);
                int n = pread(b, position + total);
                if (n < 0) {
                    return total == 0 ? -1 : total;
                }
                b.flip().get(dst, offset + total, n);
                total += n;
                if (n < chunk) {
                    break;
                }
            }
            return total;
        } finally {
            BOUNCE.release(b);
        }
    }

    @Override
    int writeArray(byte[] src, int offset, int length, long position) throws IOException {
        ByteBuffer b = BOUNCE.acquire();
        try {
            int total = 0;
            while (total < length) {
                int chunk = Math.min(length - total, b.capacity());
                b.clear();
                b.put(src, offset + total, chunk).flip();
                int n = pwrite(b, position + total);
                total += n;
                if (n < chunk) {
                    break;
                }
            }
            return total;
        } finally {
            BOUNCE.release(b);
        }
    }

    // ---------------------------------------------------------------- vectored: FileChannel has no positional scatter

    // FileChannel's scattering read and gathering write use and move the channel's own position, which threads share,
    // so they cannot serve positional calls. A vector that fits in one bounce buffer is therefore moved with one
    // pread or pwrite and copied out or in: one system call, and a write lands as one piece, as pwritev would. A
    // larger vector falls back to one positional call per element (PositionalFile's default), stopping at the first
    // short one.

    /** Bounce capacity, or -1 when the vector must go element by element. */
    private static int fitsBounce(long bytes, int count) {
        return count > 1 && bytes <= BOUNCE.bufferSize() ? (int) bytes : -1;
    }

    @Override
    long readBuffers(ByteBuffer[] dsts, int offset, int count, long position) throws IOException {
        long bytes = 0;
        for (int i = offset; i < offset + count; i++) {
            bytes += dsts[i].remaining();
        }
        int want = fitsBounce(bytes, count);
        if (want < 0) {
            return super.readBuffers(dsts, offset, count, position);
        }
        ByteBuffer b = BOUNCE.acquire();
        try {
            b.clear().limit(want);
            int n = pread(b, position);
            if (n <= 0) {
                return n;
            }
            b.flip();
            for (int i = offset; i < offset + count && b.hasRemaining(); i++) {
                ByteBuffer d = dsts[i];
                int k = Math.min(d.remaining(), b.remaining());
                d.put(d.position(), b, b.position(), k).position(d.position() + k);
                b.position(b.position() + k);
            }
            return n;
        } finally {
            BOUNCE.release(b);
        }
    }

    @Override
    long readSegments(MemorySegment[] dsts, int offset, int count, long position) throws IOException {
        long bytes = 0;
        for (int i = offset; i < offset + count; i++) {
            bytes += dsts[i].byteSize();
        }
        int want = fitsBounce(bytes, count);
        if (want < 0) {
            return super.readSegments(dsts, offset, count, position);
        }
        ByteBuffer b = BOUNCE.acquire();
        try {
            b.clear().limit(want);
            int n = pread(b, position);
            if (n <= 0) {
                return n;
            }
            MemorySegment bounce = MemorySegment.ofBuffer(b.flip());
            long at = 0;
            for (int i = offset; i < offset + count && at < n; i++) {
                long k = Math.min(dsts[i].byteSize(), n - at);
                HeapCopies.copy(bounce, at, dsts[i], 0, k);
                at += k;
            }
            return n;
        } finally {
            BOUNCE.release(b);
        }
    }

    @Override
    long writeBuffers(ByteBuffer[] srcs, int offset, int count, long position) throws IOException {
        long bytes = 0;
        for (int i = offset; i < offset + count; i++) {
            bytes += srcs[i].remaining();
        }
        int want = fitsBounce(bytes, count);
        if (want < 0) {
            return super.writeBuffers(srcs, offset, count, position);
        }
        ByteBuffer b = BOUNCE.acquire();
        try {
            b.clear();
            for (int i = offset; i < offset + count; i++) {
                // Absolute copies: a source's position moves only once the write has said how much it took.
                ByteBuffer s = srcs[i];
                b.put(b.position(), s, s.position(), s.remaining()).position(b.position() + s.remaining());
            }
            b.flip();
            int n = pwrite(b, position);
            int left = n;
            for (int i = offset; i < offset + count && left > 0; i++) {
                ByteBuffer s = srcs[i];
                int k = Math.min(s.remaining(), left);
                s.position(s.position() + k);
                left -= k;
            }
            return n;
        } finally {
            BOUNCE.release(b);
        }
    }

    @Override
    long writeSegments(MemorySegment[] srcs, int offset, int count, long position) throws IOException {
        long bytes = 0;
        for (int i = offset; i < offset + count; i++) {
            bytes += srcs[i].byteSize();
        }
        int want = fitsBounce(bytes, count);
        if (want < 0) {
            return super.writeSegments(srcs, offset, count, position);
        }
        ByteBuffer b = BOUNCE.acquire();
        try {
            MemorySegment bounce = MemorySegment.ofBuffer(b.clear());
            long at = 0;
            for (int i = offset; i < offset + count; i++) {
                HeapCopies.copy(srcs[i], 0, bounce, at, srcs[i].byteSize());
                at += srcs[i].byteSize();
            }
            b.clear().limit(want);
            return pwrite(b, position);
        } finally {
            BOUNCE.release(b);
        }
    }

    // ---------------------------------------------------------------- metadata

    @Override
    public long size() throws IOException {
        try {
            return channel.call(FileChannel::size);
        } catch (IOException e) {
            throw failure("size", 0, 0, e);
        }
    }

    @Override
    void truncateFile(long size) throws IOException {
        try {
            channel.call(c -> {
                c.truncate(size);
                return 0;
            });
        } catch (IOException e) {
            throw failure("truncate", size, 0, e);
        }
    }

    @Override
    public void force(boolean metadata) throws IOException {
        try {
            channel.call(c -> {
                c.force(metadata);
                return 0;
            });
        } catch (IOException e) {
            throw failure(metadata ? "fsync" : "fdatasync", 0, 0, e);
        }
    }

    @Override
    boolean closeFile() throws IOException {
        return channel.close();
    }
}
