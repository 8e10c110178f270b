package io.sluice.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Something measured whole: one sample is one run from start to finish (write a file, read it all back), and its
 * rate is the bytes it moved over the time it took. The write benchmarks are made of these; the read benchmark's
 * {@link Contender}s are measured for a fixed time instead.
 */
interface Job {
    /** The {@code engine} value of the rows: the API measured. */
    String name();

    /** The threads it runs on. */
    int threads();

    /** Runs once and returns the nanoseconds of the timed part; preparing and cleaning up are not timed. */
    long run() throws IOException;

    /**
     * Measures {@code jobs} side by side: one warm-up run each (not recorded, so the JIT has compiled what they run),
     * then {@code rounds} rounds in which every job runs once, in an order that rotates so that none is always
     * first while other load on the machine comes and goes. Returns one row per job.
     *
     * @param bytes the bytes one run moves
     */
    static List<Row> measure(List<Job> jobs, Workload w, long bytes, int rounds, PrintWriter log) throws IOException {
        List<List<Sample>> samples = new ArrayList<>();
        for (Job j : jobs) {
            samples.add(new ArrayList<>());
            j.run();
        }
        double ops = (double) (bytes + w.blockSize() - 1) / w.blockSize();
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < jobs.size(); k++) {
                int idx = (k + round) % jobs.size();
                long nanos = Math.max(1, jobs.get(idx).run());
                samples.get(idx).add(new Sample(ops / (nanos / 1e6), bytes / (nanos / 1e9)));
            }
            log.printf(Locale.ROOT, ".");
            log.flush();
        }
        log.println();
        List<Row> rows = new ArrayList<>();
        for (int k = 0; k < jobs.size(); k++) {
            Job j = jobs.get(k);
            rows.add(new Row(j.name(), w, j.threads(), null, List.copyOf(samples.get(k))));
        }
        return rows;
    }
}
