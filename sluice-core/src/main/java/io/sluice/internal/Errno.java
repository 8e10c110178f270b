package io.sluice.internal;

/**
 * Linux errno values by their C names, so messages can say {@code EIO (5)} rather than a bare number.
 * Values are from the kernel's {@code include/uapi/asm-generic/errno-base.h} and {@code errno.h}, which
 * every mainstream Linux architecture (x86-64, arm64, riscv64) uses unchanged.
 */
public final class Errno {
    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int EINTR = 4;
    public static final int EIO = 5;
    public static final int EBADF = 9;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int EACCES = 13;
    public static final int EFAULT = 14;
    public static final int EBUSY = 16;
    public static final int EEXIST = 17;
    public static final int ENOTDIR = 20;
    public static final int EISDIR = 21;
    public static final int EINVAL = 22;
    public static final int ENOSPC = 28;
    public static final int ENOSYS = 38;
    public static final int ELOOP = 40;
    public static final int EOPNOTSUPP = 95;
    public static final int ECANCELED = 125;

    private static final String[] NAMES = new String[134];

    static {
        String[] base = {
            null, "EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "ENXIO", "E2BIG", "ENOEXEC", "EBADF", "ECHILD",
            "EAGAIN", "ENOMEM", "EACCES", "EFAULT", "ENOTBLK", "EBUSY", "EEXIST", "EXDEV", "ENODEV", "ENOTDIR",
            "EISDIR", "EINVAL", "ENFILE", "EMFILE", "ENOTTY", "ETXTBSY", "EFBIG", "ENOSPC", "ESPIPE", "EROFS",
            "EMLINK", "EPIPE", "EDOM", "ERANGE", "EDEADLK", "ENAMETOOLONG", "ENOLCK", "ENOSYS", "ENOTEMPTY", "ELOOP"
        };
        System.arraycopy(base, 0, NAMES, 0, base.length);
        NAMES[61] = "ENODATA";
        NAMES[62] = "ETIME";
        NAMES[75] = "EOVERFLOW";
        NAMES[77] = "EBADFD";
        NAMES[95] = "EOPNOTSUPP";
        NAMES[105] = "ENOBUFS";
        NAMES[110] = "ETIMEDOUT";
        NAMES[122] = "EDQUOT";
        NAMES[125] = "ECANCELED";
    }

    private Errno() {
    }

    /** The C name of {@code errno}, or {@code "errno"} when this table does not know it. */
    public static String name(int errno) {
        int e = Math.abs(errno);
        // Math.abs(Integer.MIN_VALUE) is still negative
        String n = e >= 0 && e < NAMES.length ? NAMES[e] : null;
        return n != null ? n : "errno";
    }

    /** {@code "EIO (5)"}: the form every Sluice message uses for a failed system call. */
    public static String describe(int errno) {
        int e = Math.abs(errno);
        return name(e) + " (" + e + ")";
    }
}
