package io.sluice.zip;

import static io.sluice.zip.ConcurrentZipFileTest.assertMessage;
import static io.sluice.zip.ConcurrentZipFileTest.random;
import static io.sluice.zip.ConcurrentZipFileTest.text;
import static io.sluice.zip.ZipBuilder.DEFLATED;
import static io.sluice.zip.ZipBuilder.STORED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link ConcurrentZipFile#extractTo}: what it writes, what it refuses (zip-slip, bombs), and what it cleans up. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ExtractionTest {
    @TempDir
    Path dir;

    private ConcurrentZipFile open(ZipBuilder b) throws IOException {
        return ConcurrentZipFile.open(Files.write(dir.resolve("in.zip"), b.build().bytes()));
    }

    private long filesUnder(Path p) throws IOException {
        if (!Files.exists(p)) {
            return 0;
        }
        try (Stream<Path> s = Files.walk(p)) {
            return s.count() - 1;
        }
    }

    @Test
    void extractsFilesAndDirectories() throws IOException {
        Path out = dir.resolve("out");
        try (ConcurrentZipFile zip = open(new ZipBuilder().add("top/", new byte[0], STORED)
                .add("top/a.txt", text(5000, 1), DEFLATED).add("deep/er/b.bin", random(100, 2), STORED))) {
            assertEquals(3, zip.extractTo(out));
        }
        assertArrayEquals(text(5000, 1), Files.readAllBytes(out.resolve("top/a.txt")));
        assertArrayEquals(random(100, 2), Files.readAllBytes(out.resolve("deep/er/b.bin")));
        assertTrue(Files.isDirectory(out.resolve("top")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"../evil.txt", "a/../../evil.txt", "/etc/evil.txt", "\\evil.txt", "C:/evil.txt",
        "c:evil.txt", "a\\..\\..\\evil.txt", "a//b", "./a", "a/./b", "a/..", "..", "nul\0byte"})
    void refusesNamesThatCouldLeaveTheTarget(String name) throws IOException {
        Path out = dir.resolve("out");
        try (ConcurrentZipFile zip = open(new ZipBuilder().add("fine.txt", new byte[] {1}, STORED)
                .add(name, new byte[] {2}, STORED))) {
            ZipException e = assertThrows(ZipException.class, () -> zip.extractTo(out));
            assertMessage(zip.getName() + ": entry '", "", e);
        }
        assertEquals(0, filesUnder(out), "nothing is written when a name is refused");
        assertFalse(Files.exists(dir.resolve("evil.txt")));
    }

    @Test
    void refusesSymbolicLinkEntries() throws IOException {
        Path out = dir.resolve("out");
        try (ConcurrentZipFile zip = open(new ZipBuilder().addUnix("link", "/etc".getBytes(StandardCharsets.UTF_8),
                0120777).add("link/passwd", new byte[] {1}, STORED))) {
            assertMessage(zip.getName() + ": entry 'link'", "symbolic link",
                    assertThrows(ZipException.class, () -> zip.extractTo(out)));
        }
        assertEquals(0, filesUnder(out));
    }

    @Test
    void aLinkAlreadyInTheTargetCannotCarryWritesOutside() throws IOException {
        Path out = Files.createDirectories(dir.resolve("out"));
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.createSymbolicLink(out.resolve("sneaky"), outside);
        try (ConcurrentZipFile zip = open(new ZipBuilder().add("sneaky/x.txt", new byte[] {1}, STORED))) {
            assertMessage(zip.getName() + ": entry 'sneaky/x.txt'", "outside the target directory",
                    assertThrows(ZipException.class, () -> zip.extractTo(out)));
        }
        assertEquals(0, filesUnder(outside));
    }

    @Test
    void limitsStopBombsBeforeAnythingIsWritten() throws IOException {
        Path out = dir.resolve("out");
        byte[] zeros = new byte[4 << 20];
        try (ConcurrentZipFile zip = open(new ZipBuilder().add("a", new byte[] {1}, STORED)
                .add("zeros", zeros, DEFLATED))) {
            assertMessage(zip.getName() + ": entry 'zeros'", "ratio above the limit of 100",
                    assertThrows(ZipException.class, () -> zip.extractTo(out)));
            assertMessage(zip.getName() + ": entry 'zeros'", "past the limit of 1000000 bytes",
                    assertThrows(ZipException.class, () -> zip.extractTo(out, ExtractLimits.DEFAULT
                            .withMaxRatio(10_000).withMaxTotalBytes(1_000_000))));
            assertMessage(zip.getName() + ": at offset ", "more than the limit of 1",
                    assertThrows(ZipException.class, () -> zip.extractTo(out, ExtractLimits.DEFAULT
                            .withMaxEntries(1))));
            assertEquals(0, filesUnder(out));
            assertEquals(2, zip.extractTo(out, ExtractLimits.DEFAULT.withMaxRatio(10_000)));
        }
        assertEquals(zeros.length, Files.size(out.resolve("zeros")));
        assertThrows(IllegalArgumentException.class, () -> ExtractLimits.DEFAULT.withMaxEntries(0));
    }

    @Test
    void aLyingSizeIsCaughtWhileWritingAndTheOutputRemoved() throws IOException {
        // The central directory says 3000 bytes, the data inflates to more: the limits trusted the declared size,
        // so the stream must stop at it, and what was written must go.
        ZipBuilder.Built b = new ZipBuilder().add("first.txt", new byte[] {1}, STORED)
                .add("sub/second.txt", text(100_000, 3), DEFLATED).build();
        b.putInt(b.cenHeaders()[1] + 24, 3000);
        Path out = dir.resolve("out");
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(Files.write(dir.resolve("lie.zip"), b.bytes()))) {
            assertMessage(zip.getName() + ": entry 'sub/second.txt'", "more than its declared size",
                    assertThrows(ZipException.class, () -> zip.extractTo(out)));
        }
        assertFalse(Files.exists(out), "the target this run created is removed with everything in it");
    }

    @Test
    void neverOverwritesAndRemovesOnlyWhatItMade() throws IOException {
        Path out = Files.createDirectories(dir.resolve("out"));
        Path mine = Files.writeString(out.resolve("b.txt"), "mine");
        try (ConcurrentZipFile zip = open(new ZipBuilder().add("a.txt", new byte[] {1}, STORED)
                .add("b.txt", new byte[] {2}, STORED))) {
            assertThrows(FileAlreadyExistsException.class, () -> zip.extractTo(out));
        }
        assertEquals("mine", Files.readString(mine));
        assertFalse(Files.exists(out.resolve("a.txt")), "a.txt, written by the failed run, is removed");
    }

    /**
     * WinZip writes an Info-ZIP Unicode Path field with backslashes where the raw name has slashes. Before the field was
     * read, this archive extracted whole from its raw names; taking {@code ä\} for the directory {@code ä/} made it a
     * file and the entry beneath it failed with "Not a directory".
     */
    @Test
    void aWinZipUnicodePathWithBackslashesExtractsLikeItsRawName() throws IOException {
        // 0x84 is ä and 0x94 is ö in code page 437, WinZip's legacy charset.
        byte[] dirRaw = {(byte) 0x84, '/'};
        byte[] fileRaw = {(byte) 0x84, '/', (byte) 0x94, '.', 't', 'x', 't'};
        byte[] subRaw = {(byte) 0x84, '/', 's', '/'};
        byte[] deepRaw = {(byte) 0x84, '/', 's', '/', 'd', '.', 'b', 'i', 'n'};
        ZipBuilder.Built b = new ZipBuilder().add("readme.txt", text(300, 1), STORED)
                .addWithExtra(dirRaw, false, new byte[0], ZipBuilder.unicodePath(1, dirRaw, "ä\\"))
                .addWithExtra(fileRaw, false, text(200, 2), ZipBuilder.unicodePath(1, fileRaw, "ä\\ö.txt"))
                .addWithExtra(subRaw, false, new byte[0], ZipBuilder.unicodePath(1, subRaw, "ä\\s\\"))
                .addWithExtra(deepRaw, false, random(50, 3), ZipBuilder.unicodePath(1, deepRaw, "ä\\s\\d.bin"))
                .build();
        // WinZip marks directories with the MS-DOS directory attribute too.
        b.putInt(b.cenHeaders()[1] + ZipLayout.CENATX, 0x10).putInt(b.cenHeaders()[3] + ZipLayout.CENATX, 0x10);
        Path out = dir.resolve("out");
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(Files.write(dir.resolve("winzip.zip"), b.bytes()))) {
            assertEquals(java.util.List.of("readme.txt", "ä/", "ä/ö.txt", "ä/s/", "ä/s/d.bin"),
                    zip.stream().map(ConcurrentZipFile.Entry::getName).toList());
            assertTrue(zip.getEntry("ä").isDirectory());
            assertTrue(zip.getEntry("ä/s/").isDirectory());
            assertFalse(zip.getEntry("ä/ö.txt").isDirectory());
            assertEquals(5, zip.extractTo(out));
        }
        assertTrue(Files.isDirectory(out.resolve("ä")));
        assertTrue(Files.isDirectory(out.resolve("ä/s")));
        assertArrayEquals(text(300, 1), Files.readAllBytes(out.resolve("readme.txt")));
        assertArrayEquals(text(200, 2), Files.readAllBytes(out.resolve("ä/ö.txt")));
        assertArrayEquals(random(50, 3), Files.readAllBytes(out.resolve("ä/s/d.bin")));
    }

    /**
     * An entry is a directory by its raw name or by its attributes, whatever its Unicode Path says: the field is only
     * the name, spelled in UTF-8.
     */
    @Test
    void directoryNessComesFromTheRawNameAndTheAttributes() throws IOException {
        byte[] slashRaw = {(byte) 0x84, '/'};
        byte[] dosRaw = {'d', 'o', 's'};
        byte[] dataRaw = {'d', 'a', 't', 'a'};
        ZipBuilder.Built b = new ZipBuilder()
                // The Unicode Path lost the trailing slash: the raw name still says directory.
                .addWithExtra(slashRaw, false, new byte[0], ZipBuilder.unicodePath(1, slashRaw, "ä"))
                // No slash anywhere, but the MS-DOS directory attribute, and no data.
                .addWithExtra(dosRaw, false, new byte[0], new byte[0])
                // A Unix directory mode.
                .addUnix("unixdir", new byte[0], 040755)
                // An attribute that says directory on an entry with data is not believed: the data would be lost.
                .addWithExtra(dataRaw, false, text(10, 4), new byte[0])
                .build();
        b.putInt(b.cenHeaders()[1] + ZipLayout.CENATX, 0x10).putInt(b.cenHeaders()[3] + ZipLayout.CENATX, 0x10);
        Path out = dir.resolve("out");
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(Files.write(dir.resolve("attrs.zip"), b.bytes()))) {
            assertEquals(java.util.List.of(true, true, true, false),
                    zip.stream().map(ConcurrentZipFile.Entry::isDirectory).toList());
            assertEquals(4, zip.extractTo(out));
        }
        assertTrue(Files.isDirectory(out.resolve("ä")));
        assertTrue(Files.isDirectory(out.resolve("dos")));
        assertTrue(Files.isDirectory(out.resolve("unixdir")));
        assertArrayEquals(text(10, 4), Files.readAllBytes(out.resolve("data")));
    }
}
