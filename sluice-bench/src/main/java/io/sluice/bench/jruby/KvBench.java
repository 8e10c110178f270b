package io.sluice.bench.jruby;

import io.sluice.PositionalFile;
import io.sluice.bench.TextTable;
import io.sluice.db.KvCursor;
import io.sluice.db.KvStore;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * {@code sluice bench kv}: an index build shaped like bio-maf's {@code maf_index} (bulk load of 16-byte keys and
 * values, random gets, scans of 100 entries from random keys) through {@code Sluice::DB} from JRuby, the same MVStore
 * from JRuby through automatic String conversion, Ruby's {@code PStore} at a smaller N ({@code kv_bench.rb}, run by
 * JRuby from the complete jar in a JVM of its own), and {@link KvStore} straight from Java in this JVM: the binding's
 * overhead is the distance between the first and the last.
 */
public final class KvBench {
    static final String SCRIPT = "uri:classloader:/io/sluice/bench/jruby/kv_bench.rb";
    static final String SLUICE = "Sluice::DB";
    static final String JAVA = "KvStore-java";
    static final String AUTO = "MVStore-autoconversion";
    static final String PSTORE = "PStore";
    private static final List<String> OPS = List.of("load", "get", "scan");
    private static final int SCAN = 100;

    private KvBench() {
    }

    /**
     * What to run.
     *
     * @param n        entries loaded by every row but PStore
     * @param pstoreN  entries loaded by PStore (0: no PStore row)
     * @param gets     random gets per round
     * @param scans    scans of 100 per round
     * @param rounds   measured rounds, after one rehearsal
     * @param dir      where the files go
     * @param jrubyJar the jruby-complete jar, or null to find the one the build copied
     */
    public record Options(int n, int pstoreN, int gets, int scans, int rounds, Path dir, Path jrubyJar) {
        /** Checks the numbers. */
        public Options {
            if (n < 1 || pstoreN < 0 || gets < 1 || scans < 1 || rounds < 1) {
                throw new IllegalArgumentException("--n, --gets, --scans and --rounds must be positive");
            }
        }
    }

    /** One measured run: operations and seconds, with the entries in the store. */
    record Sample(long ops, double seconds, long n) {
        double opsPerSec() {
            return ops / seconds;
        }
    }

    /** What a run measured: samples by row and operation (measured rounds only), file sizes by row. */
    public record Result(Map<String, Map<String, List<Sample>>> samples, Map<String, Long> sizes) {
    }

    /** Runs the JRuby rows in a child JVM, then the Java row here; progress to {@code err}. */
    public static Result run(Options o, PrintWriter err) throws IOException, InterruptedException {
        Map<String, Map<String, List<Sample>>> samples = new LinkedHashMap<>();
        Map<String, Long> sizes = new LinkedHashMap<>();
        List<String> command = command(o);
        err.println("sluice bench kv: " + String.join(" ", command));
        err.flush();
        Process p = new ProcessBuilder(command).start();
        // The child's progress lines go where this run's own go: the caller's writer, which is standard error for the
        // CLI but may be anything else (a test's buffer), rather than this JVM's file descriptor 2.
        Thread progress = Thread.ofPlatform().name("sluice-bench-kv-stderr").daemon().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getErrorStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    err.println(line);
                }
                err.flush();
            } catch (IOException e) {
                err.println("sluice bench kv: the JRuby process's progress stopped: " + e);
            }
        });
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                String[] f = line.split("\t");
                if (f[0].equals("sample") && f.length == 7 && Integer.parseInt(f[3]) > 0) {
                    add(samples, f[1], f[2], new Sample(Long.parseLong(f[4]), Double.parseDouble(f[5]),
                            Long.parseLong(f[6])));
                } else if (f[0].equals("size") && f.length == 3) {
                    sizes.put(f[1], Long.parseLong(f[2]));
                }
            }
        } finally {
            if (p.isAlive()) {
                p.destroy();
            }
        }
        int exit = p.waitFor();
        progress.join();
        if (exit != 0) {
            throw new IOException("the JRuby benchmark process failed with exit code " + exit);
        }
        err.println("KvStore from Java, in this JVM");
        err.flush();
        runJava(o, samples, sizes);
        return new Result(samples, sizes);
    }

    private static void add(Map<String, Map<String, List<Sample>>> samples, String row, String op, Sample s) {
        samples.computeIfAbsent(row, k -> new LinkedHashMap<>()).computeIfAbsent(op, k -> new ArrayList<>()).add(s);
    }

    /** The entry layout of kv_bench.rb: sequence, bin and start; offset and length. */
    static byte[] key(int i) {
        long start = (long) (i / 25) * 1000;
        return ByteBuffer.allocate(16).putInt(i % 25).putInt((int) (start >> 17)).putLong(start).array();
    }

    static byte[] value(int i) {
        return ByteBuffer.allocate(16).putLong((long) i * 4096).putLong(1000 + (i & 1023)).array();
    }

    static void runJava(Options o, Map<String, Map<String, List<Sample>>> samples, Map<String, Long> sizes)
            throws IOException {
        Random rng = new Random(42);
        for (int round = 0; round <= o.rounds(); round++) {
            Path path = o.dir().resolve("sluice-kv-bench-" + ProcessHandle.current().pid() + "-java");
            Files.deleteIfExists(path);
            byte[][] getKeys = new byte[o.gets()][];
            for (int i = 0; i < getKeys.length; i++) {
                getKeys[i] = key(rng.nextInt(o.n()));
            }
            byte[][] scanKeys = new byte[o.scans()][];
            for (int i = 0; i < scanKeys.length; i++) {
                scanKeys[i] = key(rng.nextInt(o.n()));
            }
            try (KvStore kv = KvStore.open(path, true, true, true)) {
                long t = System.nanoTime();
                for (int i = 0; i < o.n(); i++) {
                    kv.put(key(i), value(i));
                }
                kv.sync(false);
                record(samples, round, "load", o.n(), t, o.n());
                t = System.nanoTime();
                int found = 0;
                for (byte[] k : getKeys) {
                    if (kv.get(k) != null) {
                        found++;
                    }
                }
                record(samples, round, "get", o.gets(), t, o.n());
                if (found != o.gets()) {
                    throw new IllegalStateException("KvStore: " + found + " of " + o.gets() + " keys found");
                }
                t = System.nanoTime();
                long seen = 0;
                KvCursor c = kv.cursor();
                for (byte[] k : scanKeys) {
                    boolean more = c.jump(k);
                    for (int j = 0; j < SCAN && more; j++) {
                        seen += c.value().length > 0 ? 1 : 0;
                        more = c.step();
                    }
                }
                record(samples, round, "scan", o.scans(), t, o.n());
                if (seen == 0) {
                    throw new IllegalStateException("KvStore: scans saw nothing");
                }
            }
            if (round == o.rounds()) {
                sizes.put(JAVA, Files.size(path));
            }
            Files.deleteIfExists(path);
        }
    }

    private static void record(Map<String, Map<String, List<Sample>>> samples, int round, String op, long ops,
            long startNanos, long n) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        if (round > 0) {
            add(samples, JAVA, op, new Sample(ops, seconds, n));
        }
    }

    static List<String> command(Options o) throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElseGet(() -> Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String classPath = String.join(File.pathSeparator, JRubyBench.jrubyJar(o.jrubyJar()).toString(),
                codeSource(KvBench.class), JRubyBench.bindingJar().toString(), codeSource(PositionalFile.class),
                codeSource(KvStore.class),
                codeSource(org.h2.mvstore.MVStore.class));
        List<String> rows = new ArrayList<>(List.of(SLUICE, AUTO));
        if (o.pstoreN() > 0) {
            rows.add(PSTORE);
        }
        // compile.mode=FORCE, as in `bench jruby`: the measured loops run once per round, below JRuby's JIT threshold.
        return List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xss2m", "-Djruby.compile.mode=FORCE",
                "-cp", classPath, "org.jruby.Main", "-e", "load '" + SCRIPT + "'; SluiceKvBench.main(ARGV)", "--",
                "--n", Integer.toString(o.n()), "--pstore-n", Integer.toString(o.pstoreN()),
                "--gets", Integer.toString(o.gets()), "--scans", Integer.toString(o.scans()),
                "--rounds", Integer.toString(o.rounds()), "--dir", o.dir().toAbsolutePath().toString(),
                "--rows", String.join(",", rows));
    }

    private static String codeSource(Class<?> c) throws IOException {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException | NullPointerException e) {
            throw new IOException("cannot tell where " + c.getName() + " was loaded from", e);
        }
    }

    /** One table per operation, fastest first, with ratios to the Java row and to the automatic conversion. */
    public static void table(Result r, PrintWriter out) {
        for (String op : OPS) {
            String unit = switch (op) {
                case "load" -> "entries/s";
                case "get" -> "gets/s";
                default -> "scans/s";
            };
            out.printf(Locale.ROOT, "%n%s (%s; medians of %d rounds after a rehearsal)%n", op, unit,
                    rounds(r, op));
            TextTable table = new TextTable("", List.of("", "entries", unit, "spread", "x Java", "x autoconv"),
                    List.of(TextTable.Align.LEFT, TextTable.Align.RIGHT, TextTable.Align.RIGHT, TextTable.Align.RIGHT,
                            TextTable.Align.RIGHT, TextTable.Align.RIGHT));
            List<String> rows = new ArrayList<>(r.samples().keySet());
            rows.removeIf(row -> r.samples().get(row).get(op) == null);
            rows.sort(Comparator.comparingDouble((String row) -> median(r, row, op)).reversed());
            for (String row : rows) {
                List<Sample> s = r.samples().get(row).get(op);
                table.row(row, Long.toString(s.get(0).n()), String.format(Locale.ROOT, "%.0f", median(r, row, op)),
                        String.format(Locale.ROOT, "%.1f%%", spread(s) * 100), fmt(ratio(r, row, JAVA, op)),
                        fmt(ratio(r, row, AUTO, op)));
            }
            table.print(out);
        }
        out.println();
        out.println("file size after the load:");
        TextTable sizes = new TextTable("  ", List.of("store", "bytes"),
                List.of(TextTable.Align.LEFT, TextTable.Align.RIGHT));
        r.sizes().forEach((row, size) -> sizes.row(row, String.format(Locale.ROOT, "%,d", size)));
        sizes.print(out);
        out.println();
        out.println("spread is (max - min) / median. The JRuby rows run in one JRuby process, rows rotating each round;");
        out.println("the Java row runs afterwards in this JVM. PStore scans sort its keys first (a Hash has no order).");
        out.flush();
    }

    /**
     * The rows as a JSON array in the schema of the other sections: one row per store and operation, {@code engine}
     * the store, {@code workload} {@code kv-load}, {@code kv-get} or {@code kv-scan}, {@code opsPerMs} its median
     * (entries, gets or scans per ms), {@code blockSize} the entries in the store, plus {@code ratioToJava},
     * {@code ratioToAutoconv} and {@code fileBytes}.
     */
    public static void json(Result r, PrintWriter out) {
        List<String> lines = new ArrayList<>();
        for (String op : OPS) {
            for (var e : r.samples().entrySet()) {
                List<Sample> s = e.getValue().get(op);
                if (s == null || s.isEmpty()) {
                    continue;
                }
                String row = e.getKey();
                Long bytes = r.sizes().get(row);
                lines.add(String.format(Locale.ROOT, "  {\"engine\": \"%s\", \"workload\": \"kv-%s\", \"blockSize\": %d, "
                                + "\"threads\": 1, \"opsPerMs\": %.3f, \"mbPerSec\": null, \"spread\": %.4f, \"rounds\": %d, "
                                + "\"ratioToClassic\": null, \"fioReference\": null, \"ratioToFio\": null, \"direct\": false, "
                                + "\"depth\": 1, \"baseline\": \"%s\", \"ratioToBaseline\": %s, \"ratioToJava\": %s, "
                                + "\"ratioToAutoconv\": %s, \"fileBytes\": %s}",
                        row, op, s.get(0).n(), median(r, row, op) / 1000, spread(s), s.size(), JAVA,
                        num(ratio(r, row, JAVA, op)), num(ratio(r, row, JAVA, op)), num(ratio(r, row, AUTO, op)),
                        bytes == null ? "null" : bytes.toString()));
            }
        }
        out.println("[");
        out.println(String.join(",\n", lines));
        out.println("]");
        out.flush();
    }

    private static String num(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "null" : String.format(Locale.ROOT, "%.4f", v);
    }

    private static int rounds(Result r, String op) {
        return r.samples().values().stream().mapToInt(m -> m.getOrDefault(op, List.of()).size()).max().orElse(0);
    }

    private static double median(Result r, String row, String op) {
        Map<String, List<Sample>> m = r.samples().get(row);
        if (m == null || m.get(op) == null) {
            return Double.NaN;
        }
        double[] v = m.get(op).stream().mapToDouble(Sample::opsPerSec).sorted().toArray();
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    private static double spread(List<Sample> s) {
        double[] v = s.stream().mapToDouble(Sample::opsPerSec).toArray();
        double[] sorted = v.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        double m = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        return (sorted[n - 1] - sorted[0]) / m;
    }

    private static double ratio(Result r, String row, String base, String op) {
        return median(r, row, op) / median(r, base, op);
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.2f", v);
    }
}
