package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sluice.zip.ConcurrentZipFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code sluice zip x}: unzip's options and patterns, and the methods read through Commons Compress. */
class ZipExtractCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @TempDir
    Path dir;

    private int run(String... args) {
        return Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    private static byte[] content(String name) {
        return (name + " ").repeat(300).getBytes(StandardCharsets.UTF_8);
    }

    /** Deflated and stored entries and a directory; returns the archive. */
    private Path archive() throws IOException {
        Path p = dir.resolve("a.zip");
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(p))) {
            z.putNextEntry(new ZipEntry("dir/"));
            z.closeEntry();
            for (String name : new String[] {"one.txt", "dir/two.txt", "three.log", "dir/[x].txt"}) {
                z.putNextEntry(new ZipEntry(name));
                z.write(content(name));
                z.closeEntry();
            }
        }
        return p;
    }

    @Test
    void extractsIntoTheDirectoryWithUnzipsLines() throws IOException {
        Path out = dir.resolve("out");
        assertEquals(Main.OK, run("zip", "x", archive().toString(), "-d", out.toString()), err::toString);
        for (String name : new String[] {"one.txt", "dir/two.txt", "three.log", "dir/[x].txt"}) {
            assertArrayEquals(content(name), Files.readAllBytes(out.resolve(name)), name);
        }
        String s = this.out.toString();
        assertTrue(s.startsWith("Archive:  " + dir.resolve("a.zip") + "\n"), s);
        assertTrue(s.contains("   creating: " + out.resolve("dir") + "\n"), s);
        assertTrue(s.contains("  inflating: " + out.resolve("dir/two.txt") + "\n"), s);
    }

    @Test
    void quietPrintsNothing() throws IOException {
        assertEquals(Main.OK, run("zip", "x", "-q", archive().toString(), "-d", dir.resolve("out").toString()),
                err::toString);
        assertEquals("", out.toString());
        assertEquals("", err.toString());
        assertTrue(Files.exists(dir.resolve("out/three.log")));
    }

    @Test
    void existingFilesAreRefusedByNameUnlessOverwriting() throws IOException {
        Path a = archive();
        Path out = Files.createDirectories(dir.resolve("out"));
        Path mine = Files.writeString(out.resolve("three.log"), "mine");
        assertEquals(Main.FAILED, run("zip", "x", "-q", a.toString(), "-d", out.toString()));
        assertTrue(err.toString().contains(mine.toString()), err::toString);
        assertEquals("mine", Files.readString(mine));
        assertFalse(Files.exists(out.resolve("one.txt")), "nothing is extracted when one file would be clobbered");
        assertEquals(Main.OK, run("zip", "x", "-q", "-o", a.toString(), "-d", out.toString()), err::toString);
        assertArrayEquals(content("three.log"), Files.readAllBytes(mine));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "*.txt|one.txt dir/two.txt dir/[x].txt",
        "dir/*|dir/ dir/two.txt dir/[x].txt",
        "???.txt|one.txt",
        "[ot]*|one.txt three.log",
        "[!o]*.txt|dir/two.txt dir/[x].txt",
        "dir/\\[x].txt|dir/[x].txt",
        "three.log|three.log"})
    void membersAreMatchedAsUnzipMatchesThem(String pattern, String expected) throws IOException {
        Path out = dir.resolve("out");
        assertEquals(Main.OK, run("zip", "x", "-q", archive().toString(), pattern, "-d", out.toString()),
                err::toString);
        try (var s = Files.walk(out)) {
            List<String> got = s.filter(p -> !p.equals(out)).map(p -> out.relativize(p) + (Files.isDirectory(p) ? "/"
                    : "")).sorted().toList();
            List<String> want = java.util.Arrays.stream(expected.split(" ")).sorted().toList();
            // Parents made for a file count as output too.
            assertEquals(want, got.stream().filter(g -> want.contains(g) || !g.endsWith("/")).toList());
        }
    }

    @Test
    void aPatternMatchingNothingIsNamedAndTheRestExtracted() throws IOException {
        Path out = dir.resolve("out");
        assertEquals(Main.FAILED, run("zip", "x", "-q", archive().toString(), "one.txt", "nothing*", "-d",
                out.toString()));
        assertEquals("caution: filename not matched:  nothing*\n", err.toString());
        assertTrue(Files.exists(out.resolve("one.txt")));
    }

    static boolean installed(String... probe) {
        try {
            Process p = new ProcessBuilder(probe).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static void exec(Path cwd, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true).start();
        String o = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
        assertEquals(0, p.exitValue(), String.join(" ", command) + " failed:\n" + o);
    }

    /** Compressible but not trivially: words drawn at random. */
    private static byte[] words(int n, long seed) {
        Random r = new Random(seed);
        String[] w = {"sluice", "gate", "water", "lock", "zip", "entry", "deflate", "bzip2", "lzma", "\n"};
        StringBuilder b = new StringBuilder();
        while (b.length() < n) {
            b.append(w[r.nextInt(w.length)]).append(' ');
        }
        return b.substring(0, n).getBytes(StandardCharsets.US_ASCII);
    }

    /** 7-Zip writes each method into a zip archive; the entries must come back byte for byte. */
    @ParameterizedTest
    @CsvSource({"BZip2,12", "Deflate64,9", "LZMA,14"})
    void methodsCoreLacksAreReadThroughCommonsCompress(String method, int number)
            throws IOException, InterruptedException {
        assumeTrue(installed("7z", "i"), "7-Zip is not installed (apt-get install p7zip-full): no " + method
                + " archive to read");
        Path src = Files.createDirectories(dir.resolve("src"));
        byte[] big = words(3 << 20, 1);
        byte[] small = words(1000, 2);
        Files.write(src.resolve("big.txt"), big);
        Files.write(src.resolve("small.txt"), small);
        Path a = dir.resolve(method + ".zip");
        exec(src, "7z", "a", "-tzip", "-mm=" + method, a.toString(), "big.txt", "small.txt");
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(a)) {
            assertEquals(number, zip.getEntry("big.txt").getMethod(), "7-Zip used " + method);
        }
        Path out = dir.resolve("out");
        assertEquals(Main.OK, run("zip", "x", a.toString(), "-d", out.toString()), err::toString);
        assertArrayEquals(big, Files.readAllBytes(out.resolve("big.txt")));
        assertArrayEquals(small, Files.readAllBytes(out.resolve("small.txt")));
        assertTrue(this.out.toString().contains("  inflating: " + out.resolve("big.txt")), this.out::toString);
    }

    @Test
    void infoZipBzip2EntriesToo() throws IOException, InterruptedException {
        assumeTrue(installed("zip", "-h"), "Info-ZIP zip is not installed (apt-get install zip)");
        Path src = Files.createDirectories(dir.resolve("src"));
        byte[] data = words(500_000, 3);
        Files.write(src.resolve("data.txt"), data);
        Path a = dir.resolve("bz.zip");
        exec(src, "zip", "-q", "-Z", "bzip2", a.toString(), "data.txt");
        Path out = dir.resolve("out");
        assertEquals(Main.OK, run("zip", "x", "-q", a.toString(), "-d", out.toString()), err::toString);
        assertArrayEquals(data, Files.readAllBytes(out.resolve("data.txt")));
    }

    /** A damaged bzip2 stream fails by entry name, and the run's output is removed. */
    @Test
    void aDamagedEntryFailsByNameAndLeavesNothing() throws IOException, InterruptedException {
        assumeTrue(installed("zip", "-h"), "Info-ZIP zip is not installed (apt-get install zip)");
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.write(src.resolve("first.txt"), words(1000, 4));
        Files.write(src.resolve("data.txt"), words(200_000, 5));
        Path a = dir.resolve("bz.zip");
        exec(src, "zip", "-q", "-Z", "bzip2", a.toString(), "first.txt", "data.txt");
        byte[] bytes = Files.readAllBytes(a);
        // Somewhere in the middle of data.txt's compressed bytes, well past its header.
        int at = bytes.length / 2;
        bytes[at] ^= 0x55;
        bytes[at + 1] ^= 0x55;
        Files.write(a, bytes);
        Path out = dir.resolve("out");
        assertEquals(Main.FAILED, run("zip", "x", "-q", a.toString(), "-d", out.toString()));
        assertTrue(err.toString().contains("entry 'data.txt'"), err::toString);
        assertFalse(Files.exists(out), "the failed run's output is removed");
    }
}
