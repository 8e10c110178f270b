package io.sluice.hadoop;

import io.sluice.Engine;
import io.sluice.IoBatch;
import io.sluice.PositionalFile;
import io.sluice.SluiceOption;
import io.sluice.chunks.CacheAdvice;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.apache.hadoop.fs.ByteBufferPositionedReadable;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.VectoredReadUtils;
import org.apache.hadoop.fs.impl.CombinedFileRange;

/**
 * The input stream of {@link SluiceLocalFileSystem}: a {@link PositionalFile} with a read buffer for the sequential
 * calls.
 *
 * <p>The sequential calls ({@code read()}, {@code read(byte[], int, int)}, {@code read(ByteBuffer)}, {@code seek},
 * {@code skip}) share the stream's position and buffer and, like every Hadoop input stream, are for one thread at a
 * time. The positional ones ({@code read(long, ...)}, {@code readFully(long, ...)}, {@code readVectored}) touch
 * neither and take no lock, so any number of threads may use them at once: each is one or a few positional reads of
 * the shared {@code PositionalFile}, whose engines are safe for concurrent positional reads.
 *
 * <p>{@code readVectored} validates and sorts the ranges, merges those less than {@code minSeek} apart (up to
 * {@code maxMerged} bytes a merged range), and reads each merged range into one buffer from the caller's allocator;
 * the requested ranges get slices of it ({@link StreamCapabilities#VECTOREDIO_BUFFERS_SLICED}). Into direct buffers
 * the reads go as one {@link IoBatch}, on io_uring one system call for the whole list; into heap buffers, which no
 * engine can hand to the kernel, as positional reads: cut into pieces of {@code piece} bytes and read in parallel
 * by the calling thread and the threads of one small pool all streams share (see {@link PieceReaders}), or, with
 * {@code piece} 0, one range after another in the calling thread. Before any of them, unless turned off, the
 * kernel is asked for all the merged ranges ({@code posix_fadvise(WILLNEED)}): a cold file's ranges are then read
 * from the device all at once and exactly, with no read-ahead past their ends. With O_DIRECT the
 * reads go, rounded out to the block size, into aligned memory of the stream's own, and the requested bytes are
 * copied from there. Failures complete the ranges' futures exceptionally; {@code readVectored} returns once every
 * future is complete.
 */
final class SluiceFSInputStream extends FSInputStream
        implements ByteBufferReadable, ByteBufferPositionedReadable, StreamCapabilities {
    /** The most aligned scratch one batch of O_DIRECT reads uses, unless a single merged range is larger. */
    private static final int DIRECT_WAVE = 64 << 20;

    private final PositionalFile file;
    private final FileSystem.Statistics statistics;
    private final boolean direct;
    private final boolean willNeed;
    private final int minSeek;
    private final int maxMerged;
    /** Bytes of a heap range one thread reads at a time; 0 reads every range whole in the calling thread. */
    private final int piece;
    /** Sees every positional read of a heap range (tests observe which thread read what through it). */
    volatile Consumer<PieceRead> onPiece;
    private final byte[] buffer;
    /** File position of buffer[0], and how many bytes of buffer are valid from there. */
    private long bufferStart;
    private int bufferLength;
    private long position;
    private volatile boolean closed;
    /** The O_DIRECT descriptor, opened by the first vectored read that needs it. */
    private final AtomicReference<PositionalFile> directFile = new AtomicReference<>();
    /** Aligned scratch for O_DIRECT reads, taken by one vectored read at a time and put back after (else made anew). */
    private final AtomicReference<ByteBuffer> directScratch = new AtomicReference<>();

    SluiceFSInputStream(PositionalFile file, int bufferSize, boolean direct, boolean willNeed, int minSeek,
            int maxMerged, int piece, FileSystem.Statistics statistics) {
        this.file = file;
        this.buffer = new byte[Math.max(1, bufferSize)];
        this.direct = direct;
        this.willNeed = willNeed;
        this.minSeek = minSeek;
        this.maxMerged = maxMerged;
        this.piece = piece;
        this.statistics = statistics;
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException(file.path() + ": " + FSExceptionMessages.STREAM_IS_CLOSED);
        }
    }

    private void count(long n) {
        if (n > 0 && statistics != null) {
            statistics.incrementBytesRead(n);
        }
    }

    private static EOFException negative(PositionalFile file, long offset) {
        return new EOFException(file.path() + ": " + FSExceptionMessages.NEGATIVE_SEEK + ": " + offset);
    }

    @Override
    public void seek(long pos) throws IOException {
        ensureOpen();
        if (pos < 0) {
            throw negative(file, pos);
        }
        position = pos; // past the end is allowed, as in RawLocalFileSystem: the next read returns -1
    }

    @Override
    public long getPos() throws IOException {
        return position;
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
        return false;
    }

    @Override
    public int available() throws IOException {
        ensureOpen();
        return (int) Math.min(Integer.MAX_VALUE, Math.max(0, file.size() - position));
    }

    @Override
    public long skip(long n) throws IOException {
        ensureOpen();
        if (n <= 0) {
            return 0;
        }
        long target = Math.min(file.size(), position + n);
        long skipped = Math.max(0, target - position);
        position += skipped;
        return skipped;
    }

    @Override
    public int read() throws IOException {
        ensureOpen();
        if (!buffered() && fill() <= 0) {
            return -1;
        }
        int b = buffer[(int) (position - bufferStart)] & 0xff;
        position++;
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        ensureOpen();
        if (len == 0) {
            return 0;
        }
        if (!buffered()) {
            if (len >= buffer.length) {
                // A large read gains nothing from the buffer: straight into the caller's array.
                int n = file.read(b, off, len, position);
                if (n > 0) {
                    position += n;
                    count(n);
                }
                return n;
            }
            if (fill() <= 0) {
                return -1;
            }
        }
        int at = (int) (position - bufferStart);
        int n = Math.min(len, bufferLength - at);
        System.arraycopy(buffer, at, b, off, n);
        position += n;
        return n;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        if (!dst.hasRemaining()) {
            return 0;
        }
        if (!buffered()) {
            if (dst.remaining() >= buffer.length) {
                int n = file.read(dst, position);
                if (n > 0) {
                    position += n;
                    count(n);
                }
                return n;
            }
            if (fill() <= 0) {
                return -1;
            }
        }
        int at = (int) (position - bufferStart);
        int n = Math.min(dst.remaining(), bufferLength - at);
        dst.put(buffer, at, n);
        position += n;
        return n;
    }

    /** Whether the byte at the position is in the buffer. */
    private boolean buffered() {
        return position >= bufferStart && position < bufferStart + bufferLength;
    }

    /** Fills the buffer from the position; returns the bytes read, -1 at end of file. */
    private int fill() throws IOException {
        bufferLength = 0;
        int n = file.read(buffer, 0, buffer.length, position);
        if (n > 0) {
            bufferStart = position;
            bufferLength = n;
            count(n);
        }
        return n;
    }

    @Override
    public int read(long pos, byte[] b, int off, int len) throws IOException {
        validatePositionedReadArgs(pos, b, off, len);
        ensureOpen();
        if (len == 0) {
            return 0;
        }
        int n = file.read(b, off, len, pos);
        count(n);
        return n;
    }

    @Override
    public void readFully(long pos, byte[] b, int off, int len) throws IOException {
        validatePositionedReadArgs(pos, b, off, len);
        ensureOpen();
        int done = 0;
        while (done < len) {
            int n = file.read(b, off + done, len - done, pos + done);
            if (n < 0) {
                throw new EOFException(file.path() + ": " + FSExceptionMessages.EOF_IN_READ_FULLY + " Read "
                        + done + " of " + len + " bytes at offset " + pos + "; the file has " + file.size());
            }
            done += n;
            count(n);
        }
    }

    @Override
    public int read(long pos, ByteBuffer dst) throws IOException {
        if (pos < 0) {
            throw negative(file, pos);
        }
        ensureOpen();
        if (!dst.hasRemaining()) {
            return 0;
        }
        int n = file.read(dst, pos);
        count(n);
        return n;
    }

    @Override
    public void readFully(long pos, ByteBuffer dst) throws IOException {
        if (pos < 0) {
            throw negative(file, pos);
        }
        ensureOpen();
        int wanted = dst.remaining();
        long at = pos;
        while (dst.hasRemaining()) {
            int n = file.read(dst, at);
            if (n < 0) {
                throw new EOFException(file.path() + ": " + FSExceptionMessages.EOF_IN_READ_FULLY + " Read "
                        + (at - pos) + " of " + wanted + " bytes at offset " + pos + "; the file has " + file.size());
            }
            at += n;
            count(n);
        }
    }

    @Override
    public int minSeekForVectorReads() {
        return minSeek;
    }

    @Override
    public int maxReadSizeForVectorReads() {
        return maxMerged;
    }

    @Override
    public void readVectored(List<? extends FileRange> ranges, IntFunction<ByteBuffer> allocate)
            throws IOException {
        readVectored(ranges, allocate, VectoredReadUtils.LOG_BYTE_BUFFER_RELEASED);
    }

    @Override
    public void readVectored(List<? extends FileRange> ranges, IntFunction<ByteBuffer> allocate,
            Consumer<ByteBuffer> release) throws IOException {
        Objects.requireNonNull(allocate, "allocate");
        Objects.requireNonNull(release, "release");
        ensureOpen();
        long size = file.size();
        // Misuse (nulls, negative or overlapping ranges) throws here; a range past the end fails through its future.
        List<? extends FileRange> all = VectoredReadUtils.validateAndSortRanges(ranges, Optional.empty());
        List<FileRange> sorted = new ArrayList<>(all.size());
        for (FileRange range : all) {
            range.setData(new CompletableFuture<>());
            if (range.getOffset() + range.getLength() > size) {
                range.getData().completeExceptionally(new EOFException(file.path() + ": vectored read of " + range
                        + " goes past the end of the file (" + size + " bytes)"));
            } else {
                sorted.add(range);
            }
        }
        if (sorted.isEmpty()) {
            return;
        }
        try {
            if (direct) {
                PositionalFile odirect = directFile();
                int block = blockSize();
                List<CombinedFileRange> merged = VectoredReadUtils.mergeSortedRanges(sorted, block, minSeek,
                        maxMerged);
                readDirect(odirect, block, merged, size, allocate, release);
            } else {
                List<CombinedFileRange> merged = VectoredReadUtils.mergeSortedRanges(sorted, 1, minSeek, maxMerged);
                if (willNeed) {
                    askAhead(merged);
                }
                readBuffered(merged, allocate, release);
            }
        } catch (IOException | RuntimeException | Error e) {
            // A caller waiting on a future must never wait forever: whatever stopped this call fails what is left.
            for (FileRange range : sorted) {
                range.getData().completeExceptionally(e);
            }
            throw e;
        }
    }

    /**
     * Asks the kernel for every merged range before the first is read: the device gets them all at once, and only
     * their bytes. Without it each range's first read misses the cache, the kernel's read-ahead reads that range a
     * window at a time and goes on past its end, into bytes no range asked for (column chunks a scan skips). The
     * advice goes by path, on a descriptor of its own: if the path names another file by now, that file's pages are
     * what come in, and the reads, on the stream's descriptor, are unaffected.
     */
    private void askAhead(List<CombinedFileRange> merged) {
        long[] offsets = new long[merged.size()];
        long[] lengths = new long[merged.size()];
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = merged.get(i).getOffset();
            lengths[i] = merged.get(i).getLength();
        }
        CacheAdvice.willNeed(file.path(), offsets, lengths);
    }

    /**
     * A read per merged range straight into the caller's buffer for it: one batch when the allocator gives direct
     * buffers. Heap buffers (Parquet's default allocator gives those) are read by positional reads on the stream's
     * own descriptor instead: the kernel cannot be handed heap memory, so an engine runs such requests one by one
     * anyway, and a batch would only open the engine's io_uring descriptor beside the stream's for nothing. One
     * thread's {@code pread}s of a cold file wait for the device one after another, so they go in pieces on several
     * threads ({@link #readPieces}) unless the piece size is 0.
     */
    private void readBuffered(List<CombinedFileRange> merged, IntFunction<ByteBuffer> allocate,
            Consumer<ByteBuffer> release) throws IOException {
        ByteBuffer[] buffers = new ByteBuffer[merged.size()];
        boolean anyDirect = false;
        for (int i = 0; i < buffers.length; i++) {
            buffers[i] = allocate.apply(merged.get(i).getLength());
            anyDirect |= buffers[i].isDirect();
        }
        if (!anyDirect && piece > 0) {
            readPieces(merged, buffers, release);
            return;
        }
        IoBatch batch = null;
        if (anyDirect) {
            batch = IoBatch.create(merged.size());
            for (int i = 0; i < buffers.length; i++) {
                batch.read(file, buffers[i], merged.get(i).getOffset());
            }
            batch.submit();
        }
        for (int i = 0; i < buffers.length; i++) {
            CombinedFileRange range = merged.get(i);
            ByteBuffer data = buffers[i];
            try {
                long n = 0;
                if (batch != null) {
                    IOException error = batch.error(i);
                    if (error != null) {
                        throw error;
                    }
                    n = batch.result(i);
                }
                long at = range.getOffset() + Math.max(0, n);
                observe(at, data.remaining());
                // What the batch left (all of it without one; a range over the engine's per-call cap, or a signal)
                // goes on where it stopped.
                while (n >= 0 && data.hasRemaining()) {
                    n = file.read(data, at);
                    at += Math.max(0, n);
                }
                if (data.hasRemaining()) {
                    throw new EOFException(file.path() + ": end of file at " + at + " while reading the range "
                            + range + " (the file shrank?)");
                }
                count(range.getLength());
                data.flip();
                deliver(range, data);
            } catch (IOException | RuntimeException e) {
                fail(range, data, release, e);
            }
        }
    }

    /** One positional read of a heap range: where, how many bytes, and the name of the thread that made it. */
    record PieceRead(long offset, int length, String thread) {
    }

    private void observe(long offset, int length) {
        Consumer<PieceRead> observer = onPiece;
        if (observer != null) {
            observer.accept(new PieceRead(offset, length, Thread.currentThread().getName()));
        }
    }

    /**
     * The merged ranges into heap buffers, cut into pieces of {@link #piece} bytes that the calling thread and up to
     * {@link PieceReaders#THREADS} pool threads take in turn, in file order. A range's future is completed by
     * whichever thread finishes its last piece, so the first range can be consumed while later ones are still being
     * read. The caller takes pieces too and so never depends on a pool thread being free: the pool's threads only
     * help, and a helper that starts after every piece is taken finds nothing to do. This returns once every piece is
     * read or failed, so no read of the stream's descriptor is in flight after it (a close cannot race one).
     */
    private void readPieces(List<CombinedFileRange> merged, ByteBuffer[] buffers, Consumer<ByteBuffer> release)
            throws IOException {
        List<Piece> pieces = new ArrayList<>();
        for (int i = 0; i < buffers.length; i++) {
            Ranged ranged = new Ranged(merged.get(i), buffers[i], release);
            int length = merged.get(i).getLength();
            int count = Math.max(1, (int) ((length + (long) piece - 1) / piece));
            ranged.left.set(count);
            for (int p = 0; p < count; p++) {
                int from = (int) ((long) p * piece);
                pieces.add(new Piece(ranged, from, Math.min(piece, length - from)));
            }
        }
        AtomicInteger next = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(pieces.size());
        Runnable taker = () -> {
            for (int i; (i = next.getAndIncrement()) < pieces.size(); ) {
                try {
                    read(pieces.get(i));
                } finally {
                    done.countDown();
                }
            }
        };
        int helpers = Math.min(pieces.size() - 1, PieceReaders.THREADS);
        for (int h = 0; h < helpers; h++) {
            PieceReaders.POOL.execute(taker);
        }
        taker.run();
        boolean interrupted = false;
        while (true) {
            try {
                done.await();
                break;
            } catch (InterruptedException e) {
                // The helpers write into the caller's buffers: returning before they are done would hand those
                // buffers back while they are still being written. Pieces are bounded reads; wait them out.
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        long bytes = 0;
        for (int i = 0; i < merged.size(); i++) {
            if (!merged.get(i).getUnderlying().get(0).getData().isCompletedExceptionally()) {
                bytes += merged.get(i).getLength();
            }
        }
        count(bytes);
    }

    /** A merged range being read in pieces: its buffer, the pieces not yet done, and the first failure. */
    private static final class Ranged {
        final CombinedFileRange range;
        final ByteBuffer data;
        final Consumer<ByteBuffer> release;
        final AtomicInteger left = new AtomicInteger();
        final AtomicReference<Throwable> failure = new AtomicReference<>();

        Ranged(CombinedFileRange range, ByteBuffer data, Consumer<ByteBuffer> release) {
            this.range = range;
            this.data = data;
            this.release = release;
        }
    }

    private record Piece(Ranged ranged, int from, int length) {
    }

    /** Reads one piece; the thread that finishes a range's last piece completes the range's futures. */
    private void read(Piece piece) {
        Ranged ranged = piece.ranged();
        CombinedFileRange range = ranged.range;
        long at = range.getOffset() + piece.from();
        try {
            if (ranged.failure.get() == null) {
                // A piece of a range that has failed already is not read: its future is decided.
                ensureOpen();
                observe(at, piece.length());
                ByteBuffer dst = ranged.data.slice(piece.from(), piece.length());
                while (dst.hasRemaining()) {
                    int n = file.read(dst, at);
                    if (n < 0) {
                        throw new EOFException(file.path() + ": end of file at " + at + " while reading the range "
                                + range + " (the file shrank?)");
                    }
                    at += n;
                }
            }
        } catch (EOFException e) {
            ranged.failure.compareAndSet(null, e);
        } catch (IOException | RuntimeException e) {
            ranged.failure.compareAndSet(null, new IOException(file.path() + ": vectored read of the range " + range
                    + " failed at offset " + at + ": " + e, e));
        } catch (Error e) {
            ranged.failure.compareAndSet(null, e);
        }
        if (ranged.left.decrementAndGet() == 0) {
            Throwable failure = ranged.failure.get();
            if (failure != null) {
                fail(range, ranged.data, ranged.release, failure);
            } else {
                ranged.data.position(0).limit(range.getLength());
                deliver(range, ranged.data);
            }
        }
    }

    /**
     * The threads that read pieces of heap ranges, shared by every stream of the JVM: at most {@link #THREADS}
     * daemon threads named {@code sluice-vectored-read-N}, which end after 10 idle seconds, so closing streams or
     * file systems leaves no thread behind for long and none that keeps the JVM alive. Not the common
     * {@code ForkJoinPool}: the callers are Hadoop and Parquet code that may block its threads, and a blocking
     * {@code pread} there would take threads the rest of the application counts on. A full queue drops the extra
     * helper: the calling thread reads every piece nobody else took.
     */
    static final class PieceReaders {
        /** The most threads the pool runs: enough for a device's queue, few enough to stay off the CPUs' backs. */
        static final int THREADS = Math.max(4, Math.min(16, 2 * Runtime.getRuntime().availableProcessors()));
        /** Name of the pool's threads, followed by a number. */
        static final String NAME = "sluice-vectored-read-";
        static final ThreadPoolExecutor POOL;

        static {
            AtomicInteger counter = new AtomicInteger();
            POOL = new ThreadPoolExecutor(THREADS, THREADS, 10, TimeUnit.SECONDS,
                    new ArrayBlockingQueue<>(4 * THREADS), task -> {
                        Thread t = new Thread(task, NAME + counter.incrementAndGet());
                        t.setDaemon(true);
                        return t;
                    }, new ThreadPoolExecutor.DiscardPolicy());
            POOL.allowCoreThreadTimeOut(true);
        }

        private PieceReaders() {
        }
    }

    /**
     * O_DIRECT: the merged ranges, rounded out to the block size, in waves of at most {@link #DIRECT_WAVE} bytes of
     * aligned scratch, each wave one batch; the requested bytes are copied into the caller's buffers.
     */
    private void readDirect(PositionalFile odirect, int block, List<CombinedFileRange> merged, long size,
            IntFunction<ByteBuffer> allocate, Consumer<ByteBuffer> release) {
        ByteBuffer scratch = directScratch.getAndSet(null);
        try {
            int from = 0;
            while (from < merged.size()) {
                int to = from;
                long bytes = 0;
                while (to < merged.size()) {
                    long aligned = alignedLength(merged.get(to), block);
                    if (to > from && bytes + aligned > DIRECT_WAVE) {
                        break;
                    }
                    bytes += aligned;
                    to++;
                }
                if (bytes > Integer.MAX_VALUE - block) {
                    // One merged range past 2 GiB cannot be one buffer: fail it alone and go on.
                    for (int i = from; i < to; i++) {
                        fail(merged.get(i), null, release, new IOException(file.path() + ": range "
                                + merged.get(i) + " is too large for one aligned O_DIRECT buffer"));
                    }
                    from = to;
                    continue;
                }
                if (scratch == null || scratch.capacity() < bytes) {
                    scratch = ByteBuffer.allocateDirect((int) bytes + block).alignedSlice(block);
                }
                wave(odirect, block, merged.subList(from, to), size, scratch, allocate, release);
                from = to;
            }
        } finally {
            directScratch.set(scratch);
        }
    }

    private static long alignedLength(FileRange range, int block) {
        long start = VectoredReadUtils.roundDown(range.getOffset(), block);
        long end = VectoredReadUtils.roundUp(range.getOffset() + range.getLength(), block);
        return end - start;
    }

    private void wave(PositionalFile odirect, int block, List<CombinedFileRange> ranges, long size,
            ByteBuffer scratch, IntFunction<ByteBuffer> allocate, Consumer<ByteBuffer> release) {
        IoBatch batch = IoBatch.create(ranges.size());
        ByteBuffer[] slices = new ByteBuffer[ranges.size()];
        int at = 0;
        for (int i = 0; i < slices.length; i++) {
            CombinedFileRange range = ranges.get(i);
            int length = (int) alignedLength(range, block);
            slices[i] = scratch.slice(at, length);
            at += length;
            batch.read(odirect, slices[i], VectoredReadUtils.roundDown(range.getOffset(), block));
        }
        batch.submit();
        for (int i = 0; i < slices.length; i++) {
            CombinedFileRange range = ranges.get(i);
            ByteBuffer data = null;
            try {
                IOException error = batch.error(i);
                if (error != null) {
                    throw error;
                }
                ByteBuffer slice = slices[i];
                long start = VectoredReadUtils.roundDown(range.getOffset(), block);
                long need = Math.min(range.getOffset() + range.getLength(), size) - start;
                long n = batch.result(i);
                while (n >= 0 && slice.position() < need) {
                    // Go on from the last whole block: O_DIRECT needs aligned positions.
                    int resume = (int) VectoredReadUtils.roundDown(slice.position(), block);
                    slice.position(resume);
                    n = odirect.read(slice, start + resume);
                }
                if (slice.position() < need) {
                    throw new EOFException(file.path() + ": end of file at " + (start + slice.position())
                            + " while reading the range " + range + " (the file shrank?)");
                }
                data = allocate.apply(range.getLength());
                int skip = (int) (range.getOffset() - start);
                data.put(slice.slice(skip, range.getLength()));
                data.flip();
                count(range.getLength());
                deliver(range, data);
            } catch (IOException | RuntimeException e) {
                fail(range, data, release, e);
            }
        }
    }

    /** Completes the requested ranges of a merged one: the buffer itself for a single one, else slices of it. */
    private static void deliver(CombinedFileRange merged, ByteBuffer data) {
        List<FileRange> underlying = merged.getUnderlying();
        if (underlying.size() == 1 && underlying.get(0).getOffset() == merged.getOffset()
                && underlying.get(0).getLength() == merged.getLength()) {
            underlying.get(0).getData().complete(data);
            return;
        }
        for (FileRange range : underlying) {
            range.getData().complete(VectoredReadUtils.sliceTo(data, merged.getOffset(), range));
        }
    }

    private static void fail(CombinedFileRange merged, ByteBuffer data, Consumer<ByteBuffer> release,
            Throwable cause) {
        for (FileRange range : merged.getUnderlying()) {
            range.getData().completeExceptionally(cause);
        }
        if (data != null) {
            release.accept(data);
        }
    }

    /** The O_DIRECT descriptor of this stream's file, opened once; a losing racer closes its own. */
    private PositionalFile directFile() throws IOException {
        PositionalFile current = directFile.get();
        if (current != null) {
            return current;
        }
        PositionalFile opened;
        try {
            opened = PositionalFile.open(file.path(), Engine.IO_URING, SluiceOption.DIRECT);
        } catch (UnsupportedOperationException e) {
            throw new IOException(file.path() + ": O_DIRECT vectored reads (" + SluiceLocalFileSystem.DIRECT
                    + "=true) need the IO_URING engine: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new IOException(file.path() + ": cannot open with O_DIRECT for vectored reads ("
                    + SluiceLocalFileSystem.DIRECT + "=true): " + e.getMessage(), e);
        }
        if (directFile.compareAndSet(null, opened)) {
            if (closed) {
                closeQuietly(directFile.getAndSet(null));
                ensureOpen();
            }
            return opened;
        }
        opened.close();
        return directFile.get();
    }

    private int blockSize() throws IOException {
        return (int) Math.max(512, Files.getFileStore(file.path()).getBlockSize());
    }

    private static void closeQuietly(PositionalFile f) {
        if (f != null) {
            try {
                f.close();
            } catch (IOException ignored) {
                // the stream is closing anyway; the plain descriptor's close reports
            }
        }
    }

    @Override
    public boolean hasCapability(String capability) {
        return switch (capability.toLowerCase(java.util.Locale.ROOT)) {
            case StreamCapabilities.READBYTEBUFFER, StreamCapabilities.PREADBYTEBUFFER,
                 StreamCapabilities.VECTOREDIO, StreamCapabilities.VECTOREDIO_BUFFERS_SLICED -> true;
            default -> false;
        };
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        closeQuietly(directFile.getAndSet(null));
        file.close();
    }

    @Override
    public String toString() {
        return "SluiceFSInputStream[" + file + ", position " + position + (direct ? ", O_DIRECT vectored" : "") + "]";
    }
}
