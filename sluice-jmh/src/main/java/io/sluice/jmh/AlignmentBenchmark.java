package io.sluice.jmh;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
 * How much the destination's offset into a page costs a page-cache read: sequential reads of {@code readSize} bytes
 * into a buffer that starts {@code offset} bytes after a page boundary, by {@code FileChannel} ({@code how=pread}: the
 * kernel's copy) or as a copy out of a mapping of the whole file ({@code how=mapped}: the JVM's copy, as MMAP and
 * AUTO's mapped reads make it). This is the claim behind
 * Sluice's page-aligned buffers ({@code ByteBuffer.allocateDirect} memory starts 16 bytes in): on some CPUs a
 * misaligned destination makes the kernel's copy several times slower; on others it costs nothing. Run it to see
 * which kind this machine is.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx2g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class AlignmentBenchmark {
    /** Bytes between the page boundary and the buffer's first byte. */
    @Param({"0", "1", "16", "31", "64", "2048"})
    public int offset;

    /** Bytes per read. */
    @Param({"4096", "1048576"})
    public int readSize;

    /** {@code pread} or {@code mapped}. */
    @Param({"pread", "mapped"})
    public String how;

    /** Bytes in the data file, a multiple of every readSize. Default 256 MiB. */
    @Param({"268435456"})
    public long fileSize;

    private Path path;
    private FileChannel channel;
    private Arena arena;
    private ByteBuffer buffer;
    private MemorySegment destination;
    /** The whole file, for {@code how=mapped}; null otherwise. */
    private MemorySegment mapping;
    private long position;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        path = BenchFile.create(fileSize);
        channel = FileChannel.open(path, StandardOpenOption.READ);
        arena = Arena.ofShared();
        MemorySegment page = arena.allocate(readSize + 4096L, 4096);
        destination = page.asSlice(offset, readSize);
        buffer = destination.asByteBuffer();
        if (how.equals("mapped")) {
            mapping = channel.map(FileChannel.MapMode.READ_ONLY, 0, fileSize, arena);
        } else if (!how.equals("pread")) {
            throw new IllegalArgumentException("how must be pread or mapped: " + how);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        channel.close();
        arena.close();
        BenchFile.delete(path);
    }

    /** One read of {@code readSize} bytes, walking the file and wrapping at its end. */
    @Benchmark
    public int read() throws IOException {
        int n;
        if (mapping != null) {
            MemorySegment.copy(mapping, position, destination, 0, readSize);
            n = readSize;
        } else {
            n = channel.read(buffer.clear(), position);
        }
        position += readSize;
        if (position >= fileSize) {
            position = 0;
        }
        return n;
    }
}
