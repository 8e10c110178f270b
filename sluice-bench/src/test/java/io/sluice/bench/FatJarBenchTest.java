package io.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.zip.ConcurrentZipFile;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fat jar {@link FatJar} writes, from the real jars of this class path, started by Spring Boot's launcher from
 * Maven Central and by Sluice's; and {@link FatJarBench}'s load rows on it.
 */
class FatJarBenchTest {
    @TempDir
    Path dir;

    @Test
    void theFatJarRunsTheSameProgramUnderSpringsLauncherAndSluices() throws Exception {
        Path jar = dir.resolve("app.jar");
        List<Path> libs = FatJar.libraries(List.of());
        FatJar.write(jar, libs);
        try (ConcurrentZipFile z = ConcurrentZipFile.open(jar)) {
            // The layout Spring's repackager writes: nested jars stored, indexed in order, the loader at the root.
            StringBuilder index = new StringBuilder();
            for (Path l : libs) {
                ConcurrentZipFile.Entry e = z.getEntry(FatJar.LIB + l.getFileName());
                assertNotNull(e, l.toString());
                assertEquals(ZipEntry.STORED, e.getMethod(), e.getName());
                index.append("- \"").append(e.getName()).append("\"\n");
            }
            assertEquals(index.toString(), new String(z.readAllBytes(z.getEntry(FatJar.INDEX)),
                    java.nio.charset.StandardCharsets.UTF_8));
            assertNotNull(z.getEntry("org/springframework/boot/loader/launch/JarLauncher.class"));
            assertNotNull(z.getEntry(FatJar.CLASSES));
            assertNotNull(z.getEntry(FatJar.CLASSES + "io/sluice/bench/FatJarApp.class"));
            assertNotNull(z.getEntry("io/sluice/zip/SluiceClassLoader.class"));
        }
        List<List<String>> commands = FatJarBench.commands(jar);
        String spring = FatJarBench.output(commands.get(0));
        String sluice = FatJarBench.output(commands.get(1));
        assertTrue(spring.startsWith("mvstore: 1000 keys, 421 = value 421\ncompress: text.txt, 512 bytes, sha-256 "),
                spring);
        assertTrue(spring.endsWith("\nlang3: Started from ...\n"), spring);
        assertEquals(spring, sluice);
    }

    @Test
    void springsLoaderTakesTheNestedJarsClassesNotThoseOfThisClassPath() throws Exception {
        Path jar = dir.resolve("app.jar");
        FatJar.write(jar, FatJar.libraries(List.of()));
        try (FatJarBench.SpringLoader spring = FatJarBench.SpringLoader.open(jar,
                ClassLoader.getPlatformClassLoader())) {
            // MVStore is on this JVM's class path too: a loader whose parent saw it would not define it itself.
            Class<?> c = Class.forName("org.h2.mvstore.MVStore", false, spring.loader());
            assertSame(spring.loader(), c.getClassLoader());
            assertTrue(c.getProtectionDomain().getCodeSource().getLocation().toString().contains("BOOT-INF/lib/"),
                    c.getProtectionDomain().getCodeSource().getLocation().toString());
            try (InputStream in = spring.loader().getResourceAsStream("META-INF/MANIFEST.MF")) {
                assertNotNull(in);
            }
        }
    }

    @Test
    void loadRowsDoTheSameWorkWithBothLoaders() throws Exception {
        StringWriter log = new StringWriter();
        FatJarBench bench = new FatJarBench(new FatJarBench.Options(List.of(), List.of(1, 2), 1, false, dir),
                new PrintWriter(log, true));
        List<Row> rows = bench.run();
        assertEquals(List.of(FatJarBench.SPRING_LOADER, FatJarBench.SLUICE_LOADER, FatJarBench.SPRING_LOADER,
                FatJarBench.SLUICE_LOADER), rows.stream().map(Row::engine).toList(), log::toString);
        for (Row r : rows) {
            assertEquals(FatJarBench.LOAD_WORKLOAD, r.workload().name());
            assertEquals(1, r.samples().size());
            assertTrue(r.opsPerMs() > 0, r::toString);
        }
        Map<String, List<Long>> work = bench.work();
        assertEquals(work.get(FatJarBench.SPRING_LOADER), work.get(FatJarBench.SLUICE_LOADER));
        assertTrue(work.get(FatJarBench.SLUICE_LOADER).get(1) > 0, work::toString);
        try (java.util.stream.Stream<Path> left = java.nio.file.Files.list(dir)) {
            assertEquals(0, left.count(), "the fat jar's directory is removed afterwards");
        }
    }
}
