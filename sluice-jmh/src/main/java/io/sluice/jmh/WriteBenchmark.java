package io.sluice.jmh;

import io.sluice.MappedWriter;
import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A file written front to back in chunks of {@code chunkSize}, one method per way of writing: the JDK's streams,
 * {@link RandomAccessFile}, {@link FileChannel} from a heap and from a page-aligned direct buffer, and
 * {@link MappedWriter} (the matrix of {@code sluice bench write}). One operation is a whole file of {@code size}
 * bytes, from open to close, nothing forced; divide {@code size} by the score for bandwidth.
 *
 * <p>{@code file=new} deletes the file before every operation (untimed), so every write allocates page-cache
 * pages; {@code file=cached} overwrites, from position 0 and without truncating, a file that was written and read
 * once in setup, so its pages are resident.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx2g"})
@Warmup(iterations = 3)
@Measurement(iterations = 10)
public class WriteBenchmark {
    /** Bytes per write call. */
    @Param({"1024", "4096", "16384"})
    public int chunkSize;

    /** {@code new}: a new file per operation; {@code cached}: overwriting a file in the page cache. */
    @Param({"new", "cached"})
    public String file;

    /** Bytes per operation. Default 256 MiB. */
    @Param({"268435456"})
    public long size;

    /** Random bytes the chunks are taken from, cycling, so that successive chunks differ. */
    private static final int SOURCE = 1 << 20;

    private byte[] heap;
    private ByteBuffer direct;
    private Path path;
    private boolean fresh;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        fresh = switch (file) {
            case "new" -> true;
            case "cached" -> false;
            default -> throw new IllegalArgumentException("file must be new or cached: " + file);
        };
        heap = new byte[SOURCE + chunkSize];
        new SplittableRandom(7).nextBytes(heap);
        direct = Arena.ofAuto().allocate(heap.length, 4096).asByteBuffer().put(heap).clear();
        path = BenchFile.create(fresh ? 1 : size);
    }

    @Setup(Level.Invocation)
    public void freshFile() throws IOException {
        if (fresh) {
            // Untimed: the pages of the last operation's file are dropped, never written back.
            Files.deleteIfExists(path);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        BenchFile.delete(path);
    }

    private int offset(long pos) {
        return (int) (pos % SOURCE);
    }

    private int length(long pos) {
        return (int) Math.min(chunkSize, size - pos);
    }

    /** A stream over the file: a new one, or the cached one without truncating it (through a RandomAccessFile). */
    private OutputStream stream(RandomAccessFile raf) throws IOException {
        return fresh ? new FileOutputStream(path.toFile()) : new FileOutputStream(raf.getFD());
    }

    @Benchmark
    public void fileOutputStream() throws IOException {
        try (RandomAccessFile raf = fresh ? null : new RandomAccessFile(path.toFile(), "rw");
             OutputStream out = stream(raf)) {
            for (long pos = 0; pos < size; pos += chunkSize) {
                out.write(heap, offset(pos), length(pos));
            }
        }
    }

    @Benchmark
    public void bufferedOutputStream() throws IOException {
        try (RandomAccessFile raf = fresh ? null : new RandomAccessFile(path.toFile(), "rw");
             OutputStream out = new BufferedOutputStream(stream(raf), 64 * 1024)) {
            for (long pos = 0; pos < size; pos += chunkSize) {
                out.write(heap, offset(pos), length(pos));
            }
        }
    }

    @Benchmark
    public void randomAccessFile() throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(path.toFile(), "rw")) {
            for (long pos = 0; pos < size; pos += chunkSize) {
                raf.write(heap, offset(pos), length(pos));
            }
        }
    }

    private FileChannel channel() throws IOException {
        return fresh ? FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)
                : FileChannel.open(path, StandardOpenOption.WRITE);
    }

    @Benchmark
    public void channelHeap() throws IOException {
        try (FileChannel c = channel()) {
            for (long pos = 0; pos < size; pos += chunkSize) {
                ByteBuffer b = ByteBuffer.wrap(heap, offset(pos), length(pos));
                while (b.hasRemaining()) {
                    c.write(b);
                }
            }
        }
    }

    @Benchmark
    public void channelDirect() throws IOException {
        try (FileChannel c = channel()) {
            for (long pos = 0; pos < size; pos += chunkSize) {
                int off = offset(pos);
                ByteBuffer b = direct.limit(off + length(pos)).position(off);
                while (b.hasRemaining()) {
                    c.write(b);
                }
            }
        }
    }

    @Benchmark
    public void mappedWriter() throws IOException {
        try (MappedWriter w = fresh ? MappedWriter.open(path)
                : MappedWriter.open(path, 0, MappedWriter.DEFAULT_WINDOW_SIZE, StandardOpenOption.WRITE)) {
            for (long pos = 0; pos < size; pos += chunkSize) {
                w.write(heap, offset(pos), length(pos));
            }
        }
    }
}
