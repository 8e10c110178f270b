package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/seed-mmap-carryover.sh: its argument checks everywhere, and on a tiny size against a checkout of the JRuby
 * mmap post's benchmark named by {@value SeedMmapHarnessScriptTest#CHECKOUT_VARIABLE}, its cycles and medians.
 */
class SeedMmapCarryoverScriptTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    private static Result run(Path tmp, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(ROOT.resolve("scripts/seed-mmap-carryover.sh").toString()));
        command.addAll(List.of(args));
        Path log = tmp.resolve("out.txt");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(p.waitFor(15, TimeUnit.MINUTES), "the script did not finish in 15 minutes");
        return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    private record Result(int status, String out) {
    }

    @Test
    void badArgumentsAreRefusedBeforeAnythingRuns(@TempDir Path tmp) throws Exception {
        // Any directory passes as the checkout here: the options are checked before it is looked into.
        String dir = tmp.toString();
        Result kib = run(tmp, dir, "--kib", "3");
        assertEquals(2, kib.status(), kib.out());
        assertTrue(kib.out().contains("--kib is 1, 4 or 16: 3"), kib.out());
        Result cycles = run(tmp, dir, "--cycles", "0");
        assertEquals(2, cycles.status(), cycles.out());
        assertTrue(cycles.out().contains("--cycles takes a positive integer: 0"), cycles.out());
        Result size = run(tmp, dir, "--size", "1000");
        assertEquals(2, size.status(), size.out());
        assertTrue(size.out().contains("--size is a positive multiple of 16384"), size.out());
        Result unknown = run(tmp, dir, "--fast");
        assertEquals(2, unknown.status(), unknown.out());
        assertTrue(unknown.out().contains("CHECKOUT   a clone of"), unknown.out());
        Result notCheckout = run(tmp, dir);
        assertEquals(2, notCheckout.status(), notCheckout.out());
        assertTrue(notCheckout.out().contains(dir + " is not a jruby-mmap-benchmark checkout: no mmap_test.rb"),
                notCheckout.out());
        Result none = run(tmp);
        assertEquals(2, none.status(), none.out());
        assertTrue(none.out().contains("--drop"), none.out());
    }

    @Test
    void cyclesTakeEachWriterAfterItselfAndAfterTheOtherAndPrintTheMedians(@TempDir Path tmp) throws Exception {
        String checkout = SeedMmapHarnessScriptTest.checkout();
        Path work = Files.createDirectory(tmp.resolve("work"));
        Result r = run(tmp, checkout, "--size", "1048576", "--cycles", "2", "--kib", "4", "--dir", work.toString());
        assertEquals(0, r.status(), r.out());
        String out = r.out();
        // Eight JVMs in the order M M E E, each line naming the row before; the first follows none.
        Matcher m = Pattern.compile("(?m)^  cycle +([12])  ([ME]) after ([ME-])  ([0-9.]+) s$").matcher(out);
        StringBuilder order = new StringBuilder();
        while (m.find()) {
            order.append(m.group(2)).append(m.group(3)).append(' ');
        }
        assertEquals("M- MM EM EE ME MM EM EE ", order.toString(), out);
        // Medians for each row after each row (the first JVM not counted), and the ratios.
        for (String cell : new String[] {"M    after M  ", "M    after E  ", "E    after E  ", "E    after M  "}) {
            assertTrue(Pattern.compile("(?m)^  " + Pattern.quote(cell) + " +[0-9.]+ \\([0-9.]+-[0-9.]+\\), [12] runs$")
                    .matcher(out).find(), cell + "\n" + out);
        }
        assertTrue(Pattern.compile("(?m)^MappedWriter / MmapFileExt by speed, each after its own JVM: [0-9.]+$")
                .matcher(out).find(), out);
        assertTrue(Pattern.compile("(?m)^MmapFileExt after MappedWriter / after itself, time: [0-9.]+$")
                .matcher(out).find(), out);
        // The work directory and the files written are gone.
        try (var s = Files.list(work)) {
            assertEquals(0, s.count(), out);
        }
    }
}
