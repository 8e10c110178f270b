package io.sluice.report;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sluice.testing.KeptInputs;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzzing of the bench JSON reader behind {@code sluice report} with Jazzer
 * ({@link BenchJsonFuzzTarget} says what is checked).
 *
 * <p>In a normal test run ({@code ./mvnw verify}) the surefire execution {@code fuzz} fuzzes
 * {@link #fuzzReport} for 10 seconds, its output going to {@code target/surefire-reports/}, and
 * {@link BenchJsonFuzzCorpusTest} replays every kept input without Jazzer. A longer run, on demand:
 *
 * <pre>
 * JAZZER_FUZZ=1 ./mvnw -B -pl sluice-report -am test -Dtest='BenchJsonFuzzTest#fuzzReportLong' \
 *     -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 *
 * <p>Both methods start from every input kept under
 * {@code src/test/resources/io/sluice/report/BenchJsonFuzzTestInputs/}: the seeds ({@code seed-*}, bench JSON
 * from docs/benchmarks: arrays of rows, a {@code bench all} document cut to two rows a section, hyperfine's output),
 * and inputs that once failed. Jazzer writes a finding to {@code BenchJsonFuzzTestInputs/<method>/}, so from then on
 * it is a regression test and a seed of both.
 */
class BenchJsonFuzzTest {
    /** Every kept input, as seeds: Jazzer takes the arguments of sources declared before {@code @FuzzTest}. */
    static Stream<byte[]> keptInputs() {
        return KeptInputs.bytes(BenchJsonFuzzTest.class);
    }

    /** The short run of the normal build. */
    @MethodSource("keptInputs")
    @FuzzTest(maxDuration = "10s")
    void fuzzReport(byte[] bytes) {
        BenchJsonFuzzTarget.exercise(bytes);
    }

    /** The same target for ten minutes, on demand. */
    @MethodSource("keptInputs")
    @FuzzTest(maxDuration = "10m")
    void fuzzReportLong(byte[] bytes) {
        BenchJsonFuzzTarget.exercise(bytes);
    }
}
