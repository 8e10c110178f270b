package io.sluice.bench;

/**
 * One access pattern: random positional reads of {@code blockSize} at block-aligned offsets over the whole file
 * ({@code randread}), or each thread reading its own slice of the file front to back and wrapping ({@code seqread}).
 * The names are fio's, and the JSON rows use them.
 *
 * <p>The write benchmarks add {@code seqwrite} (a file written front to back in chunks of {@code blockSize}),
 * {@code fill} (a big file written from memory by several threads) and {@code sum} (every byte of a big file read
 * back); {@code file} says whether the file written was {@value #NEW_FILE} or already {@value #CACHED_FILE} (reads are
 * always of a cached file). {@code depth} is how many requests a thread keeps in flight (1: one blocking call at a
 * time) and {@code direct} whether the file is read with O_DIRECT, bypassing the page cache.
 *
 * <p>The io_uring section adds {@code randread-vthreads} (random reads made by virtual threads rather than platform
 * threads, many more of them than cores) and {@code randwrite} (random positional writes over a file that exists and
 * is in the page cache); both use the random positions of {@code randread}.
 */
public record Workload(String name, int blockSize, int depth, boolean direct, String file) {
    public static final String RANDREAD = "randread";
    public static final String SEQREAD = "seqread";
    /** Random reads, each thread a virtual thread. */
    public static final String RANDREAD_VTHREADS = "randread-vthreads";
    /** Random positional writes over a cached file. */
    public static final String RANDWRITE = "randwrite";
    /** Random reads of one block, each opening its file (one of many) first and closing it after. */
    public static final String OPEN_READ_CLOSE = "open-read-close";
    /** A file written front to back in chunks. */
    public static final String SEQWRITE = "seqwrite";
    /** A big file written from memory by several threads. */
    public static final String FILL = "fill";
    /** Every byte of a big file read back. */
    public static final String SUM = "sum";
    /** A file created for each run. */
    public static final String NEW_FILE = "new";
    /** A file that exists and is in the page cache. */
    public static final String CACHED_FILE = "cached";

    /** A workload of one request at a time on a cached file. */
    public Workload(String name, int blockSize) {
        this(name, blockSize, CACHED_FILE);
    }

    /** A workload of one request at a time through the page cache, on a new or cached file. */
    public Workload(String name, int blockSize, String file) {
        this(name, blockSize, 1, false, file);
    }

    /** A read workload with {@code depth} requests in flight, through the page cache or with O_DIRECT. */
    public Workload(String name, int blockSize, int depth, boolean direct) {
        this(name, blockSize, depth, direct, CACHED_FILE);
    }

    /** This workload with {@code depth} requests in flight. */
    public Workload withDepth(int depth) {
        return new Workload(name, blockSize, depth, direct, file);
    }

    public boolean isRandom() {
        return name.equals(RANDREAD) || name.equals(RANDREAD_VTHREADS) || name.equals(RANDWRITE)
                || name.equals(OPEN_READ_CLOSE);
    }

    /** Whether the threads of this workload are virtual threads. */
    public boolean virtualThreads() {
        return name.equals(RANDREAD_VTHREADS);
    }

    /** Whether this workload writes to the file rather than reading it. */
    public boolean writes() {
        return name.equals(SEQWRITE) || name.equals(FILL) || name.equals(RANDWRITE);
    }

    /**
     * The positions thread {@code thread} of {@code threads} reads, in order, cycled for as long as a sample lasts.
     * Computed before timing starts so no random-number cost is measured, and the same for every contender.
     */
    public long[] offsets(long fileSize, int thread, int threads) {
        long blocks = fileSize / blockSize;
        if (blocks == 0) {
            throw new IllegalArgumentException("file of " + fileSize + " bytes is smaller than one block of " + blockSize);
        }
        if (isRandom()) {
            long[] out = new long[1 << 16];
            // A fixed seed per thread: every contender reads exactly the same blocks in the same order.
            java.util.SplittableRandom rnd = new java.util.SplittableRandom(0x5EED_0000L + thread);
            for (int i = 0; i < out.length; i++) {
                out[i] = rnd.nextLong(blocks) * blockSize;
            }
            return out;
        }
        long per = Math.max(1, blocks / threads);
        long first = (thread % blocks) * per % blocks;
        int n = (int) Math.min(per, 1 << 20);
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = ((first + i) % blocks) * blockSize;
        }
        return out;
    }

    @Override
    public String toString() {
        return name + " " + ByteSize.format(blockSize) + (writes() ? ", " + file + " file" : "")
                + (direct ? ", O_DIRECT" : "") + (depth > 1 ? ", depth " + depth : "");
    }
}
