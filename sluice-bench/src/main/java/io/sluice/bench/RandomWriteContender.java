package io.sluice.bench;

import io.sluice.Engine;
import io.sluice.IoBatch;
import io.sluice.PositionalFile;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Random positional writes of one block each over a file that already holds data, so every write overwrites pages
 * in the page cache (a page written for the first time costs a page fault and zeroing, which would drown the call's
 * own cost). Three kinds, each with its buffers allocated page-aligned and filled once per thread, before timing:
 * <ul>
 *   <li>{@value ChannelContender#JDK_ALIGNED}: a {@link FileChannel} opened once, one {@code write(src, position)}
 *       from a direct buffer per operation: the fair plain-JDK baseline.</li>
 *   <li>IO_URING: one blocking {@link PositionalFile#write(ByteBuffer, long)} per operation through the engine's
 *       registered file.</li>
 *   <li>IO_URING at a depth: an {@link IoBatch} of {@code depth} writes per call, submitted at once.</li>
 *   <li>AUTO: one blocking {@link PositionalFile#write(ByteBuffer, long)} per operation through the default engine,
 *       which should be as fast here as the fastest of the others one at a time.</li>
 * </ul>
 * Every buffer of a kind holds one byte value, {@link #mark()}, so a test can see which kind wrote a block.
 */
final class RandomWriteContender extends JavaContender {
    private final String name;
    private final int depth;
    private final byte mark;
    /** Set for the FileChannel baseline, null otherwise. */
    private final FileChannel channel;
    /** Set for the Sluice kinds, null otherwise. */
    private final PositionalFile file;

    private RandomWriteContender(String name, long fileSize, int depth, byte mark, FileChannel channel,
                                 PositionalFile file) {
        super(fileSize);
        this.name = name;
        this.depth = depth;
        this.mark = mark;
        this.channel = channel;
        this.file = file;
    }

    /** The plain-JDK baseline: a pre-opened FileChannel and one positional write per operation. */
    static RandomWriteContender channel(Path path, long fileSize) throws IOException {
        return new RandomWriteContender(ChannelContender.JDK_ALIGNED, fileSize, 1, (byte) 'c',
                FileChannel.open(path, StandardOpenOption.WRITE), null);
    }

    /** IO_URING, one blocking write at a time. */
    static RandomWriteContender uring(Path path, long fileSize) throws IOException {
        return new RandomWriteContender(Engine.IO_URING.name(), fileSize, 1, (byte) 'u', null,
                PositionalFile.open(path, Engine.IO_URING, StandardOpenOption.WRITE));
    }

    /** AUTO, one blocking write at a time. */
    static RandomWriteContender auto(Path path, long fileSize) throws IOException {
        return new RandomWriteContender(Engine.AUTO.name(), fileSize, 1, (byte) 'a', null,
                PositionalFile.open(path, Engine.AUTO, StandardOpenOption.WRITE));
    }

    /** IO_URING with batches of {@code depth} writes. */
    static RandomWriteContender uringBatch(Path path, long fileSize, int depth) throws IOException {
        return new RandomWriteContender(Engine.IO_URING.name(), fileSize, depth, (byte) 'b', null,
                PositionalFile.open(path, Engine.IO_URING, StandardOpenOption.WRITE));
    }

    /** The byte every buffer of this contender is filled with. */
    byte mark() {
        return mark;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String fioReference() {
        return depth > 1 ? "fio-io_uring" : "fio-psync";
    }

    @Override
    public Workload adapt(Workload w) {
        return depth > 1 ? w.withDepth(depth) : w;
    }

    private MemorySegment buffer(int blockSize) {
        return Arena.ofAuto().allocate(blockSize, 4096).fill(mark);
    }

    @Override
    Reader reader(int blockSize) {
        if (channel != null) {
            ByteBuffer buf = buffer(blockSize).asByteBuffer();
            return pos -> checked(channel.write(buf.clear(), pos), blockSize, pos);
        }
        if (depth == 1) {
            ByteBuffer buf = buffer(blockSize).asByteBuffer();
            return pos -> checked(file.write(buf.clear(), pos), blockSize, pos);
        }
        MemorySegment[] buffers = new MemorySegment[depth];
        for (int i = 0; i < depth; i++) {
            buffers[i] = buffer(blockSize);
        }
        IoBatch batch = IoBatch.create(depth);
        return new Reader() {
            @Override
            public int read(long position) {
                throw new UnsupportedOperationException("writes in batches only");
            }

            @Override
            public int readMany(long[] offsets, int index, int bs) throws IOException {
                batch.clear();
                for (int k = 0; k < depth; k++) {
                    batch.write(file, buffers[k], offsets[(index + k) % offsets.length]);
                }
                batch.submit();
                batch.throwIfFailed();
                for (int k = 0; k < depth; k++) {
                    checked((int) batch.result(k), bs, offsets[(index + k) % offsets.length]);
                }
                return depth;
            }
        };
    }

    /** A regular file takes a whole block in one call; anything less would make the figure a lie. */
    private int checked(int written, int blockSize, long position) throws IOException {
        if (written != blockSize) {
            throw new IOException(name + ": short write of " + written + " of " + blockSize + " bytes at " + position);
        }
        return written;
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
        } else {
            file.close();
        }
    }
}
