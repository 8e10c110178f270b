package io.sluice.report;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The machine record beside the rows: what a reader needs to judge them (CPU, cores, memory, kernel, the file system
 * and device of the test directory, JDK, fio, the load before and after, a memory copy rate). Each value is looked up
 * where Linux keeps it; one that cannot be found is left out rather than guessed. Field names are in
 * docs/bench-json.md.
 */
public final class MachineInfo {
    private MachineInfo() {
    }

    /**
     * Looks the machine up, with the load average now as {@code loadBefore}.
     *
     * @param dir          the directory the benchmarks write in, whose file system and device are recorded
     * @param fioVersion   {@code fio --version}'s answer, or null when fio is absent
     * @param memoryCopy   whether to measure the memory copy rate (about a tenth of a second)
     */
    public static Map<String, Object> probe(Path dir, String fioVersion, boolean memoryCopy) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        put(m, "cpu", cpuModel());
        m.put("cores", Runtime.getRuntime().availableProcessors());
        long mem = meminfo("MemTotal:");
        if (mem > 0) {
            m.put("memoryBytes", mem);
        }
        put(m, "os", osName());
        put(m, "kernel", firstLine(Path.of("/proc/sys/kernel/osrelease")));
        if (!m.containsKey("kernel")) {
            m.put("kernel", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        }
        m.put("arch", System.getProperty("os.arch"));
        if (dir != null) {
            Path d = dir.toAbsolutePath();
            m.put("dir", d.toString());
            try {
                FileStore store = Files.getFileStore(d);
                m.put("fileSystem", store.type());
                m.put("device", store.name());
                put(m, "deviceKind", deviceKind(store.name()));
            } catch (IOException | RuntimeException e) {
                // the panel says what it knows; a directory that vanished is the benchmark's problem, not ours
            }
        }
        m.put("jdk", System.getProperty("java.vm.vendor", "") + " " + System.getProperty("java.vm.name", "") + " "
                + Runtime.version());
        m.put("fio", fioVersion);
        List<Double> load = loadAverage();
        if (load != null) {
            m.put("loadBefore", load);
        }
        if (memoryCopy) {
            double rate = memoryCopyRate();
            if (rate > 0) {
                m.put("memoryCopyMBps", Math.round(rate));
            }
        }
        String version = MachineInfo.class.getPackage().getImplementationVersion();
        put(m, "sluice", version);
        return m;
    }

    /** Adds the load average now as {@code loadAfter}. */
    public static void finish(Map<String, Object> machine) {
        List<Double> load = loadAverage();
        if (load != null) {
            machine.put("loadAfter", load);
        }
    }

    /** The 1, 5 and 15 minute load averages from /proc/loadavg, or null where there is none. */
    public static List<Double> loadAverage() {
        String line = firstLine(Path.of("/proc/loadavg"));
        if (line == null) {
            return null;
        }
        String[] f = line.trim().split("\\s+");
        if (f.length < 3) {
            return null;
        }
        List<Double> out = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                out.add(Double.parseDouble(f[i]));
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return out;
    }

    /**
     * One thread copying 128 MiB between two native segments, best of five, in MB/s: the ceiling of any copy out of
     * the page cache or a mapping into the caller's memory, which is what most of the benchmarks do. The segments are
     * four times a large L3 so the copy measures memory, not cache.
     */
    public static double memoryCopyRate() {
        long size = 128L << 20;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(size, 4096);
            MemorySegment b = arena.allocate(size, 4096);
            a.fill((byte) 1);
            b.fill((byte) 2);
            long best = Long.MAX_VALUE;
            for (int i = 0; i < 5; i++) {
                long t = System.nanoTime();
                MemorySegment.copy(i % 2 == 0 ? a : b, 0, i % 2 == 0 ? b : a, 0, size);
                best = Math.min(best, System.nanoTime() - t);
            }
            return size / (best / 1e9) / 1e6;
        } catch (OutOfMemoryError e) {
            return -1;
        }
    }

    /** {@code fio --version}, or null when fio is not installed or does not answer. */
    public static String fioVersion() {
        try {
            Process p = new ProcessBuilder("fio", "--version").redirectErrorStream(true).start();
            String v = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? v : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                // x86 says "model name", arm64 kernels often only "CPU implementer"/"CPU part"
                if (line.startsWith("model name") || line.startsWith("Model") || line.startsWith("Hardware")) {
                    int colon = line.indexOf(':');
                    if (colon > 0) {
                        return line.substring(colon + 1).strip();
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return null;
    }

    /**
     * A line of /proc/meminfo in bytes ({@code "MemTotal:"}, {@code "MemAvailable:"}, ...), or -1 where it cannot be
     * read (not Linux).
     */
    public static long meminfo(String key) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith(key)) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return -1;
    }

    private static String osName() {
        try {
            for (String line : Files.readAllLines(Path.of("/etc/os-release"))) {
                if (line.startsWith("PRETTY_NAME=")) {
                    return line.substring("PRETTY_NAME=".length()).replace("\"", "").strip();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not there: the kernel line still says what runs
        }
        return null;
    }

    /** What the block device's queue/rotational flag says, or null. */
    private static String deviceKind(String device) {
        if (device == null || !device.startsWith("/dev/")) {
            return null;
        }
        Path block = Path.of("/sys/class/block", device.substring("/dev/".length()));
        for (Path p : List.of(block.resolve("queue/rotational"), block.resolve("../queue/rotational"))) {
            String v = firstLine(p);
            if (v != null) {
                // virtual disks often keep the default of 1, so the page says whose word it is
                return v.strip().equals("1") ? "rotational, as the kernel reports it"
                        : "not rotational (SSD or NVMe), as the kernel reports it";
            }
        }
        return null;
    }

    private static String firstLine(Path p) {
        try {
            List<String> lines = Files.readAllLines(p);
            return lines.isEmpty() ? null : lines.get(0).strip();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static void put(Map<String, Object> m, String key, Object value) {
        if (value != null) {
            m.put(key, value);
        }
    }
}
