package io.sluice.internal;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.zip.Adler32;

/**
 * Raising a SIGBUS that a mapped access took where the code that made the access can catch it. Every reader of a
 * mapping in Sluice (MMAP, {@code MappedWriter}, {@code ParallelScan}, the zip reader) calls {@link #deliver()} right
 * after its copies, inside the {@code try} that turns the error into an {@code IOException}.
 */
public final class Faults {
    /** libc's {@code abs}, for {@link #deliver}; null without native access (or if it cannot be linked). */
    private static final MethodHandle POLL = Native.isEnabled() ? linkPoll() : null;

    private Faults() {
    }

    /**
     * Throws here, as {@link InternalError}, a SIGBUS that this thread took in a mapped access since its last
     * safepoint poll; call it right after the access, inside the {@code try} that turns the error into an
     * {@link IOException}.
     *
     * <p>Why: HotSpot throws a SIGBUS from an access in interpreted code at once, but in compiled code it notes the
     * error, lets the access finish (a copy stops short; a load yields garbage) and throws at the thread's next
     * safepoint poll. Once the caller's loop and Sluice's method are compiled together, that poll is usually the
     * caller's loop back-edge, outside every {@code catch} of Sluice: a hot loop of 4 KiB reads past a cut saw the
     * raw {@code InternalError} in 9 runs of 10, and a writer counted the failed write in its position. Returning
     * from a native call is such a poll, and one the compiler can neither move nor remove. With native access it is
     * a downcall to libc's {@code abs}: no system call, but not free either. Side by side with the reads before it
     * (docs/benchmarks/2026-11-23-reliability.md), MMAP's random reads went from a median of about 15,000 to 5,500
     * per ms at 64 bytes, 6,400 to 4,400 at 512 bytes and 2,200 to 2,000 at 4 KiB; no difference shows at 64 KiB
     * and above. Without native access it is a JDK method written in C, {@link Adler32#update(int)} on a fresh
     * object, since anything of Java's own may be inlined away.
     */
    public static void deliver() {
        if (POLL != null) {
            try {
                int ignored = (int) POLL.invokeExact(0);
            } catch (RuntimeException | Error e) {
                throw e; // the InternalError of a SIGBUS, among others
            } catch (Throwable t) {
                throw new AssertionError("abs threw", t);
            }
        } else {
            new Adler32().update(0);
        }
    }

    private static MethodHandle linkPoll() {
        try {
            // Not Linker.Option.critical: a critical downcall skips the thread-state change whose return is the poll.
            return Linker.nativeLinker().downcallHandle(Linker.nativeLinker().defaultLookup().find("abs").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        } catch (RuntimeException e) {
            return null; // a libc without abs: deliver makes its JNI call instead, a little slower
        }
    }
}
