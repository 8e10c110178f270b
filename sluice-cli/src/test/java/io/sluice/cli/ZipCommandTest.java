package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ZipCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @TempDir
    Path dir;

    private int run(String... args) {
        return Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    /** Three stored entries; returns the archive. */
    private Path archive() throws IOException {
        Path p = dir.resolve("a.zip");
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(p))) {
            for (String name : new String[] {"one.txt", "dir/two.txt", "three.txt"}) {
                ZipEntry e = new ZipEntry(name);
                z.putNextEntry(e);
                z.write((name + " ").repeat(100).getBytes());
                z.closeEntry();
            }
        }
        return p;
    }

    @Test
    void lsListsEntriesLikeUnzip() throws IOException {
        assertEquals(Main.OK, run("zip", "ls", archive().toString()), err::toString);
        String s = out.toString();
        assertTrue(s.contains("  Length      Date    Time    Name"), s);
        assertTrue(s.matches("(?s).*\\n\\s+800  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d   one.txt\\n.*"), s);
        assertTrue(s.matches("(?s).*\\n\\s+3000\\s+3 files\\n.*"), s);
    }

    /**
     * A name's bytes come out as they are unless a terminal would act on them: scripts read names from the listing,
     * and {@code arc\\test} for the entry {@code arc\test} named an entry that is not there.
     */
    @Test
    void lsPrintsABackslashAsItIs() throws IOException {
        Path p = dir.resolve("back.zip");
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(p))) {
            z.putNextEntry(new ZipEntry("arc\\test"));
            z.closeEntry();
        }
        assertEquals(Main.OK, run("zip", "ls", p.toString()), err::toString);
        String name = out.toString().lines().filter(l -> l.matches("\\s+0  .*")).findFirst().orElseThrow()
                .replaceFirst("^\\s+0  \\S+ \\S+   ", "");
        assertEquals("arc\\test", name);
    }

    @Test
    void testPassesAGoodArchive() throws IOException {
        assertEquals(Main.OK, run("zip", "test", "--threads", "2", archive().toString()), err::toString);
        assertTrue(out.toString().startsWith("No errors detected in compressed data of "), out::toString);
    }

    @Test
    void testNamesEveryBadEntryAndExitsWithOne() throws IOException {
        Path p = archive();
        byte[] b = Files.readAllBytes(p);
        // Flip a byte of the second entry's compressed data: its CRC-32 (or inflate) fails, the others pass.
        int second = indexOf(b, "dir/two.txt".getBytes(), 0);
        b[second + 20] ^= 0x55;
        Files.write(p, b);
        assertEquals(Main.FAILED, run("zip", "test", p.toString()), err::toString);
        String s = out.toString();
        assertTrue(s.contains("FAILED " + p + ": entry 'dir/two.txt' at offset "), s);
        assertTrue(s.contains("1 of 3 entries failed"), s);
    }

    @Test
    void anUnreadableArchiveIsBadInput() throws IOException {
        Path p = Files.write(dir.resolve("junk.zip"), new byte[100]);
        assertEquals(Main.BAD_INPUT, run("zip", "test", p.toString()));
        assertTrue(err.toString().contains("not a zip archive"), err::toString);
        assertEquals(Main.BAD_INPUT, run("zip", "ls", dir.resolve("missing.zip").toString()));
        assertTrue(err.toString().contains("no such file"), err::toString);
        assertEquals(Main.BAD_INPUT, run("zip", "test"));
    }

    /** A directory said "No such device"; the line now names the path and what it is, and the exit is bad input. */
    @Test
    void aDirectoryIsRefusedAsSuch() throws IOException {
        Path d = Files.createDirectories(dir.resolve("d"));
        assertEquals(Main.BAD_INPUT, run("zip", "test", d.toString()));
        assertEquals("sluice: " + d + ": Is a directory\n", err.toString());
        assertEquals("", out.toString());
    }

    /** With no subcommand, one line and a hint instead of the whole help, and exit 2. */
    @Test
    void zipAloneSaysASubcommandIsMissing() {
        assertEquals(Main.BAD_INPUT, run("zip"));
        assertEquals("sluice zip: missing subcommand (test, ls, x); see 'sluice zip --help'\n", err.toString());
        assertEquals("", out.toString());
    }

    @Test
    void lsAndTestEscapeNamesThatCouldForgeLinesOrDriveTheTerminal() throws IOException {
        Path p = dir.resolve("names.zip");
        String[] names = {"evil\n     1  2020-01-01 00:00   forged.txt", "red\u001b[31m.txt", "csi\u009b2J.txt",
            "tab\there.txt", "del\u007f.txt", "bidi\u202Etxt.exe", "back\\slash.txt", "caret^J.txt", "plain-名前.txt"};
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(p))) {
            for (String name : names) {
                z.putNextEntry(new ZipEntry(name));
                z.write(1);
                z.closeEntry();
            }
        }
        assertEquals(Main.OK, run("zip", "ls", p.toString()), err::toString);
        String s = out.toString();
        // Control characters in caret notation, as unzip -l writes C0 (and cat -v C1); everything else as it is.
        for (String shown : new String[] {"   evil^J     1  2020-01-01 00:00   forged.txt\n", "   red^[[31m.txt\n",
            "   csiM-^[2J.txt\n", "   tab^Ihere.txt\n", "   del^?.txt\n", "   bidi\u202Etxt.exe\n",
            "   back\\slash.txt\n", "   caret^J.txt\n", "   plain-名前.txt\n"}) {
            assertTrue(s.contains(shown), () -> "no '" + shown + "' in:\n" + s);
        }
        assertEquals(3 + names.length + 2, s.split("\n", -1).length - 1, "one line per entry:\n" + s);
        assertTrue(s.chars().noneMatch(c -> c < 0x20 && c != '\n' || c >= 0x7F && c < 0xA0), s);

        // A failure names the entry the same way.
        byte[] b = Files.readAllBytes(p);
        b[indexOf(b, "red\u001b[31m.txt".getBytes(StandardCharsets.UTF_8), 0)] ^= 0x55;
        Files.write(p, b);
        out.getBuffer().setLength(0);
        assertEquals(Main.FAILED, run("zip", "test", p.toString()), err::toString);
        assertTrue(out.toString().contains("entry 'red^[[31m.txt' at offset"), out::toString);
        assertTrue(out.toString().chars().noneMatch(c -> c == 0x1B), out::toString);
    }

    @Test
    void testFindsADamagedByteInAStoredEntryOfMoreThan2GiB() throws IOException {
        // The bug report's case: 'zip test' said "No errors detected" and exited 0, since the check of the one
        // entry failed with an unchecked exception its worker did not catch. The archive is sparse: zeros are holes.
        long size = 2_200_000_000L;
        CRC32 zeros = new CRC32();
        byte[] window = new byte[1 << 20];
        for (long at = 0; at < size; at += window.length) {
            zeros.update(window, 0, (int) Math.min(window.length, size - at));
        }
        Path p = dir.resolve("big-stored.zip");
        long data = writeZip64(p, List.of(new Member("big.bin", 0, size, (int) zeros.getValue(), size, Map.of())));
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {1}), data + 1_000_000);
        }
        assertEquals(Main.FAILED, run("zip", "test", p.toString()), err::toString);
        String s = out.toString();
        assertTrue(s.contains("FAILED " + p + ": entry 'big.bin' at offset 0: CRC-32 mismatch"), s);
        assertTrue(s.contains("1 of 1 entries failed"), s);
    }

    /**
     * {@code sluice zip test} in a child JVM while this process cuts the archive short: the cut entries fail, the
     * command exits 1, and the JVM does not crash. Before native code was kept off the mapping, zlib's
     * {@code inflate_fast} took SIGBUS here and the JVM died with exit 134 and an hs_err file, every time.
     */
    @Test
    void testSurvivesTheArchiveBeingCutWhileItRuns() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs /proc to see when the child reads the file");
        // Four entries of 256 MiB of zeros, deflated to a quarter of a MiB each: inflating one takes a thread a good
        // part of a second, while this process needs only milliseconds to see the readers start and cut.
        byte[] chunk = zerosDeflated(1 << 20);
        int chunks = 256;
        byte[] stream = new byte[chunk.length * chunks + 2];
        for (int k = 0; k < chunks; k++) {
            System.arraycopy(chunk, 0, stream, k * chunk.length, chunk.length);
        }
        stream[stream.length - 2] = 3; // a final, empty block with fixed codes ends the stream
        CRC32 crc = new CRC32();
        byte[] mib = new byte[1 << 20];
        for (int k = 0; k < chunks; k++) {
            crc.update(mib);
        }
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            members.add(new Member("zeros" + i, 8, (long) chunks << 20, (int) crc.getValue(), stream.length,
                    Map.of(0L, stream)));
        }
        Path whole = dir.resolve("whole.zip");
        writeZip64(whole, members);
        long last = localHeader(whole, "zeros3");
        // Two threads take the last entry only after each has inflated one of the first two.
        for (long cut : new long[] {last + 100 + stream.length / 2, last + 10}) {
            String s = null;
            int exit = -1;
            // A cut that comes before the child has read the central directory (which a loaded machine can delay
            // past the first readers' start) makes the archive unreadable, exit 2; it proves nothing, so try again.
            for (int attempt = 0; attempt < 4 && (s == null || exit == Main.BAD_INPUT); attempt++) {
                Path p = Files.copy(whole, dir.resolve("cut.zip"), StandardCopyOption.REPLACE_EXISTING);
                String java = ProcessHandle.current().info().command().orElseThrow();
                Path log = dir.resolve("child.txt");
                Process child = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC",
                        "-XX:-CreateCoredumpOnCrash", "-XX:ErrorFile=" + dir.resolve("hs_err_%p.log"),
                        "-cp", System.getProperty("java.class.path"), Main.class.getName(), "zip", "test",
                        "--threads", "2", p.toString())
                        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
                try {
                    waitUntilReading(child, p);
                    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
                        ch.truncate(cut);
                    }
                    assertTrue(child.waitFor(60, TimeUnit.SECONDS), "zip test did not end within 60 s");
                } finally {
                    child.destroyForcibly().waitFor();
                }
                exit = child.exitValue();
                s = Files.readString(log);
                String out = s;
                try (var files = Files.list(dir)) {
                    assertTrue(files.noneMatch(f -> f.getFileName().toString().startsWith("hs_err")),
                            () -> "the JVM crashed when the archive was cut at " + cut + ":\n" + out);
                }
                assertTrue(exit == Main.FAILED || exit == Main.BAD_INPUT && s.contains("while it was being opened"),
                        "exit " + exit + ":\n" + s);
            }
            assertEquals(Main.FAILED, exit, s);
            assertTrue(s.contains("FAILED " + dir.resolve("cut.zip") + ": entry 'zeros3' at offset " + last), s);
            assertTrue(s.contains("cut by another process") && !s.contains("No errors"), s);
        }
    }

    /**
     * Waits until {@code child} has 320 KiB of the archive at {@code p} in memory: more than opening it touches
     * (64 KiB pages in around the end of the file and around each local header looked at), so the readers are
     * inflating the first entries.
     */
    private static void waitUntilReading(Process child, Path p) throws IOException, InterruptedException {
        Path smaps = Path.of("/proc/" + child.pid() + "/smaps");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (residentKib(smaps, p) < 320) {
            assertTrue(child.isAlive(), () -> "the child ended before it read the archive: exit "
                    + child.exitValue());
            assertTrue(System.nanoTime() < deadline, "the child did not read the archive within 30 s");
            Thread.sleep(1);
        }
    }

    /** The resident size of the mapping of {@code p} in the process whose smaps is at {@code smaps}; 0 if none. */
    private static long residentKib(Path smaps, Path p) throws IOException {
        boolean inside = false;
        for (String line : Files.readAllLines(smaps)) {
            if (line.endsWith(" " + p)) {
                inside = true;
            } else if (inside && line.startsWith("Rss:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return 0;
    }

    /**
     * {@code n} zero bytes as raw deflate blocks that end on a byte boundary and reach back to nothing before them
     * (a full flush), so copies of them in a row are a deflate stream of as many times {@code n} zeros.
     */
    private static byte[] zerosDeflated(int n) {
        Deflater d = new Deflater(Deflater.BEST_COMPRESSION, true);
        d.setInput(new byte[n]);
        byte[] buf = new byte[n];
        int len = d.deflate(buf, 0, buf.length, Deflater.FULL_FLUSH);
        assertTrue(d.needsInput() && len < buf.length);
        d.end();
        return Arrays.copyOf(buf, len);
    }

    /** An entry for {@link #writeZip64}: its data is {@code csize} zero bytes (a hole) but for {@code pieces}. */
    private record Member(String name, int method, long size, int crc, long csize, Map<Long, byte[]> pieces) {
    }

    /** Writes a Zip64 archive of {@code members}, sparse where their data is zeros; returns where data starts. */
    private static long writeZip64(Path p, List<Member> members) throws IOException {
        long firstData = -1;
        ByteBuffer cen = ByteBuffer.allocate(members.size() * 200).order(ByteOrder.LITTLE_ENDIAN);
        long pos = 0;
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (Member m : members) {
                byte[] n = m.name().getBytes(StandardCharsets.UTF_8);
                ByteBuffer local = ByteBuffer.allocate(30 + n.length + 20).order(ByteOrder.LITTLE_ENDIAN)
                        .putInt(0x04034b50).putShort((short) 45).putShort((short) 0).putShort((short) m.method())
                        .putInt(0x5A210000).putInt(m.crc()).putInt(-1).putInt(-1).putShort((short) n.length)
                        .putShort((short) 20).put(n).putShort((short) 1).putShort((short) 16).putLong(m.size())
                        .putLong(m.csize());
                ch.write(local.flip(), pos);
                long data = pos + local.capacity();
                firstData = firstData < 0 ? data : firstData;
                for (var piece : m.pieces().entrySet()) {
                    ByteBuffer b = ByteBuffer.wrap(piece.getValue());
                    while (b.hasRemaining()) {
                        ch.write(b, data + piece.getKey() + b.position());
                    }
                }
                cen.putInt(0x02014b50).putShort((short) 45).putShort((short) 45).putShort((short) 0)
                        .putShort((short) m.method()).putInt(0x5A210000).putInt(m.crc()).putInt(-1).putInt(-1)
                        .putShort((short) n.length).putShort((short) 28).putShort((short) 0).putShort((short) 0)
                        .putShort((short) 0).putInt(0).putInt(-1).put(n)
                        .putShort((short) 1).putShort((short) 24).putLong(m.size()).putLong(m.csize()).putLong(pos);
                pos = data + m.csize();
            }
            long cenStart = pos;
            long cenSize = cen.position();
            cen.putInt(0x06064b50).putLong(44).putShort((short) 45).putShort((short) 45).putInt(0).putInt(0)
                    .putLong(members.size()).putLong(members.size()).putLong(cenSize).putLong(cenStart)
                    .putInt(0x07064b50).putInt(0).putLong(cenStart + cenSize).putInt(1)
                    .putInt(0x06054b50).putShort((short) 0).putShort((short) 0).putShort((short) -1)
                    .putShort((short) -1).putInt(-1).putInt(-1).putShort((short) 0);
            cen.flip();
            while (cen.hasRemaining()) {
                ch.write(cen, cenStart + cen.position());
            }
        }
        return firstData;
    }

    /** Where the local header of entry {@code name} starts in the archive at {@code p}. */
    private static long localHeader(Path p, String name) throws IOException {
        try (var zip = io.sluice.zip.ConcurrentZipFile.open(p)) {
            long at = 0;
            for (var e : zip) {
                if (e.getName().equals(name)) {
                    return at;
                }
                at += 30 + e.getName().length() + 20 + e.getCompressedSize();
            }
        }
        throw new AssertionError("no entry " + name);
    }

    @Test
    void benchZipWritesOneRowPerReaderKindAndThreadCountAndCleansUp() throws IOException {
        Path json = dir.resolve("rows.json");
        Path data = Files.createDirectories(dir.resolve("data"));
        int rc = run("bench", "zip", "--dir", data.toString(), "--small-entries", "4", "--big-entries", "1",
                "--threads", "1", "--duration", "10", "--rounds", "1", "--json", json.toString());
        assertEquals(Main.OK, rc, err::toString);
        String rows = Files.readString(json);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\{\"engine\": \"(sluice|jdk|commons-compress)\", "
                + "\"workload\": \"(smallStored|smallDeflated|bigStored|bigDeflated)\", .*\"opsPerMs\": ([0-9.]+).*"
                + "\"baseline\": \"jdk\", \"ratioToBaseline\": ([0-9.]+)\\}").matcher(rows);
        int n = 0;
        while (m.find()) {
            n++;
            assertTrue(Double.parseDouble(m.group(3)) > 0, m.group());
        }
        assertEquals(12, n, rows);
        assertTrue(out.toString().contains("bigDeflated 8 MiB, 1 thread"), out::toString);
        try (var left = Files.list(data)) {
            assertEquals(0, left.count(), "the benchmark must remove its archive");
        }
    }

    private static int indexOf(byte[] hay, byte[] needle, int from) {
        outer:
        for (int i = from; i <= hay.length - needle.length; i++) {
            for (int k = 0; k < needle.length; k++) {
                if (hay[i + k] != needle[k]) {
                    continue outer;
                }
            }
            // The local header's name is followed by the data.
            return i + needle.length + ByteBuffer.wrap(hay, i - 2, 2).order(ByteOrder.LITTLE_ENDIAN).getShort();
        }
        throw new AssertionError("not found");
    }
}
