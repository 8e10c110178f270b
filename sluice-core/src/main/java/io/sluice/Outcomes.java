package io.sluice;

import java.io.IOException;
import java.util.Objects;

/**
 * The per-request outcomes that {@link IoBatch} and {@link PathReads} keep in parallel arrays (a count or an error per
 * request), and the rules both report them by.
 */
final class Outcomes {
    private Outcomes() {
    }

    /**
     * Request {@code i}'s count.
     *
     * @throws IllegalStateException if it has not been submitted, or failed
     */
    static long result(long[] results, IOException[] errors, int size, int submitted, int i) {
        checkDone(size, submitted, i);
        if (errors[i] != null) {
            throw new IllegalStateException("request " + i + " failed: " + errors[i].getMessage(), errors[i]);
        }
        return results[i];
    }

    /** Request {@code i}'s failure, or null. */
    static IOException error(IOException[] errors, int size, int submitted, int i) {
        checkDone(size, submitted, i);
        return errors[i];
    }

    /**
     * Throws if any of the first {@code submitted} requests failed: the failure itself when only one did, otherwise a
     * new {@link IOException} saying how many of them ({@code what}: "requests", "reads") failed, caused by the first,
     * with the others attached as suppressed. The stored exceptions are not modified, so a second call throws the
     * same story again.
     */
    static void throwIfFailed(IOException[] errors, int submitted, String what) throws IOException {
        IOException first = null;
        int failed = 0;
        for (int i = 0; i < submitted; i++) {
            if (errors[i] != null) {
                failed++;
                first = first == null ? errors[i] : first;
            }
        }
        if (failed == 1) {
            throw first;
        }
        if (failed > 1) {
            IOException all = new IOException(failed + " of " + submitted + " " + what + " failed; the first: "
                    + first.getMessage(), first);
            for (int i = 0; i < submitted; i++) {
                if (errors[i] != null && errors[i] != first) {
                    all.addSuppressed(errors[i]);
                }
            }
            throw all;
        }
    }

    private static void checkDone(int size, int submitted, int i) {
        Objects.checkIndex(i, size);
        if (i >= submitted) {
            throw new IllegalStateException("request " + i + " has not been submitted");
        }
    }
}
