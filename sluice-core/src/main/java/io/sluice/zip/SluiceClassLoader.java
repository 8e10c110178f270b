package io.sluice.zip;

import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URL;
import java.net.URLConnection;
import java.net.URLStreamHandler;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSigner;
import java.security.CodeSource;
import java.security.SecureClassLoader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
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
 *   <li>jars are opened (their central directory read) when a lookup first reaches them, in class path order, as
 *       {@code URLClassLoader} opens them: a lookup that an earlier jar satisfies never touches the later ones, and
 *       one that exists but cannot be opened is skipped by every lookup (findClass names it when the class is found
 *       nowhere); threads whose first lookups meet at once open each jar once. A jar of up to 2 MiB is read whole
 *       into a heap array at that point, a larger one mapped: as the system class loader, the JVM's set-up for its
 *       first mapping and segment would otherwise come before the program's first class;</li>
 *   <li>{@link #close()} unmaps every jar opened so far (and lets go of those read into memory) and opens no more;
 *       what is loaded already stays usable.</li>
 * </ul>
 *
 * <p><b>Signed jars</b> are verified by the JDK's verifier through {@link SluiceJarFile#getCodeSigners}: a class
 * from a signed entry gets a {@link CodeSource} with the same {@link CodeSigner}s as under {@code URLClassLoader}.
 * Those classes are read a second time through a {@link JarFile}, under its lock; unsigned jars are not. Resources
 * read with {@link #getResourceAsStream} come from the mapping unverified, where {@code URLClassLoader}'s stream
 * would throw {@link SecurityException} at the end of a tampered signed entry.
 *
 * <p><b>Nested jars</b>, the shape of Spring Boot's executable jars, are given as {@code jar:} URLs to
 * {@link #SluiceClassLoader(URL[], ClassLoader)}: {@code jar:file:/app.jar!/BOOT-INF/lib/dep.jar} (a trailing
 * {@code !/} may follow) is the jar in that entry, opened with {@link ConcurrentZipFile#openNested} (a stored one
 * is a slice of the outer mapping, a deflated one is inflated once); {@code jar:file:/app.jar!/BOOT-INF/classes/} is
 * that directory of the outer jar. Each outer jar is mapped once for all its nested ones. A nested jar's resources
 * are {@code jar:file:/app.jar!/BOOT-INF/lib/dep.jar!/name} URLs that carry their own handler (reading from the
 * mapping): they open as given, but the same text parsed anew by {@code new URL(String)} goes to the JDK's handler,
 * which cannot open it. Nested jars' {@code Class-Path} is ignored, as Spring Boot ignores it, and signed nested
 * jars are refused when a class is loaded from them (the JDK's verifier needs a file).
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

    static {
        registerAsParallelCapable();
    }

    /**
     * Jars of the class path up to this size are read into memory when first reached, larger ones mapped. Most library
     * jars are below it, and reading them keeps the JVM's FFM set-up (first arena, mapping and segment: 10 to 15 ms
     * in a cold JVM) off the way to a program's first class when this is the system class loader; the price is their
     * bytes on the heap for the loader's life, where {@code URLClassLoader}'s {@code ZipFile}s keep only their central
     * directories.
     */
    static final int IN_MEMORY_UP_TO = 2 << 20;

    private final URL[] urls;
    /**
     * The class path entries opened so far, in search order. Lookups read it with no lock; it only grows, replaced
     * whole under {@link #openLock}, so that a lookup sees every entry before the one it reached complete.
     */
    private volatile Source[] sources = new Source[0];
    /** Held while a class path entry is opened, and by {@link #close()}: each jar is opened once, in order. */
    final ReentrantLock openLock = new ReentrantLock();
    /**
     * Whether nothing is left to open (or the loader is closed): then a lookup that runs past the last entry, as
     * every class or resource found nowhere does, ends there instead of taking {@link #openLock}.
     */
    private volatile boolean allOpen;
    /**
     * URLs still to open, next first: the class path, with each jar's {@code Class-Path} pushed in front once it is
     * open (depth first, as URLClassLoader walks it). Guarded by {@link #openLock}.
     */
    private final Deque<URL> unopened;
    /** URLs met so far without their fragment, so that one given twice is searched once. Guarded by openLock. */
    private final Set<String> seen = new HashSet<>();
    /** The outer jars of nested jars and of directories inside jars, each opened once and closed with the loader. */
    private final List<SluiceJarFile> outers = new ArrayList<>();
    /** Why entries that exist could not be opened, for the message of a class found nowhere; replaced whole. */
    private volatile List<IOException> openFailures = List.of();
    private volatile boolean closed;
    /** Jars up to this many bytes are read into memory, larger ones mapped. Guarded by openLock. */
    private int inMemoryUpTo = IN_MEMORY_UP_TO;

    /**
     * A loader over the jars and directories in the system property {@value #CLASS_PATH_PROPERTY}, the form the
     * JVM calls for {@code -Djava.system.class.loader}. Entries that do not exist are skipped, as the JVM skips
     * them on its class path; nothing is opened until a lookup needs it.
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
        this.unopened = deque(this.urls);
    }

    /**
     * A loader over {@code classPath}, jars and directories searched in this order after {@code parent} (null for
     * the bootstrap loader). Entries that do not exist, or are not zip archives, are skipped, as
     * {@code URLClassLoader} skips them; nothing is opened until a lookup needs it.
     */
    public SluiceClassLoader(List<Path> classPath, ClassLoader parent) {
        super(parent);
        this.urls = urls(classPath);
        this.unopened = deque(this.urls);
    }

    /**
     * A loader over {@code file:} URLs, as {@code new URLClassLoader(urls, parent)}: a URL ending in {@code /} is a
     * directory, any other a jar; and over {@code jar:file:} URLs of an entry, a nested jar or a directory inside a
     * jar (see the class comment). Nothing is opened until a lookup needs it.
     *
     * @throws IllegalArgumentException if a URL is neither a {@code file:} URL nor a {@code jar:file:...!/entry} URL
     */
    public SluiceClassLoader(URL[] urls, ClassLoader parent) {
        super(parent);
        for (URL url : urls) {
            if (!"file".equalsIgnoreCase(url.getProtocol()) && !isNested(url)) {
                throw new IllegalArgumentException("neither a file: URL nor a jar:file:...!/entry URL, so not a jar"
                        + " or directory on this machine: " + url);
            }
        }
        this.urls = urls.clone();
        this.unopened = deque(this.urls);
    }

    /**
     * The URLs to open, in order. A loop rather than {@code new ArrayDeque<>(List.of(urls))}, whose copy goes through
     * a lambda: as the JVM's system class loader this runs before the program's first class, where the first call of
     * each lambda or string concatenation spins a class.
     */
    private static Deque<URL> deque(URL[] urls) {
        Deque<URL> d = new ArrayDeque<>(urls.length);
        for (URL u : urls) {
            d.addLast(u);
        }
        return d;
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
     * The class path entry at {@code index} in search order, opening entries up to it if no lookup has reached it
     * yet; null past the end of the class path, or once the loader is closed.
     */
    private Source source(int index) {
        Source[] open = sources;
        return index < open.length ? open[index] : allOpen ? null : openUpTo(index);
    }

    /**
     * Opens the class path as URLClassLoader walks it, until entry {@code index} is open: a jar's {@code Class-Path}
     * entries come right after the jar (depth first), a URL met again is skipped, and what does not exist or cannot
     * be opened is left out (the latter remembered in {@link #openFailures}).
     */
    private Source openUpTo(int index) {
        if (openLock.isHeldByCurrentThread()) {
            // A lookup made by the opening itself (a charset or file system provider found through the system class
            // loader, when this is it) searches what is open already instead of opening the class path out of order.
            return null;
        }
        openLock.lock();
        try {
            while (sources.length <= index) {
                URL url = closed ? null : unopened.pollFirst();
                if (url == null) {
                    allOpen = true;
                    return null;
                }
                if (!seen.add(withoutFragment(url))) {
                    continue;
                }
                Source opened;
                try {
                    opened = open(url);
                } catch (IOException e) {
                    List<IOException> failures = new ArrayList<>(openFailures);
                    failures.add(e);
                    openFailures = List.copyOf(failures);
                    continue;
                }
                if (opened == null) {
                    continue;
                }
                Source[] grown = Arrays.copyOf(sources, sources.length + 1);
                grown[grown.length - 1] = opened;
                sources = grown;
                if (opened instanceof JarSource jar) {
                    List<URL> classPath = jar.classPath();
                    for (int i = classPath.size() - 1; i >= 0; i--) {
                        unopened.addFirst(classPath.get(i));
                    }
                }
            }
            return sources[index];
        } finally {
            openLock.unlock();
        }
    }

    /** Maps every jar opened from now on, whatever its size: for tests that watch the mappings. */
    void mapEveryJar() {
        openLock.lock();
        try {
            inMemoryUpTo = -1;
        } finally {
            openLock.unlock();
        }
    }

    /** The source for one class path URL, or null if there is nothing there. Called under {@link #openLock}. */
    private Source open(URL url) throws IOException {
        if (isNested(url)) {
            return openNested(url, outers);
        }
        Path p = path(url);
        if (url.getPath().endsWith("/")) {
            return Files.isDirectory(p) ? new DirSource(p, url) : null;
        }
        return Files.exists(p) && !Files.isDirectory(p) ? JarSource.open(p, url, inMemoryUpTo) : null;
    }

    /** Whether {@code url} names an entry of a jar on this machine: {@code jar:file:/outer.jar!/entry}. */
    private static boolean isNested(URL url) {
        if (!"jar".equalsIgnoreCase(url.getProtocol())) {
            return false;
        }
        String file = url.getFile();
        int bang = file.indexOf("!/");
        return file.regionMatches(true, 0, "file:", 0, 5) && bang > 0 && bang + 2 < file.length();
    }

    /**
     * The source for {@code jar:file:/outer.jar!/entry}: a nested jar ({@code BOOT-INF/lib/inner.jar}, a trailing
     * {@code !/} allowed) opened from the entry, or a directory of the outer jar ({@code BOOT-INF/classes/}); null
     * when the outer jar or the entry does not exist, as URLClassLoader skips what it cannot find.
     */
    private static Source openNested(URL url, List<SluiceJarFile> outers) throws IOException {
        String file = url.getFile();
        int bang = file.indexOf("!/");
        String decoded = URLDecoder.decode(file.substring(bang + 2).replace("+", "%2B"), StandardCharsets.UTF_8);
        String entryName = decoded.endsWith("!/") ? decoded.substring(0, decoded.length() - 2) : decoded;
        @SuppressWarnings("deprecation")
        URL outerUrl = new URL(file.substring(0, bang));
        Path outerPath = path(outerUrl);
        if (!Files.isRegularFile(outerPath)) {
            return null;
        }
        SluiceJarFile outer = null;
        for (SluiceJarFile o : outers) {
            if (outerPath.equals(o.zip().path())) {
                outer = o;
            }
        }
        if (outer == null) {
            outer = SluiceJarFile.open(outerPath);
            outers.add(outer);
        }
        // Resource URLs keep the spelling of the URL given (file:/// or file:/), as URLClassLoader's do.
        String spelled = withoutFragment(url);
        if (entryName.endsWith("/")) {
            return outer.zip().getEntry(entryName) == null && outer.zip().stream()
                    .noneMatch(e -> e.getName().startsWith(entryName)) ? null
                    : new JarSource(outer, url, spelled, entryName, null, false);
        }
        ConcurrentZipFile.Entry e = outer.zip().getEntry(entryName);
        if (e == null || e.isDirectory()) {
            return null;
        }
        SluiceJarFile inner = SluiceJarFile.of(outer.zip().openNested(e), JarFile.runtimeVersion());
        String base = spelled.endsWith("!/") ? spelled : spelled + "!/";
        return new JarSource(inner, url, base, "", new NestedHandler(base, inner), true);
    }

    private static void closeAll(List<SluiceJarFile> jars) {
        for (SluiceJarFile j : jars) {
            try {
                j.close();
            } catch (IOException e) {
                // Only a verifier's JarFile can fail to close; the mapping is released regardless.
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
        Source s;
        for (int i = 0; (s = source(i)) != null; i++) {
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
                CodeSource cs;
                try {
                    cs = s.codeSource(path);
                } catch (IOException | UnsupportedOperationException e) {
                    throw new ClassNotFoundException("verifying " + path + " from " + s.codeSource.getLocation()
                            + " failed: " + e.getMessage(), e);
                }
                return defineClass(name, bytes, 0, bytes.length, cs);
            }
        }
        if (closed) {
            throw new ClassNotFoundException(name + ": " + this + " is closed");
        }
        List<IOException> failures = openFailures;
        if (failures.isEmpty()) {
            throw new ClassNotFoundException(name);
        }
        StringBuilder why = new StringBuilder(name).append(" (not in the class path entries that could be opened; ")
                .append(failures.size() == 1 ? "one that" : failures.size() + " that")
                .append(" could not be opened and were skipped: ");
        for (int i = 0; i < failures.size(); i++) {
            why.append(i == 0 ? "" : "; ").append(failures.get(i).getMessage());
        }
        ClassNotFoundException e = new ClassNotFoundException(why.append(')').toString(), failures.get(0));
        failures.stream().skip(1).forEach(e::addSuppressed);
        throw e;
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
        Source s;
        for (int i = 0; (s = source(i)) != null; i++) {
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
        Source s;
        for (int i = 0; (s = source(i)) != null; i++) {
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
        // The source that gave the URL was opened by getResource, if it is one of ours.
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
     * Unmaps every jar of the class path opened so far (those read into memory are let go), and opens no more (an
     * opening in progress on another thread ends first). Classes loaded already keep working; finding new classes or
     * resources in this loader's jars fails afterwards, and reads of them in progress on other threads end with an
     * {@link IOException}. Closing twice does nothing.
     */
    @Override
    public void close() {
        openLock.lock();
        try {
            closed = true;
            for (Source s : sources) {
                s.close();
            }
            closeAll(outers);
        } finally {
            openLock.unlock();
        }
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

        /** The code source of the class file {@code name}: the source's own, with the signers of a signed entry. */
        CodeSource codeSource(String name) throws IOException {
            return codeSource;
        }

        abstract URL resource(String name);

        abstract Manifest manifest();

        void close() {
        }
    }

    private static final class JarSource extends Source {
        final SluiceJarFile jar;
        /** {@code jar:file:/...!/}, the prefix of every resource URL. */
        final String base;
        /** Where this source's names start in the archive: {@code BOOT-INF/classes/}, say, or empty. */
        final String prefix;
        /** Opens resource URLs the JDK's jar: handler cannot (a nested jar's); null for those it can. */
        final URLStreamHandler handler;
        /** Whether closing the source closes {@link #jar}: not for a directory inside a jar the loader shares. */
        final boolean owned;

        JarSource(SluiceJarFile jar, URL location, String base, String prefix, URLStreamHandler handler,
                boolean owned) {
            super(location);
            this.jar = jar;
            this.base = base;
            this.prefix = prefix;
            this.handler = handler;
            this.owned = owned;
        }

        static JarSource open(Path path, URL location, int inMemoryUpTo) throws IOException {
            // concat, not +: no string concatenation class to spin on the way to the program's first class.
            return new JarSource(SluiceJarFile.open(path, inMemoryUpTo), location,
                    "jar:".concat(location.toString()).concat("!/"), "", null, true);
        }

        ConcurrentZipFile.Entry entry(String name) {
            return prefix.isEmpty() ? jar.getEntry(name) : jar.zip().getEntry(prefix + name);
        }

        @Override
        byte[] read(String name) throws IOException {
            if (!jar.zip().isOpen()) {
                return null;
            }
            ConcurrentZipFile.Entry e = entry(name);
            return e == null ? null : jar.zip().readAllBytes(e);
        }

        @Override
        CodeSource codeSource(String name) throws IOException {
            if (!jar.isSigned() || !prefix.isEmpty()) {
                return codeSource;
            }
            ConcurrentZipFile.Entry e = entry(name);
            CodeSigner[] signers = e == null ? null : jar.getCodeSigners(e);
            return signers == null ? codeSource : new CodeSource(codeSource.getLocation(), signers);
        }

        @Override
        URL resource(String name) {
            if (!jar.zip().isOpen()) {
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
            String own = e.getName().substring(prefix.length());
            try {
                URI uri = URI.create(base + encodeName(own));
                return handler == null ? uri.toURL() : URL.of(uri, handler);
            } catch (MalformedURLException | IllegalArgumentException malformed) {
                return null;
            }
        }

        @Override
        Manifest manifest() {
            return jar.manifestShared();
        }

        List<URL> classPath() {
            return prefix.isEmpty() && handler == null ? jar.classPath(codeSource.getLocation()) : List.of();
        }

        @Override
        void close() {
            if (owned) {
                try {
                    jar.close();
                } catch (IOException e) {
                    // Only the verifier's JarFile can fail to close, and there is nothing left to do with it.
                }
            }
        }
    }

    /**
     * Opens the resource URLs of a nested jar, {@code jar:file:/outer.jar!/lib/inner.jar!/name}, from the loader's
     * mapping: the JDK's jar: handler would look for an entry {@code lib/inner.jar!/name} in the outer jar.
     */
    private static final class NestedHandler extends URLStreamHandler {
        private final String base;
        private final SluiceJarFile jar;

        NestedHandler(String base, SluiceJarFile jar) {
            this.base = base;
            this.jar = jar;
        }

        @Override
        protected URLConnection openConnection(URL u) throws IOException {
            String spelled = u.toString();
            if (!spelled.startsWith(base)) {
                throw new java.io.FileNotFoundException(spelled + " is not in " + base);
            }
            String name = URLDecoder.decode(spelled.substring(base.length()).replace("+", "%2B"),
                    StandardCharsets.UTF_8);
            return new URLConnection(u) {
                private ConcurrentZipFile.Entry entry;

                @Override
                public void connect() throws IOException {
                    if (entry == null) {
                        try {
                            entry = jar.zip().getEntry(name);
                        } catch (IllegalStateException closed) {
                            throw new java.nio.channels.ClosedChannelException();
                        }
                        if (entry == null) {
                            throw new java.io.FileNotFoundException("no entry '" + name + "' in " + jar.getName());
                        }
                    }
                    connected = true;
                }

                @Override
                public InputStream getInputStream() throws IOException {
                    connect();
                    return jar.zip().getInputStream(entry);
                }

                @Override
                public long getContentLengthLong() {
                    try {
                        connect();
                        return entry.getSize();
                    } catch (IOException e) {
                        return -1;
                    }
                }
            };
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
