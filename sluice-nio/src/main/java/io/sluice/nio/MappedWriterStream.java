package io.sluice.nio;

import io.sluice.MappedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.ClosedChannelException;
import java.util.Objects;

/**
 * A {@link MappedWriter} as an output stream. No buffer of its own: each write is a copy into the writer's mapping,
 * so {@link #flush()} has nothing to hand on; durability is {@link MappedWriter#force()}.
 */
final class MappedWriterStream extends OutputStream {
    private final MappedWriter writer;
    /** For write(int); the writer is used by one thread at a time, and so is this stream. */
    private final byte[] one = new byte[1];

    MappedWriterStream(MappedWriter writer) {
        this.writer = writer;
    }

    @Override
    public void write(int b) throws IOException {
        ensureOpen();
        one[0] = (byte) b;
        writer.write(one, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        ensureOpen();
        writer.write(b, off, len);
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!writer.isOpen()) {
            throw new ClosedChannelException();
        }
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }

    @Override
    public String toString() {
        return "MappedWriterStream[" + writer + "]";
    }
}
