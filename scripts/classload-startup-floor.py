#!/usr/bin/env python3
# scripts/classload-startup-floor.py: the start-up of `sluice info` (or `jruby -e 1`) with the JVM's own loader, with
# the plainest custom system loader there is (a URLClassLoader subclass over the same class path, compiled here into
# a temporary jar) and with SluiceClassLoader, alternating, one untimed start of each first. The second is the floor
# of any loader plugged in through -Djava.system.class.loader: what the JVM itself stops doing (its archived
# non-system classes) and starts doing (the loader made by reflection, every class asked of the built-in loader
# first) once the property is set. Prints, per variant, the median time to the first byte of standard output, to
# exit, and the process's CPU time (user + system, from wait4). Run from the checkout after `./sluice --help` has
# built it, under the benchmark lock:
#
#   flock /work/bench.lock scripts/classload-startup-floor.py --rounds 15 [--jruby] [--java $JDK25/bin/java]
#
# Command lines as the bench's start-up rows make them (ClassLoadBench.startup): the same JVM options, the program's
# class path in -cp for the JVM's loader and in -Dsluice.class.path for the other two.
import argparse, glob, os, statistics, subprocess, sys, tempfile, time

FLOOR = '''package floor;

public final class UrlSystemLoader extends java.net.URLClassLoader {
    static {
        registerAsParallelCapable();
    }

    public UrlSystemLoader(ClassLoader parent) throws Exception {
        super(urls(), parent);
    }

    private static java.net.URL[] urls() throws Exception {
        String[] parts = System.getProperty("sluice.class.path", "").split(java.io.File.pathSeparator);
        java.net.URL[] u = new java.net.URL[parts.length];
        for (int i = 0; i < parts.length; i++) {
            u[i] = java.nio.file.Path.of(parts[i]).toUri().toURL();
        }
        return u;
    }
}
'''


def one(cmd):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    p.stdout.read(1)
    t1 = time.perf_counter()
    p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    if status != 0:
        sys.exit('failed (status %d): %s' % (status, ' '.join(cmd)))
    return (t1 - t0) * 1e3, (time.perf_counter() - t0) * 1e3, (ru.ru_utime + ru.ru_stime) * 1e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--rounds', type=int, default=15)
    ap.add_argument('--jruby', action='store_true', help='jruby -e 1 instead of sluice info')
    ap.add_argument('--java', default='/usr/lib/jvm/temurin-25-jdk-amd64/bin/java')
    a = ap.parse_args()
    lib = 'sluice-cli/target/lib'
    core = os.path.abspath(lib + '/sluice-core.jar')
    if a.jruby:
        cp = [os.path.abspath(glob.glob('sluice-cli/target/jruby/jruby-complete-*.jar')[0])]
        main_args = ['org.jruby.Main', '-e', '1']
    else:
        cli = glob.glob('sluice-cli/target/sluice-cli-*.jar')
        cli = [c for c in cli if not c.endswith(('-sources.jar', '-javadoc.jar'))]
        rest = sorted(j for j in glob.glob(lib + '/*.jar') if not j.endswith(('/sluice-core.jar', '/picocli.jar')))
        cp = [core] + [os.path.abspath(p) for p in cli + [lib + '/picocli.jar'] + rest]
        main_args = ['io.sluice.cli.Main', 'info']
    tmp = tempfile.mkdtemp(prefix='startup-floor-')
    os.makedirs(tmp + '/src/floor')
    with open(tmp + '/src/floor/UrlSystemLoader.java', 'w') as f:
        f.write(FLOOR)
    bin_dir = os.path.dirname(a.java)
    subprocess.run([bin_dir + '/javac', '-d', tmp + '/classes', tmp + '/src/floor/UrlSystemLoader.java'], check=True)
    subprocess.run([bin_dir + '/jar', 'cf', tmp + '/floor.jar', '-C', tmp + '/classes', '.'], check=True)
    common = [a.java, '--enable-native-access=ALL-UNNAMED', '-Xshare:auto', '-Xlog:disable',
              '-Xlog:all=warning:stderr']
    path = os.pathsep.join(cp)
    variants = {
        'JVM loader': common + ['-cp', path] + main_args,
        'URLClassLoader subclass': common + ['-Djava.system.class.loader=floor.UrlSystemLoader',
                                             '-Dsluice.class.path=' + path, '-cp', tmp + '/floor.jar'] + main_args,
        'SluiceClassLoader': common + ['-Djava.system.class.loader=io.sluice.zip.SluiceClassLoader',
                                       '-Dsluice.class.path=' + path, '-cp', core] + main_args,
    }
    names = list(variants)
    res = {n: [] for n in names}
    for n in names:
        one(variants[n])
    for r in range(a.rounds):
        for n in (names if r % 2 == 0 else reversed(names)):
            res[n].append(one(variants[n]))
    base = statistics.median(x[0] for x in res[names[0]])
    print('%s, %d alternating starts each; medians' % (' '.join(main_args), a.rounds))
    print('%-26s %10s %12s %9s %9s' % ('', 'first ms', 'rate x JVM', 'exit ms', 'cpu ms'))
    for n in names:
        first = statistics.median(x[0] for x in res[n])
        print('%-26s %10.1f %12.2f %9.1f %9.1f' % (n, first, base / first, statistics.median(x[1] for x in res[n]),
                                                 statistics.median(x[2] for x in res[n])))


if __name__ == '__main__':
    main()
