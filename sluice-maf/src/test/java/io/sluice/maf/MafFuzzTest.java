package io.sluice.maf;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sluice.testing.KeptInputs;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzzing of the MAF parser and index with Jazzer ({@link MafFuzzTarget} says what is checked).
 *
 * <p>In a normal test run ({@code ./mvnw verify}) the surefire execution {@code fuzz} fuzzes {@link #fuzzParse} for
 * 10 seconds, its output going to {@code target/surefire-reports/}, and {@link MafFuzzCorpusTest} replays every kept
 * input without Jazzer. A longer run, on demand:
 *
 * <pre>
 * JAZZER_FUZZ=1 ./mvnw -B -pl sluice-maf -am test -Dtest='MafFuzzTest#fuzzParseLong' \
 *     -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 *
 * <p>Both methods start from every input kept under {@code src/test/resources/io/sluice/maf/MafFuzzTestInputs/}: the
 * seeds ({@code seed-*}, the real MAF files of the parser tests), and inputs that once failed. Jazzer writes a
 * finding to {@code MafFuzzTestInputs/<method>/}, so from then on it is a regression test and a seed of both.
 */
class MafFuzzTest {
    /** Every kept input, as seeds: Jazzer takes the arguments of sources declared before {@code @FuzzTest}. */
    static Stream<byte[]> keptInputs() {
        return KeptInputs.bytes(MafFuzzTest.class);
    }

    /** The short run of the normal build. */
    @MethodSource("keptInputs")
    @FuzzTest(maxDuration = "10s")
    void fuzzParse(byte[] bytes) {
        MafFuzzTarget.exercise(bytes);
    }

    /** The same target for ten minutes, on demand. */
    @MethodSource("keptInputs")
    @FuzzTest(maxDuration = "10m")
    void fuzzParseLong(byte[] bytes) {
        MafFuzzTarget.exercise(bytes);
    }
}
