package io.sluice.nio;

import io.sluice.Engine;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;

/**
 * Random 512-byte positional reads through Sluice's FileChannel, called the way a benchmark's or an application's
 * loop calls them: from a loop, through two levels of the caller's own (an interface and a lambda), so that
 * {@link ReadDepthTest} can read what C2 inlined into the loop.
 */
public final class ReadDepthChild {
    /** A caller's own level between its loop and the channel, as a benchmark's reader or a codec's input is. */
    interface Reader {
        int read(long position) throws java.io.IOException;
    }

    private ReadDepthChild() {
    }

    public static void main(String[] args) throws Exception {
        Engine engine = Engine.valueOf(args[0]);
        Path file = Path.of(args[1]);
        try (FileChannel ch = SluiceChannels.open(file, engine, StandardOpenOption.READ)) {
            ByteBuffer buf = Arena.ofAuto().allocate(512, 4096).asByteBuffer();
            Reader reader = pos -> ch.read(buf.clear(), pos);
            long[] offsets = new long[4096];
            SplittableRandom random = new SplittableRandom(7);
            long blocks = ch.size() / 512;
            for (int i = 0; i < offsets.length; i++) {
                offsets[i] = random.nextLong(blocks) * 512;
            }
            long total = 0;
            for (int round = 0; round < 100; round++) {
                total += loop(reader, offsets);
            }
            System.out.println("read " + total);
        }
    }

    static long loop(Reader reader, long[] offsets) throws java.io.IOException {
        long total = 0;
        for (long pos : offsets) {
            total += reader.read(pos);
        }
        return total;
    }
}
