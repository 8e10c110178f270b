package io.sluice.db;

import io.sluice.testing.KeptInputs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Replays every input kept for {@link StoreFuzzTest} (seeds, and inputs that once failed) through the same target,
 * without Jazzer, so they guard against regressions in every normal test run.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StoreFuzzCorpusTest {
    @TempDir
    Path dir;

    static List<Path> inputs() {
        return KeptInputs.of(StoreFuzzTest.class);
    }

    @ParameterizedTest
    @MethodSource("inputs")
    void replays(Path input) throws IOException {
        StoreFuzzTarget.exercise(Files.readAllBytes(input), dir);
    }
}
