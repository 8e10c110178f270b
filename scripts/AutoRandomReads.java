// scripts/AutoRandomReads.java: random reads of one block size from a cached file through one engine, in a fresh
// JVM, printing the rate of each half-second sample (16 of them) and, for AUTO, the chooser's state at the end. Run
// it once per JVM, alternating engines, to see how a rate settles over a JVM's life and differs from one JVM to the
// next; a diagnostic, not a bench (sluice bench compares engines side by side). With a fourth argument, seq, the
// blocks are read front to back (wrapping at the end) instead: with -Dsluice.auto.map-max=0, which pins AUTO to
// pread, that compares AUTO's pread with CHANNEL's.
//
//   ./mvnw -B -q -pl sluice-core compile
//   head -c 512m /dev/urandom > /tmp/aw.bin && cat /tmp/aw.bin > /dev/null
//   java --enable-native-access=ALL-UNNAMED -cp sluice-core/target/classes scripts/AutoRandomReads.java /tmp/aw.bin AUTO 512
//   java --enable-native-access=ALL-UNNAMED -Dsluice.auto.map-max=0 -cp sluice-core/target/classes \
//       scripts/AutoRandomReads.java /tmp/aw.bin AUTO 1048576 seq

import io.sluice.Engine;
import io.sluice.PositionalFile;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

public class AutoRandomReads {
    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        Engine engine = Engine.valueOf(args[1]);
        int block = Integer.parseInt(args[2]);
        boolean sequential = args.length > 3 && args[3].equals("seq");
        try (PositionalFile f = PositionalFile.open(path, engine)) {
            long blocks = f.size() / block;
            ByteBuffer buf = ByteBuffer.allocateDirect(block);
            long sink = 0;
            long next = 0;
            StringBuilder line = new StringBuilder();
            for (int sample = 0; sample < 16; sample++) {
                long t0 = System.nanoTime();
                long reads = 0;
                while (System.nanoTime() - t0 < 500_000_000L) {
                    for (int i = 0; i < 1000; i++) {
                        long at = sequential ? next++ % blocks : ThreadLocalRandom.current().nextLong(blocks);
                        sink += f.read(buf.clear(), at * block);
                    }
                    reads += 1000;
                }
                line.append(sample).append(':').append(Math.round(reads / ((System.nanoTime() - t0) / 1e6))).append(' ');
            }
            // The sum keeps the reads from being optimised away.
            System.out.println(line.append(sink == 42 ? "!" : "").toString().trim() + "  (ops/ms per sample)");
            if (engine == Engine.AUTO) {
                System.out.println(Engine.autoChoices());
            }
        }
    }
}
