package io.sluice.internal;

import java.io.IOException;

/**
 * Raising a SIGBUS that a mapped access took where the code that made the access can catch it. Every reader of a
 * mapping in Sluice (MMAP, {@code MappedWriter}, {@code ParallelScan}, the zip reader) calls {@link #deliver()} right
 * after its copies, inside the {@code try} that turns the error into an {@code IOException}.
 */
public final class Faults {
    /**
     * Always zero; read afresh on every turn of {@link #deliver}'s loop. A volatile read cannot be hoisted out of the
     * loop, so the loop's step is unknown to the compiler, the loop is not a counted loop, and its back-edge keeps
     * its safepoint poll.
     */
    private static volatile int zero;

    private Faults() {
    }

    /**
     * Throws here, as {@link InternalError}, a SIGBUS that this thread took in a mapped access since its last
     * safepoint poll; call it right after the access, inside the {@code try} that turns the error into an
     * {@link IOException}.
     *
     * <p>Why: HotSpot throws a SIGBUS from an access in interpreted code at once, but in compiled code it notes the
     * error (as a handshake that arms the thread's poll word), lets the access finish (a copy stops short; a load
     * yields garbage) and throws at the thread's next safepoint poll. Once the caller's loop and Sluice's method are
     * compiled together, that poll is usually the caller's loop back-edge, outside every {@code catch} of Sluice: a
     * hot loop of 4 KiB reads past a cut saw the raw {@code InternalError} in 9 runs of 10, and a writer counted the
     * failed write in its position.
     *
     * <p>So this method holds a poll the compiler keeps: a loop that turns twice with a step read from a volatile
     * field. The JIT removes polls only from loops whose trip count it can bound (counted loops), and a step it must
     * load on every turn makes that impossible; the one back-edge taken polls. The first version returned from a
     * native call instead (a downcall to libc's {@code abs}, whose return is a poll too), which cost more: 512-byte
     * MMAP reads kept 0.44 to 0.79 of their rate without a poll, against 0.78 to 0.89 with this loop
     * (docs/benchmarks/2026-11-23-fault-poll.md). {@code FullFileSystemFaultsTest} checks, interpreted
     * and compiled, that the error arrives inside Sluice's catch.
     */
    public static void deliver() {
        for (int i = 0; i < 2; i += 1 + zero) {
            // the back-edge's poll is the point
        }
    }
}
