package io.sluice.cli;

import io.sluice.zip.ConcurrentZipFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice zip test}: reads every entry and checks its CRC-32 and size, on every core at once, as
 * {@code unzip -t} does on one. Failures are listed per entry, in archive order, then a summary.
 */
@Command(name = "test", mixinStandardHelpOptions = true,
        description = {"Check every entry's CRC-32 and size, on every core.",
            "Exit codes: 0 all entries good, 1 some entry failed, 2 the archive cannot be read at all."})
final class ZipTestCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "ARCHIVE", description = "The zip or jar file.")
    Path archive;

    @Option(names = "--threads", paramLabel = "N", description = "Threads to use (default: one per core).")
    Integer threads;

    @Override
    public Integer call() throws IOException, InterruptedException {
        int n = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        if (n < 1 || n > 1024) {
            throw new IllegalArgumentException("--threads must be between 1 and 1024: " + n);
        }
        PrintWriter out = spec.commandLine().getOut();
        long t0 = System.nanoTime();
        try (ConcurrentZipFile zip = ZipCommand.open(archive, spec.commandLine())) {
            if (zip == null) {
                return Main.BAD_INPUT;
            }
            String[] failures = testAll(zip, n);
            long bytes = 0;
            int failed = 0;
            for (int i = 0; i < failures.length; i++) {
                bytes += zip.entry(i).getSize();
                if (failures[i] != null) {
                    failed++;
                    out.println("FAILED " + ZipCommand.printable(failures[i]));
                }
            }
            String shown = ZipCommand.printable(archive.toString());
            double seconds = (System.nanoTime() - t0) / 1e9;
            String stats = String.format(Locale.ROOT, "%d entries, %d bytes, %.2f s on %d thread%s", zip.size(),
                    bytes, seconds, n, n == 1 ? "" : "s");
            if (failed == 0) {
                out.println("No errors detected in compressed data of " + shown + " (" + stats + ").");
            } else {
                out.println(failed + " of " + zip.size() + " entries failed in " + shown + " (" + stats + ").");
            }
            out.flush();
            return failed == 0 ? Main.OK : Main.FAILED;
        }
    }

    /** Each entry's failure message, or null where it is good; entries are handed out largest first. */
    private static String[] testAll(ConcurrentZipFile zip, int threads) throws InterruptedException {
        int count = zip.size();
        // Largest first, so no thread is left alone with a big entry at the end while the others idle.
        Integer[] order = new Integer[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        long[] sizes = new long[count];
        for (int i = 0; i < count; i++) {
            sizes[i] = zip.entry(i).getSize();
        }
        Arrays.sort(order, (a, b) -> Long.compare(sizes[b], sizes[a]));
        String[] failures = new String[count];
        AtomicInteger next = new AtomicInteger();
        Thread[] ts = new Thread[Math.min(threads, Math.max(1, count))];
        for (int t = 0; t < ts.length; t++) {
            ts[t] = new Thread(() -> {
                for (int k; (k = next.getAndIncrement()) < count; ) {
                    int i = order[k];
                    try {
                        zip.verify(zip.entry(i));
                    } catch (IOException e) {
                        failures[i] = e.getMessage() == null ? e.toString() : e.getMessage();
                    }
                }
            }, "sluice-zip-test-" + t);
            ts[t].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        return failures;
    }
}
