package io.sluice.zip;

import io.sluice.internal.Faults;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.ZipException;

/**
 * The bytes of one entry, read from the mapped archive: copied for stored entries, inflated for deflated ones.
 *
 * <p><b>Native code never reads the mapping.</b> If another process truncates the archive, touching a lost page
 * raises SIGBUS. In a copy made by Java code the JVM turns that into an {@link InternalError}, which becomes a
 * {@link ZipException} here; inside zlib or the CRC-32 routine it kills the JVM. So compressed bytes are copied out
 * of the mapping into a pooled 64 KiB {@link ScratchPool.Scratch scratch} buffer, 64 KiB at a time, and the inflater
 * reads that; a stored entry is copied into the caller's array (or, to {@linkplain #drain() verify} it, into the
 * scratch buffer) and the CRC-32 is computed from the copy. The copy costs a pass over data that is then in cache.
 *
 * <p>The CRC-32 and the size are checked as the last byte is delivered, in the same call, so a caller that reads
 * exactly the entry's size sees a mismatch as a {@link ZipException} without reading on to end of stream. Entries
 * of any size can be streamed; only {@link #readAllBytes()} is limited to what fits in one array.
 *
 * <p>Not thread-safe, like any {@link InputStream}; each reader opens its own.
 */
final class EntryStream extends InputStream {
    /** Consecutive calls that make no progress before the data is declared broken, so a bad stream cannot spin. */
    private static final int MAX_STALLS = 8;

    private final ConcurrentZipFile zip;
    private final int index;
    /** The archive's bytes, holding the entry's compressed bytes from {@link #dataPosition} on. */
    private final ArchiveBytes bytes;
    /** Where the entry's compressed bytes start in the archive. */
    private final long dataPosition;
    /** How many compressed bytes there are. */
    private final long compressedSize;
    private final long size;
    private final int expectedCrc;
    private final CRC32 crc = new CRC32();
    /** Claimed from the archive's pool while needed: from the start for a deflated entry, by {@link #drain()}. */
    private ScratchPool.Scratch scratch;
    /** The scratch's inflater, or null for a stored entry. */
    private Inflater inflater;
    /** Compressed bytes handed to the inflater so far, the position in the entry's compressed bytes of the next copy. */
    private long fed;
    /** For {@link #read()} and for probing the end of a deflate stream, so neither allocates. */
    private final byte[] one = new byte[1];
    /** Bytes delivered so far; for a stored entry also the position in the entry's compressed bytes. */
    private long produced;
    /** The last copy out of the mapping, to name where a late-reported SIGBUS happened. */
    private long lastCopyAt;
    private int lastCopyLength;
    private boolean done;
    private boolean closed;

    EntryStream(ConcurrentZipFile zip, int index, ArchiveBytes bytes, long dataPosition, long compressedSize, long size,
            int expectedCrc, boolean deflated) {
        this.zip = zip;
        this.index = index;
        this.bytes = bytes;
        this.dataPosition = dataPosition;
        this.compressedSize = compressedSize;
        this.size = size;
        this.expectedCrc = expectedCrc;
        if (deflated) {
            scratch = zip.scratches().claim();
            inflater = scratch.inflater();
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
        } catch (InternalError e) {
            throw lostPages(e);
        }
    }

    private int copy(byte[] b, int off, int len) throws IOException {
        int n = (int) Math.min(len, size - produced);
        if (n == 0) {
            finish();
            return -1;
        }
        copyOut(produced, b, off, n);
        return n;
    }

    /**
     * Copies {@code n} bytes at {@code from} in the entry's data into {@code dst}. This copy, made by Java code, is
     * the only place the entry's bytes are read from the mapping, so a page lost to truncation faults here, where the
     * JVM can report it, and never in native code.
     */
    private void copyOut(long from, byte[] dst, int off, int n) throws IOException {
        lastCopyAt = from;
        lastCopyLength = n;
        try {
            bytes.copy(dataPosition + from, dst, off, n);
            // Here, in the copy that caused it, and not later in the caller's code.
            Faults.deliver();
        } catch (InternalError e) {
            throw lostPages(e);
        }
    }

    private ZipException lostPages(InternalError e) {
        return zip.cutUnderUs(index, dataPosition + lastCopyAt, lastCopyLength, e);
    }

    /** Hands the inflater the next piece of compressed data, copied out of the mapping. */
    private void refill() throws IOException {
        int n = (int) Math.min(scratch.buffer.length, compressedSize - fed);
        copyOut(fed, scratch.buffer, 0, n);
        inflater.setInput(scratch.buffer, 0, n);
        fed += n;
    }

    /** Whether the inflater has used its input and more compressed data is left to give it. */
    private boolean wantsInput() {
        return inflater.needsInput() && fed < compressedSize;
    }

    private int inflate(byte[] b, int off, int len) throws IOException {
        int stalls = 0;
        for (;;) {
            zip.ensureOpen();
            if (wantsInput()) {
                refill();
            }
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
                if (fed < compressedSize) {
                    continue; // used a piece of input without output (block headers, say): the next piece follows
                }
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
     * All {@code size} bytes are out: the deflate stream must end here and the CRC must match. The scratch (and its
     * inflater) goes back to the pool at once, since a caller may never read on to -1 or close the stream.
     */
    private void finish() throws IOException {
        if (inflater != null) {
            // The end-of-block code may still be unread: calls with room for a byte must reach the end of the stream
            // without producing anything.
            int stalls = 0;
            while (!inflater.finished() && stalls < MAX_STALLS) {
                zip.ensureOpen();
                boolean refilled = wantsInput();
                if (refilled) {
                    refill();
                }
                try {
                    if (inflater.inflate(one, 0, 1) > 0) {
                        throw tooLong();
                    }
                } catch (DataFormatException e) {
                    throw ZipErrors.withCause(zip.entryError(index, "invalid deflate data at the end: "
                            + e.getMessage()), e);
                }
                if (!refilled) {
                    stalls++;
                }
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
     * The rest of the entry in one array of exactly the right size: one copy for a stored entry, instead of the
     * default's growing buffers.
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
     * Reads and checks the rest of the entry without keeping it, through the scratch buffer: a stored entry is
     * copied into it a piece at a time for the CRC, a deflated one is inflated into it.
     */
    void drain() throws IOException {
        ensureOpen();
        if (done) {
            return;
        }
        if (inflater != null) {
            // The call that delivers the last byte hands the scratch back to the pool, after its last use of out;
            // the next call only returns -1.
            byte[] out = scratch.output();
            while (read(out, 0, out.length) >= 0) {
                // the CRC is updated and checked by read
            }
            return;
        }
        if (scratch == null) {
            scratch = zip.scratches().claim();
        }
        byte[] buf = scratch.buffer;
        try {
            while (produced < size) {
                zip.ensureOpen();
                int n = (int) Math.min(buf.length, size - produced);
                copyOut(produced, buf, 0, n);
                crc.update(buf, 0, n);
                produced += n;
            }
            finish();
        } catch (IllegalStateException e) {
            throw zip.closedOr(e);
        } catch (InternalError e) {
            throw lostPages(e);
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
        if (scratch != null) {
            zip.scratches().release(scratch);
            scratch = null;
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
