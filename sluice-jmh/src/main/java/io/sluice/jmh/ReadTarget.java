package io.sluice.jmh;

import io.sluice.Engine;
import io.sluice.PositionalFile;
import java.io.Closeable;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The data file of one trial, opened the way a benchmark's {@code engine} parameter names: a Sluice {@link Engine}
 * ({@code CLASSIC}, {@code CHANNEL}, {@code MMAP}, {@code IO_URING}, any case) or one of two plain-JDK baselines.
 * One handle is shared by every benchmark thread, as an application would share it; each thread reads through its
 * own {@link BlockReader}.
 *
 * <p>The buffers, chosen so that each variant reads the way its users would, and so that the two baselines differ
 * in one thing only:
 * <ul>
 *   <li>{@value #NAIVE_DIRECT}: {@link FileChannel} into {@link ByteBuffer#allocateDirect}, which starts wherever
 *       {@code malloc} put it, usually not on a page boundary.</li>
 *   <li>{@value #JDK_ALIGNED}: {@link FileChannel} into a page-aligned direct buffer from an {@link Arena}.</li>
 *   <li>{@value #JDK_MAPPED}: {@link MemorySegment#copy} from one mapping of the whole file into a page-aligned
 *       direct segment, with nothing around it: the floor for MMAP, whose difference to it is the engine's checks
 *       and fault handling.</li>
 *   <li>CHANNEL, MMAP, IO_URING: {@link PositionalFile} into a page-aligned direct buffer, the same as
 *       {@value #JDK_ALIGNED}, so that the difference to it is Sluice's own cost or gain.</li>
 *   <li>CLASSIC: {@link PositionalFile} into a {@code byte[]}. The engine is {@link java.io.RandomAccessFile}, whose
 *       only API is arrays; a direct buffer would make it copy through a scratch array, a cost its users never
 *       pay. What it does pay, inside the JDK, is a copy through a native buffer on every call.</li>
 * </ul>
 */
final class ReadTarget implements Closeable {
    /** The baseline reading with a plain FileChannel into {@code ByteBuffer.allocateDirect}. */
    static final String NAIVE_DIRECT = "naive-direct";
    /** The baseline reading with a plain FileChannel into a page-aligned direct buffer. */
    static final String JDK_ALIGNED = "jdk-aligned";
    /** The baseline copying out of a mapping of the whole file. */
    static final String JDK_MAPPED = "jdk-mapped";

    private static final int PAGE = 4096;

    private final String variant;
    private final Path path;
    private final long size;
    /** Set for a Sluice engine, null for a baseline. */
    private final PositionalFile file;
    /** Set for a baseline, null for a Sluice engine. */
    private final FileChannel channel;
    /** For {@value #JDK_MAPPED}: the mapping's arena and the mapping; null otherwise. */
    private final Arena mappingArena;
    private final MemorySegment mapping;

    private ReadTarget(String variant, Path path, long size, PositionalFile file, FileChannel channel)
            throws IOException {
        this.variant = variant;
        this.path = path;
        this.size = size;
        this.file = file;
        this.channel = channel;
        if (variant.equals(JDK_MAPPED)) {
            mappingArena = Arena.ofShared();
            try {
                mapping = channel.map(FileChannel.MapMode.READ_ONLY, 0, size, mappingArena);
            } catch (IOException | RuntimeException e) {
                mappingArena.close();
                channel.close();
                throw e;
            }
        } else {
            mappingArena = null;
            mapping = null;
        }
    }

    /**
     * Creates a warm data file of {@code size} bytes (see {@link BenchFile}) and opens it as {@code variant} says.
     *
     * @throws UnsupportedOperationException if {@code variant} names a Sluice engine that cannot run here; the
     *                                       message gives the cause, and no file has been created
     * @throws IllegalArgumentException      if {@code variant} names nothing known
     */
    static ReadTarget create(String variant, long size) throws IOException {
        // Checked before the file exists, so that an unavailable engine fails its trial at once and cheaply.
        Engine engine = sluiceEngine(variant);
        if (engine != null) {
            engine.requireAvailable();
        }
        Path path = BenchFile.create(size);
        boolean success = false;
        try {
            ReadTarget t = engine != null
                    ? new ReadTarget(variant, path, size, PositionalFile.open(path, engine), null)
                    : new ReadTarget(variant, path, size, null, FileChannel.open(path, StandardOpenOption.READ));
            success = true;
            return t;
        } finally {
            if (!success) {
                BenchFile.delete(path);
            }
        }
    }

    /** The Sluice engine {@code variant} names, or null for a JDK baseline. */
    static Engine sluiceEngine(String variant) {
        if (variant.equals(NAIVE_DIRECT) || variant.equals(JDK_ALIGNED) || variant.equals(JDK_MAPPED)) {
            return null;
        }
        try {
            return Engine.parse(variant);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown engine parameter '" + variant + "': expected "
                    + NAIVE_DIRECT + ", " + JDK_ALIGNED + ", " + JDK_MAPPED + " or a Sluice engine (CLASSIC, CHANNEL, MMAP, IO_URING)", e);
        }
    }

    /** The size of the data file in bytes. */
    long size() {
        return size;
    }

    /** The Sluice file, for benchmarks of Sluice-only API such as batches. */
    PositionalFile sluiceFile() {
        if (file == null) {
            throw new IllegalArgumentException(variant + " is a plain-JDK baseline; this benchmark needs a Sluice engine");
        }
        return file;
    }

    /**
     * A reader of {@code blockSize}-byte blocks for one thread, with its buffer; direct buffers come from
     * {@code arena}, which the thread closes when its trial ends.
     */
    BlockReader newReader(int blockSize, Arena arena) {
        if (mapping != null) {
            return new BlockReader.MappingIntoBuffer(mapping, arena.allocate(blockSize, PAGE));
        }
        if (file == null) {
            ByteBuffer buffer = variant.equals(NAIVE_DIRECT)
                    ? ByteBuffer.allocateDirect(blockSize)
                    : arena.allocate(blockSize, PAGE).asByteBuffer();
            return new BlockReader.ChannelIntoBuffer(channel, buffer);
        }
        if (file.engine() == Engine.CLASSIC) {
            return new BlockReader.IntoArray(file, new byte[blockSize]);
        }
        return new BlockReader.IntoBuffer(file, arena.allocate(blockSize, PAGE).asByteBuffer());
    }

    /**
     * A buffer for one read of {@code blockSize} bytes through {@link #sluiceFile()}, by the same rule as
     * {@link #newReader}: a heap buffer for CLASSIC, page-aligned direct memory from {@code arena} otherwise.
     */
    ByteBuffer newSluiceBuffer(int blockSize, Arena arena) {
        if (sluiceFile().engine() == Engine.CLASSIC) {
            return ByteBuffer.wrap(new byte[blockSize]);
        }
        return arena.allocate(blockSize, PAGE).asByteBuffer();
    }

    /** Closes the handle and deletes the data file. */
    @Override
    public void close() throws IOException {
        try {
            if (file != null) {
                file.close();
            } else {
                if (mappingArena != null) {
                    mappingArena.close();
                }
                channel.close();
            }
        } finally {
            BenchFile.delete(path);
        }
    }

    @Override
    public String toString() {
        return variant + "[" + path + ", " + size + " bytes]";
    }
}
