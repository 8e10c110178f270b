package io.sluice.cli.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The obvious plain-JDK code: one {@link FileChannel}, positional reads into {@link ByteBuffer#allocateDirect}
 * buffers (one per thread, made once). It differs from CHANNEL only in the buffer's alignment: allocateDirect
 * memory starts 16 bytes into a page, which slows the kernel's copy out of the page cache.
 */
final class NaiveDirectContender extends JavaContender {
    static final String NAME = "naive-direct";

    private final FileChannel channel;

    NaiveDirectContender(Path path, long fileSize) throws IOException {
        super(fileSize);
        this.channel = FileChannel.open(path, StandardOpenOption.READ);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String fioReference() {
        return "fio-psync";
    }

    @Override
    Reader reader(int blockSize) {
        ByteBuffer buf = ByteBuffer.allocateDirect(blockSize);
        return pos -> channel.read(buf.clear(), pos);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
