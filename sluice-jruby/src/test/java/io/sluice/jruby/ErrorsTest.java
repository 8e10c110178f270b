package io.sluice.jruby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.FileSystemException;
import jnr.constants.platform.Errno;
import org.junit.jupiter.api.Test;

/**
 * How an errno is found in the exceptions Sluice and the JDK throw, in the shapes they have (the minitest suite checks
 * the Ruby classes raised for real failures: ENOENT, ENOTDIR, EISDIR, ENAMETOOLONG, EEXIST).
 */
class ErrorsTest {
    @Test
    void theCLibrarysTextAsTheLastPartOfAMessage() {
        assertEquals(Errno.ENOSPC, Errors.errnoOf(new IOException(
                "write(path=/data/f, pos=4096, len=8192): No space left on device")));
        assertEquals(Errno.EIO, Errors.errnoOf(new IOException("Input/output error")));
    }

    @Test
    void anErrnoNameAsSluiceWritesIt() {
        assertEquals(Errno.EIO, Errors.errnoOf(new IOException("pread(path=/data/f, pos=0, len=4096): EIO (5)")));
        assertEquals(Errno.ENOSPC, Errors.errnoOf(new IOException(
                "fallocate(path=/x, pos=0, len=2097152): ENOSPC (28) while asking for pages")));
        assertNull(Errors.errnoOf(new IOException("EOF (1) is not an errno, nor is ABC (2)")));
    }

    @Test
    void aFileSystemExceptionsReasonAndTheCauseChain() {
        assertEquals(Errno.ENOTDIR, Errors.errnoOf(new FileSystemException("/a/b", null, "Not a directory")));
        IOException wrapped = new IOException("read(path=/x, pos=0, len=1) failed",
                new IOException("Broken pipe"));
        assertEquals(Errno.EPIPE, Errors.errnoOf(wrapped));
    }

    @Test
    void noErrnoWhereTheMessageHasNone() {
        assertNull(Errors.errnoOf(new FileSystemException("/dev/full", null,
                "is a character device; positional I/O needs a regular file or a block device")));
        assertNull(Errors.errnoOf(new IOException("damaged archive")));
        assertNull(Errors.errnoOf(new IOException((String) null)));
    }
}
