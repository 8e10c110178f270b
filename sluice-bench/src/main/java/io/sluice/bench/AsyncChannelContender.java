package io.sluice.bench;

import io.sluice.Engine;
import io.sluice.nio.SluiceChannels;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * An {@link AsynchronousFileChannel} with {@code depth} reads in flight per thread: each call starts {@code depth}
 * random reads with {@code read(ByteBuffer, long)} and waits for their futures, into page-aligned direct buffers made
 * once per thread. {@value #JDK}: the JDK's own channel (its default thread pool does each read); {@value #SLUICE}:
 * sluice-nio's over IO_URING (one ring submission per read).
 */
final class AsyncChannelContender extends JavaContender {
    static final String JDK = "jdk-AsynchronousFileChannel";
    static final String SLUICE = "sluice-AsynchronousFileChannel";

    private final String name;
    private final AsynchronousFileChannel channel;
    private final int depth;

    private AsyncChannelContender(String name, AsynchronousFileChannel channel, long fileSize, int depth) {
        super(fileSize);
        this.name = name;
        this.channel = channel;
        this.depth = depth;
    }

    private static Set<OpenOption> options(boolean direct) {
        Set<OpenOption> o = new HashSet<>();
        o.add(StandardOpenOption.READ);
        if (direct) {
            o.add(com.sun.nio.file.ExtendedOpenOption.DIRECT);
        }
        return o;
    }

    /** The JDK's channel, with the JDK's {@code ExtendedOpenOption.DIRECT} when {@code direct}. */
    static AsyncChannelContender jdk(Path path, long fileSize, int depth, boolean direct) throws IOException {
        return new AsyncChannelContender(JDK, AsynchronousFileChannel.open(path, options(direct), null), fileSize,
                depth);
    }

    /** Sluice's channel over IO_URING, opened with the same (JDK) options. */
    static AsyncChannelContender sluice(Path path, long fileSize, int depth, boolean direct) throws IOException {
        return new AsyncChannelContender(SLUICE, SluiceChannels.openAsynchronous(path, Engine.IO_URING,
                options(direct), null), fileSize, depth);
    }

    @Override
    public String name() {
        return name;
    }

    /** fio doing what this side does: psync with a job per request for the JDK's pool, io_uring for Sluice's ring. */
    @Override
    public String fioReference() {
        return fioReference(name);
    }

    /** The fio row of the side named {@code name} ({@value #JDK} or {@value #SLUICE}). */
    static String fioReference(String name) {
        return name.equals(JDK) ? ChannelsBench.FIO_PSYNC : ChannelsBench.FIO_URING;
    }

    @Override
    public Workload adapt(Workload w) {
        return w.withDepth(depth);
    }

    @Override
    Reader reader(int blockSize) {
        Arena arena = Arena.ofAuto();
        ByteBuffer[] buffers = new ByteBuffer[depth];
        for (int i = 0; i < depth; i++) {
            buffers[i] = arena.allocate(blockSize, 4096).asByteBuffer();
        }
        @SuppressWarnings("unchecked")
        Future<Integer>[] inFlight = new Future[depth];
        return new Reader() {
            @Override
            public int read(long position) {
                throw new UnsupportedOperationException("reads " + depth + " at a time only");
            }

            @Override
            public int readMany(long[] offsets, int index, int bs) throws IOException {
                for (int k = 0; k < depth; k++) {
                    inFlight[k] = channel.read(buffers[k].clear(), offsets[(index + k) % offsets.length]);
                }
                for (int k = 0; k < depth; k++) {
                    int n;
                    try {
                        n = inFlight[k].get();
                    } catch (ExecutionException e) {
                        throw new IOException(name + ": read at " + offsets[(index + k) % offsets.length] + " failed: "
                                + e.getCause(), e.getCause());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException(name + ": interrupted", e);
                    }
                    if (n != bs) {
                        throw new IOException(name + ": short read at " + offsets[(index + k) % offsets.length]
                                + " (file changed during the benchmark?)");
                    }
                }
                return depth;
            }
        };
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
