package io.sluice;

import io.sluice.internal.Errno;
import io.sluice.internal.Native;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The MMAP engine: the whole file mapped as one {@link MemorySegment} in a shared {@link Arena}; reads and writes
 * are memory copies with no system call once pages are resident. Segments are 64-bit, so any file size works.
 *
 * <p>Growth and shrinking replace the mapping: the new one is published first, then the old arena is closed. A
 * thread still copying from the old mapping gets {@link IllegalStateException} from the FFM runtime (never a crash,
 * since closing a shared arena waits for a handshake with every thread), sees the new mapping and retries. A thread
 * in flight when the file is closed gets {@link ClosedChannelException} the same way.
 *
 * <p>If another process shrinks the file under the mapping, touching the lost pages raises SIGBUS, which the JVM
 * turns into an {@link InternalError} for FFM accesses; that becomes an {@link IOException} naming the position.
 * This is best effort: HotSpot delivers that error asynchronously, at the thread's next safepoint poll, and in
 * compiled code the poll may come only after the copy's catch block has been left, so the caller can see the
 * {@code InternalError} itself (the tests show both). Either way the JVM lives on and the file stays usable.
 */
final class MappedFile extends PositionalFile {
    private record Mapping(MemorySegment segment, Arena arena) {
        long size() {
            return segment.byteSize();
        }

        boolean isAlive() {
            return arena == null || arena.scope().isAlive();
        }

        void unmap() {
            if (arena != null) {
                arena.close();
            }
        }
    }

    private static final Mapping EMPTY = new Mapping(MemorySegment.ofArray(new byte[0]), null);

    private final ReopeningChannel channel;
    private final FileChannel.MapMode mode;
    private final int advice;
    /** The current mapping; replaced only under {@code this}; null once closed. */
    private volatile Mapping mapping;

    private MappedFile(Path path, OpenSpec spec, ReopeningChannel channel) {
        super(path, Engine.MMAP, spec);
        this.channel = channel;
        this.mode = spec.writable() ? FileChannel.MapMode.READ_WRITE : FileChannel.MapMode.READ_ONLY;
        this.advice = switch (spec.advice()) {
            case NORMAL -> Native.MADV_NORMAL;
            case SEQUENTIAL -> Native.MADV_SEQUENTIAL;
            case RANDOM -> Native.MADV_RANDOM;
            case WILLNEED -> Native.MADV_WILLNEED;
        };
    }

    static MappedFile open(Path path, OpenSpec spec) throws IOException {
        ReopeningChannel channel = new ReopeningChannel(path, spec);
        boolean success = false;
        try {
            MappedFile f = new MappedFile(path, spec, channel);
            f.mapping = f.map(channel.call(FileChannel::size));
            success = true;
            return f;
        } finally {
            if (!success) {
                channel.close();
            }
        }
    }

    /** Maps {@code [0, size)}; in READ_WRITE mode the JDK grows the file to {@code size} first. */
    private Mapping map(long size) throws IOException {
        if (size == 0) {
            return EMPTY;
        }
        Arena arena = Arena.ofShared();
        boolean success = false;
        try {
            MemorySegment seg = MemorySegment.NULL;
            FileChannel c = channel.get();
            try {
                seg = c.map(mode, 0, size, arena);
            } catch (ClosedChannelException e) {
                channel.recover(c, e);
                seg = channel.get().map(mode, 0, size, arena);
            }
            if (advice != Native.MADV_NORMAL && Native.isEnabled()) {
                // A hint only: a failure changes speed, never results, so it is not an error.
                Native.madvise(seg.address(), seg.byteSize(), advice);
            }
            success = true;
            return new Mapping(seg, arena);
        } catch (IOException e) {
            throw failure("mmap", 0, size, withMapHint(e));
        } finally {
            if (!success) {
                arena.close();
            }
        }
    }

    static IOException withMapHint(IOException e) {
        // The JDK reports mmap's ENOMEM as "Map failed" caused by OutOfMemoryError; say which limit to raise.
        if (e.getCause() instanceof OutOfMemoryError) {
            return new IOException(e.getMessage() + ": " + Errno.describe(Errno.ENOMEM)
                    + " (address space or vm.max_map_count exhausted)", e);
        }
        return e;
    }

    /** Replaces the mapping with one of {@code size} bytes. Caller holds {@code this}. */
    private void remap(Mapping old, long size) throws IOException {
        Mapping fresh = map(size);
        mapping = fresh;
        // After the publish above, a reader that hits the closed old arena retries on the fresh mapping.
        old.unmap();
    }

    private Mapping current() throws ClosedChannelException {
        Mapping m = mapping;
        if (m == null) {
            throw new ClosedChannelException();
        }
        return m;
    }

    @Override
    public boolean isOpen() {
        return mapping != null;
    }

    @Override
    void ensureOpen() throws ClosedChannelException {
        current();
    }

    /**
     * Decides what an {@link IllegalStateException} from a copy means: the mapping was replaced (retry), the file
     * was closed (ClosedChannelException), or the caller's own memory was closed (rethrow).
     *
     * <p>{@code wasInterrupted} is the thread's interrupt status from just before the copy. HotSpot delivers the
     * exception to a thread caught inside the copy as the arena closes asynchronously, and sets that thread's
     * interrupt status while doing so (seen on JDK 25). That interrupt is not the caller's, so it is cleared:
     * otherwise the thread's next channel call, such as the size check at end of file or the map that grows the
     * file, fails with ClosedByInterruptException, and the caller's thread stays interrupted for no reason. An
     * interrupt that really arrives during the copy is lost with it; a narrow window, and interrupts carry no
     * guarantee of when they are noticed.
     */
    private void onClosedMemory(Mapping m, IllegalStateException e, boolean wasInterrupted)
            throws ClosedChannelException {
        if (m.isAlive()) {
            throw e;
        }
        if (!wasInterrupted) {
            Thread.interrupted();
        }
        if (mapping == null) {
            ClosedChannelException closed = new ClosedChannelException();
            closed.initCause(e);
            throw closed;
        }
    }

    private IOException sigbus(String op, long position, long length, InternalError e) {
        IOException io = new IOException(op + "(path=" + path() + ", pos=" + position + ", len=" + length
                + "): the mapped file was truncated by another process (SIGBUS)");
        io.initCause(e);
        return io;
    }

    /**
     * At or past the end of our mapping: if another writer grew the file meanwhile, map the new size.
     *
     * @return whether the mapping grew, so the caller should look again
     */
    private boolean refresh(Mapping seen) throws IOException {
        if (fileSize() <= seen.size()) {
            return false;
        }
        synchronized (this) {
            Mapping m = current();
            if (m != seen) {
                return true;
            }
            // Read the size again under the lock: a truncate may have run since the read above, and mapping the
            // old, larger size in READ_WRITE mode would grow the file back to it, undoing the truncate.
            long size = fileSize();
            if (size <= m.size()) {
                return false;
            }
            remap(m, size);
        }
        return true;
    }

    private long fileSize() throws IOException {
        try {
            return channel.call(FileChannel::size);
        } catch (IOException e) {
            throw failure("size", 0, 0, e);
        }
    }

    // ---------------------------------------------------------------- reads

    @Override
    int readSegment(MemorySegment dst, long position) throws IOException {
        for (;;) {
            Mapping m = current();
            long size = m.size();
            if (position >= size) {
                if (refresh(m)) {
                    continue;
                }
                return -1;
            }
            int n = (int) Math.min(dst.byteSize(), size - position);
            boolean interrupted = Thread.currentThread().isInterrupted();
            try {
                HeapCopies.copy(m.segment(), position, dst, 0, n);
                return n;
            } catch (IllegalStateException e) {
                onClosedMemory(m, e, interrupted);
            } catch (InternalError e) {
                throw sigbus("read", position, n, e);
            }
        }
    }

    @Override
    int readArray(byte[] dst, int offset, int length, long position) throws IOException {
        for (;;) {
            Mapping m = current();
            long size = m.size();
            if (position >= size) {
                if (refresh(m)) {
                    continue;
                }
                return -1;
            }
            int n = (int) Math.min(length, size - position);
            boolean interrupted = Thread.currentThread().isInterrupted();
            try {
                MemorySegment.copy(m.segment(), ValueLayout.JAVA_BYTE, position, dst, offset, n);
                return n;
            } catch (IllegalStateException e) {
                onClosedMemory(m, e, interrupted);
            } catch (InternalError e) {
                throw sigbus("read", position, n, e);
            }
        }
    }

    @Override
    int readBuffer(ByteBuffer dst, long position) throws IOException {
        return readBufferAsSegment(dst, position);
    }

    // ---------------------------------------------------------------- writes

    /** Makes the mapping cover {@code end}, growing the file. */
    private void ensureCovers(long end) throws IOException {
        synchronized (this) {
            Mapping m = current();
            if (end > m.size()) {
                remap(m, end);
            }
        }
    }

    @Override
    int writeSegment(MemorySegment src, long position) throws IOException {
        long len = src.byteSize();
        for (;;) {
            Mapping m = current();
            if (position + len > m.size()) {
                ensureCovers(position + len);
                continue;
            }
            boolean interrupted = Thread.currentThread().isInterrupted();
            try {
                HeapCopies.copy(src, 0, m.segment(), position, len);
                return (int) len;
            } catch (IllegalStateException e) {
                onClosedMemory(m, e, interrupted);
            } catch (InternalError e) {
                throw sigbus("write", position, len, e);
            }
        }
    }

    @Override
    int writeArray(byte[] src, int offset, int length, long position) throws IOException {
        for (;;) {
            Mapping m = current();
            if (position + length > m.size()) {
                ensureCovers(position + length);
                continue;
            }
            boolean interrupted = Thread.currentThread().isInterrupted();
            try {
                MemorySegment.copy(src, offset, m.segment(), ValueLayout.JAVA_BYTE, position, length);
                return length;
            } catch (IllegalStateException e) {
                onClosedMemory(m, e, interrupted);
            } catch (InternalError e) {
                throw sigbus("write", position, length, e);
            }
        }
    }

    @Override
    int writeBuffer(ByteBuffer src, long position) throws IOException {
        return writeBufferAsSegment(src, position);
    }

    // ---------------------------------------------------------------- the rest

    @Override
    public long size() throws IOException {
        ensureOpen();
        try {
            return channel.call(FileChannel::size);
        } catch (IOException e) {
            throw failure("size", 0, 0, e);
        }
    }

    @Override
    void truncateFile(long size) throws IOException {
        synchronized (this) {
            Mapping m = current();
            try {
                if (size >= channel.call(FileChannel::size)) {
                    return;
                }
                // Shrink the mapping before the file, so no thread can touch a page past the new end (SIGBUS).
                if (size < m.size()) {
                    remap(m, size);
                }
                channel.call(c -> {
                    c.truncate(size);
                    return 0;
                });
            } catch (IOException e) {
                throw failure("truncate", size, 0, e);
            }
        }
    }

    @Override
    public void force(boolean metadata) throws IOException {
        Mapping m = current();
        try {
            if (isWritable() && m.arena() != null) {
                boolean interrupted = Thread.currentThread().isInterrupted();
                try {
                    m.segment().force();
                } catch (IllegalStateException e) {
                    // Replaced by a remap meanwhile: the pages are the same page-cache pages, which the channel
                    // force below writes back.
                    onClosedMemory(m, e, interrupted);
                }
            }
            channel.call(c -> {
                c.force(metadata);
                return 0;
            });
        } catch (java.io.UncheckedIOException e) {
            throw failure("msync", 0, m.size(), e.getCause());
        } catch (IOException e) {
            throw failure(metadata ? "fsync" : "fdatasync", 0, m.size(), e);
        }
    }

    @Override
    boolean closeFile() throws IOException {
        synchronized (this) {
            Mapping m = mapping;
            if (m == null) {
                return false;
            }
            mapping = null;
            // Readers in flight on this mapping end with IllegalStateException, which becomes ClosedChannelException.
            m.unmap();
            channel.close();
            return true;
        }
    }
}
