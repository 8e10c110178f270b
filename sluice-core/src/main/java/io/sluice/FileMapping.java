package io.sluice;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A whole file mapped read-only as one {@link MemorySegment}, of any size (segments are 64-bit, so files over 2 GiB
 * need no windows), until {@link #close()}. For parsers that cut the file themselves; {@link ParallelScan} does the
 * cutting for those that let it.
 *
 * {@snippet :
 * try (FileMapping m = FileMapping.open(path)) {
 *     MemorySegment file = m.segment();                   // file.byteSize() == m.size()
 *     long firstWord = file.get(Swar.WORD, 0);            // any thread may read it, until close
 * }
 * }
 *
 * <p>The mapping lives in a shared {@link Arena} that this object owns: any thread may read the segment, and
 * {@link #close()} unmaps it. Closing while other threads still read it is safe: they get
 * {@link IllegalStateException}, as from any closed arena, never a crash. Only touched pages cost anything; the
 * page cache holds the bytes, so several mappings of one file share them.
 *
 * <p>The segment has the length the file had when it was mapped. If another process cuts the file afterwards, reading
 * a page it lost raises SIGBUS, which HotSpot turns into an {@link InternalError}: thrown at the read in interpreted
 * code, but in compiled code possibly later, at the thread's next safepoint poll. {@link ParallelScan} turns those
 * into {@link IOException}s naming the file; a caller reading the segment directly should expect them if other
 * processes may cut the file.
 *
 * <p>Refused, with an {@link IOException} naming the path and why: anything but a regular file (a FIFO or a device
 * has no length to map), and a file whose size is 0 but that has bytes ({@code /proc}, {@code /sys}: they cannot be
 * mapped). An ordinary empty file gives an empty segment.
 */
public final class FileMapping implements AutoCloseable {
    private final Path path;
    private final Arena arena;
    private final MemorySegment segment;
    private final AtomicBoolean closed = new AtomicBoolean();

    private FileMapping(Path path, Arena arena, MemorySegment segment) {
        this.path = path;
        this.arena = arena;
        this.segment = segment;
    }

    /**
     * Maps all of {@code path}, read-only.
     *
     * @throws IOException if the file cannot be opened or mapped, naming it; also for anything but a regular file,
     *         and for a file whose size is not its length (see the class description)
     */
    public static FileMapping open(Path path) throws IOException {
        Mapped.requireRegularFile("map", path);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = Mapped.requireScannable("map", path, channel);
            Arena arena = Arena.ofShared();
            boolean success = false;
            try {
                // The mapping outlives the channel: closing a channel does not unmap what it mapped.
                MemorySegment segment = Mapped.map(channel, FileChannel.MapMode.READ_ONLY, path, 0, size, arena);
                success = true;
                return new FileMapping(path, arena, segment);
            } finally {
                if (!success) {
                    arena.close();
                }
            }
        }
    }

    /**
     * The whole file, read-only, from offset 0; valid until {@link #close()}, after which reading it throws
     * {@link IllegalStateException}.
     */
    public MemorySegment segment() {
        return segment;
    }

    /** The file's size when it was mapped: the segment's length. */
    public long size() {
        return segment.byteSize();
    }

    /** The file mapped. */
    public Path path() {
        return path;
    }

    /** Whether the mapping is still there ({@link #close()} not called yet). */
    public boolean isOpen() {
        return !closed.get();
    }

    /**
     * Unmaps the file. Threads reading the segment meanwhile get {@link IllegalStateException}. Calling it again does
     * nothing.
     *
     * @throws IllegalStateException if native code is using the segment right now (a channel writing from a
     *         {@link MemorySegment#asByteBuffer} view of it, say): then the mapping stays, and a later call may succeed
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                arena.close();
            } catch (IllegalStateException e) {
                closed.set(false);
                throw e;
            }
        }
    }

    @Override
    public String toString() {
        return "FileMapping[" + path + ", " + size() + " bytes" + (isOpen() ? "" : ", closed") + "]";
    }
}
