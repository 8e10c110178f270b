// scripts/KvCursorWalk.java: what a scan of `sluice bench kv` costs from Java, per entry, with no JRuby: one store file
// of the bench's entries walked by KvCursor (a read-only KvStore, as the KvStore-java row walks it) and by MVStore's own
// Cursor (the file's copy opened by a plain read-only MVStore), rounds interleaved in one JVM, in thread CPU ns per
// entry (the jump from a random key included, once per 100 entries). The distance between the two is what KvCursor
// adds to MVStore's walk, and so the most a binding could save by walking the tree in batches itself. Also counts the
// tree's leaves (each step onto a new leaf is a page cache lookup), and the KvCursor walk again with each key and value
// copied (clone()) before its byte is read: what a Java row would pay for bytes of its own, which bio-maf's scan, reading
// and dropping each entry, has no need of. A diagnostic for the kv-scan-s4 record.
//
//   ./sluice info   # builds sluice-cli/target/lib
//   L=sluice-cli/target/lib
//   $JAVA -Xms2g -Xmx2g -Xmn512m -XX:+UseG1GC -cp $L/sluice-bench.jar:$L/sluice-core.jar:$L/sluice-db.jar:$L/h2-mvstore.jar \
//       scripts/KvCursorWalk.java 1000000 /tmp

import io.sluice.bench.jruby.KvBench;
import io.sluice.db.KvCursor;
import io.sluice.db.KvStore;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.h2.mvstore.Cursor;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.Page;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;

public class KvCursorWalk {
    static final int SCAN = 100; // KvBench's scan length, for the variants below
    static final int SCANS = 20_000;

    /** The layout of KvStore's keys and values on disk (KvStore's own type is not public). */
    static final class Bytes extends BasicDataType<byte[]> {
        @Override
        public int compare(byte[] a, byte[] b) {
            return Arrays.compareUnsigned(a, b);
        }

        @Override
        public int getMemory(byte[] b) {
            return 24 + b.length;
        }

        @Override
        public void write(WriteBuffer buff, byte[] b) {
            buff.putVarInt(b.length).put(b);
        }

        @Override
        public byte[] read(ByteBuffer buff) {
            byte[] b = new byte[DataUtils.readVarInt(buff)];
            buff.get(b);
            return b;
        }

        @Override
        public byte[][] createStorage(int size) {
            return new byte[size][];
        }
    }

    // kv_bench.rb's entries: sequence, bin and start; offset and length.
    static byte[] key(int i) {
        long start = (long) (i / 25) * 1000;
        return ByteBuffer.allocate(16).putInt(i % 25).putInt((int) (start >> 17)).putLong(start).array();
    }

    static byte[] value(int i) {
        return ByteBuffer.allocate(16).putLong((long) i * 4096).putLong(1000 + (i & 1023)).array();
    }

    static int kvScanCopies(KvCursor cur, byte[] from) {
        int seen = 0;
        boolean more = cur.jump(from);
        for (int j = 0; j < SCAN && more; j++) {
            byte[] k = cur.key().clone();
            byte[] v = cur.value().clone();
            seen += k[3] & v[v.length - 1] & 1;
            more = cur.step();
        }
        return seen;
    }

    static int mvScan(MVMap<byte[], byte[]> map, byte[] from) {
        int seen = 0;
        Cursor<byte[], byte[]> c = map.cursor(from);
        for (int j = 0; j < SCAN && c.hasNext(); j++) {
            byte[] k = c.next();
            byte[] v = c.getValue();
            seen += k[3] & v[v.length - 1] & 1;
        }
        return seen;
    }

    static long[] leaves(Page<byte[], byte[]> p) {
        if (p.isLeaf()) {
            return new long[] {1, p.getKeyCount(), 0};
        }
        long[] sum = {0, 0, 1};
        for (int i = 0; i < p.getRawChildPageCount(); i++) {
            long[] s = leaves(p.getChildPage(i));
            for (int j = 0; j < 3; j++) {
                sum[j] += s[j];
            }
        }
        return sum;
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        Path dir = Path.of(args.length > 1 ? args[1] : System.getProperty("java.io.tmpdir"));
        Path a = dir.resolve("kv-cursor-walk-" + ProcessHandle.current().pid() + ".kct");
        Path b = dir.resolve(a.getFileName() + "-copy");
        try {
            try (KvStore kv = KvStore.open(a, true, true, true)) {
                for (int i = 0; i < n; i++) {
                    kv.put(key(i), value(i));
                }
            }
            Files.copy(a, b);
            Random random = new Random(1);
            byte[][] from = new byte[SCANS][];
            for (int i = 0; i < SCANS; i++) {
                from[i] = key(random.nextInt(n));
            }
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            List<Double> kvNs = new ArrayList<>();
            List<Double> mvNs = new ArrayList<>();
            List<Double> copyNs = new ArrayList<>();
            long sink = 0;
            try (KvStore kv = KvStore.open(a, false, false, false)) {
                MVStore store = new MVStore.Builder().fileName(b.toString()).cacheSize(cacheMegabytes())
                        .readOnly().open();
                try {
                    MVMap<byte[], byte[]> map = store.openMap("data",
                            new MVMap.Builder<byte[], byte[]>().keyType(new Bytes()).valueType(new Bytes()));
                    long[] tree = leaves(map.getRootPage());
                    System.out.printf("%d entries in %d leaves (%.1f a leaf) under %d inner pages%n", tree[1], tree[0],
                            tree[1] / (double) tree[0], tree[2]);
                    KvCursor cur = kv.cursor();
                    for (int round = 0; round < 11; round++) {
                        long t0 = threads.getCurrentThreadCpuTime();
                        for (byte[] k : from) {
                            sink += KvBench.scanFrom(cur, k); // the KvStore-java row's own scan
                        }
                        long t1 = threads.getCurrentThreadCpuTime();
                        for (byte[] k : from) {
                            sink += mvScan(map, k);
                        }
                        long t2 = threads.getCurrentThreadCpuTime();
                        for (byte[] k : from) {
                            sink += kvScanCopies(cur, k);
                        }
                        long t3 = threads.getCurrentThreadCpuTime();
                        if (round >= 3) {
                            kvNs.add((t1 - t0) / (double) (SCANS * SCAN));
                            mvNs.add((t2 - t1) / (double) (SCANS * SCAN));
                            copyNs.add((t3 - t2) / (double) (SCANS * SCAN));
                        }
                    }
                } finally {
                    store.close();
                }
            }
            System.out.printf("thread CPU ns per entry, median of %d rounds (min-max): KvCursor %s, MVStore's Cursor %s, "
                    + "KvCursor with copies %s%s%n", kvNs.size(), median(kvNs), median(mvNs), median(copyNs),
                    sink == 42 ? "!" : "");
        } finally {
            Files.deleteIfExists(a);
            Files.deleteIfExists(b);
        }
    }

    static String median(List<Double> ns) {
        Collections.sort(ns);
        return String.format("%.1f (%.1f-%.1f)", ns.get(ns.size() / 2), ns.get(0), ns.get(ns.size() - 1));
    }

    /** KvStore's page cache size (an eighth of the heap, 16 to 1024 MB), so both walks have the same room. */
    static int cacheMegabytes() {
        return (int) Math.max(16, Math.min(1024, Runtime.getRuntime().maxMemory() / 8 >> 20));
    }
}
