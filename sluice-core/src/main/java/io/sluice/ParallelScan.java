package io.sluice;

import io.sluice.internal.AlignedBuffers;
import io.sluice.internal.Faults;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * Reads a file of records with several threads at once: the file is cut into segments that begin and end on
 * record boundaries, threads claim segments one at a time until none is left, and each thread adds what it finds
 * to its own accumulator; the accumulators are merged at the end.
 *
 * <p>Records are delimited by a byte ({@link #lines()}: newline; {@link #delimitedBy(byte)}: any byte, which ends
 * the record it follows) or by the caller's own {@link Boundary rule}. A segment handed to the {@link Visitor} holds
 * whole records only: it starts at the start of a record and ends just after a delimiter, or at the end of the
 * file when the last record has none. A record longer than a segment is handed over whole, in one piece; the
 * segments it swallows are skipped.
 *
 * <p>Segments are memory-mapped ({@link MemorySegment}s of the file, read-only), so a visitor parses straight from
 * the page cache with no copy; {@link #withReads} reads them into a per-thread buffer instead, which is faster for
 * visitors that read every byte. Either way a segment is valid only during the {@link Visitor#visit} call that
 * receives it. Each thread maps the file once, and again only every gigabyte it moves on, however small the
 * segments.
 *
 * <p>A parser that loads eight bytes (or a vector) at a time wants to load them anywhere in its records, even at the
 * last byte, without a second, byte-by-byte loop for the end of each segment: {@link #scanPadded} hands over each
 * segment followed by {@value #PADDING} more readable bytes, the file's next bytes or zeros past its end. {@link Swar}
 * has the word-at-a-time searches such a parser needs.
 *
 * <p>Why claims rather than one equal share per thread: segments cost different amounts (parts of a file may be
 * cached and others not; on a busy machine a thread may be descheduled), and with equal shares the slowest share
 * decides when the scan ends. A thread that finishes early takes another segment.
 *
 * <p>A {@code ParallelScan} is an immutable description of how to scan, safe to share and reuse; {@code with...}
 * methods return changed copies.
 *
 * {@snippet :
 * long lines = ParallelScan.lines().scan(path, () -> new long[1],
 *         (count, records, position) -> count[0] += ParallelScan.count(records, (byte) '\n'),
 *         (a, b) -> new long[] {a[0] + b[0]})[0];
 * }
 */
public final class ParallelScan {
    /** Where records start: the caller's rule for cutting a file into segments. */
    @FunctionalInterface
    public interface Boundary {
        /**
         * The offset of the first record that starts in {@code [from, limit)}, or {@code limit} when none starts
         * there. The answer must depend only on the file: a record start found from one {@code from} must be found
         * from any {@code from} before it (so segments fit together), and it must lie between {@code from} and
         * {@code limit}.
         *
         * <p>Why a limit: a scan asks where the records of its segment begin, and if none begins inside the segment
         * (a record longer than a segment covers it), the answer is "none" as soon as the segment's end is reached,
         * rather than after scanning to the end of that long record, once per segment it covers.
         *
         * @param file the whole file, mapped read-only: read only what the rule needs, from {@code from - 1} on
         * @param from an offset with {@code 0 < from < limit}
         * @param limit at most {@code file.byteSize()}
         */
        long next(MemorySegment file, long from, long limit);
    }

    /** What a thread does with one segment of whole records. */
    @FunctionalInterface
    public interface Visitor<A> {
        /**
         * Visits one segment.
         *
         * @param accumulator this thread's own accumulator: no other thread touches it during the scan
         * @param records whole records, read-only, valid only during this call
         * @param position the file offset of the first byte of {@code records}
         */
        void visit(A accumulator, MemorySegment records, long position) throws IOException;
    }

    /**
     * What a thread does with one segment of whole records that may be read past its end: see {@link #scanPadded}.
     */
    @FunctionalInterface
    public interface PaddedVisitor<A> {
        /**
         * Visits one segment.
         *
         * @param accumulator this thread's own accumulator: no other thread touches it during the scan
         * @param records read-only, valid only during this call: whole records in {@code [0, length)}, then
         *        {@value #PADDING} more bytes ({@code records.byteSize() == length + PADDING}): the bytes that follow
         *        in the file, and zeros past the size the file had when the scan began
         * @param length the bytes of whole records, at least 1
         * @param position the file offset of the first byte of {@code records}
         */
        void visit(A accumulator, MemorySegment records, long length, long position) throws IOException;
    }

    /**
     * The bytes {@link #scanPadded} hands over after each segment's records (64): enough for a load of eight bytes,
     * or of a 512-bit vector, that starts at any byte of the records.
     */
    public static final int PADDING = 64;

    /** The smallest segment size the default picks (1 MiB): smaller ones only add claims and boundary searches. */
    static final long MIN_DEFAULT_SEGMENT = 1L << 20;
    /** The largest segment size the default picks (64 MiB). */
    static final long MAX_DEFAULT_SEGMENT = 64L << 20;
    /** Segments per thread the default aims at, so that claims even out uneven work. */
    static final int SEGMENTS_PER_THREAD = 16;
    /** The largest buffer {@link #withReads} grows to for a long record; longer ones are handed over mapped. */
    static final int MAX_READ_BUFFER = 64 << 20;
    private static final String MAX_READ_BUFFER_TEXT = "64 MiB";
    /**
     * How far from the end of the file {@link #scanPadded}, mapped, looks for the start of the records it copies
     * rather than hands over mapped: the mapping ends with the file, so the last records have no bytes after them.
     */
    static final int PADDED_TAIL = 64 << 10;
    /** How much of the file a thread reads through one mapping before it maps the file again (see {@link Worker}). */
    static final long WINDOW = 1L << 30;

    private static final ValueLayout.OfLong WORD = Swar.WORD;

    private final Boundary boundary;
    private final String description;
    private final int threads;
    private final long segmentSize;
    /** 0: hand over mapped memory; otherwise read into a buffer of about this many bytes per thread. */
    private final int readSize;
    /** {@link #WINDOW}, or a smaller one that tests set. */
    private final long window;

    private ParallelScan(Boundary boundary, String description, int threads, long segmentSize, int readSize,
            long window) {
        this.boundary = boundary;
        this.description = description;
        this.threads = threads;
        this.segmentSize = segmentSize;
        this.readSize = readSize;
        this.window = window;
    }

    /** Records that end with a newline ({@code '\n'}), the last one possibly without. */
    public static ParallelScan lines() {
        return delimitedBy((byte) '\n');
    }

    /** Records that end with {@code delimiter}, the last one possibly without. */
    public static ParallelScan delimitedBy(byte delimiter) {
        return new ParallelScan(new Delimiter(delimiter), "delimitedBy(" + (delimiter & 0xFF) + ")", 0, 0, 0,
                WINDOW);
    }

    /** Records whose starts the caller's {@code boundary} finds. */
    public static ParallelScan splitBy(Boundary boundary) {
        return new ParallelScan(Objects.requireNonNull(boundary, "boundary"), "splitBy(" + boundary + ")", 0, 0, 0,
                WINDOW);
    }

    /**
     * The same scan on {@code threads} threads; 0 (the default) means one per core
     * ({@link Runtime#availableProcessors()}).
     *
     * @throws IllegalArgumentException if {@code threads} is negative
     */
    public ParallelScan withThreads(int threads) {
        if (threads < 0) {
            throw new IllegalArgumentException("threads must be 0 (one per core) or more: " + threads);
        }
        return new ParallelScan(boundary, description, threads, segmentSize, readSize, window);
    }

    /**
     * The same scan with segments of about {@code bytes} bytes (a segment grows to the end of its last record); 0
     * (the default) means a size chosen from the file's size and the thread count: about
     * {@value #SEGMENTS_PER_THREAD} segments per thread, between 1 MiB and 64 MiB.
     *
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public ParallelScan withSegmentSize(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("segment size must be 0 (chosen per file) or more: " + bytes);
        }
        return new ParallelScan(boundary, description, threads, bytes, readSize, window);
    }

    /**
     * The same scan, but each segment is read with positional reads ({@code pread}) into a buffer of about
     * {@code bytes} bytes per thread, and handed over a buffer-full of whole records at a time, rather than mapped.
     * A buffer-full is the records that start within the next {@code bytes} bytes, so it grows to hold a long
     * record; when it would need more than {@value #MAX_READ_BUFFER_TEXT} it is handed over mapped, in one piece.
     *
     * <p>Why: reading a warm file through a mapping pays for every page of the page cache twice, mapping it on the
     * first touch and unmapping it after, while {@code pread} copies from the page cache through the kernel's own
     * huge-page mapping into a buffer that stays in the CPU's cache. Which wins depends on how the file came into
     * the page cache: the kernel sizes page-cache folios by the writes that made them. A file written in small pieces
     * (through a pipe, as a log) counted its lines 1.3 to 1.8 times faster with 1 MiB reads here (10-12 GB/s against
     * 7-8 on one thread); a file written in 1 MiB chunks, in large folios that map cheaply, counted faster mapped
     * (22 GB/s against 14). A visitor that reads only some bytes of its records is better off mapped either way, since a
     * page it never touches costs nothing.
     *
     * @param bytes the buffer size, at least 4096; 0 goes back to mapping
     * @throws IllegalArgumentException if {@code bytes} is negative, or positive and below 4096
     */
    public ParallelScan withReads(int bytes) {
        if (bytes < 0 || (bytes > 0 && bytes < 4096)) {
            throw new IllegalArgumentException("read buffer must be 0 (map instead) or at least 4096 bytes: " + bytes);
        }
        return new ParallelScan(boundary, description, threads, segmentSize, bytes, window);
    }

    /** The same scan, with each thread mapping the file again every {@code bytes} bytes: for tests. */
    ParallelScan withWindow(long bytes) {
        return new ParallelScan(boundary, description, threads, segmentSize, readSize, bytes);
    }

    /** The number of threads a scan uses at most. */
    public int threads() {
        return threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
    }

    /** The segment size for a file of {@code fileSize} bytes. */
    long segmentSize(long fileSize) {
        return segmentSize > 0 ? segmentSize : defaultPieceSize(fileSize, threads());
    }

    /** About {@value #SEGMENTS_PER_THREAD} pieces per thread, from 1 MiB to 64 MiB. */
    static long defaultPieceSize(long fileSize, int threads) {
        long per = fileSize / ((long) threads * SEGMENTS_PER_THREAD);
        return Math.clamp(per, MIN_DEFAULT_SEGMENT, MAX_DEFAULT_SEGMENT);
    }

    /**
     * Scans {@code path}: every record is in exactly one segment, and every segment is visited once, by one of the
     * threads, with that thread's accumulator. Returns the accumulators merged (in no particular order; an empty
     * file gives a fresh accumulator, visited by nobody).
     *
     * @param accumulator makes one accumulator per thread
     * @param merge combines two accumulators into one (it may return either, changed)
     * @throws IOException if the file cannot be read, or the visitor throws one (the first failure stops the other
     *         threads after their current segment); {@link java.io.InterruptedIOException} if the calling thread is
     *         interrupted. Also, before anything is visited, for what cannot be cut into segments: anything but a
     *         regular file (a directory, a FIFO, a device), and a file whose size is not its length ({@code /proc},
     *         {@code /sys}: such files cannot be mapped). A SIGBUS while reading mapped memory, Sluice's or the
     *         visitor's (another process cut the file, a full file system, a failing device), is an
     *         {@code IOException} naming the file and the segment.
     * @throws IllegalStateException if the boundary rule returns an offset outside {@code [from, size]}
     */
    public <A> A scan(Path path, Supplier<A> accumulator, Visitor<A> visitor, BinaryOperator<A> merge)
            throws IOException {
        Objects.requireNonNull(visitor, "visitor");
        return run(path, accumulator, merge, (w, source, start, end) -> {
            if (readSize == 0) {
                visitMapped(visitor, w, source, start, end);
            } else {
                visitRead(visitor, w, source, start, end);
            }
        });
    }

    /**
     * Scans {@code path} as {@link #scan} does, but hands each segment over followed by {@value #PADDING} more
     * readable bytes, so that a parser may load eight bytes (or a vector of up to 64) at any offset of its records,
     * the last one included, with no bounds failure and no separate loop for the end of the segment.
     *
     * <p>What the padding holds: the bytes that follow the segment in the file (the start of the next segment's
     * records), and zeros past the size the file had when the scan began. Zeros, not a delimiter, so a parser that
     * searches for a delimiter must still stop at {@code length}; what the padding saves it is the bounds check on
     * each load.
     *
     * <p>How: a mapped segment is a view of the mapping that simply extends {@value #PADDING} bytes further. The
     * mapping ends with the file, though, so the records in roughly the last 64 KiB of the file (from the first record
     * that starts there, or from the start of the segment if later) are copied into a zero-filled buffer and handed
     * over as a segment of their own; a record longer than that at the very end is copied whole, into memory
     * allocated for it when it is over 64 MiB. With {@link #withReads}, every buffer-full is read with the padding
     * after it, and a record too long for any buffer is handed over mapped as with {@link #scan}, or copied when it
     * ends the file.
     *
     * {@snippet :
     * long semicolons = ParallelScan.lines().scanPadded(path, () -> new long[1], (n, records, length, position) -> {
     *     long pattern = Swar.broadcast((byte) ';');
     *     for (long at = 0; at < length; at += 8) {
     *         // the last word may take in up to seven bytes of padding: mask them off
     *         long word = Swar.lowBytes(records.get(Swar.WORD, at), (int) Math.min(8, length - at));
     *         n[0] += Long.bitCount(Swar.matches(word, pattern));
     *     }
     * }, (a, b) -> new long[] {a[0] + b[0]})[0];
     * }
     *
     * @throws IOException as for {@link #scan}
     * @throws IllegalStateException as for {@link #scan}
     */
    public <A> A scanPadded(Path path, Supplier<A> accumulator, PaddedVisitor<A> visitor, BinaryOperator<A> merge)
            throws IOException {
        Objects.requireNonNull(visitor, "visitor");
        return run(path, accumulator, merge, (w, source, start, end) -> {
            if (readSize > 0) {
                visitReadPadded(visitor, w, source, start, end);
            } else if (end + PADDING <= source.size()) {
                visitMappedPadded(visitor, w, source, start, end);
            } else {
                // Too near the end of the file for the mapping to hold the padding: the bulk mapped, the last
                // records copied.
                long tail = tailStart(source, w.file, start);
                if (tail > start) {
                    visitMappedPadded(visitor, w, source, start, tail);
                }
                visitCopied(visitor, w, source, tail, end);
            }
        });
    }

    /** One segment's visit, however the visitor wants it. */
    private interface Range<A> {
        void visit(Worker<A> w, Source source, long start, long end) throws IOException;
    }

    /** The file of one scan: its path, its size, and the channel that maps it and {@link #withReads} reads. */
    private record Source(Path path, FileChannel channel, long size) {
    }

    private <A> A run(Path path, Supplier<A> accumulator, BinaryOperator<A> merge, Range<A> range)
            throws IOException {
        Objects.requireNonNull(accumulator, "accumulator");
        Objects.requireNonNull(merge, "merge");
        Mapped.requireRegularFile("scan", path);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = Mapped.requireScannable("scan", path, channel);
            if (size == 0) {
                return accumulator.get();
            }
            long piece = segmentSize(size);
            long pieces = (size + piece - 1) / piece;
            Source source = new Source(path, channel, size);
            // One thread (the caller) maps in confined arenas, which close without the handshake with every thread
            // that closing a shared one takes; workers' arenas are shared, since this thread closes them at the end.
            boolean confined = threads() == 1 || pieces == 1;
            Queue<Worker<A>> workers = new ConcurrentLinkedQueue<>();
            try {
                Worker<A> merged = Claims.run("scan", threads(), pieces, () -> {
                    Worker<A> w = new Worker<>(accumulator.get(), confined);
                    workers.add(w);
                    return w;
                }, (w, k) -> {
                    long from = k * piece;
                    long to = Math.min(size, from + piece);
                    MemorySegment file = w.map(source, from / window, from);
                    // Segment k holds the records that start in [from, to); none may (a long record covers it all).
                    long start = k == 0 ? 0 : next(file, from, to, path);
                    if (start < to) {
                        range.visit(w, source, start, to == size ? size : next(file, to, size, path));
                    }
                }, (x, y) -> {
                    x.accumulator = merge.apply(x.accumulator, y.accumulator);
                    return x;
                });
                return merged.accumulator;
            } finally {
                // Claims has joined every worker, even after a failure: no thread reads a mapping any more.
                for (Worker<A> w : workers) {
                    w.unmap();
                }
            }
        }
    }

    /**
     * One thread's accumulator, its mapping of the file, and its buffer for reads and copies.
     *
     * <p>The mapping is of the whole file, since a boundary rule may look anywhere, and is kept from one segment to
     * the next: mapping per segment costs two system calls, and each unmap makes the kernel flush the other threads'
     * TLBs under the lock that page faults take too. Counting the lines of a 153 MB file cut into 100-byte segments
     * took 24 to 33 s on two threads that way, and 0.14 to 0.28 s mapped once per thread (the JMH
     * {@code LineCountBenchmark} with {@code segmentSize=100}; docs/ARCHITECTURE.md has the command). It is made again when the thread
     * moves to another {@link #WINDOW} of the file, which frees the page tables of the pages it read (8 bytes per
     * 4 KiB page: 2 GiB for a terabyte read through one mapping).
     */
    private static final class Worker<A> {
        A accumulator;
        final boolean confined;
        Arena arena;
        MemorySegment file;
        long window = -1;
        ByteBuffer buffer;

        Worker(A accumulator, boolean confined) {
            this.accumulator = accumulator;
            this.confined = confined;
        }

        /**
         * The whole file, mapped read-only, in a mapping made for {@code window} or since; {@code at}, the offset
         * the scan is at, is for the message when the file has been cut since the scan began.
         */
        MemorySegment map(Source source, long window, long at) throws IOException {
            if (file == null || this.window != window) {
                unmap();
                Arena a = confined ? Arena.ofConfined() : Arena.ofShared();
                boolean success = false;
                try {
                    file = Mapped.map(source.channel(), FileChannel.MapMode.READ_ONLY, source.path(), 0,
                            source.size(), a);
                    success = true;
                } catch (IOException e) {
                    // A read-only map longer than the file fails, and the JDK's message speaks of extending it.
                    long now = sizeOrMinus1(source.channel());
                    if (now >= 0 && now < source.size()) {
                        throw new IOException("scan(path=" + source.path() + ", pos=" + at + "): the file shrank to "
                                + now + " bytes during the scan (it had " + source.size()
                                + " when the scan began): another process cut it", e);
                    }
                    throw e;
                } finally {
                    if (!success) {
                        a.close();
                    }
                }
                arena = a;
                this.window = window;
            }
            return file;
        }

        private static long sizeOrMinus1(FileChannel channel) {
            try {
                return channel.size();
            } catch (IOException e) {
                return -1;
            }
        }

        void unmap() {
            if (arena != null) {
                arena.close();
                arena = null;
                file = null;
            }
        }

        /** A buffer of at least {@code n} bytes, page-aligned, kept for the thread's next reads. */
        ByteBuffer buffer(int n) {
            if (buffer == null || buffer.capacity() < n) {
                buffer = AlignedBuffers.allocate(n);
            }
            return buffer.clear().limit(n);
        }
    }

    private static <A> void visitMapped(Visitor<A> visitor, Worker<A> w, Source source, long start, long end)
            throws IOException {
        try {
            visitor.visit(w.accumulator, w.file.asSlice(start, end - start), start);
            Faults.deliver();
        } catch (InternalError e) {
            throw Mapped.sigbus("scan", source.path(), start, end - start, e);
        }
    }

    /** {@code [start, end)} and the {@value #PADDING} bytes after it, all in the mapping. */
    private static <A> void visitMappedPadded(PaddedVisitor<A> visitor, Worker<A> w, Source source, long start,
            long end) throws IOException {
        try {
            visitor.visit(w.accumulator, w.file.asSlice(start, end - start + PADDING), end - start, start);
            Faults.deliver();
        } catch (InternalError e) {
            throw Mapped.sigbus("scan", source.path(), start, end - start, e);
        }
    }

    /**
     * Where the copied records at the end of the file begin: the first record start in the last
     * {@value #PADDED_TAIL} bytes that leaves {@value #PADDING} bytes of the mapping after it, or {@code start} when
     * none does (the segment starts there already, or a long record covers that stretch).
     */
    private long tailStart(Source source, MemorySegment file, long start) throws IOException {
        long size = source.size();
        long from = Math.max(start + 1, size - PADDED_TAIL);
        long limit = size - PADDING + 1;
        if (from >= limit) {
            return start;
        }
        long at = next(file, from, limit, source.path());
        return at < limit ? at : start;
    }

    /**
     * Hands over {@code [start, end)} copied out of the mapping into a zero-filled buffer, with the bytes of the file
     * that follow it, up to {@value #PADDING}. For records near the end of the file, where the mapping cannot supply
     * the padding.
     */
    private static <A> void visitCopied(PaddedVisitor<A> visitor, Worker<A> w, Source source, long start, long end)
            throws IOException {
        long length = end - start;
        long copied = Math.min(source.size(), end + PADDING) - start;
        if (length <= MAX_READ_BUFFER) {
            MemorySegment b = MemorySegment.ofBuffer(w.buffer((int) length + PADDING));
            copy(source, w.file, start, b, copied);
            b.asSlice(copied).fill((byte) 0);
            visitor.visit(w.accumulator, b.asReadOnly(), length, start);
            return;
        }
        // A record longer than any buffer, at the end of the file: memory of its own, freed after the visit.
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment b;
            try {
                b = arena.allocate(length + PADDING, AlignedBuffers.PAGE); // zero-filled
            } catch (OutOfMemoryError e) {
                throw new IOException("scan(path=" + source.path() + ", pos=" + start + ", len=" + length
                        + "): the last record is too long to copy for its padding: " + e.getMessage(), e);
            }
            copy(source, w.file, start, b, copied);
            visitor.visit(w.accumulator, b.asReadOnly(), length, start);
        }
    }

    /** Copies {@code length} bytes of the mapping from {@code position} to the start of {@code to}. */
    private static void copy(Source source, MemorySegment file, long position, MemorySegment to, long length)
            throws IOException {
        try {
            MemorySegment.copy(file, position, to, 0, length);
            Faults.deliver();
        } catch (InternalError e) {
            throw Mapped.sigbus("scan", source.path(), position, length, e);
        }
    }

    /** Reads {@code [start, end)} a buffer-full of whole records at a time and visits each. */
    private <A> void visitRead(Visitor<A> visitor, Worker<A> w, Source source, long start, long end)
            throws IOException {
        for (long at = start; at < end; ) {
            long cut = end - at <= readSize ? end : next(w.file, at + readSize, end, source.path());
            long length = cut - at;
            if (length > MAX_READ_BUFFER) {
                visitMapped(visitor, w, source, at, cut);
            } else {
                ByteBuffer b = w.buffer(Math.max(readSize, (int) length)).limit((int) length);
                read(source, b, at);
                visitor.visit(w.accumulator, MemorySegment.ofBuffer(b.flip()).asReadOnly(), at);
            }
            at = cut;
        }
    }

    /** {@link #visitRead}, each buffer-full read with the {@value #PADDING} bytes after it (zeros past the end). */
    private <A> void visitReadPadded(PaddedVisitor<A> visitor, Worker<A> w, Source source, long start, long end)
            throws IOException {
        long size = source.size();
        for (long at = start; at < end; ) {
            long cut = end - at <= readSize ? end : next(w.file, at + readSize, end, source.path());
            long length = cut - at;
            if (length > MAX_READ_BUFFER) {
                if (cut + PADDING <= size) {
                    visitMappedPadded(visitor, w, source, at, cut);
                } else {
                    visitCopied(visitor, w, source, at, cut);
                }
            } else {
                int readable = (int) (Math.min(size, cut + PADDING) - at);
                ByteBuffer b = w.buffer(Math.max(readSize, (int) length) + PADDING).limit(readable);
                read(source, b, at);
                MemorySegment records = MemorySegment.ofBuffer(b.clear()).asSlice(0, length + PADDING);
                records.asSlice(readable).fill((byte) 0);
                visitor.visit(w.accumulator, records.asReadOnly(), length, at);
            }
            at = cut;
        }
    }

    /** Fills {@code b} from its position to its limit with the file's bytes at {@code at} on. */
    private static void read(Source source, ByteBuffer b, long at) throws IOException {
        while (b.hasRemaining()) {
            int n;
            try {
                n = source.channel().read(b, at + b.position());
            } catch (IOException e) {
                throw new IOException("pread(path=" + source.path() + ", pos=" + (at + b.position()) + ", len="
                        + b.remaining() + "): " + e.getMessage(), e);
            }
            if (n < 0) {
                throw new java.io.EOFException("pread(path=" + source.path() + ", pos=" + (at + b.position())
                        + ", len=" + b.remaining() + "): the file ended early: another process cut it");
            }
        }
    }

    private long next(MemorySegment file, long from, long limit, Path path) throws IOException {
        long at;
        try {
            at = boundary.next(file, from, limit);
            Faults.deliver();
        } catch (InternalError e) {
            throw Mapped.sigbus("scan", path, from, limit - from, e);
        }
        if (at < from || at > limit) {
            throw new IllegalStateException(description + " returned " + at + " for the first record start in ["
                    + from + ", " + limit + ") of a file of " + file.byteSize() + " bytes");
        }
        return at;
    }

    @Override
    public String toString() {
        return "ParallelScan[" + description + ", threads " + threads() + ", segment size "
                + (segmentSize > 0 ? String.valueOf(segmentSize) : "per file")
                + (readSize > 0 ? ", reads of " + readSize : ", mapped")
                + (window != WINDOW ? ", mapped again every " + window : "") + "]";
    }

    // ---------------------------------------------------------------- byte searches for visitors

    /**
     * How many bytes of {@code segment} equal {@code b}. Reads eight bytes per step, so counting newlines this way
     * runs at memory speed.
     */
    public static long count(MemorySegment segment, byte b) {
        long size = segment.byteSize();
        long pattern = Swar.broadcast(b);
        long n = 0;
        long words = size & ~7L;
        // The plainest loop is the fastest: C2 unrolls and vectorizes it (70 GB/s from L2 here, where a blocked
        // version with an int-counted inner loop ran at 57).
        for (long i = 0; i < words; i += 8) {
            n += Long.bitCount(Swar.matches(segment.get(WORD, i), pattern));
        }
        for (long i = words; i < size; i++) {
            if (segment.get(ValueLayout.JAVA_BYTE, i) == b) {
                n++;
            }
        }
        return n;
    }

    /**
     * The offset of the first byte equal to {@code b} at or after {@code from} in {@code segment}, or -1. Made for
     * searches that may run far; a parser looking for the end of a field a few bytes on does better loading a word
     * itself and calling {@link Swar#firstIndexOf}, which costs a handful of instructions where this call checks its
     * arguments and finishes byte by byte near the end of the segment.
     */
    public static long indexOf(MemorySegment segment, long from, byte b) {
        Objects.checkIndex(from, segment.byteSize() + 1);
        return indexOf(segment, from, segment.byteSize(), b);
    }

    /** The offset of the first byte equal to {@code b} in {@code [from, size)} of {@code segment}, or -1. */
    static long indexOf(MemorySegment segment, long from, long size, byte b) {
        long pattern = Swar.broadcast(b);
        long i = from;
        for (; i + 8 <= size; i += 8) {
            int k = Swar.firstIndexOf(segment.get(WORD, i), pattern);
            if (k < 8) {
                return i + k;
            }
        }
        for (; i < size; i++) {
            if (segment.get(ValueLayout.JAVA_BYTE, i) == b) {
                return i;
            }
        }
        return -1;
    }

    /** A delimiter byte ends each record; a record starts at 0 and after every delimiter. */
    private record Delimiter(byte delimiter) implements Boundary {
        @Override
        public long next(MemorySegment file, long from, long limit) {
            if (file.get(ValueLayout.JAVA_BYTE, from - 1) == delimiter) {
                return from;
            }
            long at = indexOf(file, from, limit, delimiter);
            return at < 0 ? limit : at + 1;
        }
    }
}
