package io.sluice.bench.jruby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The minitest of {@code bench.rb} ({@code src/test/ruby/bench_test.rb}), run by JRuby from the complete jar in a JVM of
 * its own on this test's class path, where {@code require "sluice"} finds the gem's binding as the benchmark's child
 * does.
 */
class BenchScriptTest {
    @Test
    void theBenchmarkScriptsMinitestPasses(@TempDir Path tmp) throws Exception {
        Path script = Path.of("src", "test", "ruby", "bench_test.rb").toAbsolutePath();
        // Interpreter only and C1: the run is short, and JIT compilers would cost more start-up than they save.
        List<String> command = List.of(ProcessHandle.current().info().command().orElseThrow(),
                "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), "org.jruby.Main", "--dev", script.toString(), "--verbose");
        ProcessBuilder pb = new ProcessBuilder(command).directory(tmp.toFile()).redirectErrorStream(true);
        // The developer's own JRUBY_OPTS or GEM_* must not change what is tested.
        for (String inherited : List.of("JRUBY_OPTS", "GEM_HOME", "GEM_PATH", "RUBYOPT", "RUBYLIB")) {
            pb.environment().remove(inherited);
        }
        pb.environment().put("TMPDIR", tmp.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(10, TimeUnit.MINUTES), "JRuby did not finish: " + command);
        System.out.print(out);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.matches("(?s).*\\d+ runs, \\d+ assertions, 0 failures, 0 errors, 0 skips.*"), out);
    }
}
