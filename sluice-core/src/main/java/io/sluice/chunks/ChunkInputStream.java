package io.sluice.chunks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Objects;

/** {@link ChunkedReader#asInputStream()}: copies out of the reader's chunks, fetching the next when one runs out. */
final class ChunkInputStream extends InputStream {
    private final ChunkedReader reader;
    private ByteBuffer chunk;
    private boolean eof;

    ChunkInputStream(ChunkedReader reader) {
        this.reader = reader;
    }

    /** Whether a byte is at hand, fetching chunks as needed; false at the end. */
    private boolean fetch() throws IOException {
        while (chunk == null || !chunk.hasRemaining()) {
            if (eof) {
                return false;
            }
            chunk = reader.nextBuffer();
            if (chunk == null) {
                eof = true;
                return false;
            }
        }
        return true;
    }

    @Override
    public int read() throws IOException {
        return fetch() ? chunk.get() & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        if (!fetch()) {
            return -1;
        }
        int n = Math.min(len, chunk.remaining());
        chunk.get(b, off, n);
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = 0;
        while (skipped < n && fetch()) {
            int k = (int) Math.min(n - skipped, chunk.remaining());
            chunk.position(chunk.position() + k);
            skipped += k;
        }
        return skipped;
    }

    @Override
    public int available() throws IOException {
        if (reader.isClosed()) {
            throw new IOException("stream closed");
        }
        return chunk == null ? 0 : chunk.remaining();
    }

    /** Writes chunk by chunk through one array as large as the chunks, rather than 8 KiB at a time. */
    @Override
    public long transferTo(OutputStream out) throws IOException {
        Objects.requireNonNull(out, "out");
        long total = 0;
        byte[] buf = null;
        while (fetch()) {
            int n = chunk.remaining();
            if (buf == null || buf.length < n) {
                buf = new byte[n];
            }
            chunk.get(buf, 0, n);
            out.write(buf, 0, n);
            total += n;
        }
        return total;
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
