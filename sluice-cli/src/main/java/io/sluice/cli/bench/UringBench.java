package io.sluice.cli.bench;

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
 */
public final class UringBench {
    /** The baseline of the O_DIRECT rows. */
    public static final String DIRECT_BASELINE = ChannelContender.JDK_DIRECT;
    /** Files, and bytes in each, of the open/read/close rows. */
    static final int SMALL_FILES = 64;
    static final int SMALL_FILE_SIZE = 1 << 20;

    /** The row each row of {@code w} is compared with. */
    public static String baseline(Workload w) {
        if (w.name().equals(Workload.OPEN_READ_CLOSE)) {
            return OpenReadCloseContender.JDK;
        }
        return w.direct() ? DIRECT_BASELINE : "CHANNEL";
    }

    /** What to run. */
    public record Options(long fileSize, Path dir, List<Integer> threads, List<Integer> blockSizes, int depth,
                          boolean direct, long sampleNanos, int rounds, boolean fio) {
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
        List<Row> rows = new ArrayList<>();
        try (DataFile data = DataFile.create(o.dir(), o.fileSize(), bytes -> { })) {
            data.warm();
            log.printf(Locale.ROOT, "test file %s; page cache %.0f%% resident%n", data.path(),
                    PageCache.residentFraction(data.path()) * 100);
            rows.addAll(section(data, false, fioVersion != null));
            if (o.direct()) {
                rows.addAll(section(data, true, fioVersion != null));
            }
        }
        rows.addAll(openReadClose());
        return rows;
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
