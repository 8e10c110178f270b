package io.sluice;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@link FileMapping}: the whole file as one segment, past 4 GiB, from any thread, until closed. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FileMappingTest {
    @TempDir
    Path dir;

    @Test
    void theSegmentIsTheWholeFileReadOnly() throws IOException {
        byte[] data = new byte[100_003];
        new SplittableRandom(1).nextBytes(data);
        Path p = Files.write(dir.resolve("f"), data);
        try (FileMapping m = FileMapping.open(p)) {
            assertEquals(data.length, m.size());
            assertEquals(p, m.path());
            assertTrue(m.segment().isReadOnly());
            assertTrue(m.segment().isMapped());
            assertArrayEquals(data, m.segment().toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void filesPastFourGiBAreOneSegment() throws IOException {
        Path p = dir.resolve("sparse");
        long fourGiB = 4L << 30;
        try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
            raf.setLength(fourGiB + 10);
            raf.seek(fourGiB + 2);
            raf.write("past".getBytes(StandardCharsets.US_ASCII));
        }
        try (FileMapping m = FileMapping.open(p)) {
            assertEquals(fourGiB + 10, m.segment().byteSize());
            assertEquals(0x7473_6170L, m.segment().get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(
                    java.nio.ByteOrder.LITTLE_ENDIAN), fourGiB + 2) & 0xFFFF_FFFFL, "\"past\" at 4 GiB + 2");
            assertEquals(0, m.segment().get(ValueLayout.JAVA_BYTE, fourGiB - 1));
        }
    }

    @Test
    void anyThreadReadsItAndCloseEndsIt() throws Exception {
        byte[] data = "0123456789".repeat(1000).getBytes(StandardCharsets.US_ASCII);
        Path p = Files.write(dir.resolve("f"), data);
        FileMapping m = FileMapping.open(p);
        AtomicLong sum = new AtomicLong();
        Thread t = Thread.ofPlatform().start(() -> {
            for (long i = 0; i < m.size(); i++) {
                sum.addAndGet(m.segment().get(ValueLayout.JAVA_BYTE, i) - '0');
            }
        });
        t.join();
        assertEquals(45 * 1000, sum.get());
        assertTrue(m.isOpen());
        MemorySegment s = m.segment();
        m.close();
        assertFalse(m.isOpen());
        assertThrows(IllegalStateException.class, () -> s.get(ValueLayout.JAVA_BYTE, 0), "unmapped");
        m.close(); // again: nothing
        assertTrue(m.toString().contains("closed"), m.toString());
    }

    @Test
    void anEmptyFileIsAnEmptySegment() throws IOException {
        Path p = Files.createFile(dir.resolve("empty"));
        try (FileMapping m = FileMapping.open(p)) {
            assertEquals(0, m.size());
            assertEquals(0, m.segment().byteSize());
        }
    }

    @Test
    void filesWithoutAKnownLengthAndMissingFilesAreRefused() throws Exception {
        for (Path p : ParallelScanTest.filesWithoutAKnownLength(dir)) {
            IOException e = assertThrows(IOException.class, () -> FileMapping.open(p).close(), p::toString);
            assertTrue(e.getMessage().contains(p.toString()), e.getMessage());
        }
        assertThrows(java.nio.file.NoSuchFileException.class, () -> FileMapping.open(dir.resolve("missing")));
    }
}
