package io.sluice.nio;

import io.sluice.Engine;
import io.sluice.PositionalFile;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Objects;

/**
 * A {@link FileChannel} whose reads and writes go to a {@link PositionalFile}: positional calls go straight to the
 * engine, relative calls move this channel's own position under one lock, as the JDK's channel does.
 *
 * <p>Interrupts and closing follow {@link java.nio.channels.spi.AbstractInterruptibleChannel}: an interrupt of a
 * thread in (or entering) a call closes the channel and the file, and that thread gets
 * {@link java.nio.channels.ClosedByInterruptException}; other threads' calls in progress end with
 * {@link java.nio.channels.AsynchronousCloseException}. One difference: a positional or relative read on MMAP, AUTO
 * or CHANNEL (without O_DIRECT) that is interrupted while it runs closes the channel when the read returns, not at
 * the moment of the interrupt, since nothing in such a read waits for the close to wake it. {@code map},
 * {@code lock} and {@code tryLock} use a second descriptor of the same file, opened through the platform's provider
 * on first use and closed with the channel.
 */
final class SluiceFileChannel extends FileChannel {
    /** Bytes moved per step of transferTo/transferFrom. */
    private static final int TRANSFER_CHUNK = 64 * 1024;
    /** The JDK's step for transfers it makes through a buffer, which O_DIRECT's block rule applies to. */
    private static final int DIRECT_TRANSFER_STEP = 8192;

    private final PositionalFile file;
    private final Path platformPath;
    private final boolean readable;
    private final boolean writable;
    private final boolean append;
    /** O_DIRECT's alignment (the file system's block size), or 0 without O_DIRECT. */
    private final int directAlign;
    /**
     * Reads need no begin/end (MMAP, AUTO and CHANNEL without O_DIRECT): see {@link #readUnguarded}. Engines with a
     * device wait of their own (IO_URING's ring, CLASSIC's RandomAccessFile) and O_DIRECT keep begin/end.
     */
    private final boolean unguarded;

    /** Serialises relative calls and guards {@link #position}, as the JDK's channel does. */
    private final Object positionLock = new Object();
    /**
     * The last transfer's bounce buffer, for the next transfer on this channel (null while one is using it): callers
     * such as file-serving loops call transferTo again and again for a chunk each, and 64 KiB of fresh direct memory
     * per call cost more than the copy. Taken and given back atomically, so concurrent transfers each have their own.
     */
    private final java.util.concurrent.atomic.AtomicReference<ByteBuffer> spareTransferBuffer =
            new java.util.concurrent.atomic.AtomicReference<>();
    private long position;

    /** The platform's channel on the file, for map and locks. */
    private final SecondDescriptor second;

    SluiceFileChannel(PositionalFile file, Path platformPath, boolean readable, boolean writable, boolean append,
            int directAlign) {
        this.file = file;
        this.directAlign = directAlign;
        Engine engine = file.engine();
        this.unguarded = directAlign == 0
                && (engine == Engine.MMAP || engine == Engine.AUTO || engine == Engine.CHANNEL);
        this.platformPath = platformPath;
        this.readable = readable;
        this.writable = writable;
        this.second = new SecondDescriptor(platformPath, readable, writable, "map/lock");
        this.append = append;
    }

    /** The file this channel reads and writes. */
    PositionalFile file() {
        return file;
    }

    boolean writable() {
        return writable;
    }

    boolean readable() {
        return readable;
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!isOpen()) {
            throw new ClosedChannelException();
        }
    }

    private void ensureReadable() throws ClosedChannelException {
        ensureOpen();
        if (!readable) {
            throw new NonReadableChannelException();
        }
    }

    private void ensureWritable() throws ClosedChannelException {
        ensureOpen();
        if (!writable) {
            throw new NonWritableChannelException();
        }
    }

    // ---------------------------------------------------------------- reads

    @Override
    public int read(ByteBuffer dst) throws IOException {
        Objects.requireNonNull(dst, "dst");
        ensureReadable();
        synchronized (positionLock) {
            int n = readAt(dst, position);
            if (n > 0) {
                position += n;
            }
            return n;
        }
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, dsts.length);
        ensureReadable();
        ByteBuffer[] slice = Arrays.copyOfRange(dsts, offset, offset + length);
        synchronized (positionLock) {
            checkDirect("read", position, slice);
            ByteBuffer[] io = DirectIo.shadowMisaligned(directAlign, slice, false);
            boolean completed = false;
            long total = 0;
            try {
                begin();
                for (;;) {
                    long n = file.read(position + total, io);
                    if (n < 0) {
                        total = total == 0 ? -1 : total;
                        break;
                    }
                    total += n;
                    if (n == 0 || !anyRemaining(io) || !directContinues(total)) {
                        break;
                    }
                }
                completed = true;
            } finally {
                end(completed);
                DirectIo.settleShadows(slice, io, true);
            }
            if (total > 0) {
                position += total;
            }
            return total;
        }
    }

    private static boolean anyRemaining(ByteBuffer[] bufs) {
        for (ByteBuffer b : bufs) {
            if (b.hasRemaining()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        Objects.requireNonNull(dst, "dst");
        if (position < 0) {
            throw new IllegalArgumentException("negative position: " + position);
        }
        ensureReadable();
        // Straight to the unguarded read, not through readAt: every call between the caller's loop and the JDK's copy
        // counts against C2's inlining depth (MaxInlineLevel, 15), and a mapped read's copy is already a dozen calls
        // deep. Through readAt the JDK's copyMemoryChecks was one level too deep, stayed a call, and random 512-byte
        // reads over MMAP ran at 0.59-0.79 of the engine's own (at 0.90-1.10 with -XX:MaxInlineLevel=20;
        // docs/benchmarks/2026-11-26-depth-s6.md).
        if (unguarded && !Thread.currentThread().isInterrupted()) {
            return readUnguarded(dst, position);
        }
        return readAt(dst, position);
    }

    /**
     * Reads until {@code dst} is full or the file ends: an engine may return a short count (a bounce buffer's worth,
     * the end of a mapping) where the JDK's pread on a regular file would have filled the buffer.
     */
    private int readAt(ByteBuffer dst, long at) throws IOException {
        // Kept small, the rare parts in methods of their own, so that the JIT inlines it into every caller.
        if (directAlign != 0) {
            checkDirectRead(dst, at);
        }
        if (unguarded && !Thread.currentThread().isInterrupted()) {
            return readUnguarded(dst, at);
        }
        return readGuarded(dst, at);
    }

    private void checkDirectRead(ByteBuffer dst, long at) throws IOException {
        // The JDK's order: the position, a read-only destination, then the buffer's alignment.
        DirectIo.checkPosition(directAlign, platformPath, "read", at);
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("read-only buffer");
        }
        DirectIo.checkBuffer(directAlign, platformPath, "read", dst);
    }

    /** {@link #fill} between begin and end, as the JDK's channel reads. */
    private int readGuarded(ByteBuffer dst, long at) throws IOException {
        boolean completed = false;
        int total;
        try {
            begin();
            total = fill(dst, at);
            completed = true;
        } finally {
            end(completed);
        }
        return total;
    }

    /**
     * {@link #readAt} for an engine whose reads are memory copies or a {@code pread} through a channel that already
     * ends with {@link ClosedByInterruptException} when its thread is interrupted (sluice-core's reopening channel,
     * under CHANNEL and AUTO): nothing here waits where only closing this channel would wake it, so begin/end buy
     * nothing a look at the interrupt status before and after does not. They cost two lock round trips per read (7
     * to 17 ns a read of a cached block, docs/benchmarks/2026-11-26-channels-s4.md), and their fences keep the
     * processor from overlapping one random read's cache misses with the next one's. The outcome is begin/end's: an
     * interrupt before or during the read closes the channel with {@link ClosedByInterruptException}, and a close by
     * another thread during it gives {@link AsynchronousCloseException}.
     */
    private int readUnguarded(ByteBuffer dst, long at) throws IOException {
        int total;
        try {
            // The first read called from here rather than through fill, one call level less (see read): it fills
            // the buffer but for a short count, which fill completes.
            total = file.read(dst, at);
            if (total > 0 && dst.hasRemaining()) {
                int more = fill(dst, at + total);
                total += Math.max(more, 0);
            }
        } catch (IOException e) {
            throw afterUnguardedFailure(e);
        }
        if (Thread.currentThread().isInterrupted()) {
            close();
            throw new ClosedByInterruptException();
        }
        return total;
    }

    /**
     * What an unguarded read that failed with {@code e} throws, as end() would have decided it: the thread was
     * interrupted, so the channel closes and the answer is {@link ClosedByInterruptException}; or the channel was
     * closed under the read, {@link AsynchronousCloseException}; else {@code e} itself.
     */
    private IOException afterUnguardedFailure(IOException e) throws IOException {
        if (Thread.currentThread().isInterrupted()) {
            close();
            ClosedByInterruptException interrupted = new ClosedByInterruptException();
            if (!(e instanceof ClosedByInterruptException)) {
                interrupted.initCause(e);
            }
            return interrupted;
        }
        if (e instanceof ClosedChannelException && !(e instanceof AsynchronousCloseException) && !isOpen()) {
            AsynchronousCloseException closed = new AsynchronousCloseException();
            closed.initCause(e);
            return closed;
        }
        return e;
    }

    /** Reads at {@code at} until {@code dst} is full or the file ends; the count, or -1 at the end. */
    private int fill(ByteBuffer dst, long at) throws IOException {
        int total = 0;
        do {
            int n = file.read(dst, at + total);
            if (n < 0) {
                return total == 0 ? -1 : total;
            }
            total += n;
            if (n == 0) {
                break;
            }
        } while (dst.hasRemaining() && directContinues(total));
        return total;
    }

    // ---------------------------------------------------------------- writes

    @Override
    public int write(ByteBuffer src) throws IOException {
        Objects.requireNonNull(src, "src");
        ensureWritable();
        synchronized (positionLock) {
            int n = writeAt(src, position);
            position = append ? currentSize() : position + n;
            return n;
        }
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, srcs.length);
        ensureWritable();
        ByteBuffer[] slice = Arrays.copyOfRange(srcs, offset, offset + length);
        synchronized (positionLock) {
            checkDirect("write", append ? currentSize() : position, slice);
            ByteBuffer[] io = DirectIo.shadowMisaligned(directAlign, slice, true);
            boolean completed = false;
            long total = 0;
            try {
                begin();
                // A write returns only after writing every byte (WritableByteChannel); an engine may take fewer.
                do {
                    total += file.write(append ? file.size() : position + total, io);
                } while (anyRemaining(io));
                completed = true;
            } finally {
                end(completed);
                DirectIo.settleShadows(slice, io, false);
            }
            position = append ? currentSize() : position + total;
            return total;
        }
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        Objects.requireNonNull(src, "src");
        if (position < 0) {
            throw new IllegalArgumentException("negative position: " + position);
        }
        ensureWritable();
        if (append) {
            synchronized (positionLock) {
                return writeAt(src, position);
            }
        }
        return writeAt(src, position);
    }

    /**
     * Writes all of {@code src} at {@code at}, or in append mode at the end of the file, whatever {@code at} says: a
     * positional write on a descriptor opened with {@code O_APPEND} appends on Linux, and the JDK's channel shows it.
     * Append-mode callers hold the position lock, so that two writes of this channel never take the same end.
     */
    private int writeAt(ByteBuffer src, long at) throws IOException {
        if (directAlign != 0) {
            DirectIo.checkPosition(directAlign, platformPath, "write", append ? file.size() : at);
            DirectIo.checkBuffer(directAlign, platformPath, "write", src);
        }
        boolean completed = false;
        int total = 0;
        try {
            begin();
            do {
                total += file.write(src, append ? file.size() : at + total);
            } while (src.hasRemaining());
            completed = true;
        } finally {
            end(completed);
        }
        return total;
    }

    private void checkDirect(String op, long at, ByteBuffer[] bufs) throws IOException {
        if (directAlign != 0) {
            DirectIo.checkPosition(directAlign, platformPath, op, at);
            DirectIo.checkBuffers(directAlign, platformPath, op, bufs);
        }
    }

    /**
     * Whether a read or write that moved {@code total} bytes so far may ask the engine for more: always without
     * O_DIRECT; with it only while the next position stays aligned (a short count off a block boundary is the end of
     * the file, and the JDK's channel returns it as it is).
     */
    private boolean directContinues(long total) {
        return directAlign == 0 || (total & (directAlign - 1)) == 0;
    }

    // ---------------------------------------------------------------- position, size

    @Override
    public long position() throws IOException {
        ensureOpen();
        synchronized (positionLock) {
            return append ? currentSize() : position;
        }
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        ensureOpen();
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position: " + newPosition);
        }
        synchronized (positionLock) {
            position = newPosition;
        }
        return this;
    }

    @Override
    public long size() throws IOException {
        ensureOpen();
        return currentSize();
    }

    private long currentSize() throws IOException {
        boolean completed = false;
        try {
            begin();
            long s = file.size();
            completed = true;
            return s;
        } finally {
            end(completed);
        }
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        ensureOpen();
        if (size < 0) {
            throw new IllegalArgumentException("negative size: " + size);
        }
        if (!writable) {
            throw new NonWritableChannelException();
        }
        synchronized (positionLock) {
            boolean completed = false;
            try {
                begin();
                if (size < file.size()) {
                    file.truncate(size);
                }
                completed = true;
            } finally {
                end(completed);
            }
            // As the JDK's channel: the position never stays past the size asked for, even when nothing was cut.
            if (position > size) {
                position = size;
            }
        }
        return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
        ensureOpen();
        boolean completed = false;
        try {
            begin();
            file.force(metaData);
            completed = true;
        } finally {
            end(completed);
        }
    }

    // ---------------------------------------------------------------- transfers

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        ensureOpen();
        if (!target.isOpen()) {
            throw new ClosedChannelException();
        }
        if (!readable) {
            throw new NonReadableChannelException();
        }
        if (target instanceof SluiceFileChannel s && !s.writable) {
            throw new NonWritableChannelException();
        }
        if (position < 0 || count < 0) {
            throw new IllegalArgumentException("negative position or count: position=" + position + ", count="
                    + count);
        }
        long size = size();
        if (position > size) {
            return 0;
        }
        // A file of size 0 may still have bytes (/proc): then read until the end instead of up to the size.
        long left = size > 0 ? Math.min(count, size - position) : count;
        ByteBuffer buf = takeTransferBuffer();
        try {
            return transferTo(position, left, target, buf);
        } finally {
            spareTransferBuffer.compareAndSet(null, buf);
        }
    }

    private long transferTo(long position, long left, WritableByteChannel target, ByteBuffer buf) throws IOException {
        long done = 0;
        while (done < left) {
            // With O_DIRECT the JDK's transfer reads steps of 8 KiB and a step its alignment check refuses ends the
            // transfer: with what was moved, or with the refusal when nothing was. This does the same.
            int step = directAlign != 0 ? DIRECT_TRANSFER_STEP : buf.capacity();
            buf.clear().limit((int) Math.min(step, left - done));
            int n;
            try {
                n = readAt(buf, position + done);
            } catch (IOException e) {
                if (directAlign == 0 || done == 0 || e instanceof ClosedChannelException) {
                    throw e;
                }
                break;
            }
            if (n <= 0) {
                break;
            }
            buf.flip();
            int w = target.write(buf);
            done += w;
            if (w < n) {
                break; // the target takes no more now: report what it took, as the JDK does
            }
        }
        return done;
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        ensureOpen();
        if (!src.isOpen()) {
            throw new ClosedChannelException();
        }
        if (src instanceof SluiceFileChannel s && !s.readable) {
            throw new NonReadableChannelException();
        }
        if (!writable) {
            throw new NonWritableChannelException();
        }
        if (position < 0 || count < 0) {
            throw new IllegalArgumentException("negative position or count: position=" + position + ", count="
                    + count);
        }
        ByteBuffer buf = takeTransferBuffer();
        try {
            return transferFrom(src, position, count, buf);
        } finally {
            spareTransferBuffer.compareAndSet(null, buf);
        }
    }

    private long transferFrom(ReadableByteChannel src, long position, long count, ByteBuffer buf) throws IOException {
        long done = 0;
        while (done < count) {
            buf.clear().limit((int) Math.min(buf.capacity(), count - done));
            int n = src.read(buf);
            if (n <= 0) {
                break;
            }
            buf.flip();
            if (append) {
                synchronized (positionLock) {
                    done += writeAt(buf, position + done);
                }
            } else {
                done += writeAt(buf, position + done);
            }
        }
        return done;
    }

    /**
     * A transfer's bounce buffer of {@value #TRANSFER_CHUNK} bytes: the spare one if no other transfer has it, else a
     * new one; aligned for O_DIRECT, whose reads go straight in.
     */
    private ByteBuffer takeTransferBuffer() {
        ByteBuffer spare = spareTransferBuffer.getAndSet(null);
        if (spare != null) {
            return spare;
        }
        if (directAlign == 0) {
            return ByteBuffer.allocateDirect(TRANSFER_CHUNK);
        }
        int blocks = (TRANSFER_CHUNK + directAlign - 1) / directAlign * directAlign;
        return ByteBuffer.allocateDirect(blocks + directAlign).alignedSlice(directAlign).limit(blocks).slice();
    }

    // ---------------------------------------------------------------- map and locks, on the second descriptor

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        ensureOpen();
        return second.get().map(mode, position, size);
    }

    @Override
    public MemorySegment map(MapMode mode, long offset, long size, Arena arena) throws IOException {
        // The JDK checks these before whether the channel is open.
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset: " + offset);
        }
        if (size < 0) {
            throw new IllegalArgumentException("negative size: " + size);
        }
        ensureOpen();
        return second.get().map(mode, offset, size, arena);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        ensureOpen();
        FileChannel h = second.get();
        boolean completed = false;
        try {
            begin();
            FileLock inner = h.lock(position, size, shared);
            completed = true;
            return new ForwardedLock(this, inner);
        } finally {
            end(completed);
        }
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        ensureOpen();
        FileLock inner = second.get().tryLock(position, size, shared);
        return inner == null ? null : new ForwardedLock(this, inner);
    }

    @Override
    protected void implCloseChannel() throws IOException {
        try {
            second.close();
        } finally {
            file.close();
        }
    }

    @Override
    public String toString() {
        return "SluiceFileChannel[" + file + "]";
    }
}
