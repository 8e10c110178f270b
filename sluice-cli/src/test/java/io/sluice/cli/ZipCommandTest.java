package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

    @Test
    void lsAndTestEscapeNamesThatCouldForgeLinesOrDriveTheTerminal() throws IOException {
        Path p = dir.resolve("names.zip");
        String[] names = {"evil\n     1  2020-01-01 00:00   forged.txt", "red\u001b[31m.txt", "csi\u009b2J.txt",
            "tab\there.txt", "bidi\u202Etxt.exe", "back\\slash.txt", "plain-名前.txt"};
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(p))) {
            for (String name : names) {
                z.putNextEntry(new ZipEntry(name));
                z.write(1);
                z.closeEntry();
            }
        }
        assertEquals(Main.OK, run("zip", "ls", p.toString()), err::toString);
        String s = out.toString();
        for (String shown : new String[] {"   evil\\n     1  2020-01-01 00:00   forged.txt\n", "   red\\x1b[31m.txt\n",
            "   csi\\x9b2J.txt\n", "   tab\\there.txt\n", "   bidi\\u202etxt.exe\n", "   back\\\\slash.txt\n",
            "   plain-名前.txt\n"}) {
            assertTrue(s.contains(shown), () -> "no '" + shown + "' in:\n" + s);
        }
        assertEquals(3 + names.length + 2, s.split("\n", -1).length - 1, "one line per entry:\n" + s);
        assertTrue(s.chars().noneMatch(c -> c < 0x20 && c != '\n' || c == 0x7F || c >= 0x80 && c < 0xA0
                || c == 0x202E), s);

        // A failure names the entry the same way.
        byte[] b = Files.readAllBytes(p);
        b[indexOf(b, "red\u001b[31m.txt".getBytes(StandardCharsets.UTF_8), 0)] ^= 0x55;
        Files.write(p, b);
        out.getBuffer().setLength(0);
        assertEquals(Main.FAILED, run("zip", "test", p.toString()), err::toString);
        assertTrue(out.toString().contains("entry 'red\\x1b[31m.txt' at offset"), out::toString);
        assertTrue(out.toString().chars().noneMatch(c -> c == 0x1B), out::toString);
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
