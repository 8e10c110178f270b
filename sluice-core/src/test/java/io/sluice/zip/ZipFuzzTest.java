package io.sluice.zip;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sluice.testing.KeptInputs;
import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzzing of the archive parser and readers with Jazzer.
 *
 * <p>In a normal test run ({@code ./mvnw verify}) the surefire execution {@code fuzz} fuzzes {@link #fuzzArchive}
 * for 10 seconds, and {@link FuzzCorpusTest} replays every kept input without Jazzer. A longer run, on demand:
 *
 * <pre>
 * JAZZER_FUZZ=1 ./mvnw -B -pl sluice-core test -Dtest='ZipFuzzTest#fuzzArchiveLong' \
 *     -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 *
 * <p>Both methods start from every input kept under {@code src/test/resources/io/sluice/zip/ZipFuzzTestInputs/}
 * (the seeds: small archives of every feature, and inputs that once failed). Jazzer writes a finding to
 * {@code ZipFuzzTestInputs/<method>/}, so from then on it is a regression test and a seed of both methods.
 */
class ZipFuzzTest {
    /** Every kept input, as seeds: Jazzer takes the arguments of sources declared before {@code @FuzzTest}. */
    static Stream<byte[]> keptInputs() {
        return KeptInputs.bytes(ZipFuzzTest.class);
    }

    /** The short run of the normal build. */
    @MethodSource("keptInputs")
    @FuzzTest(maxDuration = "10s")
    void fuzzArchive(byte[] bytes) throws IOException {
        FuzzTarget.exercise(bytes);
    }

    /** The same target for ten minutes, on demand. */
    @MethodSource("keptInputs")
    @FuzzTest(maxDuration = "10m")
    void fuzzArchiveLong(byte[] bytes) throws IOException {
        FuzzTarget.exercise(bytes);
    }
}
