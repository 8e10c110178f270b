package io.sluice;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.RandomAccessFile;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@link ParallelScan}: segments, record boundaries, claims, failures, and the byte searches. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParallelScanTest {
    @TempDir
    Path dir;

    /** One visited segment: where it starts, its bytes, and which thread saw it. */
    record Seen(long position, byte[] bytes, String thread) {
    }

    /** Every segment a scan visits, in file order. */
    static List<Seen> segments(ParallelScan scan, Path p) throws IOException {
        List<Seen> all = scan.scan(p, ArrayList::new, (List<Seen> acc, MemorySegment records, long position) -> {
            assertTrue(records.isReadOnly(), "segments are read-only");
            acc.add(new Seen(position, records.toArray(ValueLayout.JAVA_BYTE), Thread.currentThread().getName()));
        }, (a, b) -> {
            a.addAll(b);
            return a;
        });
        all.sort(Comparator.comparingLong(Seen::position));
        return all;
    }

    /**
     * Checks that the segments cover the file exactly, in order, without overlap, and that each starts at a record
     * start and ends after a delimiter or at the end of the file.
     */
    /** {@code size} random bytes in which {@code delimiter} stands with the given density and nowhere else. */
    static byte[] delimitedBytes(SplittableRandom rnd, int size, byte delimiter, double density) {
        byte[] file = new byte[size];
        for (int i = 0; i < size; i++) {
            byte b = (byte) rnd.nextInt(256);
            file[i] = rnd.nextDouble() < density ? delimiter : b == delimiter ? (byte) (b + 1) : b;
        }
        return file;
    }

    static void assertWholeRecords(byte[] file, List<Seen> segs, byte delimiter) {
        long at = 0;
        for (Seen s : segs) {
            assertEquals(at, s.position(), "segments must follow each other without gap or overlap");
            assertTrue(s.bytes().length > 0, "no empty segments are visited");
            assertTrue(at == 0 || file[(int) at - 1] == delimiter, "segment at " + at + " starts inside a record");
            long end = at + s.bytes().length;
            assertTrue(end == file.length || file[(int) end - 1] == delimiter,
                    "segment at " + at + " ends inside a record, at " + end);
            assertArrayEquals(java.util.Arrays.copyOfRange(file, (int) at, (int) end), s.bytes(), "bytes at " + at);
            at = end;
        }
        assertEquals(file.length, at, "segments must reach the end of the file");
    }

    /** The records of {@code file}, found the simple way, one byte at a time. */
    static List<String> referenceRecords(byte[] file, byte delimiter) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < file.length; i++) {
            if (file[i] == delimiter) {
                out.add(new String(file, start, i + 1 - start, StandardCharsets.ISO_8859_1));
                start = i + 1;
            }
        }
        if (start < file.length) {
            out.add(new String(file, start, file.length - start, StandardCharsets.ISO_8859_1));
        }
        return out;
    }

    @RepeatedTest(40)
    void randomFilesSplitIntoTheSameRecordsAsASingleThreadedReference(RepetitionInfo rep) throws IOException {
        SplittableRandom rnd = new SplittableRandom(Long.getLong(PositionalFileContract.SEED_PROPERTY, 77)
                + rep.getCurrentRepetition());
        byte delimiter = rnd.nextBoolean() ? (byte) '\n' : (byte) rnd.nextInt(256);
        int size = switch (rnd.nextInt(4)) {
            case 0 -> rnd.nextInt(20);
            case 1 -> rnd.nextInt(2000);
            default -> rnd.nextInt(300_000);
        };
        // from no delimiters at all to a delimiter at almost every byte
        double density = new double[] {0, 0.0005, 0.01, 0.2, 0.95}[rnd.nextInt(5)];
        byte[] file = delimitedBytes(rnd, size, delimiter, density);
        Path p = Files.write(dir.resolve("f"), file);
        int threads = 1 + rnd.nextInt(4);
        long segment = rnd.nextBoolean() ? 1 + rnd.nextInt(50_000) : 0;
        // mapped, or read in buffer-fulls that cut segments further
        int reads = rnd.nextBoolean() ? 0 : 4096 + rnd.nextInt(8192);
        ParallelScan scan = ParallelScan.delimitedBy(delimiter).withThreads(threads).withSegmentSize(segment)
                .withReads(reads);
        List<Seen> segs = segments(scan, p);
        String what = size + " bytes, delimiter " + (delimiter & 0xFF) + ", density " + density + ", " + scan;
        assertWholeRecords(file, segs, delimiter);
        List<String> records = new ArrayList<>();
        for (Seen s : segs) {
            records.addAll(referenceRecords(s.bytes(), delimiter));
        }
        assertEquals(referenceRecords(file, delimiter), records, what);
    }

    @Test
    void anEmptyFileIsNeverVisitedAndGivesAFreshAccumulator() throws IOException {
        Path p = Files.createFile(dir.resolve("empty"));
        long[] fresh = {42};
        long[] result = ParallelScan.lines().scan(p, () -> fresh, (acc, r, pos) -> fail("visited"),
                (a, b) -> fail("merged"));
        assertSame(fresh, result);
    }

    @Test
    void aLineLongerThanManySegmentsIsHandedOverWholeOnce() throws IOException {
        String longLine = "x".repeat(10_000) + "\n";
        byte[] file = ("a\nbb\n" + longLine + "c\n" + longLine + "d").getBytes(StandardCharsets.US_ASCII);
        Path p = Files.write(dir.resolve("f"), file);
        for (int threads = 1; threads <= 3; threads++) {
            List<Seen> segs = segments(ParallelScan.lines().withThreads(threads).withSegmentSize(100), p);
            assertWholeRecords(file, segs, (byte) '\n');
            long whole = segs.stream().filter(s -> new String(s.bytes(), StandardCharsets.US_ASCII)
                    .contains(longLine)).count();
            assertEquals(2, whole, "each long line in one segment");
        }
    }

    @Test
    void withoutAFinalDelimiterTheLastRecordRunsToTheEnd() throws IOException {
        byte[] file = "one\ntwo\nthree".getBytes(StandardCharsets.US_ASCII);
        Path p = Files.write(dir.resolve("f"), file);
        List<Seen> segs = segments(ParallelScan.lines().withThreads(2).withSegmentSize(3), p);
        assertWholeRecords(file, segs, (byte) '\n');
        assertEquals("three", new String(segs.getLast().bytes(), StandardCharsets.US_ASCII));
    }

    @Test
    void readsHandOverBufferFullsOfWholeRecordsAndRecordsTooLongForAnyBufferMapped() throws IOException {
        Path p = dir.resolve("f");
        long huge = ParallelScan.MAX_READ_BUFFER + 5000;
        try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
            raf.write("x\ny\n".getBytes(StandardCharsets.US_ASCII));
            raf.setLength(4 + huge);
            raf.seek(4 + huge - 1);
            raf.write('\n');
            // short lines, one line longer than the buffer (which grows for it), short lines
            raf.write(("tail\n".repeat(3000) + "L".repeat(20_000) + "\n" + "tail\n".repeat(1000))
                    .getBytes(StandardCharsets.US_ASCII));
        }
        List<long[]> seen = ParallelScan.lines().withThreads(2).withSegmentSize(1 << 20).withReads(4096)
                .scan(p, ArrayList::new, (List<long[]> acc, MemorySegment records, long pos) -> {
                    assertTrue(records.isReadOnly());
                    acc.add(new long[] {pos, records.byteSize(), records.isMapped() ? 1 : 0});
                }, (a, b) -> {
                    a.addAll(b);
                    return a;
                });
        seen.sort(Comparator.comparingLong(s -> s[0]));
        // the short lines go with the long record that starts within the first buffer-full: mapped, in one piece
        assertArrayEquals(new long[] {0, 4 + huge, 1}, seen.get(0), "the record longer than any buffer, mapped");
        long at = 4 + huge;
        long longest = 0;
        for (long[] s : seen.subList(1, seen.size())) {
            assertEquals(at, s[0]);
            assertEquals(0, s[2], "the rest is read, not mapped");
            longest = Math.max(longest, s[1]);
            at += s[1];
        }
        assertTrue(longest > 20_000 && longest < 30_000, "the buffer grew for the long line: " + longest);
        assertEquals(Files.size(p), at);
        assertThrows(IllegalArgumentException.class, () -> ParallelScan.lines().withReads(4095));
        assertThrows(IllegalArgumentException.class, () -> ParallelScan.lines().withReads(-1));
    }

    @Test
    void aDelimiterAtEveryByteMakesOneByteRecords() throws IOException {
        byte[] file = new byte[10_007];
        java.util.Arrays.fill(file, (byte) 0);
        Path p = Files.write(dir.resolve("f"), file);
        List<Seen> segs = segments(ParallelScan.delimitedBy((byte) 0).withThreads(3).withSegmentSize(7), p);
        assertWholeRecords(file, segs, (byte) 0);
        assertEquals((10_007 + 6) / 7, segs.size(), "every segment is its nominal share");
    }

    @Test
    void aCallersRuleCutsFixedSizeRecords() throws IOException {
        byte[] file = new byte[1005];
        new SplittableRandom(3).nextBytes(file);
        Path p = Files.write(dir.resolve("f"), file);
        ParallelScan.Boundary tens = (f, from, limit) -> Math.min(limit, (from + 9) / 10 * 10);
        List<Seen> segs = segments(ParallelScan.splitBy(tens).withThreads(2).withSegmentSize(33), p);
        long at = 0;
        for (Seen s : segs) {
            assertEquals(at, s.position());
            assertEquals(0, s.position() % 10, "starts on a record");
            at += s.bytes().length;
        }
        assertEquals(1005, at);
    }

    @Test
    void aRuleThatGoesBackwardsIsReported() throws IOException {
        Path p = Files.write(dir.resolve("f"), new byte[100]);
        ParallelScan bad = ParallelScan.splitBy((f, from, limit) -> from - 1).withThreads(1).withSegmentSize(10);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> bad.scan(p, () -> null, (a, r, pos) -> { }, (a, b) -> a));
        assertTrue(e.getMessage().contains("returned 9 for the first record start in [10, "), e.getMessage());
    }

    @Test
    void threadsClaimSegmentsRatherThanTakingEqualShares() throws IOException {
        // The segment at 0 waits until every other segment has been visited. With equal shares its thread would own
        // half the segments and this would never finish; with claims the other thread takes all the rest.
        byte[] file = "0123456789\n".repeat(100).getBytes(StandardCharsets.US_ASCII);
        Path p = Files.write(dir.resolve("f"), file);
        CountDownLatch others = new CountDownLatch(99);
        Set<String> threads = ConcurrentHashMap.newKeySet();
        ParallelScan.lines().withThreads(2).withSegmentSize(11).scan(p, () -> null, (a, records, pos) -> {
            threads.add(Thread.currentThread().getName());
            if (pos == 0) {
                try {
                    assertTrue(others.await(20, TimeUnit.SECONDS), "the other thread did not take the rest");
                } catch (InterruptedException e) {
                    throw new InterruptedIOException();
                }
            } else {
                others.countDown();
            }
        }, (a, b) -> a);
        assertEquals(2, threads.size(), threads.toString());
    }

    @Test
    void theFirstFailureStopsTheScanAndReachesTheCaller() throws IOException {
        Path p = Files.write(dir.resolve("f"), "x\n".repeat(10_000).getBytes(StandardCharsets.US_ASCII));
        AtomicInteger visits = new AtomicInteger();
        AtomicInteger visitsAfter = new AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean failed = new java.util.concurrent.atomic.AtomicBoolean();
        IOException e = assertThrows(IOException.class, () -> ParallelScan.lines().withThreads(2)
                .withSegmentSize(10).scan(p, () -> null, (a, r, pos) -> {
                    if (failed.get()) {
                        // Slow the other thread down after the failure, so that a loaded machine descheduling the
                        // failing thread cannot let it finish the file: only a scan that never stops can.
                        visitsAfter.incrementAndGet();
                        try {
                            Thread.sleep(1);
                        } catch (InterruptedException x) {
                            throw new InterruptedIOException();
                        }
                    }
                    if (visits.incrementAndGet() == 5) {
                        failed.set(true);
                        throw new IOException("bad record at " + pos);
                    }
                }, (a, b) -> a));
        assertTrue(e.getMessage().startsWith("bad record at "), e.getMessage());
        assertTrue(visitsAfter.get() < 1000, "the scan stopped: " + visitsAfter.get()
                + " visits after the failure, of 1995 segments left");
        assertThrows(java.nio.file.NoSuchFileException.class,
                () -> ParallelScan.lines().scan(dir.resolve("missing"), () -> null, (a, r, pos) -> { }, (a, b) -> a));
    }

    @Test
    void anInterruptedCallerGetsInterruptedIOException() throws Exception {
        Path p = Files.write(dir.resolve("f"), "x\n".repeat(1000).getBytes(StandardCharsets.US_ASCII));
        CountDownLatch inside = new CountDownLatch(1);
        Thread caller = Thread.currentThread();
        Thread interrupter = new Thread(() -> {
            try {
                inside.await();
                caller.interrupt();
            } catch (InterruptedException ignored) {
                // the test ends
            }
        });
        interrupter.start();
        try {
            InterruptedIOException e = assertThrows(InterruptedIOException.class, () -> ParallelScan.lines()
                    .withThreads(2).withSegmentSize(10).scan(p, () -> null, (a, r, pos) -> {
                        inside.countDown();
                        try {
                            Thread.sleep(5);
                        } catch (InterruptedException ignored) {
                            fail("workers are never interrupted");
                        }
                    }, (a, b) -> a));
            assertTrue(e.getMessage().contains("interrupted"), e.getMessage());
            assertTrue(Thread.interrupted(), "the interrupt status is kept");
        } finally {
            interrupter.join();
            Thread.interrupted();
        }
    }

    /**
     * Scans {@code p} on one thread in 16 KiB segments; when {@code cut} is set, the visitor cuts the file to 0 on its
     * first visit, as another process could, before it reads what it was handed. Sluice reads when {@code sluiceReads}
     * ({@link ParallelScan#count}); otherwise the visitor touches two bytes itself. One method for warm-up and the
     * real scan, so both run the same compiled code.
     */
    static long scanCutting(Path p, boolean cut, boolean sluiceReads) throws IOException {
        return ParallelScan.lines().withThreads(1).withSegmentSize(1 << 14).scan(p, () -> new long[1],
                (acc, records, position) -> {
                    if (cut && position == 0) {
                        try (FileChannel cutter = FileChannel.open(p, StandardOpenOption.WRITE)) {
                            cutter.truncate(0);
                        }
                    }
                    acc[0] += sluiceReads ? ParallelScan.count(records, (byte) '\n')
                            : records.get(ValueLayout.JAVA_BYTE, 0)
                                    + records.get(ValueLayout.JAVA_BYTE, records.byteSize() - 1);
                }, (a, b) -> {
                    a[0] += b[0];
                    return a;
                })[0];
    }

    static void assertCutFailure(Path p, org.junit.jupiter.api.function.Executable scan) {
        IOException e = assertThrows(IOException.class, scan);
        assertTrue(e.getMessage().contains("SIGBUS") && e.getMessage().contains(p.toString()), e.getMessage());
    }

    @Test
    void aFileCutByAnotherProcessDuringTheScanFailsWithAnIOException() throws IOException {
        byte[] lines = "x\n".repeat(100_000).getBytes(StandardCharsets.US_ASCII);
        Path p = Files.write(dir.resolve("f"), lines);
        assertCutFailure(p, () -> scanCutting(p, true, true));
        Files.write(p, lines);
        assertCutFailure(p, () -> scanCutting(p, true, false));
    }

    @Test
    void aFileCutBeforeAWindowIsMappedSaysItShrank() throws IOException {
        byte[] lines = "x\n".repeat(100_000).getBytes(StandardCharsets.US_ASCII);
        Path p = Files.write(dir.resolve("f"), lines);
        for (int reads : new int[] {0, 4096}) {
            Files.write(p, lines);
            // Each 64 KiB segment is a window of its own, mapped when it is reached: the second one after the cut.
            IOException e = assertThrows(IOException.class, () -> ParallelScan.lines().withThreads(1)
                    .withSegmentSize(64 << 10).withWindow(64 << 10).withReads(reads).scan(p, () -> new long[1],
                            (acc, records, position) -> {
                                if (position == 0) {
                                    try (FileChannel cutter = FileChannel.open(p, StandardOpenOption.WRITE)) {
                                        cutter.truncate(100_000);
                                    }
                                }
                            }, (a, b) -> a));
            assertEquals("scan(path=" + p + ", pos=65536): the file shrank to 100000 bytes during the scan (it had "
                    + lines.length + " when the scan began): another process cut it", e.getMessage());
        }
    }

    @Test
    void aFileCutDuringACompiledScanFailsWithAnIOException() throws IOException {
        byte[] lines = "x\n".repeat(50_000).getBytes(StandardCharsets.US_ASCII);
        Path warm = Files.write(dir.resolve("warm"), lines);
        // Enough visits for the JIT to compile the visitor and the scan; SIGBUS then arrives in compiled code.
        for (int i = 0; i < 1_500; i++) {
            assertEquals(50_000, scanCutting(warm, false, true));
            scanCutting(warm, false, false);
        }
        Path p = dir.resolve("f");
        for (int i = 0; i < 3; i++) {
            Files.write(p, lines);
            assertCutFailure(p, () -> scanCutting(p, true, true));
            Files.write(p, lines);
            assertCutFailure(p, () -> scanCutting(p, true, false));
        }
    }

    /**
     * Files whose size is not their length ({@code /proc}, {@code /sys}), FIFOs, devices and directories: what a scan
     * of them must refuse, rather than report an empty file or block on a FIFO no one writes.
     */
    static List<Path> filesWithoutAKnownLength(Path dir) throws IOException, InterruptedException {
        List<Path> out = new ArrayList<>();
        for (String name : new String[] {"/proc/cpuinfo", "/proc/self/status", "/dev/zero",
                "/sys/kernel/mm/transparent_hugepage/enabled"}) {
            if (Files.isReadable(Path.of(name))) {
                out.add(Path.of(name));
            }
        }
        out.add(NonRegularFiles.fifo(dir.resolve("fifo")));
        out.add(Files.createDirectory(dir.resolve("directory")));
        return out;
    }

    @Test
    void filesWithoutAKnownLengthAreRefusedAtTheStart() throws Exception {
        for (Path p : filesWithoutAKnownLength(dir)) {
            for (ParallelScan scan : List.of(ParallelScan.lines(), ParallelScan.lines().withReads(1 << 20))) {
                IOException e = assertThrows(IOException.class, () -> scan.scan(p, () -> null,
                        (a, records, pos) -> fail("visited " + p), (a, b) -> a), p::toString);
                assertTrue(e.getMessage().contains(p.toString()), e.getMessage());
            }
        }
    }

    @Test
    void positionsPastFourGiBAreRight() throws IOException {
        Path p = dir.resolve("sparse");
        long fourGiB = 4L << 30;
        try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
            raf.setLength(fourGiB + 4096);
            raf.seek(fourGiB - 1);
            raf.write("xyz".getBytes(StandardCharsets.US_ASCII));
        }
        // The hole's zeros delimit one-byte records, so finding boundaries reads almost nothing; the visitor reads
        // only the segment that holds "xyz".
        long[] found = ParallelScan.delimitedBy((byte) 0).withThreads(2).scan(p, () -> new long[] {-1, 0},
                (acc, records, pos) -> {
                    acc[1] += records.byteSize();
                    if (pos <= fourGiB && fourGiB < pos + records.byteSize()) {
                        long y = ParallelScan.indexOf(records, fourGiB - 1 - pos, (byte) 'y');
                        assertEquals(fourGiB - pos, y, "'y' sits at 4 GiB");
                        assertEquals('z', records.get(ValueLayout.JAVA_BYTE, y + 1));
                        acc[0] = pos + y;
                    }
                }, (a, b) -> new long[] {Math.max(a[0], b[0]), a[1] + b[1]});
        assertEquals(fourGiB, found[0]);
        assertEquals(fourGiB + 4096, found[1], "every byte in exactly one segment");
    }

    @Test
    void aRecordCoveringManySegmentsIsSearchedOnceNotOncePerSegment() throws IOException {
        byte[] file = new byte[1 << 20];
        file[file.length - 1] = '\n';
        Path p = Files.write(dir.resolve("f"), file);
        AtomicInteger reads = new AtomicInteger();
        ParallelScan.Boundary counting = (f, from, limit) -> {
            reads.addAndGet((int) (limit - from));
            long at = ParallelScan.indexOf(f.asSlice(0, limit), from, (byte) '\n');
            return at < 0 ? limit : at + 1;
        };
        List<Seen> segs = segments(ParallelScan.splitBy(counting).withThreads(2).withSegmentSize(1000), p);
        assertEquals(1, segs.size());
        // each of the 1048 segments looks at most at its own 1000 bytes, plus one look to the end of the record
        assertTrue(reads.get() <= 3 * file.length, "bytes searched: " + reads.get());
    }

    @Test
    void countAndIndexOfAgreeWithAByteLoopAtEveryAlignment() {
        SplittableRandom rnd = new SplittableRandom(5);
        byte[] data = new byte[5000];
        for (int i = 0; i < data.length; i++) {
            // few values, so each is often there; 0x80 and 0xFF test the sign handling
            data[i] = new byte[] {0, 10, (byte) 0x80, (byte) 0xFF, 1, 127}[rnd.nextInt(6)];
        }
        MemorySegment all = MemorySegment.ofArray(data);
        for (int trial = 0; trial < 2000; trial++) {
            int from = rnd.nextInt(data.length);
            int len = rnd.nextInt(data.length - from + 1);
            MemorySegment s = all.asSlice(from, len);
            byte b = new byte[] {0, 10, (byte) 0x80, (byte) 0xFF, 1, 127, 55}[rnd.nextInt(7)];
            long expected = 0;
            long first = -1;
            int start = len == 0 ? 0 : rnd.nextInt(len + 1);
            for (int i = 0; i < len; i++) {
                if (data[from + i] == b) {
                    expected++;
                    if (first < 0 && i >= start) {
                        first = i;
                    }
                }
            }
            assertEquals(expected, ParallelScan.count(s, b), "count of " + b + " in [" + from + ", +" + len + ")");
            assertEquals(first, ParallelScan.indexOf(s, start, b), "indexOf " + b + " from " + start);
        }
        assertThrows(IndexOutOfBoundsException.class, () -> ParallelScan.indexOf(all, data.length + 1, (byte) 0));
        assertEquals(-1, ParallelScan.indexOf(all, data.length, (byte) 0));
    }

    @Test
    void argumentsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> ParallelScan.lines().withThreads(-1));
        assertThrows(IllegalArgumentException.class, () -> ParallelScan.lines().withSegmentSize(-1));
        assertThrows(NullPointerException.class, () -> ParallelScan.splitBy(null));
        assertEquals(Runtime.getRuntime().availableProcessors(), ParallelScan.lines().threads());
        assertEquals(3, ParallelScan.lines().withThreads(3).threads());
        assertEquals(1L << 20, ParallelScan.lines().withThreads(2).segmentSize(1000));
        assertEquals(64L << 20, ParallelScan.lines().withThreads(2).segmentSize(1L << 40));
        assertEquals(50L << 20, ParallelScan.lines().withThreads(2).segmentSize(1600L << 20));
    }
}
