package io.sluice.zip;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.security.CodeSigner;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.Attributes.Name;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

/**
 * A jar read through {@link ConcurrentZipFile}: what {@link JarFile} adds to a zip archive (the manifest,
 * multi-release entries, {@code Class-Path}, signers), with no lock shared between readers.
 *
 * {@snippet :
 * try (SluiceJarFile jar = SluiceJarFile.open(Path.of("app.jar"))) {
 *     Manifest m = jar.getManifest();
 *     ConcurrentZipFile.Entry e = jar.getEntry("a/B.class");    // META-INF/versions/17/a/B.class on JDK 17+
 *     byte[] bytes = jar.zip().readAllBytes(e);
 * }
 * }
 *
 * <p><b>Multi-release jars</b> follow {@link JarFile}'s rules for the version given at open (the running JDK's,
 * {@link JarFile#runtimeVersion()}, by default): when the manifest's main section says {@code Multi-Release: true}
 * (and the system property {@code jdk.util.jar.enableMultiRelease} is not {@code false}), a name outside
 * {@code META-INF/} is looked up in {@code META-INF/versions/N/} from the version's feature number down to 9, then in
 * the base; a version below 8 is taken as 8. {@link #getEntry} returns the
 * entry that holds the bytes, whose {@link ConcurrentZipFile.Entry#getName() name} is therefore the versioned one
 * ({@code JarEntry.getRealName()}); {@link #versionedNames()} lists the names as {@code JarFile.versionedStream()}
 * does.
 *
 * <p><b>Signed jars</b> are verified by the JDK itself: {@link #getCodeSigners} reads the entry once through a
 * {@link JarFile} opened with verification on the same file (lazily, at the first call, only for a jar that holds a
 * signature), so the signers are exactly {@code JarFile}'s and a tampered entry fails with its
 * {@link SecurityException}. Those reads take {@code JarFile}'s lock; unsigned jars never open one. A signed jar
 * nested in another archive (no file of its own) is refused: {@link #getCodeSigners} throws
 * {@link UnsupportedOperationException} for it rather than treat it as unsigned.
 */
public final class SluiceJarFile implements Closeable {
    private static final String VERSIONS = "META-INF/versions/";
    /** JarFile's base version: entries of a multi-release jar below it are never versioned. */
    private static final int BASE_FEATURE = 8;

    private final ConcurrentZipFile zip;
    private final Manifest manifest;
    /** The versions to look in, newest first; empty when the jar is not multi-release (for this version). */
    private final int[] versions;
    /** {@code META-INF/versions/N/} for each of {@link #versions}, made once rather than on every lookup. */
    private final String[] versionPrefixes;
    private final int feature;
    private final boolean multiRelease;
    private final boolean signed;
    /** Signers per entry index, filled by the verifying reads; {@link #NO_SIGNERS} for an unsigned entry. */
    private final Map<Integer, CodeSigner[]> signers = new ConcurrentHashMap<>();
    private static final CodeSigner[] NO_SIGNERS = new CodeSigner[0];
    private final Object verifierLock = new Object();
    private JarFile verifier;
    private volatile boolean closed;

    private SluiceJarFile(ConcurrentZipFile zip, Runtime.Version version) throws IOException {
        this.zip = zip;
        this.manifest = readManifest(zip);
        this.feature = Math.max(BASE_FEATURE, version.feature());
        String enable = System.getProperty("jdk.util.jar.enableMultiRelease", "true");
        this.multiRelease = "force".equalsIgnoreCase(enable) || (!"false".equalsIgnoreCase(enable) && manifest != null
                && "true".equalsIgnoreCase(manifest.getMainAttributes().getValue(Name.MULTI_RELEASE)));
        this.versions = multiRelease ? versions(zip, feature) : new int[0];
        this.versionPrefixes = new String[versions.length];
        for (int k = 0; k < versions.length; k++) {
            versionPrefixes[k] = VERSIONS.concat(Integer.toString(versions[k])).concat("/");
        }
        this.signed = hasSignature(zip);
    }

    /**
     * Opens the jar at {@code path} for the running JDK's version.
     *
     * @throws ZipException if it is not a readable zip archive, or its manifest cannot be read
     * @throws IOException  if the file cannot be opened or mapped (see {@link ConcurrentZipFile#open(Path)})
     */
    public static SluiceJarFile open(java.nio.file.Path path) throws IOException {
        return open(path, JarFile.runtimeVersion());
    }

    /**
     * Opens the jar at {@code path}, selecting multi-release entries for {@code version} as
     * {@code new JarFile(file, true, ZipFile.OPEN_READ, version)} does.
     *
     * @see #open(java.nio.file.Path)
     */
    public static SluiceJarFile open(java.nio.file.Path path, Runtime.Version version) throws IOException {
        return of(ConcurrentZipFile.open(path), version);
    }

    /**
     * Opens the jar at {@code path} for the running JDK's version, read whole into memory if it has at most
     * {@code inMemoryUpTo} bytes (see {@link ConcurrentZipFile#open(java.nio.file.Path, java.nio.charset.Charset,
     * int)}), mapped otherwise.
     */
    static SluiceJarFile open(java.nio.file.Path path, int inMemoryUpTo) throws IOException {
        return of(ConcurrentZipFile.open(path, null, inMemoryUpTo), JarFile.runtimeVersion());
    }

    /**
     * The jar view of an archive opened already (a {@linkplain ConcurrentZipFile#openNested nested} one, say), for
     * {@code version}; closing the view closes {@code zip}, also when this method fails.
     *
     * @throws ZipException if the manifest cannot be read
     */
    public static SluiceJarFile of(ConcurrentZipFile zip, Runtime.Version version) throws IOException {
        Objects.requireNonNull(zip, "zip");
        Objects.requireNonNull(version, "version");
        try {
            return new SluiceJarFile(zip, version);
        } catch (IOException | RuntimeException e) {
            zip.close();
            throw e;
        }
    }

    private static Manifest readManifest(ConcurrentZipFile zip) throws IOException {
        ConcurrentZipFile.Entry e = zip.getEntry(JarFile.MANIFEST_NAME);
        if (e == null || e.isDirectory()) {
            return null;
        }
        try (InputStream in = zip.getInputStream(e)) {
            return new Manifest(in);
        } catch (IOException ex) {
            throw new ZipException(zip.getName() + ": reading its manifest " + JarFile.MANIFEST_NAME + " failed: "
                    + ex.getMessage());
        }
    }

    /** The versioned directories present from {@code feature} down to 9, newest first. */
    private static int[] versions(ConcurrentZipFile zip, int feature) {
        boolean[] present = new boolean[feature + 1];
        // Only names under META-INF/versions/ are made into Strings: a jar is opened on the way to its first class,
        // and decoding every name of a big jar there is start-up time.
        for (int i = 0; i < zip.size(); i++) {
            if (!zip.nameStartsWith(i, VERSIONS, false)) {
                continue;
            }
            int v = versionOf(zip.entry(i).getName());
            if (v > BASE_FEATURE && v <= feature) {
                present[v] = true;
            }
        }
        int[] out = new int[feature + 1];
        int n = 0;
        for (int v = feature; v > BASE_FEATURE; v--) {
            if (present[v]) {
                out[n++] = v;
            }
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /** N for a name under {@code META-INF/versions/N/}, or -1. */
    private static int versionOf(String name) {
        if (!name.startsWith(VERSIONS)) {
            return -1;
        }
        int slash = name.indexOf('/', VERSIONS.length());
        if (slash <= VERSIONS.length()) {
            return -1;
        }
        try {
            return Integer.parseInt(name, VERSIONS.length(), slash, 10);
        } catch (NumberFormatException notAVersion) {
            // META-INF/versions/foo/ is no version; JarFile ignores it too.
            return -1;
        }
    }

    /**
     * Whether the archive holds a signature the JDK's verifier would look at: a signature file
     * ({@code META-INF/*.SF}) directly in {@code META-INF/}.
     */
    private static boolean hasSignature(ConcurrentZipFile zip) {
        for (int i = 0; i < zip.size(); i++) {
            if (!zip.nameStartsWith(i, "META-INF/", true)) {
                continue;
            }
            String n = zip.entry(i).getName();
            if (n.length() > 12 && n.regionMatches(true, 0, "META-INF/", 0, 9) && n.indexOf('/', 9) < 0
                    && n.regionMatches(true, n.length() - 3, ".SF", 0, 3)) {
                return true;
            }
        }
        return false;
    }

    /** The archive underneath, for reads ({@link ConcurrentZipFile#readAllBytes}, streams, views). */
    public ConcurrentZipFile zip() {
        return zip;
    }

    /** The archive's name, as {@link JarFile#getName()}. */
    public String getName() {
        return zip.getName();
    }

    /** A copy of the manifest ({@code META-INF/MANIFEST.MF}), or null when the jar has none. */
    public Manifest getManifest() {
        return manifest == null ? null : new Manifest(manifest);
    }

    /**
     * The manifest itself, shared and not to be changed; for callers in this package that read it on every class.
     */
    Manifest manifestShared() {
        return manifest;
    }

    /** Whether multi-release entries are selected, as {@link JarFile#isMultiRelease()}. */
    public boolean isMultiRelease() {
        return multiRelease;
    }

    /**
     * The version entries are selected for, as {@link JarFile#getVersion()}: the feature number given at open (8 if
     * it was lower), or 8 when the jar is not multi-release.
     */
    public Runtime.Version getVersion() {
        return Runtime.Version.parse(Integer.toString(multiRelease ? feature : BASE_FEATURE));
    }

    /**
     * The entry holding {@code name}'s bytes for this jar's version (the versioned one if there is one, see the
     * class comment), or null. As with {@link JarFile}, {@code name} also finds the directory {@code name/}.
     *
     * @throws IllegalStateException if the jar is closed
     */
    public ConcurrentZipFile.Entry getEntry(String name) {
        Objects.requireNonNull(name, "name");
        if (versions.length > 0 && !name.startsWith("META-INF/")) {
            for (String prefix : versionPrefixes) {
                ConcurrentZipFile.Entry e = zip.getEntry(prefix.concat(name));
                // JarFile versions files only: a versioned directory neither hides nor stands in for the base's.
                if (e != null && !e.isDirectory()) {
                    return e;
                }
            }
        }
        return zip.getEntry(name);
    }

    /**
     * The names a program sees in this jar, as {@link JarFile#versionedStream()} lists its entries: every base
     * name, and every name under a {@code META-INF/versions/N/} up to this version, without that prefix, if
     * {@link #getEntry} finds it; each once, in the order first met. Not a multi-release jar: every entry's name.
     */
    public Stream<String> versionedNames() {
        if (!multiRelease) {
            return zip.stream().map(ConcurrentZipFile.Entry::getName);
        }
        Set<String> names = new LinkedHashSet<>();
        for (ConcurrentZipFile.Entry e : zip) {
            String n = e.getName();
            if (n.startsWith(VERSIONS)) {
                // As JarFile: any number up to the version counts here, even one below 9 (its names are then kept
                // only where the base has them, by the filter below), and so does a sign JarFile's parse accepts.
                int slash = n.indexOf('/', VERSIONS.length());
                if (slash >= 0 && slash + 1 < n.length()) {
                    try {
                        if (Integer.parseInt(n, VERSIONS.length(), slash, 10) <= feature) {
                            names.add(n.substring(slash + 1));
                        }
                    } catch (NumberFormatException notAVersion) {
                        // Left out, as JarFile leaves it out.
                    }
                }
            } else {
                names.add(n);
            }
        }
        return names.stream().filter(n -> getEntry(n) != null);
    }

    /**
     * The manifest's {@code Class-Path} resolved against {@code location} (this jar's URL), as
     * {@code URLClassLoader} resolves it: separated by white space, relative to the jar, entries that are not URLs
     * dropped; only {@code file:} URLs are kept, as the JDK's loader keeps only those for a jar on the file system.
     */
    public List<URL> classPath(URL location) {
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
                // Relative resolution as java.net.URL does it, which the JDK's loader uses: it accepts names that
                // are not legal URIs (spaces), where URI.resolve would refuse them.
                @SuppressWarnings("deprecation")
                URL resolved = new URL(location, entry);
                if ("file".equalsIgnoreCase(resolved.getProtocol())) {
                    out.add(resolved);
                }
            } catch (MalformedURLException notAUrl) {
                // URLClassLoader drops the entry too.
            }
        }
        return out;
    }

    /** Whether the jar carries a signature ({@code META-INF/*.SF}), so that {@link #getCodeSigners} verifies. */
    public boolean isSigned() {
        return signed;
    }

    /**
     * The entry's signers as {@link java.util.jar.JarEntry#getCodeSigners()} gives them after the entry was read
     * through a verifying {@link JarFile}: null for an unsigned jar or entry. For a signed jar the entry is read
     * once through the JDK's verifier on the first call (see the class comment); later calls answer from a cache.
     *
     * @throws SecurityException if the JDK's verifier finds the entry tampered with
     * @throws UnsupportedOperationException if the jar is signed and nested in another archive, which the JDK's
     *                                       verifier cannot open
     * @throws IOException naming the jar and the entry if reading it through the verifier fails
     * @throws IllegalArgumentException if the entry belongs to another archive
     */
    public CodeSigner[] getCodeSigners(ConcurrentZipFile.Entry entry) throws IOException {
        int index = zip.indexOf(entry);
        if (!signed) {
            return null;
        }
        CodeSigner[] known = signers.get(index);
        if (known == null) {
            known = verify(entry);
            signers.put(index, known);
        }
        return known.length == 0 ? null : known.clone();
    }

    private CodeSigner[] verify(ConcurrentZipFile.Entry entry) throws IOException {
        if (zip.path() == null) {
            throw new UnsupportedOperationException(zip.getName() + " is signed and nested in another archive; its"
                    + " signatures cannot be verified, so its signers of '" + entry.getName() + "' are unknown");
        }
        JarFile jf = verifier();
        java.util.jar.JarEntry je = jf.getJarEntry(entry.getName());
        if (je == null) {
            throw new ZipException(getName() + ": entry '" + entry.getName() + "' not found by the JDK's verifier");
        }
        try (InputStream in = jf.getInputStream(je)) {
            // The signers are known only once the entry is read to its end through the verifying stream.
            in.transferTo(java.io.OutputStream.nullOutputStream());
        } catch (IOException e) {
            throw new IOException(getName() + ": verifying entry '" + entry.getName() + "' failed: " + e.getMessage(),
                    e);
        }
        CodeSigner[] s = je.getCodeSigners();
        return s == null ? NO_SIGNERS : s;
    }

    private JarFile verifier() throws IOException {
        synchronized (verifierLock) {
            if (closed) {
                throw new java.nio.channels.ClosedChannelException();
            }
            if (verifier == null) {
                // Opened at the version 8 base: entries are asked for by their real (versioned) names.
                verifier = new JarFile(zip.path().toFile(), true, ZipFile.OPEN_READ, JarFile.baseVersion());
            }
            return verifier;
        }
    }

    /** Closes the archive and, if one was opened, the JDK's verifier. Closing twice does nothing. */
    @Override
    public void close() throws IOException {
        closed = true;
        zip.close();
        JarFile v;
        synchronized (verifierLock) {
            v = verifier;
            verifier = null;
        }
        if (v != null) {
            v.close();
        }
    }

    /** The archive's name, as {@link ConcurrentZipFile#toString()}. */
    @Override
    public String toString() {
        return "SluiceJarFile[" + zip.getName() + (multiRelease ? ", multi-release for " + feature : "") + "]";
    }
}
