package io.sluice.nio;

import java.io.IOException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;

/**
 * A lock taken through a Sluice channel's second descriptor (a JDK channel, since Sluice's engines take no locks),
 * reported as the Sluice channel's own: {@code FileLock.channel()} and {@code acquiredBy()} name the channel the
 * caller locked, and the lock is invalid once that channel is closed, as the JDK's locks are.
 */
final class ForwardedLock extends FileLock {
    private final FileLock inner;

    ForwardedLock(FileChannel channel, FileLock inner) {
        super(channel, inner.position(), inner.size(), inner.isShared());
        this.inner = inner;
    }

    ForwardedLock(AsynchronousFileChannel channel, FileLock inner) {
        super(channel, inner.position(), inner.size(), inner.isShared());
        this.inner = inner;
    }

    @Override
    public boolean isValid() {
        return inner.isValid() && acquiredBy().isOpen();
    }

    @Override
    public void release() throws IOException {
        if (!acquiredBy().isOpen()) {
            throw new ClosedChannelException();
        }
        inner.release();
    }
}
