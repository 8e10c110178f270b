package io.sluice.zip;

import static io.sluice.zip.ZipBuilder.DEFLATED;
import static io.sluice.zip.ZipBuilder.STORED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What {@link ConcurrentZipFile} reads, checked against the bytes that went in and against the JDK's ZipFile. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConcurrentZipFileTest {
    @TempDir
    Path dir;

    static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }

    /** Text-like bytes, which deflate shrinks a lot. */
    static byte[] text(int size, long seed) {
        byte[] b = new byte[size];
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < size; i++) {
            b[i] = (byte) ("the quick brown fox\n".charAt(r.nextInt(20)));
        }
        return b;
    }

    /** Entries of every kind, written by the JDK's own ZipOutputStream (which uses data descriptors for deflated). */
    static Map<String, byte[]> contents() {
        Map<String, byte[]> m = new LinkedHashMap<>();
        m.put("empty.txt", new byte[0]);
        m.put("dir/", new byte[0]);
        m.put("dir/small.bin", random(100, 1));
        m.put("dir/text.txt", text(100_000, 2));
        m.put("big.bin", random(3 << 20, 3));
        m.put("ünïcødé/名前.txt", text(1000, 4));
        m.put("one", new byte[] {42});
        return m;
    }

    Path writeWithJdk(Path path, Map<String, byte[]> contents, boolean stored) throws IOException {
        try (OutputStream os = Files.newOutputStream(path); ZipOutputStream z = new ZipOutputStream(os)) {
            z.setComment("archive comment");
            for (var e : contents.entrySet()) {
                ZipEntry ze = new ZipEntry(e.getKey());
                byte[] data = e.getValue();
                if (stored) {
                    ze.setMethod(ZipEntry.STORED);
                    ze.setSize(data.length);
                    ze.setCompressedSize(data.length);
                    ze.setCrc(ZipBuilder.crc(data));
                }
                z.putNextEntry(ze);
                z.write(data);
                z.closeEntry();
            }
        }
        return path;
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void readsEveryEntryAsWrittenAndAsTheJdkDoes(boolean stored) throws IOException {
        Map<String, byte[]> contents = contents();
        Path p = writeWithJdk(dir.resolve("a.zip"), contents, stored);
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(p); ZipFile jdk = new ZipFile(p.toFile())) {
            assertEquals(contents.size(), zip.size());
            assertEquals("archive comment", zip.getComment());
            assertEquals(p.toString(), zip.getName());
            List<String> names = new ArrayList<>();
            for (ConcurrentZipFile.Entry e : zip) {
                names.add(e.getName());
                ZipEntry j = jdk.getEntry(e.getName());
                assertNotNull(j, e.getName());
                byte[] expected = contents.get(e.getName());
                assertEquals(j.getSize(), e.getSize());
                assertEquals(j.getCompressedSize(), e.getCompressedSize());
                assertEquals(j.getCrc(), e.getCrc());
                assertEquals(j.getMethod(), e.getMethod());
                assertEquals(j.isDirectory(), e.isDirectory());
                assertEquals(j.getTime(), e.getLastModifiedTime().toMillis(), e.getName());
                assertArrayEquals(expected, zip.readAllBytes(e), e.getName());
                try (InputStream in = zip.getInputStream(e)) {
                    assertArrayEquals(expected, readInPieces(in, 333), e.getName());
                }
                zip.verify(e);
                if (stored) {
                    ByteBuffer view = zip.mappedBytes(e);
                    assertTrue(view.isReadOnly());
                    byte[] viewed = new byte[view.remaining()];
                    view.get(viewed);
                    assertArrayEquals(expected, viewed);
                } else if (e.getSize() > 0) {
                    assertThrows(IllegalArgumentException.class, () -> zip.mappedBytes(e));
                }
            }
            assertEquals(List.copyOf(contents.keySet()), names);
            assertEquals(names, zip.stream().map(ConcurrentZipFile.Entry::getName).toList());
        }
    }

    static byte[] readInPieces(InputStream in, int piece) throws IOException {
        var out = new java.io.ByteArrayOutputStream();
        byte[] buf = new byte[piece];
        for (int n; (n = in.read(buf)) >= 0; ) {
            out.write(buf, 0, n);
        }
        assertEquals(-1, in.read());
        return out.toByteArray();
    }

    @Test
    void looksUpNamesLikeZipFile() throws IOException {
        Path p = writeWithJdk(dir.resolve("a.zip"), contents(), false);
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(p)) {
            assertEquals("dir/small.bin", zip.getEntry("dir/small.bin").getName());
            assertEquals("dir/", zip.getEntry("dir").getName(), "a directory is found without its slash");
            assertEquals("ünïcødé/名前.txt", zip.getEntry("ünïcødé/名前.txt").getName());
            assertNull(zip.getEntry("missing"));
            assertNull(zip.getEntry("DIR/SMALL.BIN"));
            assertEquals(zip.getEntry("one"), zip.entry(zip.getEntry("one").index()));
        }
    }

    @Test
    void readsZip64RecordsAndExtraFields() throws IOException {
        ZipBuilder.Built b = new ZipBuilder().zip64().add("a.txt", text(5000, 1), DEFLATED)
                .add("b.bin", random(3000, 2), STORED).addWithDescriptor("c.txt", text(7000, 3), DEFLATED).build();
        Path p = Files.write(dir.resolve("z64.zip"), b.bytes());
        assertSameAsJdk(p);
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(p)) {
            assertArrayEquals(text(7000, 3), zip.readAllBytes(zip.getEntry("c.txt")));
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void readsArchivesWithSomethingPrepended(boolean zip64) throws IOException {
        byte[] script = "#!/bin/sh\nexec java -jar \"$0\" \"$@\"\n".repeat(50).getBytes(StandardCharsets.US_ASCII);
        ZipBuilder builder = new ZipBuilder().prefix(script).add("x.txt", text(4000, 7), DEFLATED)
                .add("y.bin", random(999, 8), STORED).comment("self-extracting");
        if (zip64) {
            builder.zip64();
        }
        Path p = Files.write(dir.resolve("app.run"), builder.build().bytes());
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(p)) {
            assertArrayEquals(text(4000, 7), zip.readAllBytes(zip.getEntry("x.txt")));
            assertArrayEquals(random(999, 8), zip.readAllBytes(zip.getEntry("y.bin")));
            assertEquals("self-extracting", zip.getComment());
        }
        if (!zip64) {
            // The JDK's ZipFile takes the Zip64 locator's offset as absolute, so it cannot read the other case.
            assertSameAsJdk(p);
        }
    }

    @Test
    void readsAJarWithALauncherScriptPrependedByCat() throws IOException {
        // The usual way: cat launcher.sh app.jar > app; the archive's offsets are then all short by the script.
        Path jar = writeWithJdk(dir.resolve("app.jar"), contents(), false);
        byte[] script = "#!/bin/sh\nexec java -jar \"$0\" \"$@\"\n".getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[script.length + (int) Files.size(jar)];
        System.arraycopy(script, 0, all, 0, script.length);
        System.arraycopy(Files.readAllBytes(jar), 0, all, script.length, all.length - script.length);
        Path p = Files.write(dir.resolve("app"), all);
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(p)) {
            for (var e : contents().entrySet()) {
                assertArrayEquals(e.getValue(), zip.readAllBytes(zip.getEntry(e.getKey())), e.getKey());
            }
        }
    }

    @Test
    void readsLegacyCp437AndFlaggedUtf8Names() throws IOException {
        // 0x82 is é in code page 437; 0xE9 is é in ISO-8859-1.
        byte[] cp437 = {'c', 'a', 'f', (byte) 0x82, '.', 't', 'x', 't'};
        ZipBuilder.Built b = new ZipBuilder().addRaw(cp437, false, new byte[] {1}, STORED)
                .addRaw("naïve.txt".getBytes(StandardCharsets.UTF_8), true, new byte[] {2}, STORED)
                .addRaw("plain.txt".getBytes(StandardCharsets.US_ASCII), false, new byte[] {3}, STORED).build();
        Path p = Files.write(dir.resolve("names.zip"), b.bytes());
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(p)) {
            assertEquals(List.of("café.txt", "naïve.txt", "plain.txt"),
                    zip.stream().map(ConcurrentZipFile.Entry::getName).toList());
            assertArrayEquals(new byte[] {1}, zip.readAllBytes(zip.getEntry("café.txt")));
            assertArrayEquals(new byte[] {2}, zip.readAllBytes(zip.getEntry("naïve.txt")));
            assertArrayEquals(new byte[] {3}, zip.readAllBytes(zip.getEntry("plain.txt")));
        }
        byte[] latin1 = {'c', 'a', 'f', (byte) 0xE9};
        Path q = Files.write(dir.resolve("latin1.zip"), new ZipBuilder().addRaw(latin1, false, new byte[] {4}, STORED)
                .build().bytes());
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(q, Charset.forName("ISO-8859-1"))) {
            assertEquals("café", zip.entry(0).getName());
            assertNotNull(zip.getEntry("café"));
        }
    }

    /**
     * What is not a regular file is refused before it is opened, in one line naming the path and what it is, as the
     * engines of PositionalFile word it: a directory used to fail mapping with "No such device", and a FIFO to wait
     * for a writer and then say "0 bytes is shorter than an end record".
     */
    @Test
    void directoriesAndFifosAreRefusedNamingWhatTheyAre() throws Exception {
        java.nio.file.FileSystemException dirFailure = assertThrows(java.nio.file.FileSystemException.class,
                () -> ConcurrentZipFile.open(dir));
        assertEquals(dir + ": Is a directory", dirFailure.getMessage());

        Path fifo = dir.resolve("fifo");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
        assertTrue(mk.waitFor(30, TimeUnit.SECONDS) && mk.exitValue() == 0, "mkfifo failed");
        // A writer, so that an open that does reach the FIFO returns instead of waiting for one.
        Thread writer = Thread.ofPlatform().daemon().start(() -> {
            try (OutputStream o = Files.newOutputStream(fifo)) {
                o.flush();
            } catch (IOException ignored) {
                // Only there to be opened.
            }
        });
        try {
            java.nio.file.FileSystemException fifoFailure = assertThrows(java.nio.file.FileSystemException.class,
                    () -> ConcurrentZipFile.open(fifo));
            assertEquals(fifo + ": is a FIFO, not a regular file, so it cannot be read as a zip archive",
                    fifoFailure.getMessage());
        } finally {
            // Lets the writer's open return if the archive's open did not pair with it.
            if (writer.isAlive()) {
                try (InputStream in = Files.newInputStream(fifo)) {
                    in.readAllBytes();
                }
            }
            writer.join(10_000);
        }
    }

    @Test
    void readsTheInfoZipUnicodePathWhenItMatchesTheRawName() throws IOException {
        // 7-Zip and WinZip write a legacy name and beside it, in extra field 0x7075, the real one in UTF-8 with the
        // CRC-32 of the legacy name. The real name here is not what CP437 makes of the raw bytes.
        byte[] raw = {'c', 'a', 'f', (byte) 0x82, '.', 't', 'x', 't'};
        byte[] renamed = "renamed.txt".getBytes(StandardCharsets.US_ASCII);
        ZipBuilder.Built b = new ZipBuilder()
                .addWithExtra(raw, false, new byte[] {1}, ZipBuilder.unicodePath(1, raw, "Café-名前.txt"))
                // A tool renamed this entry and left the old field: its CRC is of another name, so it is ignored.
                .addWithExtra(renamed, false, new byte[] {2}, ZipBuilder.unicodePath(1, raw, "stale.txt"))
                // An unknown version is ignored too.
                .addWithExtra(raw.clone(), false, new byte[] {3}, ZipBuilder.unicodePath(2, raw, "v2.txt"))
                .add("after.txt", new byte[] {4}, STORED).comment("c").build();
        Path p = Files.write(dir.resolve("unicode.zip"), b.bytes());
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(p)) {
            assertEquals(List.of("Café-名前.txt", "renamed.txt", "café.txt", "after.txt"),
                    zip.stream().map(ConcurrentZipFile.Entry::getName).toList());
            assertArrayEquals(new byte[] {1}, zip.readAllBytes(zip.getEntry("Café-名前.txt")));
            assertArrayEquals(new byte[] {2}, zip.readAllBytes(zip.getEntry("renamed.txt")));
            assertArrayEquals(new byte[] {3}, zip.readAllBytes(zip.getEntry("café.txt")));
            assertArrayEquals(new byte[] {4}, zip.readAllBytes(zip.getEntry("after.txt")));
            assertNull(zip.getEntry("stale.txt"));
            assertEquals(0, zip.getEntry("Café-名前.txt").getFlags() & (1 << 11), "the flags are the archive's");
        }
    }

    @Test
    void aZip64LocatorSignatureInTheLastNameIsNotTakenForOne() throws IOException {
        // The end record follows the last central directory header's name, so a name ending in "PK\6\7" and 16 more
        // bytes puts a Zip64 locator signature exactly where a locator would be.
        String name = "data/PK\u0006\u00070123456789abcdef";
        ZipBuilder.Built b = new ZipBuilder().add("first.txt", text(500, 1), DEFLATED).add(name, new byte[] {7}, STORED)
                .build();
        assertEquals(0x07064b50, b.le().getInt((int) b.endRecord() - 20), "the signature is where a locator goes");
        Path p = Files.write(dir.resolve("sig.zip"), b.bytes());
        assertSameAsJdk(p);
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(p)) {
            assertArrayEquals(new byte[] {7}, zip.readAllBytes(zip.getEntry(name)));
        }
        // But when the end record's fields defer to a Zip64 record, a locator leading nowhere is still an error.
        b.putShort(b.endRecord() + 8, 0xFFFF).putShort(b.endRecord() + 10, 0xFFFF);
        Path q = Files.write(dir.resolve("sig64.zip"), b.bytes());
        assertMessage(q + ": at offset " + (b.endRecord() - 20), "no Zip64 end record",
                assertThrows(ZipException.class, () -> ConcurrentZipFile.open(q)));
    }

    @Test
    void readsEntryCommentsAndUnixModes() throws IOException {
        Path p = Files.write(dir.resolve("c.zip"), new ZipBuilder().addWithComment("a", new byte[] {1}, "note")
                .addUnix("link", "target".getBytes(StandardCharsets.UTF_8), 0120777)
                .addUnix("script.sh", new byte[] {2}, 0100755).build().bytes());
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(p)) {
            assertEquals("note", zip.getEntry("a").getComment());
            assertNull(zip.getEntry("link").getComment());
            assertTrue(zip.getEntry("link").isSymbolicLink());
            assertFalse(zip.getEntry("script.sh").isSymbolicLink());
            assertFalse(zip.getEntry("a").isSymbolicLink());
            assertNull(zip.getComment());
        }
    }

    @Test
    void firstOfRepeatedNamesWins() throws IOException {
        Path p = Files.write(dir.resolve("dup.zip"), new ZipBuilder().add("same", new byte[] {1}, STORED)
                .add("same", new byte[] {2}, STORED).build().bytes());
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(p)) {
            assertEquals(2, zip.size());
            assertEquals(0, zip.getEntry("same").index());
        }
    }

    @Test
    void readsAnEmptyArchive() throws IOException {
        Path p = Files.write(dir.resolve("empty.zip"), new ZipBuilder().build().bytes());
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(p)) {
            assertEquals(0, zip.size());
            assertNull(zip.getEntry("x"));
            assertEquals(0, zip.stream().count());
        }
    }

    @Test
    void readsArchivesOfMoreThan65535EntriesFromTheJdk() throws IOException {
        // ZipOutputStream writes Zip64 end records past 65535 entries.
        Path p = dir.resolve("many.zip");
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(p))) {
            z.setLevel(0);
            for (int i = 0; i < 70_000; i++) {
                z.putNextEntry(new ZipEntry("e" + i));
                z.write(i & 0xFF);
            }
        }
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(p)) {
            assertEquals(70_000, zip.size());
            for (int i = 0; i < 70_000; i += 997) {
                assertArrayEquals(new byte[] {(byte) i}, zip.readAllBytes(zip.getEntry("e" + i)));
            }
        }
    }

    @Test
    void crcMismatchIsAZipExceptionNamingArchiveEntryAndOffset() throws IOException {
        byte[] data = text(50_000, 9);
        for (int method : new int[] {STORED, DEFLATED}) {
            ZipBuilder.Built b = new ZipBuilder().add("first", new byte[10], STORED).add("bad.txt", data, method)
                    .build();
            b.putInt(b.cenHeaders()[1] + 16, ZipBuilder.crc(data) ^ 1);
            Path p = Files.write(dir.resolve("crc" + method + ".zip"), b.bytes());
            try (ConcurrentZipFile zip = ConcurrentZipFile.open(p)) {
                ConcurrentZipFile.Entry e = zip.getEntry("bad.txt");
                String where = p + ": entry 'bad.txt' at offset " + b.localHeaders()[1];
                assertMessage(where, "CRC-32 mismatch", assertThrows(ZipException.class, () -> zip.readAllBytes(e)));
                assertMessage(where, "CRC-32", assertThrows(ZipException.class, () -> zip.verify(e)));
                try (InputStream in = zip.getInputStream(e)) {
                    // Reading exactly the declared size must be enough to see the mismatch.
                    assertMessage(where, "CRC-32", assertThrows(ZipException.class, () -> in.readNBytes(data.length)));
                }
                zip.verify(zip.getEntry("first"));
            }
        }
    }

    static void assertMessage(String start, String contains, Exception e) {
        assertTrue(e.getMessage().startsWith(start) && e.getMessage().contains(contains),
                "expected '" + start + "...' with '" + contains + "', got: " + e.getMessage());
    }

    @Test
    void closedArchiveRefusesEverything() throws IOException {
        Path p = writeWithJdk(dir.resolve("a.zip"), contents(), true);
        ConcurrentZipFile zip = ConcurrentZipFile.open(p);
        ConcurrentZipFile.Entry e = zip.getEntry("big.bin");
        ByteBuffer view = zip.mappedBytes(e);
        InputStream in = zip.getInputStream(e);
        zip.close();
        zip.close();
        assertFalse(zip.isOpen());
        assertThrows(ClosedChannelException.class, () -> zip.readAllBytes(e));
        assertThrows(ClosedChannelException.class, () -> zip.getInputStream(e));
        assertThrows(ClosedChannelException.class, () -> zip.verify(e));
        assertThrows(IOException.class, () -> in.read(new byte[10]));
        assertThrows(IllegalStateException.class, () -> zip.getEntry("one"));
        assertThrows(IllegalStateException.class, zip::stream);
        assertThrows(IllegalStateException.class, view::get, "the view must not outlive the mapping");
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void readsAnArchiveHeldInMemoryAsTheMappedOneAndNoLongerNeedsTheFile(boolean stored) throws IOException {
        Map<String, byte[]> contents = contents();
        Path p = writeWithJdk(dir.resolve("a.zip"), contents, stored);
        long size = Files.size(p);
        try (ConcurrentZipFile mapped = ConcurrentZipFile.open(p);
                ConcurrentZipFile held = ConcurrentZipFile.open(p, null, (int) size)) {
            // Held whole at open: cutting the file to nothing afterwards changes nothing it reads, where the mapped
            // archive would lose its pages.
            try (var ch = java.nio.channels.FileChannel.open(p, java.nio.file.StandardOpenOption.WRITE)) {
                ch.truncate(0);
            }
            assertEquals(mapped.size(), held.size());
            assertEquals("archive comment", held.getComment());
            assertEquals(p, held.path());
            for (ConcurrentZipFile.Entry e : held) {
                assertArrayEquals(contents.get(e.getName()), held.readAllBytes(e), e.getName());
                held.verify(e);
                if (stored) {
                    ByteBuffer view = held.mappedBytes(e);
                    byte[] viewed = new byte[view.remaining()];
                    view.get(viewed);
                    assertArrayEquals(contents.get(e.getName()), viewed, e.getName());
                }
            }
            ConcurrentZipFile.Entry one = held.getEntry("one");
            held.close();
            assertThrows(ClosedChannelException.class, () -> held.readAllBytes(one));
            assertThrows(IllegalStateException.class, () -> held.getEntry("one"));
        }
    }

    @Test
    void anArchiveAboveTheInMemoryLimitIsMapped() throws IOException {
        Path p = writeWithJdk(dir.resolve("a.zip"), contents(), true);
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(p, null, (int) Files.size(p) - 1)) {
            ConcurrentZipFile.Entry big = zip.getEntry("big.bin");
            try (var ch = java.nio.channels.FileChannel.open(p, java.nio.file.StandardOpenOption.WRITE)) {
                ch.truncate(1000);
            }
            // The mapping lost its pages: the read fails (SIGBUS, reported as the archive cut under it).
            ZipException e = assertThrows(ZipException.class, () -> zip.readAllBytes(big));
            assertTrue(e.getMessage().contains("cut by another process"), e.getMessage());
        }
    }

    @Test
    void refusesAnEntryOfAnotherArchive() throws IOException {
        Path p = writeWithJdk(dir.resolve("a.zip"), contents(), true);
        try (ConcurrentZipFile a = ConcurrentZipFile.open(p); ConcurrentZipFile b = ConcurrentZipFile.open(p)) {
            assertThrows(IllegalArgumentException.class, () -> a.readAllBytes(b.getEntry("one")));
        }
    }

    /** Every entry, names and bytes, as the JDK reads them. */
    static void assertSameAsJdk(Path p) throws IOException {
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(p); ZipFile jdk = new ZipFile(p.toFile())) {
            assertEquals(jdk.size(), zip.size());
            assertEquals(jdk.getComment(), zip.getComment());
            var it = jdk.entries();
            for (ConcurrentZipFile.Entry e : zip) {
                ZipEntry j = it.nextElement();
                assertEquals(j.getName(), e.getName());
                assertEquals(j.getSize(), e.getSize(), j.getName());
                assertEquals(j.getCompressedSize(), e.getCompressedSize(), j.getName());
                assertEquals(j.getCrc(), e.getCrc(), j.getName());
                try (InputStream in = jdk.getInputStream(j)) {
                    byte[] expected = in.readAllBytes();
                    assertArrayEquals(expected, zip.readAllBytes(e), j.getName());
                    CRC32 c = new CRC32();
                    c.update(expected);
                    assertEquals(j.getCrc(), c.getValue());
                }
            }
        }
    }
}
