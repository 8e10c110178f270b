package io.sluice.cli;

import io.sluice.bench.BenchChecks;
import io.sluice.bench.ClassLoadBench;
import io.sluice.bench.FatJarBench;
import io.sluice.bench.Row;
import io.sluice.bench.SectionOutput;
import io.sluice.bench.jruby.JRubyBench;
import io.sluice.zip.SluiceClassLoader;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sluice bench classload}: URLClassLoader against SluiceClassLoader on real jars, and start-up with each; then
 * Spring Boot's loader against SluiceClassLoader on a fat jar of the same jars.
 */
@Command(name = "classload", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Load every class (without initializing it) and read every resource of real jars (jruby-complete, "
                    + "h2-mvstore, picocli, Commons Compress, IO, Lang and Codec by default) with a fresh "
                    + "URLClassLoader and a fresh SluiceClassLoader per round, on 1 and 2 threads; beside them the "
                    + "same entries only read, by ZipFile and ConcurrentZipFile, to show how much of a load is "
                    + "reading. Then the start-up of 'jruby -e 1' and 'sluice info' with the JVM's class loader and "
                    + "with -Djava.system.class.loader=io.sluice.zip.SluiceClassLoader.",
            "Then a Spring-Boot-shaped fat jar written from the same jars (BOOT-INF/lib/*.jar stored, Spring Boot's "
                    + "loader at the root): every class and resource of the nested jars through Spring Boot's "
                    + "LaunchedClassLoader, made as its JarLauncher makes it, against SluiceClassLoader on the nested "
                    + "jar: URLs, on the same thread counts; and the start-up of 'java -jar' on it (Spring's "
                    + "JarLauncher) against Sluice's FatJarLauncher.",
            "The table goes to standard output, progress to standard error."})
final class BenchClassLoadCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--jars", split = ",", paramLabel = "JAR",
            description = "The jars to load (default: those named above, from the build).")
    List<Path> jars;

    @Option(names = "--threads", split = ",", defaultValue = "1,2", paramLabel = "N",
            description = "Thread counts (default: ${DEFAULT-VALUE}).")
    List<Integer> threads;

    @Option(names = "--rounds", defaultValue = "3", paramLabel = "N",
            description = "Timed rounds per contender, after one untimed (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--no-startup", description = "Leave out the start-up rows.")
    boolean noStartup;

    @Option(names = "--no-fatjar", description = "Leave out the fat jar rows.")
    boolean noFatJar;

    @Option(names = "--fatjar-only", description = "Only the fat jar rows (with their start-up unless --no-startup).")
    boolean fatJarOnly;

    @Option(names = "--jruby-jar", paramLabel = "JAR",
            description = "The jruby-complete jar (default: the one the build copied to sluice-cli/target/jruby).")
    Path jrubyJar;

    @Mixin
    RowsOutputOptions output;

    @Override
    public Integer call() throws IOException, InterruptedException {
        List<Integer> t = BenchCommand.threadCounts(threads);
        if (rounds < 1 || rounds > 1000) {
            throw new IllegalArgumentException("--rounds must be between 1 and 1000: " + rounds);
        }
        // Looked for only when needed: a run of given jars without start-up rows needs no JRuby.
        Path jruby = jars == null || !noStartup ? JRubyBench.jrubyJar(jrubyJar) : null;
        List<Path> j = jars;
        if (j == null) {
            j = new ArrayList<>(List.of(jruby));
            for (String r : new String[] {"org/h2/mvstore/MVStore.class", "picocli/CommandLine.class",
                "org/apache/commons/compress/archivers/zip/ZipFile.class", "org/apache/commons/io/IOUtils.class",
                "org/apache/commons/lang3/StringUtils.class", "org/apache/commons/codec/binary/Hex.class"}) {
                Path p = jarOf(r);
                if (p != null && !j.contains(p)) {
                    j.add(p);
                }
            }
        }
        for (Path p : j) {
            if (!Files.isRegularFile(p)) {
                throw new IOException("no such jar: " + p);
            }
        }
        List<ClassLoadBench.Program> programs = new ArrayList<>();
        Path core = location(SluiceClassLoader.class);
        if (!noStartup && !fatJarOnly) {
            programs.add(new ClassLoadBench.Program("jruby-e1", List.of(jruby), "org.jruby.Main", List.of("-e", "1")));
            programs.add(new ClassLoadBench.Program("sluice-info", ownClassPath(), Main.class.getName(),
                    List.of("info")));
        }
        BenchChecks.json(output.json);
        PrintWriter err = spec.commandLine().getErr();
        SectionOutput.describeMachine(err);
        if (fatJarOnly && noFatJar) {
            throw new IllegalArgumentException("--fatjar-only and --no-fatjar leave nothing to run");
        }
        List<Row> rows = new ArrayList<>();
        if (!fatJarOnly) {
            rows.addAll(new ClassLoadBench(new ClassLoadBench.Options(j, t, rounds, programs, core), err).run());
        }
        // Last: Spring's launcher registers its URL handlers for the whole JVM.
        if (!noFatJar) {
            rows.addAll(new FatJarBench(new FatJarBench.Options(j, t, rounds, !noStartup,
                    Path.of(System.getProperty("java.io.tmpdir"))), err).run());
        }
        BenchCommand.emit(rows, w -> switch (w.name()) {
            case FatJarBench.LOAD_WORKLOAD -> FatJarBench.SPRING_LOADER;
            case FatJarBench.STARTUP_WORKLOAD -> FatJarBench.SPRING_STARTUP;
            default -> w.name().startsWith("startup-") ? ClassLoadBench.DEFAULT_STARTUP : ClassLoadBench.URL_LOADER;
        }, output.json, spec);
        return Main.OK;
    }

    /** This JVM's class path and module path: what 'sluice info' runs from. */
    private static List<Path> ownClassPath() {
        List<Path> out = new ArrayList<>();
        for (String prop : new String[] {"jdk.module.path", "java.class.path"}) {
            for (String s : System.getProperty(prop, "").split(File.pathSeparator)) {
                if (!s.isEmpty() && !out.contains(Path.of(s))) {
                    out.add(Path.of(s));
                }
            }
        }
        return out;
    }

    /** The jar holding resource {@code name} on this class path, or null. */
    private static Path jarOf(String name) throws IOException {
        URL u = BenchClassLoadCommand.class.getClassLoader().getResource(name);
        if (u == null || !u.getProtocol().equals("jar")) {
            return null;
        }
        try {
            return Path.of(((JarURLConnection) u.openConnection()).getJarFileURL().toURI());
        } catch (URISyntaxException e) {
            throw new IOException("cannot tell which jar holds " + name + ": " + u, e);
        }
    }

    private static Path location(Class<?> c) throws IOException {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IOException("cannot tell where " + c.getName() + " was loaded from", e);
        }
    }
}
