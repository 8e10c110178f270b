// scripts/AdapterCpuTime.java: sluice-nio's FileChannel against its engine's own PositionalFile, in one JVM as
// `sluice bench channels` runs them (engines one after another, both rows of an engine side by side), timed by the
// reading thread's CPU time as well as the clock, so a loaded machine's waits fall out. Per engine and block size:
// a warm-up, then SAMPLES pairs of samples of MS milliseconds, engine and adapter alternating which goes first; it
// prints the medians in ns per read and engine/adapter (1.0: the adapter costs nothing). One thread, random blocks
// (HOT=1: always block 0, so the copy is from the CPU's cache and what is left is the calls and checks).
// MODE=wrap puts the channel over the engine's own PositionalFile (one mapping for both rows), MODE=swap opens the
// channel's file first, MODE=two compares the engine with a second PositionalFile of the same engine; SAMEBUF=1 has
// the adapter read into the engine row's buffer. For MMAP and
// AUTO it prints both mappings' lines of /proc/self/smaps at the end. A diagnostic, not a bench.
//
//   ./sluice --version                      # builds sluice-cli/target/lib
//   head -c 512m /dev/urandom > /tmp/aw.bin && cat /tmp/aw.bin > /dev/null
//   java --enable-native-access=ALL-UNNAMED -cp 'sluice-cli/target/lib/*' scripts/AdapterCpuTime.java /tmp/aw.bin \
//       CLASSIC,CHANNEL,MMAP,IO_URING,AUTO 512,4096 8 100
import io.sluice.Engine;
import io.sluice.PositionalFile;
import io.sluice.nio.SluiceChannels;
import java.lang.foreign.Arena;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.*;

public class AdapterCpuTime {
    interface Reader { int read(long pos) throws Exception; }
    static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

    public static void main(String[] a) throws Exception {
        Path path = Path.of(a[0]);
        List<Engine> engines = new ArrayList<>();
        for (String e : a[1].split(",")) engines.add(Engine.valueOf(e));
        int[] sizes = Arrays.stream(a[2].split(",")).mapToInt(Integer::parseInt).toArray();
        int samples = Integer.parseInt(a[3]);
        long sampleMs = Long.parseLong(a[4]);
        long fileSize = java.nio.file.Files.size(path);
        for (Engine e : engines) {
            String mode = System.getenv().getOrDefault("MODE", "");
            PositionalFile f;
            FileChannel ch;
            PositionalFile f2 = null;
            if (mode.equals("swap")) {
                ch = SluiceChannels.open(path, e, StandardOpenOption.READ);
                f = PositionalFile.open(path, e);
            } else if (mode.equals("wrap")) {
                f = PositionalFile.open(path, e);
                ch = SluiceChannels.fileChannel(f);
            } else {
                f = PositionalFile.open(path, e);
                ch = SluiceChannels.open(path, e, StandardOpenOption.READ);
                if (mode.equals("two")) f2 = PositionalFile.open(path, e);
            }
            final PositionalFile g = f2;
            for (int bs : sizes) {
                long[] offs = new long[1 << 18];
                SplittableRandom r = new SplittableRandom(7);
                for (int i = 0; i < offs.length; i++) offs[i] = System.getenv("HOT") != null ? 0 : r.nextLong(fileSize / bs) * bs;
                Reader eng, ad;
                if (e == Engine.CLASSIC) {
                    byte[] b = new byte[bs];
                    eng = pos -> f.read(b, 0, bs, pos);
                    ByteBuffer hb = ByteBuffer.wrap(new byte[bs]);
                    ad = pos -> ch.read(hb.clear(), pos);
                } else {
                    ByteBuffer b1 = Arena.ofAuto().allocate(bs, 4096).asByteBuffer();
                    ByteBuffer b2 = Arena.ofAuto().allocate(bs, 4096).asByteBuffer();
                    eng = pos -> f.read(b1.clear(), pos);
                    ByteBuffer bb = System.getenv("SAMEBUF") != null ? b1 : b2;
                    ad = g != null ? pos -> g.read(bb.clear(), pos) : pos -> ch.read(bb.clear(), pos);
                }
                run(eng, offs, sampleMs / 2); run(ad, offs, sampleMs / 2);
                double[] ce = new double[samples], ca = new double[samples], we = new double[samples], wa = new double[samples];
                for (int s = 0; s < samples; s++) {
                    boolean adFirst = (s & 1) == 1;
                    double[] x = run(adFirst ? ad : eng, offs, sampleMs);
                    double[] y = run(adFirst ? eng : ad, offs, sampleMs);
                    double[] xe = adFirst ? y : x, xa = adFirst ? x : y;
                    ce[s] = xe[0]; we[s] = xe[1]; ca[s] = xa[0]; wa[s] = xa[1];
                }
                System.out.printf("%-8s %6d  cpu ns/op engine %7.1f adapter %7.1f  ratio(eng/ad) %.3f | wall ns/op engine %7.1f adapter %7.1f ratio %.3f%n",
                        e, bs, med(ce), med(ca), med(ce) / med(ca), med(we), med(wa), med(we) / med(wa));
            }
            if (e == Engine.MMAP || e == Engine.AUTO) smaps(path);
            ch.close(); f.close(); if (g != null) g.close();
        }
    }
    static void smaps(Path p) throws Exception {
        List<String> lines = java.nio.file.Files.readAllLines(Path.of("/proc/self/smaps"));
        String name = p.getFileName().toString();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).endsWith(name)) {
                StringBuilder b = new StringBuilder(lines.get(i).split(" ")[0]);
                for (int k = i + 1; k < Math.min(lines.size(), i + 25); k++) {
                    String l = lines.get(k);
                    if (l.startsWith("Rss") || l.startsWith("FilePmdMapped") || l.startsWith("THPeligible")) b.append(" | ").append(l.replaceAll(" +", " "));
                }
                System.out.println("  map " + b);
            }
        }
    }
    static volatile boolean sink;
    static double[] run(Reader rd, long[] offs, long ms) throws Exception {
        long c0 = MX.getCurrentThreadCpuTime(), t0 = System.nanoTime(), end = t0 + ms * 1_000_000L;
        long ops = 0; int i = 0; int acc = 0;
        do {
            for (int k = 0; k < 64; k++) { acc += rd.read(offs[i]); i = (i + 1) & (offs.length - 1); }
            ops += 64;
        } while (System.nanoTime() < end);
        long c1 = MX.getCurrentThreadCpuTime(), t1 = System.nanoTime();
        if (acc == 42) sink = true;
        return new double[] {(c1 - c0) / (double) ops, (t1 - t0) / (double) ops};
    }
    static double med(double[] v) { double[] c = v.clone(); Arrays.sort(c); return c[c.length / 2]; }
}
