// scripts/LonePreadTiming.java: what a pread costs when it comes after thousands of mapped copies, as AUTO's explored
// reads do, against the same pread in a run of them. Maps a cached file, copies GAP random 512-byte blocks out of the
// mapping, then makes a burst of four 512-byte preads through a FileChannel into a direct buffer, timing each; 400
// such bursts per round, five rounds, then a run of 10,000 preads. Prints, per round, the median time of the first,
// second, third and fourth pread of a burst and the run's time per pread. The evidence for AutoChooser's bursts:
// the first pread after a stretch of copies pays for caches the copies took.
//
//   $JAVA scripts/LonePreadTiming.java FILE 4096

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

public class LonePreadTiming {
    private static final int BLOCK = 512;
    private static final int BURST = 4;
    private static final int BURSTS = 400;
    private static final int RUN = 10_000;

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: LonePreadTiming FILE GAP");
            System.exit(2);
        }
        Path file = Path.of(args[0]);
        int gap = Integer.parseInt(args[1]);
        try (FileChannel ch = FileChannel.open(file); Arena arena = Arena.ofShared()) {
            long size = ch.size();
            MemorySegment map = ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            MemorySegment dst = arena.allocate(BLOCK, 4096);
            ByteBuffer buf = dst.asByteBuffer();
            long blocks = size / BLOCK;
            SplittableRandom random = new SplittableRandom(3);
            for (int round = 0; round < 5; round++) {
                long[][] nanos = new long[BURST][BURSTS];
                for (int b = 0; b < BURSTS; b++) {
                    for (int i = 0; i < gap; i++) {
                        MemorySegment.copy(map, random.nextLong(blocks) * BLOCK, dst, 0, BLOCK);
                    }
                    for (int k = 0; k < BURST; k++) {
                        long pos = random.nextLong(blocks) * BLOCK;
                        long t0 = System.nanoTime();
                        ch.read(buf.clear(), pos);
                        nanos[k][b] = System.nanoTime() - t0;
                    }
                }
                long t0 = System.nanoTime();
                for (int i = 0; i < RUN; i++) {
                    ch.read(buf.clear(), random.nextLong(blocks) * BLOCK);
                }
                long run = (System.nanoTime() - t0) / RUN;
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "round %d, after %d copies:", round,
                        gap));
                for (int k = 0; k < BURST; k++) {
                    Arrays.sort(nanos[k]);
                    line.append(String.format(Locale.ROOT, " pread %d %d ns,", k + 1, nanos[k][BURSTS / 2]));
                }
                System.out.println(line.append(String.format(Locale.ROOT, " in a run %d ns", run)));
            }
        }
    }
}
