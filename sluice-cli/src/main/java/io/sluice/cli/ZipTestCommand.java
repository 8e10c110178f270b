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
 * {@code unzip -t} does on one. Failures are listed per entry, in archive order, then a summary. "No errors" is
 * printed only when every entry was read through and checked: an entry whose check ends in anything else than
 * success (a damaged entry, a cut archive, or a bug) fails the command.
 */
@Command(name = "test", mixinStandardHelpOptions = true,
        description = {"Check every entry's CRC-32 and size, on every core.",
            "Exit codes: 0 all entries good, 1 some entry failed, 2 the archive cannot be read at all, 4 some entry "
                    + "could not be checked because of an internal error (the stack trace goes to standard error)."})
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
            Outcome[] outcomes = testAll(zip, n);
            long bytes = 0;
            int failed = 0;
            boolean internal = false;
            PrintWriter err = spec.commandLine().getErr();
            for (int i = 0; i < outcomes.length; i++) {
                bytes += zip.entry(i).getSize();
                Outcome o = outcomes[i];
                if (o == null) {
                    // Its worker died before reaching it, which the catch-all below should make impossible.
                    o = new Outcome(zip.getName() + ": entry '" + zip.entry(i).getName() + "' was not checked", null);
                    internal = true;
                }
                if (o.failure != null) {
                    failed++;
                    out.println("FAILED " + ZipCommand.printable(o.failure));
                }
                if (o.bug != null) {
                    internal = true;
                    err.println("sluice: internal error checking entry '" + ZipCommand.printable(zip.entry(i).getName())
                            + "', please report it:");
                    o.bug.printStackTrace(err);
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
            err.flush();
            return internal ? Main.INTERNAL : failed == 0 ? Main.OK : Main.FAILED;
        }
    }

    /**
     * How checking one entry ended: {@code failure} is null when it is good, else the line to print; {@code bug} is
     * what was thrown when it was not an {@link IOException}.
     */
    private record Outcome(String failure, Throwable bug) {
        static final Outcome GOOD = new Outcome(null, null);
    }

    /** Each entry's outcome (null only if its worker died); entries are handed out largest first. */
    private static Outcome[] testAll(ConcurrentZipFile zip, int threads) throws InterruptedException {
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
        Outcome[] outcomes = new Outcome[count];
        AtomicInteger next = new AtomicInteger();
        Thread[] ts = new Thread[Math.min(threads, Math.max(1, count))];
        for (int t = 0; t < ts.length; t++) {
            ts[t] = new Thread(() -> {
                for (int k; (k = next.getAndIncrement()) < count; ) {
                    int i = order[k];
                    outcomes[i] = check(zip, i);
                }
            }, "sluice-zip-test-" + t);
            ts[t].start();
        }
        for (Thread t : ts) {
            // join makes each worker's writes to outcomes visible here.
            t.join();
        }
        return outcomes;
    }

    /**
     * Verifies entry i. Anything thrown fails the entry, not only an {@link IOException}: an entry the reader could
     * not check is no more known to be good than one it found damaged.
     */
    private static Outcome check(ConcurrentZipFile zip, int i) {
        try {
            zip.verify(zip.entry(i));
            return Outcome.GOOD;
        } catch (IOException e) {
            return new Outcome(e.getMessage() == null ? zip.getName() + ": entry '" + zip.entry(i).getName() + "': "
                    + e : e.getMessage(), null);
        } catch (Throwable e) {
            return new Outcome(zip.getName() + ": entry '" + zip.entry(i).getName() + "': could not be checked: "
                    + e, e);
        }
    }
}
