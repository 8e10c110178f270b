package io.sluice.cli;

import io.sluice.cli.bench.ByteSize;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options {@code sluice bench write} and {@code sluice bench bigfile} share (a picocli mixin). */
final class JobBenchOptions {
    @Option(names = "--dir", paramLabel = "DIR",
            description = "Where to write (default: the system temp directory). Point it at the disk you care about.")
    Path dir;

    @Option(names = "--rounds", defaultValue = "5", paramLabel = "N",
            description = "Runs per row after one warm-up; the table shows their median and spread "
                    + "(default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--json", paramLabel = "FILE",
            description = "Also write the rows as a JSON array to FILE ('-' for standard output, instead of the table).")
    Path json;

    /** The directory to write in. */
    Path dir() {
        return dir != null ? dir : Path.of(System.getProperty("java.io.tmpdir"));
    }

    /**
     * The size given, checked together with the rounds.
     *
     * @throws IllegalArgumentException unless both are positive
     */
    long sizeAndRounds(String size) {
        return sizeAndRounds(ByteSize.parse(size));
    }

    /** {@link #sizeAndRounds(String)} for a size already in bytes. */
    long sizeAndRounds(long bytes) {
        if (bytes < 1 || rounds < 1) {
            throw new IllegalArgumentException("--size and --rounds must be positive");
        }
        return bytes;
    }
}
