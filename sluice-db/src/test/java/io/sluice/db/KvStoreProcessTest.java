package io.sluice.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Stores shared with, and killed in, other processes. */
class KvStoreProcessTest {
    @TempDir
    Path dir;

    /** Crash trials run here; {@code -Dsluice.db.crashTrials=20} runs more by hand. */
    private static final int TRIALS = Integer.getInteger("sluice.db.crashTrials", 3);

    static Process child(String mode, Path file) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                StoreChild.class.getName(), mode, file.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    @Test
    void aFileOpenInAnotherProcessIsRefusedWithAClearMessage() throws Exception {
        Path f = dir.resolve("shared.db");
        Process p = child("hold", f);
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            assertEquals("open", out.readLine());
            IOException e = assertThrows(IOException.class, () -> KvStore.open(f, true, true, false));
            assertTrue(e.getMessage().contains("locked by another process"), e.getMessage());
            assertThrows(IOException.class, () -> KvStore.open(f, false, false, false));
        } finally {
            p.destroyForcibly().waitFor();
        }
        // The lock goes with the process.
        try (KvStore kv = KvStore.open(f, true, false, false)) {
            assertEquals(0, kv.count());
        }
    }

    @Test
    void everyTransactionCommittedBeforeAKill9IsThere() throws Exception {
        Random r = new Random(7);
        for (int trial = 0; trial < TRIALS; trial++) {
            Path f = dir.resolve("crash-" + trial + ".db");
            Process p = child("commit", f);
            long last = -1;
            try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                // Kill after a random number of acknowledged commits (at least one), while more are under way.
                long target = 50 + r.nextInt(2000);
                String line;
                while ((line = out.readLine()) != null) {
                    last = Long.parseLong(line);
                    if (last >= target) {
                        break;
                    }
                }
                // SIGKILL through the handle: Process.destroyForcibly would also close the pipe still to be drained.
                p.toHandle().destroyForcibly();
                assertTrue(p.waitFor(10, TimeUnit.SECONDS));
                // Lines printed between reading the target and the kill are acknowledged commits too.
                while ((line = out.readLine()) != null) {
                    last = Long.parseLong(line);
                }
            }
            assertTrue(last >= 0, "the child committed nothing");
            try (KvStore kv = KvStore.open(f, false, false, false)) {
                for (long t = 0; t <= last; t++) {
                    for (int i = 0; i < 10; i++) {
                        assertNotNull(kv.get(StoreChild.key(t, i)), "trial " + trial + ": transaction " + t + " key " + i
                                + " lost (last acknowledged " + last + ")");
                    }
                }
                assertEquals(0, kv.count() % 10, "trial " + trial + ": a transaction was kept in part");
            }
        }
    }
}
