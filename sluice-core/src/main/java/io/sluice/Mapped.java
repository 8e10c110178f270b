package io.sluice;

import io.sluice.internal.AlignedBuffers;
import io.sluice.internal.Errno;
import io.sluice.internal.Native;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;

/**
 * Mapping regions for {@link MappedFile}, {@link ParallelScan} and {@link MappedWriter}: SIGBUS made an
 * {@link IOException} at a known place, files that cannot be mapped told apart, and pages asked for ahead of writes.
 *
 * <p>No other {@code madvise} hints, as none measured faster here: {@code MADV_POPULATE_READ} on each read region (one
 * call instead of a fault every 16 pages) did not on a warm file, and reads every page of a region even when the
 * visitor needs few; {@code MADV_HUGEPAGE} on a writer's window was a gain or a loss depending on what the memory
 * had held before, and halved new-file writes among other writers (docs/benchmarks/2026-11-24-writer-hint.md).
 */
final class Mapped {
    /** From {@code include/uapi/asm-generic/mman-common.h}. */
    private static final int MADV_POPULATE_WRITE = 23;
    /** From {@code include/uapi/asm-generic/errno-base.h}. */
    private static final int ENODEV = 19;
    /**
     * File systems whose files are made as they are read: their size is not their length (0 for {@code /proc}, a page
     * for {@code /sys}) and they cannot be mapped. Used only without native access, when no probe can ask the kernel.
     */
    private static final Set<String> GENERATED_FILE_SYSTEMS = Set.of("proc", "sysfs", "debugfs", "tracefs",
            "securityfs", "configfs", "cgroup", "cgroup2", "pstore", "efivarfs", "bpf", "fusectl", "binfmt_misc",
            "selinuxfs");
    private static final boolean NATIVE = Native.isEnabled();

    private Mapped() {
    }

    // ---------------------------------------------------------------- SIGBUS

    /** The failure for SIGBUS in a mapped access that no remapping cures. */
    static IOException sigbus(String op, Path path, long position, long length, InternalError e) {
        return new IOException(op + "(path=" + path + ", pos=" + position + ", len=" + length
                + "): the mapped pages could not be " + (op.startsWith("write") ? "written" : "read")
                + " (SIGBUS): the file was cut by another process, the file system is full or over quota, or the "
                + "device failed", e);
    }

    // ---------------------------------------------------------------- files that cannot be mapped

    /**
     * Why {@code path} cannot be mapped, or null if it can (or no one can tell). Called for a file whose size is 0, or
     * whose mapping failed, so it costs nothing in the common case.
     *
     * <p>With native access it asks the kernel: {@code mmap} of one page of the file. That answers for any file
     * system, including ones no list here knows: mapping past the end of an ordinary empty file succeeds (only
     * touching it would fault), while files made as they are read ({@code /proc}, {@code /sys}, debugfs) have no
     * mmap and fail, with {@code ENODEV} or, for most of {@code /proc}, {@code EIO}. Without native access it falls
     * back to the file system's type, from the mount table.
     */
    static String unmappableCause(Path path, boolean noFollowLinks) {
        return NATIVE && Native.isSupportedArchitecture() ? unmappableByProbe(path, noFollowLinks)
                : unmappableByFileSystem(path);
    }

    /** {@link #unmappableCause} by asking the kernel to map the file's first page. */
    static String unmappableByProbe(Path path, boolean noFollowLinks) {
        int fd = Native.open(path.toString(), Native.O_RDONLY | Native.O_CLOEXEC
                | (noFollowLinks ? Native.O_NOFOLLOW : 0), 0);
        if (fd < 0) {
            return null;
        }
        try {
            long address = Native.mmap(AlignedBuffers.PAGE, Native.PROT_READ, Native.MAP_SHARED, fd, 0);
            if (address >= 0) {
                Native.munmap(address, AlignedBuffers.PAGE);
                return null;
            }
            int errno = (int) -address;
            if (errno == Errno.ENOMEM || errno == Errno.EAGAIN) {
                return null; // out of address space: says nothing about the file
            }
            return (errno == ENODEV ? "the file system does not support mmap" : "it cannot be mapped")
                    + " (mmap: " + Errno.describe(errno) + ")";
        } finally {
            Native.close(fd);
        }
    }

    /** {@link #unmappableCause} by the type of the file system, from the mount table. */
    static String unmappableByFileSystem(Path path) {
        try {
            String type = Files.getFileStore(path).type();
            return GENERATED_FILE_SYSTEMS.contains(type)
                    ? "it is on a " + type + " file system, whose files are made as they are read and cannot be mapped"
                    : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * After {@code failure} of a map: why the file cannot be mapped at all, or null when the failure has another
     * cause (a closed channel, an exhausted address space) or the file can be mapped.
     */
    static String unmappableCause(Path path, boolean noFollowLinks, IOException failure) {
        if (failure instanceof ClosedChannelException || failure.getCause() instanceof OutOfMemoryError) {
            return null;
        }
        return unmappableCause(path, noFollowLinks);
    }

    /**
     * Refuses, for {@link ParallelScan} and {@link BigFiles#sum}, what a scan cannot cut into segments: anything but
     * a regular file (a FIFO or a device would block or read forever and has no length to cut; checked before the
     * file is opened, since opening a FIFO waits for a writer), and a regular file whose size is 0 but that cannot
     * be mapped ({@code /proc}: its size says nothing about its length).
     *
     * @return the file's size
     */
    static long requireScannable(String op, Path path, FileChannel channel) throws IOException {
        long size;
        try {
            size = channel.size();
        } catch (IOException e) {
            throw new IOException(op + "(path=" + path + "): size: " + e.getMessage(), e);
        }
        if (size == 0) {
            String cause = unmappableCause(path, false);
            if (cause != null) {
                throw new IOException(op + "(path=" + path + ", pos=0, len=0): cannot read it in segments: its "
                        + "size (0) does not give its length, and " + cause + "; read it as a stream instead");
            }
        }
        return size;
    }

    /** Refuses what is not a regular file, before it is opened; see {@link #requireScannable}. */
    static void requireRegularFile(String op, Path path) throws IOException {
        BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class);
        if (!a.isRegularFile()) {
            throw new IOException(op + "(path=" + path + "): cannot read it in segments: it is " + kind(path, a)
                    + ", not a regular file, so it has no length to cut; read it as a stream instead");
        }
    }

    /** What kind of file {@code path} is, for a message. */
    private static String kind(Path path, BasicFileAttributes a) {
        if (a.isDirectory()) {
            return "a directory";
        }
        try {
            // st_mode's file type bits, from include/uapi/linux/stat.h
            int type = (Integer) Files.getAttribute(path, "unix:mode") & 0170000;
            return switch (type) {
                case 0010000 -> "a FIFO";
                case 0020000 -> "a character device";
                case 0060000 -> "a block device";
                case 0140000 -> "a socket";
                default -> "a special file";
            };
        } catch (IOException | RuntimeException e) {
            return "a special file";
        }
    }

    /**
     * Makes {@code [from, to)} of a writable mapping writable now, in one call ({@code MADV_POPULATE_WRITE}, Linux
     * 5.14), instead of a page fault per page as the copies touch them. No faster, but the file system is asked for
     * the pages here: a full disk is {@code EFAULT} from this call, a plain error, rather than SIGBUS in the middle
     * of a copy, which the JVM reports only on a best-effort basis.
     *
     * @return 0; {@code EFAULT} when the file system could not supply the pages (full, over quota, or the file was
     *         cut by another process); {@code EINVAL} when the kernel does not know the call (before 5.14), or any
     *         other errno, after which the copies fault the pages in themselves; -1 without native access
     */
    static int populateForWriting(MemorySegment mapping, long from, long to) {
        if (!Native.isEnabled()) {
            return -1;
        }
        // madvise wants a page-aligned start; a mapping itself starts on a page.
        long start = (mapping.address() + from) & -AlignedBuffers.PAGE;
        return Native.madvise(start, mapping.address() + to - start, MADV_POPULATE_WRITE);
    }

    /**
     * The failure for {@code EFAULT} from {@link #populateForWriting} of {@code [from, from + length)}, failing the
     * write of {@code writeLength} bytes at {@code position}.
     */
    static IOException noPages(Path path, long position, long writeLength, long from, long length, int errno) {
        return new IOException("write(path=" + path + ", pos=" + position + ", len=" + writeLength
                + "): the file system could not supply the pages at " + from + " to " + (from + length)
                + " (madvise MADV_POPULATE_WRITE: " + Errno.describe(errno)
                + "): it is full or over quota, or another process cut the file");
    }

    /** Maps {@code [position, position + length)} of the file, naming the file and range when it fails. */
    static MemorySegment map(FileChannel channel, FileChannel.MapMode mode, Path path, long position, long length,
            Arena arena) throws IOException {
        try {
            return channel.map(mode, position, length, arena);
        } catch (IOException e) {
            throw mapFailure(path, position, length, e);
        }
    }

    /** The failure of a map: the limit to raise for ENOMEM, or why the file cannot be mapped at all. */
    static IOException mapFailure(Path path, long position, long length, IOException e) {
        String where = "mmap(path=" + path + ", pos=" + position + ", len=" + length + "): ";
        String cause = unmappableCause(path, false, e);
        if (cause != null) {
            return new IOException(where + "cannot map the file: " + cause + " (" + e.getMessage() + ")", e);
        }
        IOException hinted = MappedFile.withMapHint(e);
        return new IOException(where + hinted.getMessage(), hinted);
    }
}
