package io.sluice.bench;

import io.sluice.zip.ConcurrentZipFile;
import io.sluice.zip.SluiceClassLoader;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Writes a Spring-Boot-shaped executable jar, laid out as Spring Boot's repackager lays it out: the manifest
 * ({@code Main-Class} Spring's {@code JarLauncher}, {@code Start-Class} {@link FatJarApp}), Spring Boot's loader
 * classes at the root, {@code BOOT-INF/classes/} with the program, {@code BOOT-INF/lib/*.jar} STORED (uncompressed,
 * as Spring's launcher requires of nested jars) and {@code BOOT-INF/classpath.idx} listing them in order. Beside
 * Spring's loader, Sluice's is copied to the root as well (sluice-core's classes and {@link FatJarLauncher}), so that
 * the one jar starts either way: {@code java -jar app.jar} through Spring's launcher, {@code java -cp app.jar
 * io.sluice.bench.FatJarLauncher} through Sluice's.
 */
final class FatJar {
    /** Spring Boot's launcher, the fat jar's {@code Main-Class}. */
    static final String SPRING_LAUNCHER = "org.springframework.boot.loader.launch.JarLauncher";
    /** The program's classes directory and the nested jars' directory, the names Spring Boot's repackager uses. */
    static final String CLASSES = "BOOT-INF/classes/";
    static final String LIB = "BOOT-INF/lib/";
    static final String INDEX = "BOOT-INF/classpath.idx";
    /** Every entry gets this time (1 January 2026), so the same inputs give the same bytes. */
    private static final long TIME = 1767225600000L;
    /** Classes of {@link FatJarApp}'s libraries: their jars must be nested for the program to run. */
    private static final String[] APP_LIBRARIES = {"org/h2/mvstore/MVStore.class",
        "org/apache/commons/compress/archivers/tar/TarArchiveEntry.class", "org/apache/commons/io/IOUtils.class",
        "org/apache/commons/lang3/StringUtils.class", "org/apache/commons/codec/digest/DigestUtils.class"};

    private FatJar() {
    }

    /**
     * The jars to nest: {@code jars}, then those of {@link FatJarApp}'s libraries that {@code jars} lacks, found on
     * this JVM's class path.
     *
     * @throws IOException naming the class, if one of the program's libraries is not on this JVM's class path
     */
    static List<Path> libraries(List<Path> jars) throws IOException {
        Set<Path> out = new LinkedHashSet<>();
        for (Path j : jars) {
            out.add(j.toAbsolutePath().normalize());
        }
        for (String name : APP_LIBRARIES) {
            String className = name.substring(0, name.length() - 6).replace('/', '.');
            try {
                out.add(location(Class.forName(className, false, FatJar.class.getClassLoader())));
            } catch (ClassNotFoundException e) {
                throw new IOException("the fat jar's program needs " + className + ", which is not on this class path",
                        e);
            }
        }
        return List.copyOf(out);
    }

    /** The jar (or classes directory) {@code c} was loaded from. */
    static Path location(Class<?> c) throws IOException {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toAbsolutePath().normalize();
        } catch (URISyntaxException | NullPointerException e) {
            throw new IOException("cannot tell where " + c.getName() + " was loaded from", e);
        }
    }

    /**
     * Writes the fat jar to {@code out}, nesting {@code libs} in this order (each under its file name; two jars of
     * one name are refused). Spring Boot's loader comes from the jar {@code JarLauncher} was loaded from, sluice-core
     * from where {@link SluiceClassLoader} was (a jar or, in a build, its classes directory).
     *
     * @throws IOException naming the file, if one cannot be read or {@code out} cannot be written
     * @throws IllegalArgumentException if two of {@code libs} have the same file name
     */
    static void write(Path out, List<Path> libs) throws IOException {
        Path spring;
        try {
            spring = location(Class.forName(SPRING_LAUNCHER, false, FatJar.class.getClassLoader()));
        } catch (ClassNotFoundException e) {
            throw new IOException("Spring Boot's loader (org.springframework.boot:spring-boot-loader) is not on this "
                    + "class path", e);
        }
        Path core = location(SluiceClassLoader.class);
        Set<String> libNames = new HashSet<>();
        for (Path l : libs) {
            if (!libNames.add(l.getFileName().toString())) {
                throw new IllegalArgumentException("two jars named " + l.getFileName() + " among " + libs);
            }
        }
        try (Writer w = new Writer(new ZipOutputStream(new BufferedOutputStream(Files.newOutputStream(out),
                1 << 16)))) {
            w.bytes("META-INF/MANIFEST.MF", manifest().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            // Spring's loader, all of it but its manifest: its services file registers the nested: file system.
            try (ConcurrentZipFile z = ConcurrentZipFile.open(spring)) {
                for (ConcurrentZipFile.Entry e : z) {
                    if (!e.isDirectory() && !e.getName().equals("META-INF/MANIFEST.MF")) {
                        w.bytes(e.getName(), z.readAllBytes(e));
                    }
                }
            }
            // sluice-core's classes; not its descriptor (the root is the unnamed module) nor its META-INF.
            copyClasses(core, w);
            for (Class<?> c : List.of(FatJarLauncher.class, FatJarLauncher.Layout.class)) {
                String name = c.getName().replace('.', '/') + ".class";
                w.bytes(name, resource(name));
            }
            w.dir(CLASSES);
            String app = FatJarApp.class.getName().replace('.', '/') + ".class";
            w.bytes(CLASSES + app, resource(app));
            StringBuilder index = new StringBuilder();
            w.dir(LIB);
            for (Path l : libs) {
                String name = LIB + l.getFileName();
                w.stored(name, Files.readAllBytes(l));
                index.append("- \"").append(name).append("\"\n");
            }
            w.bytes(INDEX, index.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IOException("cannot write the fat jar " + out + ": " + e.getMessage(), e);
        }
    }

    private static String manifest() {
        return "Manifest-Version: 1.0\r\n"
                + "Main-Class: " + SPRING_LAUNCHER + "\r\n"
                + "Start-Class: " + FatJarApp.class.getName() + "\r\n"
                + "Spring-Boot-Classes: " + CLASSES + "\r\n"
                + "Spring-Boot-Lib: " + LIB + "\r\n"
                + "Spring-Boot-Classpath-Index: " + INDEX + "\r\n"
                + "\r\n";
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = FatJar.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("no " + name + " on this class path");
            }
            return in.readAllBytes();
        }
    }

    private static void copyClasses(Path core, Writer w) throws IOException {
        if (Files.isDirectory(core)) {
            List<Path> files;
            try (Stream<Path> s = Files.walk(core)) {
                files = s.filter(Files::isRegularFile).sorted().toList();
            }
            for (Path f : files) {
                String name = core.relativize(f).toString().replace(java.io.File.separatorChar, '/');
                if (wanted(name)) {
                    w.bytes(name, Files.readAllBytes(f));
                }
            }
            return;
        }
        try (ConcurrentZipFile z = ConcurrentZipFile.open(core)) {
            for (ConcurrentZipFile.Entry e : z) {
                if (!e.isDirectory() && wanted(e.getName())) {
                    w.bytes(e.getName(), z.readAllBytes(e));
                }
            }
        }
    }

    private static boolean wanted(String name) {
        return !name.startsWith("META-INF/") && !name.equals("module-info.class");
    }

    /** The zip being written: every directory entry once, before the first entry inside it, as jar tools write. */
    private static final class Writer implements AutoCloseable {
        private final ZipOutputStream zip;
        private final Set<String> dirs = new HashSet<>();

        Writer(ZipOutputStream zip) {
            this.zip = zip;
        }

        void dir(String name) throws IOException {
            parents(name);
            if (dirs.add(name)) {
                ZipEntry e = new ZipEntry(name);
                e.setTime(TIME);
                zip.putNextEntry(e);
                zip.closeEntry();
            }
        }

        private void parents(String name) throws IOException {
            for (int slash = name.indexOf('/'); slash >= 0 && slash < name.length() - 1;
                    slash = name.indexOf('/', slash + 1)) {
                String d = name.substring(0, slash + 1);
                if (dirs.add(d)) {
                    ZipEntry e = new ZipEntry(d);
                    e.setTime(TIME);
                    zip.putNextEntry(e);
                    zip.closeEntry();
                }
            }
        }

        void bytes(String name, byte[] data) throws IOException {
            parents(name);
            ZipEntry e = new ZipEntry(name);
            e.setTime(TIME);
            zip.putNextEntry(e);
            zip.write(data);
            zip.closeEntry();
        }

        void stored(String name, byte[] data) throws IOException {
            parents(name);
            ZipEntry e = new ZipEntry(name);
            e.setTime(TIME);
            e.setMethod(ZipEntry.STORED);
            e.setSize(data.length);
            e.setCompressedSize(data.length);
            CRC32 crc = new CRC32();
            crc.update(data);
            e.setCrc(crc.getValue());
            zip.putNextEntry(e);
            zip.write(data);
            zip.closeEntry();
        }

        @Override
        public void close() throws IOException {
            zip.close();
        }
    }
}
