// scripts/ClassLoadStartupReplay.java: the cost of a class loader's part of a program's start-up, in a cold JVM. It
// makes one loader (URLClassLoader or SluiceClassLoader, the application loader as parent) over the given jars and
// asks it for the classes and resource lists of a recorded start-up, in the recorded order, once, then prints the
// opening thread's wall and CPU time. Run it in a fresh JVM per measurement, alternating the two loaders, and read
// the process's CPU time beside it (JIT compilation on other threads counts there); a diagnostic, not a bench.
//
// scripts/classload-startup-lookups.txt holds what 'sluice info' asked its system loader for (187 classes, one
// resource list), in order, recorded with a loader that printed every findClass and findResources (at 3c188ae);
// its class path is the 16 jars of 'sluice bench classload''s sluice-info row, in the launcher's order: sluice-core,
// the CLI jar, picocli, then the rest of sluice-cli/target/lib.
// Compile it first (the single-file launcher would run javac in the measured JVM and warm everything up):
//
//   J=/usr/lib/jvm/temurin-25-jdk-amd64/bin; L=sluice-cli/target/lib; mkdir -p /tmp/replay
//   $J/javac -d /tmp/replay -cp $L/sluice-core.jar scripts/ClassLoadStartupReplay.java
//   CP=$L/sluice-core.jar:$(ls sluice-cli/target/sluice-cli-*.jar | grep -v sources):$L/picocli.jar
//   for j in $L/*.jar; do case ${j##*/} in sluice-core.jar|picocli.jar) ;; *) CP=$CP:$j;; esac; done
//   $J/java --enable-native-access=ALL-UNNAMED -cp $L/sluice-core.jar:/tmp/replay ClassLoadStartupReplay \
//       sluice scripts/classload-startup-lookups.txt $CP      # and: url ...

import io.sluice.zip.SluiceClassLoader;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;

public class ClassLoadStartupReplay {
    public static void main(String[] args) throws Exception {
        if (args.length != 3 || !(args[0].equals("url") || args[0].equals("sluice"))) {
            System.err.println("usage: ClassLoadStartupReplay url|sluice LOOKUPS CLASS_PATH");
            System.exit(2);
        }
        List<String> lookups = Files.readAllLines(Path.of(args[1]));
        List<Path> paths = new ArrayList<>();
        List<URL> urls = new ArrayList<>();
        for (String s : args[2].split(File.pathSeparator)) {
            paths.add(Path.of(s));
            urls.add(Path.of(s).toUri().toURL());
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        ClassLoader parent = ClassLoadStartupReplay.class.getClassLoader();
        long wall = System.nanoTime();
        long cpu = mx.getCurrentThreadCpuTime();
        ClassLoader loader = args[0].equals("sluice") ? new SluiceClassLoader(paths, parent)
                : new URLClassLoader(urls.toArray(new URL[0]), parent);
        int found = 0;
        for (String line : lookups) {
            String[] kindAndName = line.split(" ", 2);
            if (kindAndName[0].equals("class")) {
                try {
                    Class.forName(kindAndName[1], false, loader);
                    found++;
                } catch (ClassNotFoundException notThere) {
                    // Recorded misses are part of the start-up too.
                }
            } else {
                for (Enumeration<URL> e = loader.getResources(kindAndName[1]); e.hasMoreElements(); e.nextElement()) {
                    found++;
                }
            }
        }
        cpu = mx.getCurrentThreadCpuTime() - cpu;
        wall = System.nanoTime() - wall;
        System.out.printf("%s: %d found, %.1f ms wall, %.1f ms CPU of this thread%n", args[0], found, wall / 1e6,
                cpu / 1e6);
        ((AutoCloseable) loader).close();
    }
}
