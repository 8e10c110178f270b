package io.sluice.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * What kind of file a path names, looked at before anything opens it: the one rule by which the engines,
 * {@code PathReads}, {@code MappedWriter} and the zip reader refuse FIFOs, sockets and devices (opening a FIFO for
 * reading waits for a writer, and none of them has positions to read at) with the same words.
 */
public final class FileKinds {
    // File type bits of st_mode (<sys/stat.h>), as the "unix:mode" attribute gives them.
    private static final int S_IFMT = 0170000;
    private static final int S_IFSOCK = 0140000;
    private static final int S_IFREG = 0100000;
    private static final int S_IFBLK = 0060000;
    /** A directory's type bits. */
    public static final int S_IFDIR = 0040000;
    private static final int S_IFCHR = 0020000;
    private static final int S_IFIFO = 0010000;

    private FileKinds() {
    }

    /**
     * The file type bits of {@code path}'s {@code st_mode} ({@code S_IFREG} for a symbolic link seen with
     * {@code noFollowLinks}: its open refuses it), or -1 when it cannot be looked at. Where the platform has no
     * {@code unix:mode}, only regular files, directories and "other" (0) are told apart.
     */
    public static int type(Path path, boolean noFollowLinks) {
        LinkOption[] links = noFollowLinks ? new LinkOption[] {LinkOption.NOFOLLOW_LINKS} : new LinkOption[0];
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(path, BasicFileAttributes.class, links);
        } catch (IOException e) {
            return -1;
        }
        if (a.isRegularFile() || a.isSymbolicLink()) {
            return S_IFREG;
        }
        if (a.isDirectory()) {
            return S_IFDIR;
        }
        try {
            // The common kinds are answered above with one stat; only the others pay for the finer look.
            return (Integer) Files.getAttribute(path, "unix:mode", links) & S_IFMT;
        } catch (UnsupportedOperationException | IOException e) {
            return 0;
        }
    }

    /**
     * What {@code type} (from {@link #type}) is, as "is a FIFO", when it is not a regular file (nor, with
     * {@code blockDevices}, a block device); null when it is one, or could not be looked at.
     */
    public static String nonPositional(int type, boolean blockDevices) {
        return switch (type) {
            case -1, S_IFREG -> null;
            case S_IFBLK -> blockDevices ? null : "is a block device";
            case S_IFDIR -> "is a directory";
            case S_IFIFO -> "is a FIFO";
            case S_IFSOCK -> "is a socket";
            case S_IFCHR -> "is a character device";
            default -> "is not a regular file";
        };
    }
}
