package io.sluice;

import io.sluice.internal.AlignedBuffers;
import io.sluice.internal.Faults;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
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
 * receives it.
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

    /** The smallest segment size the default picks (1 MiB): smaller segments cost more in mapping than they gain. */
    static final long MIN_DEFAULT_SEGMENT = 1L << 20;
    /** The largest segment size the default picks (64 MiB). */
    static final long MAX_DEFAULT_SEGMENT = 64L << 20;
    /** Segments per thread the default aims at, so that claims even out uneven work. */
    static final int SEGMENTS_PER_THREAD = 16;
    /** The largest buffer {@link #withReads} grows to for a long record; longer ones are handed over mapped. */
    static final int MAX_READ_BUFFER = 64 << 20;
    private static final String MAX_READ_BUFFER_TEXT = "64 MiB";

    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101_0101_0101_0101L;
    private static final long LOW7 = 0x7F7F_7F7F_7F7F_7F7FL;

    private final Boundary boundary;
    private final String description;
    private final int threads;
    private final long segmentSize;
    /** 0: hand over mapped memory; otherwise read into a buffer of about this many bytes per thread. */
    private final int readSize;

    private ParallelScan(Boundary boundary, String description, int threads, long segmentSize, int readSize) {
        this.boundary = boundary;
        this.description = description;
        this.threads = threads;
        this.segmentSize = segmentSize;
        this.readSize = readSize;
    }

    /** Records that end with a newline ({@code '\n'}), the last one possibly without. */
    public static ParallelScan lines() {
        return delimitedBy((byte) '\n');
    }

    /** Records that end with {@code delimiter}, the last one possibly without. */
    public static ParallelScan delimitedBy(byte delimiter) {
        return new ParallelScan(new Delimiter(delimiter), "delimitedBy(" + (delimiter & 0xFF) + ")", 0, 0, 0);
    }

    /** Records whose starts the caller's {@code boundary} finds. */
    public static ParallelScan splitBy(Boundary boundary) {
        return new ParallelScan(Objects.requireNonNull(boundary, "boundary"), "splitBy(" + boundary + ")", 0, 0, 0);
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
        return new ParallelScan(boundary, description, threads, segmentSize, readSize);
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
        return new ParallelScan(boundary, description, threads, bytes, readSize);
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
        return new ParallelScan(boundary, description, threads, segmentSize, bytes);
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
        Objects.requireNonNull(accumulator, "accumulator");
        Objects.requireNonNull(visitor, "visitor");
        Objects.requireNonNull(merge, "merge");
        Mapped.requireRegularFile("scan", path);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = Mapped.requireScannable("scan", path, channel);
            if (size == 0) {
                return accumulator.get();
            }
            long piece = segmentSize(size);
            long pieces = (size + piece - 1) / piece;
            Worker<A> merged = Claims.run("scan", threads(), pieces, () -> new Worker<>(accumulator.get()), (w, k) -> {
                long from = k * piece;
                long to = Math.min(size, from + piece);
                try (Arena arena = Arena.ofConfined()) {
                    // The whole file, though only this piece and the record crossing its end are read: the
                    // boundary rule may need to look anywhere, and an unread page of a mapping costs nothing.
                    MemorySegment file = Mapped.map(channel, FileChannel.MapMode.READ_ONLY, path, 0, size, arena);
                    // Segment k holds the records that start in [from, to); none may (a long record covers it all).
                    long start = k == 0 ? 0 : next(file, from, to, path);
                    if (start < to) {
                        long end = to == size ? size : next(file, to, size, path);
                        if (readSize == 0) {
                            visitMapped(visitor, w.accumulator, file, start, end, path);
                        } else {
                            visitRead(visitor, w, channel, file, start, end, path);
                        }
                    }
                }
            }, (x, y) -> {
                x.accumulator = merge.apply(x.accumulator, y.accumulator);
                return x;
            });
            return merged.accumulator;
        }
    }

    /** One thread's accumulator and, for {@link #withReads}, its buffer. */
    private static final class Worker<A> {
        A accumulator;
        ByteBuffer buffer;

        Worker(A accumulator) {
            this.accumulator = accumulator;
        }

        /** A buffer of at least {@code n} bytes, page-aligned, kept for the thread's next reads. */
        ByteBuffer buffer(int n) {
            if (buffer == null || buffer.capacity() < n) {
                buffer = AlignedBuffers.allocate(n);
            }
            return buffer.clear().limit(n);
        }
    }

    private static <A> void visitMapped(Visitor<A> visitor, A acc, MemorySegment file, long start, long end, Path path)
            throws IOException {
        try {
            visitor.visit(acc, file.asSlice(start, end - start), start);
            Faults.deliver();
        } catch (InternalError e) {
            throw Mapped.sigbus("scan", path, start, end - start, e);
        }
    }

    /** Reads {@code [start, end)} a buffer-full of whole records at a time and visits each. */
    private <A> void visitRead(Visitor<A> visitor, Worker<A> w, FileChannel channel, MemorySegment file, long start,
            long end, Path path) throws IOException {
        for (long at = start; at < end; ) {
            long cut = end - at <= readSize ? end : next(file, at + readSize, end, path);
            long length = cut - at;
            if (length > MAX_READ_BUFFER) {
                visitMapped(visitor, w.accumulator, file, at, cut, path);
            } else {
                ByteBuffer b = w.buffer(Math.max(readSize, (int) length)).limit((int) length);
                while (b.hasRemaining()) {
                    int n;
                    try {
                        n = channel.read(b, at + b.position());
                    } catch (IOException e) {
                        throw new IOException("pread(path=" + path + ", pos=" + (at + b.position()) + ", len="
                                + b.remaining() + "): " + e.getMessage(), e);
                    }
                    if (n < 0) {
                        throw new java.io.EOFException("pread(path=" + path + ", pos=" + (at + b.position())
                                + ", len=" + b.remaining() + "): the file ended early: another process cut it");
                    }
                }
                visitor.visit(w.accumulator, MemorySegment.ofBuffer(b.flip()).asReadOnly(), at);
            }
            at = cut;
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
                + (readSize > 0 ? ", reads of " + readSize : ", mapped") + "]";
    }

    // ---------------------------------------------------------------- byte searches for visitors

    /**
     * How many bytes of {@code segment} equal {@code b}. Reads eight bytes per step, so counting newlines this way
     * runs at memory speed.
     */
    public static long count(MemorySegment segment, byte b) {
        long size = segment.byteSize();
        long pattern = (b & 0xFFL) * ONES;
        long n = 0;
        long words = size & ~7L;
        // The plainest loop is the fastest: C2 unrolls and vectorizes it (70 GB/s from L2 here, where a blocked
        // version with an int-counted inner loop ran at 57).
        for (long i = 0; i < words; i += 8) {
            n += Long.bitCount(zeroBytes(segment.get(WORD, i) ^ pattern));
        }
        for (long i = words; i < size; i++) {
            if (segment.get(ValueLayout.JAVA_BYTE, i) == b) {
                n++;
            }
        }
        return n;
    }

    /** The offset of the first byte equal to {@code b} at or after {@code from} in {@code segment}, or -1. */
    public static long indexOf(MemorySegment segment, long from, byte b) {
        Objects.checkIndex(from, segment.byteSize() + 1);
        return indexOf(segment, from, segment.byteSize(), b);
    }

    /** The offset of the first byte equal to {@code b} in {@code [from, size)} of {@code segment}, or -1. */
    static long indexOf(MemorySegment segment, long from, long size, byte b) {
        long pattern = (b & 0xFFL) * ONES;
        long i = from;
        for (; i + 8 <= size; i += 8) {
            long z = zeroBytes(segment.get(WORD, i) ^ pattern);
            if (z != 0) {
                return i + (Long.numberOfTrailingZeros(z) >>> 3);
            }
        }
        for (; i < size; i++) {
            if (segment.get(ValueLayout.JAVA_BYTE, i) == b) {
                return i;
            }
        }
        return -1;
    }

    /**
     * 0x80 in each byte of the result whose byte in {@code v} is zero, 0 in every other: exact, with none of the
     * false positives of the shorter {@code (v - 0x01..) & ~v} form, so it can be counted as well as searched.
     */
    private static long zeroBytes(long v) {
        return ~(((v & LOW7) + LOW7) | v | LOW7);
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
