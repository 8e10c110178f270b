package io.sluice.zip;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.ZipException;

/**
 * The bytes of one entry, read from the mapped archive: copied for stored entries, inflated straight from the mapped
 * compressed bytes for deflated ones (the inflater reads the mapping through a direct buffer, so compressed bytes
 * are never copied to the heap).
 *
 * <p>The CRC-32 and the size are checked as the last byte is delivered, in the same call, so a caller that reads
 * exactly the entry's size sees a mismatch as a {@link ZipException} without reading on to end of stream.
 *
 * <p>Not thread-safe, like any {@link InputStream}; each reader opens its own.
 */
final class EntryStream extends InputStream {
    /** Consecutive calls that make no progress before the data is declared broken, so a bad stream cannot spin. */
    private static final int MAX_STALLS = 8;
    private static final int SCRATCH = 64 * 1024;

    private final ConcurrentZipFile zip;
    private final int index;
    private final MemorySegment data;
    private final long size;
    private final int expectedCrc;
    private final CRC32 crc = new CRC32();
    private Inflater inflater;
    /** For {@link #read()} and for probing the end of a deflate stream, so neither allocates. */
    private final byte[] one = new byte[1];
    /** Bytes delivered so far; for a stored entry also the position in {@link #data}. */
    private long produced;
    private boolean done;
    private boolean closed;

    EntryStream(ConcurrentZipFile zip, int index, MemorySegment data, long size, int expectedCrc, boolean deflated)
            throws IOException {
        this.zip = zip;
        this.index = index;
        this.data = data;
        this.size = size;
        this.expectedCrc = expectedCrc;
        if (deflated) {
            inflater = zip.inflaters().claim();
            try {
                inflater.setInput(data.asByteBuffer());
            } catch (IllegalStateException e) {
                release();
                throw zip.closedOr(e);
            }
        }
    }

    @Override
    public int read() throws IOException {
        int n;
        do {
            n = read(one, 0, 1);
        } while (n == 0);
        return n < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        ensureOpen();
        if (done) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        try {
            int n = inflater == null ? copy(b, off, len) : inflate(b, off, len);
            if (n < 0) {
                return -1;
            }
            crc.update(b, off, n);
            produced += n;
            if (produced == size) {
                finish();
            }
            return n;
        } catch (IllegalStateException e) {
            throw zip.closedOr(e);
        }
    }

    private int copy(byte[] b, int off, int len) throws IOException {
        int n = (int) Math.min(len, size - produced);
        if (n == 0) {
            finish();
            return -1;
        }
        try {
            MemorySegment.copy(data, ValueLayout.JAVA_BYTE, produced, b, off, n);
        } catch (InternalError e) {
            throw zip.truncatedUnderUs(index, e);
        }
        return n;
    }

    private int inflate(byte[] b, int off, int len) throws IOException {
        int stalls = 0;
        for (;;) {
            zip.ensureOpen();
            int n;
            try {
                n = inflater.inflate(b, off, len);
            } catch (DataFormatException e) {
                throw ZipErrors.withCause(zip.entryError(index, "invalid deflate data after " + produced
                        + " bytes: " + e.getMessage()), e);
            }
            if (n > 0) {
                if (n > size - produced) {
                    throw tooLong();
                }
                return n;
            }
            if (inflater.finished()) {
                finish();
                return -1;
            }
            if (inflater.needsDictionary()) {
                throw zip.entryError(index, "deflate data asks for a preset dictionary, which zip entries cannot have");
            }
            if (inflater.needsInput()) {
                throw zip.entryError(index, "compressed data ends after " + inflater.getBytesRead()
                        + " bytes, before the deflate stream does (" + produced + " of " + size + " bytes inflated)");
            }
            if (++stalls == MAX_STALLS) {
                throw zip.entryError(index, "inflater makes no progress after " + produced + " bytes");
            }
        }
    }

    private ZipException tooLong() {
        return zip.entryError(index, "inflates to more than its declared size of " + size + " bytes");
    }

    /**
     * All {@code size} bytes are out: the deflate stream must end here and the CRC must match. The inflater is
     * returned to the pool at once, since a caller may never read on to -1 or close the stream.
     */
    private void finish() throws IOException {
        if (inflater != null && !inflater.finished()) {
            // The end-of-block code may still be unread: one more call with room for a byte must produce nothing.
            try {
                zip.ensureOpen();
                if (inflater.inflate(one, 0, 1) > 0) {
                    throw tooLong();
                }
            } catch (DataFormatException e) {
                throw ZipErrors.withCause(zip.entryError(index, "invalid deflate data at the end: "
                        + e.getMessage()), e);
            }
            if (!inflater.finished()) {
                throw zip.entryError(index, "deflate stream does not end after the declared " + size + " bytes");
            }
        }
        if (produced != size) {
            throw zip.entryError(index, "inflates to " + produced + " bytes, but its declared size is " + size);
        }
        int actual = (int) crc.getValue();
        done = true;
        release();
        if (actual != expectedCrc) {
            throw zip.entryError(index, String.format("CRC-32 mismatch: the archive says %08x, the data gives %08x",
                    expectedCrc, actual));
        }
    }

    /**
     * The rest of the entry in one array of exactly the right size: one copy for a stored entry, one inflate call
     * for a deflated one, instead of the default's growing buffers.
     */
    @Override
    public byte[] readAllBytes() throws IOException {
        ensureOpen();
        long left = done ? 0 : size - produced;
        if (left > Integer.MAX_VALUE - 8) {
            throw zip.entryError(index, "its " + size + " bytes do not fit in one array; read it as a stream");
        }
        byte[] out = new byte[(int) left];
        int n = 0;
        while (n < out.length) {
            int k = read(out, n, out.length - n);
            if (k < 0) {
                throw zip.entryError(index, "ends after " + produced + " of its " + size + " bytes");
            }
            n += k;
        }
        if (!done) {
            // Nothing to deliver: still check the end of the stream and the CRC.
            read(one, 0, 1);
        }
        return out;
    }

    /**
     * Reads and checks the rest of the entry without keeping it: a stored entry's CRC is computed straight from
     * the mapping, a deflated one is inflated through a small scratch buffer.
     */
    void drain() throws IOException {
        ensureOpen();
        if (done) {
            return;
        }
        if (inflater == null) {
            try {
                crc.update(data.asSlice(produced).asByteBuffer());
            } catch (IllegalStateException e) {
                throw zip.closedOr(e);
            } catch (InternalError e) {
                throw zip.truncatedUnderUs(index, e);
            }
            produced = size;
            finish();
            return;
        }
        byte[] scratch = new byte[(int) Math.max(1, Math.min(SCRATCH, size - produced + 1))];
        while (read(scratch, 0, scratch.length) >= 0) {
            // the CRC is updated and checked by read
        }
    }

    @Override
    public int available() throws IOException {
        ensureOpen();
        return done ? 0 : (int) Math.min(Integer.MAX_VALUE, size - produced);
    }

    @Override
    public void close() {
        closed = true;
        release();
    }

    private void release() {
        if (inflater != null) {
            zip.inflaters().release(inflater);
            inflater = null;
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("stream closed: entry '" + zip.entryName(index) + "' of " + zip.getName());
        }
        zip.ensureOpen();
    }
}
