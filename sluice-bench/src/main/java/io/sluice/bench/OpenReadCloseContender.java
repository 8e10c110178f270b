package io.sluice.bench;

import io.sluice.Engine;
import io.sluice.PathReads;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;

/**
 * Open, read one block, close, per request, over {@link SmallFiles}:
 * <ul>
 *   <li>{@value #JDK}: {@link FileChannel#open}, one positional read into a page-aligned direct buffer made once per
 *       thread, close; the obvious JDK code and the rows' baseline.</li>
 *   <li>IO_URING: {@link PathReads} with {@code depth} requests per call, each an OPENAT into a direct descriptor, a
 *       READ and a CLOSE linked in the ring; at depth 1 one chain per system call.</li>
 * </ul>
 */
final class OpenReadCloseContender extends JavaContender {
    static final String JDK = "jdk-open-read-close";

    private final SmallFiles files;
    /** 0 for the JDK baseline, else PathReads requests per call. */
    private final int depth;

    private OpenReadCloseContender(SmallFiles files, int depth) {
        super(files.totalSize());
        this.files = files;
        this.depth = depth;
    }

    static OpenReadCloseContender jdk(SmallFiles files) {
        return new OpenReadCloseContender(files, 0);
    }

    static OpenReadCloseContender pathReads(SmallFiles files, int depth) {
        return new OpenReadCloseContender(files, depth);
    }

    @Override
    public String name() {
        return depth == 0 ? JDK : Engine.IO_URING.name();
    }

    @Override
    public String fioReference() {
        return null; // fio has no job that opens and closes a file per request
    }

    @Override
    public Workload adapt(Workload w) {
        return depth > 1 ? w.withDepth(depth) : w;
    }

    @Override
    Reader reader(int blockSize) {
        if (depth == 0) {
            ByteBuffer buf = Arena.ofAuto().allocate(blockSize, 4096).asByteBuffer();
            return offset -> {
                try (FileChannel ch = FileChannel.open(files.file(offset), StandardOpenOption.READ)) {
                    return ch.read(buf.clear(), files.position(offset));
                }
            };
        }
        Arena arena = Arena.ofAuto();
        MemorySegment[] buffers = new MemorySegment[depth];
        for (int i = 0; i < depth; i++) {
            buffers[i] = arena.allocate(blockSize, 4096);
        }
        PathReads reads = PathReads.create(depth);
        return new Reader() {
            @Override
            public int read(long offset) throws IOException {
                return readMany(new long[] {offset}, 0, blockSize);
            }

            @Override
            public int readMany(long[] offsets, int index, int bs) throws IOException {
                reads.clear();
                for (int k = 0; k < depth; k++) {
                    long o = offsets[(index + k) % offsets.length];
                    reads.read(files.file(o), files.position(o), buffers[k]);
                }
                reads.submit(Engine.IO_URING);
                reads.throwIfFailed();
                if (reads.method() != PathReads.Method.IO_URING_DIRECT) {
                    throw new IOException("io_uring direct descriptors did not run: "
                            + PathReads.directUnavailabilityCause());
                }
                for (int k = 0; k < depth; k++) {
                    if (reads.result(k) != bs) {
                        throw new IOException("short read of " + reads.result(k) + " bytes (files changed?)");
                    }
                }
                return depth;
            }
        };
    }

    @Override
    public void close() {
    }
}
