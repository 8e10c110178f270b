package io.sluice.report;

import io.sluice.testing.KeptInputs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Replays every input kept for {@link BenchJsonFuzzTest} (seeds, and inputs that once failed) through the same target,
 * without Jazzer, so they guard against regressions in every normal test run.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BenchJsonFuzzCorpusTest {
    static List<Path> inputs() {
        return KeptInputs.of(BenchJsonFuzzTest.class);
    }

    @ParameterizedTest
    @MethodSource("inputs")
    void replays(Path input) throws IOException {
        BenchJsonFuzzTarget.exercise(Files.readAllBytes(input));
    }
}
