package io.sluice.report;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Replays every input kept for {@link BenchJsonFuzzTest} (seeds, and inputs that once failed) through the same target,
 * without Jazzer, so they guard against regressions in every normal test run.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BenchJsonFuzzCorpusTest {
    static List<Path> inputs() throws IOException, URISyntaxException {
        Path root = Path.of(BenchJsonFuzzCorpusTest.class.getResource("BenchJsonFuzzTestInputs").toURI());
        try (Stream<Path> s = Files.walk(root)) {
            List<Path> files = s.filter(Files::isRegularFile).sorted().toList();
            assertFalse(files.isEmpty(), "no fuzz inputs under " + root);
            return files;
        }
    }

    @ParameterizedTest
    @MethodSource("inputs")
    void replays(Path input) throws IOException {
        BenchJsonFuzzTarget.exercise(Files.readAllBytes(input));
    }
}
