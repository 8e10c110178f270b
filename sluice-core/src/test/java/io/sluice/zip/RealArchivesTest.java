package io.sluice.zip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real archives made by other tools, entry by entry against {@link ZipFile}: the JDK's own {@code lib/src.zip} and
 * the largest jars in the local Maven repository. Names, sizes, CRCs and methods of every entry are compared; bytes
 * of a sample of at most {@value #SAMPLE} entries per archive, so big archives stay within a few seconds.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RealArchivesTest {
    static final int SAMPLE = 1500;
    static final int JARS = 6;

    static List<Path> jars() throws IOException {
        Path repo = Path.of(System.getProperty("user.home"), ".m2", "repository");
        if (!Files.isDirectory(repo)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(repo)) {
            List<Path> all = new ArrayList<>(s.filter(p -> p.toString().endsWith(".jar")).toList());
            all.sort(Comparator.comparingLong(RealArchivesTest::size).reversed());
            return all.subList(0, Math.min(JARS, all.size()));
        }
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return 0;
        }
    }

    @Test
    void jdkSourceArchive() throws IOException {
        Path src = Path.of(System.getProperty("java.home"), "lib", "src.zip");
        assumeTrue(Files.isRegularFile(src), "no " + src + " in this JDK");
        crossCheck(src);
    }

    @ParameterizedTest
    @MethodSource("jars")
    void mavenRepositoryJar(Path jar) throws IOException {
        crossCheck(jar);
    }

    static void crossCheck(Path archive) throws IOException {
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(archive); ZipFile jdk = new ZipFile(archive.toFile())) {
            assertEquals(jdk.size(), zip.size(), archive.toString());
            assertEquals(jdk.getComment(), zip.getComment());
            int every = Math.max(1, zip.size() / SAMPLE);
            Enumeration<? extends ZipEntry> it = jdk.entries();
            for (ConcurrentZipFile.Entry e : zip) {
                ZipEntry j = it.nextElement();
                String where = archive + "!" + j.getName();
                assertEquals(j.getName(), e.getName(), where);
                assertEquals(j.getSize(), e.getSize(), where);
                assertEquals(j.getCompressedSize(), e.getCompressedSize(), where);
                assertEquals(j.getCrc(), e.getCrc(), where);
                assertEquals(j.getMethod(), e.getMethod(), where);
                assertEquals(j.isDirectory(), e.isDirectory(), where);
                assertNotNull(zip.getEntry(j.getName()), where);
                if (e.index() % every == 0) {
                    try (InputStream in = jdk.getInputStream(j)) {
                        assertArrayEquals(in.readAllBytes(), zip.readAllBytes(e), where);
                    }
                    zip.verify(e);
                }
            }
        }
    }
}
