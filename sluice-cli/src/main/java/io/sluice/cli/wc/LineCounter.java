package io.sluice.cli.wc;

import java.io.IOException;
import java.io.InterruptedIOException;
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
 *       it at 3 to 6 GB/s where a loop over a {@code MemorySegment} or a {@link ByteBuffer} runs at 0.1 to 1 GB/s
 *       and the interpreter at a few MB/s; and C2 vectorizes it (about 38 GB/s from cache, where a loop calling
 *       {@link Long#bitCount} per word stays at 13). Most of a short run happens before C2 has compiled anything.</li>
 *   <li>Bytes reach the array by a read into a page-aligned buffer and a bulk copy (a destination 16 bytes past a
 *       page boundary made the kernel's copy four times slower on this machine's CPU), in pieces claimed by one
 *       thread per core for files of more than one piece. Mapping files of 128 MiB and more instead, with the same
 *       threads, took 213 and 533 ms for 1 and 4 GiB against 182 and 456 here: page faults and unmapping cost more
 *       than the kernel's copy saves (docs/benchmarks/2026-11-24-wc.md). And a file another process cut would raise
 *       SIGBUS in a mapped copy; reads just end where the file now ends, as GNU wc's do.</li>
 * </ul>
 */
public final class LineCounter {
    /** Bytes claimed by a thread at a time. */
    static final long PIECE = 8L << 20;
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
    public static long count(Path path, long size, int threads) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            int n = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
            n = (int) Math.max(1, Math.min(n, (size + PIECE - 1) / PIECE));
            AtomicLong next = new AtomicLong();
            if (n == 1) {
                return new Worker(channel, path, size, next).count();
            }
            Worker[] workers = new Worker[n];
            Thread[] running = new Thread[n];
            for (int k = 0; k < n; k++) {
                workers[k] = new Worker(channel, path, size, next);
                running[k] = new Thread(workers[k], "wc-" + k);
                running[k].start();
            }
            long total = 0;
            for (int k = 0; k < n; k++) {
                try {
                    running[k].join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("wc: interrupted while counting " + path);
                }
                Throwable f = workers[k].failure;
                if (f instanceof IOException e) {
                    throw e;
                } else if (f instanceof RuntimeException e) {
                    throw e;
                } else if (f instanceof Error e) {
                    throw e;
                } else if (f != null) {
                    throw new IllegalStateException("wc: a counting thread failed", f);
                }
                total += workers[k].lines;
            }
            return total;
        }
    }

    /**
     * One thread's share of a count: pieces claimed from a counter shared with the other workers, each read and
     * counted. A named class rather than a lambda, so the start-up cache holds it like any other class.
     */
    private static final class Worker implements Runnable {
        private final FileChannel channel;
        private final Path path;
        private final long size;
        private final AtomicLong next;
        private final long[] words = new long[CHUNK / 8];
        private ByteBuffer buffer;
        private LongBuffer longs;
        /** The count, once {@link #run} returned without a failure. */
        long lines;
        /** What ended the count early, if anything: set by this worker's thread, read after it ends. */
        Throwable failure;

        Worker(FileChannel channel, Path path, long size, AtomicLong next) {
            this.channel = channel;
            this.path = path;
            this.size = size;
            this.next = next;
        }

        @Override
        public void run() {
            try {
                lines = count();
            } catch (IOException | RuntimeException | Error e) {
                failure = e;
            }
        }

        /** Counts the pieces this worker claims. */
        long count() throws IOException {
            long n = 0;
            for (long from = next.getAndAdd(PIECE); from < size; from = next.getAndAdd(PIECE)) {
                n += countRead(from, Math.min(size, from + PIECE));
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
