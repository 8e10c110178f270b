package io.sluice.bench;

import io.sluice.Engine;
import io.sluice.PositionalFile;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * A Sluice engine, used the way its users would: one open file shared by every thread. CLASSIC reads into a
 * {@code byte[]} (RandomAccessFile's own API, so the baseline pays no extra copy); the others read into a
 * page-aligned direct buffer, allocated once per thread.
 */
final class SluiceContender extends JavaContender {
    private final Engine engine;
    private final PositionalFile file;

    SluiceContender(Engine engine, Path path, long fileSize, java.nio.file.OpenOption... options) throws IOException {
        super(fileSize);
        this.engine = engine;
        this.file = PositionalFile.open(path, engine, options);
    }

    @Override
    public String name() {
        return engine.name();
    }

    @Override
    public String fioReference() {
        return fioReference(engine);
    }

    /** The fio row an engine's row is compared with. */
    static String fioReference(Engine engine) {
        return switch (engine) {
            case MMAP -> "fio-mmap";
            case IO_URING -> "fio-io_uring";
            default -> "fio-psync";
        };
    }

    @Override
    Reader reader(int blockSize) {
        if (engine == Engine.CLASSIC) {
            byte[] buf = new byte[blockSize];
            return pos -> file.read(buf, 0, blockSize, pos);
        }
        ByteBuffer buf = Arena.ofAuto().allocate(blockSize, 4096).asByteBuffer();
        return pos -> file.read(buf.clear(), pos);
    }

    @Override
    public void close() throws IOException {
        file.close();
    }
}
