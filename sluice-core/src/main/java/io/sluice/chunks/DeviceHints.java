package io.sluice.chunks;

import io.sluice.internal.Native;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What the machine says about reading a file front to back: the file system's preferred I/O size
 * ({@code st_blksize}) and, from sysfs, the block device's {@code queue/optimal_io_size}, {@code max_sectors_kb} (the
 * largest request the block layer sends) and {@code read_ahead_kb} (how far the kernel reads ahead of a sequential
 * reader). Unknown values are -1: a file on tmpfs, overlayfs or btrfs has no block device sysfs can name, and a
 * machine that is not Linux has no sysfs at all.
 *
 * <p>{@link #firstGuess(int, int)} turns them into the chunk size an {@link AdaptivePolicy} starts from; the policy
 * then measures. The values are read once, when {@link #of(Path)} is called; nothing here changes the machine.
 *
 * @param device         the block device, as {@code "254:0 vda"}, or null when unknown
 * @param blockSize      {@code st_blksize} in bytes, or -1
 * @param optimalIoSize  {@code queue/optimal_io_size} in bytes (0: the device states none), or -1
 * @param maxRequestSize {@code queue/max_sectors_kb} in bytes, or -1
 * @param readAhead      {@code queue/read_ahead_kb} in bytes (0: read-ahead is off), or -1
 */
public record DeviceHints(String device, long blockSize, long optimalIoSize, long maxRequestSize, long readAhead) {
    /** The first guess when the machine says nothing: Linux's default {@code read_ahead_kb}, and the seed's figure. */
    public static final int DEFAULT_GUESS = 128 << 10;

    /** Hints that know nothing: every value -1. */
    public static final DeviceHints UNKNOWN = new DeviceHints(null, -1, -1, -1, -1);

    /** The sysfs root; a test may point elsewhere only through {@link #of(Path, Path)}. */
    private static final Path SYS_DEV_BLOCK = Path.of("/sys/dev/block");

    /**
     * Reads the hints for {@code file}. Never throws: what cannot be read is -1 (or {@link #UNKNOWN} for a file that
     * cannot be examined at all).
     */
    public static DeviceHints of(Path file) {
        return of(file, SYS_DEV_BLOCK);
    }

    static DeviceHints of(Path file, Path sysDevBlock) {
        long[] stat = statx(file);
        long blockSize;
        long major;
        long minor;
        if (stat != null) {
            blockSize = stat[0];
            major = stat[1];
            minor = stat[2];
        } else {
            // Without native access: the same numbers through the JDK, where it has them.
            try {
                blockSize = Files.getFileStore(file).getBlockSize();
            } catch (IOException | RuntimeException e) {
                blockSize = -1;
            }
            long dev;
            try {
                dev = ((Number) Files.getAttribute(file, "unix:dev")).longValue();
            } catch (IOException | RuntimeException e) {
                return new DeviceHints(null, blockSize, -1, -1, -1);
            }
            // glibc's dev_t encoding (gnu_dev_major / gnu_dev_minor)
            major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
            minor = (dev & 0xff) | ((dev >>> 12) & ~0xffL);
        }
        Path dir = sysDevBlock.resolve(major + ":" + minor);
        Path queue = dir.resolve("queue");
        String name = null;
        try {
            Path real = dir.toRealPath();
            if (!Files.isDirectory(queue) && Files.exists(real.resolve("partition"))) {
                // A partition has no queue of its own: its disk's is one directory up.
                real = real.getParent();
                queue = real.resolve("queue");
            }
            name = major + ":" + minor + " " + real.getFileName();
        } catch (IOException | RuntimeException e) {
            return new DeviceHints(null, blockSize, -1, -1, -1);
        }
        return new DeviceHints(name, blockSize, number(queue.resolve("optimal_io_size"), 1),
                number(queue.resolve("max_sectors_kb"), 1024), number(queue.resolve("read_ahead_kb"), 1024));
    }

    /** A sysfs number times {@code unit}, or -1 when the file is missing or says something else. */
    private static long number(Path p, long unit) {
        try {
            String s = Files.readString(p).trim();
            long v = Long.parseLong(s);
            return v < 0 || v > Long.MAX_VALUE / unit ? -1 : v * unit;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** {@code statx(2)} syscall numbers; the structure it fills is the same on every architecture. */
    private static final long SYS_STATX_X86_64 = 332;
    private static final long SYS_STATX_AARCH64 = 291;
    /** STATX_BASIC_STATS, from {@code include/uapi/linux/stat.h}. */
    private static final long STATX_BASIC_STATS = 0x7ff;
    private static final long STX_BLKSIZE = 4;
    private static final long STX_DEV_MAJOR = 0x88;
    private static final long STX_DEV_MINOR = 0x8c;

    /** {st_blksize, device major, device minor} from {@code statx}, or null without native access or on failure. */
    private static long[] statx(Path file) {
        if (!Native.isEnabled() || !Native.isSupportedArchitecture()
                || !System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            return null;
        }
        long nr = "aarch64".equals(System.getProperty("os.arch")) ? SYS_STATX_AARCH64 : SYS_STATX_X86_64;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment path = arena.allocateFrom(file.toString());
            MemorySegment buf = arena.allocate(256, 8);
            long rc = Native.syscall(nr, Native.AT_FDCWD, path.address(), 0, STATX_BASIC_STATS, buf.address(), 0);
            if (rc != 0) {
                return null;
            }
            return new long[] {Integer.toUnsignedLong(buf.get(ValueLayout.JAVA_INT, STX_BLKSIZE)),
                Integer.toUnsignedLong(buf.get(ValueLayout.JAVA_INT, STX_DEV_MAJOR)),
                Integer.toUnsignedLong(buf.get(ValueLayout.JAVA_INT, STX_DEV_MINOR))};
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * The chunk size to start from, a power of two in {@code [min, max]} (or {@code min} when no power of two is).
     *
     * <p>The rule: the size of the reads the kernel itself issues for a sequential reader, which is what the seed
     * matched by hand (128 KiB on its USB disk, 1 MiB on its SSD): {@code read_ahead_kb} (Linux's default, 128 KiB,
     * when unknown), cut to {@code max_sectors_kb} since a larger read-ahead is split into requests of that size;
     * then at least {@code optimal_io_size} and {@code st_blksize}; rounded down to a power of two. With nothing known
     * at all, {@value #DEFAULT_GUESS} bytes.
     *
     * @throws IllegalArgumentException unless {@code 0 < min <= max}
     */
    public int firstGuess(int min, int max) {
        if (min <= 0 || min > max) {
            throw new IllegalArgumentException("need 0 < min <= max: " + min + ", " + max);
        }
        long g = readAhead > 0 ? readAhead : DEFAULT_GUESS;
        if (maxRequestSize > 0) {
            g = Math.min(g, maxRequestSize);
        }
        g = Math.max(g, Math.max(optimalIoSize, blockSize));
        g = Long.highestOneBit(Math.max(1, g));
        long lo = Long.highestOneBit(min) == min ? min : Long.highestOneBit(min) << 1;
        long hi = Integer.highestOneBit(max);
        return lo > hi ? min : (int) Math.clamp(g, lo, hi);
    }

    /** One line saying where {@link #firstGuess} came from, for traces. */
    public String describe() {
        if (device == null && blockSize < 0) {
            return "nothing known about the device";
        }
        StringBuilder b = new StringBuilder();
        b.append(device == null ? "no block device" : "device " + device);
        b.append(", st_blksize ").append(kib(blockSize));
        if (device != null) {
            b.append(", optimal_io_size ").append(kib(optimalIoSize));
            b.append(", max_sectors_kb ").append(maxRequestSize < 0 ? "?" : String.valueOf(maxRequestSize >> 10));
            b.append(", read_ahead_kb ").append(readAhead < 0 ? "?" : String.valueOf(readAhead >> 10));
        }
        return b.toString();
    }

    private static String kib(long v) {
        return v < 0 ? "?" : v % 1024 == 0 && v > 0 ? (v >> 10) + " KiB" : v + " B";
    }
}
