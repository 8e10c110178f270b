package io.sluice.db;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sluice.testing.KeptInputs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzzing of opening a store file with Jazzer ({@link StoreFuzzTarget} says what is checked).
 *
 * <p>In a normal test run ({@code ./mvnw verify}) the surefire execution {@code fuzz} fuzzes {@link #fuzzOpen} for 10
 * seconds, its output going to {@code target/surefire-reports/}, and {@link StoreFuzzCorpusTest} replays every kept
 * input without Jazzer. A longer run, on demand:
 *
 * <pre>
 * JAZZER_FUZZ=1 ./mvnw -B -pl sluice-db test -Dtest='StoreFuzzTest#fuzzOpenLong' \
 *     -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 *
 * <p>Both methods start from every input kept under {@code src/test/resources/io/sluice/db/StoreFuzzTestInputs/}:
 * the seeds ({@code seed-*}, small stores {@link StoreFuzzSeeds} writes), and inputs that once failed. Jazzer writes a
 * finding to {@code StoreFuzzTestInputs/<method>/}, so from then on it is a regression test and a seed of both.
 */
class StoreFuzzTest {
    @TempDir
    static Path dir;

    /** Every kept input, as seeds: Jazzer takes the arguments of sources declared before {@code @FuzzTest}. */
    static Stream<byte[]> keptInputs() {
        return KeptInputs.bytes(StoreFuzzTest.class);
    }

    /** The short run of the normal build. */
    @MethodSource("keptInputs")
    @FuzzTest(maxDuration = "10s")
    void fuzzOpen(byte[] bytes) throws IOException {
        StoreFuzzTarget.exercise(bytes, dir);
    }

    /** The same target for ten minutes, on demand. */
    @MethodSource("keptInputs")
    @FuzzTest(maxDuration = "10m")
    void fuzzOpenLong(byte[] bytes) throws IOException {
        StoreFuzzTarget.exercise(bytes, dir);
    }
}
