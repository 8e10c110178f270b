package io.sluice.cli.bench;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * What the JDK offers for O_DIRECT: a {@link FileChannel} opened with {@link ExtendedOpenOption#DIRECT}, one
 * blocking positional read at a time into a page-aligned buffer (made once per thread). This is the CHANNEL engine's
 * way of reading, bypassing the page cache, and the baseline of the O_DIRECT rows.
 */
final class JdkDirectContender extends JavaContender {
    static final String NAME = "jdk-direct";

    private final FileChannel channel;

    JdkDirectContender(Path path, long fileSize) throws IOException {
        super(fileSize);
        this.channel = FileChannel.open(path, StandardOpenOption.READ, ExtendedOpenOption.DIRECT);
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
        ByteBuffer buf = Arena.ofAuto().allocate(blockSize, 4096).asByteBuffer();
        return pos -> channel.read(buf.clear(), pos);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
