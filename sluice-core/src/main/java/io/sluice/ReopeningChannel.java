package io.sluice;

import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * A {@link FileChannel} that survives thread interrupts.
 *
 * <p>Why: {@code FileChannel} is an interruptible channel, so interrupting any one thread during any call closes
 * the channel for every thread, a trap that has bitten Lucene, Elasticsearch and many others. Here a call that fails
 * with {@link ClosedChannelException} asks {@link #recover}: if the file was closed on purpose the exception stands;
 * otherwise the channel was closed by an interrupt, so a fresh channel is opened on the same path and the call is
 * retried. The interrupted thread itself still gets its {@link ClosedByInterruptException} (its interrupt status is
 * kept), as it would from the JDK, and a thread whose status is clear never gets one (see {@link #recover}).
 *
 * <p>Data is never lost by the reopen: writes that completed are in the file, and the new channel sees them.
 */
final class ReopeningChannel {
    private final Path path;
    private final OpenSpec spec;
    /** Replaced only under {@code this}; null once closed on purpose. */
    private volatile FileChannel channel;

    ReopeningChannel(Path path, OpenSpec spec) throws IOException {
        this.path = path;
        this.spec = spec;
        this.channel = FileChannel.open(path, spec.channelOptions(false));
    }

    /**
     * The channel to use for a call now.
     *
     * @throws ClosedByInterruptException if this thread is already interrupted: handing the channel to it would
     *         make the JDK close the channel for every thread before the call even starts
     */
    FileChannel get() throws ClosedChannelException {
        FileChannel c = channel;
        if (c == null) {
            throw new ClosedChannelException();
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new ClosedByInterruptException();
        }
        return c;
    }

    boolean isOpen() {
        return channel != null;
    }

    /**
     * Called when {@code failed} threw {@code e}. Returns normally when the caller should retry; throws when it
     * should not: {@code e} itself when the file was closed on purpose, and {@link ClosedByInterruptException} when
     * this thread's interrupt status is set, whatever the JDK said, and only then. An interrupted thread can meet a
     * channel that another thread's interrupt closed (it took the channel just before, and the JDK then reports a
     * plain {@link ClosedChannelException}, or {@link java.nio.channels.AsynchronousCloseException} if its call had
     * begun); that must not read as "closed" to a caller whose file is still open.
     *
     * <p>The other way round, the JDK can throw {@link ClosedByInterruptException} at a thread whose status is clear.
     * {@code Thread.interrupt} sets the status first and only then looks for a channel call to close; a caller that
     * saw the status in between (an earlier call failed, or it checked between calls), cleared it and began its next
     * call gets that call closed under it by an interrupt it has already taken. Such a call is retried on a fresh
     * channel, so every {@code ClosedByInterruptException} from here finds its thread's status set: the status is
     * read just before the throw, and only the thread itself can clear it.
     */
    void recover(FileChannel failed, ClosedChannelException e) throws IOException {
        synchronized (this) {
            if (channel == null) {
                throw e;
            }
            if (channel == failed && !failed.isOpen()) {
                channel = FileChannel.open(path, spec.channelOptions(true));
            }
        }
        if (Thread.currentThread().isInterrupted()) {
            if (e instanceof ClosedByInterruptException) {
                throw e;
            }
            ClosedByInterruptException interrupted = new ClosedByInterruptException();
            interrupted.initCause(e);
            throw interrupted;
        }
    }

    /** One call on the channel, for {@link #call}. */
    interface ChannelCall {
        long apply(FileChannel channel) throws IOException;
    }

    /**
     * Runs {@code op}, reopening and retrying as {@link #recover} decides. Other failures are thrown unchanged, for
     * the caller to put in context. (Hot paths inline this loop to avoid the lambda.)
     */
    long call(ChannelCall op) throws IOException {
        for (;;) {
            FileChannel c = get();
            try {
                return op.apply(c);
            } catch (ClosedChannelException e) {
                recover(c, e);
            }
        }
    }

    /** Closes for good; returns whether this call did it. */
    synchronized boolean close() throws IOException {
        FileChannel c = channel;
        if (c == null) {
            return false;
        }
        channel = null;
        c.close();
        return true;
    }
}
