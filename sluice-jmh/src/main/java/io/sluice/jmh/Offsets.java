package io.sluice.jmh;

import java.util.SplittableRandom;

/**
 * Precomputed random read positions, so that a measured read costs one array load rather than a random-number
 * draw. Each thread gets its own table from its own seed: threads read different blocks, and every run reads the
 * same ones.
 */
final class Offsets {
    /**
     * Entries per table, a power of two so the index wraps with a mask. 2^18 blocks is 128 MiB of distinct data per
     * thread even at 512-byte blocks, four times the 32 MiB L3 cache of the machine this was tuned on, so reads keep
     * missing the CPU caches as they would on a large file; the table itself (2 MiB) is read in order and prefetched.
     */
    static final int COUNT = 1 << 18;

    private final long[] positions;
    private int next;

    private Offsets(long[] positions) {
        this.positions = positions;
    }

    /**
     * {@link #COUNT} positions of whole {@code blockSize} blocks inside a file of {@code fileSize} bytes, uniformly
     * random, drawn from {@code seed}.
     *
     * @throws IllegalArgumentException if the file cannot hold one block
     */
    static Offsets random(long fileSize, int blockSize, long seed) {
        if (blockSize <= 0 || fileSize < blockSize) {
            throw new IllegalArgumentException(
                    "blockSize " + blockSize + " must be positive and at most fileSize " + fileSize);
        }
        long blocks = fileSize / blockSize;
        SplittableRandom random = new SplittableRandom(seed);
        long[] p = new long[COUNT];
        for (int i = 0; i < COUNT; i++) {
            p[i] = random.nextLong(blocks) * blockSize;
        }
        return new Offsets(p);
    }

    /** The next position, cycling through the table. */
    long next() {
        long p = positions[next];
        next = (next + 1) & (COUNT - 1);
        return p;
    }
}
