package io.sluice.bench;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Writes a measurements file in the One Billion Row Challenge's format: one line per measurement,
 * {@code <station>;<temperature>\n}, the temperature in degrees Celsius with one decimal, from -99.9 to 99.9. As in
 * the challenge's generator, each line's station is drawn uniformly from {@link Stations} and its temperature from a
 * normal distribution around the station's mean with a standard deviation of 10, rounded to a tenth (and here also
 * clamped to the range the format allows, which that distribution leaves only far out in its tails).
 *
 * <p>The file depends only on the row count and the seed: rows are made in chunks of {@value #CHUNK_ROWS}, each from
 * its own random generator seeded from the seed and the chunk's number, so chunks are made on every core and the
 * bytes do not depend on how many.
 */
final class Measurements {
    /** Rows per chunk: one chunk's bytes (about 14 MB) are made by one thread, then written in order. */
    static final int CHUNK_ROWS = 1 << 20;
    /** The longest temperature, {@code -99.9}, with its ';' and newline. */
    private static final int MAX_VALUE_BYTES = 7;

    private Measurements() {
    }

    /** The file's name for {@code rows} and {@code seed}, so that a kept file is found again for the same ones. */
    static String fileName(long rows, long seed) {
        return "measurements-" + rows + "-seed" + seed + ".txt";
    }

    /** About the file's size: rows times the mean name length plus the longest value, a little over the real size. */
    static long estimatedSize(long rows) {
        List<Stations.Station> stations = Stations.all();
        double meanName = stations.stream().mapToInt(s -> s.utf8().length).average().orElse(0);
        return (long) Math.ceil(rows * (meanName + MAX_VALUE_BYTES));
    }

    /**
     * Writes {@code rows} rows to {@code partial}, then renames it {@code file} (on the same file system), so that a
     * file of that name is always whole.
     *
     * @return the file's size
     */
    static long write(Path file, Path partial, long rows, long seed, int threads, PrintWriter log)
            throws IOException {
        long chunks = (rows + CHUNK_ROWS - 1) / CHUNK_ROWS;
        long written = 0;
        long t0 = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> Thread.ofPlatform().daemon()
                .name("sluice-bench-generate").unstarted(r));
        try (FileChannel out = FileChannel.open(partial, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            // A few chunks ahead of the one being written, so every core is busy and memory stays bounded.
            ArrayDeque<Future<ByteBuffer>> ahead = new ArrayDeque<>();
            long next = 0;
            int reported = 0;
            for (long c = 0; c < chunks; c++) {
                while (next < chunks && ahead.size() < threads * 2) {
                    long chunk = next++;
                    int n = (int) Math.min(CHUNK_ROWS, rows - chunk * CHUNK_ROWS);
                    ahead.add(pool.submit(() -> chunk(seed, chunk, n)));
                }
                ByteBuffer b = take(ahead.poll());
                while (b.hasRemaining()) {
                    written += out.write(b, written);
                }
                int tenth = (int) ((c + 1) * 10 / chunks);
                if (tenth > reported && chunks >= 10) {
                    reported = tenth;
                    log.printf(Locale.ROOT, " %d%%", tenth * 10);
                    log.flush();
                }
            }
        } finally {
            pool.shutdownNow();
        }
        Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        log.printf(Locale.ROOT, " (%.1f s)%n", (System.nanoTime() - t0) / 1e9);
        return written;
    }

    private static ByteBuffer take(Future<ByteBuffer> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("generating measurements: interrupted");
        } catch (ExecutionException e) {
            throw new IllegalStateException("generating measurements failed", e.getCause());
        }
    }

    /** Rows {@code chunk * CHUNK_ROWS} to that plus {@code n} of the file. */
    static ByteBuffer chunk(long seed, long chunk, int n) {
        List<Stations.Station> stations = Stations.all();
        int longest = stations.stream().mapToInt(s -> s.utf8().length).max().orElse(0);
        byte[] out = new byte[n * (longest + MAX_VALUE_BYTES)];
        // Seeds of neighbouring chunks differ in one bit; SplittableRandom mixes its seed, so their streams do not
        // resemble each other.
        SplittableRandom rnd = new SplittableRandom(seed * 0x9E37_79B9_7F4A_7C15L + chunk);
        int at = 0;
        for (int i = 0; i < n; i++) {
            Stations.Station s = stations.get(rnd.nextInt(stations.size()));
            byte[] name = s.utf8();
            System.arraycopy(name, 0, out, at, name.length);
            at += name.length;
            out[at++] = ';';
            long tenths = Math.clamp(Math.round(rnd.nextGaussian(s.mean(), 10) * 10), -999, 999);
            if (tenths < 0) {
                out[at++] = '-';
                tenths = -tenths;
            }
            if (tenths >= 100) {
                out[at++] = (byte) ('0' + tenths / 100);
            }
            out[at++] = (byte) ('0' + tenths / 10 % 10);
            out[at++] = '.';
            out[at++] = (byte) ('0' + tenths % 10);
            out[at++] = '\n';
        }
        return ByteBuffer.wrap(out, 0, at);
    }
}
