package io.sluice.nio;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The platform's channel on a Sluice channel's file, for what Sluice's engines do not do (mappings, locks): opened by
 * path on first use, with the Sluice channel's access, so the JDK's own checks of map and lock modes apply, and kept
 * until the Sluice channel closes, since closing any descriptor of a file drops this process's POSIX locks on it.
 */
final class SecondDescriptor {
    private final Path path;
    private final boolean readable;
    private final boolean writable;
    private final String use;
    /** Null until first needed. Guarded by this. */
    private FileChannel channel;
    /** Guarded by this: once closed, never opened again (an open racing the close would leak the descriptor). */
    private boolean closed;

    /** For the file at {@code path} (the platform's path), opened as the Sluice channel was; {@code use} names the calls, for messages. */
    SecondDescriptor(Path path, boolean readable, boolean writable, String use) {
        this.path = path;
        this.readable = readable;
        this.writable = writable;
        this.use = use;
    }

    /** The channel, opened now if this is the first use. */
    synchronized FileChannel get() throws IOException {
        if (closed) {
            throw new ClosedChannelException();
        }
        if (channel == null) {
            OpenOption[] options = readable && writable
                    ? new OpenOption[] {StandardOpenOption.READ, StandardOpenOption.WRITE}
                    : new OpenOption[] {writable ? StandardOpenOption.WRITE : StandardOpenOption.READ};
            try {
                channel = FileChannel.open(path, options);
            } catch (IOException e) {
                throw new IOException(use + "(path=" + path + "): cannot open a second descriptor of the file: " + e, e);
            }
        }
        return channel;
    }

    /** Closes the channel if it was opened; later {@link #get} calls fail with {@link ClosedChannelException}. */
    void close() throws IOException {
        FileChannel c;
        synchronized (this) {
            closed = true;
            c = channel;
        }
        if (c != null) {
            c.close();
        }
    }
}
