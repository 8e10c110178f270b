package io.sluice.bench;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.IntFunction;

/**
 * Plain-JDK baselines: one {@link FileChannel}, one blocking positional read at a time, into a buffer made once per
 * thread. Two are used:
 * <ul>
 *   <li>{@value #NAIVE_DIRECT}: {@link ByteBuffer#allocateDirect} buffers, the obvious code. It differs from CHANNEL
 *       only in alignment: that memory starts 16 bytes into a page, which slows page-cache copies on some CPUs.</li>
 *   <li>{@value #JDK_DIRECT}: the channel opened with {@code ExtendedOpenOption.DIRECT} (O_DIRECT) and page-aligned
 *       buffers: what the JDK offers to bypass the page cache, and the baseline of the O_DIRECT rows.</li>
 *   <li>{@value #JDK_ALIGNED}: page-aligned buffers through the page cache, the baseline of the io_uring section's
 *       virtual-thread rows.</li>
 * </ul>
 */
final class ChannelContender extends JavaContender {
    static final String NAIVE_DIRECT = "naive-direct";
    static final String JDK_DIRECT = "jdk-direct";
    static final String JDK_ALIGNED = "jdk-aligned";
    /** Every one of these is compared with fio's psync. */
    static final String FIO_REFERENCE = "fio-psync";

    private final String name;
    private final FileChannel channel;
    private final IntFunction<ByteBuffer> buffers;

    private ChannelContender(String name, Path path, long fileSize, IntFunction<ByteBuffer> buffers,
                             OpenOption... options) throws IOException {
        super(fileSize);
        this.name = name;
        this.buffers = buffers;
        this.channel = FileChannel.open(path, options);
    }

    static ChannelContender naiveDirect(Path path, long fileSize) throws IOException {
        return new ChannelContender(NAIVE_DIRECT, path, fileSize, ByteBuffer::allocateDirect, StandardOpenOption.READ);
    }

    static ChannelContender jdkAligned(Path path, long fileSize) throws IOException {
        return new ChannelContender(JDK_ALIGNED, path, fileSize, n -> Arena.ofAuto().allocate(n, 4096).asByteBuffer(),
                StandardOpenOption.READ);
    }

    static ChannelContender jdkDirect(Path path, long fileSize) throws IOException {
        return new ChannelContender(JDK_DIRECT, path, fileSize, n -> Arena.ofAuto().allocate(n, 4096).asByteBuffer(),
                StandardOpenOption.READ, com.sun.nio.file.ExtendedOpenOption.DIRECT);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String fioReference() {
        return FIO_REFERENCE;
    }

    @Override
    Reader reader(int blockSize) {
        ByteBuffer buf = buffers.apply(blockSize);
        return pos -> channel.read(buf.clear(), pos);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
