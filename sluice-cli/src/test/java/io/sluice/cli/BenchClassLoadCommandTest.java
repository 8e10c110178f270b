package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice bench classload}, kept small: picocli's jar (and, in the fat jar, its program's libraries), one round,
 * one thread, no start-up rows.
 */
class BenchClassLoadCommandTest {
    @Test
    void rowsForEveryLoaderAndReaderAsJson() throws Exception {
        Path picocli = Path.of(picocli.CommandLine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), "bench", "classload", "--jars",
                picocli.toString(), "--threads", "1", "--rounds", "1", "--no-startup", "--json", "-");
        assertEquals(Main.OK, code, err::toString);
        String json = out.toString();
        for (String engine : new String[] {"URLClassLoader", "SluiceClassLoader", "ZipFile-read",
            "ConcurrentZipFile-read", "define-only"}) {
            assertTrue(json.contains("{\"engine\": \"" + engine + "\", \"workload\": \"classload-all\""), json);
        }
        assertTrue(json.contains("\"baseline\": \"URLClassLoader\""), json);
        assertTrue(err.toString().contains("round 1/1: SluiceClassLoader"), err::toString);
        // The fat jar of the same jar (and the fat jar program's libraries), against Spring Boot's loader.
        for (String engine : new String[] {"LaunchedClassLoader", "SluiceClassLoader-nested"}) {
            assertTrue(json.contains("{\"engine\": \"" + engine + "\", \"workload\": \"classload-fatjar\""), json);
        }
        assertTrue(json.contains("\"baseline\": \"LaunchedClassLoader\""), json);
        assertTrue(!json.contains("startup-fatjar"), json);
    }

    @Test
    void fatJarOnlyRunsNothingElse() throws Exception {
        Path picocli = Path.of(picocli.CommandLine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), "bench", "classload", "--jars",
                picocli.toString(), "--threads", "1", "--rounds", "1", "--no-startup", "--fatjar-only", "--json", "-");
        assertEquals(Main.OK, code, err::toString);
        String json = out.toString();
        assertTrue(json.contains("\"workload\": \"classload-fatjar\""), json);
        assertTrue(!json.contains("classload-all"), json);
    }
}
