package io.sluice.chunks;

import java.util.List;

/**
 * Chooses the size of each chunk a {@link ChunkedReader} reads, and whether it reads the next chunk ahead.
 *
 * <p>The reader calls {@link #start} when it is about to read its first chunk and {@link #next} each time the caller
 * asks for another, passing the size of the chunk the caller has just finished with. The time between two calls is
 * therefore one chunk read plus the caller's own work on it: a policy that reads a clock in these calls measures the
 * rate end to end, as the caller sees it, which is the point (a parser's speed depends on how its input sits in the
 * CPU caches, not only on the read calls).
 *
 * <p>{@link FixedPolicy} always answers the same; {@link AdaptivePolicy} measures and moves. A policy serves one
 * reader at a time; it may be handed to another reader afterwards and then keeps what it learned.
 */
public interface ChunkPolicy {
    /**
     * A reader is about to read its first chunk.
     *
     * @param readAheadAvailable whether the reader can read ahead (an asynchronous read on IO_URING, or a read on a
     *                           background thread where there is a second processor); when false,
     *                           {@link #readAhead()} is ignored
     * @return the size of the first chunk, 1 byte to 1 GiB
     */
    int start(boolean readAheadAvailable);

    /**
     * The caller has finished with the last chunk and asks for the next one.
     *
     * @param bytes the bytes the last chunk held (fewer than asked for at the end of a file or range, or when a
     *              chunk read ahead was of an earlier size)
     * @return the size of the next chunk, 1 byte to 1 GiB
     */
    int next(long bytes);

    /** Whether the reader should read the following chunk ahead while the caller works on the one it has. */
    boolean readAhead();

    /** The chunk size chosen now (for an adaptive policy, the one it settled on or holds while it tries another). */
    int size();

    /** The most recent measurement windows, oldest first: sizes, rates and the decisions taken. */
    List<ChunkTrace> trace();
}
