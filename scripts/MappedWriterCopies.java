// scripts/MappedWriterCopies.java: what a small write costs MappedWriter against the JRuby mmap post's way (one
// MappedByteBuffer over the whole file, filled by put(byte[])), from Java, with no JRuby in between. Each round
// overwrites an existing cached file from 0 in 1 KiB writes, once each way in one JVM; before each, the file's dirty
// pages are written out (fdatasync), so that both start from clean cached pages, as `sluice bench jruby`'s cached cells
// do. Prints nanoseconds per write for each round and, at the end, the median from the third round on of the ratio
// MappedWriter / MappedByteBuffer (under 1: MappedWriter's write is cheaper).
//
// Run it with and without native access: with it, MappedWriter asks the kernel for each 2 MiB of pages ahead of its
// copies (MADV_POPULATE_WRITE); without it, both take a page fault per page, and the ratio shows the copies alone.
//
// The file is made by write() calls, or with a fourth argument, sparse, only given its length, so that its pages are
// first made by the mappings' faults in round 0. The page cache keeps the two in folios of different sizes, and
// faults and requests cost differently over them (docs/benchmarks/2026-11-26-deciding-s7.md).
//
//   ./mvnw -B -q -pl sluice-core -am package -DskipTests
//   $JAVA --enable-native-access=ALL-UNNAMED -cp sluice-core/target/classes scripts/MappedWriterCopies.java /tmp/w.bin 268435456 8
//   $JAVA -cp sluice-core/target/classes scripts/MappedWriterCopies.java /tmp/w.bin 268435456 8
//   $JAVA --enable-native-access=ALL-UNNAMED -cp sluice-core/target/classes scripts/MappedWriterCopies.java /tmp/w.bin 268435456 8 sparse

import io.sluice.MappedWriter;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

public class MappedWriterCopies {
    private static final int CHUNK = 1024;

    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        long size = Long.parseLong(args[1]) / CHUNK * CHUNK;
        int rounds = Integer.parseInt(args[2]);
        boolean sparse = args.length > 3 && args[3].equals("sparse");
        if (size <= 0 || size > Integer.MAX_VALUE || rounds < 3) {
            throw new IllegalArgumentException("SIZE is 1 KiB to 2 GiB (one MappedByteBuffer), ROUNDS at least 3");
        }
        byte[] src = new byte[CHUNK];
        Arrays.fill(src, (byte) 'x');
        int writes = (int) (size / CHUNK);
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            ch.truncate(0);
            if (sparse) {
                ch.write(ByteBuffer.allocate(1), size - 1);
            } else {
                ByteBuffer block = ByteBuffer.allocateDirect(1 << 20);
                for (long at = 0; at < size; at += block.capacity()) {
                    ch.write(block.clear().limit((int) Math.min(block.capacity(), size - at)), at);
                }
            }
        }
        double[] ratios = new double[rounds - 2];
        for (int round = 0; round < rounds; round++) {
            flush(path);
            long t0 = System.nanoTime();
            try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                MappedByteBuffer b = ch.map(FileChannel.MapMode.READ_WRITE, 0, size);
                t0 = System.nanoTime();
                for (int i = 0; i < writes; i++) {
                    b.put(src);
                }
            }
            double theirs = (double) (System.nanoTime() - t0) / writes;
            flush(path);
            double ours;
            try (MappedWriter w = MappedWriter.open(path, 0, size, StandardOpenOption.WRITE)) {
                long t1 = System.nanoTime();
                for (int i = 0; i < writes; i++) {
                    w.write(src, 0, CHUNK);
                }
                ours = (double) (System.nanoTime() - t1) / writes;
            }
            System.out.printf("round %d: MappedByteBuffer.put %6.1f ns, MappedWriter.write %6.1f ns%n", round, theirs, ours);
            if (round >= 2) {
                ratios[round - 2] = ours / theirs;
            }
        }
        Arrays.sort(ratios);
        System.out.printf("MappedWriter / MappedByteBuffer, ns per write, median from the third round: %.3f (%.3f to %.3f)%n",
                ratios[ratios.length / 2], ratios[0], ratios[ratios.length - 1]);
    }

    private static void flush(Path path) throws Exception {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE)) {
            ch.force(false);
        }
    }
}
