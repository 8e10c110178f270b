package io.sluice.bench;

import java.io.IOException;

/**
 * Something measured in the benchmark: a Sluice engine, a plain-JDK baseline, or fio as the reference for what the
 * machine can do. Each has a stable name used in the table and the JSON rows.
 */
public interface Contender extends AutoCloseable {
    /** The {@code engine} value of the JSON rows: CLASSIC, CHANNEL, MMAP, IO_URING, naive-direct, fio-psync, ... */
    String name();

    /** The fio contender this one is compared with ({@code fio-psync} or {@code fio-mmap}), or null for fio itself. */
    String fioReference();

    /**
     * The workload this contender really runs when a cell asks for {@code w}: the same by default; one that keeps
     * several requests in flight says so through the depth.
     */
    default Workload adapt(Workload w) {
        return w;
    }

    /** Runs {@code workload} with {@code threads} threads for about {@code nanos} and reports the rate. */
    Sample measure(Workload workload, int threads, long nanos) throws IOException, InterruptedException;

    @Override
    void close() throws IOException;
}
