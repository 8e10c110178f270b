package io.sluice.cli;

import io.sluice.bench.BenchChecks;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options every benchmark command shares: how long a sample lasts, how many rounds, and where JSON goes. */
final class SampleOptions extends RowsOutputOptions {
    @Option(names = "--duration", defaultValue = "200", paramLabel = "MS",
            description = "Length of one timed sample in milliseconds, at most an hour (default: ${DEFAULT-VALUE}).")
    long durationMs;

    @Option(names = "--rounds", defaultValue = "5", paramLabel = "N",
            description = "Samples per row, at most 1000; the table shows their median and spread "
                    + "(default: ${DEFAULT-VALUE}).")
    int rounds;

    /** The sample length in nanoseconds, after checking both numbers (see {@link BenchChecks#duration}). */
    long sampleNanos() {
        return BenchChecks.duration(durationMs, rounds);
    }
}
