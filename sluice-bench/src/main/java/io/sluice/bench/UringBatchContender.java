package io.sluice.bench;

import io.sluice.Engine;
import io.sluice.IoBatch;
import io.sluice.PositionalFile;
import io.sluice.SluiceOption;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The IO_URING engine with {@code depth} reads in flight per thread: each call hands an {@link IoBatch} of
 * {@code depth} random reads to the engine, which submits them with one system call, and waits for all of them.
 * Buffers are page-aligned native memory, allocated once per thread, as O_DIRECT needs.
 */
final class UringBatchContender extends JavaContender {
    private final PositionalFile file;
    private final int depth;
    private final boolean sqpoll;

    UringBatchContender(Path path, long fileSize, int depth, boolean direct) throws IOException {
        this(path, fileSize, depth, direct, false);
    }

    /** With {@code sqpoll} the file is on the SQPOLL rings ({@link SluiceOption#SQPOLL}). */
    UringBatchContender(Path path, long fileSize, int depth, boolean direct, boolean sqpoll) throws IOException {
        super(fileSize);
        this.depth = depth;
        this.sqpoll = sqpoll;
        List<OpenOption> options = new ArrayList<>();
        if (direct) {
            options.add(SluiceOption.DIRECT);
        }
        if (sqpoll) {
            options.add(SluiceOption.SQPOLL);
        }
        this.file = PositionalFile.open(path, Engine.IO_URING, options.toArray(OpenOption[]::new));
    }

    @Override
    public String name() {
        return sqpoll ? SQPOLL_ROW : Engine.IO_URING.name();
    }

    /** The name of the SQPOLL batch row. */
    static final String SQPOLL_ROW = "IO_URING-sqpoll";
    /** The name of fio's io_uring row with --sqthread_poll=1. */
    static final String FIO_SQPOLL_ROW = "fio-io_uring-sqpoll";

    @Override
    public String fioReference() {
        return sqpoll ? FIO_SQPOLL_ROW : "fio-io_uring";
    }

    @Override
    public Workload adapt(Workload w) {
        return w.withDepth(depth);
    }

    @Override
    Reader reader(int blockSize) {
        Arena arena = Arena.ofAuto();
        MemorySegment[] buffers = new MemorySegment[depth];
        for (int i = 0; i < depth; i++) {
            buffers[i] = arena.allocate(blockSize, 4096);
        }
        IoBatch batch = IoBatch.create(depth);
        return new Reader() {
            @Override
            public int read(long position) {
                throw new UnsupportedOperationException("reads in batches only");
            }

            @Override
            public int readMany(long[] offsets, int index, int bs) throws IOException {
                batch.clear();
                for (int k = 0; k < depth; k++) {
                    batch.read(file, buffers[k], offsets[(index + k) % offsets.length]);
                }
                batch.submit();
                batch.throwIfFailed();
                for (int k = 0; k < depth; k++) {
                    if (batch.result(k) != bs) {
                        throw new IOException("short read in a batch (file changed during the benchmark?)");
                    }
                }
                return depth;
            }
        };
    }

    @Override
    public void close() throws IOException {
        file.close();
    }
}
