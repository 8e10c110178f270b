// scripts/classload-phases.java: where the time of `sluice bench classload`'s loads goes on 1 and 2 threads, by
// wall time and by the threads' own CPU time, for URLClassLoader, SluiceClassLoader and the JVM's part alone
// (define-only: the classes defined from bytes read beforehand), and the reads alone (ZipFile-read: the class file's
// bytes found and read through a JarFile per jar, as URLClassPath reads them; ConcurrentZipFile-read: the same through
// ConcurrentZipFile), so that a load's CPU time splits into reading (with inflating), defining, and the loader's
// own rest. CPU time per item that grows from 1 to 2 threads is
// work that contends (shared cache lines, spinning); wall time that grows without it is waiting (a lock, a class
// another thread is defining, or no free core on a loaded machine). Run from the checkout, after a build, under the
// benchmark lock:
//
//   flock /work/bench.lock $JDK25/bin/java --enable-native-access=ALL-UNNAMED -cp sluice-cli/target/lib/sluice-core.jar \
//       scripts/classload-phases.java 5 JAR...
//
// ($JDK25: a JDK 22 or newer; 5 rounds after one untimed, rotating which loader goes first; the same names in the
// same order, claimed from one counter by every thread, as in the bench). Prints the medians; a diagnostic, not a
// bench with JSON rows.

import io.sluice.zip.ConcurrentZipFile;
import io.sluice.zip.SluiceClassLoader;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.security.CodeSigner;
import java.security.CodeSource;
import java.security.SecureClassLoader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

class ClassLoadPhases {
    static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

    /** Classes from bytes held in memory, one code source per jar: the JVM's part of a load. */
    static final class Held extends SecureClassLoader {
        static {
            registerAsParallelCapable();
        }

        final Map<String, byte[]> bytes;
        final Map<String, CodeSource> from;

        Held(Map<String, byte[]> bytes, Map<String, CodeSource> from) {
            super(ClassLoader.getPlatformClassLoader());
            this.bytes = bytes;
            this.from = from;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            String e = name.replace('.', '/').concat(".class");
            byte[] b = bytes.get(e);
            if (b == null) {
                throw new ClassNotFoundException(name);
            }
            return defineClass(name, b, 0, b.length, from.get(e));
        }

        @Override
        public InputStream getResourceAsStream(String name) {
            byte[] b = bytes.get(name);
            return b == null ? null : new java.io.ByteArrayInputStream(b);
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        List<Path> jars = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            jars.add(Path.of(args[i]));
        }
        List<String> classes = new ArrayList<>();
        List<String> resources = new ArrayList<>();
        Map<String, byte[]> bytes = new HashMap<>();
        Map<String, CodeSource> from = new HashMap<>();
        for (Path j : jars) {
            CodeSource cs = new CodeSource(j.toUri().toURL(), (CodeSigner[]) null);
            try (ConcurrentZipFile zip = ConcurrentZipFile.open(j)) {
                for (ConcurrentZipFile.Entry e : zip) {
                    String n = e.getName();
                    if (e.isDirectory()) {
                        continue;
                    }
                    if (!bytes.containsKey(n)) {
                        bytes.put(n, zip.readAllBytes(e));
                        from.put(n, cs);
                    }
                    if (n.endsWith(".class") && !n.startsWith("META-INF/") && !n.endsWith("module-info.class")
                            && !n.endsWith("package-info.class")) {
                        classes.add(n.substring(0, n.length() - 6).replace('/', '.'));
                    } else if (!n.endsWith(".class")) {
                        resources.add(n);
                    }
                }
            }
        }
        String[] loaders = {"URLClassLoader", "SluiceClassLoader", "define-only", "ZipFile-read",
            "ConcurrentZipFile-read"};
        int[] threadCounts = {1, 2};
        // [loader][threads][round] -> {wall ns, class cpu ns, resource cpu ns}
        long[][][][] m = new long[loaders.length][threadCounts.length][rounds][];
        for (int t = 0; t < threadCounts.length; t++) {
            for (int r = 0; r <= rounds; r++) {
                for (int k = 0; k < loaders.length; k++) {
                    int l = (k + r) % loaders.length;
                    long[] x = round(loaders[l], jars, bytes, from, classes, resources, threadCounts[t]);
                    if (r > 0) {
                        m[l][t][r - 1] = x;
                    }
                }
            }
        }
        int items = classes.size() + resources.size();
        System.out.printf("%d classes, %d resources; medians of %d rounds%n", classes.size(), resources.size(), rounds);
        System.out.printf("%-18s %7s | %9s %9s %9s | %9s %9s %9s%n", "loader", "threads", "items/ms", "cpu us/cls",
                "cpu us/res", "2t/1t ips", "2t/1t cls", "2t/1t res");
        for (int l = 0; l < loaders.length; l++) {
            double[][] med = new double[threadCounts.length][];
            for (int t = 0; t < threadCounts.length; t++) {
                double ips = median(m[l][t], x -> items / (x[0] / 1e6));
                double cls = median(m[l][t], x -> x[1] / 1e3 / classes.size());
                double res = median(m[l][t], x -> x[2] / 1e3 / resources.size());
                med[t] = new double[] {ips, cls, res};
                System.out.printf("%-18s %7d | %9.1f %9.1f %9.1f |", loaders[l], threadCounts[t], ips, cls, res);
                if (t == 1) {
                    System.out.printf(" %9.2f %9.2f %9.2f", ips / med[0][0], cls / med[0][1], res / med[0][2]);
                }
                System.out.println();
            }
        }
    }

    /** The bytes of {@code name} from the first jar that has it, by whichever reader is open. */
    static int read(String name, List<java.util.jar.JarFile> jdkJars, List<ConcurrentZipFile> zips)
            throws java.io.IOException {
        for (java.util.jar.JarFile j : jdkJars) {
            java.util.jar.JarEntry e = j.getJarEntry(name);
            if (e != null) {
                try (InputStream in = j.getInputStream(e)) {
                    return in.readAllBytes().length;
                }
            }
        }
        for (ConcurrentZipFile z : zips) {
            ConcurrentZipFile.Entry e = z.getEntry(name);
            if (e != null) {
                return z.readAllBytes(e).length;
            }
        }
        return 0;
    }

    interface Of {
        double of(long[] x);
    }

    static double median(long[][] rows, Of f) {
        double[] v = new double[rows.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = f.of(rows[i]);
        }
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    static long[] round(String loader, List<Path> jars, Map<String, byte[]> bytes, Map<String, CodeSource> from,
            List<String> classes, List<String> resources, int threads) throws Exception {
        long start = System.nanoTime();
        ClassLoader l;
        if (loader.equals("URLClassLoader")) {
            URL[] urls = new URL[jars.size()];
            for (int i = 0; i < urls.length; i++) {
                urls[i] = jars.get(i).toUri().toURL();
            }
            l = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader());
        } else if (loader.equals("SluiceClassLoader")) {
            l = new SluiceClassLoader(jars, ClassLoader.getPlatformClassLoader());
        } else if (loader.equals("define-only")) {
            l = new Held(bytes, from);
        } else {
            l = null;
        }
        List<java.util.jar.JarFile> jdkJars = new ArrayList<>();
        List<ConcurrentZipFile> zips = new ArrayList<>();
        for (Path j : jars) {
            if (loader.equals("ZipFile-read")) {
                jdkJars.add(new java.util.jar.JarFile(j.toFile()));
            } else if (loader.equals("ConcurrentZipFile-read")) {
                zips.add(ConcurrentZipFile.open(j));
            }
        }
        int nc = classes.size();
        int total = nc + resources.size();
        AtomicInteger next = new AtomicInteger();
        long[] clsCpu = new long[threads];
        long[] resCpu = new long[threads];
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int me = t;
            ts[t] = new Thread(() -> {
                for (int k; (k = next.getAndIncrement()) < total; ) {
                    long c0 = MX.getCurrentThreadCpuTime();
                    if (l == null) {
                        String name = k < nc ? classes.get(k).replace('.', '/').concat(".class") : resources.get(k - nc);
                        try {
                            read(name, jdkJars, zips);
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                        (k < nc ? clsCpu : resCpu)[me] += MX.getCurrentThreadCpuTime() - c0;
                    } else if (k < nc) {
                        try {
                            Class.forName(classes.get(k), false, l);
                        } catch (ClassNotFoundException | LinkageError e) {
                            // jruby-complete's optional dependencies: the same for every loader
                        }
                        clsCpu[me] += MX.getCurrentThreadCpuTime() - c0;
                    } else {
                        try (InputStream in = l.getResourceAsStream(resources.get(k - nc))) {
                            if (in != null) {
                                in.transferTo(java.io.OutputStream.nullOutputStream());
                            }
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                        resCpu[me] += MX.getCurrentThreadCpuTime() - c0;
                    }
                }
            });
            ts[t].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        if (l instanceof java.io.Closeable c) {
            c.close();
        }
        for (java.util.jar.JarFile j : jdkJars) {
            j.close();
        }
        for (ConcurrentZipFile z : zips) {
            z.close();
        }
        long wall = System.nanoTime() - start;
        return new long[] {wall, Arrays.stream(clsCpu).sum(), Arrays.stream(resCpu).sum()};
    }
}
