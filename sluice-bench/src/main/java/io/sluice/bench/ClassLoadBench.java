package io.sluice.bench;

import io.sluice.zip.ConcurrentZipFile;
import io.sluice.zip.SluiceClassLoader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The {@code sluice bench classload} run: every class of real jars loaded (without initialization) and every
 * resource read, by a fresh {@link URLClassLoader} and a fresh {@link SluiceClassLoader} per round, on each thread
 * count, in rotating rounds; beside them the same entries only read, by {@link ZipFile} and by
 * {@link ConcurrentZipFile}, which shows how much of a load is reading (and inflating) and how much is the JVM
 * defining the class; and the JVM's part alone, {@value #DEFINE_ONLY}: the same classes defined from bytes read
 * before the round, which is what neither loader can make faster. Then the start-up of real programs, with and
 * without Sluice as the system class loader.
 */
public final class ClassLoadBench {
    /** The engine names of the rows. */
    public static final String URL_LOADER = "URLClassLoader";
    public static final String SLUICE_LOADER = "SluiceClassLoader";
    public static final String ZIPFILE_READ = "ZipFile-read";
    public static final String SLUICE_READ = "ConcurrentZipFile-read";
    /**
     * The classes defined from bytes held in memory (read before the round, untimed) by a minimal parallel-capable
     * loader with one protection domain per jar, resources copied from memory: the JVM's own share of a load.
     */
    public static final String DEFINE_ONLY = "define-only";
    public static final String DEFAULT_STARTUP = "default-loader";
    public static final String SLUICE_STARTUP = "SluiceClassLoader-system";

    /**
     * What to run.
     *
     * @param jars       the jars whose classes and resources are loaded, all on one class path
     * @param threads    thread counts
     * @param rounds     timed rounds per contender (after one untimed round each)
     * @param programs   the programs whose start-up is timed (none: no start-up rows)
     * @param coreJar    sluice-core's jar, the system class loader's home for the start-up rows
     */
    public record Options(List<Path> jars, List<Integer> threads, int rounds, List<Program> programs, Path coreJar) {
    }

    /**
     * A program started as {@code java [jvmOptions] -cp classPath mainClass args}; with Sluice, its class path goes to
     * {@code -Dsluice.class.path} and only sluice-core stays on {@code -cp}.
     */
    public record Program(String name, List<Path> classPath, String mainClass, List<String> args) {
    }

    private final Options options;
    private final PrintWriter log;
    /** Every entry's bytes by name, the first jar's on the class path winning; read once, for DEFINE_ONLY. */
    private final java.util.Map<String, byte[]> held = new java.util.HashMap<>();
    /** The index in {@code options.jars()} of the jar each name in {@link #held} came from. */
    private final java.util.Map<String, Integer> heldFrom = new java.util.HashMap<>();

    /** {@code log} receives progress (standard error in the CLI). */
    public ClassLoadBench(Options options, PrintWriter log) {
        this.options = options;
        this.log = log;
    }

    /** The names of every class and resource of the jars, in class path order. */
    record Contents(List<String> classes, List<String> resources) {
    }

    /** Every class (but descriptors and package-info) and every resource of {@code jars}, in this order. */
    static Contents contents(List<Path> jars) throws IOException {
        List<String> classes = new ArrayList<>();
        List<String> resources = new ArrayList<>();
        for (Path jar : jars) {
            try (ConcurrentZipFile zip = ConcurrentZipFile.open(jar)) {
                for (ConcurrentZipFile.Entry e : zip) {
                    String n = e.getName();
                    if (e.isDirectory()) {
                        continue;
                    }
                    if (n.endsWith(".class") && !n.startsWith("META-INF/") && !n.endsWith("module-info.class")
                            && !n.endsWith("package-info.class")) {
                        classes.add(n.substring(0, n.length() - 6).replace('/', '.'));
                    } else if (!n.endsWith(".class")) {
                        resources.add(n);
                    }
                }
            }
        }
        return new Contents(classes, resources);
    }

    /** One contender's work for a round: loaded or read items and bytes, failures counted. */
    interface Round {
        void item(int k) throws Exception;

        default void close() throws IOException {
        }
    }

    /** Runs every cell, then the start-ups; rows of classes and resources per millisecond, and of start-ups. */
    public List<Row> run() throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Contents c = contents(options.jars());
        long bytes = 0;
        for (Path j : options.jars()) {
            bytes += Files.size(j);
        }
        log.printf(Locale.ROOT, "sluice bench classload: %d jars (%s), %d classes and %d resources; threads %s, %d "
                        + "rounds after one untimed%n", options.jars().size(), ByteSize.format(bytes),
                c.classes().size(), c.resources().size(), options.threads(), options.rounds());
        log.flush();
        List<Row> rows = new ArrayList<>();
        List<String> engines = List.of(URL_LOADER, SLUICE_LOADER, ZIPFILE_READ, SLUICE_READ, DEFINE_ONLY);
        hold();
        Workload w = new Workload("classload-all", 0);
        for (int threads : options.threads()) {
            List<List<Sample>> samples = new ArrayList<>();
            for (int e = 0; e < engines.size(); e++) {
                samples.add(new ArrayList<>());
            }
            for (int round = 0; round <= options.rounds(); round++) {
                // Rotating start, so no contender always runs first (cold) or last (after the others' garbage).
                for (int k = 0; k < engines.size(); k++) {
                    int e = (k + round) % engines.size();
                    Sample s = round(engines.get(e), c, threads);
                    log.printf(Locale.ROOT, "  %d thread%s, %s %d/%d: %s %.1f items/ms (%.0f s elapsed)%n", threads,
                            threads == 1 ? "" : "s", round == 0 ? "warm-up" : "round", round, options.rounds(),
                            engines.get(e), s.opsPerMs(), (System.nanoTime() - t0) / 1e9);
                    log.flush();
                    if (round > 0) {
                        samples.get(e).add(s);
                    }
                }
            }
            for (int e = 0; e < engines.size(); e++) {
                rows.add(new Row(engines.get(e), w, threads, null, List.copyOf(samples.get(e))));
            }
        }
        for (Program p : options.programs()) {
            rows.addAll(startup(p, t0));
        }
        log.printf(Locale.ROOT, "measured in %.0f s%n", (System.nanoTime() - t0) / 1e9);
        log.flush();
        return rows;
    }

    /** Reads every entry of the jars into memory, for DEFINE_ONLY's rounds. */
    private void hold() throws IOException {
        List<Path> jars = options.jars();
        for (int i = 0; i < jars.size(); i++) {
            try (ConcurrentZipFile zip = ConcurrentZipFile.open(jars.get(i))) {
                for (ConcurrentZipFile.Entry e : zip) {
                    if (!e.isDirectory() && !held.containsKey(e.getName())) {
                        held.put(e.getName(), zip.readAllBytes(e));
                        heldFrom.put(e.getName(), i);
                    }
                }
            }
        }
    }

    /**
     * Defines classes from {@link #held}: no lookup, no read, no package attributes; what is left is the JVM's part
     * of a load (parsing, the loader's lock per class name, the system dictionary) and the protection domain.
     */
    private static final class HeldLoader extends java.security.SecureClassLoader {
        static {
            registerAsParallelCapable();
        }

        private final java.util.Map<String, byte[]> held;
        private final java.util.Map<String, Integer> heldFrom;
        private final java.security.CodeSource[] sources;

        HeldLoader(ClassLoader parent, java.util.Map<String, byte[]> held, java.util.Map<String, Integer> heldFrom,
                List<Path> jars) throws IOException {
            super(parent);
            this.held = held;
            this.heldFrom = heldFrom;
            this.sources = new java.security.CodeSource[jars.size()];
            for (int i = 0; i < sources.length; i++) {
                sources[i] = new java.security.CodeSource(jars.get(i).toUri().toURL(),
                        (java.security.CodeSigner[]) null);
            }
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            String entry = name.replace('.', '/').concat(".class");
            byte[] b = held.get(entry);
            if (b == null) {
                throw new ClassNotFoundException(name);
            }
            return defineClass(name, b, 0, b.length, sources[heldFrom.get(entry)]);
        }

        @Override
        public InputStream getResourceAsStream(String name) {
            byte[] b = held.get(name);
            return b == null ? super.getResourceAsStream(name) : new java.io.ByteArrayInputStream(b);
        }
    }

    /** One round of {@code engine} on {@code threads} threads: every class, then every resource. */
    private Sample round(String engine, Contents c, int threads) throws IOException, InterruptedException {
        AtomicLong read = new AtomicLong();
        AtomicInteger failures = new AtomicInteger();
        int nClasses = c.classes().size();
        int total = nClasses + c.resources().size();
        long start = System.nanoTime();
        return drive(engine, open(engine, c, read, failures), total, threads, read, start);
    }

    /**
     * Runs items {@code 0..total-1} of {@code r} on {@code threads} threads, each claiming the next, then closes it;
     * the rate counts from {@code start} (before {@code r} was made: making a loader is part of its work).
     */
    static Sample drive(String engine, Round r, int total, int threads, AtomicLong read, long start)
            throws IOException, InterruptedException {
        try {
            AtomicInteger next = new AtomicInteger();
            Thread[] ts = new Thread[threads];
            Throwable[] died = new Throwable[1];
            for (int t = 0; t < threads; t++) {
                ts[t] = new Thread(() -> {
                    try {
                        for (int k; (k = next.getAndIncrement()) < total; ) {
                            r.item(k);
                        }
                    } catch (Throwable e) {
                        synchronized (died) {
                            died[0] = e;
                        }
                    }
                }, "sluice-classload-" + t);
                ts[t].start();
            }
            for (Thread t : ts) {
                t.join();
            }
            if (died[0] != null) {
                throw new IOException(engine + " failed: " + died[0], died[0]);
            }
        } finally {
            r.close();
        }
        long nanos = System.nanoTime() - start;
        return new Sample(total / (nanos / 1e6), read.get() / (nanos / 1e9));
    }

    /**
     * A loader's round: item {@code k} loads class {@code k} without initializing it, or reads resource
     * {@code k - classes} to its end; classes it cannot load are counted in {@code failures}, bytes read in
     * {@code read}; {@code close} closes {@code closing} (the loader, or what made it), when there is one.
     */
    static Round loading(ClassLoader loader, Contents c, AtomicLong read, AtomicInteger failures,
                         java.io.Closeable closing) {
        int nClasses = c.classes().size();
        return new Round() {
            @Override
            public void item(int k) throws IOException {
                if (k < nClasses) {
                    try {
                        Class.forName(c.classes().get(k), false, loader);
                    } catch (ClassNotFoundException | LinkageError e) {
                        // Optional dependencies jruby-complete leaves out: counted, and the same for both loaders.
                        failures.incrementAndGet();
                    }
                    return;
                }
                try (InputStream in = loader.getResourceAsStream(c.resources().get(k - nClasses))) {
                    if (in != null) {
                        read.addAndGet(in.transferTo(OutputSink.INSTANCE));
                    }
                }
            }

            @Override
            public void close() throws IOException {
                if (closing != null) {
                    closing.close();
                }
            }
        };
    }

    private Round open(String engine, Contents c, AtomicLong read, AtomicInteger failures) throws IOException {
        int nClasses = c.classes().size();
        switch (engine) {
            case URL_LOADER, SLUICE_LOADER, DEFINE_ONLY -> {
                ClassLoader parent = ClassLoader.getPlatformClassLoader();
                ClassLoader loader;
                if (engine.equals(DEFINE_ONLY)) {
                    loader = new HeldLoader(parent, held, heldFrom, options.jars());
                } else if (engine.equals(URL_LOADER)) {
                    URL[] urls = new URL[options.jars().size()];
                    for (int i = 0; i < urls.length; i++) {
                        urls[i] = options.jars().get(i).toUri().toURL();
                    }
                    loader = new URLClassLoader(urls, parent);
                } else {
                    loader = new SluiceClassLoader(options.jars(), parent);
                }
                return loading(loader, c, read, failures, loader instanceof java.io.Closeable l ? l : null);
            }
            case ZIPFILE_READ, SLUICE_READ -> {
                // Every name looked up in each jar in turn, as a class loader's search would.
                List<String> names = new ArrayList<>(c.classes().size() + c.resources().size());
                for (String n : c.classes()) {
                    names.add(n.replace('.', '/') + ".class");
                }
                names.addAll(c.resources());
                if (engine.equals(ZIPFILE_READ)) {
                    List<ZipFile> zips = new ArrayList<>();
                    for (Path j : options.jars()) {
                        zips.add(new ZipFile(j.toFile()));
                    }
                    return new Round() {
                        @Override
                        public void item(int k) throws IOException {
                            for (ZipFile z : zips) {
                                ZipEntry e = z.getEntry(names.get(k));
                                if (e != null) {
                                    try (InputStream in = z.getInputStream(e)) {
                                        read.addAndGet(in.transferTo(OutputSink.INSTANCE));
                                    }
                                    return;
                                }
                            }
                        }

                        @Override
                        public void close() throws IOException {
                            for (ZipFile z : zips) {
                                z.close();
                            }
                        }
                    };
                }
                List<ConcurrentZipFile> zips = new ArrayList<>();
                for (Path j : options.jars()) {
                    zips.add(ConcurrentZipFile.open(j));
                }
                return new Round() {
                    @Override
                    public void item(int k) throws IOException {
                        for (ConcurrentZipFile z : zips) {
                            ConcurrentZipFile.Entry e = z.getEntry(names.get(k));
                            if (e != null) {
                                read.addAndGet(z.readAllBytes(e).length);
                                return;
                            }
                        }
                    }

                    @Override
                    public void close() {
                        for (ConcurrentZipFile z : zips) {
                            z.close();
                        }
                    }
                };
            }
            default -> throw new IllegalArgumentException("unknown engine " + engine);
        }
    }

    /** Discards what is written to it; one shared instance, no state. */
    static final class OutputSink extends java.io.OutputStream {
        static final OutputSink INSTANCE = new OutputSink();

        @Override
        public void write(int b) {
        }

        @Override
        public void write(byte[] b, int off, int len) {
        }
    }

    /**
     * The start-up of {@code p}, from process start to its first byte of output (or its exit, if it prints
     * nothing), with the JVM's loader and with Sluice's, alternating; one untimed run of each first. The rows'
     * {@code opsPerMs} holds starts per second (1000 / milliseconds).
     */
    private List<Row> startup(Program p, long t0) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        // The JVM's own warnings (with a custom system loader: archived application classes turned off) go to
        // standard output unless the default output is disabled first; on standard error they are not taken for the
        // program's output.
        List<String> plain = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xshare:auto",
                "-Xlog:disable", "-Xlog:all=warning:stderr", "-cp", join(p.classPath()), p.mainClass()));
        plain.addAll(p.args());
        List<String> sluice = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xshare:auto",
                "-Xlog:disable", "-Xlog:all=warning:stderr", "-Djava.system.class.loader=" + SluiceClassLoader.class.getName(),
                "-D" + SluiceClassLoader.CLASS_PATH_PROPERTY + "=" + join(p.classPath()),
                "-cp", options.coreJar().toString(), p.mainClass()));
        sluice.addAll(p.args());
        List<Sample> a = new ArrayList<>();
        List<Sample> b = new ArrayList<>();
        for (int round = 0; round <= options.rounds(); round++) {
            for (int k = 0; k < 2; k++) {
                boolean withSluice = (k + round) % 2 == 1;
                double ms = firstOutput(withSluice ? sluice : plain) / 1e6;
                log.printf(Locale.ROOT, "  start-up of %s, %s %d/%d: %s %.0f ms (%.0f s elapsed)%n", p.name(),
                        round == 0 ? "warm-up" : "round", round, options.rounds(),
                        withSluice ? SLUICE_STARTUP : DEFAULT_STARTUP, ms, (System.nanoTime() - t0) / 1e9);
                log.flush();
                if (round > 0) {
                    // Starts per second, not per millisecond: the JSON keeps three decimals, and a start of two
                    // seconds would be 0.000 per millisecond there.
                    (withSluice ? b : a).add(new Sample(1000 / ms, 0));
                }
            }
        }
        Workload w = new Workload("startup-" + p.name(), 0);
        return List.of(new Row(DEFAULT_STARTUP, w, 1, null, List.copyOf(a)),
                new Row(SLUICE_STARTUP, w, 1, null, List.copyOf(b)));
    }

    static String join(List<Path> paths) {
        StringBuilder s = new StringBuilder();
        for (Path p : paths) {
            s.append(s.isEmpty() ? "" : java.io.File.pathSeparator).append(p);
        }
        return s.toString();
    }

    /**
     * Nanoseconds from starting {@code command} to its first byte on standard output, or to its exit. Standard error,
     * where the JVM's warnings are sent, is kept apart: they are not the program's output.
     */
    static long firstOutput(List<String> command) throws IOException, InterruptedException {
        Path errors = Files.createTempFile("sluice-classload-", ".err");
        try {
            long start = System.nanoTime();
            Process proc = new ProcessBuilder(command).redirectError(errors.toFile()).start();
            long first;
            try (InputStream in = proc.getInputStream()) {
                int b = in.read();
                first = System.nanoTime() - start;
                in.transferTo(OutputSink.INSTANCE);
                awaitSuccess(proc, command, errors);
            }
            return first;
        } finally {
            Files.deleteIfExists(errors);
        }
    }

    /**
     * Waits for {@code proc}, started from {@code command} with its standard error going to {@code errors}, to exit.
     *
     * @throws IOException with the command (and its standard error) if it does not exit within 120 s, or exits
     *                     with a status other than 0
     */
    static void awaitSuccess(Process proc, List<String> command, Path errors) throws IOException, InterruptedException {
        if (!proc.waitFor(120, TimeUnit.SECONDS)) {
            proc.destroyForcibly();
            throw new IOException(String.join(" ", command) + ": did not exit within 120 s");
        }
        if (proc.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + ": exit " + proc.exitValue() + ": "
                    + Files.readString(errors));
        }
    }
}
