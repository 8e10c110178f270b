package io.sluice.bench.jruby;

import io.sluice.PositionalFile;
import io.sluice.bench.ChildStderr;
import io.sluice.bench.TextTable;
import io.sluice.db.KvCursor;
import io.sluice.db.KvStore;
import java.io.BufferedReader;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * {@code sluice bench kv}: an index build shaped like bio-maf's {@code maf_index} (bulk load of 16-byte keys and
 * values, random gets, scans of 100 entries from random keys) through {@code Sluice::DB} from JRuby, the same MVStore
 * from JRuby through automatic String conversion, Ruby's {@code PStore} at a smaller N, Kyoto Cabinet's TreeDB from MRI
 * (the stack bio-maf was written for) and from C++, and {@link KvStore} straight from Java: the binding's overhead is
 * the distance between the first and the Java row, and Kyoto Cabinet is the anchor.
 *
 * <p>Every row is a worker process of its own ({@code kv_bench.rb} under JRuby or MRI, {@code kv_kyoto.cc} compiled
 * here, or this class's {@link #main} in a JVM): one process per row keeps one row's garbage, heap sizing and JIT
 * profiles (MVStore's code runs with byte[] keys in one row and Strings in another) out of another's measurement.
 * The workers stay up for the whole run and the rounds interleave them: each round runs every row once, in an order
 * rotated by one each round, and every row of a round looks up the same keys (a key file written for the round).
 *
 * <p>The first rounds warm the workers up and are not counted. Every JVM worker runs with the same fixed, pre-touched
 * heap and the same collector ({@link #heapOptions}), and every worker with a collector collects before each round's
 * timed work ({@link #settle}): a heap that grew round by round made the JVM rows touch fresh memory (slow on this
 * kind of virtual machine) in some rounds and not in others, and the previous rounds' stores, left in the old
 * generation, were collected in whichever round a concurrent cycle fell.
 */
public final class KvBench {
    static final String SCRIPT = "uri:classloader:/io/sluice/bench/jruby/kv_bench.rb";
    static final String SLUICE = "Sluice::DB";
    static final String JAVA = "KvStore-java";
    static final String AUTO = "MVStore-autoconversion";
    static final String PSTORE = "PStore";
    static final String KC_MRI = "KyotoCabinet-MRI";
    static final String KC_CPP = "KyotoCabinet-C++";
    private static final List<String> OPS = List.of("load", "get", "scan");
    private static final int SCAN = 100;
    /** System property naming the MRI to run the KyotoCabinet-MRI row with (default: ruby, from PATH). */
    public static final String RUBY = "sluice.bench.kv.ruby";
    /** System property naming the C++ compiler that builds the KyotoCabinet-C++ row (default: g++, from PATH). */
    public static final String CXX = "sluice.bench.kv.cxx";
    private static final String DEBIAN_MRI = "on Debian: apt-get install ruby ruby-kyotocabinet";
    private static final String DEBIAN_CPP = "on Debian: apt-get install g++ libkyotocabinet-dev";

    private KvBench() {
    }

    /**
     * What to run.
     *
     * @param n        entries loaded by every row but PStore
     * @param pstoreN  entries loaded by PStore (0: no PStore row)
     * @param gets     random gets per round
     * @param scans    scans of 100 per round
     * @param rounds   measured rounds, after the warm-up rounds
     * @param warmup   rounds run first and not counted (at least one: the first round compiles the code)
     * @param heap     the heap of every JVM worker, fixed and touched at start, in the JVM's size syntax ({@code 3g})
     * @param dir      where the files go
     * @param jrubyJar the jruby-complete jar, or null to find the one the build copied
     */
    public record Options(int n, int pstoreN, int gets, int scans, int rounds, int warmup, String heap, Path dir,
            Path jrubyJar) {
        /** Checks the numbers. */
        public Options {
            if (n < 1 || pstoreN < 0 || gets < 1 || scans < 1 || rounds < 1 || warmup < 1) {
                throw new IllegalArgumentException("--n, --gets, --scans, --rounds and --warmup must be positive");
            }
            if (heap == null || !heap.matches("[1-9][0-9]*[kKmMgG]?")) {
                throw new IllegalArgumentException("--heap must be a size such as 3g or 2048m, not " + heap);
            }
        }

        /** The defaults of {@code sluice bench kv} but the sizes: {@value #WARMUP} warm-up rounds, a 4 GB heap. */
        public Options(int n, int pstoreN, int gets, int scans, int rounds, Path dir, Path jrubyJar) {
            this(n, pstoreN, gets, scans, rounds, WARMUP, HEAP, dir, jrubyJar);
        }

        /** Whether round {@code round} (0 first) is counted: the warm-up rounds come first. */
        public boolean measured(int round) {
            return round >= warmup;
        }
    }

    /**
     * Warm-up rounds by default: two, as the JIT compilers still spent 300 to 600 ms of CPU in a load after the first
     * round (in the second, third or fourth round of a run), recompiling the stores' code.
     */
    public static final int WARMUP = 2;
    /**
     * The JVM workers' heap by default. A store's page cache is an eighth of the heap: 512 MB, room for the decoded
     * pages of the default 5 M entries (about 90 MB a million; with 3 GB, gets at 5 M took a fifth more CPU in a run
     * here). Every JVM worker pre-touches its heap, so the four hold 16 GB for the run.
     */
    public static final String HEAP = "4g";

    /** One measured run: operations, wall seconds, the entries in the store, and the worker process's CPU seconds. */
    record Sample(long ops, double seconds, long n, double cpuSeconds) {
        double opsPerSec() {
            return ops / seconds;
        }

        double opsPerCpuSec() {
            return ops / cpuSeconds;
        }
    }

    /**
     * What a run measured: samples by row and operation (measured rounds only), file sizes by row, and the rows that
     * could not run here with the reason.
     */
    public record Result(Map<String, Map<String, List<Sample>>> samples, Map<String, Long> sizes,
            Map<String, String> skipped, Options options) {
    }

    /** A row's worker process: one command line in, sample lines out (the protocol of kv_bench.rb). */
    private static final class Worker implements AutoCloseable {
        final String row;
        final Process process;
        final BufferedReader out;
        final Writer in;
        /** Its standard error, copied to the run's progress, the last lines kept for a reason when it dies. */
        final ChildStderr stderr;
        private boolean ready;

        Worker(String row, List<String> command, Path dir, PrintWriter err) throws IOException {
            this.row = row;
            this.process = new ProcessBuilder(command).directory(dir.toFile()).start();
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            this.stderr = new ChildStderr(process, err, "  " + row + ": ", 5, "sluice-bench-kv " + row);
        }

        /** Waits for the worker's "ready" (once); null when it came, else why not (the worker's last words). */
        String awaitReady() throws IOException {
            if (ready) {
                return null;
            }
            String line = out.readLine();
            if ("ready".equals(line)) {
                ready = true;
                return null;
            }
            try {
                process.waitFor(10, TimeUnit.SECONDS);
                stderr.awaitEnd(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            String said = line != null ? line : stderr.lastLines().stream().filter(l -> !l.isBlank())
                    .reduce((a, b) -> b)
                    .orElse("exit code " + (process.isAlive() ? "(still running)" : process.exitValue()));
            return said.strip();
        }

        /** Runs one round of the row; its samples and file size go to {@code samples} and {@code sizes}. */
        void run(int round, int count, Options o, Path keys, Path store, Map<String, Map<String, List<Sample>>> samples,
                Map<String, Long> sizes) throws IOException {
            in.write(String.join("\t", "run", row, Integer.toString(round), Integer.toString(count),
                    Integer.toString(o.gets()), Integer.toString(o.scans()), keys.toString(), store.toString()) + "\n");
            in.flush();
            for (String line; (line = out.readLine()) != null; ) {
                String[] f = line.split("\t");
                switch (f[0]) {
                    case "done" -> {
                        return;
                    }
                    case "error" -> throw new IOException("sluice bench kv: " + row + ", round " + round + ": "
                            + (f.length > 1 ? f[1] : "failed"));
                    case "sample" -> {
                        if (f.length == 8 && o.measured(Integer.parseInt(f[3]))) {
                            add(samples, f[1], f[2], new Sample(Long.parseLong(f[4]), Double.parseDouble(f[5]),
                                    Long.parseLong(f[6]), Double.parseDouble(f[7])));
                        }
                    }
                    case "size" -> {
                        if (f.length == 3) {
                            sizes.put(f[1], Long.parseLong(f[2]));
                        }
                    }
                    default -> {
                        // Anything else a library printed on standard output is not ours to parse.
                    }
                }
            }
            throw new IOException("sluice bench kv: the " + row + " worker ended in round " + round + " ("
                    + String.join(" / ", stderr.lastLines()) + ")");
        }

        @Override
        public void close() {
            try {
                in.write("quit\n");
                in.flush();
                in.close();
            } catch (IOException e) {
                // A worker that is gone already needs no quit.
            }
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
                stderr.awaitEnd(1000);
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Starts a worker per row (skipping, with the reason, the Kyoto Cabinet rows this machine cannot run), then runs
     * the rounds; progress to {@code err}.
     */
    public static Result run(Options o, PrintWriter err) throws IOException, InterruptedException {
        Map<String, Map<String, List<Sample>>> samples = new LinkedHashMap<>();
        Map<String, Long> sizes = new LinkedHashMap<>();
        Map<String, String> skipped = new LinkedHashMap<>();
        Path scratch = Files.createDirectories(o.dir().resolve("sluice-kv-bench-" + ProcessHandle.current().pid()));
        Map<String, Worker> workers = new LinkedHashMap<>();
        try {
            List<String> jrubyRows = new ArrayList<>(List.of(SLUICE, AUTO));
            if (o.pstoreN() > 0) {
                jrubyRows.add(PSTORE);
            }
            for (String row : jrubyRows) {
                start(workers, row, jrubyCommand(o, row), scratch, err);
            }
            start(workers, JAVA, javaCommand(o), scratch, err);
            String why = startMri(workers, scratch, err);
            if (why != null) {
                skipped.put(KC_MRI, why);
            }
            why = startCpp(workers, scratch, err);
            if (why != null) {
                skipped.put(KC_CPP, why);
            }
            skipped.forEach((row, reason) -> err.println("sluice bench kv: no " + row + " row: " + reason));
            for (String row : workers.keySet()) {
                String failed = workers.get(row).awaitReady();
                if (failed != null) {
                    throw new IOException("sluice bench kv: the " + row + " worker did not start: " + failed);
                }
            }
            List<String> rows = new ArrayList<>(workers.keySet());
            Random rng = new Random(42);
            Path keys = scratch.resolve("keys");
            for (int round = 0; round < o.warmup() + o.rounds(); round++) {
                writeKeys(keys, rng, o.gets() + o.scans());
                List<String> order = new ArrayList<>(rows);
                Collections.rotate(order, -round);
                err.println("round " + round + (o.measured(round) ? "" : " (warm-up, not counted)") + ": "
                        + String.join(", ", order));
                err.flush();
                for (String row : order) {
                    int count = row.equals(PSTORE) ? o.pstoreN() : o.n();
                    String file = "store-" + row.replaceAll("\\W", "_") + (row.startsWith("KyotoCabinet") ? ".kct" : "");
                    workers.get(row).run(round, count, o, keys, scratch.resolve(file), samples, sizes);
                }
            }
        } finally {
            for (Worker w : workers.values()) {
                w.close();
            }
            deleteTree(scratch);
        }
        return new Result(samples, sizes, skipped, o);
    }

    private static void start(Map<String, Worker> workers, String row, List<String> command, Path dir,
            PrintWriter err) throws IOException {
        err.println("sluice bench kv: " + row + ": " + String.join(" ", command));
        err.flush();
        workers.put(row, new Worker(row, command, dir, err));
    }

    /** Starts the MRI worker, or returns why there is none. */
    private static String startMri(Map<String, Worker> workers, Path scratch, PrintWriter err) throws IOException {
        Path script = scratch.resolve("kv_bench.rb");
        copyResource("kv_bench.rb", script);
        List<String> command = List.of(System.getProperty(RUBY, "ruby"), script.toString(), "--rows", KC_MRI);
        Worker w;
        try {
            w = new Worker(KC_MRI, command, scratch, err);
        } catch (IOException e) {
            return "no " + command.get(0) + " (" + e.getMessage() + "); " + DEBIAN_MRI;
        }
        String failed = w.awaitReady();
        if (failed != null) {
            w.close();
            return "ruby cannot run it (" + failed + "); " + DEBIAN_MRI;
        }
        err.println("sluice bench kv: " + KC_MRI + ": " + String.join(" ", command));
        workers.put(KC_MRI, w);
        return null;
    }

    /** Compiles kv_kyoto.cc into the scratch directory and starts it, or returns why there is none. */
    private static String startCpp(Map<String, Worker> workers, Path scratch, PrintWriter err)
            throws IOException, InterruptedException {
        Path source = scratch.resolve("kv_kyoto.cc");
        Path binary = scratch.resolve("kv_kyoto");
        copyResource("kv_kyoto.cc", source);
        List<String> compile = List.of(System.getProperty(CXX, "g++"), "-O2", "-o", binary.toString(), source.toString(), "-lkyotocabinet");
        err.println("sluice bench kv: compiling " + KC_CPP + ": " + String.join(" ", compile));
        err.flush();
        Process p;
        try {
            p = new ProcessBuilder(compile).redirectErrorStream(true).start();
        } catch (IOException e) {
            return "no " + compile.get(0) + " (" + e.getMessage() + "); " + DEBIAN_CPP;
        }
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            String first = output.lines().filter(l -> l.contains("error")).findFirst()
                    .orElse(output.lines().findFirst().orElse("exit code " + p.exitValue()));
            return "g++ cannot build it against libkyotocabinet (" + first.strip() + "); " + DEBIAN_CPP;
        }
        start(workers, KC_CPP, List.of(binary.toString()), scratch, err);
        return null;
    }

    private static void copyResource(String name, Path to) throws IOException {
        try (InputStream in = KvBench.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("resource " + name + " is missing from " + codeSource(KvBench.class));
            }
            Files.copy(in, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** The round's key file: gets then scans, each a big-endian entry number below 2^31 (each row takes it mod N). */
    private static void writeKeys(Path keys, Random rng, int count) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(count * 4);
        for (int i = 0; i < count; i++) {
            b.putInt(rng.nextInt(Integer.MAX_VALUE));
        }
        Files.write(keys, b.array());
    }

    private static void deleteTree(Path dir) {
        try (var s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // Scratch files left behind are in the user's --dir, named after this process.
        }
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

    /**
     * The {@code KvStore-java} row's worker: the protocol of {@code kv_bench.rb} on standard input and output, run by
     * {@link #run} in a JVM of its own.
     *
     * @param args none
     * @throws IOException if standard input or output fails
     */
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        System.err.println("worker " + JAVA + ": Java " + Runtime.version());
        out.println("ready");
        for (String line; (line = in.readLine()) != null; ) {
            String[] f = line.split("\t");
            if (f.length == 0 || f[0].equals("quit")) {
                break;
            }
            try {
                if (!f[0].equals("run") || f.length != 8) {
                    throw new IllegalArgumentException("bad command: " + line);
                }
                runJava(f[1], Integer.parseInt(f[2]), Integer.parseInt(f[3]), Integer.parseInt(f[4]),
                        Integer.parseInt(f[5]), Path.of(f[6]), Path.of(f[7]), out);
                out.println("done");
            } catch (IOException | RuntimeException e) {
                out.println("error\t" + e.toString().replace('\t', ' ').replace('\n', ' '));
            }
        }
    }

    private static void runJava(String row, int round, int n, int gets, int scans, Path keyFile, Path path,
            PrintStream out) throws IOException {
        ByteBuffer idx = ByteBuffer.wrap(Files.readAllBytes(keyFile));
        byte[][] getKeys = new byte[gets][];
        for (int i = 0; i < gets; i++) {
            getKeys[i] = key(idx.getInt() % n);
        }
        byte[][] scanKeys = new byte[scans][];
        for (int i = 0; i < scans; i++) {
            scanKeys[i] = key(idx.getInt() % n);
        }
        Files.deleteIfExists(path);
        settle();
        try (KvStore kv = KvStore.open(path, true, true, true)) {
            long t = System.nanoTime();
            long c = cpuNanos();
            for (int i = 0; i < n; i++) {
                kv.put(key(i), value(i));
            }
            kv.sync(false);
            emit(out, row, "load", round, n, t, c, n);
            t = System.nanoTime();
            c = cpuNanos();
            int found = 0;
            for (byte[] k : getKeys) {
                if (kv.get(k) != null) {
                    found++;
                }
            }
            emit(out, row, "get", round, gets, t, c, n);
            if (found != gets) {
                throw new IllegalStateException(row + ": " + found + " of " + gets + " keys found");
            }
            t = System.nanoTime();
            c = cpuNanos();
            long seen = 0;
            KvCursor cur = kv.cursor();
            for (byte[] k : scanKeys) {
                seen += scanFrom(cur, k);
            }
            emit(out, row, "scan", round, scans, t, c, n);
            if (seen == 0) {
                throw new IllegalStateException(row + ": scans saw nothing");
            }
        } finally {
            if (Files.exists(path)) {
                out.println("size\t" + row + "\t" + Files.size(path));
            }
            Files.deleteIfExists(path);
        }
    }

    /**
     * One scan of the {@code KvStore-java} row: up to 100 entries from the first key at or after {@code from}, each
     * key and value read as a Java user of the cursor reads them (the store's own arrays, no copies) and a byte of
     * each looked at, as bio-maf's index scan reads both (it unpacks the key to know where to stop and the value to
     * know what to fetch); {@code kv_bench.rb}'s {@code scan_from} does the same from Ruby. Public so that
     * {@code scripts/kv-scan-breakdown.rb} can run it beside the Ruby loop on the same store.
     *
     * @param cur  the cursor, moved by the scan
     * @param from where the scan starts
     * @return the entries whose key's fourth byte (the low byte of its sequence number) and value's last byte are
     *     both odd: a count both rows compute the same way, so that neither can skip the reads
     */
    public static int scanFrom(KvCursor cur, byte[] from) {
        int seen = 0;
        boolean more = cur.jump(from);
        for (int j = 0; j < SCAN && more; j++) {
            byte[] k = cur.key();
            byte[] v = cur.value();
            seen += k[3] & v[v.length - 1] & 1;
            more = cur.step();
        }
        return seen;
    }

    /**
     * A full collection before a round's timed work, so that every round starts from the same heap: without it the
     * stores of the rounds before stay in the old generation until the collector's next concurrent cycle, whose
     * mixed collections then fall into whichever round they fall (the MRI worker runs {@code GC.start} alike).
     */
    static void settle() {
        System.gc();
    }

    /** The process's CPU time, every thread's (the collector's and the compiler's too), as the other workers count. */
    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static void emit(PrintStream out, String row, String op, int round, long ops, long startNanos,
            long startCpu, long n) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        double cpu = (cpuNanos() - startCpu) / 1e9;
        out.println(String.join("\t", "sample", row, op, Integer.toString(round), Long.toString(ops),
                String.format(Locale.ROOT, "%.6f", seconds), Long.toString(n), String.format(Locale.ROOT, "%.6f", cpu)));
    }

    /**
     * The heap and collector of every JVM worker, Java's and JRuby's alike. A fixed heap, touched before the first
     * round, rather than one that grows: the default started at 384 MB and grew to 4.4 GB over six rounds of 1 M
     * entries, and each round that grew it touched the new memory for the first time (75,000 to 230,000 page faults
     * and 0.15 to 0.5 s of system CPU in a load of 0.8 to 1.9 s of CPU; at most a few thousand once the heap is
     * pre-touched). The young generation fixed at 512 MB: left to G1 in a fixed 4 GB heap it grew so large that the
     * JRuby rows' gets and scans, which allocate a few objects a call, took half as much CPU again as with the
     * default heap (the Sluice::DB worker at 200 K entries: scans 550 to 680 ms of CPU against 400 to 440), and with
     * 512 MB they took 240 to 320 ms. G1 by name, since the JVM picks the serial collector on a machine it finds small.
     */
    static List<String> heapOptions(Options o) {
        return List.of("-Xms" + o.heap(), "-Xmx" + o.heap(), "-Xmn" + YOUNG, "-XX:+AlwaysPreTouch", "-XX:+UseG1GC");
    }

    /** The JVM workers' young generation (see {@link #heapOptions}). */
    static final String YOUNG = "512m";

    /** The JVM options of the JVM workers, Java's and JRuby's alike. */
    private static List<String> jvm(Options o) {
        String java = ProcessHandle.current().info().command()
                .orElseGet(() -> Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> c = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xss2m"));
        c.addAll(heapOptions(o));
        return c;
    }

    static List<String> javaCommand(Options o) throws IOException {
        List<String> c = new ArrayList<>(jvm(o));
        c.addAll(List.of("-cp", String.join(File.pathSeparator, codeSource(KvBench.class), codeSource(KvStore.class),
                codeSource(org.h2.mvstore.MVStore.class)), KvBench.class.getName()));
        return c;
    }

    static List<String> jrubyCommand(Options o, String row) throws IOException {
        String classPath = String.join(File.pathSeparator, JRubyBench.jrubyJar(o.jrubyJar()).toString(),
                codeSource(KvBench.class), JRubyBench.bindingJar().toString(), codeSource(PositionalFile.class),
                codeSource(KvStore.class), codeSource(io.sluice.maf.MafParser.class),
                codeSource(org.h2.mvstore.MVStore.class));
        // compile.mode=FORCE, as for `bench jruby`'s reads: the measured loops run once per round, below JRuby's JIT
        // threshold. (Their inner blocks would reach it; run with JRuby's own mode, the scans were no faster.)
        List<String> c = new ArrayList<>(jvm(o));
        c.addAll(List.of("-Djruby.compile.mode=FORCE", "-cp", classPath, "org.jruby.Main",
                "-e", "load '" + SCRIPT + "'; SluiceKvBench.main(ARGV)", "--", "--rows", row));
        return c;
    }

    private static String codeSource(Class<?> c) throws IOException {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException | NullPointerException e) {
            throw new IOException("cannot tell where " + c.getName() + " was loaded from", e);
        }
    }

    /**
     * One table per operation, fastest first: median, slowest and fastest round and spread of the wall-clock rate, the
     * rate per second of the worker's CPU time, its share of the wall time, and ratios to the Java row, to Kyoto
     * Cabinet from MRI and to the automatic conversion; then file sizes, what each row ran with, and the rows skipped,
     * with why.
     */
    public static void table(Result r, PrintWriter out) {
        for (String op : OPS) {
            String unit = switch (op) {
                case "load" -> "entries/s";
                case "get" -> "gets/s";
                default -> "scans/s";
            };
            int warmup = r.options().warmup();
            out.printf(Locale.ROOT, "%n%s (%s; medians of %d rounds after %d warm-up round%s)%n", op, unit,
                    rounds(r, op), warmup, warmup == 1 ? "" : "s");
            TextTable table = new TextTable("", List.of("", "entries", unit, "min", "max", "spread", "per cpu-s", "cpu",
                    "x Java", "x KC-MRI", "x autoconv"),
                    List.of(TextTable.Align.LEFT, TextTable.Align.RIGHT, TextTable.Align.RIGHT, TextTable.Align.RIGHT,
                            TextTable.Align.RIGHT, TextTable.Align.RIGHT, TextTable.Align.RIGHT,
                            TextTable.Align.RIGHT, TextTable.Align.RIGHT, TextTable.Align.RIGHT,
                            TextTable.Align.RIGHT));
            List<String> rows = new ArrayList<>(r.samples().keySet());
            rows.removeIf(row -> r.samples().get(row).get(op) == null);
            rows.sort(Comparator.comparingDouble((String row) -> median(r, row, op)).reversed());
            for (String row : rows) {
                List<Sample> s = r.samples().get(row).get(op);
                table.row(row, Long.toString(s.get(0).n()), String.format(Locale.ROOT, "%.0f", median(r, row, op)),
                        String.format(Locale.ROOT, "%.0f", min(s)), String.format(Locale.ROOT, "%.0f", max(s)),
                        String.format(Locale.ROOT, "%.1f%%", spread(s) * 100),
                        rate(median(s, Sample::opsPerCpuSec)),
                        String.format(Locale.ROOT, "%.0f%%", cpuShare(s) * 100), fmt(ratio(r, row, JAVA, op)),
                        fmt(ratio(r, row, KC_MRI, op)), fmt(ratio(r, row, AUTO, op)));
            }
            table.print(out);
        }
        out.println();
        out.println("file size after the run:");
        TextTable sizes = new TextTable("  ", List.of("store", "bytes"),
                List.of(TextTable.Align.LEFT, TextTable.Align.RIGHT));
        r.sizes().forEach((row, size) -> sizes.row(row, String.format(Locale.ROOT, "%,d", size)));
        sizes.print(out);
        out.println();
        out.println("ran with:");
        TextTable with = new TextTable("  ", List.of("row", "runtime, and before each round's timed work"),
                List.of(TextTable.Align.LEFT, TextTable.Align.LEFT));
        r.samples().keySet().forEach(row -> with.row(row, ranWith(row, r.options())));
        with.print(out);
        r.skipped().forEach((row, why) -> out.println("no " + row + " row: " + why));
        out.println();
        out.println("min and max are the slowest and the fastest round, spread (max - min) / median. Every row runs");
        out.println("in a process of its own, all started first; each round runs every row once, the order rotated by");
        out.println("one each round, on the same keys. per cpu-s is the rate per second of the process's CPU time");
        out.println("(every thread's), cpu that time over the wall time: below 100% the process waited (other");
        out.println("processes on the cores), above it other threads (GC, JIT) worked beside the measured one. The");
        out.println("warm-up rounds are not counted. PStore scans sort its keys first (a Hash has no order).");
        out.flush();
    }

    /**
     * The rows as a JSON array in the schema of the other sections: one row per store and operation, {@code engine}
     * the store, {@code workload} {@code kv-load}, {@code kv-get} or {@code kv-scan}, {@code opsPerMs} its median
     * (entries, gets or scans per ms), {@code blockSize} the entries in the store, plus {@code ratioToJava},
     * {@code ratioToKyotoMri}, {@code ratioToAutoconv}, {@code opsPerCpuMs} (the median rate per ms of the process's
     * CPU time), {@code cpuShare} (that time over the wall time) and {@code fileBytes}.
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
                                + "\"opsPerMsMin\": %.3f, \"opsPerMsMax\": %.3f, "
                                + "\"ratioToClassic\": null, \"fioReference\": null, \"ratioToFio\": null, \"direct\": false, "
                                + "\"depth\": 1, \"baseline\": \"%s\", \"ratioToBaseline\": %s, \"ratioToJava\": %s, "
                                + "\"ratioToKyotoMri\": %s, \"ratioToAutoconv\": %s, \"opsPerCpuMs\": %s, "
                                + "\"cpuShare\": %.4f, \"fileBytes\": %s}",
                        row, op, s.get(0).n(), median(r, row, op) / 1000, spread(s), s.size(),
                        min(s) / 1000, max(s) / 1000, JAVA,
                        num(ratio(r, row, JAVA, op)), num(ratio(r, row, JAVA, op)), num(ratio(r, row, KC_MRI, op)),
                        num(ratio(r, row, AUTO, op)), num(median(s, Sample::opsPerCpuSec) / 1000), cpuShare(s),
                        bytes == null ? "null" : bytes.toString()));
            }
        }
        out.println("[");
        out.println(String.join(",\n", lines));
        out.println("]");
        out.flush();
    }

    /** What a row's worker runs on and does before each round's timed work, for the table. */
    static String ranWith(String row, Options o) {
        return switch (row) {
            case KC_CPP -> "C++ (g++ -O2), no collector";
            case KC_MRI -> "MRI; GC.start";
            default -> (row.equals(JAVA) ? "JVM " : "JRuby on a JVM ") + String.join(" ", heapOptions(o))
                    + "; System.gc()";
        };
    }

    /** The slowest round's rate. */
    static double min(List<Sample> s) {
        return s.stream().mapToDouble(Sample::opsPerSec).min().orElse(Double.NaN);
    }

    /** The fastest round's rate. */
    static double max(List<Sample> s) {
        return s.stream().mapToDouble(Sample::opsPerSec).max().orElse(Double.NaN);
    }

    /** The process's CPU seconds over the wall seconds, all rounds together. */
    private static double cpuShare(List<Sample> s) {
        return s.stream().mapToDouble(Sample::cpuSeconds).sum() / s.stream().mapToDouble(Sample::seconds).sum();
    }

    private static double median(List<Sample> s, java.util.function.ToDoubleFunction<Sample> f) {
        double[] v = s.stream().mapToDouble(f).sorted().toArray();
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
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

    static double spread(List<Sample> s) {
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

    /** A rate, or nothing when the CPU clock did not tick (the JVM's counts in steps of a few milliseconds). */
    private static String rate(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.0f", v) : "";
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.2f", v);
    }
}
