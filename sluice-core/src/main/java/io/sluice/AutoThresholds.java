package io.sluice;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;

/**
 * Where {@link Engine#AUTO} starts: the largest read it copies out of the mapping rather than {@code pread}s, for
 * native and for heap destinations, and where those numbers came from.
 *
 * <p>They come, first found first, from the system property {@value #PROPERTY} (pinned: the running refinement
 * is off), from the cache file {@code auto-thresholds.properties} under the user's cache directory when it was
 * written on this machine (by an earlier calibration or by {@code sluice bench}), or from a calibration run now,
 * which takes about a second and is then written there. The calibration times both paths on a warm file in
 * the temporary directory: what it measures, copies out of the page cache, depends on the processor and memory, not
 * on the device, so it is kept per machine; how a device's uncached reads change the picture is left to the rates
 * observed while running ({@link AutoChooser}).
 *
 * @param nativeMapMax reads of native memory (direct buffers, native segments) up to this many bytes use the mapping
 * @param heapMapMax   the same for heap arrays, heap buffers and heap segments
 * @param source       where they came from, in words, for {@code sluice info}
 */
record AutoThresholds(long nativeMapMax, long heapMapMax, String source) {
    /** The system property that pins the thresholds: one size for both kinds ({@code 64k}) or two ({@code 64k,256k}). */
    static final String PROPERTY = "sluice.auto.map-max";
    /** Overrides the directory holding the cache file (default {@code $XDG_CACHE_HOME/sluice} or {@code ~/.cache/sluice}). */
    static final String CACHE_DIR_PROPERTY = "sluice.cache.dir";
    static final String CACHE_FILE = "auto-thresholds.properties";

    /** The sizes the calibration tries, each four times the last. */
    private static final long[] CALIBRATED = {4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20};
    /**
     * Larger than a processor's last-level cache, so a large copy out of the mapping runs at memory speed as it does
     * on real files; with a 4 MiB file the mapping won at 1 MiB here while on a 1 GiB file it lost there.
     */
    private static final int CALIBRATION_FILE = 64 << 20;
    private static final long BYTES_PER_ROUND = 8 << 20;
    private static final int ROUNDS = 5;

    AutoThresholds {
        Objects.requireNonNull(source, "source");
    }

    private static volatile AutoThresholds machine;

    /**
     * The thresholds for this machine: pinned, cached or calibrated now (once per JVM, under a lock, so two first
     * opens do not both calibrate).
     */
    static AutoThresholds current() {
        AutoThresholds pinned = pinned();
        if (pinned != null) {
            return pinned;
        }
        AutoThresholds t = machine;
        if (t == null) {
            synchronized (AutoThresholds.class) {
                t = machine;
                if (t == null) {
                    machine = t = loadOrCalibrate();
                }
            }
        }
        return t;
    }

    /** The thresholds {@value #PROPERTY} pins, or null when it is not set. */
    static AutoThresholds pinned() {
        String v = System.getProperty(PROPERTY);
        if (v == null || v.isBlank()) {
            return null;
        }
        String[] parts = v.split(",", -1);
        if (parts.length > 2) {
            throw new IllegalArgumentException("-D" + PROPERTY + "=" + v
                    + ": expected one size (both kinds) or two (native,heap), such as 64k or 64k,256k");
        }
        long n = parseSize(parts[0], v);
        long h = parts.length == 2 ? parseSize(parts[1], v) : n;
        return new AutoThresholds(n, h, "pinned by -D" + PROPERTY + "=" + v);
    }

    static long parseSize(String s, String whole) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        if (t.endsWith("k")) {
            unit = 1 << 10;
        } else if (t.endsWith("m")) {
            unit = 1 << 20;
        } else if (t.endsWith("g")) {
            unit = 1 << 30;
        }
        if (unit != 1) {
            t = t.substring(0, t.length() - 1);
        }
        try {
            long n = Long.parseLong(t);
            if (n < 0) {
                throw new NumberFormatException();
            }
            return Math.multiplyExact(n, unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("-D" + PROPERTY + "=" + whole + ": '" + s
                    + "' is not a size (bytes, or with k, m or g)");
        }
    }

    /** The cache directory: {@value #CACHE_DIR_PROPERTY}, else {@code $XDG_CACHE_HOME/sluice}, else {@code ~/.cache/sluice}. */
    static Path cacheDir() {
        String d = System.getProperty(CACHE_DIR_PROPERTY);
        if (d != null && !d.isBlank()) {
            return Path.of(d);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank()) {
            return Path.of(xdg, "sluice");
        }
        return Path.of(System.getProperty("user.home"), ".cache", "sluice");
    }

    static Path cacheFile() {
        return cacheDir().resolve(CACHE_FILE);
    }

    /**
     * What names this machine in the cache file: a file copied to another machine, or kept across a change of
     * processor count or kernel, is measured again.
     */
    static String machineKey() {
        String model = "unknown cpu";
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name") || line.startsWith("CPU part")) {
                    model = line.substring(line.indexOf(':') + 1).trim();
                    break;
                }
            }
        } catch (IOException | RuntimeException e) {
            // no /proc: the rest still tells most machines apart
        }
        return System.getProperty("os.arch") + "; " + Runtime.getRuntime().availableProcessors() + " cpus; " + model
                + "; " + System.getProperty("os.name") + " " + System.getProperty("os.version");
    }

    private static AutoThresholds loadOrCalibrate() {
        Path file = cacheFile();
        AutoThresholds cached = load(file);
        if (cached != null) {
            return cached;
        }
        AutoThresholds measured;
        try {
            measured = calibrate(Path.of(System.getProperty("java.io.tmpdir")));
        } catch (IOException | RuntimeException e) {
            // No temporary file, no mapping: start from what a 2-core x86 server showed (docs/benchmarks) and let
            // the running refinement move it.
            return new AutoThresholds(64 << 10, 64 << 10, "built-in defaults (calibration failed: " + e + ")");
        }
        try {
            store(file, measured, "calibration at first use");
            return new AutoThresholds(measured.nativeMapMax, measured.heapMapMax,
                    "calibrated at first use, cached in " + file);
        } catch (IOException e) {
            return new AutoThresholds(measured.nativeMapMax, measured.heapMapMax,
                    "calibrated at first use (not cached: " + e.getMessage() + ")");
        }
    }

    /** The thresholds in {@code file} if it was written on this machine; null otherwise or when unreadable. */
    static AutoThresholds load(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        } catch (IOException e) {
            return null;
        }
        if (!machineKey().equals(p.getProperty("machine"))) {
            return null;
        }
        try {
            long n = Long.parseLong(p.getProperty("native-map-max", ""));
            long h = Long.parseLong(p.getProperty("heap-map-max", ""));
            return new AutoThresholds(n, h, "cached in " + file + " (" + p.getProperty("by", "unknown") + ", "
                    + p.getProperty("measured", "at an unknown time") + ")");
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Writes {@code t} to {@code file} for this machine, replacing it whole (a reader never sees half of it). */
    static void store(Path file, AutoThresholds t, String by) throws IOException {
        Properties p = new Properties();
        p.setProperty("machine", machineKey());
        p.setProperty("native-map-max", Long.toString(t.nativeMapMax));
        p.setProperty("heap-map-max", Long.toString(t.heapMapMax));
        p.setProperty("by", by);
        p.setProperty("measured", Instant.now().toString());
        Files.createDirectories(file.getParent());
        Path tmp = Files.createTempFile(file.getParent(), CACHE_FILE, ".tmp");
        try {
            try (Writer w = Files.newBufferedWriter(tmp)) {
                p.store(w, "Engine.AUTO: the largest reads copied out of a mapping rather than read with pread");
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Drops what this JVM calibrated or loaded, so the next {@link #current()} looks again (tests, {@code sluice bench}). */
    static void forget() {
        synchronized (AutoThresholds.class) {
            machine = null;
        }
    }

    /**
     * Times reads of each {@link #CALIBRATED} size through a mapping and through pread, into native and heap memory,
     * on a warm file in {@code dir}: one pass to warm the code up, then {@link #ROUNDS} passes that each time every
     * combination once, keeping each one's best (a pass preempted by another process only loses its own numbers).
     * For each kind of memory, the threshold is the largest size at which the mapping was not slower.
     */
    static AutoThresholds calibrate(Path dir) throws IOException {
        Path file = Files.createTempFile(dir, "sluice-calibration", ".bin");
        try {
            byte[] fill = new byte[1 << 20];
            new java.util.SplittableRandom(25).nextBytes(fill);
            try (var out = Files.newOutputStream(file, StandardOpenOption.TRUNCATE_EXISTING)) {
                for (int i = 0; i < CALIBRATION_FILE / fill.length; i++) {
                    out.write(fill);
                }
            }
            OpenSpec spec = OpenSpec.parse();
            try (Arena arena = Arena.ofConfined();
                 PositionalFile pread = new ChannelFile(file, spec);
                 PositionalFile map = MappedFile.open(file, spec)) {
                long largest = CALIBRATED[CALIBRATED.length - 1];
                MemorySegment nat = arena.allocate(largest, 4096);
                byte[] heap = new byte[(int) largest];
                PositionalFile[] paths = {pread, map};
                // [size][kind][path]: best nanoseconds per byte
                double[][][] best = new double[CALIBRATED.length][2][2];
                for (double[][] a : best) {
                    for (double[] b : a) {
                        java.util.Arrays.fill(b, Double.MAX_VALUE);
                    }
                }
                for (int round = -1; round < ROUNDS; round++) {
                    for (int i = 0; i < CALIBRATED.length; i++) {
                        long size = CALIBRATED[i];
                        for (int kind = 0; kind < 2; kind++) {
                            for (int p = 0; p < 2; p++) {
                                double t = time(paths[p], kind == 0 ? nat.asSlice(0, size) : null, heap, size);
                                if (round >= 0) {
                                    best[i][kind][p] = Math.min(best[i][kind][p], t);
                                }
                            }
                        }
                    }
                }
                long[] max = new long[2];
                for (int i = 0; i < CALIBRATED.length; i++) {
                    for (int kind = 0; kind < 2; kind++) {
                        if (best[i][kind][1] <= best[i][kind][0]) {
                            max[kind] = CALIBRATED[i];
                        }
                    }
                }
                return new AutoThresholds(max[0], max[1], "calibrated now");
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** One timed run, in nanoseconds per byte, of reads spread over the file. */
    private static double time(PositionalFile f, MemorySegment seg, byte[] heap, long size) throws IOException {
        int reps = (int) Math.max(16, BYTES_PER_ROUND / size);
        long slots = CALIBRATION_FILE / size;
        long t0 = System.nanoTime();
        for (int i = 0; i < reps; i++) {
            long pos = (i * 7919L % slots) * size;
            if (seg != null) {
                f.read(seg, pos);
            } else {
                f.read(heap, 0, (int) size, pos);
            }
        }
        return (double) (System.nanoTime() - t0) / ((double) reps * size);
    }
}
