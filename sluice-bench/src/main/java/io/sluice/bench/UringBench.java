package io.sluice.bench;

import io.sluice.Engine;
import io.sluice.SluiceOption;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The io_uring section: random reads one at a time and in batches, first through a warm page cache, then with
 * O_DIRECT, each beside its baseline (CHANNEL, or FileChannel with O_DIRECT) and fio's psync and io_uring engines
 * running the same job (same file, block size, depth and batch, registered files, O_DIRECT or not).
 *
 * <p>Beside them, seed 004's other tables: many virtual threads making blocking reads through one shared IO_URING
 * file against as many virtual threads reading a pre-opened FileChannel ({@value Workload#RANDREAD_VTHREADS}), and
 * random writes over the cached test file from a few platform threads ({@value Workload#RANDWRITE}): IO_URING one
 * blocking write at a time and in batches, and AUTO one at a time, against FileChannel positional writes, and fio's
 * psync and io_uring engines writing the same way. The writes run last, since they overwrite the test file.
 */
public final class UringBench {
    /** The baseline of the O_DIRECT rows. */
    public static final String DIRECT_BASELINE = ChannelContender.JDK_DIRECT;
    /** Files of the open/read/close rows, written beside the test file. */
    public static final int SMALL_FILES = 64;
    /** Bytes in each file of the open/read/close rows. */
    public static final int SMALL_FILE_SIZE = 1 << 20;

    /**
     * What to run. {@code vthreads}: virtual threads of the {@value Workload#RANDREAD_VTHREADS} rows, 0 for none;
     * {@code writeThreads}: thread counts of the {@value Workload#RANDWRITE} rows, empty for none;
     * {@code openReadClose}: whether to measure the {@value Workload#OPEN_READ_CLOSE} rows; {@code sqpoll}: whether
     * to add the batched reads on an SQPOLL ring, and fio's io_uring with its SQ polling thread, to the warm section.
     */
    public record Options(long fileSize, Path dir, List<Integer> threads, List<Integer> blockSizes, int depth,
                          boolean direct, long sampleNanos, int rounds, boolean fio, int vthreads,
                          List<Integer> writeThreads, boolean openReadClose, boolean sqpoll) {
        /** Reads only: no virtual-thread rows, no writes, no open-read-close, no SQPOLL rows. */
        public Options(long fileSize, Path dir, List<Integer> threads, List<Integer> blockSizes, int depth,
                       boolean direct, long sampleNanos, int rounds, boolean fio) {
            this(fileSize, dir, threads, blockSizes, depth, direct, sampleNanos, rounds, fio, 0, List.of(), false,
                    false);
        }

        /** Without the SQPOLL rows. */
        public Options(long fileSize, Path dir, List<Integer> threads, List<Integer> blockSizes, int depth,
                       boolean direct, long sampleNanos, int rounds, boolean fio, int vthreads,
                       List<Integer> writeThreads, boolean openReadClose) {
            this(fileSize, dir, threads, blockSizes, depth, direct, sampleNanos, rounds, fio, vthreads, writeThreads,
                    openReadClose, false);
        }

        public Options {
            writeThreads = List.copyOf(writeThreads);
        }
    }

    /**
     * The row each workload's ratios are taken against: FileChannel with O_DIRECT for O_DIRECT rows, a plain
     * FileChannel with page-aligned buffers for the virtual-thread reads and the writes, FileChannel open, read, close
     * for the open-read-close rows, CHANNEL otherwise.
     */
    public static String baseline(Workload w) {
        if (w.name().equals(Workload.OPEN_READ_CLOSE)) {
            return OpenReadCloseContender.JDK;
        }
        if (w.direct()) {
            return DIRECT_BASELINE;
        }
        return w.virtualThreads() || w.name().equals(Workload.RANDWRITE) ? ChannelContender.JDK_ALIGNED : "CHANNEL";
    }

    private final Options o;
    private final PrintWriter log;

    public UringBench(Options options, PrintWriter log) {
        this.o = options;
        this.log = log;
    }

    public List<Row> run() throws IOException, InterruptedException {
        String fioVersion = o.fio() ? FioContender.version() : null;
        if (o.fio() && fioVersion == null) {
            log.println("note: fio not found on PATH, so there are no reference rows ('apt-get install fio').");
        }
        log.printf(Locale.ROOT, "sluice bench uring: %s file, random reads of %s, depth %d, threads %s%s; %d rounds of %d ms%n",
                ByteSize.format(o.fileSize()), o.blockSizes().stream().map(ByteSize::format).toList(), o.depth(),
                o.threads(),
                fioVersion == null ? "" : ", " + fioVersion, o.rounds(), o.sampleNanos() / 1_000_000);
        log.printf(Locale.ROOT, "then reads on %s, random writes on %s%n",
                o.vthreads() > 0 ? o.vthreads() + " virtual threads" : "no virtual threads",
                o.writeThreads().isEmpty() ? "no threads" : "threads " + o.writeThreads());
        List<Row> rows = new ArrayList<>();
        try (DataFile data = DataFile.create(o.dir(), o.fileSize(), bytes -> { })) {
            data.warm();
            log.printf(Locale.ROOT, "test file %s; page cache %.0f%% resident%n", data.path(),
                    PageCache.residentFraction(data.path()) * 100);
            rows.addAll(section(data, false, fioVersion != null));
            rows.addAll(virtualThreads(data, false));
            if (o.direct()) {
                rows.addAll(section(data, true, fioVersion != null));
                rows.addAll(virtualThreads(data, true));
            }
            rows.addAll(writes(data, fioVersion != null));
        }
        if (o.openReadClose()) {
            rows.addAll(openReadClose());
        }
        return rows;
    }

    /**
     * The block sizes of the section that O_DIRECT can transfer on the test file's file system (all of them through
     * the page cache); {@link #section} notes the ones skipped.
     */
    private List<Integer> blockSizes(Path p, boolean direct) throws IOException {
        long align = direct ? java.nio.file.Files.getFileStore(p).getBlockSize() : 1;
        List<Integer> out = new ArrayList<>();
        for (int bs : o.blockSizes()) {
            if (bs % align == 0) {
                out.add(bs);
            }
        }
        return out;
    }

    /**
     * {@code vthreads} virtual threads making blocking random reads through one shared IO_URING file, beside as many
     * reading one pre-opened FileChannel into their own page-aligned buffers; O_DIRECT on both when {@code direct}.
     */
    private List<Row> virtualThreads(DataFile data, boolean direct) throws IOException, InterruptedException {
        Path p = data.path();
        List<Integer> sizes = blockSizes(p, direct);
        if (o.vthreads() < 1 || sizes.isEmpty()) {
            return List.of();
        }
        List<Contender> all = new ArrayList<>();
        try {
            all.add(direct ? ChannelContender.jdkDirect(p, data.size()) : ChannelContender.jdkAligned(p, data.size()));
            all.add(direct ? new SluiceContender(Engine.IO_URING, p, data.size(), SluiceOption.DIRECT)
                    : new SluiceContender(Engine.IO_URING, p, data.size()));
            List<Workload> ws = new ArrayList<>();
            for (int bs : sizes) {
                ws.add(new Workload(Workload.RANDREAD_VTHREADS, bs, 1, direct));
            }
            return Bench.measure(all, ws, List.of(o.vthreads()), o.sampleNanos(), o.rounds(), log);
        } finally {
            for (Contender c : all) {
                c.close();
            }
        }
    }

    /**
     * Random writes over the test file, which is in the page cache, at each of the write thread counts: FileChannel,
     * IO_URING one at a time and in batches of {@code depth}, AUTO, and fio's psync and io_uring engines.
     */
    private List<Row> writes(DataFile data, boolean fio) throws IOException, InterruptedException {
        if (o.writeThreads().isEmpty()) {
            return List.of();
        }
        Path p = data.path();
        long size = data.size();
        // The read sections may have left pages out of the cache (O_DIRECT does not fill it): overwrite cached pages.
        data.warm();
        List<Contender> all = new ArrayList<>();
        try {
            all.add(RandomWriteContender.channel(p, size));
            all.add(RandomWriteContender.uring(p, size));
            all.add(RandomWriteContender.uringBatch(p, size, o.depth()));
            all.add(RandomWriteContender.auto(p, size));
            if (fio) {
                all.add(new FioContender("psync", p, size));
                all.add(new FioContender("io_uring", p, size, List.of("--registerfiles"), o.depth()));
            }
            List<Workload> ws = new ArrayList<>();
            for (int bs : o.blockSizes()) {
                ws.add(new Workload(Workload.RANDWRITE, bs));
            }
            return Bench.measure(all, ws, o.writeThreads(), o.sampleNanos(), o.rounds(), log);
        } finally {
            for (Contender c : all) {
                c.close();
            }
        }
    }

    /** Open, read one block, close per request, over many small files: PathReads against FileChannel. */
    private List<Row> openReadClose() throws IOException, InterruptedException {
        List<Workload> ws = new ArrayList<>();
        for (int bs : o.blockSizes()) {
            if (SMALL_FILE_SIZE % bs == 0) {
                ws.add(new Workload(Workload.OPEN_READ_CLOSE, bs));
            } else {
                log.printf(Locale.ROOT, "note: no open-read-close rows for %s: larger than the files (%s)%n",
                        ByteSize.format(bs), ByteSize.format(SMALL_FILE_SIZE));
            }
        }
        if (ws.isEmpty()) {
            return List.of();
        }
        try (SmallFiles files = SmallFiles.create(o.dir(), SMALL_FILES, SMALL_FILE_SIZE)) {
            log.printf(Locale.ROOT, "open-read-close: %d files of %s in %s, each request opens one, reads a block, "
                    + "closes it%n", files.count(), ByteSize.format(files.fileSize()), files.file(0).getParent());
            List<Contender> all = List.of(OpenReadCloseContender.jdk(files), OpenReadCloseContender.pathReads(files, 1),
                    OpenReadCloseContender.pathReads(files, o.depth()));
            return Bench.measure(all, ws, o.threads(), o.sampleNanos(), o.rounds(), log);
        }
    }

    private List<Row> section(DataFile data, boolean direct, boolean fio) throws IOException, InterruptedException {
        Path p = data.path();
        long size = data.size();
        List<Contender> all = new ArrayList<>();
        try {
            if (direct) {
                all.add(ChannelContender.jdkDirect(p, size));
                all.add(new SluiceContender(Engine.IO_URING, p, size, SluiceOption.DIRECT));
            } else {
                all.add(new SluiceContender(Engine.CHANNEL, p, size));
                all.add(new SluiceContender(Engine.IO_URING, p, size));
            }
            all.add(new UringBatchContender(p, size, o.depth(), direct));
            if (fio) {
                all.add(new FioContender("psync", p, size));
                all.add(new FioContender("io_uring", p, size, List.of("--registerfiles"), o.depth()));
            }
            if (o.sqpoll() && !direct) {
                // Batches on the SQPOLL ring, beside fio's io_uring with its own SQ polling thread.
                all.add(new UringBatchContender(p, size, o.depth(), false, true));
                if (fio) {
                    all.add(new FioContender(UringBatchContender.FIO_SQPOLL_ROW, "io_uring", p, size,
                            List.of("--registerfiles", "--sqthread_poll=1"), o.depth()));
                }
            }
            List<Workload> ws = new ArrayList<>();
            long align = direct ? java.nio.file.Files.getFileStore(p).getBlockSize() : 1;
            for (int bs : o.blockSizes()) {
                if (bs % align != 0) {
                    // O_DIRECT transfers must be whole blocks of the file system; smaller ones are refused.
                    log.printf(Locale.ROOT, "note: no O_DIRECT rows for %s: the file system's block size is %d bytes%n",
                            ByteSize.format(bs), align);
                    continue;
                }
                ws.add(new Workload(Workload.RANDREAD, bs, 1, direct));
            }
            if (ws.isEmpty()) {
                return List.of();
            }
            return Bench.measure(all, ws, o.threads(), o.sampleNanos(), o.rounds(), log);
        } finally {
            for (Contender c : all) {
                c.close();
            }
        }
    }
}
