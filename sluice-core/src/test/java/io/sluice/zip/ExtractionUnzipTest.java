package io.sluice.zip;

import static io.sluice.zip.ConcurrentZipFileTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ConcurrentZipFile#extractTo} against Debian's {@code unzip} on archives Info-ZIP's {@code zip} made from real
 * trees: the same files, bytes, permissions, modification times and symbolic links. Skipped, with the reason, where
 * {@code zip} or {@code unzip} is not installed ({@code .ci/run} installs them).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ExtractionUnzipTest {
    @TempDir
    Path dir;

    static boolean installed(String tool) {
        try {
            Process p = new ProcessBuilder(tool, "-h").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    static void run(Path cwd, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
        assertEquals(0, p.exitValue(), String.join(" ", command) + " failed:\n" + out);
    }

    private void requireTools() {
        assumeTrue(installed("zip"), "Info-ZIP zip is not installed (apt-get install zip): no archives to compare on");
        assumeTrue(installed("unzip"), "unzip is not installed (apt-get install unzip): nothing to compare with");
    }

    /** A tree with the modes, times and links unzip restores. */
    private Path tree() throws IOException {
        Path src = Files.createDirectories(dir.resolve("src"));
        Path bin = Files.createDirectories(src.resolve("bin"));
        Path secret = Files.createDirectories(src.resolve("secret"));
        Path run = Files.writeString(bin.resolve("run.sh"), "#!/bin/sh\necho hi\n");
        Path key = Files.writeString(secret.resolve("key"), "k".repeat(3000));
        Path readme = Files.writeString(src.resolve("README"), "read me\n".repeat(200));
        Path ro = Files.writeString(src.resolve("ro.txt"), "read only");
        Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("rwxr-x--x"));
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r--r--r--"));
        Files.setPosixFilePermissions(readme, PosixFilePermissions.fromString("rw-r-----"));
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rwx------"));
        Files.createSymbolicLink(bin.resolve("readme"), Path.of("../README"));
        Files.createSymbolicLink(src.resolve("start"), Path.of("bin/run.sh"));
        Files.createSymbolicLink(src.resolve("dangling"), Path.of("bin/not-there"));
        // Odd seconds: the MS-DOS fields hold even ones, the extended timestamp field any.
        Files.setLastModifiedTime(readme, FileTime.from(Instant.parse("2001-09-09T01:46:41Z")));
        Files.setLastModifiedTime(run, FileTime.from(Instant.parse("2019-06-30T23:59:59Z")));
        Files.setLastModifiedTime(secret, FileTime.from(Instant.parse("2010-01-01T12:00:01Z")));
        Files.setLastModifiedTime(bin, FileTime.from(Instant.parse("2012-02-29T08:08:07Z")));
        return src;
    }

    /** Every path under {@code root}: its type, mode, time (not for links) and link target or bytes' hash. */
    private static Map<String, String> describe(Path root) throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (p.equals(root)) {
                    continue;
                }
                String rel = root.relativize(p).toString();
                if (Files.isSymbolicLink(p)) {
                    m.put(rel, "link -> " + Files.readSymbolicLink(p));
                    continue;
                }
                String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
                String time = Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toInstant().toString();
                m.put(rel, (Files.isDirectory(p) ? "dir " : "file " + java.util.Arrays.hashCode(Files.readAllBytes(p))
                        + " ") + mode + " " + time);
            }
        }
        return m;
    }

    private Map<String, String> compare(Path archive) throws IOException, InterruptedException {
        Path ours = dir.resolve("ours-" + archive.getFileName());
        Path theirs = dir.resolve("unzip-" + archive.getFileName());
        run(dir, "unzip", "-q", archive.toString(), "-d", theirs.toString());
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(archive)) {
            zip.extractTo(ours);
        }
        Map<String, String> expected = describe(theirs);
        assertEquals(expected, describe(ours));
        return expected;
    }

    @Test
    void modesTimesAndLinksAsUnzipRestoresThem() throws IOException, InterruptedException {
        requireTools();
        Path src = tree();
        Path archive = dir.resolve("tree.zip");
        // -y stores links as links; the extended timestamp field is written by default.
        run(src, "zip", "-q", "-r", "-y", archive.toString(), ".");
        Map<String, String> seen = compare(archive);
        assertTrue(seen.get("bin/run.sh").contains("rwxr-x--x 2019-06-30T23:59:59Z"), seen.toString());
        assertTrue(seen.get("secret").startsWith("dir rwx------ 2010-01-01T12:00:01Z"), seen.toString());
        assertEquals("link -> ../README", seen.get("bin/readme"));
        assertEquals("link -> bin/not-there", seen.get("dangling"));
    }

    @Test
    void msDosTimesWithoutTheExtendedTimestamp() throws IOException, InterruptedException {
        requireTools();
        Path src = tree();
        Path archive = dir.resolve("dos.zip");
        // -X leaves out the extra fields, so the MS-DOS date and time (local, even seconds) are all there is.
        run(src, "zip", "-q", "-r", "-y", "-X", archive.toString(), ".");
        Map<String, String> seen = compare(archive);
        assertTrue(seen.get("README").endsWith(":46:40Z") || seen.get("README").endsWith(":46:42Z"), seen.toString());
    }

    @Test
    void aLinkLeadingOutsideIsRefusedByNameAndNothingIsWritten() throws IOException, InterruptedException {
        requireTools();
        Path src = Files.createDirectories(dir.resolve("evil"));
        Files.writeString(src.resolve("a.txt"), "a");
        Files.createDirectories(src.resolve("sub"));
        Files.createSymbolicLink(src.resolve("sub/up"), Path.of("../../outside"));
        Path archive = dir.resolve("evil.zip");
        run(src, "zip", "-q", "-r", "-y", archive.toString(), ".");
        Path out = dir.resolve("out");
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(archive)) {
            assertMessage(zip.getName() + ": entry 'sub/up'", "symbolic link to '../../outside'",
                    assertThrows(ZipException.class, () -> zip.extractTo(out)));
        }
        assertFalse(Files.exists(out), "refused before anything was written");
    }

    /**
     * Each link is harmless on its own paper: {@code here} is the target directory itself, {@code up} is
     * {@code here/..}, lexically the target directory again. Through the link {@code here} it is the directory
     * above, which only following the links finds.
     */
    @Test
    void aChainOfLinksLeadingOutsideIsRefusedAndUndone() throws IOException, InterruptedException {
        requireTools();
        Path src = Files.createDirectories(dir.resolve("chain"));
        Files.writeString(src.resolve("a.txt"), "a");
        Files.createSymbolicLink(src.resolve("here"), Path.of("."));
        Files.createSymbolicLink(src.resolve("up"), Path.of("here/.."));
        Path archive = dir.resolve("chain.zip");
        run(src, "zip", "-q", "-r", "-y", archive.toString(), "a.txt", "here", "up");
        Path out = dir.resolve("out");
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(archive)) {
            assertMessage(zip.getName() + ": entry 'up'", "outside the target directory",
                    assertThrows(ZipException.class, () -> zip.extractTo(out)));
        }
        assertFalse(Files.exists(out), "what the run wrote is removed again");
    }

    @Test
    void aMethodSluiceLacksIsRefusedWithItsNameAndNumber() throws IOException {
        ZipBuilder.Built b = new ZipBuilder().add("fine.txt", new byte[] {1}, ZipBuilder.STORED)
                .add("packed.bz2", new byte[] {2, 3}, ZipBuilder.STORED).build();
        b.putShort(b.cenHeaders()[1] + ZipLayout.CENHOW, 12);
        Path out = dir.resolve("out");
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(Files.write(dir.resolve("m.zip"), b.bytes()))) {
            assertMessage(zip.getName() + ": entry 'packed.bz2'", "compression method 12 (bzip2)",
                    assertThrows(ZipException.class, () -> zip.extractTo(out)));
            assertMessage(zip.getName() + ": entry 'packed.bz2'", "compression method 12 (bzip2)",
                    assertThrows(ZipException.class, () -> zip.readAllBytes(zip.getEntry("packed.bz2"))));
        }
        assertFalse(Files.exists(out));
    }

    @Test
    void overwritingReplacesFilesOnlyWhenAskedAndOnlyTheSelected() throws IOException {
        Path out = Files.createDirectories(dir.resolve("out"));
        Files.writeString(out.resolve("a.txt"), "old a");
        ZipBuilder.Built b = new ZipBuilder().add("a.txt", "new a".getBytes(), ZipBuilder.DEFLATED)
                .add("b.txt", "new b".getBytes(), ZipBuilder.STORED).build();
        List<String> heard = new ArrayList<>();
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(Files.write(dir.resolve("o.zip"), b.bytes()))) {
            assertThrows(java.nio.file.FileAlreadyExistsException.class, () -> zip.extractTo(out));
            assertEquals("old a", Files.readString(out.resolve("a.txt")));
            assertFalse(Files.exists(out.resolve("b.txt")), "refused before anything was written");
            assertEquals(1, zip.extractTo(out, ExtractOptions.DEFAULT.withOverwrite(true)
                    .withSelection(e -> e.getName().startsWith("a"))
                    .withListener((e, p) -> heard.add(e.getName() + " " + out.relativize(p)))));
        }
        assertEquals("new a", Files.readString(out.resolve("a.txt")));
        assertFalse(Files.exists(out.resolve("b.txt")));
        assertEquals(List.of("a.txt a.txt"), heard);
        try (Stream<Path> s = Files.list(out)) {
            assertEquals(1, s.count(), "no temporary file is left beside it");
        }
    }
}
