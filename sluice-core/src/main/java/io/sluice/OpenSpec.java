package io.sluice;

import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.Set;

/** The open options of one {@link PositionalFile#open} call, checked and sorted out once for every engine. */
record OpenSpec(Set<StandardOpenOption> standard, boolean noFollowLinks, Advice advice, boolean direct, boolean sqpoll,
                boolean iopoll) {

    static OpenSpec parse(OpenOption... options) {
        EnumSet<StandardOpenOption> std = EnumSet.of(StandardOpenOption.READ);
        boolean noFollow = false;
        Advice advice = Advice.NORMAL;
        boolean direct = false;
        boolean sqpoll = false;
        boolean iopoll = false;
        for (OpenOption o : options) {
            // Tests in a row rather than a pattern switch, whose bootstrap spins a class and its method handles at a
            // JVM's first open (and each caller's switch its own): start-up time for a script's first file.
            if (o == null) {
                throw new NullPointerException("null open option");
            } else if (o == StandardOpenOption.APPEND) {
                throw new IllegalArgumentException("APPEND is not supported: every write names its position");
            } else if (o instanceof StandardOpenOption s) {
                std.add(s);
            } else if (o == LinkOption.NOFOLLOW_LINKS) {
                noFollow = true;
            } else if (o instanceof Advice a) {
                advice = a;
            } else if (o == SluiceOption.DIRECT) {
                direct = true;
            } else if (o == SluiceOption.SQPOLL) {
                sqpoll = true;
            } else if (o == SluiceOption.IOPOLL) {
                iopoll = true;
            } else {
                throw new UnsupportedOperationException("unsupported open option: " + o);
            }
        }
        // Creating or truncating a file only makes sense for a writer, as in FileChannel.open.
        if (!std.contains(StandardOpenOption.WRITE)) {
            std.remove(StandardOpenOption.CREATE);
            std.remove(StandardOpenOption.CREATE_NEW);
            std.remove(StandardOpenOption.TRUNCATE_EXISTING);
        }
        if (iopoll && !direct) {
            throw new IllegalArgumentException("SluiceOption.IOPOLL requires SluiceOption.DIRECT: the kernel polls "
                    + "only O_DIRECT transfers");
        }
        return new OpenSpec(Set.copyOf(std), noFollow, advice, direct, sqpoll, iopoll);
    }

    /** The io_uring setup flags these options ask for (0 for the shared default rings). */
    int uringSetupFlags() {
        return (sqpoll ? io.sluice.internal.uring.Uapi.IORING_SETUP_SQPOLL : 0)
                | (iopoll ? io.sluice.internal.uring.Uapi.IORING_SETUP_IOPOLL : 0);
    }

    boolean writable() {
        return standard.contains(StandardOpenOption.WRITE);
    }

    boolean deleteOnClose() {
        return standard.contains(StandardOpenOption.DELETE_ON_CLOSE);
    }

    /** The options for FileChannel.open, with or without those that act only at creation (for reopening). */
    OpenOption[] channelOptions(boolean reopen) {
        EnumSet<StandardOpenOption> s = EnumSet.copyOf(standard);
        if (reopen) {
            s.remove(StandardOpenOption.CREATE);
            s.remove(StandardOpenOption.CREATE_NEW);
            s.remove(StandardOpenOption.TRUNCATE_EXISTING);
        }
        // Sluice deletes on close itself, so that every engine behaves alike.
        s.remove(StandardOpenOption.DELETE_ON_CLOSE);
        OpenOption[] out = s.toArray(new OpenOption[s.size() + (noFollowLinks ? 1 : 0)]);
        if (noFollowLinks) {
            out[out.length - 1] = LinkOption.NOFOLLOW_LINKS;
        }
        return out;
    }

    /** RandomAccessFile's mode string for these options. */
    String rafMode() {
        if (!writable()) {
            return "r";
        }
        if (standard.contains(StandardOpenOption.SYNC)) {
            return "rws";
        }
        return standard.contains(StandardOpenOption.DSYNC) ? "rwd" : "rw";
    }
}
