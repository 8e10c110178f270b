package io.sluice.chunks;

import io.sluice.Advice;
import io.sluice.Engine;
import io.sluice.PositionalFile;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Hands a file, or a range of it, to the caller front to back in chunks whose size a {@link ChunkPolicy} chooses
 * while reading: by default an {@link AdaptivePolicy} that starts from what the machine says and moves towards the
 * size at which the caller, its own work included, goes fastest.
 *
 * <p>Each chunk is a read-only view ({@link #next()}: a {@link MemorySegment}; {@link #nextBuffer()}: a
 * {@link ByteBuffer}) of a page-aligned native buffer the reader owns. A view is valid until the next call to
 * {@code next}/{@code nextBuffer}: the reader then reuses the memory (it stays allocated, so an old view never
 * crashes, but its bytes change). {@link #asInputStream()} and {@link #asChannel()} serve parsers written for the
 * JDK's streams and channels; they copy out of the chunks.
 *
 * <p>Reads go through any {@link Engine}. When the policy asks for read-ahead, the reader reads the next chunk into a
 * second buffer while the caller works on the current one: on IO_URING with an asynchronous read on the ring;
 * elsewhere on a background thread (a shared pool of daemon threads named {@code sluice-read-ahead}, one read in
 * flight per reader), offered only where a second processor can run it. Both the copy out of the page cache and any
 * wait for the device then overlap the caller's work: a MAF parse at a fixed 4 MiB ran about 6% faster with it on a
 * warm file and 10-12% on a cold one here ({@code sluice bench chunks}, its {@code 4 MiB ahead} row), where
 * {@code posix_fadvise(WILLNEED)}, which starts the device but leaves the copy to the caller, gained nothing. Files the reader opens itself get {@link Advice#SEQUENTIAL}, which the MMAP engine turns
 * into {@code madvise}.
 *
 * <p>End of input: reading the whole file ({@link #TO_END}), the reader follows the file to where it ends when it
 * gets there, so a file that grows while it is read is read to its new end, and one that shrinks ends early. A range
 * with an explicit end is a promise about the file: if the file ends first, the bytes up to its end are delivered and
 * the next call throws {@link EOFException}. (On MMAP a file cut by another process may instead end in an
 * {@link IOException}: the engine turns the mapping's SIGBUS into one.)
 *
 * <p>One thread reads. {@link #close()} may be called from any thread: a read in progress then ends with
 * {@link ClosedChannelException}, as does every call after.
 *
 * {@snippet :
 * try (ChunkedReader r = ChunkedReader.open(Path.of("chr22.maf"))) {
 *     for (MemorySegment chunk; (chunk = r.next()) != null; ) {
 *         parser.feed(chunk);                 // r.chunkPosition(): the file offset of chunk's first byte
 *     }
 *     System.err.println(r.policy());         // adaptive 256 KiB (settled), first guess ...
 * }
 * }
 */
public final class ChunkedReader implements Closeable {
    /** The end of a range that follows the file to its end, wherever that is when it is reached. */
    public static final long TO_END = Long.MAX_VALUE;

    private static final int MAX_CHUNK = 1 << 30;
    private static final int PAGE = 4096;

    /**
     * Runs the read-ahead of engines without an asynchronous read of their own. Platform threads rather than virtual
     * ones: a read blocks its thread in the kernel, which would take a carrier away from the virtual threads. Idle
     * threads end after a minute, so a program that stops reading keeps none.
     */
    private static final ExecutorService AHEAD_THREADS = Executors.newCachedThreadPool(
            Thread.ofPlatform().name("sluice-read-ahead-", 1).daemon().factory());

    private final PositionalFile file;
    private final boolean ownsFile;
    private final long from;
    private final long to;
    private final ChunkPolicy policy;
    /** Whether the engine reads ahead on its own (IO_URING's ring); otherwise a background thread does. */
    private final boolean engineAhead;
    private final boolean aheadAvailable;

    private final MemorySegment[] buffers = new MemorySegment[2];
    private int current;
    private long position;
    private long chunkPosition = -1;
    private long lastBytes;
    private boolean started;
    private boolean ended;
    private volatile boolean closed;

    /** The chunk read ahead asynchronously, its buffer and its length. */
    private volatile CompletableFuture<Integer> pending;
    private int aheadBuffer;
    private long aheadLength;

    private ChunkedReader(PositionalFile file, boolean ownsFile, long from, long to, ChunkPolicy policy) {
        this.file = file;
        this.ownsFile = ownsFile;
        this.from = from;
        this.to = to;
        this.policy = policy;
        this.position = from;
        this.engineAhead = file.engine() == Engine.IO_URING;
        // On one processor a background read only takes turns with the caller; the ring needs no thread of its own.
        this.aheadAvailable = engineAhead || Runtime.getRuntime().availableProcessors() > 1;
    }

    // ---------------------------------------------------------------- opening

    /**
     * Opens {@code path} with the engine of {@link PositionalFile#open(Path, OpenOption...)} (CHANNEL unless
     * {@code -Dsluice.engine} says otherwise) and an {@link AdaptivePolicy#forFile adaptive policy}.
     */
    public static ChunkedReader open(Path path) throws IOException {
        return open(path, AdaptivePolicy.forFile(path));
    }

    /**
     * Opens {@code path} with the engine of {@link PositionalFile#open(Path, OpenOption...)} and the given policy.
     *
     * @param options as for {@link PositionalFile#open}; {@link Advice#SEQUENTIAL} unless another {@link Advice}
     *                is given
     */
    public static ChunkedReader open(Path path, ChunkPolicy policy, OpenOption... options) throws IOException {
        Objects.requireNonNull(policy, "policy");
        return new ChunkedReader(PositionalFile.open(path, sequential(options)), true, 0, TO_END, policy);
    }

    /**
     * Opens {@code path} with {@code engine} and the given policy; closing the reader closes the file.
     *
     * @throws UnsupportedOperationException if the engine cannot run here
     */
    public static ChunkedReader open(Path path, Engine engine, ChunkPolicy policy, OpenOption... options)
            throws IOException {
        Objects.requireNonNull(policy, "policy");
        return new ChunkedReader(PositionalFile.open(path, engine, sequential(options)), true, 0, TO_END, policy);
    }

    /** Reads all of an open file, to wherever it ends; closing the reader leaves the file open. */
    public static ChunkedReader of(PositionalFile file, ChunkPolicy policy) {
        return of(file, 0, TO_END, policy);
    }

    /**
     * Reads {@code [from, to)} of an open file; closing the reader leaves the file open.
     *
     * @param to the end, exclusive, or {@link #TO_END} to follow the file to its end
     * @throws IllegalArgumentException if {@code from} is negative or {@code to < from}
     */
    public static ChunkedReader of(PositionalFile file, long from, long to, ChunkPolicy policy) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(policy, "policy");
        if (from < 0 || to < from) {
            throw new IllegalArgumentException("bad range [" + from + ", " + to + ")");
        }
        return new ChunkedReader(file, false, from, to, policy);
    }

    private static OpenOption[] sequential(OpenOption... options) {
        OpenOption[] all = new OpenOption[options.length + 1];
        // First, so that an Advice the caller gives wins (the last one given counts).
        all[0] = Advice.SEQUENTIAL;
        System.arraycopy(options, 0, all, 1, options.length);
        return all;
    }

    // ---------------------------------------------------------------- reading

    /**
     * The next chunk: a read-only view of the bytes at {@link #chunkPosition()}, valid until the next call. It holds
     * at least one byte, and fewer than the policy's size only at the end of the file or range (or when a chunk read
     * ahead was of an earlier size).
     *
     * @return the chunk, or null at the end
     * @throws EOFException if the file ends before the end of an explicit range
     * @throws ClosedChannelException if the reader is closed, now or during the call
     */
    public MemorySegment next() throws IOException {
        if (closed) {
            throw new ClosedChannelException();
        }
        if (ended) {
            return null;
        }
        if (to != TO_END && position >= to && pending == null) {
            ended = true;
            return null;
        }
        int size = started ? policy.next(lastBytes) : policy.start(aheadAvailable);
        started = true;
        if (size < 1 || size > MAX_CHUNK) {
            throw new IllegalStateException(policy + " asked for a chunk of " + size + " bytes");
        }
        MemorySegment buf;
        long got;
        CompletableFuture<Integer> ahead = pending;
        if (ahead != null) {
            pending = null;
            current = aheadBuffer;
            buf = buffers[current];
            int n = await(ahead, position, aheadLength);
            // Short, or the end of the file as it was then: read on from here, which also finds what a growing file
            // has gained since.
            got = n < aheadLength ? fill(buf, Math.max(n, 0), aheadLength) : n;
        } else {
            long want = to == TO_END ? size : Math.min(size, to - position);
            buf = buffer(current, want);
            got = fill(buf, 0, want);
        }
        if (got == 0) {
            if (to != TO_END) {
                throw new EOFException("read(path=" + file.path() + ", pos=" + position + ", len="
                        + Math.min(size, to - position) + "): the file ends at " + position
                        + ", before the end of the range [" + from + ", " + to + ")");
            }
            ended = true;
            return null;
        }
        chunkPosition = position;
        position += got;
        lastBytes = got;
        if (aheadAvailable && policy.readAhead()) {
            readAhead(size);
        }
        return buf.asSlice(0, got).asReadOnly();
    }

    /** {@link #next()} as a read-only {@link ByteBuffer} (big-endian, as every new buffer); null at the end. */
    public ByteBuffer nextBuffer() throws IOException {
        MemorySegment s = next();
        return s == null ? null : s.asByteBuffer();
    }

    /** Reads {@code [position + off, position + want)} into {@code buf[off, want)}; returns the bytes now valid. */
    private long fill(MemorySegment buf, long off, long want) throws IOException {
        long done = off;
        while (done < want) {
            if (closed) {
                throw new ClosedChannelException();
            }
            int n = file.read(buf.asSlice(done, want - done), position + done);
            if (n < 0) {
                break;
            }
            done += n;
        }
        if (closed) {
            throw new ClosedChannelException();
        }
        return done;
    }

    private void readAhead(int size) throws IOException {
        long len = to == TO_END ? size : Math.min(size, to - position);
        if (len <= 0) {
            return;
        }
        int other = 1 - current;
        MemorySegment dst = buffer(other, len).asSlice(0, len);
        aheadBuffer = other;
        aheadLength = len;
        if (engineAhead) {
            pending = file.readAsync(dst, position);
        } else {
            long at = position;
            pending = CompletableFuture.supplyAsync(() -> readQuietly(dst, at), AHEAD_THREADS);
        }
        if (closed) {
            // close() may have looked for a pending read just before this one started: wait for it here, so the
            // buffer is never released while the kernel may still write to it.
            awaitQuietly(pending);
            throw new ClosedChannelException();
        }
    }

    /** {@code file.read} for the read-ahead thread: an {@link IOException} travels in the future to {@link #await}. */
    private int readQuietly(MemorySegment dst, long at) {
        try {
            return file.read(dst, at);
        } catch (IOException e) {
            throw new CompletionException(e);
        }
    }

    private static int await(CompletableFuture<Integer> f, long position, long length) throws IOException {
        try {
            return f.join();
        } catch (CompletionException e) {
            Throwable c = e.getCause();
            if (c instanceof IOException io) {
                throw io;
            }
            if (c instanceof RuntimeException r) {
                throw r;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new IOException("read ahead(pos=" + position + ", len=" + length + ") failed", c);
        }
    }

    private static void awaitQuietly(CompletableFuture<Integer> f) {
        if (f != null) {
            f.handle((r, e) -> null).join();
        }
    }

    /** Buffer {@code i}, at least {@code len} bytes: grown (page-aligned, to a power of two) but never shrunk. */
    private MemorySegment buffer(int i, long len) {
        MemorySegment b = buffers[i];
        if (b == null || b.byteSize() < len) {
            long cap = Math.max(PAGE, Long.highestOneBit(len) == len ? len : Long.highestOneBit(len) << 1);
            // An automatic arena: a view handed out earlier stays valid memory for as long as someone holds it.
            b = Arena.ofAuto().allocate(cap, PAGE);
            buffers[i] = b;
        }
        return b;
    }

    // ---------------------------------------------------------------- state

    /** The file offset of the first byte of the chunk last returned, or -1 before the first. */
    public long chunkPosition() {
        return chunkPosition;
    }

    /** The file offset at which the next chunk starts. */
    public long position() {
        return position;
    }

    /** The policy choosing the sizes. */
    public ChunkPolicy policy() {
        return policy;
    }

    /** The file read. */
    public PositionalFile file() {
        return file;
    }

    /** Whether this reader can read ahead here: on IO_URING, or with a second processor for the background read. */
    public boolean canReadAhead() {
        return aheadAvailable;
    }

    // ---------------------------------------------------------------- adapters

    /**
     * An {@link InputStream} of the rest of the input, copying out of the chunks. Closing it closes this reader.
     * Use the stream or this reader, not both.
     */
    public InputStream asInputStream() {
        return new ChunkInputStream(this);
    }

    /**
     * A {@link ReadableByteChannel} of the rest of the input, copying out of the chunks. Closing it closes this
     * reader. Use the channel or this reader, not both.
     */
    public ReadableByteChannel asChannel() {
        return new ChunkChannel(this);
    }

    boolean isClosed() {
        return closed;
    }

    /**
     * Closes the reader, and the file if the reader opened it. A read ahead in flight is waited for first (its
     * memory must outlive it). Any thread may close; closing twice does nothing.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        awaitQuietly(pending);
        if (ownsFile) {
            file.close();
        }
    }

    @Override
    public String toString() {
        return "ChunkedReader[" + file + ", [" + from + ", " + (to == TO_END ? "end" : to) + "), at " + position
                + ", " + policy + "]";
    }
}
