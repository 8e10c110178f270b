package io.sluice.zip;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;

/**
 * Coverage-guided fuzzing of the archive parser and readers with Jazzer.
 *
 * <p>In a normal test run ({@code ./mvnw verify}) Jazzer runs in regression mode first, replaying every input kept
 * under {@code src/test/resources/io/sluice/zip/ZipFuzzTestInputs/} (seeds, and inputs that once failed), and then
 * the surefire execution {@code fuzz} fuzzes {@link #fuzzArchive} for a few seconds. A longer run, on demand:
 *
 * <pre>
 * JAZZER_FUZZ=1 ./mvnw -B -pl sluice-core test -Dtest='ZipFuzzTest#fuzzArchiveLong' \
 *     -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 *
 * A finding is written to {@code ZipFuzzTestInputs/<method>/}, where {@link FuzzCorpusTest} replays it in every later
 * test run; move it to {@code fuzzArchive/} so the short run starts from it too.
 */
class ZipFuzzTest {
    /** The short run of the normal build. */
    @FuzzTest(maxDuration = "10s")
    void fuzzArchive(byte[] bytes) throws IOException {
        FuzzTarget.exercise(bytes);
    }

    /** The same target for half an hour, on demand. */
    @FuzzTest(maxDuration = "30m")
    void fuzzArchiveLong(byte[] bytes) throws IOException {
        FuzzTarget.exercise(bytes);
    }
}
