package io.sluice.nio;

import io.sluice.SluiceOption;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;

/**
 * O_DIRECT for the adapters: the JDK's own option recognised, and the alignment checked before any I/O, with an
 * {@link IOException} where the JDK's channel gives one (the engine's own check throws
 * {@link IllegalArgumentException}, the contract of {@link io.sluice.PositionalFile}).
 */
final class DirectIo {
    /**
     * The JDK's option, {@code com.sun.nio.file.ExtendedOpenOption.DIRECT}, lives in module {@code jdk.unsupported}.
     * It is recognised by its class name and constant name, so that this module needs no dependence on that module
     * and works in a module graph without it (where nobody can pass the option anyway).
     */
    private static final String JDK_OPTION_CLASS = "com.sun.nio.file.ExtendedOpenOption";

    private DirectIo() {
    }

    /** Whether {@code o} is the JDK's {@code ExtendedOpenOption.DIRECT}. */
    static boolean isJdkDirect(OpenOption o) {
        return o instanceof Enum<?> e && e.name().equals("DIRECT")
                && e.getDeclaringClass().getName().equals(JDK_OPTION_CLASS);
    }

    /** Whether the options ask for O_DIRECT, in Sluice's form or the JDK's. */
    static boolean requested(Set<? extends OpenOption> options) {
        for (OpenOption o : options) {
            if (o == SluiceOption.DIRECT || isJdkDirect(o)) {
                return true;
            }
        }
        return false;
    }

    /** The alignment O_DIRECT transfers need on {@code path}'s file system, as the IO_URING engine takes it. */
    static int blockSize(Path path) throws IOException {
        return (int) Math.max(512, Files.getFileStore(path).getBlockSize());
    }

    /** Fails as the JDK's channel does when {@code position} is not a multiple of {@code align} (0: no O_DIRECT). */
    static void checkPosition(int align, Path path, String op, long position) throws IOException {
        if (align != 0 && (position & (align - 1)) != 0) {
            throw new IOException("O_DIRECT " + op + " of " + path + ": channel position (" + position
                    + ") is not a multiple of the block size (" + align + ")");
        }
    }

    /**
     * Fails as the JDK's channel does when the memory at {@code buf}'s position (a direct buffer's only: a heap
     * buffer goes through aligned memory of the engine's) or its remaining length is not a multiple of
     * {@code align}.
     */
    static void checkBuffer(int align, Path path, String op, ByteBuffer buf) throws IOException {
        if (align == 0) {
            return;
        }
        if (buf.isDirect()) {
            long address = MemorySegment.ofBuffer(buf).address();
            if ((address & (align - 1)) != 0) {
                throw new IOException("O_DIRECT " + op + " of " + path + ": the buffer's memory at its position (0x"
                        + Long.toHexString(address) + ") is not a multiple of the block size (" + align + ")");
            }
        }
        int remaining = buf.remaining();
        if ((remaining & (align - 1)) != 0) {
            throw new IOException("O_DIRECT " + op + " of " + path + ": number of remaining bytes (" + remaining
                    + ") is not a multiple of the block size (" + align + ")");
        }
    }

    /**
     * The JDK's checks of a scattering or gathering call: each non-empty buffer's remaining length. The addresses it
     * leaves to the kernel: see {@link #misalignedAddress}.
     */
    static void checkBuffers(int align, Path path, String op, ByteBuffer[] bufs) throws IOException {
        if (align != 0) {
            for (ByteBuffer b : bufs) {
                int remaining = b.remaining();
                if ((remaining & (align - 1)) != 0) {
                    throw new IOException("O_DIRECT " + op + " of " + path + ": number of remaining bytes ("
                            + remaining + ") is not a multiple of the block size (" + align + ")");
                }
            }
        }
    }

    /**
     * {@code bufs} with each non-empty direct buffer whose memory is not aligned replaced by a heap buffer of its
     * remaining bytes (copied in when {@code copyIn}), or {@code bufs} itself when there is none. The JDK's scattering
     * and gathering calls bounce such buffers through aligned memory; the engine does so for heap buffers.
     */
    static ByteBuffer[] shadowMisaligned(int align, ByteBuffer[] bufs, boolean copyIn) {
        ByteBuffer[] out = bufs;
        if (align == 0) {
            return out;
        }
        for (int i = 0; i < bufs.length; i++) {
            ByteBuffer b = bufs[i];
            if (b.hasRemaining() && b.isDirect() && (MemorySegment.ofBuffer(b).address() & (align - 1)) != 0) {
                if (out == bufs) {
                    out = bufs.clone();
                }
                out[i] = ByteBuffer.allocate(b.remaining());
                if (copyIn) {
                    out[i].put(0, b, b.position(), b.remaining());
                }
            }
        }
        return out;
    }

    /**
     * After a call on {@link #shadowMisaligned}'s buffers: moves each original buffer's position as far as its shadow's
     * moved, copying the bytes read when {@code copyOut}.
     */
    static void settleShadows(ByteBuffer[] bufs, ByteBuffer[] shadows, boolean copyOut) {
        if (shadows == bufs) {
            return;
        }
        for (int i = 0; i < bufs.length; i++) {
            if (shadows[i] != bufs[i]) {
                int n = shadows[i].position();
                if (copyOut) {
                    bufs[i].put(bufs[i].position(), shadows[i], 0, n);
                }
                bufs[i].position(bufs[i].position() + n);
            }
        }
    }
}
