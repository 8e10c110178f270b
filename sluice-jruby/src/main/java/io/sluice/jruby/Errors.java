package io.sluice.jruby;

import io.sluice.db.DamagedStoreException;
import io.sluice.db.ReadOnlyStoreException;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipException;
import jnr.constants.platform.Errno;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.MVStoreException;
import org.jruby.Ruby;
import org.jruby.RubyClass;
import org.jruby.RubyModule;
import org.jruby.exceptions.RaiseException;
import org.jruby.runtime.ThreadContext;

/**
 * Turns what Sluice's Java calls throw into the exception a Ruby caller expects: an {@code Errno::} class where the
 * failure has an errno (recognised by exception type, by the errno name Sluice writes into its messages, or by the
 * C library's text for it), {@code EOFError}, {@code IOError} for a mode that does not allow the call,
 * {@code ArgumentError} for bad arguments, and {@code Sluice::Error} (or {@code Sluice::ZipError}) for the rest.
 * The Java message is always kept: Ruby's {@code Errno::} classes put their own text in front of it.
 */
final class Errors {
    /** How Sluice's messages name an errno: {@code EIO (5)}. */
    private static final Pattern ERRNO_NAME = Pattern.compile("\\b(E[A-Z0-9]{2,}) \\(\\d+\\)");

    /**
     * The C library's text for each errno on this platform ("No space left on device"), which is also what the JDK
     * puts in the {@code IOException}s of failed system calls.
     */
    private static final Map<String, Errno> BY_TEXT = new HashMap<>();

    /**
     * How the library explains a mapped write the file system could not back (MappedWriter's populate request, or a
     * SIGBUS in a mapped copy), in a message that starts with the operation ({@code write(path=...}) and lists the
     * possible causes, a full disk among them.
     */
    private static final String NO_PAGES = "full or over quota";

    static {
        for (Errno e : Errno.values()) {
            if (e.defined() && e.description() != null && !e.description().isBlank()) {
                BY_TEXT.putIfAbsent(e.description(), e);
            }
        }
    }

    private Errors() {
    }

    /**
     * The Ruby exception for {@code t}, thrown by a call described by {@code what} (used when the Java exception
     * carries no message of its own, as {@code ClosedChannelException} does). Unexpected runtime exceptions come back
     * unchanged; errors other than {@link InternalError} are rethrown.
     */
    static RuntimeException toRuby(ThreadContext context, Throwable t, String what) {
        Ruby runtime = context.runtime;
        if (t instanceof RaiseException r) {
            return r;
        }
        if (t instanceof UncheckedIOException u && u.getCause() != null) {
            t = u.getCause();
        }
        String message = t.getMessage() != null ? t.getMessage() : what;
        return switch (t) {
            // Interrupts first: ClosedByInterruptException is also a ClosedChannelException.
            case ClosedByInterruptException e -> runtime.newErrnoFromErrno(Errno.EINTR, what + ": interrupted");
            case InterruptedIOException e -> runtime.newErrnoFromErrno(Errno.EINTR, message);
            case ClosedChannelException e -> sluiceError(context, "Error", what + ": closed");
            case EOFException e -> runtime.newEOFError(message);
            case NoSuchFileException e -> runtime.newErrnoFromErrno(Errno.ENOENT, message);
            case AccessDeniedException e -> runtime.newErrnoFromErrno(Errno.EACCES, message);
            case FileAlreadyExistsException e -> runtime.newErrnoFromErrno(Errno.EEXIST, message);
            case NotDirectoryException e -> runtime.newErrnoFromErrno(Errno.ENOTDIR, message);
            case DirectoryNotEmptyException e -> runtime.newErrnoFromErrno(Errno.ENOTEMPTY, message);
            case FileSystemLoopException e -> runtime.newErrnoFromErrno(Errno.ELOOP, message);
            case NotLinkException e -> runtime.newErrnoFromErrno(Errno.EINVAL, message);
            case ZipException e -> sluiceError(context, "ZipError", message);
            case IOException e -> {
                Errno errno = errnoOf(e);
                yield errno != null ? runtime.newErrnoFromErrno(errno, message) : sluiceError(context, "Error", message);
            }
            case NonWritableChannelException e -> runtime.newIOError("not opened for writing");
            case NonReadableChannelException e -> runtime.newIOError("not opened for reading");
            case IllegalArgumentException e -> runtime.newArgumentError(message);
            case IndexOutOfBoundsException e -> runtime.newArgumentError(message);
            // An engine that cannot run here, with the probe's reason.
            case UnsupportedOperationException e -> sluiceError(context, "Error", message);
            // The zip reader's answer to a lookup in a closed archive.
            case IllegalStateException e -> sluiceError(context, "Error", what + ": " + message);
            // A SIGBUS the library could not turn into an IOException: the JVM lives, the call failed.
            case InternalError e -> sluiceError(context, "Error", what + ": " + message);
            case RuntimeException e -> e;
            case Error e -> throw e;
            default -> sluiceError(context, "Error", what + ": " + t);
        };
    }

    /**
     * The errno of a failed call: a {@link FileSystemException}'s reason, an errno name in a message of Sluice's, or
     * the C library's text as the whole message or its last part, anywhere along the cause chain.
     */
    static Errno errnoOf(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c.getMessage() != null && c.getMessage().startsWith("write") && c.getMessage().contains(NO_PAGES)) {
                // A mapped write whose pages the file system could not supply. The library reports the EFAULT of
                // MADV_POPULATE_WRITE (or a SIGBUS) it got, but what the caller needs to know is the full disk that is
                // nearly always behind it, which is what Ruby's File would raise writing the same bytes. A read that
                // faults is not this: no disk fills up under a read.
                return Errno.ENOSPC;
            }
            if (c instanceof FileSystemException f && f.getReason() != null) {
                Errno e = BY_TEXT.get(f.getReason());
                if (e != null) {
                    return e;
                }
            }
            String m = c.getMessage();
            if (m == null) {
                continue;
            }
            Matcher named = ERRNO_NAME.matcher(m);
            while (named.find()) {
                try {
                    Errno e = Errno.valueOf(named.group(1));
                    if (e.defined()) {
                        return e;
                    }
                } catch (IllegalArgumentException notAnErrno) {
                    // Some other word in capitals: keep looking.
                }
            }
            Errno e = BY_TEXT.get(m);
            int colon = m.lastIndexOf(": ");
            if (e == null && colon >= 0) {
                e = BY_TEXT.get(m.substring(colon + 2));
            }
            if (e != null) {
                return e;
            }
        }
        return null;
    }

    /**
     * Kyoto Cabinet's error code for a failure a {@code KvStore} call threw: BROKEN for a damaged file (the store
     * library's word that a page, chunk or format is wrong, or an exception thrown from inside it while decoding),
     * SYSTEM for a read or write the system refused, INVALID for a store closed by an earlier failure, NOPERM for a
     * write to a reader; -1 for what is not a store failure (a Ruby exception, a bug), which the caller rethrows.
     */
    static int dbCode(RuntimeException e) {
        return switch (e) {
            case RaiseException r -> -1;
            case MVStoreException m -> switch (m.getErrorCode()) {
                case DataUtils.ERROR_FILE_CORRUPT, DataUtils.ERROR_UNSUPPORTED_FORMAT, DataUtils.ERROR_CHUNK_NOT_FOUND,
                        DataUtils.ERROR_BLOCK_NOT_FOUND, DataUtils.ERROR_SERIALIZATION -> RubyDB.BROKEN;
                case DataUtils.ERROR_READING_FAILED, DataUtils.ERROR_WRITING_FAILED -> RubyDB.SYSTEM;
                case DataUtils.ERROR_CLOSED -> RubyDB.INVALID;
                default -> RubyDB.MISC;
            };
            case UncheckedIOException u ->
                    u.getCause() instanceof DamagedStoreException ? RubyDB.BROKEN : RubyDB.SYSTEM;
            case ReadOnlyStoreException r -> RubyDB.NOPERM;
            case IllegalStateException i -> RubyDB.INVALID;
            default -> thrownByTheStoreLibrary(e) ? RubyDB.BROKEN : -1;
        };
    }

    /** Whether {@code e} comes from inside H2's MVStore: decoding a damaged page fails in any number of ways. */
    private static boolean thrownByTheStoreLibrary(RuntimeException e) {
        StackTraceElement[] trace = e.getStackTrace();
        return trace.length > 0 && trace[0].getClassName().startsWith("org.h2.");
    }

    /**
     * The message of a store failure without the store library's version tag; for damage, saying so (and naming the
     * exception when it is not the store library's own, whose message alone would not explain it).
     */
    static String dbMessage(RuntimeException e) {
        String m = e.getMessage() == null || !(e instanceof MVStoreException) && dbCode(e) == RubyDB.BROKEN
                ? e.toString() : e.getMessage();
        m = m.replaceFirst("\\s*\\[\\d+\\.\\d+\\.\\d+(/-?\\d+)?\\]$", "");
        return dbCode(e) == RubyDB.BROKEN ? "damaged store file: " + m : m;
    }

    /** {@code Sluice::<name>} with {@code message}. */
    static RaiseException sluiceError(ThreadContext context, String name, String message) {
        RubyModule sluice = (RubyModule) context.runtime.getObject().getConstantAt(context, "Sluice");
        RubyClass type = (RubyClass) sluice.getConstantAt(context, name);
        return context.runtime.newRaiseException(type, message);
    }
}
