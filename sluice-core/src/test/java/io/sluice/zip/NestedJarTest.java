package io.sluice.zip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jars inside jars, as in Spring Boot's executable jars: {@link ConcurrentZipFile#openNested} on stored and deflated
 * inner jars written here, checked against the JDK's {@code ZipFile} on the same inner bytes, and classes and
 * resources loaded from them through {@link SluiceClassLoader}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NestedJarTest {
    @TempDir
    Path tmp;

    /** Classes written into the inner jars and the outer jar's classes directory. */
    public static final class FromStored {
        @Override
        public String toString() {
            return "stored";
        }
    }

    public static final class FromDeflated {
    }

    public static final class FromClasses {
    }

    static void putStored(JarOutputStream out, String name, byte[] bytes) throws IOException {
        JarEntry e = new JarEntry(name);
        e.setMethod(ZipEntry.STORED);
        e.setSize(bytes.length);
        e.setCompressedSize(bytes.length);
        CRC32 crc = new CRC32();
        crc.update(bytes);
        e.setCrc(crc.getValue());
        out.putNextEntry(e);
        out.write(bytes);
    }

    static void putDeflated(JarOutputStream out, String name, byte[] bytes) throws IOException {
        out.putNextEntry(new JarEntry(name));
        out.write(bytes);
    }

    static String entryOf(Class<?> c) {
        return c.getName().replace('.', '/') + ".class";
    }

    /** An inner jar with one class, a text resource (stored, so it can be viewed) and a manifest. */
    static byte[] innerJar(Class<?> c, String text) throws IOException {
        Manifest man = new Manifest();
        man.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        man.getMainAttributes().put(Attributes.Name.IMPLEMENTATION_TITLE, text);
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (JarOutputStream out = new JarOutputStream(b, man)) {
            putDeflated(out, entryOf(c), SluiceClassLoaderTest.classBytes(c));
            putStored(out, "text.txt", text.getBytes(StandardCharsets.UTF_8));
            putDeflated(out, "only in " + text + ".txt", new byte[0]);
        }
        return b.toByteArray();
    }

    /** The Spring Boot shape: BOOT-INF/classes/, BOOT-INF/lib/stored.jar (stored), BOOT-INF/lib/deflated.jar. */
    Path fatJar() throws IOException {
        Path fat = tmp.resolve("fat app.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(fat))) {
            putDeflated(out, "BOOT-INF/", new byte[0]);
            putDeflated(out, "BOOT-INF/classes/", new byte[0]);
            putDeflated(out, "BOOT-INF/classes/" + entryOf(FromClasses.class),
                    SluiceClassLoaderTest.classBytes(FromClasses.class));
            putDeflated(out, "BOOT-INF/classes/text.txt", "classes".getBytes(StandardCharsets.UTF_8));
            putStored(out, "BOOT-INF/lib/stored.jar", innerJar(FromStored.class, "stored"));
            putDeflated(out, "BOOT-INF/lib/deflated.jar", innerJar(FromDeflated.class, "deflated"));
            putDeflated(out, "BOOT-INF/lib/not-a.jar", "no central directory".getBytes(StandardCharsets.UTF_8));
        }
        return fat;
    }

    /** The nested archive lists and reads as the JDK's ZipFile does on the inner jar's bytes written to a file. */
    @Test
    void nestedArchivesReadAsTheJdkReadsTheInnerJar() throws IOException {
        Path fat = fatJar();
        try (ConcurrentZipFile outer = ConcurrentZipFile.open(fat)) {
            for (String lib : List.of("BOOT-INF/lib/stored.jar", "BOOT-INF/lib/deflated.jar")) {
                ConcurrentZipFile.Entry e = outer.getEntry(lib);
                Path copy = Files.write(tmp.resolve(lib.replace('/', '_')), outer.readAllBytes(e));
                try (ConcurrentZipFile nested = outer.openNested(e);
                        ZipFile jdk = new ZipFile(copy.toFile())) {
                    assertEquals(fat + "!/" + lib, nested.getName());
                    assertNull(nested.path());
                    List<String> expected = new ArrayList<>();
                    jdk.stream().forEach(z -> expected.add(z.getName()));
                    assertEquals(expected, nested.stream().map(ConcurrentZipFile.Entry::getName).toList(), lib);
                    for (String n : expected) {
                        try (InputStream in = jdk.getInputStream(jdk.getEntry(n))) {
                            assertArrayEquals(in.readAllBytes(), nested.readAllBytes(nested.getEntry(n)), n);
                        }
                    }
                }
                assertTrue(outer.isOpen(), "closing the nested archive leaves the outer one open");
            }
        }
    }

    /** A stored inner jar is read where it lies in the outer mapping, not from a copy. */
    @Test
    void storedInnerJarIsASliceOfTheOuterMapping() throws IOException {
        try (ConcurrentZipFile outer = ConcurrentZipFile.open(fatJar())) {
            ConcurrentZipFile.Entry lib = outer.getEntry("BOOT-INF/lib/stored.jar");
            MemorySegment whole = MemorySegment.ofBuffer(outer.mappedBytes(lib));
            ConcurrentZipFile nested = outer.openNested(lib);
            ByteBuffer text = nested.mappedBytes(nested.getEntry("text.txt"));
            long at = MemorySegment.ofBuffer(text).address();
            assertTrue(at >= whole.address() && at + text.remaining() <= whole.address() + whole.byteSize(),
                    "the inner entry's view lies inside the outer entry's");
            assertEquals("stored", StandardCharsets.UTF_8.decode(text).toString());
        }
    }

    @Test
    void closingTheOuterArchiveClosesTheNestedOnes() throws IOException {
        ConcurrentZipFile outer = ConcurrentZipFile.open(fatJar());
        ConcurrentZipFile stored = outer.openNested(outer.getEntry("BOOT-INF/lib/stored.jar"));
        ConcurrentZipFile deflated = outer.openNested(outer.getEntry("BOOT-INF/lib/deflated.jar"));
        ConcurrentZipFile.Entry s = stored.getEntry("text.txt");
        ConcurrentZipFile.Entry d = deflated.getEntry("text.txt");
        ByteBuffer deflatedView = deflated.mappedBytes(d);
        outer.close();
        assertFalse(stored.isOpen());
        assertFalse(deflated.isOpen());
        assertThrows(ClosedChannelException.class, () -> stored.readAllBytes(s));
        assertThrows(ClosedChannelException.class, () -> deflated.readAllBytes(d));
        assertThrows(IllegalStateException.class, () -> stored.getEntry("text.txt"));
        // The inflated copy is freed with the outer archive: the nested archive is closed in its own right.
        assertTrue(deflated.toString().endsWith(", closed]"), deflated.toString());
        assertThrows(IllegalStateException.class, () -> MemorySegment.ofBuffer(deflatedView).get(
                java.lang.foreign.ValueLayout.JAVA_BYTE, 0));
        stored.close();
        deflated.close();
    }

    @Test
    void anEntryThatIsNoArchiveNamesBoth() throws IOException {
        Path fat = fatJar();
        try (ConcurrentZipFile outer = ConcurrentZipFile.open(fat)) {
            ZipException e = assertThrows(ZipException.class,
                    () -> outer.openNested(outer.getEntry("BOOT-INF/lib/not-a.jar")));
            assertTrue(e.getMessage().startsWith(fat + "!/BOOT-INF/lib/not-a.jar: "), e.getMessage());
        }
    }

    static URL nested(Path fat, String entry) throws Exception {
        return URI.create("jar:" + fat.toUri() + "!/" + entry).toURL();
    }

    @Test
    void classesAndResourcesFromInnerJarsAndTheClassesDirectory() throws Exception {
        Path fat = fatJar();
        URL[] urls = {nested(fat, "BOOT-INF/classes/"), nested(fat, "BOOT-INF/lib/stored.jar!/"),
                nested(fat, "BOOT-INF/lib/deflated.jar"), nested(fat, "BOOT-INF/lib/missing.jar")};
        try (SluiceClassLoader loader = new SluiceClassLoader(urls, null)) {
            Class<?> stored = loader.loadClass(FromStored.class.getName());
            assertSame(loader, stored.getClassLoader());
            assertEquals("stored", stored.getDeclaredConstructor().newInstance().toString());
            assertEquals(urls[1], stored.getProtectionDomain().getCodeSource().getLocation());
            assertEquals("stored", stored.getPackage().getImplementationTitle());
            Class<?> deflated = loader.loadClass(FromDeflated.class.getName());
            assertEquals(urls[2], deflated.getProtectionDomain().getCodeSource().getLocation());
            Class<?> classes = loader.loadClass(FromClasses.class.getName());
            assertEquals(urls[0], classes.getProtectionDomain().getCodeSource().getLocation());

            // The classes directory's resources are plain jar: URLs the JDK's handler opens, spelled as
            // URLClassLoader spells them for the same directory URL.
            try (URLClassLoader jdk = new URLClassLoader(new URL[] {urls[0]}, null)) {
                for (String n : List.of("text.txt", FromClasses.class.getName().replace('.', '/') + ".class",
                        "no such.txt")) {
                    assertEquals(String.valueOf(jdk.getResource(n)), String.valueOf(loader.getResource(n)), n);
                }
                assertEquals(jdk.loadClass(FromClasses.class.getName()).getProtectionDomain().getCodeSource(),
                        classes.getProtectionDomain().getCodeSource());
            }
            List<String> all = new ArrayList<>();
            for (URL u : Collections.list(loader.getResources("text.txt"))) {
                try (InputStream in = u.openStream()) {
                    all.add(u + " = " + new String(in.readAllBytes(), StandardCharsets.UTF_8));
                }
            }
            String base = "jar:" + fat.toUri() + "!/BOOT-INF/";
            assertEquals(List.of(base + "classes/text.txt = classes", base + "lib/stored.jar!/text.txt = stored",
                    base + "lib/deflated.jar!/text.txt = deflated"), all);
            URL spaced = loader.getResource("only in deflated.txt");
            assertEquals(base + "lib/deflated.jar!/only%20in%20deflated.txt", spaced.toString());
            try (InputStream in = spaced.openStream()) {
                assertEquals(0, in.readAllBytes().length);
            }
            try (InputStream in = loader.getResourceAsStream("only in stored.txt")) {
                assertNotNull(in);
            }
            assertNull(loader.getResource("no such.txt"));
        }
    }

    @Test
    void loaderRefusesWhatItCannotOpen() throws Exception {
        Path fat = fatJar();
        for (String u : List.of("jar:" + fat.toUri() + "!/", "jar:https://example.com/x.jar!/lib/y.jar")) {
            assertThrows(IllegalArgumentException.class,
                    () -> new SluiceClassLoader(new URL[] {URI.create(u).toURL()}, null), u);
        }
        // A nested entry that is not a jar is skipped as any jar that cannot be opened, and named when a class is
        // found nowhere.
        try (SluiceClassLoader loader = new SluiceClassLoader(new URL[] {nested(fat, "BOOT-INF/lib/not-a.jar")},
                null)) {
            assertNull(loader.getResource("text.txt"));
            ClassNotFoundException e = assertThrows(ClassNotFoundException.class,
                    () -> loader.loadClass(FromStored.class.getName()));
            assertTrue(e.getMessage().contains(fat + "!/BOOT-INF/lib/not-a.jar"), e.getMessage());
            assertTrue(e.getCause() instanceof ZipException, String.valueOf(e.getCause()));
        }
    }

    @Test
    void closingTheLoaderUnmapsTheOuterJar() throws Exception {
        Path fat = fatJar();
        SluiceClassLoader loader = new SluiceClassLoader(new URL[] {nested(fat, "BOOT-INF/lib/stored.jar")}, null);
        URL text = loader.getResource("text.txt");
        loader.close();
        assertNull(loader.getResource("text.txt"));
        assertThrows(IOException.class, () -> text.openStream().close());
        assertThrows(ClassNotFoundException.class, () -> loader.loadClass(FromStored.class.getName()));
    }
}
