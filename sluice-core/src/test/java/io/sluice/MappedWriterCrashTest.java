package io.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a writing process with SIGKILL at random moments and checks what {@link MappedWriter} promises about the
 * file left behind: every byte acknowledged by {@code force()} is there and correct, the rest of the file holds
 * written bytes or zeros, and the file is a whole number of windows long (it was grown a window at a time).
 *
 * <p>A kill leaves the kernel running, so bytes written after the last {@code force()} are usually in the file too;
 * what this test proves is that nothing acknowledged is lost or wrong wherever the process dies: in a copy, between
 * windows, in the middle of a flush. Trials run until a time budget is spent.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MappedWriterCrashTest {
    /** Wall-clock budget for all trials. */
    private static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(15);
    private static final int MIN_TRIALS = 8;
    private static final int MAX_TRIALS = 60;

    @TempDir
    Path dir;

    @Test
    void everyForcedByteSurvivesAKillAtARandomMoment() throws Exception {
        SplittableRandom rnd = new SplittableRandom(Long.getLong(PositionalFileContract.SEED_PROPERTY,
                System.nanoTime()));
        long seed = rnd.nextLong();
        long t0 = System.nanoTime();
        int trials = 0;
        int killedAfterAForce = 0;
        List<String> log = new ArrayList<>();
        while (trials < MAX_TRIALS && (trials < MIN_TRIALS || System.nanoTime() - t0 < BUDGET_NANOS)) {
            long window = new long[] {4096, 64 * 1024, 1 << 20}[rnd.nextInt(3)];
            long killAfterMs = rnd.nextLong(400);
            Path p = dir.resolve("trial-" + trials);
            long childSeed = seed + trials;
            // Every other child runs without native access: pages are then faulted in by the copies rather than
            // asked for ahead, a different path to the same file.
            boolean nativeAccess = trials % 2 == 0;
            Trial t = runAndKill(p, window, childSeed, killAfterMs, nativeAccess);
            String what = "trial " + trials + " (window " + window + ", seed " + childSeed + ", kill after "
                    + killAfterMs + " ms, native access " + nativeAccess + "): forced " + t.forced + ", file "
                    + Files.size(p);
            log.add(what);
            check(p, window, t.forced, what);
            if (t.forced > 0) {
                killedAfterAForce++;
            }
            Files.delete(p);
            trials++;
        }
        assertTrue(killedAfterAForce >= MIN_TRIALS / 2,
                "too few trials got as far as a force before the kill:\n" + String.join("\n", log));
    }

    private record Trial(long forced) {
    }

    /** Starts a child writing to {@code p}, kills it {@code killAfterMs} after it opened the writer. */
    private static Trial runAndKill(Path p, long window, long seed, long killAfterMs, boolean nativeAccess)
            throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        // Standard output goes to a file rather than a pipe: every line in it was written by the child before it
        // died, and none can be lost by the JDK closing the pipe when the process ends.
        Path acks = p.resolveSibling(p.getFileName() + ".acks");
        List<String> cmd = new ArrayList<>(List.of(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-Xmx64m", "-cp", System.getProperty("java.class.path"), Child.class.getName(),
                p.toString(), Long.toString(window), Long.toString(seed)));
        if (nativeAccess) {
            cmd.add(1, "--enable-native-access=ALL-UNNAMED");
        }
        Process child = new ProcessBuilder(cmd)
                .redirectOutput(acks.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!Files.readString(acks, StandardCharsets.US_ASCII).startsWith("open\n")) {
                if (!child.isAlive()) {
                    fail("the child ended by itself with exit code " + child.exitValue());
                }
                if (System.nanoTime() > deadline) {
                    fail("the child did not start within 30 s");
                }
                Thread.sleep(2);
            }
            Thread.sleep(killAfterMs);
        } finally {
            child.destroyForcibly();
            if (!child.waitFor(30, TimeUnit.SECONDS)) {
                fail("the child did not die within 30 s of SIGKILL");
            }
        }
        long forced = 0;
        String all = Files.readString(acks, StandardCharsets.US_ASCII);
        // Only whole lines count: the kill may cut the last one short.
        for (String line : all.substring(0, all.lastIndexOf('\n') + 1).split("\n")) {
            if (!line.equals("open")) {
                long n = Long.parseLong(line);
                assertTrue(n >= forced, "forced length went back from " + forced + " to " + n);
                forced = n;
            }
        }
        Files.delete(acks);
        return new Trial(forced);
    }

    private static void check(Path p, long window, long forced, String what) throws IOException {
        long size = Files.size(p);
        assertTrue(size >= forced, what + ": the file is shorter than the forced length");
        assertEquals(0, size % window, what + ": the file grows by whole windows");
        try (FileChannel c = FileChannel.open(p, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(1 << 20);
            for (long pos = 0; pos < size; pos += b.capacity()) {
                b.clear().limit((int) Math.min(b.capacity(), size - pos));
                while (b.hasRemaining()) {
                    if (c.read(b, pos + b.position()) < 0) {
                        fail(what + ": file ended early");
                    }
                }
                for (int i = 0; i < b.limit(); i++) {
                    long at = pos + i;
                    byte expected = Pattern.at(at);
                    byte got = b.get(i);
                    if (at < forced ? got != expected : got != expected && got != 0) {
                        fail(what + ": byte " + at + " is " + got + ", expected " + expected
                                + (at < forced ? " (acknowledged by force)" : " or 0 (after the last force)"));
                    }
                }
            }
        }
    }

    /**
     * The writing process: opens a writer, prints {@code open}, then writes pattern bytes (so any byte can be checked
     * from its offset alone) in records of random size through every kind of source, and after some records
     * forces and prints the forced length, until it is killed.
     */
    public static final class Child {
        public static void main(String[] args) throws IOException {
            Path p = Path.of(args[0]);
            long window = Long.parseLong(args[1]);
            SplittableRandom rnd = new SplittableRandom(Long.parseLong(args[2]));
            PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
                    StandardCharsets.US_ASCII);
            byte[] record = new byte[256 * 1024];
            try (MappedWriter w = MappedWriter.open(p, 0, window, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                out.println("open");
                for (int i = 0; ; i++) {
                    int len = rnd.nextInt(8) == 0 ? rnd.nextInt(record.length) : rnd.nextInt(2048);
                    long pos = w.position();
                    for (int k = 0; k < len; k++) {
                        record[k] = Pattern.at(pos + k);
                    }
                    Src.values()[i % Src.values().length].append(w, record, 0, len);
                    if (rnd.nextInt(16) == 0) {
                        w.force();
                        out.println(w.position());
                    }
                    if (w.position() > (256L << 20)) {
                        // Never reached within a trial's time; keeps a stuck parent from filling the disk.
                        out.println("limit");
                        Thread.onSpinWait();
                        return;
                    }
                }
            }
        }
    }
}
