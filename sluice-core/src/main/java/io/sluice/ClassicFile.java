package io.sluice;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The CLASSIC engine: {@link RandomAccessFile} with {@code seek} then {@code read} or {@code write}, all under one
 * lock because the file pointer is shared. This is how {@code java.util.zip.ZipFile} reads to this day.
 *
 * <p>It is the baseline of every benchmark, so it is the sensible version of that design, not a strawman: byte
 * arrays go straight to {@code RandomAccessFile}, and buffers or segments go through one scratch array reused
 * under the lock, never a new array per call.
 */
final class ClassicFile extends PositionalFile {
    /** The scratch array grows to the largest request up to this size; bigger requests are short transfers. */
    private static final int SCRATCH_MAX = 1 << 20;

    private final RandomAccessFile raf;
    private final Object lock = new Object();
    /** Guarded by {@link #lock}. */
    private byte[] scratch = new byte[0];
    /** Written under {@link #lock}; read without it only for a fast closed check. */
    private volatile boolean closed;

    private ClassicFile(Path path, OpenSpec spec, RandomAccessFile raf) {
        super(path, Engine.CLASSIC, spec);
        this.raf = raf;
    }

    static ClassicFile open(Path path, OpenSpec spec) throws IOException {
        // FileChannel.open performs CREATE/CREATE_NEW/TRUNCATE_EXISTING and reports failures with NIO's precise
        // exceptions (NoSuchFileException, AccessDeniedException, ...), which RandomAccessFile cannot.
        try (FileChannel ignored = FileChannel.open(path, spec.channelOptions(false))) {
            // opened and checked; RandomAccessFile does the I/O
        }
        return new ClassicFile(path, spec, new RandomAccessFile(path.toFile(), spec.rafMode()));
    }

    @Override
    public boolean isOpen() {
        return !closed;
    }

    @Override
    void ensureOpen() throws ClosedChannelException {
        if (closed) {
            throw new ClosedChannelException();
        }
    }

    @Override
    int readArray(byte[] dst, int offset, int length, long position) throws IOException {
        synchronized (lock) {
            ensureOpen();
            try {
                raf.seek(position);
                return raf.read(dst, offset, length);
            } catch (IOException e) {
                // lseek refuses offsets beyond the largest file the file system can hold (EINVAL); such a position
                // is past the end of the file, which the contract answers with -1. Checked here, off the hot path.
                if (isPastEnd(position)) {
                    return -1;
                }
                throw failure("read", position, length, e);
            }
        }
    }

    @Override
    int readBuffer(ByteBuffer dst, long position) throws IOException {
        if (dst.hasArray()) {
            int n = readArray(dst.array(), dst.arrayOffset() + dst.position(), dst.remaining(), position);
            if (n > 0) {
                dst.position(dst.position() + n);
            }
            return n;
        }
        synchronized (lock) {
            int len = Math.min(dst.remaining(), SCRATCH_MAX);
            byte[] s = scratch(len);
            int n = readArray(s, 0, len, position);
            if (n > 0) {
                dst.put(s, 0, n);
            }
            return n;
        }
    }

    @Override
    int readSegment(MemorySegment dst, long position) throws IOException {
        synchronized (lock) {
            int len = (int) Math.min(dst.byteSize(), SCRATCH_MAX);
            byte[] s = scratch(len);
            int n = readArray(s, 0, len, position);
            if (n > 0) {
                MemorySegment.copy(s, 0, dst, ValueLayout.JAVA_BYTE, 0, n);
            }
            return n;
        }
    }

    @Override
    int writeArray(byte[] src, int offset, int length, long position) throws IOException {
        synchronized (lock) {
            ensureOpen();
            try {
                raf.seek(position);
                raf.write(src, offset, length);
                return length;
            } catch (IOException e) {
                throw failure("write", position, length, e);
            }
        }
    }

    @Override
    int writeBuffer(ByteBuffer src, long position) throws IOException {
        if (src.hasArray()) {
            int n = writeArray(src.array(), src.arrayOffset() + src.position(), src.remaining(), position);
            src.position(src.position() + n);
            return n;
        }
        synchronized (lock) {
            int len = Math.min(src.remaining(), SCRATCH_MAX);
            byte[] s = scratch(len);
            // An absolute get, so a write that fails (closed file, I/O error) leaves the buffer's position alone.
            src.get(src.position(), s, 0, len);
            int n = writeArray(s, 0, len, position);
            src.position(src.position() + n);
            return n;
        }
    }

    @Override
    int writeSegment(MemorySegment src, long position) throws IOException {
        synchronized (lock) {
            int len = (int) Math.min(src.byteSize(), SCRATCH_MAX);
            byte[] s = scratch(len);
            MemorySegment.copy(src, ValueLayout.JAVA_BYTE, 0, s, 0, len);
            return writeArray(s, 0, len, position);
        }
    }

    // Vectored calls hold the lock across the whole vector, so no other call of this file lands between its pieces.

    @Override
    long readBuffers(ByteBuffer[] dsts, int offset, int count, long position) throws IOException {
        synchronized (lock) {
            return super.readBuffers(dsts, offset, count, position);
        }
    }

    @Override
    long readSegments(MemorySegment[] dsts, int offset, int count, long position) throws IOException {
        synchronized (lock) {
            return super.readSegments(dsts, offset, count, position);
        }
    }

    @Override
    long writeBuffers(ByteBuffer[] srcs, int offset, int count, long position) throws IOException {
        synchronized (lock) {
            return super.writeBuffers(srcs, offset, count, position);
        }
    }

    @Override
    long writeSegments(MemorySegment[] srcs, int offset, int count, long position) throws IOException {
        synchronized (lock) {
            return super.writeSegments(srcs, offset, count, position);
        }
    }

    @Override
    public long size() throws IOException {
        synchronized (lock) {
            ensureOpen();
            try {
                return raf.length();
            } catch (IOException e) {
                throw failure("size", 0, 0, e);
            }
        }
    }

    @Override
    void truncateFile(long size) throws IOException {
        synchronized (lock) {
            ensureOpen();
            try {
                if (size < raf.length()) {
                    raf.setLength(size);
                }
            } catch (IOException e) {
                throw failure("truncate", size, 0, e);
            }
        }
    }

    @Override
    public void force(boolean metadata) throws IOException {
        synchronized (lock) {
            ensureOpen();
            try {
                // RandomAccessFile offers only fsync, which covers metadata too: stronger than asked, never weaker.
                raf.getFD().sync();
            } catch (IOException e) {
                throw failure("force", 0, 0, e);
            }
        }
    }

    @Override
    boolean closeFile() throws IOException {
        // Taking the lock waits for the call in progress, so no read ever sees a half-closed descriptor.
        synchronized (lock) {
            if (closed) {
                return false;
            }
            closed = true;
            raf.close();
            return true;
        }
    }

    /** Guarded by {@link #lock}. */
    private boolean isPastEnd(long position) {
        try {
            return position >= raf.length();
        } catch (IOException e) {
            return false;
        }
    }

    /** Guarded by {@link #lock}. */
    private byte[] scratch(int len) {
        if (scratch.length < len) {
            scratch = new byte[Math.max(len, Math.min(SCRATCH_MAX, scratch.length * 2))];
        }
        return scratch;
    }
}
