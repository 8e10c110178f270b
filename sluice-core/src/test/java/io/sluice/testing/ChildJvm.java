package io.sluice.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A program run in a JVM of its own, for tests that look at what a fresh JVM loads or prints. */
public final class ChildJvm {
    private ChildJvm() {
    }

    /** The java binary of this JVM, so a child runs on the same JDK as the tests. */
    public static String java() {
        return ProcessHandle.current().info().command().orElseThrow();
    }

    /**
     * Runs {@code command} (the java binary first), its standard error merged into its output, and returns that output;
     * fails the test, showing the output, if it does not end within a minute or ends with a status other than 0.
     */
    public static String run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = p.getInputStream()) {
            in.transferTo(out);
        }
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "still running after a minute: " + command);
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), text);
        return text;
    }
}
