package io.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.zip.SluiceClassLoader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ClassLoadBench}'s start-up rows, on a program of this module's tests. */
class ClassLoadBenchTest {
    /** Warns on standard error at once, as the JVM does for a custom system loader, and answers later. */
    public static final class SlowToAnswer {
        public static void main(String[] args) throws InterruptedException {
            System.err.println("a warning, not the program's output");
            System.err.flush();
            Thread.sleep(400);
            System.out.println("ready");
        }
    }

    private static Path location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    @Test
    void startUpIsTimedToTheFirstOutputNotToAWarning() throws Exception {
        ClassLoadBench.Program p = new ClassLoadBench.Program("slow", List.of(location(SlowToAnswer.class)),
                SlowToAnswer.class.getName(), List.of());
        StringWriter log = new StringWriter();
        List<Row> rows = new ClassLoadBench(new ClassLoadBench.Options(List.of(), List.of(), 1, List.of(p),
                location(SluiceClassLoader.class)), new PrintWriter(log, true)).run();
        assertEquals(2, rows.size(), log::toString);
        for (Row r : rows) {
            assertEquals("startup-slow", r.workload().name());
            // At least the program's own 400 ms: a row timed to the warning would be faster than that.
            assertTrue(1000 / r.opsPerMs() >= 400, r + "\n" + log);
        }
        assertEquals(List.of(ClassLoadBench.DEFAULT_STARTUP, ClassLoadBench.SLUICE_STARTUP),
                rows.stream().map(Row::engine).toList());
        // The JSON keeps three decimals: a rate of starts must survive them to within 1%.
        StringWriter json = new StringWriter();
        Report.json(rows, w -> ClassLoadBench.DEFAULT_STARTUP, new PrintWriter(json, true));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"opsPerMs\": ([0-9.]+),").matcher(json.toString());
        for (Row r : rows) {
            assertTrue(m.find(), json::toString);
            double written = Double.parseDouble(m.group(1));
            assertTrue(Math.abs(written - r.opsPerMs()) <= 0.01 * r.opsPerMs(), "the JSON rounds " + r.opsPerMs()
                    + " to " + written);
        }
    }
}
