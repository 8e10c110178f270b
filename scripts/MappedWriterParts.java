// scripts/MappedWriterParts.java: where a 1 KiB MappedWriter.write spends time that the JRuby mmap post's way
// (MappedByteBuffer.put(byte[]) into one mapping of the whole file) does not, from Java alone. Four ways overwrite one
// cached file from 0, in an order that rotates every round so that none always follows another:
//   put        MappedByteBuffer.put(byte[]), the buffer mapped by FileChannel.map(mode, 0, size)
//   writer     MappedWriter.write(byte[], 0, 1024), one window of the whole file
//   segment    MemorySegment.copy from the array into a segment mapped in a shared arena, the offset a local
//   segment+poll  the same, then Faults.deliver(), the SIGBUS poll MappedWriter makes after every copy
// segment+poll is MappedWriter's copy without the writer around it (its window, offset and limit in fields, the JFR
// check, the slow path every 2 MiB). Before each pass the file's dirty pages are written out (fdatasync), or with
// "dirty" not, so that each pass overwrites what the pass before left dirty, as the post's measured pass does.
// Prints each way's median nanoseconds per write from the third round on, and its ratio to put's.
//
//   ./mvnw -B -q -pl sluice-core -am compile
//   $JAVA --enable-native-access=ALL-UNNAMED -cp sluice-core/target/classes scripts/MappedWriterParts.java /tmp/w.bin 2097152000 20 dirty
//   $JAVA --enable-native-access=ALL-UNNAMED -cp sluice-core/target/classes scripts/MappedWriterParts.java /tmp/w.bin 2097152000 10

import io.sluice.MappedWriter;
import io.sluice.internal.Faults;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public class MappedWriterParts {
    private static final int CHUNK = 1024;
    private static final String[] WAYS = {"put", "writer", "segment", "segment+poll"};

    public static void main(String[] args) throws Exception {
        if (args.length < 3 || args.length > 4 || (args.length == 4 && !args[3].equals("dirty"))) {
            throw new IllegalArgumentException("usage: MappedWriterParts.java PATH SIZE ROUNDS [dirty]");
        }
        Path path = Path.of(args[0]);
        int writes = Math.toIntExact(Long.parseLong(args[1]) / CHUNK);
        long size = (long) writes * CHUNK;
        int rounds = Integer.parseInt(args[2]);
        boolean dirty = args.length == 4;
        if (writes < 1 || size > Integer.MAX_VALUE || rounds < 3) {
            throw new IllegalArgumentException("SIZE from 1 KiB to 2 GiB (put's buffer is one MappedByteBuffer), "
                    + "ROUNDS 3 or more");
        }
        byte[] src = "abcdefg\n".repeat(CHUNK / 8).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        // Sparse, as the post's harness finds its file: the first pass's faults make the pages.
        Files.deleteIfExists(path);
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(path.toFile(), "rw")) {
            f.setLength(size);
        }
        Map<String, List<Double>> ns = new LinkedHashMap<>();
        for (String w : WAYS) {
            ns.put(w, new ArrayList<>());
        }
        try {
            for (int round = 0; round < rounds; round++) {
                StringBuilder line = new StringBuilder("round " + round + ":");
                for (int j = 0; j < WAYS.length; j++) {
                    String way = WAYS[(round + j) % WAYS.length];
                    if (!dirty) {
                        flush(path);
                    }
                    double t = pass(way, path, size, writes, src);
                    line.append(String.format(" %s %.1f ns", way, t));
                    if (round >= 2) {
                        ns.get(way).add(t);
                    }
                }
                System.out.println(line);
            }
        } finally {
            Files.deleteIfExists(path);
        }
        double put = median(ns.get("put"));
        System.out.printf("1 KiB writes, %d MiB per pass, %s; medians from the third round, ns per write (/ put's):%n",
                size >> 20, dirty ? "over the pages the pass before left dirty" : "over clean pages");
        for (String w : WAYS) {
            double m = median(ns.get(w));
            System.out.printf("  %-13s %6.1f (%.3f)%n", w, m, m / put);
        }
    }

    /** One pass of {@code way} over the file, the mapping made before the timing: nanoseconds per write. */
    private static double pass(String way, Path path, long size, int writes, byte[] src) throws Exception {
        if (way.equals("writer")) {
            try (MappedWriter w = MappedWriter.open(path, 0, size, StandardOpenOption.WRITE)) {
                long t0 = System.nanoTime();
                for (int i = 0; i < writes; i++) {
                    w.write(src, 0, CHUNK);
                }
                return (double) (System.nanoTime() - t0) / writes;
            }
        }
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
                Arena arena = Arena.ofShared()) {
            if (way.equals("put")) {
                MappedByteBuffer b = ch.map(FileChannel.MapMode.READ_WRITE, 0, size);
                long t0 = System.nanoTime();
                for (int i = 0; i < writes; i++) {
                    b.put(src);
                }
                return (double) (System.nanoTime() - t0) / writes;
            }
            MemorySegment s = ch.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            boolean poll = way.equals("segment+poll");
            long at = 0;
            long t0 = System.nanoTime();
            for (int i = 0; i < writes; i++) {
                MemorySegment.copy(src, 0, s, ValueLayout.JAVA_BYTE, at, CHUNK);
                if (poll) {
                    Faults.deliver();
                }
                at += CHUNK;
            }
            return (double) (System.nanoTime() - t0) / writes;
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    private static void flush(Path path) throws Exception {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE)) {
            ch.force(false);
        }
    }
}
