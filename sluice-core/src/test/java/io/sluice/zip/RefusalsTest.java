package io.sluice.zip;

import static io.sluice.zip.ConcurrentZipFileTest.random;
import static io.sluice.zip.ConcurrentZipFileTest.text;
import static io.sluice.zip.ZipBuilder.DEFLATED;
import static io.sluice.zip.ZipBuilder.STORED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One small input per class of archive that {@link ConcurrentZipFile#open} refuses, with which reference readers
 * refuse it too, so that the "What is refused" list of {@link ConcurrentZipFile}'s javadoc stays true. The JDK's
 * {@link ZipFile} is asked here, in the test; what Python's {@code zipfile} ({@code ZipFile(p).namelist()}),
 * Info-ZIP's {@code unzip -l} and Commons Compress's {@code ZipFile} (1.28) said of the same bytes was recorded once by
 * hand, in {@link Refusal#others}: a refusal no reference shares is one the javadoc states with its reason.
 */
class RefusalsTest {
    @TempDir
    Path dir;

    /**
     * One class of refused input.
     *
     * @param id          a name for the class
     * @param bytes       an input of that class
     * @param message     a part of Sluice's message for it
     * @param jdkRefuses  whether the JDK's {@link ZipFile} refuses to open it
     * @param others      which of Python's zipfile, unzip and Commons Compress refuse it, as recorded
     */
    record Refusal(String id, byte[] bytes, String message, boolean jdkRefuses, String others) {
        @Override
        public String toString() {
            return id;
        }
    }

    private static ZipBuilder.Built sample() {
        return new ZipBuilder().add("a.txt", text(3000, 1), DEFLATED).add("b.bin", random(500, 2), STORED)
                .add("c.txt", text(200, 3), STORED).build();
    }

    private static ZipBuilder.Built sample64() {
        return new ZipBuilder().zip64().add("a.txt", text(3000, 1), DEFLATED).add("b.bin", random(500, 2), STORED)
                .build();
    }

    /** {@code b} with {@code count} bytes of {@code fill} inserted at {@code at}. */
    private static byte[] insert(byte[] b, int at, int count, byte fill) {
        byte[] out = new byte[b.length + count];
        System.arraycopy(b, 0, out, 0, at);
        Arrays.fill(out, at, at + count, fill);
        System.arraycopy(b, at, out, at + count, b.length - at);
        return out;
    }

    /** An end of central directory record alone: {@code entries} entries, a directory of {@code size} at {@code offset}. */
    private static byte[] endRecord(int entries, long size, long offset) {
        return ByteBuffer.allocate(22).order(ByteOrder.LITTLE_ENDIAN).putInt(0x06054b50).putShort((short) 0)
                .putShort((short) 0).putShort((short) entries).putShort((short) entries).putInt((int) size)
                .putInt((int) offset).putShort((short) 0).array();
    }

    static Stream<Refusal> refusals() {
        // Where records start, for the damage below: the end record's fields are at end + 4 (disk), + 6 (the
        // directory's disk), + 8 (entries here), + 10 (entries), + 12 (size), + 16 (offset).
        ZipBuilder.Built b = sample();
        int end = (int) b.endRecord();
        int cen = (int) b.cenStart();
        long[] h = b.cenHeaders();
        ZipBuilder.Built b64 = sample64();
        int zip64End = (int) b64.endRecord() - 20 - 56;

        byte[] cutShort = insert(sample().bytes(), end, 10, (byte) 'x');
        ByteBuffer.wrap(cutShort).order(ByteOrder.LITTLE_ENDIAN).putInt(end + 10 + 12, end + 10 - cen);

        byte[] badUtf8Name = new ZipBuilder().addRaw(new byte[] {'a', (byte) 0xFF, 'b'}, true, new byte[] {1}, STORED)
                .build().bytes();

        // A Zip64 extra field that does not hold the compressed size its header defers to, and one that claims more
        // bytes than the extra data has.
        ZipBuilder.Built s64 = new ZipBuilder().addWithExtra("x".getBytes(StandardCharsets.US_ASCII), true,
                new byte[] {1}, new byte[] {1, 0, 0, 0}).build();
        s64.putInt(s64.cenHeaders()[0] + ZipLayout.CENSIZ, 0xFFFFFFFFL);
        ZipBuilder.Built past = new ZipBuilder().addWithExtra("x".getBytes(StandardCharsets.US_ASCII), true,
                new byte[] {1}, new byte[] {1, 0, 50, 0}).build();
        past.putInt(past.cenHeaders()[0] + ZipLayout.CENSIZ, 0xFFFFFFFFL);

        return Stream.of(
                new Refusal("shorter than an end record", new byte[10], "shorter than an end record", true,
                        "python, unzip, commons-compress"),
                new Refusal("no end record", text(200, 4), "no end of central directory record", true,
                        "python, unzip, commons-compress"),
                new Refusal("split over disks", sample().putShort(end + 4, 1).putShort(end + 6, 1).bytes(),
                        "split over several disks", false, "commons-compress"),
                new Refusal("Zip64 count above 2^63", sample64().putLong(zip64End + 24, -1).putLong(zip64End + 32, -1)
                        .bytes(), "above 2^63", true, "unzip"),
                new Refusal("directory larger than the file", sample().putInt(end + 12, end + 100).bytes(),
                        "is larger than everything before its end record", true, "python, unzip"),
                new Refusal("directory offset past the directory", sample().putInt(end + 16, cen + 10).bytes(),
                        "the start of the archive is missing", true, "unzip, commons-compress"),
                new Refusal("more entries than the directory can hold",
                        sample().putShort(end + 8, 60000).putShort(end + 10, 60000).bytes(), "cannot fit", true,
                        "unzip"),
                new Refusal("no directory where the end record puts it", sample().putInt(end + 12, end - cen - 1)
                        .bytes(), "no central directory where the end record", true,
                        "python, unzip"),
                new Refusal("directory cut short", cutShort, "is cut short by the end of the central directory", true,
                        "python"),
                new Refusal("header without signature", sample().putInt(h[1], 0x12345678).bytes(),
                        "has no central directory signature", true, "python, unzip"),
                new Refusal("header running past the directory",
                        sample().putShort(h[2] + ZipLayout.CENNAM, 5 + 100).bytes(),
                        "runs past the end of the central directory", true, "unzip, commons-compress"),
                new Refusal("count differs from the directory", sample().putShort(end + 8, 2).putShort(end + 10, 2)
                        .bytes(), "declares 2 entries but the central directory holds 3", false,
                        "unzip"),
                new Refusal("name flagged UTF-8 that is not", badUtf8Name, "flagged as UTF-8 that is not UTF-8", true,
                        "python"),
                new Refusal("entry on another disk", sample().putShort(h[1] + ZipLayout.CENDSK, 1).bytes(),
                        "starts on disk 1", false, ""),
                new Refusal("negative Zip64 size", sample64().putLong(b64.cenHeaders()[0] + 46 + 5 + 4, -1).bytes(),
                        "negative size or offset", true, "commons-compress"),
                new Refusal("local header offset outside the data",
                        sample().putInt(h[1] + ZipLayout.CENOFF, cen).bytes(), "is outside the archive's data", false,
                        "commons-compress"),
                new Refusal("Zip64 field lacking a deferred value", s64.bytes(), "lacks the compressed size", true,
                        "python, commons-compress"),
                new Refusal("extra field running past the extra data", past.bytes(),
                        "runs past the end of the extra data", true, "python, commons-compress"),
                new Refusal("overlapping entries", sample().putInt(h[1] + ZipLayout.CENOFF, 0).bytes(),
                        "overlap the local header", false, ""),
                new Refusal("compressed size past the directory", sample().putInt(h[0] + ZipLayout.CENSIZ, 100_000)
                        .bytes(), "runs past the end of the data", false, "commons-compress"),
                new Refusal("prefix without the first local header", sample().putInt(end + 16, cen - 5).bytes(),
                        "no local header at file offset 5", false, "commons-compress"));
    }

    @ParameterizedTest
    @MethodSource("refusals")
    void eachRefusalIsRecordedWithTheReferencesThatShareIt(Refusal r) throws IOException {
        Path p = Files.write(dir.resolve("in.zip"), r.bytes());
        ZipException e = assertThrows(ZipException.class, () -> ConcurrentZipFile.open(p).close(), r.id());
        assertTrue(e.getMessage().startsWith(p + ": ") && e.getMessage().contains(r.message()), e.getMessage());
        boolean jdkRefused;
        try (ZipFile jdk = new ZipFile(p.toFile())) {
            jdkRefused = false;
        } catch (ZipException refused) {
            jdkRefused = true;
        }
        assertEquals(r.jdkRefuses(), jdkRefused, () -> r.id() + ": the JDK's ZipFile "
                + (r.jdkRefuses() ? "opens" : "refuses") + " it now; update the record and the javadoc");
    }

    /**
     * Each refusal is in the "What is refused" list of {@link ConcurrentZipFile}'s javadoc, and the refusals that no
     * reference shares are the ones the list gives a reason for.
     */
    @Test
    void theJavadocListsEveryRefusal() throws IOException {
        String source = Files.readString(Path.of("src/main/java/io/sluice/zip/ConcurrentZipFile.java"));
        String list = source.substring(source.indexOf("<b>What is refused"), source.indexOf("</ul>",
                source.indexOf("<b>What is refused"))).replaceAll("\\s*\\n\\s*\\*\\s*", " ");
        refusals().forEach(r -> {
            int at = list.indexOf("<li>" + Character.toUpperCase(r.id().charAt(0)) + r.id().substring(1) + ":");
            assertTrue(at >= 0, () -> "no item for '" + r.id() + "' in:\n" + list);
            String item = list.substring(at, list.indexOf("</li>", at));
            String shared = (r.jdkRefuses() ? "JDK" + (r.others().isEmpty() ? "" : ", ") : "") + r.others();
            assertTrue(shared.isEmpty() ? item.contains("no reference refuses it") : item.contains("(" + shared + ")"),
                    () -> "the item for '" + r.id() + "' should say " + (shared.isEmpty() ? "no reference refuses it"
                            : "(" + shared + ")") + ": " + item);
        });
    }

    /**
     * Inputs that were refused and are now read as every reference reads them: an empty directory that is not where
     * its offset says (a launcher, or anything, before an empty archive) is an empty archive, and the count of entries
     * "on this disk" is not held against the total.
     */
    @Test
    void whatEveryReferenceOpensOpens() throws IOException {
        ByteArrayOutputStream launcher = new ByteArrayOutputStream();
        launcher.writeBytes("#!/bin/sh\necho a launcher\nexit 0\n".getBytes(StandardCharsets.US_ASCII));
        launcher.writeBytes(endRecord(0, 0, 0));
        byte[] zeros = new byte[5000];
        ByteBuffer.wrap(zeros).order(ByteOrder.LITTLE_ENDIAN).putInt(zeros.length - 22, 0x06054b50);
        ByteArrayOutputStream offset = new ByteArrayOutputStream();
        offset.writeBytes(text(100, 9));
        offset.writeBytes(endRecord(0, 0, 40));
        for (byte[] empty : new byte[][] {launcher.toByteArray(), zeros, offset.toByteArray()}) {
            Path p = Files.write(dir.resolve("empty.zip"), empty);
            try (ConcurrentZipFile zip = ConcurrentZipFile.open(p); ZipFile jdk = new ZipFile(p.toFile())) {
                assertEquals(0, zip.size());
                assertEquals(0, jdk.size());
                assertEquals(0, zip.stream().count());
            }
        }
        ZipBuilder.Built b = sample();
        b.putShort(b.endRecord() + 8, 2);
        Path p = Files.write(dir.resolve("here.zip"), b.bytes());
        ConcurrentZipFileTest.assertSameAsJdk(p);
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(p)) {
            assertEquals(3, zip.size());
            assertEquals(java.util.List.of(), zip.stream().map(e -> {
                try {
                    zip.verify(e);
                    return null;
                } catch (IOException x) {
                    return x.getMessage();
                }
            }).filter(java.util.Objects::nonNull).toList());
        }
    }
}
