package io.sluice;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
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
     *                APPEND is refused since every write names its position), {@link java.nio.file.LinkOption
     *                #NOFOLLOW_LINKS}, an {@link Advice}, and {@link SluiceOption#DIRECT} (IO_URING only)
     * @throws java.nio.file.NoSuchFileException if the file does not exist and is not to be created
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
        engine.requireAvailable();
        if (spec.direct() && engine != Engine.IO_URING) {
            throw new UnsupportedOperationException("SluiceOption.DIRECT is supported by the IO_URING engine only, not "
                    + engine);
        }
        return switch (engine) {
            case CLASSIC -> ClassicFile.open(path, spec);
            case CHANNEL -> new ChannelFile(path, spec);
            case MMAP -> MappedFile.open(path, spec);
            case IO_URING -> UringFile.open(path, spec);
        };
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
        return readBuffer(dst, position);
    }

    /**
     * Reads bytes at {@code position} into {@code dst}, starting at its first byte.
     *
     * @return the number of bytes read, possibly fewer than {@code dst.byteSize()}; -1 at end of file
     */
    public final int read(MemorySegment dst, long position) throws IOException {
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
        return writeBuffer(src, position);
    }

    /**
     * Writes the bytes of {@code src} at {@code position}.
     *
     * @return the number of bytes written, possibly fewer than {@code src.byteSize()}
     */
    public final int write(MemorySegment src, long position) throws IOException {
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
    public CompletableFuture<Integer> readAsync(MemorySegment dst, long position) {
        try {
            return CompletableFuture.completedFuture(read(dst, position));
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Starts a write of {@code src} at {@code position}; the future completes with the number of bytes written.
     * The same rules as {@link #readAsync} apply.
     */
    public CompletableFuture<Integer> writeAsync(MemorySegment src, long position) {
        try {
            return CompletableFuture.completedFuture(write(src, position));
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

    private void checkWrite(long position, long length) throws ClosedChannelException {
        checkPosition(position);
        if (position + length < 0) {
            throw new IllegalArgumentException("position + length overflows: " + position + " + " + length);
        }
        if (!isWritable()) {
            ensureOpen();
            throw new NonWritableChannelException();
        }
    }

    private static MemorySegment capped(MemorySegment s) {
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
