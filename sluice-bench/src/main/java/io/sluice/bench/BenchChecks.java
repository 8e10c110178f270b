package io.sluice.bench;

import io.sluice.bench.ByteSize;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What every benchmark checks before it writes anything: where it writes, that the data fits there, and where the
 * JSON rows go. Each failure is an {@link IllegalArgumentException} (bad input, exit code 2 of the command line)
 * whose one-line message names the option, the path and the cause.
 *
 * <p>{@code --dir} must exist: the benchmark makes a directory of its own inside it and removes it afterwards, so
 * nothing outside that is created, and a typo ({@code --dir /mnt/nvme/bnech}) is refused rather than made into a
 * directory tree that outlives the run.
 */
public final class BenchChecks {
    /** The most one timed sample may last: an hour (the default is 200 ms). */
    public static final long MAX_DURATION_MS = 3_600_000;
    /** The most rounds a row may have. */
    public static final int MAX_ROUNDS = 1000;
    /** Free space left untouched on top of what a benchmark writes: this, or 1% of the file system if less. */
    static final long SPARE = 256L << 20;

    private BenchChecks() {
    }

    /**
     * The directory to write in: {@code given}, or the system temp directory; checked to exist, to be a directory, and
     * to take a new directory (made and removed at once: a permission check alone misses a read-only file system,
     * and root passes every permission check).
     */
    public static Path dir(Path given) {
        Path d = given != null ? given : Path.of(System.getProperty("java.io.tmpdir"));
        String option = given != null ? "--dir " + d : "the temp directory " + d + " (--dir to choose another)";
        if (!Files.exists(d)) {
            throw new IllegalArgumentException(option + " does not exist; create it first (the benchmark makes and "
                    + "removes a directory of its own inside it)");
        }
        if (!Files.isDirectory(d)) {
            throw new IllegalArgumentException(option + " is not a directory");
        }
        try {
            Files.delete(Files.createTempDirectory(d, ".sluice-check-"));
        } catch (IOException e) {
            throw new IllegalArgumentException(option + ": cannot create files there: " + cause(e), e);
        }
        return d;
    }

    /**
     * Checks that {@code bytes} fit in {@code dir}'s file system with room to spare ({@link #SPARE}).
     *
     * @param what what needs the room, for the message: {@code "--size 8000000t"}, or with how it adds up:
     *             {@code "--size 8000000t (two files of that size)"}
     */
    public static void space(Path dir, long bytes, String what) {
        long usable;
        long total;
        try {
            FileStore store = Files.getFileStore(dir);
            usable = store.getUsableSpace();
            total = store.getTotalSpace();
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot tell the free space in " + dir + ": " + cause(e), e);
        }
        long spare = Math.min(SPARE, total / 100);
        if (bytes > usable - spare) {
            String needs = bytes == Long.MAX_VALUE ? "more than 8 EiB" : ByteSize.format(bytes);
            throw new IllegalArgumentException(what + " needs " + needs + " in " + dir + ", but only "
                    + ByteSize.format(usable) + " is free there" + (spare > 0 ? " and " + ByteSize.format(spare)
                    + " is kept spare" : ""));
        }
    }

    /** {@code a + b}, or {@link Long#MAX_VALUE} where that overflows: sizes that large are refused anyway. */
    public static long plus(long a, long b) {
        long s = a + b;
        return ((a ^ s) & (b ^ s)) < 0 ? Long.MAX_VALUE : s;
    }

    /** {@code a * b} for non-negative numbers, or {@link Long#MAX_VALUE} where that overflows. */
    public static long times(long a, long b) {
        return b != 0 && a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
    }

    /**
     * Checks {@code --json FILE} before the run, so that an hour of measurements is not lost to a typo at the end:
     * its directory exists and takes a new file (made and removed at once), and it is not a directory itself.
     * {@code null} (no JSON) and {@code -} (standard output) pass.
     */
    public static void json(Path json) {
        if (json == null || json.toString().equals("-")) {
            return;
        }
        output(json, "--json");
    }

    /**
     * Checks a file a command will write at its end ({@code --json}, {@code --report}, {@code -o}): its directory
     * exists and takes a new file (made and removed at once), and it is not a directory itself. {@code null} passes.
     *
     * @param option the option that named it, for the message
     */
    public static void output(Path file, String option) {
        if (file == null) {
            return;
        }
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException(option + " " + file + " is a directory");
        }
        Path parent = file.toAbsolutePath().getParent();
        if (!Files.isDirectory(parent)) {
            throw new IllegalArgumentException(option + " " + file + ": " + (Files.exists(parent) ? parent
                    + " is not a directory" : "directory " + parent + " does not exist"));
        }
        try {
            Files.delete(Files.createTempFile(parent, ".sluice-check-", ".tmp"));
        } catch (IOException e) {
            throw new IllegalArgumentException(option + " " + file + ": cannot create files in " + parent + ": "
                    + cause(e), e);
        }
    }

    /**
     * Checks the length of one timed sample and the number of rounds.
     *
     * @return the sample length in nanoseconds
     */
    public static long duration(long durationMs, int rounds) {
        if (durationMs < 1 || durationMs > MAX_DURATION_MS) {
            throw new IllegalArgumentException("--duration must be 1 to " + MAX_DURATION_MS + " ms (an hour per "
                    + "sample): " + durationMs);
        }
        rounds(rounds);
        return durationMs * 1_000_000;
    }

    /** Checks the number of rounds. */
    public static void rounds(int rounds) {
        if (rounds < 1 || rounds > MAX_ROUNDS) {
            throw new IllegalArgumentException("--rounds must be 1 to " + MAX_ROUNDS + ": " + rounds);
        }
    }

    /**
     * Checks {@code --forks}: how many JVMs each forked Java contender gets per cell, one after another, each for a
     * share of the rounds. It must be 1 to {@code rounds} (a JVM without a round would add nothing but its start), and
     * 1 when the contenders run in the bench's own JVM ({@code fork} false), which cannot be replaced.
     */
    public static void forks(int forks, int rounds, boolean fork) {
        if (forks < 1) {
            throw new IllegalArgumentException("--forks must be at least 1: " + forks);
        }
        if (forks > 1 && !fork) {
            throw new IllegalArgumentException("--forks " + forks + " cannot go with --no-fork: --forks starts fresh "
                    + "JVMs for each Java contender, and --no-fork measures them all in the bench's own JVM, which "
                    + "cannot be replaced");
        }
        if (forks > rounds) {
            throw new IllegalArgumentException("--forks " + forks + " is more than --rounds " + rounds + ": each JVM "
                    + "measures a share of the rounds, so there can be at most one JVM per round");
        }
    }

    /** The cause of a failed check in words: "permission denied", "Read-only file system". */
    private static String cause(IOException e) {
        if (e instanceof FileSystemException f) {
            return reason(f);
        }
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }

    /**
     * The cause of a file system error in words, where the JDK's exception type says it and its message does not.
     *
     * @param f the error
     * @return its cause, as {@code "permission denied"}
     */
    public static String reason(FileSystemException f) {
        return switch (f) {
            case java.nio.file.NoSuchFileException x -> "no such file or directory";
            case java.nio.file.AccessDeniedException x -> "permission denied";
            case java.nio.file.FileAlreadyExistsException x -> "already exists";
            case java.nio.file.NotDirectoryException x -> "not a directory";
            case java.nio.file.DirectoryNotEmptyException x -> "directory not empty";
            default -> f.getReason() != null ? f.getReason() : f.getClass().getSimpleName();
        };
    }
}
