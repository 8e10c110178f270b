package io.sluice.zip;

import static io.sluice.zip.ConcurrentZipFileTest.assertMessage;
import static io.sluice.zip.ConcurrentZipFileTest.random;
import static io.sluice.zip.ConcurrentZipFileTest.text;
import static io.sluice.zip.ZipBuilder.DEFLATED;
import static io.sluice.zip.ZipBuilder.STORED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged and hostile archives: each ends in a {@link ZipException} naming the archive, the entry (when there is
 * one) and the offset; never a hang, an {@link OutOfMemoryError}, or a read outside the archive.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DamagedArchiveTest {
    @TempDir
    Path dir;

    static ZipBuilder.Built sample() {
        return new ZipBuilder().add("a.txt", text(3000, 1), DEFLATED).add("b.bin", random(500, 2), STORED)
                .addWithDescriptor("c.txt", text(2000, 3), DEFLATED).comment("c").build();
    }

    private ZipException openFails(ZipBuilder.Built b) throws IOException {
        Path p = Files.write(dir.resolve("bad.zip"), b.bytes());
        return assertThrows(ZipException.class, () -> ConcurrentZipFile.open(p).close());
    }

    private ZipException readFails(ZipBuilder.Built b, String entry) throws IOException {
        Path p = Files.write(dir.resolve("bad.zip"), b.bytes());
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(p)) {
            ConcurrentZipFile.Entry e = zip.getEntry(entry);
            return assertThrows(ZipException.class, () -> zip.readAllBytes(e));
        }
    }

    private String archive() {
        return dir.resolve("bad.zip").toString();
    }

    @Test
    void everyTruncationIsAZipExceptionOrReadsWhatIsLeft() throws IOException {
        byte[] whole = sample().bytes();
        for (int len = 0; len < whole.length; len++) {
            // Only a cut inside the archive comment leaves a readable archive; the rest must fail cleanly.
            FuzzTarget.exercise(Arrays.copyOf(whole, len));
        }
        assertThrows(ZipException.class, () -> ConcurrentZipFile.of(MemorySegment.ofArray(new byte[10]), "x"));
    }

    @Test
    void truncatedFileSaysItIsNotAnArchive() throws IOException {
        ZipBuilder.Built b = sample();
        byte[] cut = Arrays.copyOf(b.bytes(), (int) b.endRecord() - 5);
        Path p = Files.write(dir.resolve("bad.zip"), cut);
        ZipException e = assertThrows(ZipException.class, () -> ConcurrentZipFile.open(p));
        assertMessage(archive() + ": at offset ", "no end of central directory record", e);
    }

    @Test
    void frontTruncatedArchiveIsRefused() throws IOException {
        ZipBuilder.Built b = sample();
        byte[] cut = Arrays.copyOfRange(b.bytes(), 100, b.bytes().length);
        Path p = Files.write(dir.resolve("bad.zip"), cut);
        ZipException e = assertThrows(ZipException.class, () -> ConcurrentZipFile.open(p));
        assertMessage(archive() + ": at offset ", "the start of the archive is missing", e);
    }

    @Test
    void centralDirectoryOutsideTheFileIsRefused() throws IOException {
        ZipBuilder.Built b = sample();
        b.putInt(b.endRecord() + 12, 1L << 31); // central directory size
        assertMessage(archive() + ": at offset " + b.endRecord(), "larger than everything before", openFails(b));

        b = sample();
        b.putInt(b.endRecord() + 16, 0xFFFF_FFF0L); // central directory offset
        assertMessage(archive() + ": at offset " + b.endRecord(), "the start of the archive is missing", openFails(b));
    }

    @Test
    void localHeaderOffsetOutsideTheDataIsRefused() throws IOException {
        ZipBuilder.Built b = sample();
        b.putInt(b.cenHeaders()[1] + 42, b.cenStart() + 100);
        assertMessage(archive() + ": entry 'b.bin' at offset " + b.cenHeaders()[1], "local header offset",
                openFails(b));
    }

    @Test
    void overlappingEntriesAreRefused() throws IOException {
        // Two central directory entries sharing one local header: the "overlapping files" zip bomb.
        ZipBuilder.Built b = sample();
        b.putInt(b.cenHeaders()[1] + 42, b.localHeaders()[0]);
        assertMessage(archive() + ": entry '", "overlap", openFails(b));

        // Compressed size reaching into the next entry.
        b = sample();
        b.putInt(b.cenHeaders()[0] + 20, b.localHeaders()[1] - b.dataStarts()[0] + 1);
        assertMessage(archive() + ": entry 'a.txt' at offset 0", "overlap", openFails(b));
    }

    @Test
    void anAbsurdCompressedSizeIsReportedAsSuchNotAsAnOverlap() throws IOException {
        ZipBuilder.Built b = sample();
        long dataEnd = b.cenStart();
        b.putInt(b.cenHeaders()[2] + 20, 0x7FFF_FFF0L); // c.txt, the last entry: far past the end of the file
        assertMessage(archive() + ": entry 'c.txt' at offset " + b.localHeaders()[2],
                "compressed size 2147483632 runs past the end of the data at " + dataEnd, openFails(b));

        b = sample();
        b.putInt(b.cenHeaders()[0] + 20, 0xFFFF_FFF0L); // a.txt, the first: past every other entry too
        assertMessage(archive() + ": entry 'a.txt' at offset 0",
                "compressed size 4294967280 runs past the end of the data at " + dataEnd, openFails(b));
    }

    @Test
    void anOffsetThatImpliesAPrefixNeedsTheFirstEntryWhereThePrefixPutsIt() throws IOException {
        // Empty directories that are not where their offset says, and end records whose two counts differ, open as
        // every reference opens them: RefusalsTest#whatEveryReferenceOpensOpens.
        // An offset that makes the start of the file look like a prepended launcher, with no entry where it says.
        ZipBuilder.Built b = sample();
        b.putInt(b.endRecord() + 16, b.cenStart() - 7);
        assertMessage(archive() + ": entry 'a.txt' at offset 0", "no local header at file offset 7, where the"
                + " central directory puts the first entry", openFails(b));
    }

    @Test
    void localExtraFieldPushingDataIntoTheNextEntryIsRefusedOnRead() throws IOException {
        ZipBuilder.Built b = sample();
        b.putShort(b.localHeaders()[0] + 28, 1000);
        assertMessage(archive() + ": entry 'a.txt' at offset 0", "runs past", readFails(b, "a.txt"));
    }

    @Test
    void absurdCountsAreRefusedBeforeAllocating() throws IOException {
        ZipBuilder.Built b = sample();
        b.putShort(b.endRecord() + 8, 0xFFFE).putShort(b.endRecord() + 10, 0xFFFE);
        assertMessage(archive() + ": at offset " + b.endRecord(), "cannot fit", openFails(b));

        // A Zip64 count of 2^40 entries in a directory of a few hundred bytes.
        ZipBuilder.Built z = new ZipBuilder().zip64().add("a", new byte[] {1}, STORED).build();
        long z64 = z.endRecord() - 20 - 56;
        z.putLong(z64 + 24, 1L << 40).putLong(z64 + 32, 1L << 40);
        assertMessage(archive() + ": at offset ", "cannot fit", openFails(z));

        // Fewer entries declared than present.
        b = sample();
        b.putShort(b.endRecord() + 8, 2).putShort(b.endRecord() + 10, 2);
        assertMessage(archive() + ": at offset " + b.endRecord(), "declares 2 entries", openFails(b));
    }

    @Test
    void absurdSizesAreRefusedOnRead() throws IOException {
        ZipBuilder.Built b = sample();
        b.putInt(b.cenHeaders()[0] + 24, 0xFFFF_FFF0L); // a.txt: 4 GiB from a few hundred compressed bytes
        assertMessage(archive() + ": entry 'a.txt' at offset 0", "more than deflate can make", readFails(b, "a.txt"));

        b = sample();
        b.putInt(b.cenHeaders()[1] + 24, 499); // b.bin: stored, size differs from compressed size
        assertMessage(archive() + ": entry 'b.bin'", "differs from its compressed size", readFails(b, "b.bin"));

        b = sample();
        b.putInt(b.cenHeaders()[0] + 24, 2999); // a.txt inflates to one byte more than declared
        assertMessage(archive() + ": entry 'a.txt'", "more than its declared size", readFails(b, "a.txt"));

        b = sample();
        b.putInt(b.cenHeaders()[0] + 24, 3001); // and one byte less
        assertMessage(archive() + ": entry 'a.txt'", "3000 bytes", readFails(b, "a.txt"));
    }

    @Test
    void damagedDeflateDataIsAZipException() throws IOException {
        ZipBuilder.Built b = sample();
        for (int k = 0; k < 40; k++) {
            b.bytes()[(int) b.dataStarts()[0] + 3 + k] ^= (byte) 0x5A;
        }
        assertMessage(archive() + ": entry 'a.txt' at offset 0", "", readFails(b, "a.txt"));
    }

    @Test
    void unsupportedMethodsAndEncryptionAreNamed() throws IOException {
        ZipBuilder.Built b = sample();
        b.putShort(b.cenHeaders()[1] + 10, 12); // bzip2
        assertMessage(archive() + ": entry 'b.bin'", "compression method 12", readFails(b, "b.bin"));

        b = sample();
        b.putShort(b.cenHeaders()[1] + 8, 1); // encrypted
        assertMessage(archive() + ": entry 'b.bin'", "encrypted", readFails(b, "b.bin"));
    }

    @Test
    void missingLocalHeaderIsNamed() throws IOException {
        ZipBuilder.Built b = sample();
        b.putInt(b.localHeaders()[1], 0x12345678);
        assertMessage(archive() + ": entry 'b.bin' at offset " + b.localHeaders()[1], "no local header",
                readFails(b, "b.bin"));
    }

    @Test
    void aNameRepeatedFarTooOftenStillOpensAtOnce() throws IOException {
        // 200,000 entries of one name: with a naive hash index each insert would walk all the earlier ones
        // (2 * 10^10 comparisons), an open that never ends. The class timeout turns such a hang into a failure.
        ZipBuilder b = new ZipBuilder();
        for (int i = 0; i < 200_000; i++) {
            b.add("same", new byte[0], STORED);
        }
        try (ConcurrentZipFile zip = ConcurrentZipFile.of(MemorySegment.ofArray(b.build().bytes()), "dup.zip")) {
            assertEquals(200_000, zip.size());
            assertEquals(0, zip.getEntry("same").index());
        }
    }

    @Test
    void multiDiskArchivesAreRefused() throws IOException {
        ZipBuilder.Built b = sample();
        b.putShort(b.endRecord() + 4, 1);
        assertMessage(archive() + ": at offset " + b.endRecord(), "several disks", openFails(b));
    }

    @Test
    void randomBytesAndRandomDamageEndInZipExceptions() throws IOException {
        SplittableRandom r = new SplittableRandom(Long.getLong("sluice.test.seed", 20261122L));
        for (int i = 0; i < 300; i++) {
            byte[] junk = new byte[r.nextInt(4000)];
            r.nextBytes(junk);
            if (junk.length >= 22 && r.nextBoolean()) {
                // An end record at the end, so the parser gets past the first check.
                int at = junk.length - 22;
                junk[at] = 0x50;
                junk[at + 1] = 0x4b;
                junk[at + 2] = 5;
                junk[at + 3] = 6;
            }
            assertEquals(0, FuzzTarget.exercise(junk));
        }
        byte[] good = sample().bytes();
        for (int i = 0; i < 3000; i++) {
            byte[] damaged = good.clone();
            for (int k = r.nextInt(1, 4); k > 0; k--) {
                damaged[r.nextInt(damaged.length)] = (byte) r.nextInt(256);
            }
            FuzzTarget.exercise(damaged);
        }
        assertTrue(FuzzTarget.exercise(good) == 3, "the undamaged sample reads");
    }
}
