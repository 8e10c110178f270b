package io.sluice.zip;

import io.sluice.internal.Faults;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;

/**
 * One entry's bytes as a read-only {@link SeekableByteChannel}, for {@link SluiceZipFileSystemProvider}.
 *
 * <p>A stored entry is read straight from the archive's mapping: a read is one copy into the caller's buffer, at
 * any position, with no lock and no system call, and {@link #read(ByteBuffer, long)} reads at a position without
 * moving the channel's. A deflated entry is inflated as it is read: going backwards starts the inflater over from
 * the entry's start, going forwards inflates and drops the bytes between. Like any channel's position, this one's
 * belongs to one reader at a time; threads that share the entry open a channel each (they are cheap), or use the
 * positional read of a stored entry.
 */
final class EntryChannel implements SeekableByteChannel {
    private final ConcurrentZipFile zip;
    private final ConcurrentZipFile.Entry entry;
    private final long size;
    /** The stored entry's bytes in the mapping, or null for a deflated entry. */
    private final MemorySegment stored;
    /** Where the stored entry's bytes start in the archive file, for messages. */
    private final long dataStart;
    /** A deflated entry's stream, positioned at {@link #streamPosition}; null until read, or after going back. */
    private InputStream inflating;
    private long streamPosition;
    private long position;
    private volatile boolean open = true;

    EntryChannel(ConcurrentZipFile zip, ConcurrentZipFile.Entry entry) throws IOException {
        this.zip = zip;
        this.entry = entry;
        this.size = entry.getSize();
        this.stored = zip.storedData(entry);
        this.dataStart = stored == null ? -1 : zip.dataOffset(entry);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        int n = read(dst, position);
        if (n > 0) {
            position += n;
        }
        return n;
    }

    /**
     * Reads from {@code at} into {@code dst} without moving this channel's position; -1 at or past the end. For a
     * stored entry this takes no lock and may be called by any number of threads at once.
     */
    int read(ByteBuffer dst, long at) throws IOException {
        ensureOpen();
        if (at < 0) {
            throw new IllegalArgumentException("negative position " + at + " in entry '" + entry.getName() + "' of "
                    + zip.getName());
        }
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("read-only buffer given to read entry '" + entry.getName() + "' of "
                    + zip.getName());
        }
        if (at >= size) {
            return -1;
        }
        int n = (int) Math.min(dst.remaining(), size - at);
        if (n == 0) {
            return 0;
        }
        return stored != null ? copyStored(dst, at, n) : inflate(dst, at, n);
    }

    private int copyStored(ByteBuffer dst, long at, int n) throws IOException {
        try {
            // The buffer's segment starts at its position.
            MemorySegment.copy(stored, at, MemorySegment.ofBuffer(dst), 0, n);
            Faults.deliver();
        } catch (IllegalStateException e) {
            throw zip.closedOr(e);
        } catch (InternalError e) {
            throw zip.cutUnderUs(entry.index(), dataStart + at, n, e);
        }
        dst.position(dst.position() + n);
        return n;
    }

    private int inflate(ByteBuffer dst, long at, int n) throws IOException {
        if (inflating == null || at < streamPosition) {
            closeStream();
            inflating = zip.getInputStream(entry);
            streamPosition = 0;
        }
        while (streamPosition < at) {
            long skipped = inflating.skip(at - streamPosition);
            if (skipped <= 0) {
                throw zip.entryError(entry.index(), "ended after " + streamPosition + " of its " + size + " bytes");
            }
            streamPosition += skipped;
        }
        // Whole reads, as a file channel gives them: an inflater hands out a little at a time.
        int got;
        if (dst.hasArray()) {
            got = inflating.readNBytes(dst.array(), dst.arrayOffset() + dst.position(), n);
            dst.position(dst.position() + got);
        } else {
            byte[] b = new byte[Math.min(n, 64 * 1024)];
            got = 0;
            while (got < n) {
                int k = inflating.readNBytes(b, 0, Math.min(b.length, n - got));
                if (k == 0) {
                    break;
                }
                dst.put(b, 0, k);
                got += k;
            }
        }
        if (got == 0) {
            throw zip.entryError(entry.index(), "ended after " + streamPosition + " of its " + size + " bytes");
        }
        streamPosition += got;
        return got;
    }

    @Override
    public int write(ByteBuffer src) {
        throw new NonWritableChannelException();
    }

    @Override
    public long position() throws IOException {
        ensureOpen();
        return position;
    }

    @Override
    public SeekableByteChannel position(long newPosition) throws IOException {
        ensureOpen();
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position " + newPosition + " in entry '" + entry.getName()
                    + "' of " + zip.getName());
        }
        position = newPosition;
        return this;
    }

    @Override
    public long size() throws IOException {
        ensureOpen();
        return size;
    }

    @Override
    public SeekableByteChannel truncate(long size) {
        throw new NonWritableChannelException();
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() throws IOException {
        open = false;
        closeStream();
    }

    private void closeStream() throws IOException {
        InputStream in = inflating;
        inflating = null;
        if (in != null) {
            in.close();
        }
    }

    private void ensureOpen() throws IOException {
        if (!open) {
            throw new ClosedChannelException();
        }
        zip.ensureOpen();
    }
}
