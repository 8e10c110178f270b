package io.sluice.jruby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gem as a user gets it: {@code java -jar jruby-complete.jar -S gem install --local} of the gem this build made,
 * into an empty GEM_HOME, then the minitest suite ({@code test/run.rb}) in one JRuby that requires {@code sluice}
 * from that installation. Runs after {@code package}, which builds the gem.
 */
class GemIT {
    @Test
    void installsFromTheGemFileAndPassesTheMinitestSuite(@TempDir Path tmp) throws IOException, InterruptedException {
        Path gem = builtGem();
        Path gemHome = tmp.resolve("gem-home");
        // GEM_HOME alone: RubyGems then searches it first and still finds the gems inside the complete jar
        // (minitest); GEM_PATH would hide those.
        Map<String, String> env = Map.of("GEM_HOME", gemHome.toString(), "TMPDIR", tmp.toString());

        JRubyProcess.Result install = JRubyProcess.run(tmp, env, 5,
                "-S", "gem", "install", "--local", gem.toString());
        assertEquals(0, install.exitCode(), "gem install failed:\n" + install.output());
        assertTrue(install.output().contains("Successfully installed sluice-"), install.output());
        assertTrue(Files.isRegularFile(gemHome.resolve("gems").resolve(stem(gem)).resolve("lib/sluice/sluice-core.jar")),
                "the gem carries sluice-core's jar");

        Path suite = JRubyProcess.basedir().resolve("test/run.rb").toAbsolutePath();
        Map<String, String> suiteEnv = new java.util.HashMap<>(env);
        suiteEnv.put("SLUICE_EXPECT_GEM_HOME", gemHome.toString());
        JRubyProcess.Result tests = JRubyProcess.run(tmp, suiteEnv, 10, suite.toString(), "--verbose");
        assertTrue(tests.output().matches("(?s).*\\d+ runs, \\d+ assertions, 0 failures, 0 errors, \\d+ skips.*"),
                "no clean minitest summary");
        assertEquals(0, tests.exitCode(), "the minitest suite failed");
    }

    /** The one {@code sluice-*-java.gem} in target/. */
    private static Path builtGem() throws IOException {
        Path target = JRubyProcess.basedir().resolve("target");
        try (Stream<Path> s = Files.list(target)) {
            List<Path> gems = s.filter(p -> p.getFileName().toString().matches("sluice-.*-java\\.gem")).toList();
            assertEquals(1, gems.size(), "expected one gem in " + target + ": " + gems);
            return gems.get(0).toAbsolutePath();
        }
    }

    /** {@code sluice-0.1.0.SNAPSHOT-java} for {@code sluice-0.1.0.SNAPSHOT-java.gem}. */
    private static String stem(Path gem) {
        String n = gem.getFileName().toString();
        return n.substring(0, n.length() - ".gem".length());
    }
}
