package io.sluice.bench;

import io.sluice.zip.SluiceClassLoader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.boot.loader.launch.Archive;
import org.springframework.boot.loader.launch.JarLauncher;
import org.springframework.boot.loader.launch.LaunchedClassLoader;
import org.springframework.boot.loader.net.protocol.Handlers;

/**
 * The fat jar rows of {@code sluice bench classload}: a Spring-Boot-shaped executable jar written by {@link FatJar}
 * from the given jars, then
 *
 * <ul>
 *   <li>every class of the nested jars loaded (not initialized) and every resource read, on each thread count, by
 *       Spring Boot's {@code LaunchedClassLoader} made as its {@code JarLauncher} makes it, and by a
 *       {@link SluiceClassLoader} over the same class path as {@code jar:file:} URLs; a fresh loader (and, for Spring,
 *       a fresh launcher and archive) per round, the same class list, rotating order;</li>
 *   <li>the time to the first output of {@code java -jar app.jar} (Spring's launcher) and of {@code java -cp app.jar
 *       io.sluice.bench.FatJarLauncher} (Sluice's), alternating, after one untimed run of each whose whole output
 *       must be the same.</li>
 * </ul>
 *
 * <p>Spring's launcher registers its URL handlers ({@code jar:} and {@code nested:}) for the whole JVM, as it does in
 * the program it launches; from the first Spring round on, {@code jar:} URLs opened in this JVM go through Spring's
 * handler. Run this after the rows that compare the JDK's loader.
 */
public final class FatJarBench {
    /** The engine names of the rows. */
    public static final String SPRING_LOADER = "LaunchedClassLoader";
    public static final String SLUICE_LOADER = "SluiceClassLoader-nested";
    public static final String SPRING_STARTUP = "JarLauncher";
    public static final String SLUICE_STARTUP = "FatJarLauncher";
    /** The workload names of the rows. */
    public static final String LOAD_WORKLOAD = "classload-fatjar";
    public static final String STARTUP_WORKLOAD = "startup-fatjar";

    /**
     * What to run.
     *
     * @param jars    the jars to nest (the program's own libraries are added when missing)
     * @param threads thread counts of the load rows
     * @param rounds  timed rounds per contender, after one untimed, for the load rows and the start-ups
     * @param startup whether to time the start-ups
     * @param workDir where the fat jar is written (in a directory of its own, removed afterwards)
     */
    public record Options(List<Path> jars, List<Integer> threads, int rounds, boolean startup, Path workDir) {
    }

    private final Options options;
    private final PrintWriter log;
    /**
     * Per contender, the classes it could not load and the resource bytes it read in its last round: the same for
     * both, or they did not do the same work.
     */
    private final Map<String, List<Long>> work = new LinkedHashMap<>();

    /** {@code log} receives progress (standard error in the CLI). */
    public FatJarBench(Options options, PrintWriter log) {
        this.options = options;
        this.log = log;
    }

    /**
     * Writes the fat jar and runs every cell: rows of items per millisecond for the loads, of starts per second
     * for the start-ups.
     *
     * @throws IOException if the jar cannot be written, a round fails, the contenders do not load the same classes, or
     *                     the two launchers' programs print different output
     */
    public List<Row> run() throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        List<Row> rows = new ArrayList<>();
        try (ScratchDir dir = ScratchDir.create(options.workDir(), "sluice-fatjar-")) {
            Path jar = dir.resolve("app.jar");
            List<Path> libs = FatJar.libraries(options.jars());
            FatJar.write(jar, libs);
            ClassLoadBench.Contents c = ClassLoadBench.contents(libs);
            log.printf(Locale.ROOT, "sluice bench classload, fat jar: %s (%s) nesting %d jars stored, %d classes and %d "
                            + "resources; threads %s, %d rounds after one untimed%n", jar, ByteSize.format(Files.size(jar)),
                    libs.size(), c.classes().size(), c.resources().size(), options.threads(), options.rounds());
            log.flush();
            List<String> engines = List.of(SPRING_LOADER, SLUICE_LOADER);
            Workload w = new Workload(LOAD_WORKLOAD, 0);
            for (int threads : options.threads()) {
                List<List<Sample>> samples = List.of(new ArrayList<>(), new ArrayList<>());
                for (int round = 0; round <= options.rounds(); round++) {
                    for (int k = 0; k < engines.size(); k++) {
                        int e = (k + round) % engines.size();
                        Sample s = round(engines.get(e), jar, c, threads);
                        log.printf(Locale.ROOT, "  fat jar, %d thread%s, %s %d/%d: %s %.1f items/ms (%.0f s elapsed)%n",
                                threads, threads == 1 ? "" : "s", round == 0 ? "warm-up" : "round", round,
                                options.rounds(), engines.get(e), s.opsPerMs(), (System.nanoTime() - t0) / 1e9);
                        log.flush();
                        if (round > 0) {
                            samples.get(e).add(s);
                        }
                    }
                    if (!work.get(SPRING_LOADER).equals(work.get(SLUICE_LOADER))) {
                        throw new IOException("the loaders did not do the same work on " + jar
                                + ": classes not loadable and resource bytes read " + work);
                    }
                }
                for (int e = 0; e < engines.size(); e++) {
                    rows.add(new Row(engines.get(e), w, threads, null, List.copyOf(samples.get(e))));
                }
            }
            if (options.startup()) {
                rows.addAll(startup(jar, t0));
            }
        }
        log.printf(Locale.ROOT, "fat jar measured in %.0f s%n", (System.nanoTime() - t0) / 1e9);
        log.flush();
        return rows;
    }

    /** Per contender, the classes it could not load and the resource bytes it read, in its last round. */
    Map<String, List<Long>> work() {
        return Map.copyOf(work);
    }

    /**
     * Spring Boot's {@code LaunchedClassLoader} made as its {@code JarLauncher} makes it for {@code launch}, and the
     * launcher's archive of the fat jar; {@link #close()} closes both.
     */
    record SpringLoader(Archive archive, URLClassLoader loader) implements java.io.Closeable {
        /**
         * Registers Spring's URL handlers (what {@code launch} does first), opens the archive and makes the loader
         * with {@code parent} as its parent.
         *
         * @throws IOException naming the jar, if Spring's launcher cannot read it
         */
        static SpringLoader open(Path jar, ClassLoader parent) throws IOException {
            Archive archive = null;
            try {
                Handlers.register();
                archive = Archive.create(jar.toFile());
                return new SpringLoader(archive, new SpringLauncher(archive).classLoader(parent));
            } catch (Exception e) {
                if (archive != null) {
                    try {
                        archive.close();
                    } catch (Exception suppressed) {
                        e.addSuppressed(suppressed);
                    }
                }
                throw e instanceof IOException io ? io : new IOException("Spring Boot's launcher could not make its "
                        + "class loader for " + jar + ": " + e, e);
            }
        }

        @Override
        public void close() throws IOException {
            loader.close();
            try {
                archive.close();
            } catch (IOException e) {
                throw e;
            } catch (Exception e) {
                throw new IOException("closing Spring Boot's archive of " + archive + ": " + e, e);
            }
        }
    }

    /**
     * Spring Boot's {@code JarLauncher} on an archive, used only for the loader its {@code launch} would make:
     * {@link #getClassPathUrls()} and {@link #createClassLoader} are its own, in the order {@code launch} calls them.
     */
    private static final class SpringLauncher extends JarLauncher {
        SpringLauncher(Archive archive) throws Exception {
            super(archive);
        }

        /**
         * The launcher's {@code LaunchedClassLoader} with the same URLs (the classes directory, then the class path
         * index's jars), but {@code parent} as parent: the launcher's own would be this JVM's class path, which holds
         * some of the nested jars too, and a parent-first loader would take their classes from there.
         */
        URLClassLoader classLoader(ClassLoader parent) throws Exception {
            URL[] urls;
            try (URLClassLoader own = (URLClassLoader) createClassLoader(getClassPathUrls())) {
                urls = own.getURLs();
            }
            return new LaunchedClassLoader(isExploded(), getArchive(), urls, parent);
        }
    }

    /** One round of {@code engine} on {@code threads} threads: a fresh loader, every class, then every resource. */
    private Sample round(String engine, Path jar, ClassLoadBench.Contents c, int threads)
            throws IOException, InterruptedException {
        AtomicLong read = new AtomicLong();
        AtomicInteger failures = new AtomicInteger();
        int nClasses = c.classes().size();
        int total = nClasses + c.resources().size();
        ClassLoader parent = ClassLoader.getPlatformClassLoader();
        long start = System.nanoTime();
        SpringLoader spring = null;
        ClassLoader loader;
        if (engine.equals(SPRING_LOADER)) {
            spring = SpringLoader.open(jar, parent);
            loader = spring.loader();
        } else {
            loader = new SluiceClassLoader(FatJarLauncher.layout(jar).classPath().toArray(new URL[0]), parent);
        }
        ClassLoadBench.Round r = ClassLoadBench.loading(loader, c, read, failures,
                spring != null ? spring : (java.io.Closeable) loader);
        Sample s = ClassLoadBench.drive(engine, r, total, threads, read, start);
        work.put(engine, List.of((long) failures.get(), read.get()));
        return s;
    }

    /** The two start-up commands: Spring's launcher, then Sluice's. */
    static List<List<String>> commands(Path jar) {
        String java = ProcessHandle.current().info().command().orElse("java");
        // As in ClassLoadBench's start-ups: the JVM's warnings to standard error, where they are not taken for output.
        List<String> common = List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xshare:auto", "-Xlog:disable",
                "-Xlog:all=warning:stderr");
        List<String> spring = new ArrayList<>(common);
        spring.addAll(List.of("-jar", jar.toString()));
        List<String> sluice = new ArrayList<>(common);
        sluice.addAll(List.of("-cp", jar.toString(), FatJarLauncher.class.getName()));
        return List.of(spring, sluice);
    }

    private List<Row> startup(Path jar, long t0) throws IOException, InterruptedException {
        List<List<String>> commands = commands(jar);
        String springOut = output(commands.get(0));
        String sluiceOut = output(commands.get(1));
        if (!springOut.equals(sluiceOut)) {
            throw new IOException("the fat jar " + jar + " printed different output under the two launchers: Spring's:\n"
                    + springOut + "Sluice's:\n" + sluiceOut);
        }
        List<Sample> a = new ArrayList<>();
        List<Sample> b = new ArrayList<>();
        for (int round = 1; round <= options.rounds(); round++) {
            for (int k = 0; k < 2; k++) {
                boolean withSluice = (k + round) % 2 == 1;
                double ms = ClassLoadBench.firstOutput(commands.get(withSluice ? 1 : 0)) / 1e6;
                log.printf(Locale.ROOT, "  start-up of the fat jar, round %d/%d: %s %.0f ms (%.0f s elapsed)%n", round,
                        options.rounds(), withSluice ? SLUICE_STARTUP : SPRING_STARTUP, ms,
                        (System.nanoTime() - t0) / 1e9);
                log.flush();
                // Starts per second, as ClassLoadBench's start-up rows.
                (withSluice ? b : a).add(new Sample(1000 / ms, 0));
            }
        }
        Workload w = new Workload(STARTUP_WORKLOAD, 0);
        return List.of(new Row(SPRING_STARTUP, w, 1, null, List.copyOf(a)),
                new Row(SLUICE_STARTUP, w, 1, null, List.copyOf(b)));
    }

    /**
     * The whole standard output of {@code command}, which must exit with status 0 within two minutes.
     *
     * @throws IOException with the command and its standard error, if it fails or does not exit in time
     */
    static String output(List<String> command) throws IOException, InterruptedException {
        Path errors = Files.createTempFile("sluice-fatjar-", ".err");
        try {
            Process proc = new ProcessBuilder(command).redirectError(errors.toFile()).start();
            String out;
            try (InputStream in = proc.getInputStream()) {
                out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            ClassLoadBench.awaitSuccess(proc, command, errors);
            return out;
        } finally {
            Files.deleteIfExists(errors);
        }
    }
}
