package io.sluice.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code sluice bench zip} run: one generated archive, read by each zip library, for every kind of entry and
 * thread count, side by side in rotating rounds as in {@link Bench}.
 */
public final class ZipBench {
    /** What to run; {@code readers} are names from {@link ZipReader#NAMES}. */
    public record Options(Path dir, int smallEntries, int bigEntries, List<Integer> threads, List<String> readers,
                          long sampleNanos, int rounds) {
    }

    private final Options options;
    private final PrintWriter log;

    /** {@code log} receives progress (standard error in the CLI). */
    public ZipBench(Options options, PrintWriter log) {
        this.options = options;
        this.log = log;
    }

    /** Runs every kind at every thread count; one row per reader, kind and thread count. */
    public List<Row> run() throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        log.printf(Locale.ROOT, "sluice bench zip: %d small (4 KiB) and %d big (8 MiB) entries of each kind, "
                        + "threads %s, readers %s; %d rounds of %d ms%n", options.smallEntries(), options.bigEntries(),
                options.threads(), options.readers(), options.rounds(), options.sampleNanos() / 1_000_000);
        log.flush();
        try (ZipBenchArchive archive = ZipBenchArchive.create(options.dir(), options.smallEntries(),
                options.bigEntries())) {
            archive.warm();
            log.printf(Locale.ROOT, "archive %s, %s, written and read once in %.1f s%n", archive.path(),
                    ByteSize.format(java.nio.file.Files.size(archive.path())), (System.nanoTime() - t0) / 1e9);
            List<ZipReader> readers = new ArrayList<>();
            try {
                for (String name : options.readers()) {
                    readers.add(ZipReader.open(name, archive.path()));
                }
                List<Row> rows = new ArrayList<>();
                for (ZipBenchArchive.Kind kind : ZipBenchArchive.Kind.values()) {
                    List<ZipContender> contenders = new ArrayList<>();
                    for (ZipReader r : readers) {
                        contenders.add(new ZipContender(r, archive, kind));
                    }
                    Workload w = new Workload(kind.label(), kind.size());
                    for (int threads : options.threads()) {
                        log.printf(Locale.ROOT, "%s, %d thread%s (%.0f s elapsed)%n", w, threads,
                                threads == 1 ? "" : "s", (System.nanoTime() - t0) / 1e9);
                        log.flush();
                        rows.addAll(Bench.cell(contenders, w, threads, options.sampleNanos(), options.rounds()));
                    }
                }
                log.printf(Locale.ROOT, "measured in %.0f s%n", (System.nanoTime() - t0) / 1e9);
                return rows;
            } finally {
                for (ZipReader r : readers) {
                    r.close();
                }
            }
        }
    }
}
