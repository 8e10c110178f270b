package io.sluice;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ParallelScan#scanPadded}: segments readable {@value ParallelScan#PADDING} bytes past their end, with the
 * file's next bytes there and zeros past its end; and the one mapping per scan that makes tiny segments cheap.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ParallelScanPaddedTest {
    @TempDir
    Path dir;

    /** One padded segment as the visitor saw it: all its bytes, padding included. */
    record Seen(long position, long length, byte[] bytes) {
    }

    /**
     * Scans {@code p} padded and checks, inside each visit, that a long loads at every offset below the length and
     * a 64-byte vector-sized read at every offset of the last word.
     */
    static List<Seen> padded(ParallelScan scan, Path p) throws IOException {
        List<Seen> all = scan.scanPadded(p, ArrayList::new, (List<Seen> acc, MemorySegment records, long length,
                long position) -> {
            assertTrue(records.isReadOnly(), "segments are read-only");
            assertTrue(length > 0, "no empty segments");
            assertEquals(length + ParallelScan.PADDING, records.byteSize(), "length plus padding, at " + position);
            for (long i = 0; i < length; i++) {
                records.get(Swar.WORD, i); // at every offset, the last one included: no bounds failure
            }
            records.asSlice(length - 1, ParallelScan.PADDING).get(ValueLayout.JAVA_BYTE, 63);
            acc.add(new Seen(position, length, records.toArray(ValueLayout.JAVA_BYTE)));
        }, (a, b) -> {
            a.addAll(b);
            return a;
        });
        all.sort(Comparator.comparingLong(Seen::position));
        return all;
    }

    /**
     * Checks that the segments hold whole records, cover the file in order, and that each one's padding is the file's
     * next bytes, then zeros past its end.
     */
    static void assertPaddedWholeRecords(byte[] file, List<Seen> segs, byte delimiter, String what) {
        long at = 0;
        for (Seen s : segs) {
            assertEquals(at, s.position(), "segments follow each other without gap or overlap: " + what);
            assertTrue(at == 0 || file[(int) at - 1] == delimiter, "segment at " + at + " starts inside a record: "
                    + what);
            long end = at + s.length();
            assertTrue(end == file.length || file[(int) end - 1] == delimiter,
                    "segment at " + at + " ends inside a record, at " + end + ": " + what);
            byte[] expected = new byte[(int) s.length() + ParallelScan.PADDING];
            System.arraycopy(file, (int) at, expected, 0, (int) Math.min(expected.length, file.length - at));
            assertArrayEquals(expected, s.bytes(), "records, then the file's next bytes, then zeros, at " + at
                    + ": " + what);
            at = end;
        }
        assertEquals(file.length, at, "segments reach the end of the file: " + what);
    }

    static List<ParallelScan> variants(byte delimiter, int threads, long segment) {
        ParallelScan s = ParallelScan.delimitedBy(delimiter).withThreads(threads).withSegmentSize(segment);
        return List.of(s, s.withReads(4096));
    }

    @Test
    void everyFileOfZeroToSeventeenBytesWithAndWithoutAFinalNewline() throws IOException {
        SplittableRandom rnd = new SplittableRandom(17);
        for (int size = 0; size <= 17; size++) {
            for (int kind = 0; kind < 4; kind++) {
                byte[] file = new byte[size];
                for (int i = 0; i < size; i++) {
                    // 0: no newline at all; 1: one in three bytes; 2: every byte; 3: random bytes, 0x80 and 0xFF
                    file[i] = switch (kind) {
                        case 0 -> (byte) ('a' + rnd.nextInt(26));
                        case 1 -> rnd.nextInt(3) == 0 ? (byte) '\n' : (byte) ('a' + rnd.nextInt(26));
                        case 2 -> (byte) '\n';
                        default -> new byte[] {(byte) 0x80, (byte) 0xFF, 0, 'x', '\n'}[rnd.nextInt(5)];
                    };
                }
                if (kind == 1 && size > 0 && rnd.nextBoolean()) {
                    file[size - 1] = 'z'; // no final newline
                }
                Path p = Files.write(dir.resolve("f"), file);
                for (int threads = 1; threads <= 2; threads++) {
                    for (long segment : new long[] {1, 2, 3, 5, 8, 0}) {
                        for (ParallelScan scan : variants((byte) '\n', threads, segment)) {
                            String what = size + " bytes, kind " + kind + ", " + scan;
                            List<Seen> segs = padded(scan, p);
                            if (size == 0) {
                                assertEquals(List.of(), segs, what);
                            }
                            assertPaddedWholeRecords(file, segs, (byte) '\n', what);
                        }
                    }
                }
            }
        }
    }

    @RepeatedTest(30)
    void randomFilesAgreeWithAPlainScan(RepetitionInfo rep) throws IOException {
        SplittableRandom rnd = new SplittableRandom(Long.getLong(PositionalFileContract.SEED_PROPERTY, 91)
                + rep.getCurrentRepetition());
        byte delimiter = rnd.nextBoolean() ? (byte) '\n' : (byte) rnd.nextInt(256);
        // around the stretch at the end that is copied rather than mapped
        int size = switch (rnd.nextInt(4)) {
            case 0 -> rnd.nextInt(300);
            case 1 -> ParallelScan.PADDED_TAIL + rnd.nextInt(-200, 200);
            default -> rnd.nextInt(400_000);
        };
        double density = new double[] {0, 0.00001, 0.001, 0.05, 0.9}[rnd.nextInt(5)];
        byte[] file = ParallelScanTest.delimitedBytes(rnd, size, delimiter, density);
        Path p = Files.write(dir.resolve("f"), file);
        int threads = 1 + rnd.nextInt(3);
        long segment = rnd.nextBoolean() ? 1 + rnd.nextInt(70_000) : 0;
        int reads = rnd.nextBoolean() ? 0 : 4096 + rnd.nextInt(8192);
        ParallelScan scan = ParallelScan.delimitedBy(delimiter).withThreads(threads).withSegmentSize(segment)
                .withReads(reads);
        String what = size + " bytes, delimiter " + (delimiter & 0xFF) + ", density " + density + ", " + scan;
        List<Seen> segs = padded(scan, p);
        assertPaddedWholeRecords(file, segs, delimiter, what);
        List<String> records = new ArrayList<>();
        for (Seen s : segs) {
            records.addAll(ParallelScanTest.referenceRecords(Arrays.copyOf(s.bytes(), (int) s.length()), delimiter));
        }
        assertEquals(ParallelScanTest.referenceRecords(file, delimiter), records, what);
    }

    @Test
    void theRecordsAtTheEndAreCopiedAndTheRestHandedOverMapped() throws IOException {
        // 1 MiB of 16-byte lines: one segment mapped up to the last 64 KiB, which is copied, padded with zeros.
        byte[] file = "0123456789abcde\n".repeat(1 << 16).getBytes(StandardCharsets.US_ASCII);
        Path p = Files.write(dir.resolve("f"), file);
        List<long[]> seen = ParallelScan.lines().withThreads(1).withSegmentSize(4L << 20).scanPadded(p,
                ArrayList::new, (List<long[]> acc, MemorySegment records, long length, long position) ->
                        acc.add(new long[] {position, length, records.isMapped() ? 1 : 0}), (a, b) -> a);
        assertEquals(2, seen.size());
        long tail = file.length - ParallelScan.PADDED_TAIL;
        assertArrayEquals(new long[] {0, tail, 1}, seen.get(0), "the bulk, mapped");
        assertArrayEquals(new long[] {tail, ParallelScan.PADDED_TAIL, 0}, seen.get(1), "the tail, copied");
    }

    @Test
    void aFinalRecordLongerThanAnyBufferIsCopiedWholeWithItsPadding() throws IOException {
        // A sparse file of zeros: no newline, so one record longer than the largest buffer, ending the file.
        Path p = dir.resolve("sparse");
        long size = ParallelScan.MAX_READ_BUFFER + 12_345;
        try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
            raf.setLength(size);
            raf.seek(size - 3);
            raf.write("end".getBytes(StandardCharsets.US_ASCII));
        }
        for (ParallelScan scan : List.of(ParallelScan.lines().withThreads(2),
                ParallelScan.lines().withReads(1 << 20))) {
            long[] seen = scan.scanPadded(p, () -> new long[] {-1, 0, 0}, (acc, records, length, position) -> {
                acc[0] = position;
                acc[1] = length;
                acc[2] = records.get(Swar.WORD, length - 3); // "end" and five bytes of zero padding
            }, (a, b) -> a[0] >= 0 ? a : b);
            assertArrayEquals(new long[] {0, size, 0x64_6e65L}, seen, scan.toString());
        }
    }

    @Test
    void aFileCutIntoManyTinySegmentsIsScannedRight() throws IOException {
        // 4 MB of lines in 100-byte segments: 40,000 segments, which once took a mapping each.
        StringBuilder b = new StringBuilder();
        SplittableRandom rnd = new SplittableRandom(3);
        long expectedSum = 0;
        int lines = 0;
        while (b.length() < 4_000_000) {
            int v = rnd.nextInt(1000);
            expectedSum += v;
            lines++;
            b.append("station").append(rnd.nextInt(50)).append(';').append(v).append('\n');
        }
        Path p = Files.writeString(dir.resolve("f"), b, StandardCharsets.US_ASCII);
        // one mapping per thread, or (a window of 64 KiB) a new one every 655 segments
        for (int run = 0; run < 4; run++) {
            int threads = 1 + run % 2;
            ParallelScan scan = ParallelScan.lines().withThreads(threads).withSegmentSize(100)
                    .withWindow(run < 2 ? ParallelScan.WINDOW : 64 << 10);
            long[] plain = scan.scan(p, () -> new long[2], (acc, records, position) -> {
                acc[0] += ParallelScan.count(records, (byte) '\n');
                acc[1] += sumValues(records, records.byteSize());
            }, ParallelScanPaddedTest::add);
            long[] pad = scan.scanPadded(p, () -> new long[2], (acc, records, length, position) -> {
                acc[0] += ParallelScan.count(records.asSlice(0, length), (byte) '\n');
                acc[1] += sumValues(records, length);
            }, ParallelScanPaddedTest::add);
            assertArrayEquals(new long[] {lines, expectedSum}, plain, "scan, " + scan);
            assertArrayEquals(new long[] {lines, expectedSum}, pad, "scanPadded, " + scan);
        }
    }

    static long[] add(long[] a, long[] b) {
        a[0] += b[0];
        a[1] += b[1];
        return a;
    }

    /** The sum of the numbers after ';' in {@code [0, length)}. */
    static long sumValues(MemorySegment records, long length) {
        long sum = 0;
        long v = -1;
        for (long i = 0; i < length; i++) {
            byte c = records.get(ValueLayout.JAVA_BYTE, i);
            if (c == ';') {
                v = 0;
            } else if (c == '\n') {
                sum += v;
                v = -1;
            } else if (v >= 0) {
                v = v * 10 + c - '0';
            }
        }
        return sum;
    }

    /**
     * As {@link ParallelScanTest#scanCutting}, padded: the visitor cuts the file to 0 on its first visit, then reads.
     */
    static long scanCuttingPadded(Path p, boolean cut, int reads) throws IOException {
        return ParallelScan.lines().withThreads(1).withSegmentSize(1 << 14).withReads(reads).scanPadded(p,
                () -> new long[1], (acc, records, length, position) -> {
                    if (cut && position == 0) {
                        try (FileChannel cutter = FileChannel.open(p, StandardOpenOption.WRITE)) {
                            cutter.truncate(0);
                        }
                    }
                    acc[0] += records.get(Swar.WORD, 0) + records.get(Swar.WORD, length - 1);
                }, (a, b) -> {
                    a[0] += b[0];
                    return a;
                })[0];
    }

    @Test
    void aFileCutByAnotherProcessDuringAPaddedScanFailsWithAnIOException() throws IOException {
        byte[] lines = "x\n".repeat(100_000).getBytes(StandardCharsets.US_ASCII);
        Path p = Files.write(dir.resolve("f"), lines);
        // mapped: SIGBUS in the visitor's loads or in the copy of the last records
        ParallelScanTest.assertCutFailure(p, () -> scanCuttingPadded(p, true, 0));
        // read: the next read finds the file ended early
        Files.write(p, lines);
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> scanCuttingPadded(p, true, 4096));
        assertTrue(e.getMessage().contains(p.toString()), e.getMessage());
    }

    @Test
    void aFileCutDuringACompiledPaddedScanFailsWithAnIOException() throws IOException {
        byte[] lines = "x\n".repeat(50_000).getBytes(StandardCharsets.US_ASCII);
        Path warm = Files.write(dir.resolve("warm"), lines);
        for (int i = 0; i < 1_500; i++) {
            scanCuttingPadded(warm, false, 0);
        }
        Path p = dir.resolve("f");
        for (int i = 0; i < 3; i++) {
            Files.write(p, lines);
            ParallelScanTest.assertCutFailure(p, () -> scanCuttingPadded(p, true, 0));
        }
    }
}
