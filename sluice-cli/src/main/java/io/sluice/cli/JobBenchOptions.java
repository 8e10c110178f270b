package io.sluice.cli;

import io.sluice.bench.BenchChecks;
import io.sluice.bench.ByteSize;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options {@code sluice bench write} and {@code sluice bench bigfile} share (a picocli mixin). */
final class JobBenchOptions extends RowsOutputOptions {
    @Option(names = "--dir", paramLabel = "DIR",
            description = "An existing directory to write in (default: the system temp directory); the benchmark "
                    + "makes and removes a directory of its own inside it. Point it at the disk you care about.")
    Path dir;

    @Option(names = "--rounds", defaultValue = "5", paramLabel = "N",
            description = "Runs per row after one warm-up, at most 1000; the table shows their median and spread "
                    + "(default: ${DEFAULT-VALUE}).")
    int rounds;

    /** The directory to write in, checked (see {@link BenchChecks#dir}). */
    Path dir() {
        return BenchChecks.dir(dir);
    }

    /**
     * The size given, checked together with the rounds.
     *
     * @throws IllegalArgumentException unless the size is positive and the rounds are 1 to
     *         {@value BenchChecks#MAX_ROUNDS}
     */
    long sizeAndRounds(String size) {
        return sizeAndRounds(ByteSize.parse(size));
    }

    /** {@link #sizeAndRounds(String)} for a size already in bytes. */
    long sizeAndRounds(long bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("--size must be positive");
        }
        BenchChecks.rounds(rounds);
        return bytes;
    }
}
