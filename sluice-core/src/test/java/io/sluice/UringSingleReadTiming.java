package io.sluice;

import io.sluice.internal.Native;
import io.sluice.internal.uring.Uapi;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Not a test: a timing of one blocking 1 KiB positional read of a cached file, the read {@code NIOFSDirectory} makes
 * per buffer refill, cut into its parts, so that IO_URING's cost against {@code pread} can be placed. Rows, each the
 * median over rounds of nanoseconds per call, rows interleaved and rotated every round:
 *
 * <ul>
 *   <li>{@code jdk-heap}, {@code jdk-direct}: the JDK's {@code FileChannel.read(dst, position)} into a heap or a
 *       direct buffer (the default provider's refill: a heap buffer);
 *   <li>{@code CHANNEL-heap}, {@code IO_URING-heap}, {@code IO_URING-direct}: the engines' positional reads;
 *   <li>{@code ffm-pread}: {@code pread64} through the FFM linker into native memory (the system call alone);
 *   <li>{@code ffm-getppid}: the cheapest system call through the same linker (entering the kernel and the
 *       downcall);
 *   <li>{@code ring-nop}: a NOP through the calling thread's lane, submitted and its completion collected as a read
 *       is (the ring's round trip without the read);
 *   <li>{@code ring-read-direct}: a READ of the registered file into native memory through the lane, without
 *       UringFile's checks and use count.
 * </ul>
 *
 * <p>Run with the test classpath and native access:
 * {@code java --enable-native-access=ALL-UNNAMED -cp sluice-core/target/classes:sluice-core/target/test-classes
 * io.sluice.UringSingleReadTiming [file] [rounds] [calls]}.
 */
public final class UringSingleReadTiming {
    private static final int LEN = 1024;
    private static final long SIZE = 64L << 20;
    private static final int SYS_PREAD64 = 17;
    private static final int SYS_GETPPID = 110;

    private UringSingleReadTiming() {
    }

    interface Call {
        long run(long position) throws IOException;
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args.length > 0 ? args[0] : "/tmp/sluice-uring-single-read.bin");
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        int calls = args.length > 2 ? Integer.parseInt(args[2]) : 200_000;
        makeFile(file, SIZE);
        long[] positions = positions(SIZE, LEN);
        try (Arena arena = Arena.ofShared();
                FileChannel jdk = FileChannel.open(file, StandardOpenOption.READ);
                PositionalFile channel = PositionalFile.open(file, Engine.CHANNEL);
                PositionalFile uring = PositionalFile.open(file, Engine.IO_URING)) {
            ByteBuffer heap = ByteBuffer.allocate(LEN);
            ByteBuffer direct = ByteBuffer.allocateDirect(LEN);
            MemorySegment nat = arena.allocate(LEN, 4096);
            MemorySegment state = Native.newCallState();
            int fd = Native.open(file.toString(), 0, 0);
            if (fd < 0) {
                throw new IOException("open " + file + ": " + fd);
            }
            UringFile uf = (UringFile) uring;
            UringLane lane = UringPool.get().lane();
            int regSlot = uf.registeredSlot();
            Map<String, Call> rows = new LinkedHashMap<>();
            rows.put("jdk-heap", p -> jdk.read(heap.clear(), p));
            rows.put("jdk-direct", p -> jdk.read(direct.clear(), p));
            rows.put("CHANNEL-heap", p -> channel.read(heap.clear(), p));
            rows.put("IO_URING-heap", p -> uring.read(heap.clear(), p));
            rows.put("IO_URING-direct", p -> uring.read(direct.clear(), p));
            rows.put("ffm-pread", p -> Native.syscall(state, SYS_PREAD64, fd, nat.address(), LEN, p, 0, 0));
            rows.put("ffm-getppid", p -> Native.syscall(state, SYS_GETPPID, 0, 0, 0, 0, 0, 0));
            rows.put("ring-nop", p -> lane.await(lane.submitOne(Uapi.IORING_OP_NOP, -1, false, 0, 0, 0, 0, -1,
                    null, null, null, -1, null)));
            rows.put("ring-read-direct", p -> lane.await(lane.submitOne(Uapi.IORING_OP_READ,
                    regSlot >= 0 ? regSlot : fd, regSlot >= 0, nat.address(), LEN, p, 0, -1, null, null, null, -1,
                    null)));
            Map<String, double[]> ns = time(rows, positions, rounds, calls);
            Native.close(fd);
            print(ns, 18);
        }
    }
    /** Writes {@code size} bytes of random data to {@code file} unless it already has that size. */
    static void makeFile(Path file, long size) throws IOException {
        if (Files.exists(file) && Files.size(file) == size) {
            return;
        }
        byte[] block = new byte[1 << 20];
        new SplittableRandom(1).nextBytes(block);
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long p = 0; p < size; p += block.length) {
                c.write(ByteBuffer.wrap(block), p);
            }
        }
    }

    /** 4096 random positions at which a read of {@code len} bytes fits in {@code size} (a power of two, for masking). */
    static long[] positions(long size, int len) {
        long[] positions = new long[4096];
        SplittableRandom rnd = new SplittableRandom(2);
        for (int i = 0; i < positions.length; i++) {
            positions[i] = rnd.nextLong(size - len);
        }
        return positions;
    }

    /**
     * Nanoseconds per call of each row, per round: every row warmed up first (each path compiled), then the rows
     * interleaved, their order rotated every round, so that all see the same machine.
     */
    static Map<String, double[]> time(Map<String, Call> rows, long[] positions, int rounds, int calls)
            throws IOException {
        List<String> names = new ArrayList<>(rows.keySet());
        Map<String, double[]> ns = new LinkedHashMap<>();
        names.forEach(n -> ns.put(n, new double[rounds]));
        long sink = 0;
        for (String n : names) {
            for (int i = 0; i < calls; i++) {
                sink += rows.get(n).run(positions[i & (positions.length - 1)]);
            }
        }
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < names.size(); k++) {
                String n = names.get((k + r) % names.size());
                Call c = rows.get(n);
                long t0 = System.nanoTime();
                for (int i = 0; i < calls; i++) {
                    sink += c.run(positions[(i * 7 + r) & (positions.length - 1)]);
                }
                ns.get(n)[r] = (System.nanoTime() - t0) / (double) calls;
            }
        }
        // What the calls returned, printed so that no call's work can be dropped as unused.
        System.out.println("(checksum " + sink + ")");
        return ns;
    }

    /** The table: median, min and max nanoseconds per call of each row, its names {@code width} wide. */
    static void print(Map<String, double[]> ns, int width) {
        System.out.printf("%-" + width + "s %9s %9s %9s%n", "row", "median ns", "min", "max");
        ns.forEach((n, times) -> {
            double[] v = times.clone();
            Arrays.sort(v);
            System.out.printf("%-" + width + "s %9.0f %9.0f %9.0f%n", n, v[v.length / 2], v[0], v[v.length - 1]);
        });
    }
}
