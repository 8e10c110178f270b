package io.sluice;

import io.sluice.internal.Errno;
import io.sluice.internal.Faults;
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
 * <p>A write that ends past the mapping is a {@code pwrite} on the file's channel: the kernel grows the file, and the
 * page cache it writes into is the mapping's, so every path reads it back. The mapping follows lazily: a read that
 * needs bytes past it, or a write inside bytes this handle appended, maps the file at its size then. So appends cost
 * one system call each, as on CHANNEL, and not a map and an unmap (a mapping in READ_WRITE mode cannot reach past
 * the end of the file: {@link FileChannel#map} grows the file to it).
 *
 * <p>Growth and shrinking replace the mapping: the new one is published first, then the old arena is closed. A
 * thread still copying from the old mapping gets {@link IllegalStateException} from the FFM runtime (never a crash,
 * since closing a shared arena waits for a handshake with every thread), sees the new mapping and retries. A thread
 * in flight when the file is closed gets {@link ClosedChannelException} the same way.
 *
 * <p>The file may change size under the mapping, and the engine follows it as CHANNEL does. Growth by another
 * writer shows when a read reaches the end of the mapping: the real size is looked up and mapped. A shrink by another
 * process shows when a copy touches a page the file lost: the kernel raises SIGBUS, HotSpot throws
 * {@link InternalError}, and {@link Faults#deliver} makes sure that arrives inside the copy's {@code catch},
 * compiled code or not. The engine then looks at the real size, maps that and tries again: a read at or past the new
 * end returns -1, a read across it is short, a write past it grows the file again. {@link #size()} and a read that
 * would end past the mapping also look, so the mapping follows a cut without a fault. A fault the size does not
 * explain (a write into a hole of a file system that is full, a failing device) is an {@link IOException} naming
 * the file and position; the file stays usable. What mapping cannot see: the page holding the new end stays mapped
 * (the kernel maps whole pages), so until one of those lookups, bytes read there past the new end are zeros, and
 * bytes written there are lost, where CHANNEL would return -1 or grow the file.
 *
 * <p>Files that cannot be mapped are refused at open with an {@link IOException} that names CHANNEL: those of
 * {@code /proc}, whose size (0) says nothing of their length, and those of file systems without mmap, such as
 * {@code /sys}. See {@link Mapped#unmappableCause} for how they are told apart from an ordinary empty file.
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
    private static final int MAX_FAULTS_PER_CALL = 8;

    private final ReopeningChannel channel;
    private final FileChannel.MapMode mode;
    private final int advice;
    /** The current mapping; replaced only under {@code this}; null once closed. */
    private volatile Mapping mapping;
    /** Writes past the mapping: pwrite on this file's channel (null for AUTO's reader, which never writes). */
    private final ChannelFile appender;
    /**
     * The end of the furthest write this handle made past its mapping: a write ending at or before it is in bytes
     * the file has, so mapping them lets it and the writes after it copy; one ending past it is an append.
     */
    private volatile long appendedTo;
    /** Mappings made so far (tests count them: growth must not map per write); changed only under {@code this}. */
    private long maps;

    private MappedFile(Path path, OpenSpec spec, ReopeningChannel channel, boolean readOnlyMapping) {
        super(path, Engine.MMAP, spec);
        this.channel = channel;
        this.mode = spec.writable() && !readOnlyMapping ? FileChannel.MapMode.READ_WRITE : FileChannel.MapMode.READ_ONLY;
        this.appender = mode == FileChannel.MapMode.READ_WRITE ? new ChannelFile(path, spec, channel) : null;
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
            MappedFile f = new MappedFile(path, spec, channel, false);
            long size = channel.call(FileChannel::size);
            if (size == 0) {
                // An ordinary empty file maps and grows like any other, but a /proc file says 0 too, and has bytes.
                String cause = Mapped.unmappableCause(path, spec.noFollowLinks());
                if (cause != null) {
                    throw f.cannotMap(0, "its size (0) does not give its length, and " + cause, null);
                }
            }
            f.mapping = f.map(size);
            success = true;
            return f;
        } finally {
            if (!success) {
                channel.close();
            }
        }
    }

    /**
     * AUTO's reader: a read-only mapping over AUTO's channel, made on the first read that needs it (AUTO writes with
     * pwrite, so the mapping never grows the file). The caller has checked that the file can be mapped.
     */
    static MappedFile reader(Path path, OpenSpec spec, ReopeningChannel channel) {
        MappedFile f = new MappedFile(path, spec, channel, true);
        f.mapping = EMPTY;
        return f;
    }

    /** How many bytes are mapped now; 0 once closed. */
    long mappedSize() {
        Mapping m = mapping;
        return m == null ? 0 : m.size();
    }

    /** How many mappings of a non-empty size this file has made, the first included. */
    synchronized long maps() {
        return maps;
    }

    /** Makes the mapping cover the file's real size now (AUTO, when reads keep passing the end of the mapping). */
    void follow() throws IOException {
        resize(current());
    }

    /** Maps {@code [0, size)}; in READ_WRITE mode the JDK grows the file to {@code size} first. */
    private Mapping map(long size) throws IOException {
        if (size == 0) {
            return EMPTY;
        }
        synchronized (this) {
            maps++;
        }
        Arena arena = Arena.ofShared();
        boolean success = false;
        try {
            MemorySegment seg;
            for (;;) {
                FileChannel c = channel.get();
                try {
                    seg = c.map(mode, 0, size, arena);
                    break;
                } catch (ClosedChannelException e) {
                    channel.recover(c, e);
                }
            }
            if (advice != Native.MADV_NORMAL && Native.isEnabled()) {
                // A hint only: a failure changes speed, never results, so it is not an error.
                Native.madvise(seg.address(), seg.byteSize(), advice);
            }
            success = true;
            return new Mapping(seg, arena);
        } catch (IOException e) {
            String cause = Mapped.unmappableCause(path(), spec().noFollowLinks(), e);
            throw cause != null ? cannotMap(size, cause, e) : failure("mmap", 0, size, withMapHint(e));
        } finally {
            if (!success) {
                arena.close();
            }
        }
    }

    private IOException cannotMap(long size, String cause, IOException e) {
        return new IOException("mmap(path=" + path() + ", pos=0, len=" + size + "): cannot map the file: " + cause
                + "; use Engine.CHANNEL", e);
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

    /**
     * Makes the mapping follow the file's real size when they differ: another writer grew the file, or another
     * process shrank it.
     *
     * @return whether the mapping changed (here or by another thread), so the caller should look again
     */
    private boolean resize(Mapping seen) throws IOException {
        if (fileSize() == seen.size()) {
            return false;
        }
        synchronized (this) {
            Mapping m = current();
            if (m != seen) {
                return true;
            }
            // Read the size again under the lock: a truncate may have run since the read above, and mapping the
            // old, larger size in READ_WRITE mode would grow the file back to it, undoing the truncate. (A process
            // that cuts the file between this read and the map below still has the file grown back to this size:
            // FileChannel.map extends a file shorter than the mapping. The window is two system calls wide.)
            long size = fileSize();
            if (size == m.size()) {
                return false;
            }
            remap(m, size);
        }
        return true;
    }

    /**
     * After SIGBUS in a copy from or to {@code seen}: when the file is shorter than the mapping, another process cut
     * it, so the mapping takes the real size and the caller looks again; any other fault is the call's failure.
     * {@code faults} counts this call's faults, so a file cut again and again cannot keep a call going forever.
     */
    private void afterFault(Mapping seen, String op, long position, long length, InternalError fault, int faults)
            throws IOException {
        IoCounters.mappedFault();
        try {
            if (faults <= MAX_FAULTS_PER_CALL && fileSize() < seen.size()) {
                resize(seen);
                return;
            }
        } catch (IOException e) {
            e.addSuppressed(fault);
            throw e;
        }
        throw Mapped.sigbus(op, path(), position, length, fault);
    }

    /**
     * The file's size through the channel, under {@code this} like every {@code map}: the JDK's {@code size} takes
     * the channel's position lock and then, for a thread interrupted just before, closes the channel and waits for
     * the calls on it to leave, while its {@code map} enters the channel first and then waits for the position lock.
     * The two at once on one channel hang both threads for good (JDK 25).
     */
    private long fileSize() throws IOException {
        try {
            synchronized (this) {
                return channel.call(FileChannel::size);
            }
        } catch (IOException e) {
            throw failure("size", 0, 0, e);
        }
    }

    // ---------------------------------------------------------------- reads

    @Override
    int readSegment(MemorySegment dst, long position) throws IOException {
        for (int faults = 0; ; ) {
            Mapping m = current();
            long size = m.size();
            if (dst.byteSize() > size - position) {
                // At or across the end of the mapping: the file may have grown or shrunk since it was mapped.
                if (resize(m)) {
                    continue;
                }
                if (position >= size) {
                    return -1;
                }
            }
            int n = (int) Math.min(dst.byteSize(), size - position);
            boolean interrupted = Thread.currentThread().isInterrupted();
            try {
                // Native memory straight to the JDK's copy, one call level less than through HeapCopies (see
                // readBuffer); HeapCopies is for heap memory.
                if (dst.isNative()) {
                    MemorySegment.copy(m.segment(), position, dst, 0, n);
                } else {
                    HeapCopies.copy(m.segment(), position, dst, 0, n);
                }
                Faults.deliver();
                return n;
            } catch (IllegalStateException e) {
                onClosedMemory(m, e, interrupted);
            } catch (InternalError e) {
                afterFault(m, "read", position, n, e, ++faults);
            }
        }
    }

    @Override
    int readArray(byte[] dst, int offset, int length, long position) throws IOException {
        for (int faults = 0; ; ) {
            Mapping m = current();
            long size = m.size();
            if (length > size - position) {
                if (resize(m)) {
                    continue;
                }
                if (position >= size) {
                    return -1;
                }
            }
            int n = (int) Math.min(length, size - position);
            boolean interrupted = Thread.currentThread().isInterrupted();
            try {
                MemorySegment.copy(m.segment(), ValueLayout.JAVA_BYTE, position, dst, offset, n);
                Faults.deliver();
                return n;
            } catch (IllegalStateException e) {
                onClosedMemory(m, e, interrupted);
            } catch (InternalError e) {
                afterFault(m, "read", position, n, e, ++faults);
            }
        }
    }

    @Override
    int readBuffer(ByteBuffer dst, long position) throws IOException {
        // readBufferAsSegment's body, not a call to it: every call between a caller's loop and the JDK's copy counts
        // against C2's inlining depth (MaxInlineLevel, 15), and the JDK's own copy takes seven levels of it. Where
        // the copy's checks end up past it, they stay a call, and random 512-byte reads through the FileChannel
        // adapter ran at 0.59-0.79 of MMAP's own (docs/benchmarks/2026-11-26-depth-s6.md); each level saved here is
        // one more a caller may spend.
        int n = readSegment(MemorySegment.ofBuffer(dst), position);
        if (n > 0) {
            dst.position(dst.position() + n);
        }
        return n;
    }

    /** What {@link #readMapped} and {@link #readMappedArray} return when the mapping does not cover the read. */
    static final int UNMAPPED = -2;

    /**
     * AUTO's mapped read: the whole of {@code dst} from {@code position} when the mapping covers it, else
     * {@link #UNMAPPED} with nothing done (AUTO then reads by {@code pread}, or has the mapping follow the file).
     * The mapping is read once and its bounds checked once, where AUTO's own check of the coverage followed by
     * {@link #readSegment}'s cost both again on every read. A copy that ends in a replaced or closed mapping or a
     * SIGBUS goes on in {@link #readSegment}, which sorts those out as for MMAP.
     */
    int readMapped(MemorySegment dst, long position) throws IOException {
        Mapping m = mapping;
        long len = dst.byteSize();
        if (m == null || len > m.size() - position) {
            return UNMAPPED;
        }
        boolean interrupted = Thread.currentThread().isInterrupted();
        try {
            if (dst.isNative()) { // as in readSegment
                MemorySegment.copy(m.segment(), position, dst, 0, len);
            } else {
                HeapCopies.copy(m.segment(), position, dst, 0, len);
            }
            Faults.deliver();
            return (int) len;
        } catch (IllegalStateException e) {
            onClosedMemory(m, e, interrupted);
        } catch (InternalError e) {
            afterFault(m, "read", position, len, e, 1);
        }
        return readSegment(dst, position);
    }

    /** {@link #readMapped} into {@code dst[offset, offset + length)}. */
    int readMappedArray(byte[] dst, int offset, int length, long position) throws IOException {
        Mapping m = mapping;
        if (m == null || length > m.size() - position) {
            return UNMAPPED;
        }
        boolean interrupted = Thread.currentThread().isInterrupted();
        try {
            MemorySegment.copy(m.segment(), ValueLayout.JAVA_BYTE, position, dst, offset, length);
            Faults.deliver();
            return length;
        } catch (IllegalStateException e) {
            onClosedMemory(m, e, interrupted);
        } catch (InternalError e) {
            afterFault(m, "read", position, length, e, 1);
        }
        return readArray(dst, offset, length, position);
    }

    // ---------------------------------------------------------------- writes

    /**
     * Decides where a write that ends past the mapping goes, before it is tried again: true when the mapping now
     * covers it (a write inside bytes this handle appended, so in place from now on), false when it goes to
     * {@code pwrite}. Mapping per append would cost an {@code ftruncate}, an {@code mmap} and an {@code munmap} each
     * (a mapping in READ_WRITE mode is never larger than the file: the JDK grows the file to it).
     */
    private boolean coverInPlace(Mapping m, long end) throws IOException {
        return end <= appendedTo && resize(m);
    }

    /** Writes through the channel: the kernel grows the file, and the mapping sees the bytes in the page cache. */
    private int pwrite(MemorySegment src, long position) throws IOException {
        int n = appender.writeSegment(src, position);
        noteAppended(position + n);
        return n;
    }

    private int pwrite(byte[] src, int offset, int length, long position) throws IOException {
        int n = appender.writeArray(src, offset, length, position);
        noteAppended(position + n);
        return n;
    }

    private void noteAppended(long end) {
        // A hint only (which way a later write goes), so a lost race between two appenders costs speed, not bytes.
        if (end > appendedTo) {
            appendedTo = end;
        }
    }

    @Override
    int writeSegment(MemorySegment src, long position) throws IOException {
        long len = src.byteSize();
        for (int faults = 0; ; ) {
            Mapping m = current();
            if (position + len > m.size()) {
                if (coverInPlace(m, position + len)) {
                    continue;
                }
                return pwrite(src, position);
            }
            boolean interrupted = Thread.currentThread().isInterrupted();
            try {
                HeapCopies.copy(src, 0, m.segment(), position, len);
                Faults.deliver();
                return (int) len;
            } catch (IllegalStateException e) {
                onClosedMemory(m, e, interrupted);
            } catch (InternalError e) {
                // A cut file is mapped at its real size; the loop then writes past it with pwrite, growing it back.
                afterFault(m, "write", position, len, e, ++faults);
            }
        }
    }

    @Override
    int writeArray(byte[] src, int offset, int length, long position) throws IOException {
        for (int faults = 0; ; ) {
            Mapping m = current();
            if (position + length > m.size()) {
                if (coverInPlace(m, position + length)) {
                    continue;
                }
                return pwrite(src, offset, length, position);
            }
            boolean interrupted = Thread.currentThread().isInterrupted();
            try {
                MemorySegment.copy(src, offset, m.segment(), ValueLayout.JAVA_BYTE, position, length);
                Faults.deliver();
                return length;
            } catch (IllegalStateException e) {
                onClosedMemory(m, e, interrupted);
            } catch (InternalError e) {
                afterFault(m, "write", position, length, e, ++faults);
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
        Mapping m = current();
        long size = fileSize();
        if (size < m.size()) {
            // Another process cut the file: drop the lost pages from the mapping before a copy touches them.
            resize(m);
        }
        return size;
    }

    @Override
    void truncateFile(long size) throws IOException {
        synchronized (this) {
            Mapping m = current();
            try {
                long real = channel.call(FileChannel::size);
                // Shrink the mapping before the file, so no thread can touch a page past the new end (SIGBUS); and
                // to the real size if another process cut the file shorter still.
                long end = Math.min(size, real);
                if (end < m.size()) {
                    remap(m, end);
                }
                appendedTo = Math.min(appendedTo, end);
                if (size >= real) {
                    return;
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
