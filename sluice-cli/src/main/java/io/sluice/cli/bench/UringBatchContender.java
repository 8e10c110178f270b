package io.sluice.cli.bench;

import io.sluice.Engine;
import io.sluice.IoBatch;
import io.sluice.PositionalFile;
import io.sluice.SluiceOption;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * The IO_URING engine with {@code depth} reads in flight per thread: each call hands an {@link IoBatch} of
 * {@code depth} random reads to the engine, which submits them with one system call, and waits for all of them.
 * Buffers are page-aligned native memory, allocated once per thread, as O_DIRECT needs.
 */
final class UringBatchContender extends JavaContender {
    private final PositionalFile file;
    private final int depth;

    UringBatchContender(Path path, long fileSize, int depth, boolean direct) throws IOException {
        super(fileSize);
        this.depth = depth;
        this.file = direct ? PositionalFile.open(path, Engine.IO_URING, SluiceOption.DIRECT)
                : PositionalFile.open(path, Engine.IO_URING);
    }

    @Override
    public String name() {
        return Engine.IO_URING.name();
    }

    @Override
    public String fioReference() {
        return "fio-io_uring";
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
