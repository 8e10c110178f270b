package io.sluice.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The few libc calls Sluice makes through the FFM linker, each with {@code errno} captured right after the
 * call (reading it later would race with the JVM's own calls).
 *
 * <p>Nothing here is linked at class load: {@link #isEnabled()} says whether this module may make native calls
 * at all (the JVM grants that with {@code --enable-native-access}); callers check it first and skip optional
 * calls such as {@code madvise} silently when it is off, so a plain {@code java -cp} run prints no warning.
 */
public final class Native {
    /** From {@code include/uapi/asm-generic/mman-common.h}. */
    public static final int MADV_NORMAL = 0;
    public static final int MADV_RANDOM = 1;
    public static final int MADV_SEQUENTIAL = 2;
    public static final int MADV_WILLNEED = 3;

    private Native() {
    }

    /** Whether the JVM lets this module call native code without warnings or errors. */
    public static boolean isEnabled() {
        return Native.class.getModule().isNativeAccessEnabled();
    }

    /**
     * {@code madvise(address, length, advice)}.
     *
     * @return 0, or the errno of the failure
     */
    public static int madvise(long address, long length, int advice) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(Libc.CAPTURE);
            // The address is passed as a plain pointer (not the mapped segment) so a concurrent unmap of the
            // segment by another thread is never blocked by this call; madvise on an unmapped range is ENOMEM.
            int rc = (int) Libc.MADVISE.invokeExact(state, MemorySegment.ofAddress(address), length, advice);
            return rc == 0 ? 0 : (int) Libc.ERRNO.get(state, 0L);
        } catch (Throwable t) {
            throw new IllegalStateException("madvise could not be called", t);
        }
    }

    /** Linked on first use only, so a JVM without native access never touches the linker. */
    private static final class Libc {
        static final Linker LINKER = Linker.nativeLinker();
        static final Linker.Option CCS = Linker.Option.captureCallState("errno");
        static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
        static final VarHandle ERRNO =
                CAPTURE.varHandle(java.lang.foreign.MemoryLayout.PathElement.groupElement("errno"));
        static final MethodHandle MADVISE = LINKER.downcallHandle(
                LINKER.defaultLookup().find("madvise").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_INT),
                CCS);
    }
}
