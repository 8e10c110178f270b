package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/seed-mmap-harness.sh on a tiny size against a checkout of the JRuby mmap post's benchmark, named by the
 * environment variable {@value #CHECKOUT_VARIABLE} (the project does not carry the post's code). It starts the
 * project's launcher, which builds the project first when its sources changed.
 */
class SeedMmapHarnessScriptTest {
    static final String CHECKOUT_VARIABLE = "SLUICE_SEED_MMAP_CHECKOUT";

    /** The checkout {@value #CHECKOUT_VARIABLE} names; a test that needs one is skipped without it. */
    static String checkout() {
        String checkout = System.getenv(CHECKOUT_VARIABLE);
        assumeTrue(checkout != null && Files.isRegularFile(Path.of(checkout, "mmap_test.rb")),
                "no checkout of colinsurprenant/jruby-mmap-benchmark: set " + CHECKOUT_VARIABLE + " to one");
        return checkout;
    }

    @Test
    void anUnknownProtocolIsRefusedNamingTheThree(@TempDir Path tmp) throws Exception {
        // Any directory passes as the checkout here: the options are checked before it is looked into.
        Path script = Path.of("").toAbsolutePath().getParent().resolve("scripts/seed-mmap-harness.sh");
        Process p = new ProcessBuilder(script.toString(), tmp.toString(), "--protocol", "quiet")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(1, TimeUnit.MINUTES), out);
        assertEquals(2, p.exitValue(), out);
        assertTrue(out.contains("--protocol is settled, dropped or rakefile, not quiet"), out);
    }

    @Test
    void theScriptRunsThePostsHarnessWithOurRowAndItsControlAndPrintsBothTables(@TempDir Path tmp) throws Exception {
        String checkout = checkout();
        Path root = Path.of("").toAbsolutePath().getParent();
        Path script = root.resolve("scripts/seed-mmap-harness.sh");
        Path log = tmp.resolve("out.txt");
        Process p = new ProcessBuilder(script.toString(), checkout, "--size", "1048576", "--rounds", "2",
                "--control", "--dir", tmp.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(p.waitFor(15, TimeUnit.MINUTES), "the script did not finish in 15 minutes");
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
        // The post's harness ran each row (its bmbm lines), our row included.
        assertTrue(out.contains("java MmapFileExt, unboxed, unsafe, 16k ruby String"), out);
        assertTrue(out.contains("Sluice::MappedWriter, 1k ruby String"), out);
        // Both tables, and the ratio from each harness with their agreement, as numbers.
        for (String label : new String[] {"the post's harness", "sluice bench jruby (rewritten)",
                "agreement (post / ours)", "sluice bench jruby (cached)"}) {
            assertTrue(Pattern.compile("(?m)^" + Pattern.quote(label) + " +[0-9.]+ +[0-9.]+ +[0-9.]+$").matcher(out)
                    .find(), label + "\n" + out);
        }
        // Ours timed its rewritten cells (the post's measured pass) and its cached ones.
        assertTrue(Pattern.compile("(?m)^seqwrite, 4k String chunks, rewritten file:").matcher(out).find(), out);
        assertTrue(Pattern.compile("(?m)^seqwrite, 4k String chunks, cached file:").matcher(out).find(), out);
        // The control rows ran in the post's harness, and their three ratios are printed.
        assertTrue(out.contains("| MmapFileExt through the row adapter, 4k ruby String"), out);
        assertTrue(out.contains("| Sluice::MappedWriter reopened at seek, 16k ruby String"), out);
        for (String label : new String[] {"reopened / MmapFileExt", "MmapFileExt: through the adapter / direct",
                "reopened / MmapFileExt through the adapter"}) {
            assertTrue(Pattern.compile("(?m)^" + Pattern.quote(label) + " +[0-9.]+ +[0-9.]+ +[0-9.]+$").matcher(out)
                    .find(), label + "\n" + out);
        }
        // Ours with a fresh JVM per row, cell and round by default, as the post's harness starts them.
        assertTrue(out.contains("--rounds 2 --forks 2 "), out);
        // Both harnesses' JVMs get the same fixed heap, by default.
        assertTrue(out.contains("every JVM of both harnesses: a fixed heap of 1g, touched when it starts"), out);
        assertTrue(out.contains("--heap 1g "), out);
        assertTrue(out.contains("Every JRuby JVM had a fixed heap of 1 GiB"), out);
        assertTrue(out.contains("medians of 2 rounds from 2 JVMs per row"), out);
        assertTrue(out.contains("Unreliable on a VM"), out);
        assertTrue(out.contains("sluice bench jruby's own table:"), out);
        // Settled by default: said on standard error for the pool script, and in the header. Round 2 is led by the
        // second row, so the post's fastest writer's 1k run comes first in it.
        assertTrue(out.contains("protocol: settled\n"), out);
        assertTrue(out.contains("settled: dirty pages written out (sync) before each row's JVM"), out);
        assertTrue(Pattern.compile("(?m)^  round 1 .*\n  round 2  new file +[0-9.]+s  written back +[0-9]+ MiB  \\| "
                + "java MmapFileExt, unboxed, unsafe, 1k").matcher(out).find(), out);
        // In a Williams order: with the two control rows, round 1 takes the rows 0, 1, 4, 2, 3, so that over ten
        // rounds each follows every other twice; only leading in turn would have kept Sluice::MappedWriter behind
        // MmapFileExt.
        assertTrue(out.contains("each\nfollowing every other equally often over 10 rounds"), out);
        assertTrue(Pattern.compile("(?m)^  round 1 .*\\| java MmapFileExt, unboxed, unsafe, 1k.*\n  round 1 .*\\| "
                + "MmapFileExt through the row adapter, 1k.*\n  round 1 .*\\| Sluice::MappedWriter, 1k.*\n  round 1 .*\\| "
                + "Sluice::MappedWriter reopened at seek, 1k").matcher(out).find(), out);
        assertTrue(Pattern.compile("(?m)^MiB the kernel wrote back .*\n.*\n(.* +[0-9]+ +[0-9]+ +[0-9]+\n){3}")
                .matcher(out).find(), out);
        // Nothing left behind but the test's own log.
        try (var s = Files.list(tmp)) {
            assertEquals(1, s.count(), out);
        }
    }
}
