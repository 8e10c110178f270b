package io.sluice.chunks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ReadableByteChannel;

/** {@link ChunkedReader#asChannel()}: copies out of the reader's chunks, fetching the next when one runs out. */
final class ChunkChannel implements ReadableByteChannel {
    private final ChunkedReader reader;
    private ByteBuffer chunk;
    private boolean eof;

    ChunkChannel(ChunkedReader reader) {
        this.reader = reader;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (reader.isClosed()) {
            throw new ClosedChannelException();
        }
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("read-only destination buffer");
        }
        if (!dst.hasRemaining()) {
            return 0;
        }
        while (chunk == null || !chunk.hasRemaining()) {
            if (eof) {
                return -1;
            }
            chunk = reader.nextBuffer();
            if (chunk == null) {
                eof = true;
                return -1;
            }
        }
        int n = Math.min(dst.remaining(), chunk.remaining());
        dst.put(dst.position(), chunk, chunk.position(), n);
        dst.position(dst.position() + n);
        chunk.position(chunk.position() + n);
        return n;
    }

    @Override
    public boolean isOpen() {
        return !reader.isClosed();
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
