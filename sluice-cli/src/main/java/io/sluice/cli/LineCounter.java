package io.sluice.cli;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the newlines of a regular file for {@code sluice wc -l}, where the JVM's start and the JIT's warm-up are a
 * large part of the time: GNU {@code wc -l} reads a warm 1 GiB file in less time than a JVM takes to start and
 * compile a loop.
 *
 * <p>Why it looks the way it does (measurements in docs/benchmarks/2026-11-23-wc.md):
 * <ul>
 *   <li>The loop counts a {@code long[]} with plain array reads, eight bytes a step, adding the matches into byte
 *       lanes and summing them every 255 steps. That shape is fast before the C2 compiler has seen it: C1's code runs
 *       it at 3 to 6 GB/s where a loop over a {@link MemorySegment} or a {@link ByteBuffer} runs at 0.1 to 1 GB/s
 *       and the interpreter at a few MB/s; and C2 vectorizes it (about 38 GB/s from cache, where a loop calling
 *       {@link Long#bitCount} per word stays at 13). Most of a short run happens before C2 has compiled anything.</li>
 *   <li>Bytes reach the array by a bulk copy, from a mapping of the file or from a read into a page-aligned buffer
 *       (a destination 16 bytes past a page boundary made the kernel's copy four times slower on this machine's
 *       CPU). Counting a mapping directly would save the copy once compiled, but its first use costs tens of
 *       milliseconds (the FFM access classes' set-up) and it is slow until C2 compiles it.</li>
 *   <li>Files from {@value #MAP_THRESHOLD_TEXT} up are mapped, in pieces claimed by one thread per core: the page
 *       tables cost less than the kernel's copy into a buffer. Smaller files are read, since mapping's fixed costs
 *       (the foreign-memory classes' first use, thread starts) are more than the copy saves; a file of one piece is
 *       counted on the calling thread.</li>
 *   <li>Another process can cut a mapped file while it is counted, and touching a page past the new end raises
 *       SIGBUS, which the JVM turns into an {@link InternalError}, in compiled code at the thread's next safepoint
 *       poll. So the mapped pieces are counted only on threads of their own, whose failure is caught wherever the
 *       error surfaces (the thread's own {@code catch} or its uncaught-exception handler); the JDK refuses to map a
 *       piece past the new end. Either way the file is then counted again with reads, to its new end, as GNU wc
 *       would have read it.</li>
 * </ul>
 */
final class LineCounter {
    /** Bytes claimed by a thread at a time, and mapped at a time. */
    static final long PIECE = 8L << 20;
    /** Files from this size up are mapped; smaller ones read. */
    static final long MAP_THRESHOLD = 128L << 20;
    private static final String MAP_THRESHOLD_TEXT = "128 MiB";
    /** Bytes copied into the array and counted at a time: the array stays in the core's cache. */
    private static final int CHUNK = 64 << 10;

    private static final long LOW7 = 0x7F7F_7F7F_7F7F_7F7FL;
    private static final long NEWLINES = 0x0A0A_0A0A_0A0A_0A0AL;
    private static final long BYTE_PAIRS = 0x00FF_00FF_00FF_00FFL;
    private static final long SUM_OF_SHORTS = 0x0001_0001_0001_0001L;

    private LineCounter() {
    }

    /**
     * The number of newline bytes in {@code path}, reading it up to {@code size} bytes (the size a {@code stat} gave),
     * or to its end if another process made it shorter since.
     *
     * @param threads threads to count with; 0 for one per core
     * @throws IOException if the file cannot be opened or read; the message names the call, the file and the range
     */
    static long count(Path path, long size, int threads) throws IOException {
        return count(path, size, threads, MAP_THRESHOLD, null);
    }

    /**
     * {@link #count(Path, long, int)} mapping files from {@code mapThreshold} bytes up, and running {@code afterMap}
     * (unless null) each time a piece has been mapped and before it is read: for tests.
     */
    static long count(Path path, long size, int threads, long mapThreshold, Runnable afterMap) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            int n = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
            n = (int) Math.max(1, Math.min(n, (size + PIECE - 1) / PIECE));
            AtomicLong next = new AtomicLong();
            if (n > 1) {
                boolean map = size >= mapThreshold;
                Worker[] workers = new Worker[n];
                Thread[] running = new Thread[n];
                for (int k = 0; k < n; k++) {
                    workers[k] = new Worker(channel, path, size, next, map, afterMap);
                    running[k] = new Thread(workers[k], "wc-" + k);
                    // An InternalError raised at a poll after the worker's catch ends the thread: caught there.
                    running[k].setUncaughtExceptionHandler(workers[k]);
                    running[k].start();
                }
                long total = 0;
                boolean unreadable = false;
                for (int k = 0; k < n; k++) {
                    try {
                        running[k].join();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new InterruptedIOException("wc: interrupted while counting " + path);
                    }
                    Throwable f = workers[k].failure;
                    if (f == null) {
                        total += workers[k].lines;
                    } else if (f instanceof InternalError || f instanceof Unmappable) {
                        unreadable = true;
                    } else if (f instanceof IOException e) {
                        throw e;
                    } else if (f instanceof RuntimeException e) {
                        throw e;
                    } else if (f instanceof Error e) {
                        throw e;
                    } else {
                        throw new IllegalStateException("wc: a counting thread failed", f);
                    }
                }
                if (!unreadable) {
                    return total;
                }
                // A piece could not be mapped or a page not read: the file was cut (or a device failed). Count
                // what is there now.
                next.set(0);
            }
            return new Worker(channel, path, size, next, false, null).count();
        }
    }

    /** A piece of the file could not be mapped: the mapped count gives way to reads. */
    private static final class Unmappable extends IOException {
        private static final long serialVersionUID = 1L;

        Unmappable(IOException cause) {
            super(cause);
        }
    }

    /**
     * One thread's share of a count: pieces claimed from a counter shared with the other workers, each mapped or
     * read, and counted. A named class rather than a lambda, so the start-up cache holds it like any other class.
     */
    private static final class Worker implements Runnable, Thread.UncaughtExceptionHandler {
        private final FileChannel channel;
        private final Path path;
        private final long size;
        private final AtomicLong next;
        private final boolean map;
        private final Runnable afterMap;
        private final long[] words = new long[CHUNK / 8];
        /** For reads, made on first use. */
        private ByteBuffer buffer;
        private LongBuffer longs;
        /** The count, once {@link #run} returned without a failure. */
        long lines;
        /** What ended the count early, if anything: set by this worker's thread, read after it ends. */
        Throwable failure;

        Worker(FileChannel channel, Path path, long size, AtomicLong next, boolean map, Runnable afterMap) {
            this.channel = channel;
            this.path = path;
            this.size = size;
            this.next = next;
            this.map = map;
            this.afterMap = afterMap;
        }

        @Override
        public void run() {
            try {
                lines = count();
            } catch (IOException | InternalError e) {
                failure = e;
            }
        }

        @Override
        public void uncaughtException(Thread t, Throwable e) {
            failure = e;
        }

        /** Counts the pieces this worker claims. */
        long count() throws IOException {
            long n = 0;
            for (long from = next.getAndAdd(PIECE); from < size; from = next.getAndAdd(PIECE)) {
                long to = Math.min(size, from + PIECE);
                n += map ? countMapped(from, to) : countRead(from, to);
            }
            return n;
        }

        private long countMapped(long from, long to) throws IOException {
            long length = to - from;
            MemorySegment target = MemorySegment.ofArray(words);
            long n = 0;
            // Each piece is unmapped once counted, so the page tables stay small however big the file.
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment piece;
                try {
                    // The JDK refuses to map past the end of a file opened to read (another process cut it).
                    piece = channel.map(FileChannel.MapMode.READ_ONLY, from, length, arena);
                } catch (IOException e) {
                    throw new Unmappable(e);
                }
                if (afterMap != null) {
                    afterMap.run();
                }
                for (long at = 0; at < length; at += CHUNK) {
                    int len = (int) Math.min(CHUNK, length - at);
                    if ((len & 7) != 0) {
                        words[len >>> 3] = 0; // the bytes past the end read as zero, which is not a newline
                    }
                    MemorySegment.copy(piece, at, target, 0, len);
                    n += countNewlines(words, (len + 7) >>> 3);
                }
            }
            return n;
        }

        /** Counts {@code [from, to)} with reads, stopping early where the file ends. */
        private long countRead(long from, long to) throws IOException {
            if (buffer == null) {
                // Page-aligned: the kernel copies into a misaligned destination several times slower on some CPUs.
                buffer = ByteBuffer.allocateDirect(CHUNK + 4096).alignedSlice(4096).order(ByteOrder.nativeOrder());
                longs = buffer.asLongBuffer();
            }
            long n = 0;
            for (long at = from; at < to; ) {
                buffer.clear().limit((int) Math.min(CHUNK, to - at));
                int got;
                try {
                    got = channel.read(buffer, at);
                } catch (IOException e) {
                    throw new IOException("pread(path=" + path + ", pos=" + at + ", len=" + buffer.limit() + "): "
                            + e.getMessage(), e);
                }
                if (got <= 0) {
                    break;
                }
                // Pad to whole words with zeros, which are not newlines.
                buffer.limit(buffer.capacity());
                while ((buffer.position() & 7) != 0) {
                    buffer.put((byte) 0);
                }
                int count = buffer.position() >>> 3;
                longs.clear();
                longs.get(words, 0, count);
                n += countNewlines(words, count);
                at += got;
            }
            return n;
        }
    }

    /** The newline bytes in {@code w[0, n)}. */
    static long countNewlines(long[] w, int n) {
        long lines = 0;
        int i = 0;
        while (i < n) {
            // Each step adds at most 1 to each byte lane of acc, so 255 steps cannot carry into the next lane.
            int end = Math.min(n, i + 255);
            long acc = 0;
            for (; i < end; i++) {
                long v = w[i] ^ NEWLINES;
                // 0x80 in each byte of v that is zero (exactly: no borrow from a neighbour), moved down to 0x01
                acc += ~(((v & LOW7) + LOW7) | v | LOW7) >>> 7;
            }
            long pairs = (acc & BYTE_PAIRS) + ((acc >>> 8) & BYTE_PAIRS);
            lines += (pairs * SUM_OF_SHORTS) >>> 48;
        }
        return lines;
    }
}
