package io.sluice;

import io.sluice.internal.Errno;
import io.sluice.internal.Faults;
import io.sluice.internal.FileKinds;
import io.sluice.internal.Native;
import io.sluice.internal.jfr.Events;
import io.sluice.internal.jfr.Jfr;
import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Appends bytes to a file through a memory-mapped window: a write is a memory copy, with no system call, until the
 * window is full; then the window is unmapped and the next one mapped, growing the file by a window at a time.
 *
 * <p>Why: a {@code write} system call costs about a microsecond whatever its size, so small writes (a log record,
 * a 1 KiB chunk) through {@link java.io.FileOutputStream} spend most of their time entering the kernel. Here the
 * system calls are a few per window ({@value #DEFAULT_WINDOW_SIZE_TEXT} by default) and, with native access, one per
 * 2 MiB that asks the kernel for the next pages at once.
 *
 * <h2>The file</h2>
 * <ul>
 *   <li>Writing begins at the end of the file (at 0 when it was just created or truncated), or at the position given
 *       to {@link #open(Path, long, long, OpenOption...)}, and moves forward with each write. {@link #position(long)}
 *       moves it elsewhere, to overwrite bytes already written (a header rewritten once the body is known, say) or
 *       to leave a gap.</li>
 *   <li>While the writer is open the file is longer than the bytes written: it is grown to the end of the current
 *       window, and the bytes past {@link #size()} read as zeros. {@link #close()} cuts the file to exactly
 *       {@link #size()}: where writing ended, or, after a move back, the furthest byte written.</li>
 *   <li>{@link #force()} makes every byte written so far durable: after it returns, those bytes survive a crash of
 *       the process or of the machine.</li>
 * </ul>
 *
 * <h2>After a crash</h2>
 * If the process dies before {@link #close()}, the file keeps its grown length, up to one window past the last byte
 * written: the tail past the last {@link #force()} is undefined. After the process alone dies (the machine keeps
 * running), that tail holds every byte written before the death, then zeros; after the machine dies, bytes past the
 * last {@code force} may be lost or zero, and the file may be shorter or longer. The writer keeps no length record of
 * its own, so a reader finds the end with its own framing: a length prefix and a checksum per record, for instance,
 * where a zero length (the padding) or a bad checksum marks the end. To append again, cut the file there and open a
 * writer at the end:
 *
 * {@snippet :
 * long end = lastValidRecordEnd(path);                 // the caller's own framing
 * try (FileChannel c = FileChannel.open(path, StandardOpenOption.WRITE)) {
 *     c.truncate(end);
 * }
 * try (MappedWriter w = MappedWriter.open(path, StandardOpenOption.WRITE)) {   // continues at end
 *     w.write(record);
 *     w.force();
 * }
 * }
 *
 * <h2>Threads</h2>
 * Not thread-safe: one thread at a time writes, forces and closes (a writer may move to another thread with the
 * usual hand-over, such as a queue or a lock). Misuse from several threads at once can scramble the bytes written but
 * cannot crash the JVM: each window lives in a shared {@link Arena}, so a copy racing with an unmap fails instead.
 *
 * <h2>Failures</h2>
 * <ul>
 *   <li>When the file system cannot supply the pages of the window (the disk is full, a quota is exhausted) or
 *       another process cut the file, the write fails with an {@link IOException} naming the file, position and
 *       length. With native access ({@code --enable-native-access}) on Linux 5.14 or later the pages past the file's
 *       end are asked for ahead of the copies, 2 MiB at a time, and a full disk is a plain error from that request.
 *       Otherwise, and over bytes the file already held (a sparse file's holes, a copy-on-write file system), the
 *       kernel raises SIGBUS in the copy, which the JVM turns into an {@link InternalError} and the writer into the
 *       {@code IOException}, in interpreted and compiled code alike (see {@link Faults#deliver}).</li>
 *   <li>A write that fails, for any reason, is not counted: {@link #position()} stays where it was before the call,
 *       even when part of the bytes reached the file before the failure, and {@link #close()} cuts off those that
 *       lie past {@link #size()} (those that overwrote earlier bytes, after a move back, stay). Pages
 *       that another process cut stay lost: writes into them keep failing, and the writer never grows the file back
 *       over them, since bytes it had acknowledged there are gone.</li>
 *   <li>A thread interrupt does not close the file. Copies into the window do not look at the interrupt status;
 *       the next call that needs the kernel (mapping the next window, {@link #force()}) fails with
 *       {@link InterruptedIOException} and leaves the interrupt status set. The writer stays usable: once the
 *       status is cleared the same call can be made again. {@link #close()} always completes, interrupt or not.</li>
 *   <li>Other failures are {@link IOException}s naming the operation, the file, the position and the length.</li>
 * </ul>
 *
 * {@snippet :
 * try (MappedWriter w = MappedWriter.open(Path.of("log.bin"))) {   // created, or truncated if it exists
 *     for (byte[] record : records) {
 *         w.write(record);                                         // a memory copy
 *     }
 *     w.force();                                                   // durable up to w.position()
 * }                                                                // the file is cut to w.position()
 * }
 */
public final class MappedWriter implements Closeable {
    /** The window size {@link #open(Path, OpenOption...)} uses: 64 MiB. */
    public static final long DEFAULT_WINDOW_SIZE = 64L << 20;

    /** The smallest window: one page. */
    public static final long MIN_WINDOW_SIZE = 4096;

    private static final String DEFAULT_WINDOW_SIZE_TEXT = "64 MiB";
    /** Bytes made writable ahead of the copies at once: one huge page. */
    private static final long STEP = 2L << 20;
    private static final String STEP_TEXT = "2 MiB";
    private static final MemorySegment NO_WINDOW = MemorySegment.ofArray(new byte[0]);

    private final Path path;
    private final ReopeningChannel channel;
    private final long windowSize;

    /** The mapped window, or {@link #NO_WINDOW}; its arena is null exactly when there is none. */
    private MemorySegment window = NO_WINDOW;
    private Arena arena;
    /** The file offset of the window's first byte (when there is no window: the writer's position). */
    private long windowStart;
    /** Bytes of the window written; the writer's position is {@code windowStart + offset}. */
    private long offset;
    /**
     * How far into the window writes may go without the slow path: the end of the part made writable so far (up to
     * the window's size), 0 when there is no window, -1 once closed.
     */
    private long limit;
    /**
     * Where the bytes {@link #force()} has not yet made durable may begin: writes land at or past the position, and
     * a move back lowers this to the new position.
     */
    private long forced;
    /**
     * The furthest byte written before the last move ({@link #position(long)}), or the start: with the position,
     * the file's length once closed ({@link #size()}). Kept up when the writer moves, not by the writes.
     */
    private long highWater;
    /** Where the last move put the writer (the start before any): a position past it means bytes were written. */
    private long movedTo;
    private boolean closed;
    /** Whether to ask the kernel for pages ahead of the copies: native access is enabled, and the kernel knows how. */
    private boolean populate = Native.isEnabled();
    /** Bytes from the window's start that the file already held when the window was mapped (see prepareMore). */
    private long existing;

    private MappedWriter(Path path, ReopeningChannel channel, long windowSize, long position) {
        this.path = path;
        this.channel = channel;
        this.windowSize = windowSize;
        this.windowStart = position;
        this.forced = position;
        this.highWater = position;
        this.movedTo = position;
    }

    /**
     * Opens {@code path} for appending with windows of {@value #DEFAULT_WINDOW_SIZE_TEXT}: writing begins at the end
     * of the file.
     *
     * @param options as for {@link java.nio.file.Files#newOutputStream}: none means {@code CREATE} and
     *                {@code TRUNCATE_EXISTING}; otherwise any of {@code CREATE}, {@code CREATE_NEW},
     *                {@code TRUNCATE_EXISTING}, {@code WRITE}, {@code APPEND} (writing always appends),
     *                {@code READ}, {@code SPARSE} and {@link LinkOption#NOFOLLOW_LINKS}
     * @throws java.nio.file.NoSuchFileException if the file does not exist and is not to be created
     * @throws FileSystemException naming the path and its kind when it is not a regular file (a FIFO, a device, a
     *         directory)
     * @throws UnsupportedOperationException for other options
     */
    public static MappedWriter open(Path path, OpenOption... options) throws IOException {
        return open(path, -1, DEFAULT_WINDOW_SIZE, options);
    }

    /**
     * Opens {@code path} with windows of {@code windowSize} bytes, writing from {@code position}: bytes of the file
     * from there on are overwritten as the writer goes, and {@link #close()} cuts the file at {@link #size()}.
     *
     * @param position where the first write lands, or -1 for the end of the file. A position past the end leaves a
     *                 gap that reads as zeros.
     * @param windowSize bytes mapped at once; the file grows by this much at a time. Larger windows mean fewer
     *                   system calls and a longer tail after a crash. At least {@value #MIN_WINDOW_SIZE}.
     * @throws IllegalArgumentException if {@code position} is below -1 or {@code windowSize} is too small
     * @see #open(Path, OpenOption...)
     */
    public static MappedWriter open(Path path, long position, long windowSize, OpenOption... options)
            throws IOException {
        Objects.requireNonNull(path, "path");
        if (position < -1) {
            throw new IllegalArgumentException("position must be -1 (the end) or at least 0: " + position);
        }
        if (windowSize < MIN_WINDOW_SIZE) {
            throw new IllegalArgumentException("window size must be at least " + MIN_WINDOW_SIZE + ": " + windowSize);
        }
        OpenSpec spec = spec(options);
        if (!spec.standard().contains(StandardOpenOption.CREATE_NEW)) {
            // As the engines refuse them at open, by kind: mapping would fail later and blame the file system.
            String kind = FileKinds.nonPositional(FileKinds.type(path, spec.noFollowLinks()), false);
            if (kind != null) {
                throw new FileSystemException(path.toString(), null, kind + "; a MappedWriter needs a regular file");
            }
        }
        ReopeningChannel channel = new ReopeningChannel(path, spec);
        boolean success = false;
        try {
            long start = position >= 0 ? position : channel.call(FileChannel::size);
            MappedWriter w = new MappedWriter(path, channel, windowSize, start);
            success = true;
            return w;
        } finally {
            if (!success) {
                channel.close();
            }
        }
    }

    /** The options for the channel: always READ and WRITE, since a READ_WRITE mapping needs both. */
    private static OpenSpec spec(OpenOption... options) {
        List<OpenOption> out = new ArrayList<>(List.of(StandardOpenOption.READ, StandardOpenOption.WRITE));
        if (options.length == 0) {
            out.add(StandardOpenOption.CREATE);
            out.add(StandardOpenOption.TRUNCATE_EXISTING);
        }
        for (OpenOption o : options) {
            // Tests in a row rather than a pattern switch, as in OpenSpec.parse: no bootstrap at the first open.
            if (o == null) {
                throw new NullPointerException("null open option");
            } else if (o == StandardOpenOption.APPEND) {
                // Every write appends already; APPEND on the channel itself would refuse the mapping.
            } else if (o == StandardOpenOption.CREATE || o == StandardOpenOption.CREATE_NEW
                    || o == StandardOpenOption.TRUNCATE_EXISTING || o == StandardOpenOption.WRITE
                    || o == StandardOpenOption.READ || o == StandardOpenOption.SPARSE
                    || o == LinkOption.NOFOLLOW_LINKS) {
                out.add(o);
            } else {
                throw new UnsupportedOperationException("unsupported open option for MappedWriter: " + o);
            }
        }
        return OpenSpec.parse(out.toArray(new OpenOption[0]));
    }

    /** The {@code engine} field of this writer's {@code io.sluice.FileWrite} events. */
    private static final String EVENT_ENGINE = "MappedWriter";

    /** The path this writer was opened with. */
    public Path path() {
        return path;
    }

    /** The number of bytes mapped at once. */
    public long windowSize() {
        return windowSize;
    }

    /** The file offset the next write lands at: the start position plus every byte written since. */
    public long position() {
        return windowStart + offset;
    }

    /**
     * Moves where the next write lands to {@code newPosition}, as {@link FileChannel#position(long)} does: bytes
     * written stay, a later write overwrites them, and a position past {@link #size()} leaves a gap that reads as
     * zeros once something is written past it. The current window is kept when {@code newPosition} lies within the
     * part of it already in use, so moving back to rewrite what was just written maps nothing; otherwise the window
     * is unmapped and the next write maps the one holding the new position.
     *
     * @return this writer
     * @throws IllegalArgumentException if {@code newPosition} is negative
     * @throws java.nio.channels.ClosedChannelException if the writer is closed
     */
    public MappedWriter position(long newPosition) throws IOException {
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position for " + path + ": " + newPosition);
        }
        ensureOpen();
        long pos = position();
        if (newPosition == pos) {
            return this;
        }
        highWater = size();
        movedTo = newPosition;
        forced = Math.min(forced, newPosition);
        if (arena != null && newPosition >= windowStart && newPosition - windowStart <= limit) {
            // Within the part of the window the fast path may write: limit stays, and so do the pages behind it.
            offset = newPosition - windowStart;
        } else {
            unmapWindow();
            windowStart = newPosition;
        }
        return this;
    }

    /**
     * The length the file will have once this writer is closed: the end of the furthest byte written, or where the
     * writer started if it wrote nothing. That is {@link #position()} unless {@link #position(long)} moved it.
     */
    public long size() {
        long pos = position();
        // Positions move forward only by writes: past the last move's target, the bytes up to the position are written.
        return pos > movedTo ? Math.max(highWater, pos) : highWater;
    }

    /** Whether this writer is still open. */
    public boolean isOpen() {
        return !closed;
    }

    // ---------------------------------------------------------------- writes

    /** Writes all of {@code src}. */
    public void write(byte[] src) throws IOException {
        write(src, 0, src.length);
    }

    /**
     * Writes {@code src[offset, offset + length)}.
     *
     * @throws IndexOutOfBoundsException if the slice is out of range
     */
    public void write(byte[] src, int offset, int length) throws IOException {
        long at = this.offset;
        if (length <= limit - at && !Jfr.recording()) {
            // The common case, tested first so that it is all a caller's compiled loop inlines: the bytes fit in the
            // window and no recording runs. One copy, which checks the slice against src itself (a negative length
            // passes the test above and fails there, with the IndexOutOfBoundsException documented).
            copyIn(src, offset, at, length);
            return;
        }
        if (Jfr.recording()) {
            Events.write(path, EVENT_ENGINE, position(), () -> {
                append(src, offset, length);
                return length;
            });
        } else {
            append(src, offset, length);
        }
    }

    private void append(byte[] src, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, src.length);
        long at = this.offset;
        if (length <= limit - at) {
            copyIn(src, offset, at, length);
            return;
        }
        writeAcross(MemorySegment.ofArray(src).asSlice(offset, length));
    }

    /** Copies {@code src[offset, offset + length)} to the window at {@code at}, which the caller checked it fits. */
    private void copyIn(byte[] src, int offset, long at, int length) throws IOException {
        try {
            MemorySegment.copy(src, offset, window, ValueLayout.JAVA_BYTE, at, length);
            Faults.deliver();
        } catch (IllegalStateException e) {
            throw closedOr(e);
        } catch (InternalError e) {
            throw sigbus(windowStart + at, length, e);
        }
        this.offset = at + length;
    }

    /** Writes the bytes of {@code src} from its position to its limit, and moves its position to its limit. */
    public void write(ByteBuffer src) throws IOException {
        int n = src.remaining();
        if (src.hasArray()) {
            write(src.array(), src.arrayOffset() + src.position(), n);
        } else {
            write(MemorySegment.ofBuffer(src));
        }
        src.position(src.position() + n);
    }

    /** Writes all of {@code src}. */
    public void write(MemorySegment src) throws IOException {
        if (Jfr.recording()) {
            Events.write(path, EVENT_ENGINE, position(), () -> {
                append(src);
                return src.byteSize();
            });
        } else {
            append(src);
        }
    }

    private void append(MemorySegment src) throws IOException {
        long length = src.byteSize();
        long at = this.offset;
        if (length <= limit - at) {
            try {
                HeapCopies.copy(src, 0, window, at, length);
                Faults.deliver();
            } catch (IllegalStateException e) {
                throw closedOr(e);
            } catch (InternalError e) {
                throw sigbus(windowStart + at, length, e);
            }
            this.offset = at + length;
            return;
        }
        writeAcross(src);
    }

    /**
     * The slow path: no window yet, or the bytes run past its end. Maps windows as needed. On any failure the writer
     * goes back to where the call found it, since the caller is told that the write failed.
     */
    private void writeAcross(MemorySegment src) throws IOException {
        ensureOpen();
        long start = position();
        long done = 0;
        long length = src.byteSize();
        boolean success = false;
        try {
            while (done < length) {
                if (offset == limit) {
                    if (arena != null && limit < window.byteSize()) {
                        prepareMore(start, length);
                    } else {
                        nextWindow(start);
                    }
                }
                long n = Math.min(length - done, limit - offset);
                try {
                    HeapCopies.copy(src, done, window, offset, n);
                    Faults.deliver();
                } catch (IllegalStateException e) {
                    throw closedOr(e);
                } catch (InternalError e) {
                    throw sigbus(start, length, e);
                }
                offset += n;
                done += n;
            }
            success = true;
        } finally {
            if (!success && !closed) {
                rewind(start);
            }
        }
    }

    /** Moves the writer back to {@code pos}, at or before its position, dropping the window if it starts later. */
    private void rewind(long pos) {
        if (pos >= windowStart && arena != null) {
            offset = pos - windowStart;
        } else {
            unmapWindow();
            windowStart = pos;
        }
    }

    /**
     * Unmaps the full window (if any) and maps the one holding {@link #position()}, growing the file to its end.
     *
     * @param resumeAt where the writer stands if this fails: the start of the write that needed the window
     */
    private void nextWindow(long resumeAt) throws IOException {
        long pos = position();
        unmapWindow();
        long start = pos - pos % windowSize;
        Arena a = Arena.ofShared();
        boolean success = false;
        try {
            MemorySegment w;
            FileChannel c = channel(start, "mmap", windowSize, resumeAt);
            long had = c.size();
            try {
                w = c.map(FileChannel.MapMode.READ_WRITE, start, windowSize, a);
            } catch (ClosedChannelException e) {
                recover(c, e, start, "mmap", windowSize, resumeAt);
                w = channel.get().map(FileChannel.MapMode.READ_WRITE, start, windowSize, a);
            }
            window = w;
            arena = a;
            windowStart = start;
            existing = Math.max(0, Math.min(windowSize, had - start));
            offset = pos - start;
            limit = offset;
            // No MADV_HUGEPAGE. 2 MiB folios for a new file's pages save a write fault per 4 KiB page, but where the
            // memory comes from decides the rest: with the hint, 4 KiB writes to a new file ran at 695 MB/s against
            // 1,477 without (`sluice bench write`, every writer), though it was ~15% ahead with only one other writer
            // between its runs; docs/benchmarks/2026-11-24-writer-hint.md.
            success = true;
        } catch (ClosedByInterruptException e) {
            throw interrupted("mmap", start, windowSize, resumeAt, e);
        } catch (ClosedChannelException | InterruptedIOException e) {
            throw e;
        } catch (IOException e) {
            throw Mapped.mapFailure(path, start, windowSize, e);
        } finally {
            if (!success) {
                a.close();
            }
        }
    }

    /**
     * Makes the next {@value #STEP_TEXT} of the window writable at once ({@link Mapped#populateForWriting}) where it
     * lies past the file's end, so that a full disk is a plain error here rather than SIGBUS in a copy. Without native
     * access, on a kernel that does not know the call, and over bytes the file already held, the pages are faulted
     * in as the copies touch them.
     */
    private void prepareMore(long writeStart, long writeLength) throws IOException {
        long from = limit;
        long to = Math.min(window.byteSize(), (from / STEP + 1) * STEP);
        // Only the part past the file's end: over bytes the file already held, the copies fault the pages in, as the
        // seed's writers do. How the file's pages came into the page cache decides what a request costs there: 1 KiB
        // overwrites of a cached file written by write() took 1.38-1.39 times as long as MappedByteBuffer.put's with
        // it and 1.02-1.04 without; of one whose pages were made through mappings, 0.95-0.99 with it and 1.05
        // without (scripts/MappedWriterCopies.java, docs/benchmarks/2026-11-26-deciding-s7.md). Past the end, new
        // pages are made either way, and asking for them at once makes a full disk a plain error.
        long ask = Math.max(from, existing);
        if (populate && ask < to) {
            int errno = Mapped.populateForWriting(window, ask, to);
            if (errno == Errno.EFAULT) {
                throw Mapped.noPages(path, writeStart, writeLength, windowStart + ask, to - ask, errno);
            }
            if (errno == Errno.EINVAL || errno < 0) {
                // A kernel before 5.14, or no native access: the copies fault the pages in, from now on.
                populate = false;
            }
            // Anything else (EINTR with a signal pending, ENOMEM) leaves these pages to be faulted in by the copies.
        }
        limit = to;
    }

    /** Drops the current window; the writer keeps its position. */
    private void unmapWindow() {
        if (arena != null) {
            long pos = position();
            Arena a = arena;
            arena = null;
            window = NO_WINDOW;
            windowStart = pos;
            offset = 0;
            limit = 0;
            // Unmapping leaves the written pages dirty in the page cache: nothing is lost, force() still reaches
            // them through the file.
            a.close();
        }
    }

    // ---------------------------------------------------------------- force and close

    /**
     * Makes every byte written so far durable on the storage device: when this returns, bytes up to
     * {@link #size()} survive a crash of the process or the machine. Costs a device flush; call it as rarely
     * as the caller's durability needs allow.
     *
     * @throws InterruptedIOException if the thread is interrupted; the writer stays open and usable
     */
    public void force() throws IOException {
        ensureOpen();
        long at = position();
        long pos = size();
        if (forced >= pos) {
            // Bytes not yet durable can only lie in [forced, size()), and that is empty.
            return;
        }
        // The window's bytes in use: up to the position, or further when the writer moved back within it.
        long used = Math.min(limit, Math.max(offset, pos - windowStart));
        if (arena != null && windowStart + used > Math.max(forced, windowStart)) {
            long from = Math.max(forced, windowStart) - windowStart;
            try {
                // Where the page cache is not unified with mappings, only msync reaches the mapped pages.
                window.asSlice(from, used - from).force();
            } catch (UncheckedIOException e) {
                throw failure("msync", windowStart + from, used - from, e.getCause());
            }
        }
        // Earlier windows are unmapped already; their dirty pages are reached through the file.
        try {
            FileChannel c = channel(forced, "fdatasync", pos - forced, pos);
            try {
                c.force(false);
            } catch (ClosedChannelException e) {
                recover(c, e, forced, "fdatasync", pos - forced, pos);
                channel.get().force(false);
            }
        } catch (ClosedByInterruptException e) {
            throw interrupted("fdatasync", forced, pos - forced, pos, e);
        } catch (ClosedChannelException | InterruptedIOException e) {
            throw e;
        } catch (IOException e) {
            throw failure("fdatasync", forced, pos - forced, e);
        }
        // Everything is durable now; the next write lands at the position, which may lie before the end.
        forced = at;
    }

    /**
     * Unmaps the window, cuts the file to {@link #size()} and closes it. Does not {@link #force()}: the bytes
     * are in the page cache, on their way to the device. Completes even on an interrupted thread, whose interrupt
     * status is kept. Closing twice does nothing.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        long pos = size();
        unmapWindow();
        // From now on every write takes the slow path, which reports the writer closed, even a write of nothing.
        limit = -1;
        // Clear the interrupt for the truncate: a file left at its grown length would end in up to a window of
        // zeros that the caller never wrote.
        boolean interrupted = Thread.interrupted();
        try {
            channel.call(c -> {
                // FileChannel.truncate only ever shrinks: a file that someone else cut shorter stays as it is.
                c.truncate(pos);
                return 0;
            });
        } catch (ClosedByInterruptException e) {
            throw interrupted("ftruncate", pos, 0, pos, e);
        } catch (ClosedChannelException e) {
            throw e;
        } catch (IOException e) {
            throw failure("ftruncate", pos, 0, e);
        } finally {
            channel.close();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return "MappedWriter[" + path + ", position " + position() + "]";
    }

    // ---------------------------------------------------------------- helpers

    private void ensureOpen() throws ClosedChannelException {
        if (closed) {
            throw new ClosedChannelException();
        }
    }

    /**
     * The channel for a call, or {@link InterruptedIOException} when this thread is interrupted already.
     *
     * @param resumeAt the writer's position if the call fails, for the message
     */
    private FileChannel channel(long pos, String op, long length, long resumeAt) throws IOException {
        try {
            return channel.get();
        } catch (ClosedByInterruptException e) {
            throw interrupted(op, pos, length, resumeAt, e);
        }
    }

    private void recover(FileChannel failed, ClosedChannelException e, long pos, String op, long length,
            long resumeAt) throws IOException {
        try {
            channel.recover(failed, e);
        } catch (ClosedByInterruptException i) {
            throw interrupted(op, pos, length, resumeAt, i);
        }
    }

    private InterruptedIOException interrupted(String op, long pos, long length, long resumeAt, IOException cause) {
        InterruptedIOException e = new InterruptedIOException(describe(op, pos, length)
                + ": interrupted; the writer is still open at position " + resumeAt);
        e.initCause(cause);
        return e;
    }

    /** A copy failed because the window's arena is closed: by {@link #close()} on another thread (misuse). */
    private IOException closedOr(IllegalStateException e) {
        if (closed) {
            ClosedChannelException c = new ClosedChannelException();
            c.initCause(e);
            return c;
        }
        throw e;
    }

    private IOException sigbus(long pos, long length, InternalError e) {
        return new IOException(describe("write", pos, length) + ": the mapped page could not be written (SIGBUS): "
                + "the file system is full or over quota, or another process cut the file; the writer is still "
                + "open at position " + pos, e);
    }

    private IOException failure(String op, long pos, long length, IOException cause) {
        return new IOException(describe(op, pos, length) + ": " + cause.getMessage(), cause);
    }

    private String describe(String op, long pos, long length) {
        return op + "(path=" + path + ", pos=" + pos + ", len=" + length + ")";
    }
}
