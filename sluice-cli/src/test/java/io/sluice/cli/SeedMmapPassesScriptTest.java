package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/seed-mmap-passes.sh --pair: the post's fastest writer and Sluice::MappedWriter taking turns in one JVM
 * (scripts/seed-mmap-pair.rb), on a tiny size, against a checkout of the post's benchmark named by
 * {@value SeedMmapHarnessScriptTest#CHECKOUT_VARIABLE}.
 */
class SeedMmapPassesScriptTest {
    private static final Path SCRIPT = Path.of("").toAbsolutePath().getParent().resolve("scripts/seed-mmap-passes.sh");

    private static String run(Path tmp, List<String> args, int expectedExit) throws Exception {
        Path log = tmp.resolve("out.txt");
        List<String> command = new java.util.ArrayList<>(List.of(SCRIPT.toString()));
        command.addAll(args);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(p.waitFor(10, TimeUnit.MINUTES), "the script did not finish in 10 minutes");
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertEquals(expectedExit, p.exitValue(), out);
        return out;
    }

    @Test
    void dirtyPagesAreAnOptionOfThePairOnly(@TempDir Path tmp) throws Exception {
        // Refused before anything is built or run, so any directory stands for the checkout here.
        String out = run(tmp, List.of(tmp.toString(), "--dirty"), 2);
        assertTrue(out.contains("--dirty goes with --pair SIZE"), out);
    }

    @Test
    void rowsAreTheThreeWritersOnly(@TempDir Path tmp) throws Exception {
        String out = run(tmp, List.of(tmp.toString(), "--rows", "ext,direct,pure"), 2);
        assertTrue(out.contains("--rows takes ext, sluice, reopen and direct, comma-separated: ext,direct,pure"), out);
    }

    @Test
    void thePairTakesTurnsOverCleanOrOverDirtyPages(@TempDir Path tmp) throws Exception {
        String checkout = SeedMmapHarnessScriptTest.checkout();
        Pattern result = Pattern.compile("(?m)^  MmapFileExt +median ns per write by quarter: [0-9 ]+\n"
                + "  MappedWriter median ns per write by quarter: [0-9 ]+\n"
                + "  MappedWriter / MmapFileExt, speed, median of the passes: all [0-9.]+, last half [0-9.]+$");
        String dirty = run(tmp, List.of(checkout, "--chunk", "4", "--passes", "2", "--jvms", "1", "--dir",
                tmp.toString(), "--pair", "1048576", "--dirty"), 0);
        assertTrue(dirty.contains("4k writes, 1 MiB per pass, 2 passes each, taking turns, over the pages the pass "
                + "before left dirty"), dirty);
        assertTrue(result.matcher(dirty).find(), dirty);
        String clean = run(tmp, List.of(checkout, "--chunk", "1", "--passes", "2", "--jvms", "1", "--dir",
                tmp.toString(), "--pair", "1048576"), 0);
        assertTrue(clean.contains("1k writes, 1 MiB per pass, 2 passes each, taking turns, over clean pages "
                + "(fdatasync before each pass)"), clean);
        assertTrue(result.matcher(clean).find(), clean);
        // Nothing left behind but the test's own log.
        try (var s = Files.list(tmp)) {
            assertEquals(1, s.count(), clean);
        }
    }
}
