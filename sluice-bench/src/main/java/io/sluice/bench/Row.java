package io.sluice.bench;

import java.util.Arrays;
import java.util.List;

/**
 * The samples of one contender on one workload at one thread count, and their summary: the median, and the spread
 * {@code (max - min) / median} over rounds, which says how much to trust the median on a noisy machine.
 * {@code forked}: whether the contender ran in a JVM of its own (true) or in the benchmark's (false); {@code forks}:
 * how many JVMs made the samples (the contender's children one after another, or 1, the benchmark's); both null
 * where the section does not say (fio, other processes, sections measuring otherwise).
 */
public record Row(String engine, Workload workload, int threads, String fioReference, List<Sample> samples,
                  Boolean forked, Integer forks) {

    /** A row that does not say where its contender ran. */
    public Row(String engine, Workload workload, int threads, String fioReference, List<Sample> samples) {
        this(engine, workload, threads, fioReference, samples, null, null);
    }

    /** A row that says where its contender ran but not in how many JVMs. */
    public Row(String engine, Workload workload, int threads, String fioReference, List<Sample> samples,
               Boolean forked) {
        this(engine, workload, threads, fioReference, samples, forked, null);
    }

    public double opsPerMs() {
        return median(samples.stream().mapToDouble(Sample::opsPerMs).toArray());
    }

    /** Median throughput in MB/s (10^6 bytes, as fio reports). */
    public double mbPerSec() {
        return median(samples.stream().mapToDouble(Sample::bytesPerSec).toArray()) / 1e6;
    }

    /** {@code (max - min) / median} of ops/ms, as a fraction. */
    public double spread() {
        double[] v = samples.stream().mapToDouble(Sample::opsPerMs).toArray();
        double m = median(v);
        return m == 0 ? 0 : (Arrays.stream(v).max().orElse(0) - Arrays.stream(v).min().orElse(0)) / m;
    }

    static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }
}
