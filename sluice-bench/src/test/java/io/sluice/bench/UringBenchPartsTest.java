package io.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sluice.Engine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The parts of the io_uring section's write and virtual-thread rows, on small files. */
class UringBenchPartsTest {
    private static final int BLOCK = 4096;
    private static final long SIZE = 1 << 20;
    private static final long NANOS = 30_000_000L;

    @TempDir
    Path dir;

    private Path zeros() throws IOException {
        return Files.write(Files.createTempFile(dir, "w", ".bin"), new byte[(int) SIZE]);
    }

    /**
     * Measures {@code c} writing with {@code threads} threads over a file of zeros and checks what landed: every
     * block is untouched or holds the contender's mark (no torn or stray bytes), and each thread's first position
     * holds the mark.
     */
    private void writesLand(Path file, RandomWriteContender c, int threads) throws Exception {
        Workload w = new Workload(Workload.RANDWRITE, BLOCK);
        Sample s;
        try (c) {
            s = c.measure(c.adapt(w), threads, NANOS);
        }
        assertTrue(s.opsPerMs() > 0, () -> c.name() + ": " + s);
        assertEquals(s.opsPerMs() * BLOCK * 1000, s.bytesPerSec(), s.bytesPerSec() * 1e-9);
        byte[] bytes = Files.readAllBytes(file);
        assertEquals(SIZE, bytes.length, "writes over the file must not change its length");
        int marked = 0;
        for (int b = 0; b < SIZE / BLOCK; b++) {
            byte first = bytes[b * BLOCK];
            assertTrue(first == 0 || first == c.mark(), "block " + b + " starts with " + first);
            for (int i = 1; i < BLOCK; i++) {
                assertEquals(first, bytes[b * BLOCK + i], "torn block " + b + " at byte " + i);
            }
            marked += first == c.mark() ? 1 : 0;
        }
        assertTrue(marked > 0, c.name() + " wrote nothing");
        for (int t = 0; t < threads; t++) {
            long first = w.offsets(SIZE, t, threads)[0];
            assertEquals(c.mark(), bytes[(int) first], "thread " + t + "'s first write, at " + first);
        }
    }

    @Test
    void channelWritesLandWhereTheWorkloadSays() throws Exception {
        Path f = zeros();
        writesLand(f, RandomWriteContender.channel(f, SIZE), 2);
    }

    @Test
    void uringWritesLandOneAtATimeAndInBatches() throws Exception {
        assumeTrue(Engine.IO_URING.isAvailable(), () -> Engine.IO_URING.unavailabilityCause().orElse(""));
        Path f = zeros();
        writesLand(f, RandomWriteContender.uring(f, SIZE), 2);
        Path g = zeros();
        RandomWriteContender batch = RandomWriteContender.uringBatch(g, SIZE, 8);
        assertEquals(8, batch.adapt(new Workload(Workload.RANDWRITE, BLOCK)).depth());
        assertEquals("fio-io_uring", batch.fioReference());
        writesLand(g, batch, 3);
    }

    @Test
    void autoWritesLandWhereTheWorkloadSays() throws Exception {
        Path f = zeros();
        RandomWriteContender auto = RandomWriteContender.auto(f, SIZE);
        assertEquals("AUTO", auto.name());
        assertEquals("fio-psync", auto.fioReference());
        writesLand(f, auto, 2);
    }

    @Test
    void virtualThreadReadsCountEveryThreadsOperations() throws Exception {
        Path f = zeros();
        Workload w = new Workload(Workload.RANDREAD_VTHREADS, BLOCK, 1, false);
        assertTrue(w.virtualThreads() && w.isRandom() && !w.writes());
        try (ChannelContender c = ChannelContender.jdkAligned(f, SIZE)) {
            Sample s = c.measure(w, 25, NANOS);
            assertTrue(s.opsPerMs() > 0 && Double.isFinite(s.opsPerMs()), s::toString);
        }
    }

    /**
     * A sample shorter than a thread's start-up still holds work: every thread reads at least one stride, so no row
     * reports 0 ops/ms because the sample ended before its threads ran (a 10 ms `bench zip` row did, on a busy CI).
     */
    @Test
    void aSampleEndingBeforeItsThreadsRunStillMeasuresSomeReads() throws Exception {
        Path f = zeros();
        try (ChannelContender c = ChannelContender.jdkAligned(f, SIZE)) {
            for (int i = 0; i < 20; i++) {
                Sample s = c.measure(new Workload(Workload.RANDREAD, BLOCK), 2, 0);
                assertTrue(s.opsPerMs() > 0 && Double.isFinite(s.opsPerMs()), s::toString);
            }
        }
    }

    @Test
    void theWorkloadChoosesVirtualOrPlatformThreads() throws Exception {
        java.util.Set<Boolean> virtual = java.util.concurrent.ConcurrentHashMap.newKeySet();
        JavaContender probe = new JavaContender(SIZE) {
            @Override
            Reader reader(int blockSize) {
                return pos -> {
                    virtual.add(Thread.currentThread().isVirtual());
                    return blockSize;
                };
            }

            @Override
            public String name() {
                return "probe";
            }

            @Override
            public String fioReference() {
                return null;
            }

            @Override
            public void close() {
            }
        };
        probe.measure(new Workload(Workload.RANDREAD_VTHREADS, BLOCK, 1, false), 25, 5_000_000L);
        assertEquals(java.util.Set.of(true), virtual);
        virtual.clear();
        probe.measure(new Workload(Workload.RANDREAD, BLOCK), 2, 5_000_000L);
        assertEquals(java.util.Set.of(false), virtual);
    }

    @Test
    void baselinesOfTheSection() {
        assertEquals("CHANNEL", UringBench.baseline(new Workload(Workload.RANDREAD, BLOCK, 32, false)));
        assertEquals("jdk-direct", UringBench.baseline(new Workload(Workload.RANDREAD_VTHREADS, BLOCK, 1, true)));
        assertEquals("jdk-aligned", UringBench.baseline(new Workload(Workload.RANDREAD_VTHREADS, BLOCK, 1, false)));
        assertEquals("jdk-aligned", UringBench.baseline(new Workload(Workload.RANDWRITE, BLOCK)));
    }

    @Test
    void fioWriteJobsWriteTheSameFileAndReadTheWriteSection() throws Exception {
        FioContender fio = new FioContender("io_uring", Path.of("/tmp/x"), 8L << 20, List.of("--registerfiles"), 16);
        Workload w = fio.adapt(new Workload(Workload.RANDWRITE, BLOCK));
        List<String> cmd = fio.command(w, 2, 200_000_000L);
        for (String arg : new String[] {"--rw=randwrite", "--size=" + (8L << 20), "--numjobs=2", "--bs=4096",
            "--iodepth=16", "--registerfiles", "--invalidate=0", "--filename=/tmp/x"}) {
            assertTrue(cmd.contains(arg), arg + " in " + cmd);
        }
        String out = "{\"jobs\": [{\"read\" : {\"bw_bytes\" : 0, \"iops\" : 0.0}, "
                + "\"write\" : {\"bw_bytes\" : 4096000, \"iops\" : 1000.0}}]}";
        Sample s = FioContender.parse(out, cmd, "write");
        assertEquals(1.0, s.opsPerMs(), 1e-9);
        assertEquals(4096000.0, s.bytesPerSec(), 1e-3);

        assumeTrue(FioContender.version() != null, "fio is not installed");
        Path f = zeros();
        Sample real = new FioContender("psync", f, SIZE).measure(new Workload(Workload.RANDWRITE, BLOCK), 1, NANOS);
        assertTrue(real.opsPerMs() > 0, real::toString);
        byte[] bytes = Files.readAllBytes(f);
        assertEquals(SIZE, bytes.length, "fio must overwrite the file, not grow it");
        int nonZero = 0;
        for (byte b : bytes) {
            nonZero += b != 0 ? 1 : 0;
        }
        assertTrue(nonZero > BLOCK, "fio's writes did not land: " + nonZero + " non-zero bytes");
    }
}
