package io.sluice.zip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSigner;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link SluiceJarFile} against {@link JarFile} on the same jars: real ones from the local Maven repository (a
 * multi-release and signed one among them: bcprov) and multi-release jars written here, read for several versions.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SluiceJarFileTest {
    @TempDir
    Path tmp;

    static Path real(String which) throws IOException {
        return switch (which) {
            case "bcprov" -> SluiceClassLoaderTest.jar("org.bouncycastle", "bcprov-jdk18on");
            case "jsoup" -> SluiceClassLoaderTest.jar("org.jsoup", "jsoup");
            default -> SluiceClassLoaderTest.realJar(which);
        };
    }

    /** Everything JarFile says about the jar for {@code version}, against what the view says. */
    static void sameAsJarFile(Path path, Runtime.Version version, boolean allBytes) throws IOException {
        try (JarFile jdk = new JarFile(path.toFile(), true, ZipFile.OPEN_READ, version);
                SluiceJarFile ours = SluiceJarFile.open(path, version)) {
            assertEquals(jdk.getManifest(), ours.getManifest(), path + ": manifest");
            assertEquals(jdk.isMultiRelease(), ours.isMultiRelease(), path + ": multi-release");
            assertEquals(jdk.getVersion(), ours.getVersion(), path + ": version");
            List<String> names = jdk.versionedStream().map(JarEntry::getName).toList();
            assertEquals(names, ours.versionedNames().toList(), path + ": versioned names");
            int i = 0;
            for (String n : names) {
                JarEntry expected = jdk.getJarEntry(n);
                ConcurrentZipFile.Entry got = ours.getEntry(n);
                assertNotNull(got, n);
                assertEquals(expected.getRealName(), got.getName(), n);
                if ((allBytes || i++ % 97 == 0) && !expected.isDirectory()) {
                    try (InputStream in = jdk.getInputStream(expected)) {
                        assertArrayEquals(in.readAllBytes(), ours.zip().readAllBytes(got), n);
                    }
                }
            }
            // Names in versioned directories are looked up by their base names only.
            for (String n : List.of("META-INF/versions/9/x", "no/such/Thing.class", "META-INF/MANIFEST.MF", "dir",
                    "dir/", "org", "OSGI-INF", "OSGI-INF/", "META-INF", "v.txt/")) {
                JarEntry expected = jdk.getJarEntry(n);
                ConcurrentZipFile.Entry got = ours.getEntry(n);
                assertEquals(expected == null ? null : expected.getRealName(), got == null ? null : got.getName(), n);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"picocli", "h2-mvstore", "jruby-complete", "bcprov", "jsoup"})
    void realJarsAsJarFile(String which) throws IOException {
        Path jar = real(which);
        sameAsJarFile(jar, JarFile.runtimeVersion(), !which.equals("jruby-complete"));
        sameAsJarFile(jar, Runtime.Version.parse("11"), false);
        sameAsJarFile(jar, JarFile.baseVersion(), false);
    }

    static void put(JarOutputStream out, String name, String text) throws IOException {
        out.putNextEntry(new JarEntry(name));
        out.write(text.getBytes(StandardCharsets.UTF_8));
    }

    Path multiReleaseJar(String multiRelease) throws IOException {
        int feature = Runtime.version().feature();
        Manifest man = new Manifest();
        man.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (multiRelease != null) {
            man.getMainAttributes().put(Attributes.Name.MULTI_RELEASE, multiRelease);
        }
        man.getMainAttributes().put(Attributes.Name.CLASS_PATH, "lib/a.jar ../b.jar https://example.com/c.jar");
        Path jar = tmp.resolve("mr-" + multiRelease + ".jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), man)) {
            put(out, "base-only.txt", "base");
            put(out, "v.txt", "base");
            put(out, "dir/", "");
            put(out, "META-INF/versions/9/v.txt", "9");
            put(out, "META-INF/versions/11/v.txt", "11");
            put(out, "META-INF/versions/11/dir/", "");
            put(out, "META-INF/versions/17/v.txt", "17");
            put(out, "META-INF/versions/" + (feature + 1) + "/v.txt", "future");
            put(out, "META-INF/versions/11/eleven-only.txt", "11 only");
            put(out, "META-INF/versions/" + (feature + 1) + "/future-only.txt", "future only");
            put(out, "META-INF/versions/foo/v.txt", "not a version");
            put(out, "META-INF/versions/8/v.txt", "8, below the base");
        }
        return jar;
    }

    @ParameterizedTest
    @ValueSource(strings = {"true", "TRUE", "false", "none"})
    void multiReleaseJarsForEveryVersion(String attribute) throws IOException {
        Path jar = multiReleaseJar(attribute.equals("none") ? null : attribute);
        for (String v : List.of("8", "9", "10", "11", "16", "17", "21", Integer.toString(Runtime.version().feature()),
                Integer.toString(Runtime.version().feature() + 5), "1")) {
            sameAsJarFile(jar, Runtime.Version.parse(v), true);
        }
        try (SluiceJarFile ours = SluiceJarFile.open(jar)) {
            String expected = attribute.equalsIgnoreCase("true") ? "17" : "base";
            assertEquals(expected, new String(ours.zip().readAllBytes(ours.getEntry("v.txt")), StandardCharsets.UTF_8));
        }
    }

    @Test
    void classPathAsUrlClassLoaderResolvesIt() throws IOException {
        Path jar = multiReleaseJar("true");
        URL location = jar.toUri().toURL();
        try (SluiceJarFile ours = SluiceJarFile.open(jar)) {
            assertEquals(List.of(tmp.resolve("lib/a.jar").toUri().toURL(), tmp.getParent().resolve("b.jar").toUri()
                    .toURL()), ours.classPath(location));
        }
    }

    @Test
    void manifestIsACopy() throws IOException {
        Path jar = multiReleaseJar("true");
        try (SluiceJarFile ours = SluiceJarFile.open(jar)) {
            ours.getManifest().getMainAttributes().putValue("Changed", "yes");
            assertNull(ours.getManifest().getMainAttributes().getValue("Changed"));
        }
        Path none = tmp.resolve("plain.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(none))) {
            put(out, "a.txt", "a");
        }
        try (SluiceJarFile ours = SluiceJarFile.open(none);
                SluiceJarFile other = SluiceJarFile.open(jar)) {
            assertNull(ours.getManifest());
            assertFalse(ours.isSigned());
            assertNull(ours.getCodeSigners(ours.getEntry("a.txt")));
            assertThrows(IllegalArgumentException.class, () -> ours.getCodeSigners(other.getEntry("v.txt")));
        }
    }

    /** Every entry's signers, as JarFile gives them once the entry is read through. */
    @Test
    void signersOfASignedJarAreJarFiles() throws IOException {
        Path jar = real("bcprov");
        try (JarFile jdk = new JarFile(jar.toFile(), true, ZipFile.OPEN_READ, JarFile.runtimeVersion());
                SluiceJarFile ours = SluiceJarFile.open(jar)) {
            assertTrue(ours.isSigned());
            int signed = 0;
            List<String> names = jdk.versionedStream().map(JarEntry::getName).toList();
            for (int i = 0; i < names.size(); i++) {
                String n = names.get(i);
                if (i % 7 != 0 && !n.startsWith("META-INF/")) {
                    continue;
                }
                JarEntry je = jdk.getJarEntry(n);
                try (InputStream in = jdk.getInputStream(je)) {
                    in.transferTo(java.io.OutputStream.nullOutputStream());
                }
                CodeSigner[] expected = je.getCodeSigners();
                CodeSigner[] got = ours.getCodeSigners(ours.getEntry(n));
                assertEquals(Arrays.toString(expected), Arrays.toString(got), n);
                assertArrayEquals(expected, got, n);
                signed += got == null ? 0 : 1;
            }
            assertTrue(signed > 100, "only " + signed + " signed entries");
        }
    }

    /** Classes from a signed jar carry the same signers under both loaders. */
    @Test
    void signedClassesGetTheSignersUrlClassLoaderGives() throws Exception {
        Path jar = real("bcprov");
        URL[] urls = {jar.toUri().toURL()};
        try (URLClassLoader jdk = new URLClassLoader(urls, null);
                SluiceClassLoader ours = new SluiceClassLoader(urls, null)) {
            for (String c : List.of("org.bouncycastle.util.Arrays", "org.bouncycastle.util.Strings",
                    "org.bouncycastle.crypto.digests.SHA256Digest")) {
                CodeSigner[] expected = Class.forName(c, false, jdk).getProtectionDomain().getCodeSource()
                        .getCodeSigners();
                CodeSigner[] got = Class.forName(c, false, ours).getProtectionDomain().getCodeSource()
                        .getCodeSigners();
                assertNotNull(expected, c);
                assertArrayEquals(expected, got, c);
                assertEquals(urls[0], Class.forName(c, false, ours).getProtectionDomain().getCodeSource()
                        .getLocation());
            }
        }
    }

    /** bcprov with one signed class changed after signing: both JarFile and the view refuse it, both loaders too. */
    @Test
    void aTamperedSignedEntryFailsAsInJarFile() throws Exception {
        String victim = "org/bouncycastle/util/Strings.class";
        Path tampered = tmp.resolve("tampered.jar");
        try (java.util.zip.ZipInputStream in = new java.util.zip.ZipInputStream(Files.newInputStream(real("bcprov")));
                java.util.zip.ZipOutputStream out = new java.util.zip.ZipOutputStream(Files.newOutputStream(tampered))) {
            for (java.util.zip.ZipEntry e; (e = in.getNextEntry()) != null;) {
                byte[] b = in.readAllBytes();
                // Its versioned copies too: whichever the runtime selects must be the tampered one.
                if (e.getName().endsWith(victim)) {
                    b[b.length / 2] ^= 1;
                }
                out.putNextEntry(new java.util.zip.ZipEntry(e.getName()));
                out.write(b);
            }
        }
        try (JarFile jdk = new JarFile(tampered.toFile(), true, ZipFile.OPEN_READ, JarFile.runtimeVersion());
                SluiceJarFile ours = SluiceJarFile.open(tampered)) {
            assertThrows(SecurityException.class, () -> {
                try (InputStream in = jdk.getInputStream(jdk.getJarEntry(victim))) {
                    in.readAllBytes();
                }
            });
            SecurityException e = assertThrows(SecurityException.class,
                    () -> ours.getCodeSigners(ours.getEntry(victim)));
            assertTrue(e.getMessage().contains(victim), e.getMessage());
            String untouched = "org/bouncycastle/util/Arrays.class";
            assertNotNull(ours.getCodeSigners(ours.getEntry(untouched)));
        }
        URL[] urls = {tampered.toUri().toURL()};
        try (URLClassLoader jdk = new URLClassLoader(urls, null);
                SluiceClassLoader ours = new SluiceClassLoader(urls, null)) {
            String name = victim.replace('/', '.').substring(0, victim.length() - ".class".length());
            assertThrows(SecurityException.class, () -> Class.forName(name, false, jdk));
            assertThrows(SecurityException.class, () -> Class.forName(name, false, ours));
        }
    }

    @Test
    void signedNestedJarIsRefusedNotTakenAsUnsigned() throws IOException {
        Path outer = tmp.resolve("outer.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(outer))) {
            NestedJarTest.putStored(out, "lib/bc.jar", Files.readAllBytes(real("bcprov")));
        }
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(outer);
                SluiceJarFile nested = SluiceJarFile.of(zip.openNested(zip.getEntry("lib/bc.jar")),
                        JarFile.runtimeVersion())) {
            assertTrue(nested.isSigned());
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> nested.getCodeSigners(nested.getEntry("org/bouncycastle/util/Arrays.class")));
            assertTrue(e.getMessage().contains("lib/bc.jar"), e.getMessage());
        }
        URL nested = java.net.URI.create("jar:" + outer.toUri() + "!/lib/bc.jar").toURL();
        try (SluiceClassLoader loader = new SluiceClassLoader(new URL[] {nested}, null)) {
            ClassNotFoundException e = assertThrows(ClassNotFoundException.class,
                    () -> loader.loadClass("org.bouncycastle.util.Arrays"));
            assertTrue(e.getMessage().contains("signed and nested"), e.getMessage());
        }
    }
}
