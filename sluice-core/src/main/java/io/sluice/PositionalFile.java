package io.sluice;

import io.sluice.internal.FileKinds;
import io.sluice.internal.jfr.Events;
import io.sluice.internal.jfr.Jfr;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * A file read and written at explicit positions, by any number of threads at once, through one of several
 * {@link Engine engines}.
 *
 * <p>The calls mirror {@link java.nio.channels.FileChannel}'s positional ones, and every engine must honour these
 * rules (the contract test suite checks each of them):
 * <ul>
 *   <li>{@code read} transfers up to the requested number of bytes and returns how many it did. It may return fewer
 *       (a <em>short</em> transfer), returns 0 only when 0 bytes were asked for, and returns -1 when
 *       {@code position} is at or past the end of the file. {@link #readFully} loops until every byte is read and
 *       throws {@link EOFException} if the file ends first.</li>
 *   <li>{@code write} transfers up to the given bytes and returns how many it did; {@link #writeFully} loops until
 *       all are written. Writing past the end grows the file; a gap reads as zeros.</li>
 *   <li>The end of the file is its size now, also when another process changed it, with one exception. After
 *       another process cuts the file to a size that is not a multiple of the page size, {@link Engine#MMAP} reads
 *       between the new end and the end of the page holding it as zeros (a full count, not -1), and loses writes
 *       there, until it next looks at the size: {@link #size()}, a read that reaches the end of its mapping, or a
 *       touch of a page the file lost. The kernel keeps that page mapped, and checking the size on every read
 *       would cost a system call per read, which is what mapping saves. {@link Engine#AUTO} answers there as MMAP
 *       when the read went through its mapping and as CHANNEL when it went by {@code pread}. The other engines
 *       return -1 there.</li>
 *   <li>No call moves a file position: there is none. Calls from different threads do not block one another,
 *       except on the CLASSIC engine, whose one lock is the point of it.</li>
 *   <li>A {@link ByteBuffer} is used from its position to its limit, and its position is advanced by the number of
 *       bytes transferred. A {@link MemorySegment} is used whole. A {@code byte[]} slice is
 *       {@code [offset, offset + length)}.</li>
 *   <li>Bad arguments throw before any I/O: a negative position or a read-only destination
 *       {@link IllegalArgumentException}, a {@code byte[]} slice out of range {@link IndexOutOfBoundsException}
 *       (as {@link java.util.Objects#checkFromIndexSize} and the JDK's streams do). Writing to a file opened without
 *       {@link java.nio.file.StandardOpenOption#WRITE} throws {@link NonWritableChannelException}.</li>
 *   <li>After {@link #close()}, every call throws {@link ClosedChannelException}; so does a call that was in flight
 *       on another thread when the file was closed. Closing never crashes the JVM, whatever other threads do.</li>
 *   <li>A thread that is interrupted before or during a call may get
 *       {@link java.nio.channels.ClosedByInterruptException} (its interrupt status stays set), but the file stays
 *       open and usable for every other thread (unlike a plain {@code FileChannel}).</li>
 *   <li>Other I/O failures are {@link IOException}s whose message names the operation, the file, the position
 *       and the length, such as {@code read(path=/data/x, pos=4096, len=8192): Input/output error}.</li>
 *   <li>Only regular files and block devices are opened. Every engine checks the path (following symbolic links,
 *       unless {@link LinkOption#NOFOLLOW_LINKS} is given) before it opens anything and refuses anything else with
 *       a {@link FileSystemException} naming the path and the kind: a directory as the JDK does
 *       ({@code /data: Is a directory}), and a FIFO, socket or character device with
 *       {@code /tmp/f: is a FIFO; positional I/O needs a regular file or a block device} (opening a FIFO for
 *       reading would block until a writer comes, and none of these has positions to read at). Files of
 *       {@code /proc} and {@code /sys} are regular files, often of size 0 while their text is longer: read them
 *       until {@code read} returns -1 rather than up to {@link #size()}.</li>
 * </ul>
 *
 * {@snippet :
 * try (PositionalFile f = PositionalFile.open(Path.of("data.bin"))) {
 *     ByteBuffer page = ByteBuffer.allocateDirect(4096);
 *     int n = f.read(page, 8192);          // up to 4096 bytes from offset 8192, -1 at end of file
 * }
 * }
 */
public abstract class PositionalFile implements Closeable {
    /** The most one call moves at once; larger requests are short transfers (Linux caps one pread below 2 GiB). */
    static final int MAX_TRANSFER = 1 << 30;

    private final Path path;
    private final Engine engine;
    private final OpenSpec spec;

    PositionalFile(Path path, Engine engine, OpenSpec spec) {
        this.path = path;
        this.engine = engine;
        this.spec = spec;
    }

    /**
     * Opens {@code path} with the {@link Engine#best() best} engine for this machine.
     *
     * @param options {@link java.nio.file.StandardOpenOption}s as for {@code FileChannel.open} (READ is implied;
     *                APPEND is refused since every write names its position), {@link LinkOption
     *                #NOFOLLOW_LINKS}, an {@link Advice}, and {@link SluiceOption#DIRECT}, {@link SluiceOption#SQPOLL},
     *                {@link SluiceOption#IOPOLL} (IO_URING only)
     * @throws java.nio.file.NoSuchFileException if the file does not exist and is not to be created
     * @throws FileSystemException naming the path and its kind when it is neither a regular file nor a block device
     *         (see the class comment)
     * @throws IOException if the file cannot be opened
     */
    public static PositionalFile open(Path path, OpenOption... options) throws IOException {
        return open(path, Engine.best(), options);
    }

    /**
     * Opens {@code path} with the given engine.
     *
     * @throws UnsupportedOperationException if the engine is not available here; the message gives the cause
     * @see #open(Path, OpenOption...)
     */
    public static PositionalFile open(Path path, Engine engine, OpenOption... options) throws IOException {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(engine, "engine");
        OpenSpec spec = OpenSpec.parse(options);
        if (engine == Engine.AUTO && (spec.direct() || spec.sqpoll() || spec.iopoll())) {
            engine = Engine.IO_URING; // every transfer of such a file goes through a ring
        }
        engine.requireAvailable();
        if (engine != Engine.IO_URING && (spec.direct() || spec.sqpoll() || spec.iopoll())) {
            String option = spec.direct() ? "DIRECT" : spec.sqpoll() ? "SQPOLL" : "IOPOLL";
            throw new UnsupportedOperationException("SluiceOption." + option
                    + " is supported by the IO_URING engine only, not " + engine);
        }
        requirePositionalKind(path, spec);
        return switch (engine) {
            case CLASSIC -> ClassicFile.open(path, spec);
            case CHANNEL -> new ChannelFile(path, spec);
            case MMAP -> MappedFile.open(path, spec);
            case IO_URING -> UringFile.open(path, spec);
            case AUTO -> AutoFile.open(path, spec);
        };
    }

    /**
     * Refuses, with one {@code stat} and before any engine opens anything, a path that is neither a regular file nor a
     * block device. Opening a FIFO for reading blocks until a writer comes; a FIFO, socket or character device has no
     * positions to read at; and a directory opens for reading but fails every read. A path that cannot be looked at
     * (missing, say, and perhaps to be created) is left to the engine's open, which reports it as it always has.
     */
    private static void requirePositionalKind(Path path, OpenSpec spec) throws IOException {
        if (spec.standard().contains(StandardOpenOption.CREATE_NEW)) {
            return; // the open fails on anything already there, without blocking on a FIFO
        }
        int type = FileKinds.type(path, spec.noFollowLinks());
        if (type == FileKinds.S_IFDIR) {
            throw new FileSystemException(path.toString(), null, "Is a directory");
        }
        String kind = FileKinds.nonPositional(type, true);
        if (kind != null) {
            throw new FileSystemException(path.toString(), null,
                    kind + "; positional I/O needs a regular file or a block device");
        }
    }

    /** The path this file was opened with. */
    public final Path path() {
        return path;
    }

    /** The engine doing the I/O. */
    public final Engine engine() {
        return engine;
    }

    /** Whether this file was opened for writing. */
    public final boolean isWritable() {
        return spec.writable();
    }

    final OpenSpec spec() {
        return spec;
    }

    /** Whether this file is still open. */
    public abstract boolean isOpen();

    // ---------------------------------------------------------------- reads

    /**
     * Reads bytes at {@code position} into {@code dst} from its position to its limit.
     *
     * @return the number of bytes read, possibly fewer than remain in {@code dst}; -1 at end of file
     */
    public final int read(ByteBuffer dst, long position) throws IOException {
        checkPosition(position);
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("read-only destination buffer");
        }
        if (!dst.hasRemaining()) {
            ensureOpen();
            return 0;
        }
        if (Jfr.recording()) {
            return (int) Events.read(path, engine.name(), position, () -> readBuffer(dst, position));
        }
        return readBuffer(dst, position);
    }

    /**
     * Reads bytes at {@code position} into {@code dst}, starting at its first byte.
     *
     * @return the number of bytes read, possibly fewer than {@code dst.byteSize()}; -1 at end of file
     */
    public final int read(MemorySegment dst, long position) throws IOException {
        if (Jfr.recording()) {
            return (int) Events.read(path, engine.name(), position, () -> readUntimed(dst, position));
        }
        return readUntimed(dst, position);
    }

    /** {@link #read(MemorySegment, long)} with no JFR event: for calls whose event is the caller's. */
    final int readUntimed(MemorySegment dst, long position) throws IOException {
        checkPosition(position);
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("read-only destination segment");
        }
        if (dst.byteSize() == 0) {
            ensureOpen();
            return 0;
        }
        return readSegment(capped(dst), position);
    }

    /**
     * Reads up to {@code length} bytes at {@code position} into {@code dst[offset, offset + length)}.
     *
     * @return the number of bytes read, possibly fewer than {@code length}; -1 at end of file
     */
    public final int read(byte[] dst, int offset, int length, long position) throws IOException {
        checkPosition(position);
        Objects.checkFromIndexSize(offset, length, dst.length);
        if (length == 0) {
            ensureOpen();
            return 0;
        }
        if (Jfr.recording()) {
            return (int) Events.read(path, engine.name(), position, () -> readArray(dst, offset, length, position));
        }
        return readArray(dst, offset, length, position);
    }

    /** Reads up to {@code dst.length} bytes at {@code position}; see {@link #read(byte[], int, int, long)}. */
    public final int read(byte[] dst, long position) throws IOException {
        return read(dst, 0, dst.length, position);
    }

    /**
     * Fills {@code dst} from its position to its limit with the bytes at {@code position}.
     *
     * @throws EOFException if the file ends first; {@code dst} then holds the bytes that were there
     */
    public final void readFully(ByteBuffer dst, long position) throws IOException {
        long start = position;
        int wanted = dst.remaining();
        // At least one read, even of nothing, so that bad arguments and a closed file are reported as by read.
        do {
            int n = read(dst, position);
            if (n < 0) {
                throw eof(start, wanted, position - start);
            }
            position += n;
        } while (dst.hasRemaining());
    }

    /**
     * Fills all of {@code dst} with the bytes at {@code position}.
     *
     * @throws EOFException if the file ends first
     */
    public final void readFully(MemorySegment dst, long position) throws IOException {
        long done = 0;
        long wanted = dst.byteSize();
        do {
            int n = read(dst.asSlice(done), position + done);
            if (n < 0) {
                throw eof(position, wanted, done);
            }
            done += n;
        } while (done < wanted);
    }

    /**
     * Fills {@code dst[offset, offset + length)} with the bytes at {@code position}.
     *
     * @throws EOFException if the file ends first
     */
    public final void readFully(byte[] dst, int offset, int length, long position) throws IOException {
        Objects.checkFromIndexSize(offset, length, dst.length);
        int done = 0;
        do {
            int n = read(dst, offset + done, length - done, position + done);
            if (n < 0) {
                throw eof(position, length, done);
            }
            done += n;
        } while (done < length);
    }

    // ---------------------------------------------------------------- writes

    /**
     * Writes the bytes of {@code src} from its position to its limit at {@code position}.
     *
     * @return the number of bytes written, possibly fewer than remained
     */
    public final int write(ByteBuffer src, long position) throws IOException {
        checkWrite(position, src.remaining());
        if (!src.hasRemaining()) {
            ensureOpen();
            return 0;
        }
        if (Jfr.recording()) {
            return (int) Events.write(path, engine.name(), position, () -> writeBuffer(src, position));
        }
        return writeBuffer(src, position);
    }

    /**
     * Writes the bytes of {@code src} at {@code position}.
     *
     * @return the number of bytes written, possibly fewer than {@code src.byteSize()}
     */
    public final int write(MemorySegment src, long position) throws IOException {
        if (Jfr.recording()) {
            return (int) Events.write(path, engine.name(), position, () -> writeUntimed(src, position));
        }
        return writeUntimed(src, position);
    }

    /** {@link #write(MemorySegment, long)} with no JFR event: for calls whose event is the caller's. */
    final int writeUntimed(MemorySegment src, long position) throws IOException {
        checkWrite(position, src.byteSize());
        if (src.byteSize() == 0) {
            ensureOpen();
            return 0;
        }
        return writeSegment(capped(src), position);
    }

    /**
     * Writes {@code src[offset, offset + length)} at {@code position}.
     *
     * @return the number of bytes written, possibly fewer than {@code length}
     */
    public final int write(byte[] src, int offset, int length, long position) throws IOException {
        Objects.checkFromIndexSize(offset, length, src.length);
        checkWrite(position, length);
        if (length == 0) {
            ensureOpen();
            return 0;
        }
        if (Jfr.recording()) {
            return (int) Events.write(path, engine.name(), position, () -> writeArray(src, offset, length, position));
        }
        return writeArray(src, offset, length, position);
    }

    /** Writes all of {@code src} from its position to its limit at {@code position}. */
    public final void writeFully(ByteBuffer src, long position) throws IOException {
        // At least one write, even of nothing, so that bad arguments and a closed file are reported as by write.
        do {
            position += write(src, position);
        } while (src.hasRemaining());
    }

    /** Writes all of {@code src} at {@code position}. */
    public final void writeFully(MemorySegment src, long position) throws IOException {
        long done = 0;
        do {
            done += write(src.asSlice(done), position + done);
        } while (done < src.byteSize());
    }

    /** Writes all of {@code src[offset, offset + length)} at {@code position}. */
    public final void writeFully(byte[] src, int offset, int length, long position) throws IOException {
        Objects.checkFromIndexSize(offset, length, src.length);
        int done = 0;
        do {
            done += write(src, offset + done, length - done, position + done);
        } while (done < length);
    }

    // ---------------------------------------------------------------- vectored (scatter/gather)

    /**
     * Reads bytes at {@code position} into {@code dsts} in order, each from its position to its limit, as one
     * transfer: a buffer is filled before the next one receives anything, and each buffer's position advances by what
     * it received. Empty buffers are skipped.
     *
     * <p>Like the other reads it may transfer fewer bytes than remain, returns 0 only when no buffer has room, and -1
     * when {@code position} is at or past the end of the file; a file that ends in the middle of the vector fills the
     * buffers up to its end and returns that count. More buffers than the kernel takes in one call ({@link #IOV_MAX})
     * are handed over in several calls, as are more than about 1 GiB in total; the call stops at the first short one.
     *
     * <p>How the engines do it: IO_URING with one {@code IORING_OP_READV}; CHANNEL, since {@code FileChannel} has no
     * positional scatter, with one {@code pread} into a pooled buffer copied out when the vector fits in it, otherwise
     * with one positional read per buffer; CLASSIC with one read per buffer under its lock; MMAP with memory copies.
     *
     * @return the number of bytes read, possibly fewer than remain in all the buffers; -1 at end of file
     * @throws IllegalArgumentException if {@code position} is negative or a buffer is read-only, before any I/O
     * @throws NullPointerException if {@code dsts} or one of its elements is null, before any I/O
     */
    public final long read(long position, ByteBuffer... dsts) throws IOException {
        checkPosition(position);
        Objects.requireNonNull(dsts, "dsts");
        for (int i = 0; i < dsts.length; i++) {
            if (element(dsts, "dsts", i).isReadOnly()) {
                throw new IllegalArgumentException("read-only destination buffer (dsts[" + i + "])");
            }
        }
        return timedVectored(true, position, dsts, null);
    }

    /**
     * Reads bytes at {@code position} into each of {@code dsts} in turn, whole; see {@link #read(long, ByteBuffer...)}.
     *
     * @return the number of bytes read, possibly fewer than the segments hold; -1 at end of file
     * @throws IllegalArgumentException if {@code position} is negative or a segment is read-only, before any I/O
     */
    public final long read(long position, MemorySegment... dsts) throws IOException {
        checkPosition(position);
        Objects.requireNonNull(dsts, "dsts");
        for (int i = 0; i < dsts.length; i++) {
            if (element(dsts, "dsts", i).isReadOnly()) {
                throw new IllegalArgumentException("read-only destination segment (dsts[" + i + "])");
            }
        }
        return timedVectored(true, position, null, dsts);
    }

    /**
     * Writes the bytes of {@code srcs} in order, each from its position to its limit, at {@code position} as one
     * transfer (a gather write); each buffer's position advances by what was taken from it. The rules and the way
     * each engine does it are those of {@link #read(long, ByteBuffer...)}, with {@code IORING_OP_WRITEV} and
     * {@code pwrite}.
     *
     * @return the number of bytes written, possibly fewer than remained
     * @throws IllegalArgumentException if {@code position} is negative or position + length overflows, before any I/O
     */
    public final long write(long position, ByteBuffer... srcs) throws IOException {
        Objects.requireNonNull(srcs, "srcs");
        long total = 0;
        for (int i = 0; i < srcs.length; i++) {
            total += element(srcs, "srcs", i).remaining();
        }
        checkWrite(position, total);
        return timedVectored(false, position, srcs, null);
    }

    /**
     * Writes each of {@code srcs} whole, in order, at {@code position}; see {@link #write(long, ByteBuffer...)}.
     *
     * @return the number of bytes written, possibly fewer than the segments hold
     */
    public final long write(long position, MemorySegment... srcs) throws IOException {
        Objects.requireNonNull(srcs, "srcs");
        long total = 0;
        for (int i = 0; i < srcs.length; i++) {
            total += element(srcs, "srcs", i).byteSize();
            if (total < 0) {
                throw new IllegalArgumentException("the segments hold more than Long.MAX_VALUE bytes");
            }
        }
        checkWrite(position, total);
        return timedVectored(false, position, null, srcs);
    }

    /** The most buffers one vectored system call takes on Linux ({@code UIO_MAXIOV}); longer vectors are split. */
    public static final int IOV_MAX = 1024;

    /** {@link #vectored}, as one JFR event while a recording runs. */
    private long timedVectored(boolean read, long position, ByteBuffer[] bufs, MemorySegment[] segs)
            throws IOException {
        if (!Jfr.recording()) {
            return vectored(read, position, bufs, segs);
        }
        return read ? Events.read(path, engine.name(), position, () -> vectored(true, position, bufs, segs))
                : Events.write(path, engine.name(), position, () -> vectored(false, position, bufs, segs));
    }

    /**
     * Hands the vector to the engine in groups of at most {@link #IOV_MAX} elements and about {@link #MAX_TRANSFER}
     * bytes, each group starting with a non-empty element, stopping at the first short group. Exactly one of
     * {@code bufs} and {@code segs} is given; arguments are checked.
     */
    private long vectored(boolean read, long position, ByteBuffer[] bufs, MemorySegment[] segs) throws IOException {
        int n = bufs != null ? bufs.length : segs.length;
        long total = 0;
        int i = 0;
        for (;;) {
            while (i < n && length(bufs, segs, i) == 0) {
                i++; // a group never starts with an empty element, so an engine always has bytes to move
            }
            if (i == n) {
                break;
            }
            int end = i;
            long bytes = 0;
            while (end < n && end - i < IOV_MAX && bytes < MAX_TRANSFER) {
                bytes += length(bufs, segs, end++);
            }
            long r;
            if (bufs != null) {
                r = read ? readBuffers(bufs, i, end - i, position + total)
                        : writeBuffers(bufs, i, end - i, position + total);
            } else {
                r = read ? readSegments(segs, i, end - i, position + total)
                        : writeSegments(segs, i, end - i, position + total);
            }
            if (r < 0) {
                return total == 0 ? -1 : total;
            }
            total += r;
            if (r < bytes) {
                return total;
            }
            i = end;
        }
        if (total == 0) {
            ensureOpen(); // nothing to move: still report a closed file, as the single-buffer calls do
        }
        return total;
    }

    private static <T> T element(T[] array, String name, int i) {
        T t = array[i];
        if (t == null) {
            throw new NullPointerException(name + "[" + i + "] is null");
        }
        return t;
    }

    private static long length(ByteBuffer[] bufs, MemorySegment[] segs, int i) {
        return bufs != null ? bufs[i].remaining() : segs[i].byteSize();
    }

    // ---------------------------------------------------------------- asynchronous

    /**
     * Starts a read of up to {@code dst.byteSize()} bytes at {@code position}; the future completes with the number
     * of bytes read (-1 at end of file) or with the {@link IOException}. The IO_URING engine submits it and returns at
     * once, completing the future on its completion thread (keep dependent actions short, or use the
     * {@code ...Async} variants of {@link CompletableFuture}); other engines run the read before returning.
     *
     * <p>Native memory is handed to the kernel as it is: keep {@code dst} allocated, and do not touch it, until the
     * future completes. Heap memory is copied through Sluice's own buffers and may be read in a shorter transfer.
     */
    public final CompletableFuture<Integer> readAsync(MemorySegment dst, long position) {
        if (Jfr.recording()) {
            return Events.readAsync(path, engine.name(), position, () -> startReadAsync(dst, position));
        }
        return startReadAsync(dst, position);
    }

    /**
     * Starts a write of {@code src} at {@code position}; the future completes with the number of bytes written.
     * The same rules as {@link #readAsync} apply.
     */
    public final CompletableFuture<Integer> writeAsync(MemorySegment src, long position) {
        if (Jfr.recording()) {
            return Events.writeAsync(path, engine.name(), position, () -> startWriteAsync(src, position));
        }
        return startWriteAsync(src, position);
    }

    /** The engine's {@link #readAsync}, with no JFR event of its own: by default the read, done before returning. */
    CompletableFuture<Integer> startReadAsync(MemorySegment dst, long position) {
        try {
            return CompletableFuture.completedFuture(readUntimed(dst, position));
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** The engine's {@link #writeAsync}, with no JFR event of its own: by default the write, done before returning. */
    CompletableFuture<Integer> startWriteAsync(MemorySegment src, long position) {
        try {
            return CompletableFuture.completedFuture(writeUntimed(src, position));
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    // ---------------------------------------------------------------- the rest

    /** The current size of the file in bytes. */
    public abstract long size() throws IOException;

    /**
     * Cuts the file to {@code size} bytes; does nothing if it is already that small (as {@code FileChannel}).
     *
     * @throws IllegalArgumentException if {@code size} is negative
     */
    public final void truncate(long size) throws IOException {
        if (size < 0) {
            throw new IllegalArgumentException("negative size: " + size);
        }
        if (!isWritable()) {
            ensureOpen();
            throw new NonWritableChannelException();
        }
        truncateFile(size);
    }

    /**
     * Makes every byte written so far durable on the storage device, and with {@code metadata} also the file's
     * metadata (size, times).
     */
    public abstract void force(boolean metadata) throws IOException;

    /**
     * Closes the file. Calls in flight on other threads end with {@link ClosedChannelException}. Closing twice does
     * nothing. A file opened with {@link java.nio.file.StandardOpenOption#DELETE_ON_CLOSE} is deleted now.
     */
    @Override
    public final void close() throws IOException {
        if (closeFile() && spec.deleteOnClose()) {
            Files.deleteIfExists(path);
        }
    }

    /**
     * Runs the requests {@code [from, to)} of {@code batch}, which all name this file. Synchronous engines run them
     * one by one in order; an engine with a submission queue overrides this to hand them over at once.
     */
    void submit(IoBatch batch, int from, int to) {
        for (int i = from; i < to; i++) {
            batch.runOne(i);
        }
    }

    @Override
    public String toString() {
        return engine + "[" + path + "]";
    }

    // ---------------------------------------------------------------- what an engine implements

    /** {@code dst} is writable and has remaining bytes; {@code position} is valid. */
    abstract int readBuffer(ByteBuffer dst, long position) throws IOException;

    /** {@code dst} is writable, 1 to {@link #MAX_TRANSFER} bytes long. */
    abstract int readSegment(MemorySegment dst, long position) throws IOException;

    /** The slice is in range and not empty. */
    abstract int readArray(byte[] dst, int offset, int length, long position) throws IOException;

    abstract int writeBuffer(ByteBuffer src, long position) throws IOException;

    abstract int writeSegment(MemorySegment src, long position) throws IOException;

    abstract int writeArray(byte[] src, int offset, int length, long position) throws IOException;

    /** {@code size} is not negative and the file is writable. */
    abstract void truncateFile(long size) throws IOException;

    /** Closes; returns whether this call was the one that closed it. */
    abstract boolean closeFile() throws IOException;

    /** Throws {@link ClosedChannelException} if closed. */
    abstract void ensureOpen() throws ClosedChannelException;

    /**
     * Reads into {@code dsts[offset, offset + count)} in order, advancing each buffer's position; {@code dsts[offset]}
     * has room, later ones may not, {@code count} is at most {@link #IOV_MAX}, and the room of all but the last
     * buffer adds up to less than {@link #MAX_TRANSFER}. Returns the bytes read or -1 at end of file. This default reads one buffer at a
     * time and stops at the first short read, which is what a vectored read is for an engine without one.
     */
    long readBuffers(ByteBuffer[] dsts, int offset, int count, long position) throws IOException {
        long total = 0;
        for (int i = offset; i < offset + count; i++) {
            ByteBuffer b = dsts[i];
            int want = b.remaining();
            if (want == 0) {
                continue;
            }
            int r = readBuffer(b, position + total);
            if (r < 0) {
                return total == 0 ? -1 : total;
            }
            total += r;
            if (r < want || total >= MAX_TRANSFER) {
                break;
            }
        }
        return total;
    }

    /** {@link #readBuffers} for segments, each read whole (capped at {@link #MAX_TRANSFER}). */
    long readSegments(MemorySegment[] dsts, int offset, int count, long position) throws IOException {
        long total = 0;
        for (int i = offset; i < offset + count; i++) {
            MemorySegment s = dsts[i];
            if (s.byteSize() == 0) {
                continue;
            }
            MemorySegment c = capped(s);
            int r = readSegment(c, position + total);
            if (r < 0) {
                return total == 0 ? -1 : total;
            }
            total += r;
            if (r < c.byteSize() || c != s || total >= MAX_TRANSFER) {
                break;
            }
        }
        return total;
    }

    /** The gather counterpart of {@link #readBuffers}: the file is writable, the range does not overflow. */
    long writeBuffers(ByteBuffer[] srcs, int offset, int count, long position) throws IOException {
        long total = 0;
        for (int i = offset; i < offset + count; i++) {
            ByteBuffer b = srcs[i];
            int want = b.remaining();
            if (want == 0) {
                continue;
            }
            int r = writeBuffer(b, position + total);
            total += r;
            if (r < want || total >= MAX_TRANSFER) {
                break;
            }
        }
        return total;
    }

    /** The gather counterpart of {@link #readSegments}. */
    long writeSegments(MemorySegment[] srcs, int offset, int count, long position) throws IOException {
        long total = 0;
        for (int i = offset; i < offset + count; i++) {
            MemorySegment s = srcs[i];
            if (s.byteSize() == 0) {
                continue;
            }
            MemorySegment c = capped(s);
            int r = writeSegment(c, position + total);
            total += r;
            if (r < c.byteSize() || c != s || total >= MAX_TRANSFER) {
                break;
            }
        }
        return total;
    }

    /** {@link #readBuffer} for engines whose natural form is a segment: the buffer's remaining bytes as one. */
    final int readBufferAsSegment(ByteBuffer dst, long position) throws IOException {
        int n = readSegment(MemorySegment.ofBuffer(dst), position);
        if (n > 0) {
            dst.position(dst.position() + n);
        }
        return n;
    }

    /** {@link #writeBuffer} for engines whose natural form is a segment. */
    final int writeBufferAsSegment(ByteBuffer src, long position) throws IOException {
        int n = writeSegment(MemorySegment.ofBuffer(src), position);
        src.position(src.position() + n);
        return n;
    }

    // ---------------------------------------------------------------- shared checks and messages

    static void checkPosition(long position) {
        if (position < 0) {
            throw new IllegalArgumentException("negative position: " + position);
        }
    }

    void checkWrite(long position, long length) throws ClosedChannelException {
        checkPosition(position);
        if (position + length < 0) {
            throw new IllegalArgumentException("position + length overflows: " + position + " + " + length);
        }
        if (!isWritable()) {
            ensureOpen();
            throw new NonWritableChannelException();
        }
    }

    static MemorySegment capped(MemorySegment s) {
        return s.byteSize() > MAX_TRANSFER ? s.asSlice(0, MAX_TRANSFER) : s;
    }

    private EOFException eof(long position, long wanted, long got) {
        return new EOFException("readFully(path=" + path + ", pos=" + position + ", len=" + wanted
                + "): end of file after " + got + " bytes");
    }

    /**
     * Wraps a failure so its message says what was being done: {@code read(path=..., pos=..., len=...): cause}.
     * Closed-channel exceptions pass through unchanged, since callers test for their type.
     */
    final IOException failure(String op, long position, long length, IOException cause) {
        if (cause instanceof ClosedChannelException || cause instanceof EOFException) {
            return cause;
        }
        return new IOException(op + "(path=" + path + ", pos=" + position + ", len=" + length + "): "
                + cause.getMessage(), cause);
    }
}
