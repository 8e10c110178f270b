package io.sluice.zip;

import static io.sluice.zip.ConcurrentZipFileTest.assertMessage;
import static io.sluice.zip.ConcurrentZipFileTest.text;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Entries of 2 GiB and more, whose bytes no {@code ByteBuffer} can view: they are read, verified and extracted like
 * any other. The archives are sparse files (zeros are holes), so each costs little disk and the test a few seconds.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HugeEntryTest {
    private static final int STORED = 0;
    private static final int DEFLATED = 8;
    /** A stored deflate block holds at most this many bytes, after a 5-byte header (RFC 1951, 3.2.4). */
    private static final int BLOCK = 65535;

    @TempDir
    Path dir;

    @Test
    void aStoredEntryOfMoreThan2GiBVerifies() throws IOException {
        // (sluice-cli's ZipCommandTest damages one byte of such an entry and sees 'zip test' find it.)
        long size = 2_200_000_000L;
        Path p = dir.resolve("big-stored.zip");
        write(p, "big.bin", STORED, size, size, crc(size, Map.of()), Map.of());
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(p)) {
            ConcurrentZipFile.Entry e = zip.getEntry("big.bin");
            zip.verify(e);
            assertMessage(p + ": entry 'big.bin' at offset 0", "do not fit in one array",
                    assertThrows(ZipException.class, () -> zip.readAllBytes(e)));
            assertThrows(IllegalArgumentException.class, () -> zip.mappedBytes(e));
        }
    }

    @Test
    void aDeflatedEntryWhoseCompressedBytesPass2GiBStreams() throws IOException {
        // Stored deflate blocks over zeros: a real deflate stream of more than 2^31 bytes, mostly holes on disk.
        int blocks = 32768;
        long csize = (long) blocks * (BLOCK + 5);
        long size = (long) blocks * BLOCK;
        byte[] marker = "in the middle of nowhere".getBytes(StandardCharsets.US_ASCII);
        long markerAt = 30_000L * BLOCK + 1234; // in block 30000, past 2^31 of compressed bytes
        Map<Long, byte[]> pieces = new TreeMap<>();
        for (int k = 0; k < blocks; k++) {
            pieces.put((long) k * (BLOCK + 5), new byte[] {(byte) (k == blocks - 1 ? 1 : 0), -1, -1, 0, 0});
        }
        pieces.put(30_000L * (BLOCK + 5) + 5 + 1234, marker);
        Path p = dir.resolve("big-deflated.zip");
        write(p, "big.txt", DEFLATED, size, csize, crc(size, Map.of(markerAt, marker)), pieces);
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(p);
             InputStream in = zip.getInputStream(zip.getEntry("big.txt"))) {
            assertEquals(csize, zip.getEntry("big.txt").getCompressedSize());
            byte[] buf = new byte[1 << 16];
            long at = 0;
            byte[] seen = new byte[marker.length];
            for (int n; (n = in.read(buf)) >= 0; at += n) {
                long from = Math.max(at, markerAt);
                long to = Math.min(at + n, markerAt + marker.length);
                if (from < to) {
                    System.arraycopy(buf, (int) (from - at), seen, (int) (from - markerAt), (int) (to - from));
                }
            }
            // The stream checked the CRC-32 and the size as it ended.
            assertEquals(size, at);
            assertArrayEquals(marker, seen);
        }
    }

    @Test
    void aDeflatedEntryWithMoreThan2GiBOfRoomIsReadAndExtracted() throws IOException {
        // The deflate stream ends long before its compressed size does; readers stop at its end, as the JDK's do.
        byte[] content = text(1 << 20, 5);
        byte[] deflated = ZipBuilder.deflate(content);
        long csize = (1L << 31) + 4096;
        Path p = dir.resolve("roomy.zip");
        write(p, "roomy.txt", DEFLATED, content.length, csize, (int) ZipBuilder.crc(content), Map.of(0L, deflated));
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(p)) {
            ConcurrentZipFile.Entry e = zip.getEntry("roomy.txt");
            assertArrayEquals(content, zip.readAllBytes(e));
            zip.verify(e);
            Path out = dir.resolve("out");
            assertEquals(1, zip.extractTo(out, ExtractLimits.NONE));
            assertArrayEquals(content, Files.readAllBytes(out.resolve("roomy.txt")));
        }
    }

    /** The CRC-32 of {@code size} zero bytes with {@code pieces} (position to bytes) written over them. */
    private static int crc(long size, Map<Long, byte[]> pieces) {
        CRC32 crc = new CRC32();
        byte[] window = new byte[1 << 20];
        for (long at = 0; at < size; at += window.length) {
            int n = (int) Math.min(window.length, size - at);
            Arrays.fill(window, (byte) 0);
            for (var piece : pieces.entrySet()) {
                long from = Math.max(at, piece.getKey());
                long to = Math.min(at + n, piece.getKey() + piece.getValue().length);
                if (from < to) {
                    System.arraycopy(piece.getValue(), (int) (from - piece.getKey()), window, (int) (from - at),
                            (int) (to - from));
                }
            }
            crc.update(window, 0, n);
        }
        return (int) crc.getValue();
    }

    /**
     * Writes a Zip64 archive of one entry whose {@code csize} bytes of data are zeros (a hole) but for
     * {@code pieces}, given as positions in the data.
     */
    private static void write(Path p, String name, int method, long size, long csize, int crc,
            Map<Long, byte[]> pieces) throws IOException {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        ByteBuffer local = le(30 + n.length + 20).putInt(0x04034b50).putShort((short) 45).putShort((short) 0)
                .putShort((short) method).putInt(0x5A210000).putInt(crc).putInt(-1).putInt(-1)
                .putShort((short) n.length).putShort((short) 20).put(n)
                .putShort((short) 1).putShort((short) 16).putLong(size).putLong(csize);
        long data = local.capacity();
        long cen = data + csize;
        ByteBuffer central = le(46 + n.length + 20).putInt(0x02014b50).putShort((short) 45).putShort((short) 45)
                .putShort((short) 0).putShort((short) method).putInt(0x5A210000).putInt(crc).putInt(-1).putInt(-1)
                .putShort((short) n.length).putShort((short) 20).putShort((short) 0).putShort((short) 0)
                .putShort((short) 0).putInt(0).putInt(0).put(n)
                .putShort((short) 1).putShort((short) 16).putLong(size).putLong(csize);
        long z64 = cen + central.capacity();
        ByteBuffer end = le(56 + 20 + 22)
                .putInt(0x06064b50).putLong(44).putShort((short) 45).putShort((short) 45).putInt(0).putInt(0)
                .putLong(1).putLong(1).putLong(central.capacity()).putLong(cen)
                .putInt(0x07064b50).putInt(0).putLong(z64).putInt(1)
                .putInt(0x06054b50).putShort((short) 0).putShort((short) 0).putShort((short) -1).putShort((short) -1)
                .putInt(-1).putInt(-1).putShort((short) 0);
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            writeFully(ch, local, 0);
            for (var piece : pieces.entrySet()) {
                writeFully(ch, ByteBuffer.wrap(piece.getValue()), data + piece.getKey());
            }
            writeFully(ch, central, cen);
            writeFully(ch, end, z64);
        }
    }

    private static ByteBuffer le(int capacity) {
        return ByteBuffer.allocate(capacity).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static void writeFully(FileChannel ch, ByteBuffer b, long position) throws IOException {
        b.rewind();
        while (b.hasRemaining()) {
            position += ch.write(b, position);
        }
    }
}
