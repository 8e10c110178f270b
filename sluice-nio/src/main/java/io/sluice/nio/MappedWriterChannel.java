package io.sluice.nio;

import io.sluice.MappedWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.WritableByteChannel;

/** A {@link MappedWriter} as a channel: every write is all of the buffer, appended at the writer's position. */
final class MappedWriterChannel implements WritableByteChannel {
    private final MappedWriter writer;

    MappedWriterChannel(MappedWriter writer) {
        this.writer = writer;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        if (!writer.isOpen()) {
            throw new ClosedChannelException();
        }
        int n = src.remaining();
        writer.write(src);
        return n;
    }

    @Override
    public boolean isOpen() {
        return writer.isOpen();
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }

    @Override
    public String toString() {
        return "MappedWriterChannel[" + writer + "]";
    }
}
