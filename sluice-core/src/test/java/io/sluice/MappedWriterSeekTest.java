package io.sluice;

import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.TRUNCATE_EXISTING;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link MappedWriter#position(long)}: moving the writer, checked against the JDK's own positional writes to a second
 * file ({@link FileChannel#write(ByteBuffer, long)}), the reference for what the bytes and the length must be.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MappedWriterSeekTest {
    @TempDir
    Path dir;

    /**
     * Random writes, moves (back into the window, back into earlier windows, forward past the end) and forces, with
     * windows of one page and of a few, against a FileChannel doing the same at the same positions. The file the
     * channel leaves is what the writer must leave: the same bytes and, after close, the same length (the furthest
     * byte written, which the channel's file has by construction).
     */
    @ParameterizedTest
    @ValueSource(longs = {4096, 3 * 4096, 64 * 4096})
    void movesAndWritesLeaveWhatTheJdksPositionalWritesLeave(long window) throws IOException {
        for (long seed = 1; seed <= 6; seed++) {
            SplittableRandom random = new SplittableRandom(seed * 7919 + window);
            Path ours = dir.resolve("ours-" + window + "-" + seed);
            Path theirs = dir.resolve("theirs-" + window + "-" + seed);
            try (MappedWriter w = MappedWriter.open(ours, -1, window, CREATE, TRUNCATE_EXISTING, WRITE);
                    FileChannel c = FileChannel.open(theirs, CREATE, TRUNCATE_EXISTING, WRITE)) {
                long pos = 0;
                long end = 0;
                for (int step = 0; step < 300; step++) {
                    int op = random.nextInt(10);
                    if (op < 6) {
                        byte[] b = new byte[random.nextInt(0, (int) (2 * window))];
                        random.nextBytes(b);
                        w.write(b);
                        c.write(ByteBuffer.wrap(b), pos);
                        pos += b.length;
                        end = Math.max(end, pos);
                    } else if (op < 9) {
                        // Anywhere up to a window past the furthest byte written: back, forward, or a gap.
                        long to = random.nextLong(0, end + window + 1);
                        assertTrue(w.position(to) == w, "position(long) returns the writer");
                        pos = to;
                    } else {
                        w.force();
                    }
                    assertEquals(pos, w.position(), "position after step " + step + ", seed " + seed);
                    assertEquals(end, w.size(), "size after step " + step + ", seed " + seed);
                }
                // A move past the end with nothing written there does not lengthen the file, as with the channel.
                w.position(end + 5 * window);
            }
            assertArrayEquals(Files.readAllBytes(theirs), Files.readAllBytes(ours),
                    "window " + window + ", seed " + seed);
        }
    }

    @Test
    void aHeaderRewrittenAfterTheBodyKeepsTheBodyAndTheLength() throws IOException {
        Path p = dir.resolve("framed");
        byte[] body = new byte[100_000];
        Arrays.fill(body, (byte) 'b');
        try (MappedWriter w = MappedWriter.open(p, -1, 4096)) {
            w.write(new byte[8]);                     // a placeholder for the length
            w.write(body);
            assertEquals(100_008, w.position());
            w.position(0).write(ByteBuffer.allocate(8).putLong(0, body.length));
            assertEquals(8, w.position());
            assertEquals(100_008, w.size());
        }
        byte[] all = Files.readAllBytes(p);
        assertEquals(100_008, all.length, "cut at the furthest byte written, not where the writer stopped");
        assertEquals(body.length, ByteBuffer.wrap(all).getLong(0));
        assertArrayEquals(body, Arrays.copyOfRange(all, 8, all.length));
    }

    @Test
    void aWriterOpenedInsideAFileMayMoveBeforeWhereItStarted() throws IOException {
        Path p = dir.resolve("inside");
        Files.write(p, "0123456789abcdef".getBytes());
        try (MappedWriter w = MappedWriter.open(p, 10, 4096, WRITE)) {
            assertEquals(10, w.size(), "nothing written yet: the file would be cut where the writer starts");
            w.position(2).write("XY".getBytes());
            assertEquals(10, w.size());
        }
        assertEquals("01XY456789", Files.readString(p));
    }

    @Test
    void forceAfterAMoveBackReachesTheRewrittenBytes() throws IOException {
        // Not a crash test: that force covers the rewritten bytes shows in what it asks the kernel to sync, which
        // only the kernel sees; here, that a force after a move back succeeds, keeps the writer usable, and that the
        // bytes and the length are right after it (MappedWriterCrashTest kills a writer after forces).
        Path p = dir.resolve("forced");
        try (MappedWriter w = MappedWriter.open(p, -1, 4096)) {
            w.write(new byte[3 * 4096 + 10]);
            w.force();
            w.position(5).write(new byte[] {1, 2, 3});
            w.force();
            w.force();
            w.position(4096 * 2 + 1).write(new byte[] {4});
            w.force();
            w.write(new byte[] {5});
            // Past the end with nothing written there: forces have nothing to add, and the length stays.
            w.position(10 * 4096);
            w.force();
            w.force();
            assertEquals(3 * 4096 + 10, w.size());
        }
        byte[] all = Files.readAllBytes(p);
        assertEquals(3 * 4096 + 10, all.length);
        assertArrayEquals(new byte[] {1, 2, 3}, Arrays.copyOfRange(all, 5, 8));
        assertArrayEquals(new byte[] {4, 5}, Arrays.copyOfRange(all, 2 * 4096 + 1, 2 * 4096 + 3));
    }

    @Test
    void aNegativePositionOrAClosedWriterIsRefused() throws IOException {
        Path p = dir.resolve("refused");
        MappedWriter w = MappedWriter.open(p, -1, 4096);
        w.write(new byte[10]);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> w.position(-1));
        assertTrue(e.getMessage().contains(p.toString()) && e.getMessage().contains("-1"), e.getMessage());
        assertEquals(10, w.position(), "a refused move leaves the writer where it was");
        w.close();
        assertThrows(ClosedChannelException.class, () -> w.position(0));
        try (FileChannel c = FileChannel.open(p, READ)) {
            assertEquals(10, c.size());
        }
    }
}
