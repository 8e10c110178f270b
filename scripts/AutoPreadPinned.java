// scripts/AutoPreadPinned.java: one engine's sequential reads of a cached file, in a JVM of its own, for comparing
// AUTO's pread path with CHANNEL's. Reads BLOCK bytes at a time front to back (wrapping at the end) into a
// page-aligned direct buffer for six rounds of 300 ms and prints each round's rate; with AUTO it also prints what
// AUTO chose. Pin AUTO to pread with -Dsluice.auto.map-max=0:
//
//   $JAVA --enable-native-access=ALL-UNNAMED -cp sluice-cli/target/lib/sluice-core.jar \
//       scripts/AutoPreadPinned.java FILE 1048576 CHANNEL
//   $JAVA --enable-native-access=ALL-UNNAMED -Dsluice.auto.map-max=0 -cp sluice-cli/target/lib/sluice-core.jar \
//       scripts/AutoPreadPinned.java FILE 1048576 AUTO
//
// A diagnostic for docs/benchmarks/2026-11-26-auto-fair.md: AUTO's steady pread is CHANNEL's, so the slow explored
// preads it times are not its pread path.

import io.sluice.Engine;
import io.sluice.PositionalFile;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Locale;

public class AutoPreadPinned {
    private static final long ROUND_NANOS = 300_000_000L;

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: AutoPreadPinned FILE BLOCK ENGINE");
            System.exit(2);
        }
        Path file = Path.of(args[0]);
        int block = Integer.parseInt(args[1]);
        Engine engine = Engine.valueOf(args[2]);
        try (PositionalFile f = PositionalFile.open(file, engine)) {
            long size = f.size();
            if (size < block) {
                throw new IllegalArgumentException(file + " is smaller than one block of " + block + " bytes");
            }
            ByteBuffer buf = Arena.ofAuto().allocate(block, 4096).asByteBuffer();
            long pos = 0;
            for (int round = 0; round < 6; round++) {
                long t0 = System.nanoTime();
                long reads = 0;
                while (System.nanoTime() - t0 < ROUND_NANOS) {
                    f.read(buf.clear(), pos);
                    reads++;
                    pos += block;
                    if (pos + block > size) {
                        pos = 0;
                    }
                }
                System.out.printf(Locale.ROOT, "%s round %d: %.1f ops/ms%n", engine, round,
                        reads / ((System.nanoTime() - t0) / 1e6));
            }
            if (engine == Engine.AUTO) {
                System.out.println(Engine.autoChoices());
            }
        }
    }
}
