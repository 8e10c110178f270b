// scripts/MappedCopyTiming.java: what the copy itself costs in MMAP's random reads, against fio's mmap row. Maps one
// file read-only and copies random blocks of it into a direct buffer two ways, rounds alternated in one JVM:
// MemorySegment.copy (what MMAP does: the JVM's copy routine, which turns SIGBUS from a page the file lost into an
// InternalError) and glibc's memcpy through a critical downcall (what fio's mmap engine does). Prints ops/ms per round
// and the medians' ratio. A diagnostic for issue 25's 64 KiB cell; memcpy is not an option for Sluice itself, because
// SIGBUS inside native code (another process cut the file) ends the JVM instead of throwing.
//
//   head -c 512m /dev/urandom > /tmp/f.bin && cat /tmp/f.bin > /dev/null
//   $JAVA --enable-native-access=ALL-UNNAMED scripts/MappedCopyTiming.java /tmp/f.bin 65536 5
//
// With --sigbus DIR it shows why not: it maps a 1 MiB file in DIR, cuts the file to 4 KiB, then copies from the lost
// part both ways. MemorySegment.copy throws InternalError (which MMAP turns into an IOException naming the file);
// memcpy kills the JVM with SIGBUS (exit status 134, an hs_err file, and the cut file left in DIR).

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;

public class MappedCopyTiming {
    private static final MethodHandle MEMCPY = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().find("memcpy").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG),
            Linker.Option.critical(false));
    private static final long SAMPLE_NANOS = 2_000_000_000L;

    public static void main(String[] args) throws Throwable {
        if (args[0].equals("--sigbus")) {
            sigbus(Path.of(args[1]));
            return;
        }
        Path path = Path.of(args[0]);
        int block = Integer.parseInt(args[1]);
        int rounds = Integer.parseInt(args[2]);
        try (FileChannel ch = FileChannel.open(path); Arena arena = Arena.ofShared()) {
            MemorySegment map = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            MemorySegment dst = MemorySegment.ofBuffer(ByteBuffer.allocateDirect(block));
            // Block-aligned random offsets, drawn before timing so both ways copy the same blocks.
            long[] offsets = new Random(1).longs(1 << 16, 0, ch.size() / block).map(b -> b * block).toArray();
            double[][] rates = new double[2][rounds];
            for (int round = -1; round < rounds; round++) { // round -1 warms both up, not recorded
                for (int way = 0; way < 2; way++) {
                    double rate = run(way, map, dst, offsets, block);
                    if (round >= 0) {
                        rates[way][round] = rate;
                        System.out.printf("round %d  %-17s %8.1f ops/ms%n", round,
                                way == 0 ? "MemorySegment.copy" : "memcpy", rate);
                    }
                }
            }
            double seg = median(rates[0]);
            double mem = median(rates[1]);
            System.out.printf("%d-byte blocks, medians of %d: MemorySegment.copy %.1f, memcpy %.1f ops/ms; "
                    + "MemorySegment.copy / memcpy %.2f%n", block, rounds, seg, mem, seg / mem);
        }
    }

    private static double run(int way, MemorySegment map, MemorySegment dst, long[] offsets, int block)
            throws Throwable {
        long start = System.nanoTime();
        long n = 0;
        while (System.nanoTime() - start < SAMPLE_NANOS) {
            for (int i = 0; i < 1024; i++, n++) {
                long off = offsets[(int) (n & (offsets.length - 1))];
                if (way == 0) {
                    MemorySegment.copy(map, off, dst, 0, block);
                } else {
                    MemorySegment unused = (MemorySegment) MEMCPY.invokeExact(dst, map.asSlice(off, block), (long) block);
                }
            }
        }
        return n / ((System.nanoTime() - start) / 1e6);
    }

    private static void sigbus(Path dir) throws Throwable {
        Path file = Files.createTempFile(dir, "mapped-copy", ".bin");
        Files.write(file, new byte[1 << 20]);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
             Arena arena = Arena.ofShared()) {
            MemorySegment map = ch.map(FileChannel.MapMode.READ_ONLY, 0, 1 << 20, arena);
            ch.truncate(4096);
            MemorySegment dst = arena.allocate(65536);
            try {
                MemorySegment.copy(map, 65536, dst, 0, 65536);
                System.out.println("MemorySegment.copy returned (the file was not cut?)");
            } catch (InternalError e) {
                System.out.println("MemorySegment.copy threw " + e);
            }
            System.out.println("memcpy from the same lost page (the JVM ends here):");
            System.out.flush();
            MemorySegment unused = (MemorySegment) MEMCPY.invokeExact(dst, map.asSlice(65536, 65536), 65536L);
            System.out.println("memcpy returned");
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
