package io.sluice.bench;

import io.sluice.zip.ConcurrentZipFile;
import io.sluice.zip.SluiceClassLoader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Manifest;

/**
 * Sluice's counterpart of Spring Boot's {@code JarLauncher}: starts the program of a Spring-Boot-shaped executable
 * jar (the one this class is in, at its root) through a {@link SluiceClassLoader} over {@code BOOT-INF/classes/} and
 * the nested jars {@code BOOT-INF/classpath.idx} lists, in its order, as {@code jar:file:} URLs. Run as
 * {@code java -cp app.jar io.sluice.bench.FatJarLauncher args}. It depends on sluice-core only, whose classes
 * {@link FatJar} copies to the same root; the program is the manifest's {@code Start-Class}, run on the main thread
 * with the new loader as the thread's context loader, as Spring's launcher runs it.
 */
public final class FatJarLauncher {
    private FatJarLauncher() {
    }

    /**
     * Starts the fat jar's program with {@code args}.
     *
     * @param args handed to the program's {@code main}
     * @throws Throwable what the program's {@code main} throws, as it threw it; an {@link IOException} naming the
     *                   jar if its layout cannot be read
     */
    public static void main(String[] args) throws Throwable {
        Path jar;
        try {
            jar = Path.of(FatJarLauncher.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IOException("cannot tell which jar holds " + FatJarLauncher.class.getName() + ": " + e, e);
        }
        Layout layout = layout(jar);
        // Deliberately not closed: the program's classes may load more classes until the JVM exits.
        SluiceClassLoader loader = new SluiceClassLoader(layout.classPath().toArray(new URL[0]),
                FatJarLauncher.class.getClassLoader());
        Thread.currentThread().setContextClassLoader(loader);
        Method main = Class.forName(layout.startClass(), false, loader).getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /**
     * What a Spring-Boot-shaped jar says about itself: the {@code Start-Class} of its manifest, and its class path,
     * {@code BOOT-INF/classes/} then the jars of its class path index in order.
     *
     * @param startClass the program's main class
     * @param classPath  {@code jar:file:/app.jar!/BOOT-INF/classes/}, then {@code jar:file:/app.jar!/BOOT-INF/lib/x.jar}
     *                   for each line of the index
     */
    public record Layout(String startClass, List<URL> classPath) {
    }

    /**
     * Reads the layout of {@code fatJar}: its manifest's {@code Start-Class}, {@code Spring-Boot-Classes} (default
     * {@code BOOT-INF/classes/}) and {@code Spring-Boot-Classpath-Index} (default {@code BOOT-INF/classpath.idx}),
     * whose lines are {@code - "BOOT-INF/lib/x.jar"}.
     *
     * @param fatJar the executable jar
     * @return its start class and class path
     * @throws IOException naming the jar and the entry, if the manifest, its {@code Start-Class} or the index is missing
     *                     or a line of the index is not of that form
     */
    public static Layout layout(Path fatJar) throws IOException {
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(fatJar)) {
            ConcurrentZipFile.Entry m = zip.getEntry("META-INF/MANIFEST.MF");
            if (m == null) {
                throw new IOException(fatJar + ": no META-INF/MANIFEST.MF, so not an executable jar");
            }
            Manifest manifest = new Manifest(new ByteArrayInputStream(zip.readAllBytes(m)));
            String startClass = manifest.getMainAttributes().getValue("Start-Class");
            if (startClass == null) {
                throw new IOException(fatJar + ": META-INF/MANIFEST.MF has no Start-Class");
            }
            String classes = manifest.getMainAttributes().getValue("Spring-Boot-Classes");
            String indexName = manifest.getMainAttributes().getValue("Spring-Boot-Classpath-Index");
            indexName = indexName == null ? "BOOT-INF/classpath.idx" : indexName;
            ConcurrentZipFile.Entry index = zip.getEntry(indexName);
            if (index == null) {
                throw new IOException(fatJar + ": no class path index " + indexName);
            }
            String base = "jar:" + fatJar.toAbsolutePath().toUri() + "!/";
            List<URL> classPath = new ArrayList<>();
            classPath.add(url(base + (classes == null ? "BOOT-INF/classes/" : classes)));
            String[] lines = new String(zip.readAllBytes(index), StandardCharsets.UTF_8).split("\n");
            for (int i = 0; i < lines.length; i++) {
                String line = lines[i].strip();
                if (line.isEmpty()) {
                    continue;
                }
                if (!line.startsWith("- \"") || !line.endsWith("\"") || line.length() < 4) {
                    throw new IOException(fatJar + ": " + indexName + " line " + (i + 1) + " is not - \"name\": "
                            + line);
                }
                classPath.add(url(base + line.substring(3, line.length() - 1)));
            }
            return new Layout(startClass, List.copyOf(classPath));
        }
    }

    private static URL url(String spec) throws MalformedURLException {
        try {
            return new java.net.URI(spec).toURL();
        } catch (URISyntaxException e) {
            throw new MalformedURLException(spec + ": " + e.getMessage());
        }
    }
}
