package io.sluice.zip;

import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSigner;
import java.security.CodeSource;
import java.security.SecureClassLoader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.Attributes.Name;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * A class loader over jars and directories that reads jars through {@link ConcurrentZipFile}, so that threads
 * loading classes and resources at once never queue on a lock shared by the archive, as they do on
 * {@link java.util.zip.ZipFile}'s. It behaves as a {@link java.net.URLClassLoader} given the same class path:
 *
 * <ul>
 *   <li>parent first, then the class path in order, each jar followed by its manifest's {@code Class-Path}
 *       (resolved against the jar's URL, {@code file:} URLs only, a URL met twice searched once); parallel-capable
 *       (classes of different names load at once);</li>
 *   <li>resources are {@code jar:file:...!/name} URLs (and {@code file:} URLs in directories), spelled as
 *       {@code URLClassLoader} spells them (the entry's own name: {@code dir/} for {@code dir}, the versioned name
 *       in a multi-release jar), which the JDK's URL handlers open; {@link #getResourceAsStream} reads
 *       this loader's own resources straight from the mapped archive instead;</li>
 *   <li>packages are defined with the manifest's specification and implementation attributes (those of the
 *       package's own section first, then the main ones) and sealed as the manifest says;</li>
 *   <li>one {@link CodeSource} per jar or directory, whose location is the class path entry's URL;</li>
 *   <li>in a jar whose manifest says {@code Multi-Release: true}, {@code META-INF/versions/N/} entries for the
 *       running JDK's version and below take the place of the base entries, as {@link JarFile#runtimeVersion()}
 *       selects them;</li>
 *   <li>{@link #close()} unmaps every jar; what is loaded already stays usable.</li>
 * </ul>
 *
 * <p>Jar signatures are not verified: classes and code sources carry no {@link CodeSigner}s. Signed jars that must
 * be checked belong on a {@code URLClassLoader}, which hands them to the JDK's verifier.
 *
 * <p><b>As the system class loader.</b> With sluice-core on the class path, {@code
 * -Djava.system.class.loader=io.sluice.zip.SluiceClassLoader} makes the JVM create this loader through
 * {@link #SluiceClassLoader(ClassLoader)} with the built-in application loader as parent; the application's own jars
 * and directories go in the system property {@value #CLASS_PATH_PROPERTY} (separated by
 * {@link File#pathSeparator}), so that the parent does not find them first.
 */
public final class SluiceClassLoader extends SecureClassLoader implements Closeable {
    /** The system property holding the class path of {@link #SluiceClassLoader(ClassLoader)}. */
    public static final String CLASS_PATH_PROPERTY = "sluice.class.path";

    private static final String VERSIONS = "META-INF/versions/";

    static {
        registerAsParallelCapable();
    }

    private final URL[] urls;
    private final List<Source> sources;
    private volatile boolean closed;

    /**
     * A loader over the jars and directories in the system property {@value #CLASS_PATH_PROPERTY}, the form the
     * JVM calls for {@code -Djava.system.class.loader}. Entries that do not exist are skipped, as the JVM skips
     * them on its class path.
     *
     * @throws UncheckedIOException naming the jar, if one that exists cannot be opened as a zip archive
     */
    public SluiceClassLoader(ClassLoader parent) {
        super(parent);
        String property = System.getProperty(CLASS_PATH_PROPERTY, "");
        List<Path> paths = new ArrayList<>();
        for (String part : property.split(File.pathSeparator)) {
            if (!part.isEmpty()) {
                paths.add(Path.of(part));
            }
        }
        this.urls = urls(paths);
        try {
            this.sources = openAll(urls);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the class path in -D" + CLASS_PATH_PROPERTY + "="
                    + property + ": " + e.getMessage(), e);
        }
    }

    /**
     * A loader over {@code classPath}, jars and directories searched in this order after {@code parent} (null for
     * the bootstrap loader). Entries that do not exist are skipped, as {@code URLClassLoader} skips them.
     *
     * @throws IOException naming the jar, if one that exists cannot be opened as a zip archive; what was opened
     *                     before it is closed again
     */
    public SluiceClassLoader(List<Path> classPath, ClassLoader parent) throws IOException {
        super(parent);
        this.urls = urls(classPath);
        this.sources = openAll(urls);
    }

    /**
     * A loader over {@code file:} URLs, as {@code new URLClassLoader(urls, parent)}: a URL ending in {@code /} is a
     * directory, any other a jar.
     *
     * @throws IllegalArgumentException if a URL is not a {@code file:} URL
     * @throws IOException               naming the jar, if one that exists cannot be opened as a zip archive
     */
    public SluiceClassLoader(URL[] urls, ClassLoader parent) throws IOException {
        super(parent);
        for (URL url : urls) {
            if (!"file".equalsIgnoreCase(url.getProtocol())) {
                throw new IllegalArgumentException("not a file: URL, so not a jar or directory on this machine: "
                        + url);
            }
        }
        this.urls = urls.clone();
        this.sources = openAll(this.urls);
    }

    private static URL[] urls(List<Path> paths) {
        URL[] urls = new URL[paths.size()];
        for (int i = 0; i < urls.length; i++) {
            try {
                // toUri ends an existing directory's URL with a slash, which is what makes it a directory here.
                urls[i] = paths.get(i).toAbsolutePath().toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("no file: URL for " + paths.get(i) + ": " + e.getMessage(), e);
            }
        }
        return urls;
    }

    /**
     * Opens the class path as URLClassLoader walks it: a jar's {@code Class-Path} entries come right after the jar
     * (depth first), a URL met again is skipped, and what does not exist is left out.
     */
    private static List<Source> openAll(URL[] urls) throws IOException {
        Deque<URL> unopened = new ArrayDeque<>(List.of(urls));
        Set<String> seen = new HashSet<>();
        List<Source> opened = new ArrayList<>(urls.length);
        boolean success = false;
        try {
            for (URL url; (url = unopened.pollFirst()) != null;) {
                if (!seen.add(withoutFragment(url))) {
                    continue;
                }
                Path p = path(url);
                if (url.getPath().endsWith("/")) {
                    if (Files.isDirectory(p)) {
                        opened.add(new DirSource(p, url));
                    }
                } else if (Files.exists(p) && !Files.isDirectory(p)) {
                    JarSource jar = JarSource.open(p, url);
                    opened.add(jar);
                    List<URL> classPath = jar.classPath();
                    for (int i = classPath.size() - 1; i >= 0; i--) {
                        unopened.addFirst(classPath.get(i));
                    }
                }
            }
            success = true;
            return List.copyOf(opened);
        } finally {
            if (!success) {
                opened.forEach(Source::close);
            }
        }
    }

    private static String withoutFragment(URL url) {
        String s = url.toString();
        int hash = s.indexOf('#');
        return hash < 0 ? s : s.substring(0, hash);
    }

    /** A file: URL's path, percent-decoded as UTF-8, as the JDK's file: handler reads it. */
    private static Path path(URL url) {
        String encoded = url.getPath();
        return Path.of(URLDecoder.decode(encoded.replace("+", "%2B"), StandardCharsets.UTF_8));
    }

    /** The class path's URLs in search order, as {@link java.net.URLClassLoader#getURLs()}. */
    public URL[] getURLs() {
        return urls.clone();
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        String path = name.replace('.', '/').concat(".class");
        for (Source s : sources) {
            byte[] bytes;
            try {
                bytes = s.read(path);
            } catch (IOException e) {
                throw new ClassNotFoundException("reading " + path + " from " + s.codeSource.getLocation()
                        + " failed: " + e.getMessage(), e);
            } catch (IllegalStateException e) {
                // The archive was closed under us (ConcurrentZipFile's lookups say so unchecked).
                throw new ClassNotFoundException(name + ": " + this + " is closed", e);
            }
            if (bytes != null) {
                int dot = name.lastIndexOf('.');
                if (dot > 0) {
                    definePackageFor(name.substring(0, dot), s);
                }
                return defineClass(name, bytes, 0, bytes.length, s.codeSource);
            }
        }
        throw new ClassNotFoundException(closed ? name + ": " + this + " is closed" : name);
    }

    /**
     * Defines the package once, or checks that a package defined already agrees with this source's sealing, as
     * {@code URLClassLoader} does.
     */
    private void definePackageFor(String pkg, Source s) {
        Package p = getDefinedPackage(pkg);
        if (p == null) {
            try {
                p = definePackage(pkg, s.manifest(), s.codeSource.getLocation());
            } catch (IllegalArgumentException raced) {
                // Another thread defined it between our look and our definition; check that one instead.
                p = getDefinedPackage(pkg);
            }
        }
        if (p == null) {
            return;
        }
        Manifest man = s.manifest();
        if (p.isSealed()) {
            if (!p.isSealed(s.codeSource.getLocation())) {
                throw new SecurityException("sealing violation: package " + pkg + " is sealed, yet "
                        + s.codeSource.getLocation() + " is not where it was sealed");
            }
        } else if (man != null && isSealed(pkg, man)) {
            throw new SecurityException("sealing violation: package " + pkg + " is defined already, and "
                    + s.codeSource.getLocation() + " seals it");
        }
    }

    private Package definePackage(String pkg, Manifest man, URL location) {
        if (man == null) {
            return definePackage(pkg, null, null, null, null, null, null, null);
        }
        String section = pkg.replace('.', '/').concat("/");
        Attributes own = man.getAttributes(section);
        Attributes main = man.getMainAttributes();
        return definePackage(pkg,
                attribute(Name.SPECIFICATION_TITLE, own, main),
                attribute(Name.SPECIFICATION_VERSION, own, main),
                attribute(Name.SPECIFICATION_VENDOR, own, main),
                attribute(Name.IMPLEMENTATION_TITLE, own, main),
                attribute(Name.IMPLEMENTATION_VERSION, own, main),
                attribute(Name.IMPLEMENTATION_VENDOR, own, main),
                isSealed(pkg, man) ? location : null);
    }

    private static String attribute(Name name, Attributes own, Attributes main) {
        String v = own == null ? null : own.getValue(name);
        return v != null ? v : main == null ? null : main.getValue(name);
    }

    private static boolean isSealed(String pkg, Manifest man) {
        String v = attribute(Name.SEALED, man.getAttributes(pkg.replace('.', '/').concat("/")),
                man.getMainAttributes());
        return "true".equalsIgnoreCase(v);
    }

    @Override
    protected URL findResource(String name) {
        for (Source s : sources) {
            URL u = s.resource(name);
            if (u != null) {
                return u;
            }
        }
        return null;
    }

    @Override
    protected Enumeration<URL> findResources(String name) {
        List<URL> found = new ArrayList<>();
        for (Source s : sources) {
            URL u = s.resource(name);
            if (u != null) {
                found.add(u);
            }
        }
        return Collections.enumeration(found);
    }

    /**
     * The resource's bytes, found as {@link #getResource} finds it; when it is in one of this loader's jars they are
     * read from the mapped archive rather than through the JDK's {@code jar:} URL handler and its shared
     * {@code JarFile}.
     */
    @Override
    public InputStream getResourceAsStream(String name) {
        Objects.requireNonNull(name, "name");
        URL url = getResource(name);
        if (url == null) {
            return null;
        }
        String spelled = url.toString();
        for (Source s : sources) {
            if (s instanceof JarSource && spelled.startsWith(((JarSource) s).base)) {
                try {
                    byte[] bytes = s.read(name);
                    if (bytes != null) {
                        return new ByteArrayInputStream(bytes);
                    }
                } catch (IOException | IllegalStateException e) {
                    return null;
                }
            }
        }
        try {
            return url.openStream();
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Unmaps every jar of the class path. Classes loaded already keep working; finding new classes or resources in
     * this loader's jars fails afterwards, and reads of them in progress on other threads end with an
     * {@link IOException}. Closing twice does nothing.
     */
    @Override
    public void close() {
        closed = true;
        sources.forEach(Source::close);
    }

    /** The loader's class name and its class path's URLs, for messages. */
    @Override
    public String toString() {
        return "SluiceClassLoader" + List.of(urls);
    }

    /**
     * A resource name as {@code URLClassLoader} spells it in a URL: ASCII letters, digits and most punctuation as
     * they are; controls, space, {@code " # % ; < = > ? [ \ ] ^ ` { | }}, DEL and every non-ASCII char (as
     * UTF-8, one surrogate at a time) escaped with lower-case hex.
     */
    static String encodeName(String name) {
        StringBuilder b = null;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x80 && !escaped(c)) {
                if (b != null) {
                    b.append(c);
                }
                continue;
            }
            if (b == null) {
                b = new StringBuilder(name.length() + 16).append(name, 0, i);
            }
            // Each char on its own, a surrogate too (three bytes, not the four of its pair's UTF-8): the JDK spells
            // names so, and its jar: handler reads them back.
            if (c < 0x80) {
                hex(b, c);
            } else if (c < 0x800) {
                hex(b, 0xC0 | (c >> 6));
                hex(b, 0x80 | (c & 0x3F));
            } else {
                hex(b, 0xE0 | (c >> 12));
                hex(b, 0x80 | ((c >> 6) & 0x3F));
                hex(b, 0x80 | (c & 0x3F));
            }
        }
        return b == null ? name : b.toString();
    }

    private static void hex(StringBuilder b, int x) {
        b.append('%').append(Character.forDigit((x >> 4) & 0xF, 16)).append(Character.forDigit(x & 0xF, 16));
    }

    private static boolean escaped(char c) {
        return c <= 0x20 || c == 0x7F || "\"#%;<=>?[\\]^`{|}".indexOf(c) >= 0;
    }

    // ---------------------------------------------------------------- class path entries

    private abstract static sealed class Source permits JarSource, DirSource {
        final CodeSource codeSource;

        Source(URL location) {
            this.codeSource = new CodeSource(location, (CodeSigner[]) null);
        }

        /** The bytes of {@code name}, or null if this entry has no such file. */
        abstract byte[] read(String name) throws IOException;

        abstract URL resource(String name);

        abstract Manifest manifest();

        void close() {
        }
    }

    private static final class JarSource extends Source {
        final ConcurrentZipFile zip;
        /** {@code jar:file:/...!/}, the prefix of every resource URL. */
        final String base;
        final Manifest manifest;
        /** The versions to look in, newest first, or empty when the jar is not multi-release. */
        final int[] versions;

        private JarSource(ConcurrentZipFile zip, URL location) throws IOException {
            super(location);
            this.zip = zip;
            this.base = "jar:" + location + "!/";
            this.manifest = readManifest(zip);
            this.versions = versions(zip, manifest);
        }

        static JarSource open(Path path, URL location) throws IOException {
            ConcurrentZipFile zip = ConcurrentZipFile.open(path);
            try {
                return new JarSource(zip, location);
            } catch (IOException | RuntimeException e) {
                zip.close();
                throw e;
            }
        }

        private static Manifest readManifest(ConcurrentZipFile zip) throws IOException {
            ConcurrentZipFile.Entry e = zip.getEntry(JarFile.MANIFEST_NAME);
            if (e == null) {
                return null;
            }
            try (InputStream in = zip.getInputStream(e)) {
                return new Manifest(in);
            } catch (IOException ex) {
                throw new IOException(zip.getName() + ": reading its manifest " + JarFile.MANIFEST_NAME + " failed: "
                        + ex.getMessage(), ex);
            }
        }

        /**
         * The versioned directories present that the running JDK may use, newest first; JarFile looks from the
         * runtime's feature version down to 9 and so do we, skipping the ones the jar lacks.
         */
        private static int[] versions(ConcurrentZipFile zip, Manifest man) {
            if (man == null || !"true".equalsIgnoreCase(man.getMainAttributes().getValue(Name.MULTI_RELEASE))
                    || !Boolean.parseBoolean(System.getProperty("jdk.util.jar.enableMultiRelease", "true"))) {
                return new int[0];
            }
            int newest = JarFile.runtimeVersion().feature();
            boolean[] present = new boolean[newest + 1];
            for (ConcurrentZipFile.Entry e : zip) {
                String n = e.getName();
                if (n.startsWith(VERSIONS)) {
                    int slash = n.indexOf('/', VERSIONS.length());
                    if (slash > VERSIONS.length()) {
                        try {
                            int v = Integer.parseInt(n, VERSIONS.length(), slash, 10);
                            if (v >= 9 && v <= newest) {
                                present[v] = true;
                            }
                        } catch (NumberFormatException notAVersion) {
                            // A directory such as META-INF/versions/foo/ is not a version: JarFile ignores it too.
                        }
                    }
                }
            }
            int[] out = new int[newest + 1];
            int n = 0;
            for (int v = newest; v >= 9; v--) {
                if (present[v]) {
                    out[n++] = v;
                }
            }
            return java.util.Arrays.copyOf(out, n);
        }

        private ConcurrentZipFile.Entry entry(String name) {
            if (versions.length > 0 && !name.startsWith("META-INF/")) {
                for (int v : versions) {
                    ConcurrentZipFile.Entry e = zip.getEntry(VERSIONS + v + "/" + name);
                    if (e != null) {
                        return e;
                    }
                }
            }
            return zip.getEntry(name);
        }

        @Override
        byte[] read(String name) throws IOException {
            if (!zip.isOpen()) {
                return null;
            }
            ConcurrentZipFile.Entry e = entry(name);
            return e == null ? null : zip.readAllBytes(e);
        }

        @Override
        URL resource(String name) {
            if (!zip.isOpen()) {
                return null;
            }
            ConcurrentZipFile.Entry e;
            try {
                e = entry(name);
            } catch (IllegalStateException closedMeanwhile) {
                return null;
            }
            if (e == null) {
                return null;
            }
            // The entry's own name, as URLClassLoader spells it: the versioned one in a multi-release jar, and
            // "dir/" for a lookup of "dir".
            try {
                return URI.create(base + encodeName(e.getName())).toURL();
            } catch (MalformedURLException | IllegalArgumentException malformed) {
                return null;
            }
        }

        @Override
        Manifest manifest() {
            return manifest;
        }

        /**
         * The manifest's {@code Class-Path}, resolved against this jar's URL as URLClassLoader resolves it: an entry
         * with a scheme other than {@code file:} is ignored, as is one that is not a URL at all.
         */
        List<URL> classPath() {
            String value = manifest == null ? null : manifest.getMainAttributes().getValue(Name.CLASS_PATH);
            if (value == null) {
                return List.of();
            }
            List<URL> out = new ArrayList<>();
            for (String entry : value.trim().split("[ \\t\\n\\r\\f]+")) {
                if (entry.isEmpty()) {
                    continue;
                }
                try {
                    // Relative resolution as java.net.URL does it, which the JDK's loader uses: it accepts names
                    // that are not legal URIs (spaces), where URI.resolve would refuse them.
                    @SuppressWarnings("deprecation")
                    URL resolved = new URL(codeSource.getLocation(), entry);
                    if ("file".equalsIgnoreCase(resolved.getProtocol())) {
                        out.add(resolved);
                    }
                } catch (MalformedURLException notAUrl) {
                    // URLClassLoader drops the entry too.
                }
            }
            return out;
        }

        @Override
        void close() {
            zip.close();
        }
    }

    private static final class DirSource extends Source {
        final Path dir;

        DirSource(Path dir, URL location) {
            super(location);
            this.dir = dir;
        }

        /** The file for {@code name}, or null if it lies outside the directory or does not exist. */
        private Path file(String name) {
            Path f;
            try {
                f = dir.resolve(name).normalize();
            } catch (java.nio.file.InvalidPathException e) {
                return null;
            }
            return f.startsWith(dir) && Files.exists(f) ? f : null;
        }

        @Override
        byte[] read(String name) throws IOException {
            Path f = file(name);
            return f == null || Files.isDirectory(f) ? null : Files.readAllBytes(f);
        }

        @Override
        URL resource(String name) {
            if (file(name) == null) {
                return null;
            }
            try {
                return URI.create(codeSource.getLocation() + encodeName(name)).toURL();
            } catch (MalformedURLException | IllegalArgumentException e) {
                return null;
            }
        }

        @Override
        Manifest manifest() {
            return null;
        }
    }
}
