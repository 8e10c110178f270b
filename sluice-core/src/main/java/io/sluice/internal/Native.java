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
     * {@code madvise(address, length, advice)}. A failed call is made a second time with errno captured, so pass only
     * advice that may be given twice (every value here, and {@code MADV_POPULATE_WRITE}).
     *
     * @return 0, or the errno of the failure
     */
    public static int madvise(long address, long length, int advice) {
        try {
            // The address is passed as a plain pointer (not the mapped segment) so a concurrent unmap of the
            // segment by another thread is never blocked by this call; madvise on an unmapped range is ENOMEM.
            int rc = (int) Madvise.MADVISE.invokeExact(MemorySegment.ofAddress(address), length, advice);
            return rc == 0 ? 0 : madviseErrno(address, length, advice);
        } catch (Throwable t) {
            throw new IllegalStateException("madvise could not be called", t);
        }
    }

    /**
     * {@link #madvise} again, with errno captured: linked apart, on the first failure, since capturing costs the
     * common call a capture layout, its var handle and a larger stub (about 30 classes more to link).
     */
    private static int madviseErrno(long address, long length, int advice) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CallState.CAPTURE);
            int rc = (int) MadviseErrno.MADVISE.invokeExact(state, MemorySegment.ofAddress(address), length, advice);
            return rc == 0 ? 0 : (int) CallState.ERRNO.get(state, 0L);
        }
    }

    // ---------------------------------------------------------------- files and memory, for the io_uring engine

    /** {@code open(2)} flags; the few that differ between architectures are chosen at class load. */
    public static final int O_RDONLY = 0;
    public static final int O_RDWR = 2;
    public static final int O_CREAT = 0x40;
    public static final int O_EXCL = 0x80;
    public static final int O_TRUNC = 0x200;
    public static final int O_DSYNC = 0x1000;
    public static final int O_SYNC = 0x101000;
    public static final int O_CLOEXEC = 0x80000;
    private static final boolean AARCH64 = "aarch64".equals(System.getProperty("os.arch"));
    /** x86-64: 040000 and 0400000; arm64: 0200000 and 0100000 (asm/fcntl.h of each). */
    public static final int O_DIRECT = AARCH64 ? 0x10000 : 0x4000;
    public static final int O_NOFOLLOW = AARCH64 ? 0x8000 : 0x20000;
    public static final int AT_FDCWD = -100;
    public static final int SEEK_END = 2;
    public static final int PROT_READ = 1;
    public static final int PROT_WRITE = 2;
    public static final int MAP_SHARED = 1;
    public static final int MAP_POPULATE = 0x8000;

    /** Whether this is an architecture whose constants above are right. */
    public static boolean isSupportedArchitecture() {
        String arch = System.getProperty("os.arch");
        return "amd64".equals(arch) || "x86_64".equals(arch) || "aarch64".equals(arch);
    }

    /**
     * A raw system call with up to six arguments; returns the kernel's result, or {@code -errno} on failure (the
     * kernel's own convention, so callers handle one form).
     */
    public static long syscall(long number, long a1, long a2, long a3, long a4, long a5, long a6) {
        try (Arena arena = Arena.ofConfined()) {
            return syscall(arena.allocate(CallState.CAPTURE), number, a1, a2, a3, a4, a5, a6);
        }
    }

    /** Memory for {@link #syscall(MemorySegment, long, long, long, long, long, long, long)} to capture errno into. */
    public static MemorySegment newCallState() {
        return Arena.ofAuto().allocate(CallState.CAPTURE);
    }

    /**
     * {@link #syscall(long, long, long, long, long, long, long)} with errno captured into {@code state} (from
     * {@link #newCallState()}), so a hot path allocates nothing. {@code state} must not be shared between threads
     * calling at the same time.
     */
    public static long syscall(MemorySegment state, long number, long a1, long a2, long a3, long a4, long a5,
                               long a6) {
        try {
            long rc = (long) Libc.SYSCALL6.invokeExact(state, number, a1, a2, a3, a4, a5, a6);
            return rc == -1 ? -(int) CallState.ERRNO.get(state, 0L) : rc;
        } catch (Throwable t) {
            throw new IllegalStateException("syscall " + number + " could not be called", t);
        }
    }

    /** {@code openat(AT_FDCWD, path, flags, mode)}: the descriptor, or {@code -errno}. */
    public static int open(String path, int flags, int mode) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CallState.CAPTURE);
            int rc = (int) Libc.OPENAT.invokeExact(state, AT_FDCWD, arena.allocateFrom(path), flags, mode);
            return rc < 0 ? -(int) CallState.ERRNO.get(state, 0L) : rc;
        } catch (Throwable t) {
            throw new IllegalStateException("openat could not be called", t);
        }
    }

    /** {@code close(fd)}: 0 or {@code -errno}. */
    public static int close(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CallState.CAPTURE);
            int rc = (int) Libc.CLOSE.invokeExact(state, fd);
            return rc < 0 ? -(int) CallState.ERRNO.get(state, 0L) : rc;
        } catch (Throwable t) {
            throw new IllegalStateException("close could not be called", t);
        }
    }

    /** {@code lseek(fd, 0, SEEK_END)}: the file's size, or {@code -errno}. */
    public static long size(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CallState.CAPTURE);
            long rc = (long) Libc.LSEEK.invokeExact(state, fd, 0L, SEEK_END);
            return rc < 0 ? -(int) CallState.ERRNO.get(state, 0L) : rc;
        } catch (Throwable t) {
            throw new IllegalStateException("lseek could not be called", t);
        }
    }

    /** {@code statx(2)}: the x86-64 and the generic (arm64) system call numbers. */
    private static final long SYS_STATX = AARCH64 ? 291 : 332;
    private static final int AT_EMPTY_PATH = 0x1000;
    private static final int STATX_TYPE = 0x1;
    private static final int STATX_SIZE = 0x200;
    /** {@code struct statx} ({@code include/uapi/linux/stat.h}): the same 256 bytes on every architecture. */
    private static final long STATX_BYTES = 256;
    private static final long STX_MODE = 28;
    private static final long STX_SIZE = 40;
    private static final int S_IFMT = 0170000;
    private static final int S_IFBLK = 0060000;

    /**
     * The size of the open file {@code fd} as {@code FileChannel.size()} reports it: for a block device its capacity
     * (an lseek to its end answers that), for anything else {@code st_size}; or {@code -errno}. Not an lseek for
     * everything: on a directory lseek(SEEK_END) answers what the file system makes of it (ext4: Long.MAX_VALUE), on
     * a FIFO ESPIPE. statx rather than fstat because its layout is the same on every architecture.
     */
    public static long fileSize(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment stx = arena.allocate(STATX_BYTES, 8);
            MemorySegment empty = arena.allocateFrom("");
            long rc = syscall(arena.allocate(CallState.CAPTURE), SYS_STATX, fd, empty.address(), AT_EMPTY_PATH,
                    STATX_TYPE | STATX_SIZE, stx.address(), 0);
            if (rc < 0) {
                return rc;
            }
            int mode = Short.toUnsignedInt(stx.get(ValueLayout.JAVA_SHORT, STX_MODE));
            return (mode & S_IFMT) == S_IFBLK ? size(fd) : stx.get(ValueLayout.JAVA_LONG, STX_SIZE);
        }
    }

    /** {@code ftruncate(fd, length)}: 0 or {@code -errno}. */
    public static int ftruncate(int fd, long length) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CallState.CAPTURE);
            int rc = (int) Libc.FTRUNCATE.invokeExact(state, fd, length);
            return rc < 0 ? -(int) CallState.ERRNO.get(state, 0L) : rc;
        } catch (Throwable t) {
            throw new IllegalStateException("ftruncate could not be called", t);
        }
    }

    /** {@code mmap(NULL, length, prot, flags, fd, offset)}: the address, or {@code -errno}. */
    public static long mmap(long length, int prot, int flags, int fd, long offset) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CallState.CAPTURE);
            long rc = (long) Libc.MMAP.invokeExact(state, 0L, length, prot, flags, fd, offset);
            return rc == -1 ? -(int) CallState.ERRNO.get(state, 0L) : rc;
        } catch (Throwable t) {
            throw new IllegalStateException("mmap could not be called", t);
        }
    }

    /** {@code munmap(address, length)}: 0 or {@code -errno}. */
    public static int munmap(long address, long length) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CallState.CAPTURE);
            int rc = (int) Libc.MUNMAP.invokeExact(state, address, length);
            return rc == 0 ? 0 : -(int) CallState.ERRNO.get(state, 0L);
        } catch (Throwable t) {
            throw new IllegalStateException("munmap could not be called", t);
        }
    }

    /** How errno is captured: shared by every call here, and made on the first (no linking involved). */
    private static final class CallState {
        static final Linker.Option CCS = Linker.Option.captureCallState("errno");
        static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
        static final VarHandle ERRNO =
                CAPTURE.varHandle(java.lang.foreign.MemoryLayout.PathElement.groupElement("errno"));
    }

    /**
     * Linked on first use, apart from {@link Libc}: {@link io.sluice.MappedWriter} and MMAP's advice call madvise
     * alone, and every downcall handle spins a stub class and its method handles (seven more classes of the
     * linker's for each call never made, in a JRuby script's first writer).
     */
    private static final class Madvise {
        static final MethodHandle MADVISE = Linker.nativeLinker().downcallHandle(
                Linker.nativeLinker().defaultLookup().find("madvise").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_INT));
    }

    /** madvise with errno captured, linked on its first failure. */
    private static final class MadviseErrno {
        static final MethodHandle MADVISE = Linker.nativeLinker().downcallHandle(
                Linker.nativeLinker().defaultLookup().find("madvise").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_INT),
                CallState.CCS);
    }

    /**
     * The io_uring engine's calls (and the mapping probe's), linked on first use only, so a JVM without native access
     * never touches the linker.
     */
    private static final class Libc {
        static final Linker LINKER = Linker.nativeLinker();
        /** {@code long syscall(long number, ...)}: every argument passed as a long, which is how the kernel reads them. */
        static final MethodHandle SYSCALL6 = LINKER.downcallHandle(
                LINKER.defaultLookup().find("syscall").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_LONG),
                CallState.CCS, Linker.Option.firstVariadicArg(1));
        static final MethodHandle OPENAT = LINKER.downcallHandle(
                LINKER.defaultLookup().find("openat").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT),
                CallState.CCS, Linker.Option.firstVariadicArg(3));
        static final MethodHandle CLOSE = LINKER.downcallHandle(
                LINKER.defaultLookup().find("close").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT), CallState.CCS);
        static final MethodHandle LSEEK = LINKER.downcallHandle(
                LINKER.defaultLookup().find("lseek").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_INT), CallState.CCS);
        static final MethodHandle FTRUNCATE = LINKER.downcallHandle(
                LINKER.defaultLookup().find("ftruncate").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG),
                CallState.CCS);
        static final MethodHandle MMAP = LINKER.downcallHandle(
                LINKER.defaultLookup().find("mmap").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG),
                CallState.CCS);
        static final MethodHandle MUNMAP = LINKER.downcallHandle(
                LINKER.defaultLookup().find("munmap").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
                CallState.CCS);
    }

    // ---------------------------------------------------------------- page-cache advice, for io.sluice.chunks

    /** {@code posix_fadvise} advice values, from {@code include/uapi/linux/fadvise.h} (x86-64 and arm64 alike). */
    public static final int POSIX_FADV_NORMAL = 0;
    public static final int POSIX_FADV_SEQUENTIAL = 2;
    public static final int POSIX_FADV_WILLNEED = 3;
    public static final int POSIX_FADV_DONTNEED = 4;

    /**
     * {@code posix_fadvise(fd, offset, length, advice)}: a hint about the page cache of the file behind {@code fd}
     * ({@code length} 0 means to its end).
     *
     * @return 0, or the error number (the call returns it rather than setting errno)
     */
    public static int posixFadvise(int fd, long offset, long length, int advice) {
        try {
            return (int) Fadvise.POSIX_FADVISE.invokeExact(fd, offset, length, advice);
        } catch (Throwable t) {
            throw new IllegalStateException("posix_fadvise could not be called", t);
        }
    }

    /** Linked on first use, apart from {@link Libc}: a caller that never gives advice never links it. */
    private static final class Fadvise {
        static final MethodHandle POSIX_FADVISE = Linker.nativeLinker().downcallHandle(
                Linker.nativeLinker().defaultLookup().find("posix_fadvise").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    }
}
