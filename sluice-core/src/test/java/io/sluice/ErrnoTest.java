package io.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.internal.Errno;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ErrnoTest {
    @Test
    void everyConstantIsNamedAfterItself() throws IllegalAccessException {
        int count = 0;
        for (Field f : Errno.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == int.class) {
                int value = f.getInt(null);
                assertEquals(f.getName(), Errno.name(value), "errno " + value);
                assertEquals(f.getName() + " (" + value + ")", Errno.describe(value));
                count++;
            }
        }
        assertTrue(count >= 10, "constants found: " + count);
    }

    @Test
    void valuesMatchTheLinuxHeaders() {
        // include/uapi/asm-generic/errno-base.h and errno.h
        assertEquals(1, Errno.EPERM);
        assertEquals(2, Errno.ENOENT);
        assertEquals(4, Errno.EINTR);
        assertEquals(5, Errno.EIO);
        assertEquals(9, Errno.EBADF);
        assertEquals(11, Errno.EAGAIN);
        assertEquals(12, Errno.ENOMEM);
        assertEquals(13, Errno.EACCES);
        assertEquals(14, Errno.EFAULT);
        assertEquals(16, Errno.EBUSY);
        assertEquals(22, Errno.EINVAL);
        assertEquals(28, Errno.ENOSPC);
        assertEquals(38, Errno.ENOSYS);
        assertEquals(95, Errno.EOPNOTSUPP);
    }

    @Test
    void namesOfTheWholeTable() {
        String[] base = {"EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "ENXIO", "E2BIG", "ENOEXEC", "EBADF", "ECHILD",
            "EAGAIN", "ENOMEM", "EACCES", "EFAULT", "ENOTBLK", "EBUSY", "EEXIST", "EXDEV", "ENODEV", "ENOTDIR",
            "EISDIR", "EINVAL", "ENFILE", "EMFILE", "ENOTTY", "ETXTBSY", "EFBIG", "ENOSPC", "ESPIPE", "EROFS",
            "EMLINK", "EPIPE", "EDOM", "ERANGE", "EDEADLK", "ENAMETOOLONG", "ENOLCK", "ENOSYS", "ENOTEMPTY", "ELOOP"};
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < base.length; i++) {
            assertEquals(base[i], Errno.name(i + 1), "errno " + (i + 1));
            assertTrue(seen.add(Errno.name(i + 1)));
        }
        assertEquals("ENODATA", Errno.name(61));
        assertEquals("ETIME", Errno.name(62));
        assertEquals("EOVERFLOW", Errno.name(75));
        assertEquals("EBADFD", Errno.name(77));
        assertEquals("ENOBUFS", Errno.name(105));
        assertEquals("ETIMEDOUT", Errno.name(110));
        assertEquals("EDQUOT", Errno.name(122));
        assertEquals("ECANCELED", Errno.name(125));
    }

    @Test
    void negativeValuesAsSyscallsReturnThem() {
        // io_uring completions and raw syscalls report -errno
        assertEquals("EIO", Errno.name(-5));
        assertEquals("EIO (5)", Errno.describe(-5));
        assertEquals("EAGAIN (11)", Errno.describe(-Errno.EAGAIN));
    }

    @Test
    void unknownValuesHaveAGenericName() {
        for (int e : new int[] {0, 41, 60, 133, 134, 1000, Integer.MAX_VALUE, -1000, Integer.MIN_VALUE}) {
            assertEquals("errno", Errno.name(e), "errno " + e);
        }
        assertEquals("errno (1000)", Errno.describe(1000));
        assertTrue(Errno.describe(Integer.MIN_VALUE).startsWith("errno ("));
    }
}
