package io.sluice.jmh;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;

/**
 * The data file a benchmark trial reads: created in the directory named by the system property
 * {@value #DIR_PROPERTY} (else the JVM's temporary directory), filled with pseudo-random bytes, flushed, then read
 * through once so that every page is in the page cache before the first measured read.
 *
 * <p>Why these steps:
 * <ul>
 *   <li>Every byte is made non-zero so the file can be neither sparse nor compressible: a read always copies real
 *       page-cache pages, never the shared zero page.</li>
 *   <li>{@code force} before measuring, so the kernel's write-back of dirty pages does not run during the trial
 *       and steal disk bandwidth and CPU from it.</li>
 *   <li>The read-through brings back any page evicted since it was written; after it, reads measure copies from
 *       the page cache, not the disk.</li>
 * </ul>
 */
final class BenchFile {
    /** The system property naming the directory for data files; must be passed to the forked JVMs, see JMH.md. */
    static final String DIR_PROPERTY = "sluice.bench.dir";

    /** The name every data file starts with, so leftovers of a killed run are easy to find and delete. */
    static final String PREFIX = "sluice-bench-";

    private static final int CHUNK = 1 << 20;
    /** Sets the low bit of every byte of a long, which makes each byte non-zero. */
    private static final long NON_ZERO = 0x0101_0101_0101_0101L;

    private BenchFile() {
    }

    /**
     * Creates, fills, flushes and warms a data file of {@code size} bytes.
     *
     * @throws IllegalArgumentException if {@code size} is not positive
     */
    static Path create(long size) throws IOException {
        if (size <= 0) {
            throw new IllegalArgumentException("fileSize must be positive: " + size);
        }
        String dirName = System.getProperty(DIR_PROPERTY);
        Path dir = dirName == null || dirName.isBlank()
                ? Path.of(System.getProperty("java.io.tmpdir"))
                : Path.of(dirName);
        Path path = Files.createTempFile(dir, PREFIX, ".bin");
        boolean success = false;
        try {
            fill(path, size);
            warm(path);
            success = true;
            return path;
        } finally {
            if (!success) {
                Files.deleteIfExists(path);
            }
        }
    }

    /** Deletes a data file; failures are reported, not thrown, so they never hide a benchmark's own error. */
    static void delete(Path path) {
        if (path == null) {
            return;
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            System.err.println("# could not delete benchmark data file " + path + ": " + e);
        }
    }

    private static void fill(Path path, long size) throws IOException {
        // A fixed seed makes the contents, and so any content-dependent effect, the same in every trial.
        SplittableRandom random = new SplittableRandom(0x51_1CE);
        ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK).order(ByteOrder.nativeOrder());
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE)) {
            long written = 0;
            while (written < size) {
                chunk.clear();
                while (chunk.hasRemaining()) {
                    chunk.putLong(random.nextLong() | NON_ZERO);
                }
                chunk.flip().limit((int) Math.min(CHUNK, size - written));
                while (chunk.hasRemaining()) {
                    written += ch.write(chunk, written);
                }
            }
            ch.force(false);
        }
    }

    private static void warm(Path path) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK);
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long pos = 0;
            int n;
            while ((n = ch.read(chunk.clear(), pos)) > 0) {
                pos += n;
            }
        }
    }
}
