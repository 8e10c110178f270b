package io.sluice.bench;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A new directory that holds a benchmark's files, removed with them on {@link #close()} and, when the run is
 * stopped (Ctrl-C, {@code kill}), by a shutdown hook: a benchmark writes gigabytes, and a stopped run must not
 * leave them behind. Files only, no subdirectories.
 */
final class ScratchDir implements AutoCloseable {
    /** How many times removal starts over when the run, still going while the hook works, made a file meanwhile. */
    private static final int ATTEMPTS = 20;

    private final Path dir;
    private final Thread hook;

    private ScratchDir(Path dir) {
        this.dir = dir;
        this.hook = new Thread(this::delete, "sluice-bench-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * Makes a new directory in {@code parent}, which must exist: a benchmark creates nothing outside its own
     * directory.
     */
    static ScratchDir create(Path parent, String prefix) throws IOException {
        return new ScratchDir(Files.createTempDirectory(parent, prefix));
    }

    /** The directory. */
    Path path() {
        return dir;
    }

    /** A file in the directory. */
    Path resolve(String name) {
        return dir.resolve(name);
    }

    /**
     * Deletes the files, then the directory. A shutdown hook runs while the benchmark's threads still run, so one
     * may create a file between the two steps; then it starts over. Once the directory is gone nothing more can be
     * made in it.
     */
    private void delete() {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
                for (Path f : files) {
                    Files.deleteIfExists(f);
                }
            } catch (NoSuchFileException gone) {
                return;
            } catch (IOException e) {
                System.err.println("sluice: could not remove the files in " + dir + ": " + e.getMessage());
                return;
            }
            try {
                Files.deleteIfExists(dir);
                return;
            } catch (DirectoryNotEmptyException madeMeanwhile) {
                // again
            } catch (IOException e) {
                System.err.println("sluice: could not remove " + dir + ": " + e.getMessage());
                return;
            }
        }
        System.err.println("sluice: could not remove " + dir + ": files kept appearing in it");
    }

    @Override
    public void close() {
        delete();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }
}
