package io.sluice.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kyoto Cabinet TreeDB files made by Kyoto Cabinet itself ({@code kctreemgr} from Debian's kyotocabinet-utils, and
 * its Ruby binding) read back through {@link KvStore#open} read-only, compared with what {@code kctreemgr list -pv
 * -px} lists. Skipped, saying why, without kctreemgr.
 */
class KyotoTreeFileTest {
    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    @TempDir
    Path dir;

    /** Runs {@code kctreemgr args}; returns its standard output; skips the test when it is not installed. */
    private static String kctreemgr(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("kctreemgr"));
        cmd.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            assumeTrue(false, "needs kctreemgr (Debian's kyotocabinet-utils) to make Kyoto Cabinet files: " + e);
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        assertEquals(0, p.waitFor(), "kctreemgr " + String.join(" ", args) + ": " + out);
        return out;
    }

    /** A new TreeDB file made with {@code createOptions}, holding {@code records} (loaded with kctreemgr import). */
    private Path make(String name, List<byte[][]> records, String... createOptions) throws Exception {
        Path kct = dir.resolve(name);
        List<String> args = new ArrayList<>(List.of("create"));
        args.addAll(List.of(createOptions));
        args.add(kct.toString());
        kctreemgr(args.toArray(String[]::new));
        if (!records.isEmpty()) {
            StringBuilder tsv = new StringBuilder();
            for (byte[][] r : records) {
                tsv.append(HEX.formatHex(r[0])).append('\t').append(HEX.formatHex(r[1])).append('\n');
            }
            Path in = dir.resolve(name + ".tsv");
            Files.writeString(in, tsv);
            kctreemgr("import", "-sx", kct.toString(), in.toString());
        }
        return kct;
    }

    /** What Kyoto Cabinet lists, in its order: {key, value} pairs. */
    private static List<byte[][]> kyotoCabinetList(Path kct) throws Exception {
        List<byte[][]> out = new ArrayList<>();
        for (String line : kctreemgr("list", "-pv", "-px", kct.toString()).split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            String[] kv = line.split("\t", -1);
            out.add(new byte[][] {unhex(kv[0]), unhex(kv[1])});
        }
        return out;
    }

    private static byte[] unhex(String spaced) {
        return HEX.parseHex(spaced.replace(" ", ""));
    }

    /** Opens {@code kct} read-only and checks that it holds exactly what kctreemgr lists, in order; returns the count. */
    private static long assertSameAsKyotoCabinet(Path kct) throws Exception {
        List<byte[][]> expected = kyotoCabinetList(kct);
        try (KvStore db = KvStore.open(kct, false, false, false)) {
            assertFalse(db.isWritable());
            assertEquals(expected.size(), db.count(), kct + ": count");
            KvCursor c = db.cursor();
            boolean on = c.jump(new byte[0]);
            for (int i = 0; i < expected.size(); i++) {
                assertTrue(on, kct + ": record " + i + " missing");
                assertArrayEquals(expected.get(i)[0], c.key(), kct + ": key " + i);
                assertArrayEquals(expected.get(i)[1], c.value(), kct + ": value " + i);
                assertArrayEquals(expected.get(i)[1], db.get(expected.get(i)[0]), kct + ": get " + i);
                on = c.step();
            }
            assertFalse(on, kct + ": no more records");
            assertThrows(ReadOnlyStoreException.class, () -> db.put(new byte[] {1}, new byte[] {2}));
        }
        return expected.size();
    }

    /** {@code n} records of distinct random keys (of 4 to {@code maxKey} bytes) and random values. */
    private static List<byte[][]> randomRecords(long seed, int n, int maxKey, int maxValue) {
        Random r = new Random(seed);
        List<byte[][]> out = new ArrayList<>();
        java.util.Set<String> keys = new java.util.HashSet<>();
        while (out.size() < n) {
            byte[] k = new byte[4 + r.nextInt(maxKey - 3)];
            byte[] v = new byte[r.nextInt(maxValue + 1)];
            r.nextBytes(k);
            r.nextBytes(v);
            if (keys.add(HEX.formatHex(k))) {
                out.add(new byte[][] {k, v});
            }
        }
        return out;
    }

    @Test
    void aFewRecordsReadBackInOrder() throws Exception {
        Path kct = dir.resolve("few.kct");
        kctreemgr("create", kct.toString());
        kctreemgr("set", kct.toString(), "foo", "bar");
        kctreemgr("set", kct.toString(), "abc", "xyz");
        kctreemgr("set", kct.toString(), "ab", "");
        assertEquals(3, assertSameAsKyotoCabinet(kct));
        try (KvStore db = KvStore.open(kct, false, false, false)) {
            assertArrayEquals("xyz".getBytes(StandardCharsets.US_ASCII), db.get("abc".getBytes(StandardCharsets.US_ASCII)));
            assertArrayEquals("abc".getBytes(StandardCharsets.US_ASCII), db.higherKey("ab".getBytes(StandardCharsets.US_ASCII)));
            assertEquals(kct.toAbsolutePath(), db.path());
        }
    }

    @Test
    void anEmptyDatabaseHasNoRecords() throws Exception {
        Path kct = make("empty.kct", List.of());
        assertEquals(0, assertSameAsKyotoCabinet(kct));
    }

    @Test
    void manyBinaryRecordsOverManyLeafPages() throws Exception {
        Path kct = make("many.kct", randomRecords(1, 20_000, 24, 40));
        assertTrue(kctreemgr("inform", "-st", kct.toString()).matches("(?s).*\\(leaf=([1-9]\\d{2,})\\).*"),
                "many leaf pages");
        assertEquals(20_000, assertSameAsKyotoCabinet(kct));
    }

    @Test
    void everyLayoutOptionReadsBack() throws Exception {
        List<byte[][]> records = randomRecords(2, 3000, 16, 300);
        String[][] variants = {
            {"-ts", "-tl"}, {"-ts"}, {"-tl"}, {"-apow", "0"}, {"-apow", "12"}, {"-fpow", "0"}, {"-fpow", "3"},
            {"-bnum", "7"}, {"-psiz", "256"}, {"-ts", "-tl", "-apow", "0", "-fpow", "0", "-bnum", "1"},
        };
        for (int i = 0; i < variants.length; i++) {
            Path kct = make("v" + i + ".kct", records, variants[i]);
            assertEquals(3000, assertSameAsKyotoCabinet(kct), String.join(" ", variants[i]));
        }
    }

    @Test
    void removalsAndRewritesLeaveFreeBlocksThatAreSkipped() throws Exception {
        Path kct = make("churn.kct", randomRecords(3, 5000, 12, 100));
        List<byte[][]> records = kyotoCabinetList(kct);
        // Removing most records and growing others frees and moves pages: the file then holds free blocks.
        List<String> removeArgs = new ArrayList<>(List.of("removebulk", "-sx", kct.toString()));
        for (int i = 0; i < records.size(); i += 3) {
            removeArgs.add(HEX.formatHex(records.get(i)[0]));
        }
        kctreemgr(removeArgs.toArray(String[]::new));
        List<String> setArgs = new ArrayList<>(List.of("setbulk", "-sx", kct.toString()));
        for (int i = 1; i < records.size(); i += 50) {
            setArgs.add(HEX.formatHex(records.get(i)[0]));
            setArgs.add(HEX.formatHex(new byte[2000]));
        }
        kctreemgr(setArgs.toArray(String[]::new));
        assertTrue(kctreemgr("inform", "-st", kct.toString()).matches("(?s).*\\(used=[1-9]\\d*\\).*"),
                "free blocks in the pool");
        long kept = java.util.stream.IntStream.range(0, records.size()).filter(i -> i % 3 != 0 || i % 50 == 1).count();
        assertEquals(kept, assertSameAsKyotoCabinet(kct));
    }

    @Test
    void largeValues() throws Exception {
        Random r = new Random(4);
        List<byte[][]> records = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            byte[] v = new byte[(1 << 20) + i * 77_777];
            r.nextBytes(v);
            records.add(new byte[][] {("big" + i).getBytes(StandardCharsets.US_ASCII), v});
        }
        records.addAll(randomRecords(5, 200, 8, 8));
        Path kct = make("large.kct", records);
        assertEquals(204, assertSameAsKyotoCabinet(kct));
    }

    @Test
    void tuningParametersInThePathThroughTheRubyBinding() throws Exception {
        Path kct = dir.resolve("ruby.kct");
        String script = "require 'kyotocabinet'\n"
                + "db = KyotoCabinet::DB.new\n"
                + "db.open(ARGV[0] + '#opts=ls#apow=4#bnum=1000#dfunit=100000', KyotoCabinet::DB::OWRITER | "
                + "KyotoCabinet::DB::OCREATE) or abort db.error.to_s\n"
                + "r = Random.new(6)\n"
                + "5000.times { |i| db.set([i].pack('N') + r.bytes(r.rand(20)), r.bytes(r.rand(60))) }\n"
                + "db.set(\"\\xFF\\x00\\x04\\xAB\".b, [1, 2].pack('Q>Q>'))\n"
                + "db.close or abort db.error.to_s\n";
        Process p;
        try {
            p = new ProcessBuilder("ruby", "-e", script, kct.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "needs ruby with the kyotocabinet gem: " + e);
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int status = p.waitFor();
        assumeTrue(status == 0 || !out.contains("cannot load such file"), "needs Ruby's kyotocabinet binding: " + out);
        assertEquals(0, status, out);
        assertEquals(5001, assertSameAsKyotoCabinet(kct));
    }

    @Test
    void compressionAndOtherComparatorsAreRefusedByName() throws Exception {
        Path compressed = make("c.kct", randomRecords(7, 10, 8, 8), "-tc");
        IOException e = assertThrows(IOException.class, () -> KvStore.open(compressed, false, false, false));
        assertTrue(e.getMessage().startsWith("open(" + compressed.toAbsolutePath() + "): ")
                && e.getMessage().contains("#opts=c"), e.getMessage());
        String[][] comparators = {{"-rcd", "#rcomp=dec"}, {"-rcld", "#rcomp=lexdesc"}, {"-rcdd", "#rcomp=decdesc"}};
        for (String[] c : comparators) {
            Path kct = make("r" + c[0] + ".kct", List.of(), c[0]);
            e = assertThrows(IOException.class, () -> KvStore.open(kct, false, false, false));
            assertTrue(e.getMessage().contains(kct.toAbsolutePath().toString()) && e.getMessage().contains(c[1]),
                    e.getMessage());
        }
    }

    @Test
    void aHashDatabaseIsRefusedAsOne() throws Exception {
        Path kch = dir.resolve("h.kch");
        Process p;
        try {
            p = new ProcessBuilder("kchashmgr", "create", kch.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "needs kchashmgr: " + e);
            throw e;
        }
        assertEquals(0, p.waitFor());
        IOException e = assertThrows(IOException.class, () -> KvStore.open(kch, false, false, false));
        assertTrue(e.getMessage().contains("HashDB") && e.getMessage().contains(kch.toAbsolutePath().toString()),
                e.getMessage());
    }

    @Test
    void aFileLeftOpenByItsWriterIsRefused() throws Exception {
        Path kct = make("open.kct", randomRecords(8, 10, 8, 8));
        byte[] b = Files.readAllBytes(kct);
        b[24] |= 1;
        Files.write(kct, b);
        IOException e = assertThrows(IOException.class, () -> KvStore.open(kct, false, false, false));
        assertTrue(e.getMessage().contains("not closed"), e.getMessage());
    }

    /**
     * A writer with automatic transactions that dies leaves the file's header saying it was closed, and a write-ahead
     * log ({@code FILE.wal}) from which Kyoto Cabinet undoes the unfinished write when it next opens the file: such a
     * file is refused, as what it holds is not what Kyoto Cabinet would read.
     */
    @Test
    void aFileWithAWriteAheadLogLeftIsRefused() throws Exception {
        Path kct = make("wal.kct", List.of());
        String script = "require 'kyotocabinet'\n"
                + "db = KyotoCabinet::DB.new\n"
                + "db.open(ARGV[0] + '#pccap=1k', KyotoCabinet::DB::OWRITER | KyotoCabinet::DB::OAUTOTRAN) or abort\n"
                + "3000.times { |i| db.set(\"k#{i}\", 'v' * 100) }\n"
                + "db.synchronize(false)\n"
                + "db.set('zz', '1')\n"
                + "Process.kill(:KILL, $$)\n";
        Process p;
        try {
            p = new ProcessBuilder("ruby", "-e", script, kct.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "needs ruby with the kyotocabinet gem: " + e);
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        assumeTrue(!out.contains("cannot load such file"), "needs Ruby's kyotocabinet binding: " + out);
        Path wal = dir.resolve("wal.kct.wal");
        assertTrue(Files.size(wal) > 0, "the writer left its log: " + out);
        assertEquals(0, Files.readAllBytes(kct)[24] & 1, "and the header says the file was closed");
        IOException e = assertThrows(IOException.class, () -> KvStore.open(kct, false, false, false));
        assertTrue(e.getMessage().startsWith("open(" + kct.toAbsolutePath() + "): ")
                && e.getMessage().contains(wal.toAbsolutePath().toString()), e.getMessage());
    }

    /**
     * A file cut short anywhere fails with an exception naming it and an offset: cut as a copy would be (the header
     * says more than the file has), and cut with the header's used size made to agree, so that the walk meets the cut.
     */
    @Test
    void aFileCutShortFailsNamingFileAndOffset() throws Exception {
        Path kct = make("cut.kct", randomRecords(9, 3000, 16, 40), "-apow", "0", "-bnum", "100");
        byte[] whole = Files.readAllBytes(kct);
        long used = ByteBuffer.wrap(whole, 40, 8).getLong();
        long firstRecord = 64 + 6 * 1024 + 6 * 2 + 2 + 6 * 100;
        Path cut = dir.resolve("cut-copy.kct");
        Random r = new Random(10);
        for (int t = 0; t < 200; t++) {
            int at = (int) (t == 0 ? firstRecord : t == 1 ? used - 1 : firstRecord + r.nextLong(used - firstRecord));
            for (boolean fixHeader : new boolean[] {false, true}) {
                byte[] b = java.util.Arrays.copyOf(whole, at);
                if (fixHeader) {
                    ByteBuffer.wrap(b, 40, 8).putLong(at);
                }
                Files.write(cut, b);
                IOException e = assertThrows(IOException.class, () -> KvStore.open(cut, false, false, false),
                        "cut at " + at);
                assertTrue(e.getMessage().startsWith("read(" + cut.toAbsolutePath() + ") at offset "),
                        e.getMessage());
            }
        }
    }

    @Test
    void damagedRecordHeadersAndPagesFail() throws Exception {
        Path kct = make("dmg.kct", randomRecords(11, 2000, 16, 40), "-apow", "0", "-bnum", "100");
        byte[] whole = Files.readAllBytes(kct);
        long used = ByteBuffer.wrap(whole, 40, 8).getLong();
        int firstRecord = 64 + 6 * 1024 + 6 * 2 + 2 + 6 * 100;
        Path bad = dir.resolve("dmg-copy.kct");
        // The first record's start zeroed, a key size made huge, a page's previous-leaf id changed.
        int[][] edits = {{firstRecord, 0}, {firstRecord, 0x90}, {firstRecord + 2 + 12, 0xFF}, {0x10, 0x7F}};
        for (int[] edit : edits) {
            byte[] b = whole.clone();
            b[edit[0]] = (byte) edit[1];
            Files.write(bad, b);
            IOException e = assertThrows(IOException.class, () -> KvStore.open(bad, false, false, false),
                    "byte " + edit[0] + " set to " + edit[1]);
            assertTrue(e.getMessage().contains(bad.toAbsolutePath().toString()) && e.getMessage().contains("offset"),
                    e.getMessage());
        }
        assertTrue(used > firstRecord);
    }

    @Test
    void openingWritableIsRefusedAndLeavesTheFileAlone() throws Exception {
        Path kct = make("w.kct", randomRecords(12, 10, 8, 8));
        byte[] before = Files.readAllBytes(kct);
        for (boolean[] mode : new boolean[][] {{true, false}, {true, true}}) {
            IOException e = assertThrows(IOException.class, () -> KvStore.open(kct, true, true, mode[1]));
            assertTrue(e.getMessage().startsWith("open(" + kct.toAbsolutePath() + "): a Kyoto Cabinet database file"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("build the store anew"), e.getMessage());
        }
        assertArrayEquals(before, Files.readAllBytes(kct));
        assertSameAsKyotoCabinet(kct);
    }

    /** bioruby-maf's own {@code test/data/*.kct}, when {@code BIORUBY_MAF} names a checkout (a work tree). */
    @Test
    void biorubyMafsIndexes() throws Exception {
        String from = System.getenv("BIORUBY_MAF");
        if (from == null) {
            from = System.getProperty("bioruby.maf");
        }
        assumeTrue(from != null && !from.isEmpty() && Files.isDirectory(Path.of(from, "test", "data")),
                "set BIORUBY_MAF to a bioruby-maf work tree to read its test/data/*.kct");
        List<Path> files;
        try (Stream<Path> list = Files.list(Path.of(from, "test", "data"))) {
            files = list.filter(f -> f.getFileName().toString().endsWith(".kct")).sorted().toList();
        }
        assertFalse(files.isEmpty(), "bioruby-maf's test/data holds .kct files");
        for (Path f : files) {
            // Copied first: the checkout is left alone, and its files may be read-only.
            Path copy = dir.resolve(f.getFileName());
            Files.copy(f, copy);
            assertTrue(assertSameAsKyotoCabinet(copy) > 0, f.toString());
        }
    }
}
