package io.sluice.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options every benchmark command shares: how long a sample lasts, how many rounds, and where JSON goes. */
final class SampleOptions {
    @Option(names = "--duration", defaultValue = "200", paramLabel = "MS",
            description = "Length of one timed sample in milliseconds, at most an hour (default: ${DEFAULT-VALUE}).")
    long durationMs;

    @Option(names = "--rounds", defaultValue = "5", paramLabel = "N",
            description = "Samples per row, at most 1000; the table shows their median and spread "
                    + "(default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--json", paramLabel = "FILE",
            description = "Also write the rows as a JSON array to FILE ('-' for standard output, instead of the table).")
    Path json;

    @Option(names = "--report", paramLabel = "FILE.html",
            description = "Also write the report page of the rows (with the machine, charts and the seed's claims "
                    + "beside them): one HTML file that works offline.")
    Path report;

    /** The sample length in nanoseconds, after checking both numbers (see {@link BenchChecks#duration}). */
    long sampleNanos() {
        return BenchChecks.duration(durationMs, rounds);
    }
}
