package io.sluice.cli;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sluice.testing.KeptInputs;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzzing of {@code sluice wc}'s decoding and counting with Jazzer ({@link WcFuzzTarget} says what
 * is checked, and how an input's first two bytes pick the locale and the reads).
 *
 * <p>In a normal test run ({@code ./mvnw verify}) the surefire execution {@code fuzz} fuzzes {@link #fuzzWc} for 10
 * seconds, its output going to {@code target/surefire-reports/}, and {@link WcFuzzCorpusTest} replays every kept
 * input without Jazzer. A longer run, on demand:
 *
 * <pre>
 * JAZZER_FUZZ=1 ./mvnw -B -pl sluice-cli -am test -Dtest='WcFuzzTest#fuzzWcLong' \
 *     -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 *
 * <p>Both methods start from every input kept under {@code src/test/resources/io/sluice/cli/WcFuzzTestInputs/}: the
 * seeds ({@code seed-*}: two bytes of settings, then a small text: English, several scripts and widths, the no-break
 * spaces, invalid and long UTF-8 forms, control characters), and inputs that once failed. Jazzer writes a finding
 * to {@code WcFuzzTestInputs/<method>/}, so from then on it is a regression test and a seed of both.
 */
class WcFuzzTest {
    /** Every kept input, as seeds: Jazzer takes the arguments of sources declared before {@code @FuzzTest}. */
    static Stream<byte[]> keptInputs() {
        return KeptInputs.bytes(WcFuzzTest.class);
    }

    /** The short run of the normal build. */
    @MethodSource("keptInputs")
    @FuzzTest(maxDuration = "10s")
    void fuzzWc(byte[] bytes) {
        WcFuzzTarget.exercise(bytes);
    }

    /** The same target for ten minutes, on demand. */
    @MethodSource("keptInputs")
    @FuzzTest(maxDuration = "10m")
    void fuzzWcLong(byte[] bytes) {
        WcFuzzTarget.exercise(bytes);
    }
}
