package io.sluice.bench;

import io.sluice.Engine;
import io.sluice.nio.SluiceChannels;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * sluice-nio's {@link FileChannel} over one engine ({@code sluice-FileChannel-ENGINE}), read as the engine's own
 * contender reads ({@link SluiceContender}): one shared channel, positional reads into a buffer made once per thread,
 * page-aligned direct memory, or for CLASSIC a heap buffer over a {@code byte[]} as CLASSIC's row reads into. Beside
 * that contender it shows what the adapter costs.
 */
final class FileChannelAdapterContender extends JavaContender {
    /** The row name's prefix; the engine's name follows. */
    static final String PREFIX = "sluice-FileChannel-";

    private final Engine engine;
    private final FileChannel channel;

    FileChannelAdapterContender(Engine engine, Path path, long fileSize) throws IOException {
        super(fileSize);
        this.engine = engine;
        this.channel = SluiceChannels.open(path, engine, StandardOpenOption.READ);
    }

    @Override
    public String name() {
        return PREFIX + engine.name();
    }

    @Override
    public String fioReference() {
        return SluiceContender.fioReference(engine);
    }

    @Override
    Reader reader(int blockSize) {
        // CLASSIC's own row reads into a byte[] (RandomAccessFile's API), so its adapter reads into a heap buffer over
        // one: with a direct buffer the adapter paid a copy its engine's row does not (0.85 to 0.96 of it).
        ByteBuffer buf = engine == Engine.CLASSIC ? ByteBuffer.wrap(new byte[blockSize])
                : Arena.ofAuto().allocate(blockSize, 4096).asByteBuffer();
        return pos -> channel.read(buf.clear(), pos);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
