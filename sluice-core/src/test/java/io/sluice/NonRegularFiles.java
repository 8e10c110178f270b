package io.sluice;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/** Files that are not plain data on a disk, for the tests of what opens accept and how they read. */
final class NonRegularFiles {
    private NonRegularFiles() {
    }

    /** Makes a FIFO at {@code p} with mkfifo(1), the JDK having no call for it. */
    static Path fifo(Path p) throws IOException, InterruptedException {
        Process mk = new ProcessBuilder("mkfifo", p.toString()).redirectErrorStream(true).start();
        String said = new String(mk.getInputStream().readAllBytes());
        assertTrue(mk.waitFor(30, TimeUnit.SECONDS) && mk.exitValue() == 0, "mkfifo " + p + ": " + said);
        return p;
    }

    /**
     * Reads {@code proc}, a /proc file whose text does not change between reads, with positional reads of
     * {@code chunk} bytes until end of file, and checks the bytes are the file's: such files report a size of 0, so
     * only reading to end of file finds their end.
     */
    static void assertReadsWhole(PositionalFile f, Path proc, int chunk) throws IOException {
        byte[] expected = Files.readAllBytes(proc);
        assumeTrue(expected.length > 2 * chunk, proc + " holds only " + expected.length + " bytes");
        assertEquals(0, Files.size(proc), proc + " is a file of size 0, as /proc files are");
        ByteBuffer into = ByteBuffer.allocate(expected.length + 2 * chunk);
        for (;;) {
            int n = f.read(into.slice(into.position(), chunk), into.position());
            if (n < 0) {
                break;
            }
            into.position(into.position() + n);
        }
        assertArrayEquals(expected, Arrays.copyOf(into.array(), into.position()), proc.toString());
        // readFully of more than the file holds delivers every byte, then says where the file ended
        ByteBuffer all = ByteBuffer.allocateDirect(expected.length + 1);
        java.io.EOFException eof = assertThrows(java.io.EOFException.class, () -> f.readFully(all, 0));
        assertEquals(expected.length, all.position(), eof.getMessage());
        byte[] got = new byte[expected.length];
        all.flip().get(got);
        assertArrayEquals(expected, got, proc.toString());
    }

    /** Reads /proc/self/status, whose numbers change from read to read, to its end in small pieces. */
    static void assertReadsProcSelfStatus(PositionalFile f) throws IOException {
        StringBuilder text = new StringBuilder();
        byte[] chunk = new byte[100];
        for (long pos = 0; ; ) {
            int n = f.read(chunk, pos);
            if (n < 0) {
                break;
            }
            text.append(new String(chunk, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1));
            pos += n;
        }
        String s = text.toString();
        assertTrue(s.startsWith("Name:\t") && s.endsWith("\n") && s.contains("\nPid:\t") && s.length() > 500, s);
    }

    /** A block device this process may open for reading, if there is one (a loop device, say, when root). */
    static java.util.Optional<Path> readableBlockDevice() throws IOException {
        Path dev = Path.of("/dev");
        if (!Files.isDirectory(dev)) {
            return java.util.Optional.empty();
        }
        try (var all = Files.list(dev)) {
            return all.filter(p -> {
                try {
                    return ((Integer) Files.getAttribute(p, "unix:mode") & 0170000) == 0060000 && Files.isReadable(p);
                } catch (IOException | UnsupportedOperationException e) {
                    return false;
                }
            }).sorted().findFirst();
        }
    }
}
