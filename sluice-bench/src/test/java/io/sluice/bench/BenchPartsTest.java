package io.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BenchPartsTest {
    @Test
    void byteSizesParseAndFormat() {
        assertEquals(512, ByteSize.parse("512"));
        assertEquals(4096, ByteSize.parse("4k"));
        assertEquals(65536, ByteSize.parse("64KiB"));
        assertEquals(1L << 30, ByteSize.parse("1G"));
        assertEquals(3L << 40, ByteSize.parse("3tb"));
        assertThrows(IllegalArgumentException.class, () -> ByteSize.parse("-1k"));
        assertThrows(IllegalArgumentException.class, () -> ByteSize.parse("k"));
        assertThrows(IllegalArgumentException.class, () -> ByteSize.parse("99999999999t"));
        assertEquals("4 KiB", ByteSize.format(4096));
        assertEquals("1.5 GiB", ByteSize.format(3L << 29));
        assertEquals("100 B", ByteSize.format(100));
    }

    @Test
    void randomOffsetsAreBlockAlignedInsideTheFileAndTheSameForEveryRun() {
        Workload w = new Workload(Workload.RANDREAD, 4096);
        long size = 10L << 20;
        long[] a = w.offsets(size, 0, 2);
        long[] b = w.offsets(size, 0, 2);
        long[] other = w.offsets(size, 1, 2);
        assertEquals(List.of(a.length), List.of(b.length));
        Set<Long> distinct = new HashSet<>();
        for (int i = 0; i < a.length; i++) {
            assertEquals(a[i], b[i]);
            assertEquals(0, a[i] % 4096);
            assertTrue(a[i] >= 0 && a[i] + 4096 <= size);
            distinct.add(a[i]);
        }
        assertEquals(2560, distinct.size(), "64K draws over 2560 blocks should hit every block");
        assertTrue(a[0] != other[0] || a[1] != other[1], "threads must read different sequences");
    }

    @Test
    void sequentialOffsetsGiveEachThreadItsOwnSlice() {
        Workload w = new Workload(Workload.SEQREAD, 1 << 20);
        long size = 8L << 20;
        long[] t0 = w.offsets(size, 0, 2);
        long[] t1 = w.offsets(size, 1, 2);
        assertEquals(4, t0.length);
        assertEquals(0, t0[0]);
        assertEquals(3L << 20, t0[3]);
        assertEquals(4L << 20, t1[0]);
        assertEquals(7L << 20, t1[3]);
    }

    @Test
    void fioJsonIsReadFromTheReadSectionEvenAfterWarnings() throws IOException {
        String out = "fio: something odd\n{\"jobs\": [{\"jobname\": \"sluice\", \"read\" : {\"io_bytes\" : 1, "
                + "\"bw_bytes\" : 2867200000, \"iops\" : 700000.5, \"runtime\" : 200}, \"write\" : {\"bw_bytes\" : 0, "
                + "\"iops\" : 0.0}}]}";
        Sample s = FioContender.parse(out, List.of("fio"));
        assertEquals(700.0005, s.opsPerMs(), 1e-9);
        assertEquals(2867200000.0, s.bytesPerSec(), 1e-3);
        assertThrows(IOException.class, () -> FioContender.parse("{}", List.of("fio")));
    }

    @Test
    void fioSequentialJobsReadTheSameSlicesAsOurThreads() {
        FioContender fio = new FioContender("psync", java.nio.file.Path.of("/tmp/x"), 8L << 20);
        List<String> cmd = fio.command(new Workload(Workload.SEQREAD, 1 << 20), 2, 200_000_000L);
        assertTrue(cmd.contains("--rw=read"), cmd::toString);
        assertTrue(cmd.contains("--size=" + (4L << 20)), cmd::toString);
        assertTrue(cmd.contains("--offset_increment=" + (4L << 20)), cmd::toString);
        assertTrue(cmd.contains("--invalidate=0"), "fio must not drop the page cache: " + cmd);
        List<String> rand = fio.command(new Workload(Workload.RANDREAD, 4096), 1, 200_000_000L);
        assertTrue(rand.contains("--rw=randread") && rand.contains("--numjobs=1") && rand.contains("--bs=4096"),
                rand::toString);
    }

    @Test
    void ioUringIsComparedWithFiosIoUringEngineAtDepthOne(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(FioContender.version() != null, "fio is not installed");
        org.junit.jupiter.api.Assumptions.assumeTrue(io.sluice.Engine.IO_URING.isAvailable(), "no io_uring here");
        java.io.StringWriter log = new java.io.StringWriter();
        Bench bench = new Bench(new Bench.Options(1 << 20, dir, List.of(1), List.of("channel", "io_uring"),
                List.of(4096), 1 << 16, 20_000_000L, 1, true, true, 1), new java.io.PrintWriter(log, true));
        List<Row> rows = bench.run();
        Row uring = rows.stream().filter(r -> r.engine().equals("IO_URING") && r.workload().isRandom())
                .findFirst().orElseThrow();
        assertEquals("fio-io_uring", uring.fioReference());
        Row fio = rows.stream().filter(r -> r.engine().equals("fio-io_uring") && r.workload().isRandom())
                .findFirst().orElseThrow(() -> new AssertionError("no fio io_uring row:\n" + rows));
        assertEquals(1, fio.workload().depth(), "one request per system call, as a blocking read");
        assertTrue(fio.opsPerMs() > 0, fio::toString);
        assertEquals("fio-psync", rows.stream().filter(r -> r.engine().equals("CHANNEL")).findFirst().orElseThrow()
                .fioReference());
        assertTrue(log.toString().contains("(psync, mmap, io_uring)"), log::toString);
        FioContender ring = new FioContender("io_uring", dir.resolve("x"), 8L << 20, List.of("--registerfiles"), 1);
        List<String> cmd = ring.command(ring.adapt(new Workload(Workload.RANDREAD, 4096)), 1, 200_000_000L);
        assertTrue(cmd.contains("--ioengine=io_uring") && cmd.contains("--registerfiles"), cmd::toString);
        assertTrue(cmd.stream().noneMatch(a -> a.startsWith("--iodepth")), "fio's default depth is 1: " + cmd);
    }

    /**
     * The channels section's device references: psync with one job per read in flight (the JDK's pool of blocking
     * threads), io_uring with that many in one queue, both in the asynchronous rows' cell; and the ceiling's ratio
     * printed beside the channels' own.
     */
    @Test
    void theChannelsSectionsFioRowsKeepAsManyReadsInFlightAsTheChannels() {
        java.nio.file.Path f = java.nio.file.Path.of("/tmp/x");
        Workload cell = new Workload(Workload.RANDREAD, 4096, 1, true);
        FioContender psync = FioContender.jobPerRequest(ChannelsBench.FIO_PSYNC, "psync", f, 8L << 20, 32);
        FioContender ring = new FioContender(ChannelsBench.FIO_URING, "io_uring", f, 8L << 20, List.of(), 32);
        assertEquals(32, psync.adapt(cell).depth(), "the channels' cell");
        assertEquals(32, ring.adapt(cell).depth(), "the channels' cell");
        List<String> p = psync.command(psync.adapt(cell), 2, 200_000_000L);
        assertTrue(p.contains("--numjobs=64") && p.contains("--direct=1"), p::toString);
        assertTrue(p.stream().noneMatch(a -> a.startsWith("--iodepth")), p::toString);
        List<String> r = ring.command(ring.adapt(cell), 2, 200_000_000L);
        assertTrue(r.contains("--numjobs=2") && r.contains("--iodepth=32") && r.contains("--direct=1"), r::toString);

        Workload w = cell.withDepth(32);
        List<Row> rows = List.of(
                new Row(AsyncChannelContender.JDK, w, 1, ChannelsBench.FIO_PSYNC, List.of(new Sample(50, 2e8))),
                new Row(AsyncChannelContender.SLUICE, w, 1, ChannelsBench.FIO_URING, List.of(new Sample(75, 3e8))),
                new Row(ChannelsBench.FIO_PSYNC, w, 1, null, List.of(new Sample(60, 2.4e8))),
                new Row(ChannelsBench.FIO_URING, w, 1, null, List.of(new Sample(66, 2.6e8))));
        java.io.StringWriter out = new java.io.StringWriter();
        ChannelsBench.ratios(rows, new java.io.PrintWriter(out));
        assertTrue(out.toString().contains(AsyncChannelContender.SLUICE) && out.toString().contains(": 1.50"),
                out::toString);
        assertTrue(out.toString().contains(ChannelsBench.FIO_URING) && out.toString().contains(": 1.10"),
                out::toString);
    }

    @Test
    void eachCellWithAnAutoRowSaysWhatAutoChose(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.io.StringWriter log = new java.io.StringWriter();
        Bench bench = new Bench(new Bench.Options(1 << 20, dir, List.of(1), List.of("channel", "auto"),
                List.of(4096), 0, 20_000_000L, 1, false, true, 1), new java.io.PrintWriter(log, true));
        bench.run();
        assertTrue(log.toString().contains("\n         AUTO chose: device "), log::toString);
        // Without an AUTO row nothing is said about it.
        java.io.StringWriter plain = new java.io.StringWriter();
        new Bench(new Bench.Options(1 << 20, dir, List.of(1), List.of("channel"), List.of(4096), 0, 20_000_000L, 1,
                false, true, 1), new java.io.PrintWriter(plain, true)).run();
        assertFalse(plain.toString().contains("AUTO chose"), plain::toString);
    }

    @Test
    void mediansSpreadsAndRatios() {
        Workload w = new Workload(Workload.RANDREAD, 1000);
        Row classic = new Row("CLASSIC", w, 1, "fio-psync",
                List.of(new Sample(100, 1e8), new Sample(300, 3e8), new Sample(200, 2e8)));
        Row channel = new Row("CHANNEL", w, 1, "fio-psync",
                List.of(new Sample(400, 4e8), new Sample(400, 4e8)));
        assertEquals(200, classic.opsPerMs());
        assertEquals(200, classic.mbPerSec());
        assertEquals(1.0, classic.spread());
        assertEquals(0.0, channel.spread());
        List<Row> cell = List.of(classic, channel);
        assertEquals(2.0, Report.ratio(cell, channel, "CLASSIC"));
        assertTrue(Double.isNaN(Report.ratio(cell, channel, "fio-psync")));
    }
}
