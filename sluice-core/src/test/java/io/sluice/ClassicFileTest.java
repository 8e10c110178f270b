package io.sluice;

import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The contract on the CLASSIC engine, plus what follows from its one lock and its scratch array. */
class ClassicFileTest extends PositionalFileContract {
    @Override
    Engine engine() {
        return Engine.CLASSIC;
    }

    @Test
    void interruptsDoNotAffectIt() throws IOException {
        Path p = patternFile("f", 100_000);
        try (PositionalFile f = open(p, WRITE)) {
            Thread.currentThread().interrupt();
            try {
                assertPattern(Dst.DIRECT_BUFFER.readFully(f, 10, 5000), 5000, 10);
                f.writeFully(Pattern.bytes(100_000, 100), 0, 100, 100_000);
                assertEquals(100_100, f.size());
                assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status is left as it was");
            } finally {
                Thread.interrupted();
            }
            assertTrue(f.isOpen());
        }
    }

    @Test
    void bufferAndSegmentTransfersAreCutAtTheScratchSize() throws IOException {
        int scratch = 1 << 20;
        Path p = patternFile("f", 4 * MiB);
        try (PositionalFile f = open(p, WRITE); Arena arena = Arena.ofConfined()) {
            ByteBuffer direct = ByteBuffer.allocateDirect(3 * scratch);
            assertEquals(scratch, f.read(direct, 7));
            assertEquals(scratch, direct.position());
            MemorySegment seg = arena.allocate(3L * scratch);
            assertEquals(scratch, f.read(seg, 7));
            // byte arrays need no scratch copy, so they are not cut
            assertEquals(3 * scratch, f.read(new byte[3 * scratch], 7));

            ByteBuffer src = ByteBuffer.allocateDirect(2 * scratch + 1);
            src.put(Pattern.bytes(0, 2 * scratch + 1)).flip();
            assertEquals(scratch, f.write(src, 0));
            assertEquals(scratch, src.position());
            f.writeFully(src, scratch);
            assertPattern(Dst.ARRAY_SLICE.readFully(f, 0, 4 * scratch), 4 * scratch, 0);
        }
    }
}
