package io.sluice;

import io.sluice.internal.Errno;
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

/**
 * Writing and reading whole big files with every core, through memory-mapped regions: {@link #fill} writes a file
 * from bytes already in memory, {@link #sum} reads every byte of one back.
 *
 * <p>The file is cut into regions (about 16 per thread, from 1 MiB to 64 MiB each); threads claim regions one at a
 * time from a shared counter until none is left, map each one, copy, and unmap it. A region is a memory copy to or
 * from the page cache with no system call per chunk, and no thread waits for another.
 *
 * {@snippet :
 * byte[] random = new byte[128 << 20];
 * new SplittableRandom(1).nextBytes(random);
 * BigFiles.fill(path, 12L << 30, random);          // 12 GiB: the 128 MiB source, over and over
 * long sum = BigFiles.sum(path);                    // every byte read back
 * }
 */
public final class BigFiles {
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final long LOW_BYTES = 0x00FF_00FF_00FF_00FFL;
    /**
     * Words whose bytes can be added into 16-bit lanes before a lane could overflow: each step adds at most
     * 2 x 255 to a lane, and 128 x 510 = 65280 is below 65536.
     */
    private static final int WORDS_PER_FOLD = 128;

    private BigFiles() {
    }

    /**
     * {@link #fill(Path, long, byte[], int)} with one thread per core.
     */
    public static void fill(Path path, long size, byte[] source) throws IOException {
        fill(path, size, source, Runtime.getRuntime().availableProcessors());
    }

    /**
     * Makes {@code path} a file of {@code size} bytes holding {@code source} over and over (the last copy cut
     * short), written by {@code threads} threads. The file is created, or truncated first if it exists. Bytes reach
     * the page cache, not necessarily the device: {@link FileChannel#force} makes them durable.
     *
     * @param source the bytes to repeat; not changed, and not to be changed by others during the call
     * @throws IllegalArgumentException if {@code size} is negative, {@code threads} is below 1, or {@code source} is
     *         empty while {@code size} is not 0
     * @throws IOException if the file cannot be written, the disk is full included (as for {@link MappedWriter}:
     *         a plain error with native access, else SIGBUS in a copy, reported on a best-effort basis)
     */
    public static void fill(Path path, long size, byte[] source, int threads) throws IOException {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(source, "source");
        if (size < 0 || threads < 1 || (source.length == 0 && size > 0)) {
            throw new IllegalArgumentException("fill needs size >= 0, threads >= 1 and a non-empty source: size "
                    + size + ", threads " + threads + ", source of " + source.length + " bytes");
        }
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            if (size == 0) {
                return;
            }
            // Grow the file once, before any mapping: FileChannel.map grows a file itself when a region runs past
            // the end, but two threads doing so at once could shrink it under each other's mapping.
            channel.write(ByteBuffer.allocate(1), size - 1);
            MemorySegment src = MemorySegment.ofArray(source);
            long region = ParallelScan.defaultPieceSize(size, threads);
            long regions = (size + region - 1) / region;
            Claims.run("fill", threads, regions, () -> null, (none, k) -> {
                long from = k * region;
                long length = Math.min(region, size - from);
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment dst = Mapped.map(channel, FileChannel.MapMode.READ_WRITE, path, from, length, arena);
                    Mapped.preferLargeFolios(dst);
                    // The whole region is written, so ask for all its pages at once; a full disk is EFAULT here.
                    int errno = Mapped.populateForWriting(dst, 0, length);
                    if (errno == Errno.EFAULT) {
                        throw Mapped.noPages("fill", path, from, length, errno);
                    }
                    long done = 0;
                    while (done < length) {
                        long s = (from + done) % source.length;
                        long n = Math.min(length - done, source.length - s);
                        try {
                            MemorySegment.copy(src, s, dst, done, n);
                        } catch (InternalError e) {
                            throw new IOException("fill(path=" + path + ", pos=" + (from + done) + ", len=" + n
                                    + "): the mapped page could not be written (SIGBUS): the file system is full or "
                                    + "over quota, or another process cut the file", e);
                        }
                        done += n;
                    }
                }
            }, (a, b) -> null);
        }
    }

    /** {@link #sum(Path, int)} with one thread per core. */
    public static long sum(Path path) throws IOException {
        return sum(path, Runtime.getRuntime().availableProcessors());
    }

    /**
     * The sum of every byte of the file, each taken as unsigned (0 to 255), read by {@code threads} threads: a
     * check that every byte was read, and a measure of how fast a file can be visited.
     *
     * @throws IllegalArgumentException if {@code threads} is below 1
     */
    public static long sum(Path path, int threads) throws IOException {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1: " + threads);
        }
        // Any byte may start a region: no record boundaries to respect.
        long[] total = ParallelScan.splitBy((file, from, limit) -> from).withThreads(threads)
                .scan(path, () -> new long[1], (acc, bytes, position) -> acc[0] += sumBytes(bytes),
                        (a, b) -> new long[] {a[0] + b[0]});
        return total[0];
    }

    /** The sum of the unsigned bytes of {@code s}, eight at a time. */
    static long sumBytes(MemorySegment s) {
        long size = s.byteSize();
        long total = 0;
        long i = 0;
        long block = WORDS_PER_FOLD * 8L;
        for (; i + block <= size; i += block) {
            // Even and odd bytes of each word land in four 16-bit lanes; fold the lanes before they can overflow.
            long lanes = 0;
            for (int k = 0; k < WORDS_PER_FOLD * 8; k += 8) {
                long v = s.get(WORD, i + k);
                lanes += (v & LOW_BYTES) + ((v >>> 8) & LOW_BYTES);
            }
            total += (lanes & 0xFFFF) + ((lanes >>> 16) & 0xFFFF) + ((lanes >>> 32) & 0xFFFF) + (lanes >>> 48);
        }
        for (; i < size; i++) {
            total += s.get(ValueLayout.JAVA_BYTE, i) & 0xFF;
        }
        return total;
    }
}
