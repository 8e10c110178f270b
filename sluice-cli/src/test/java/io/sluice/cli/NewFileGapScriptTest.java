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

/** scripts/new-file-gap.sh on small files: one timed line per gap, the machine's reporting said, nothing left. */
class NewFileGapScriptTest {
    private static final Path SCRIPT = Path.of("").toAbsolutePath().getParent().resolve("scripts/new-file-gap.sh");

    private static Process start(Path log, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(SCRIPT.toString()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    @Test
    void eachGapGivesOneTimedWriteAndTheFileIsRemoved(@TempDir Path tmp) throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("work"));
        Path log = tmp.resolve("out.txt");
        Process p = start(log, "--size", "8", "--dir", dir.toString(), "0", "0.1");
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "the script did not finish in 2 minutes");
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
        assertTrue(Pattern.compile("(?m)^free page reporting to the host \\(virtio-balloon\\): (yes|no); "
                + "8 MiB per file, in " + Pattern.quote(dir.toString()) + "$").matcher(out).find(), out);
        var timed = Pattern.compile("(?m)^deleted +(\\S+)s before: +[0-9.]+ s real, +[0-9.]+ s system").matcher(out);
        assertTrue(timed.find() && timed.group(1).equals("0"), out);
        assertTrue(timed.find() && timed.group(1).equals("0.1"), out);
        assertTrue(!timed.find(), out);
        try (var s = Files.list(dir)) {
            assertEquals(0, s.count(), "the script's file is removed: " + out);
        }
    }

    @Test
    void badArgumentsAreRefusedBeforeAnythingIsWritten(@TempDir Path tmp) throws Exception {
        Path log = tmp.resolve("out.txt");
        for (String[] args : new String[][] {{"--dir", tmp.toString()}, {"--size", "0", "--dir", tmp.toString(), "1"},
                {"--dir", tmp.toString(), "soon"}}) {
            Process p = start(log, args);
            assertTrue(p.waitFor(1, TimeUnit.MINUTES));
            String out = Files.readString(log, StandardCharsets.UTF_8);
            assertEquals(2, p.exitValue(), String.join(" ", args) + ": " + out);
            try (var s = Files.list(tmp)) {
                assertEquals(1, s.count(), "only the test's log: " + out);
            }
        }
    }
}
