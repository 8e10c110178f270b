package io.sluice.cli.bench;

/**
 * One access pattern: random positional reads of {@code blockSize} at block-aligned offsets over the whole file
 * ({@code randread}), or each thread reading its own slice of the file front to back and wrapping ({@code seqread}).
 * The names are fio's, and the JSON rows use them. {@code depth} is how many requests a thread keeps in flight (1:
 * one blocking call at a time) and {@code direct} whether the file is read with O_DIRECT, bypassing the page cache.
 */
public record Workload(String name, int blockSize, int depth, boolean direct) {
    public static final String RANDREAD = "randread";
    public static final String SEQREAD = "seqread";

    /** A workload of one request at a time through the page cache. */
    public Workload(String name, int blockSize) {
        this(name, blockSize, 1, false);
    }

    public boolean isRandom() {
        return name.equals(RANDREAD);
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
        return name + " " + ByteSize.format(blockSize) + (direct ? ", O_DIRECT" : "") + (depth > 1 ? ", depth " + depth : "");
    }
}
