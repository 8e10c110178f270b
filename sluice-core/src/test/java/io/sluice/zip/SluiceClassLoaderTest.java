package io.sluice.zip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sluice.testing.ChildJvm;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link SluiceClassLoader} against {@link URLClassLoader} given the same class path: real jars from the local Maven
 * repository (jruby-complete, h2-mvstore, picocli), jars written here for multi-release entries and sealing, and a
 * forked JVM that runs a real program with this loader as its system class loader.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SluiceClassLoaderTest {
    static final Path M2 = Path.of(System.getProperty("user.home"), ".m2", "repository");

    @TempDir
    Path tmp;

    /** The newest version of an artifact in the local repository, or a skipped test if there is none. */
    static Path jar(String group, String artifact) throws IOException {
        Path dir = M2.resolve(group.replace('.', '/')).resolve(artifact);
        assumeTrue(Files.isDirectory(dir), "no " + artifact + " in " + M2);
        try (var versions = Files.list(dir)) {
            for (Path v : versions.sorted(Collections.reverseOrder()).toList()) {
                Path j = v.resolve(artifact + "-" + v.getFileName() + ".jar");
                if (Files.isRegularFile(j)) {
                    return j;
                }
            }
        }
        assumeTrue(false, "no " + artifact + " jar under " + dir);
        return null;
    }

    static Path realJar(String which) throws IOException {
        return switch (which) {
            case "jruby-complete" -> jar("org.jruby", "jruby-complete");
            case "h2-mvstore" -> jar("com.h2database", "h2-mvstore");
            case "picocli" -> jar("info.picocli", "picocli");
            default -> throw new IllegalArgumentException(which);
        };
    }

    static List<String> entryNames(Path jar) throws IOException {
        try (JarFile j = new JarFile(jar.toFile())) {
            return j.stream().map(ZipEntry::getName).toList();
        }
    }

    /** The bytes of {@code name} in {@code jar}, as the JDK reads them. */
    static byte[] entryBytes(Path jar, String name) throws IOException {
        try (JarFile j = new JarFile(jar.toFile()); InputStream in = j.getInputStream(j.getEntry(name))) {
            return in.readAllBytes();
        }
    }

    static String className(String entry) {
        return entry.substring(0, entry.length() - ".class".length()).replace('/', '.');
    }

    static boolean isClass(String entry) {
        return entry.endsWith(".class") && !entry.startsWith("META-INF/") && !entry.endsWith("module-info.class")
                && !entry.endsWith("package-info.class");
    }

    static byte[] bytes(InputStream in) throws IOException {
        try (in) {
            return in.readAllBytes();
        }
    }

    /** What loading gives: the class's code source and package, or the error's class. */
    static String outcome(ClassLoader loader, String name) {
        try {
            Class<?> c = Class.forName(name, false, loader);
            assertSame(loader, c.getClassLoader(), name);
            Package p = c.getPackage();
            return "loaded from " + c.getProtectionDomain().getCodeSource().getLocation() + " package " + describe(p);
        } catch (ClassNotFoundException | LinkageError e) {
            return e.getClass().getName();
        }
    }

    static String describe(Package p) {
        return p == null ? "none" : String.join("|", p.getName(), String.valueOf(p.getSpecificationTitle()),
                String.valueOf(p.getSpecificationVersion()), String.valueOf(p.getSpecificationVendor()),
                String.valueOf(p.getImplementationTitle()), String.valueOf(p.getImplementationVersion()),
                String.valueOf(p.getImplementationVendor()), String.valueOf(p.isSealed()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"picocli", "h2-mvstore", "jruby-complete"})
    void everyClassAndResourceAsUrlClassLoader(String which) throws Exception {
        Path jar = realJar(which);
        URL[] urls = {jar.toUri().toURL()};
        ClassLoader parent = ClassLoader.getPlatformClassLoader();
        List<String> names = entryNames(jar);
        try (URLClassLoader jdk = new URLClassLoader(urls, parent);
                SluiceClassLoader ours = new SluiceClassLoader(urls, parent)) {
            assertArrayEquals(jdk.getURLs(), ours.getURLs());
            int loaded = 0;
            for (String n : names) {
                if (isClass(n)) {
                    String expected = outcome(jdk, className(n));
                    assertEquals(expected, outcome(ours, className(n)), n);
                    loaded += expected.startsWith("loaded") ? 1 : 0;
                }
            }
            assertTrue(loaded > 100, which + ": only " + loaded + " classes loaded");
            for (String n : names) {
                URL expected = jdk.getResource(n);
                URL got = ours.getResource(n);
                assertEquals(String.valueOf(expected), String.valueOf(got), n);
                if (n.endsWith("/")) {
                    continue;
                }
                assertArrayEquals(bytes(jdk.getResourceAsStream(n)), bytes(ours.getResourceAsStream(n)), n);
            }
            // The URLs this loader hands out are opened by the JDK's jar: handler, and give the same bytes.
            for (int i = 0; i < names.size(); i += Math.max(1, names.size() / 200)) {
                String n = names.get(i);
                if (!n.endsWith("/")) {
                    assertArrayEquals(bytes(jdk.getResource(n).openStream()), bytes(ours.getResource(n).openStream()),
                            n);
                }
            }
            assertNull(ours.getResource("no/such/resource.txt"));
            assertThrows(ClassNotFoundException.class, () -> ours.loadClass("no.such.Clazz"));
        }
    }

    @Test
    void getResourcesInClassPathOrder(@TempDir Path dir) throws Exception {
        Path picocli = realJar("picocli");
        Path h2 = realJar("h2-mvstore");
        Files.createDirectories(dir.resolve("META-INF"));
        Files.writeString(dir.resolve("META-INF/MANIFEST.MF"), "Manifest-Version: 1.0\n");
        Files.writeString(dir.resolve("only here.txt"), "a file with a space in its name");
        URL[] urls = {h2.toUri().toURL(), dir.toUri().toURL(), tmp.resolve("missing.jar").toUri().toURL(),
                picocli.toUri().toURL()};
        try (URLClassLoader jdk = new URLClassLoader(urls, null);
                SluiceClassLoader ours = new SluiceClassLoader(urls, null)) {
            for (String n : List.of(JarFile.MANIFEST_NAME, "META-INF/", "META-INF", "only here.txt",
                    "picocli/CommandLine.class", "org/h2/mvstore/MVStore.class", "../escape.txt")) {
                assertEquals(Collections.list(jdk.getResources(n)).toString(),
                        Collections.list(ours.getResources(n)).toString(), n);
            }
            assertArrayEquals(jdk.getURLs(), ours.getURLs());
            assertEquals(3, Collections.list(ours.getResources(JarFile.MANIFEST_NAME)).size());
            assertEquals("a file with a space in its name",
                    new String(bytes(ours.getResource("only here.txt").openStream()), StandardCharsets.UTF_8));
        }
    }

    /** A jar with a Class-Path manifest attribute. */
    static void jarWithClassPath(Path jar, String classPath, String text) throws IOException {
        Manifest man = new Manifest();
        man.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (classPath != null) {
            man.getMainAttributes().put(Attributes.Name.CLASS_PATH, classPath);
        }
        Files.createDirectories(jar.getParent());
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), man)) {
            put(out, "r.txt", text);
        }
    }

    @Test
    void followsClassPathAttributesAsUrlClassLoader() throws Exception {
        jarWithClassPath(tmp.resolve("app/a.jar"), "lib/b.jar  ../other/ missing.jar https://example.com/x.jar"
                + " a.jar lib/space%20d.jar", "a");
        jarWithClassPath(tmp.resolve("app/lib/b.jar"), "c.jar ../a.jar", "b");
        jarWithClassPath(tmp.resolve("app/lib/c.jar"), null, "c");
        jarWithClassPath(tmp.resolve("app/lib/space d.jar"), null, "d");
        jarWithClassPath(tmp.resolve("e.jar"), "app/lib/c.jar", "e");
        Files.createDirectories(tmp.resolve("other"));
        Files.writeString(tmp.resolve("other/r.txt"), "other");
        URL[] urls = {tmp.resolve("app/a.jar").toUri().toURL(), tmp.resolve("e.jar").toUri().toURL(),
                tmp.resolve("app/lib/b.jar").toUri().toURL()};
        try (URLClassLoader jdk = new URLClassLoader(urls, null);
                SluiceClassLoader ours = new SluiceClassLoader(urls, null)) {
            List<String> expected = Collections.list(jdk.getResources("r.txt")).stream().map(URL::toString).toList();
            assertEquals(expected, Collections.list(ours.getResources("r.txt")).stream().map(URL::toString).toList());
            assertEquals(6, expected.size(), expected.toString());
            List<String> texts = new ArrayList<>();
            for (URL u : Collections.list(ours.getResources("r.txt"))) {
                texts.add(new String(bytes(u.openStream()), StandardCharsets.UTF_8));
            }
            assertEquals(List.of("a", "b", "c", "other", "d", "e"), texts);
            assertArrayEquals(jdk.getURLs(), ours.getURLs());
        }
    }

    @Test
    void encodesNamesAsTheJdkDoes() throws Exception {
        Path jar = tmp.resolve("odd names.jar");
        List<String> names = List.of("a b.txt", "percent%.txt", "hash#.txt", "q?.txt", "semi;colon=.txt",
                "br[ace]{s}|^`.txt", "ümlaut.txt", "日本.txt", "emoji\uD83D\uDE00.txt", "plus+and&$,@!~*'().txt");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (String n : names) {
                out.putNextEntry(new JarEntry(n));
                out.write(n.getBytes(StandardCharsets.UTF_8));
            }
        }
        URL[] urls = {jar.toUri().toURL()};
        try (URLClassLoader jdk = new URLClassLoader(urls, null);
                SluiceClassLoader ours = new SluiceClassLoader(urls, null)) {
            for (String n : names) {
                assertEquals(jdk.getResource(n).toString(), ours.getResource(n).toString(), n);
                assertArrayEquals(n.getBytes(StandardCharsets.UTF_8), bytes(ours.getResourceAsStream(n)), n);
                // The JDK's handler cannot decode its own spelling of a supplementary character (each surrogate
                // is escaped alone); the URL fails the same way whichever loader made it.
                String jdkOpens = opens(jdk.getResource(n));
                assertEquals(jdkOpens, opens(ours.getResource(n)), n);
                assertEquals(n.contains("\uD83D") ? "IllegalArgumentException" : n, jdkOpens);
            }
        }
    }

    static String opens(URL url) {
        try {
            return new String(bytes(url.openStream()), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return e.getClass().getSimpleName();
        }
    }

    @Test
    void multiReleaseEntriesForTheRunningJdk() throws Exception {
        int feature = Runtime.version().feature();
        Manifest man = new Manifest();
        man.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        man.getMainAttributes().put(Attributes.Name.MULTI_RELEASE, "true");
        Path jar = tmp.resolve("mr.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), man)) {
            put(out, "base-only.txt", "base");
            put(out, "v.txt", "base");
            put(out, "META-INF/versions/9/v.txt", "9");
            put(out, "META-INF/versions/11/v.txt", "11");
            put(out, "META-INF/versions/" + (feature + 1) + "/v.txt", "future");
            put(out, "META-INF/versions/11/eleven-only.txt", "11 only");
            put(out, "META-INF/versions/" + (feature + 1) + "/future-only.txt", "future only");
        }
        URL[] urls = {jar.toUri().toURL()};
        try (URLClassLoader jdk = new URLClassLoader(urls, null);
                SluiceClassLoader ours = new SluiceClassLoader(urls, null)) {
            for (String n : List.of("base-only.txt", "v.txt", "eleven-only.txt", "future-only.txt",
                    "META-INF/versions/9/v.txt")) {
                URL expected = jdk.getResource(n);
                assertEquals(String.valueOf(expected), String.valueOf(ours.getResource(n)), n);
                if (expected != null) {
                    assertArrayEquals(bytes(jdk.getResourceAsStream(n)), bytes(ours.getResourceAsStream(n)), n);
                }
            }
            assertEquals("11", new String(bytes(ours.getResourceAsStream("v.txt")), StandardCharsets.UTF_8));
            assertNull(ours.getResource("future-only.txt"));
        }
    }

    private static void put(JarOutputStream out, String name, String text) throws IOException {
        out.putNextEntry(new JarEntry(name));
        out.write(text.getBytes(StandardCharsets.UTF_8));
    }

    private static void put(JarOutputStream out, String name, byte[] bytes) throws IOException {
        out.putNextEntry(new JarEntry(name));
        out.write(bytes);
    }

    /** Two classes of one package, written into jars of their own by {@link #sealedJars}. */
    static final class SealedA {
    }

    static final class SealedB {
    }

    static byte[] classBytes(Class<?> c) throws IOException {
        String n = c.getName().replace('.', '/') + ".class";
        return bytes(Objects.requireNonNull(SluiceClassLoaderTest.class.getClassLoader().getResourceAsStream(n), n));
    }

    /** jar a: SealedA in a package its manifest seals (with package attributes); jar b: SealedB, not sealed. */
    Path[] sealedJars() throws IOException {
        String section = SealedA.class.getPackageName().replace('.', '/') + "/";
        Manifest sealing = new Manifest();
        sealing.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        sealing.getMainAttributes().put(Attributes.Name.IMPLEMENTATION_TITLE, "main title");
        sealing.getMainAttributes().put(Attributes.Name.SPECIFICATION_VERSION, "1.2");
        Attributes own = new Attributes();
        own.put(Attributes.Name.SEALED, "true");
        own.put(Attributes.Name.IMPLEMENTATION_TITLE, "section title");
        sealing.getEntries().put(section, own);
        Path a = tmp.resolve("a.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(a), sealing)) {
            put(out, SealedA.class.getName().replace('.', '/') + ".class", classBytes(SealedA.class));
        }
        Path b = tmp.resolve("b.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(b))) {
            put(out, SealedB.class.getName().replace('.', '/') + ".class", classBytes(SealedB.class));
        }
        return new Path[] {a, b};
    }

    @Test
    void packagesFromTheManifestAndSealing() throws Exception {
        Path[] jars = sealedJars();
        URL[] urls = {jars[0].toUri().toURL(), jars[1].toUri().toURL()};
        ClassLoader parent = ClassLoader.getPlatformClassLoader();
        try (URLClassLoader jdk = new URLClassLoader(urls, parent);
                SluiceClassLoader ours = new SluiceClassLoader(urls, parent)) {
            String expected = outcome(jdk, SealedA.class.getName());
            assertTrue(expected.contains("|section title|") && expected.endsWith("|true"), expected);
            assertTrue(expected.contains("|1.2|"), expected);
            assertEquals(expected, outcome(ours, SealedA.class.getName()));
            // SealedB's package is sealed to a.jar, and b.jar is not where it was sealed.
            assertThrows(SecurityException.class, () -> jdk.loadClass(SealedB.class.getName()));
            SecurityException e = assertThrows(SecurityException.class, () -> ours.loadClass(SealedB.class.getName()));
            assertTrue(e.getMessage().contains("sealing violation"), e.getMessage());
        }
        // In the other order the package is defined unsealed from b.jar first, then a.jar wants to seal it.
        URL[] reversed = {urls[1], urls[0]};
        try (URLClassLoader jdk = new URLClassLoader(reversed, parent);
                SluiceClassLoader ours = new SluiceClassLoader(reversed, parent)) {
            assertEquals(outcome(jdk, SealedB.class.getName()), outcome(ours, SealedB.class.getName()));
            assertThrows(SecurityException.class, () -> jdk.loadClass(SealedA.class.getName()));
            assertThrows(SecurityException.class, () -> ours.loadClass(SealedA.class.getName()));
        }
    }

    @Test
    void oneCodeSourcePerJar() throws Exception {
        Path jar = realJar("picocli");
        try (SluiceClassLoader ours = new SluiceClassLoader(List.of(jar), ClassLoader.getPlatformClassLoader())) {
            Class<?> a = ours.loadClass("picocli.CommandLine");
            Class<?> b = ours.loadClass("picocli.AutoComplete");
            assertSame(a.getProtectionDomain().getCodeSource(), b.getProtectionDomain().getCodeSource());
            assertSame(a.getProtectionDomain(), b.getProtectionDomain());
            assertEquals(jar.toUri().toURL(), a.getProtectionDomain().getCodeSource().getLocation());
        }
    }

    @Test
    void parallelLoadingFromSeveralThreads() throws Exception {
        Path picocli = realJar("picocli");
        Path h2 = realJar("h2-mvstore");
        List<String> classes = new ArrayList<>();
        for (Path j : List.of(picocli, h2)) {
            entryNames(j).stream().filter(SluiceClassLoaderTest::isClass).map(SluiceClassLoaderTest::className)
                    .forEach(classes::add);
        }
        ClassLoader parent = ClassLoader.getPlatformClassLoader();
        List<Path> path = List.of(picocli, h2);
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (SluiceClassLoader ours = new SluiceClassLoader(path, parent);
                URLClassLoader jdk = new URLClassLoader(new URL[] {picocli.toUri().toURL(), h2.toUri().toURL()},
                        parent)) {
            assertTrue(ours.isRegisteredAsParallelCapable(), "locks per class name, not on the loader");
            ConcurrentHashMap<String, Class<?>> seen = new ConcurrentHashMap<>();
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<List<String>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                List<String> order = new ArrayList<>(classes);
                Collections.rotate(order, t * classes.size() / threads);
                if (t % 2 == 1) {
                    Collections.reverse(order);
                }
                results.add(pool.submit(() -> {
                    start.await();
                    List<String> outcomes = new ArrayList<>();
                    for (String n : order) {
                        try {
                            Class<?> c = Class.forName(n, false, ours);
                            Class<?> before = seen.putIfAbsent(n, c);
                            assertTrue(before == null || before == c, n + " defined twice");
                        } catch (ClassNotFoundException | LinkageError e) {
                            outcomes.add(n + " " + e.getClass().getName());
                        }
                    }
                    Collections.sort(outcomes);
                    return outcomes;
                }));
            }
            List<String> expected = new ArrayList<>();
            for (String n : classes) {
                try {
                    Class.forName(n, false, jdk);
                } catch (ClassNotFoundException | LinkageError e) {
                    expected.add(n + " " + e.getClass().getName());
                }
            }
            Collections.sort(expected);
            for (Future<List<String>> f : results) {
                assertEquals(expected, f.get(120, TimeUnit.SECONDS));
            }
            assertEquals(classes.size() - expected.size(), seen.size());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void closeUnmapsEveryJar() throws Exception {
        Path a = Files.copy(realJar("picocli"), tmp.resolve("copied-picocli.jar"));
        Path b = Files.copy(realJar("h2-mvstore"), tmp.resolve("copied-h2-mvstore.jar"));
        SluiceClassLoader ours = new SluiceClassLoader(List.of(a, b), ClassLoader.getPlatformClassLoader());
        // Small jars are read into memory (smallJarsAreReadIntoMemoryNotMapped); these are watched through the mappings.
        ours.mapEveryJar();
        Class<?> loaded = ours.loadClass("picocli.CommandLine$Help$Ansi");
        assertNull(ours.getResource("no/such/resource.txt"), "a lookup that reaches the second jar opens it");
        assertTrue(maps().contains(a.toString()), "picocli is mapped while the loader is open");
        assertTrue(maps().contains(b.toString()), "h2-mvstore is mapped while the loader is open");
        ours.close();
        assertFalse(maps().contains(a.toString()), "picocli is still mapped after close");
        assertFalse(maps().contains(b.toString()), "h2-mvstore is still mapped after close");
        assertTrue(loaded.isEnum(), "a class loaded before close still works");
        ClassNotFoundException e = assertThrows(ClassNotFoundException.class,
                () -> ours.loadClass("org.h2.mvstore.MVStore"));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertNull(ours.getResource("picocli/CommandLine.class"));
        assertNull(ours.getResourceAsStream("org/h2/mvstore/MVStore.class"));
        ours.close();
    }

    @Test
    void smallJarsAreReadIntoMemoryNotMapped() throws Exception {
        Path a = Files.copy(realJar("picocli"), tmp.resolve("held-picocli.jar"));
        assertTrue(Files.size(a) <= SluiceClassLoader.IN_MEMORY_UP_TO);
        try (SluiceClassLoader ours = new SluiceClassLoader(List.of(a), ClassLoader.getPlatformClassLoader())) {
            Class<?> c = ours.loadClass("picocli.CommandLine");
            assertEquals(a.toUri().toURL(), c.getProtectionDomain().getCodeSource().getLocation());
            assertFalse(maps().contains(a.toString()), "a jar of " + Files.size(a) + " bytes is mapped");
            try (InputStream in = ours.getResourceAsStream("picocli/CommandLine.class")) {
                assertArrayEquals(entryBytes(a, "picocli/CommandLine.class"), in.readAllBytes());
            }
        }
    }

    /**
     * Jars are opened when a lookup first reaches them, as URLClassLoader opens them: one the lookups have not
     * reached is never mapped, and close releases those that were, leaving the rest unopened for good.
     */
    @Test
    void opensAJarWhenALookupFirstReachesIt() throws Exception {
        Path a = Files.copy(realJar("picocli"), tmp.resolve("first-picocli.jar"));
        Path b = Files.copy(realJar("h2-mvstore"), tmp.resolve("second-h2-mvstore.jar"));
        Path c = Files.copy(realJar("h2-mvstore"), tmp.resolve("third-h2-mvstore.jar"));
        SluiceClassLoader ours = new SluiceClassLoader(List.of(a, b, c), ClassLoader.getPlatformClassLoader());
        ours.mapEveryJar();
        assertFalse(maps().contains(a.toString()), "nothing is opened before the first lookup");
        ours.loadClass("picocli.CommandLine");
        assertNotNull(ours.getResource("picocli/CommandLine.class"));
        assertTrue(maps().contains(a.toString()), "the first jar is mapped by the lookup that found the class");
        assertFalse(maps().contains(b.toString()), "the second jar is mapped though no lookup went past the first");
        Class<?> store = ours.loadClass("org.h2.mvstore.MVStore");
        assertEquals(b.toUri().toURL(), store.getProtectionDomain().getCodeSource().getLocation());
        assertTrue(maps().contains(b.toString()), "the second jar is mapped once a lookup reached it");
        assertFalse(maps().contains(c.toString()), "the third jar is mapped though the second had the class");
        ours.close();
        assertFalse(maps().contains(a.toString()), "the first jar is still mapped after close");
        assertFalse(maps().contains(b.toString()), "the second jar is still mapped after close");
        assertNull(ours.getResource("no/such/resource.txt"));
        assertFalse(maps().contains(c.toString()), "a lookup after close opened the third jar");
    }

    /**
     * Threads whose first lookups meet open each jar once: every class from the second jar has the same code source,
     * and the jar is mapped once.
     */
    @Test
    void concurrentFirstLookupsOpenAJarOnce() throws Exception {
        Path a = Files.copy(realJar("picocli"), tmp.resolve("raced-picocli.jar"));
        Path b = Files.copy(realJar("h2-mvstore"), tmp.resolve("raced-h2-mvstore.jar"));
        List<String> names = entryNames(b).stream().filter(SluiceClassLoaderTest::isClass)
                .map(SluiceClassLoaderTest::className).filter(n -> n.startsWith("org.h2.mvstore.")).toList();
        int threads = 8;
        for (int attempt = 0; attempt < 20; attempt++) {
            SluiceClassLoader ours = new SluiceClassLoader(List.of(a, b), ClassLoader.getPlatformClassLoader());
            ours.mapEveryJar();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<CodeSource>> results = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    String name = names.get(t % names.size());
                    results.add(pool.submit(() -> {
                        start.await();
                        return Class.forName(name, false, ours).getProtectionDomain().getCodeSource();
                    }));
                }
                CodeSource first = results.get(0).get(60, TimeUnit.SECONDS);
                for (Future<CodeSource> f : results) {
                    assertSame(first, f.get(60, TimeUnit.SECONDS), "one code source, so one opening, per jar");
                }
                assertEquals(1, maps().lines().filter(l -> l.endsWith(b.toString())).count(),
                        "the second jar is mapped once");
                assertEquals(1, maps().lines().filter(l -> l.endsWith(a.toString())).count(),
                        "the first jar is mapped once");
            } finally {
                pool.shutdownNow();
                ours.close();
            }
        }
    }

    static String maps() throws IOException {
        return Files.readString(Path.of("/proc/self/maps"));
    }

    @Test
    void refusesWhatIsNotAFileUrl() {
        assertThrows(IllegalArgumentException.class,
                () -> new SluiceClassLoader(new URL[] {URI.create("https://example.com/x.jar").toURL()}, null));
    }

    /**
     * Once the whole class path is open, a lookup that runs past its end (a class or resource found nowhere, which a
     * program asks for often: optional dependencies, service files) takes no lock: it returns while another thread
     * holds the opening lock.
     */
    @Test
    void lookupsFoundNowhereTakeNoLockOnceEverythingIsOpen() throws Exception {
        Path picocli = realJar("picocli");
        Path h2 = realJar("h2-mvstore");
        try (SluiceClassLoader ours = new SluiceClassLoader(List.of(picocli, h2), null)) {
            assertNull(ours.getResource("no/such/resource.txt"), "the first lookup found nowhere opens everything");
            ExecutorService other = Executors.newSingleThreadExecutor();
            ours.openLock.lock();
            try {
                Future<String> lookups = other.submit(() -> {
                    assertNull(ours.getResource("no/such/resource.txt"));
                    assertFalse(ours.getResources("no/such/resource.txt").hasMoreElements());
                    assertThrows(ClassNotFoundException.class, () -> ours.loadClass("no.such.Clazz"));
                    return Class.forName("org.h2.mvstore.MVStore", false, ours).getName();
                });
                assertEquals("org.h2.mvstore.MVStore", lookups.get(30, TimeUnit.SECONDS));
            } finally {
                ours.openLock.unlock();
                other.shutdownNow();
            }
        }
    }

    /**
     * A jar that is missing or not a zip archive does not fail the loader, nor a lookup that an earlier or later
     * entry satisfies: it is skipped as URLClassLoader skips it, and named when a class is found nowhere.
     */
    @Test
    void skipsAndNamesAJarThatIsNotAnArchive() throws Exception {
        Path bad = Files.writeString(tmp.resolve("not-a.jar"), "plain text, no central directory");
        Path picocli = realJar("picocli");
        Path h2 = realJar("h2-mvstore");
        URL[] urls = {picocli.toUri().toURL(), bad.toUri().toURL(), tmp.resolve("missing.jar").toUri().toURL(),
                h2.toUri().toURL()};
        try (URLClassLoader jdk = new URLClassLoader(urls, null);
                SluiceClassLoader ours = new SluiceClassLoader(urls, null)) {
            assertEquals(urls[0], ours.loadClass("picocli.CommandLine").getProtectionDomain().getCodeSource()
                    .getLocation());
            assertEquals(urls[3], ours.loadClass("org.h2.mvstore.MVStore").getProtectionDomain().getCodeSource()
                    .getLocation());
            assertEquals(Collections.list(jdk.getResources(JarFile.MANIFEST_NAME)).toString(),
                    Collections.list(ours.getResources(JarFile.MANIFEST_NAME)).toString());
            ClassNotFoundException e = assertThrows(ClassNotFoundException.class,
                    () -> ours.loadClass("no.such.Clazz"));
            assertTrue(e.getMessage().startsWith("no.such.Clazz"), e.getMessage());
            assertTrue(e.getMessage().contains(bad.toString()), e.getMessage());
            assertTrue(e.getCause() instanceof IOException, String.valueOf(e.getCause()));
        }
    }

    /**
     * A real program from a real jar, in a new JVM whose system class loader is a SluiceClassLoader: picocli's
     * AutoComplete is not on the class path, so the JVM can only find it through the loader.
     */
    @Test
    void runsAProgramAsTheSystemClassLoader() throws Exception {
        Path picocli = realJar("picocli");
        String text = runAutoCompleteHelp(picocli, "-Xlog:class+load=info");
        assertTrue(text.contains("Usage: picocli.AutoComplete"), text);
        assertTrue(text.contains("picocli.AutoComplete source: " + picocli.toUri().toURL()), text);
    }

    /**
     * As the system class loader, opening the class path before the program's first class makes no value-layout
     * var handle, no type switch and no string concatenation or lambda class: in a cold JVM each costs milliseconds
     * (the layouts' method handle classes most), which the JVM's own loader does not pay. What FFM itself spins to
     * make the shared arena and the buffer view is allowed.
     */
    @Test
    void opensTheClassPathWithoutSpinningClassesForItsReads() throws Exception {
        String text = runAutoCompleteHelp(realJar("picocli"), "-Xlog:disable", "-Xlog:class+load=info:stdout:none");
        int main = text.indexOf("picocli.AutoComplete source: ");
        assertTrue(main > 0, text);
        List<String> spun = new ArrayList<>();
        for (String line : text.substring(0, main).split("\n")) {
            String name = line.split(" ", 2)[0];
            // Only names from the JVM's class-load log, matched by their simple part: the value layouts' classes and
            // the FFM session's own lambdas live in the JDK's implementation packages, which nothing here uses.
            boolean forReads = name.startsWith("java.lang.invoke.VarHandleSegmentAs")
                    || name.contains(".layout.ValueLayouts") || name.contains("$$TypeSwitch")
                    || name.contains("$$StringConcat")
                    || name.contains("$$Lambda") && !name.contains(".MemorySessionImpl$$");
            if (forReads) {
                spun.add(name);
            }
        }
        assertEquals(List.of(), spun, "made before the program's first class");
    }

    @Test
    void readsASmallClassPathJarWithoutSettingUpForeignMemory() throws Exception {
        assertTrue(Files.size(realJar("picocli")) <= SluiceClassLoader.IN_MEMORY_UP_TO);
        String text = runAutoCompleteHelp(realJar("picocli"), "-Xlog:disable", "-Xlog:class+load=info:stdout:none");
        int main = text.indexOf("picocli.AutoComplete source: ");
        assertTrue(main > 0, text);
        List<String> foreign = new ArrayList<>();
        for (String line : text.substring(0, main).split("\n")) {
            String name = line.split(" ", 2)[0];
            // The first arena, and the lambdas FFM's session classes spin when the JVM's first segment is made (their
            // simple name: the implementation package is the JDK's business).
            if (name.equals("java.lang.foreign.Arena") || name.contains(".MemorySessionImpl$$")) {
                foreign.add(name);
            }
        }
        assertEquals(List.of(), foreign, "made before the program's first class");
        assertTrue(text.contains("Usage:"), text);
    }

    /**
     * Runs picocli's AutoComplete with {@code --help} in a new JVM whose system class loader is a SluiceClassLoader
     * over {@code picocli} alone, with the JVM options given; returns its output after checking it exited with 0.
     */
    private static String runAutoCompleteHelp(Path picocli, String... jvmOptions) throws Exception {
        String java = ChildJvm.java();
        Path classes = Path.of(SluiceClassLoader.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> command = new ArrayList<>(List.of(java,
                "-Djava.system.class.loader=" + SluiceClassLoader.class.getName(),
                "-D" + SluiceClassLoader.CLASS_PATH_PROPERTY + "=" + picocli, "-cp", classes.toString()));
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("picocli.AutoComplete", "--help"));
        return ChildJvm.run(command);
    }
}
