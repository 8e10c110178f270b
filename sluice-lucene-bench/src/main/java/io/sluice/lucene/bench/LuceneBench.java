package io.sluice.lucene.bench;

import io.sluice.Engine;
import io.sluice.chunks.CacheAdvice;
import io.sluice.nio.SluiceFileSystemProvider;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.store.NIOFSDirectory;
import org.apache.lucene.util.BytesRef;

/**
 * {@code sluice bench lucene}: a generated text corpus indexed once with lucene-core, then searched through Lucene's
 * {@link MMapDirectory} and {@link NIOFSDirectory} on the JDK's default file system ({@code jdk-MMapDirectory},
 * {@code jdk-NIOFSDirectory}) and on sluice-nio's file system, one per engine ({@code sluice-MMapDirectory-AUTO},
 * {@code sluice-NIOFSDirectory-IO_URING}, ...). Every row opens the same index files.
 *
 * <p>Three workloads, each a fixed list of operations made from the seed: {@code lucene-term} (top 10 of one term,
 * common to rare), {@code lucene-phrase-bool} (two-word phrases, two-term conjunctions, three-term disjunctions, in
 * turn) and {@code lucene-fetch} (a result page's fetch: the stored fields and doc values of 10 random documents).
 * Each cell (workload, cache, threads) runs every row once per round, in an order rotated each round; each sample
 * opens the directory and a {@link DirectoryReader} on it, untimed, times the list (threads take operations from a
 * shared counter) and closes both. A cold sample first drops every index file's pages
 * ({@code posix_fadvise(DONTNEED)}), a warm cell follows a read of every file. Every row must give the same
 * checksum of hits and fields, or the run fails.
 */
public final class LuceneBench {
    static final String TERM = "lucene-term";
    static final String PHRASE_BOOL = "lucene-phrase-bool";
    static final String FETCH = "lucene-fetch";
    /** The indexing rows' workload: the corpus's first documents written into a fresh index, docs/s. */
    static final String INDEX = "lucene-index";
    /** The indexing rows' {@code cache}: they write new files, neither warm nor cold. */
    static final String WRITE = "write";
    static final String WARM = "warm";
    static final String COLD = "cold";
    static final String MMAP_DIRECTORY = "MMapDirectory";
    static final String NIOFS_DIRECTORY = "NIOFSDirectory";
    /** Documents fetched by one {@code lucene-fetch} operation: a page of results. */
    static final int PAGE = 10;
    static final int TOP = 10;

    /** What to run. {@code docs} 0: as many documents as make {@code size} bytes of text. */
    record Options(Path dir, long size, int docs, long indexSize, long seed, int rounds, int queries,
                   List<Integer> threads, List<String> caches, List<String> workloads, List<String> directories,
                   List<Engine> engines, boolean keep) {
    }

    /**
     * Called on each indexing row's index once it is committed and closed, before its content is checked: the run
     * passes {@link #NOTHING}; the tests change a row's index to see the check fail the run.
     */
    interface AfterIndexing {
        void written(Contender c, Path index) throws IOException;
    }

    static final AfterIndexing NOTHING = (c, index) -> { };

    /**
     * One row: a Lucene directory class over the JDK's default file system ({@code engine} null) or over Sluice's
     * with that engine.
     */
    record Contender(String directory, Engine engine) {
        String name() {
            return engine == null ? "jdk-" + directory : "sluice-" + directory + "-" + engine.name();
        }

        String baseline() {
            return "jdk-" + directory;
        }
    }

    /** One timed pass: operations done, their checksum, wall time. */
    record Sample(int ops, long checksum, long nanos) {
        double opsPerSec() {
            return ops / (nanos / 1e9);
        }
    }

    /** The samples of one row in one cell. */
    record Result(Contender contender, String workload, String cache, int threads, List<Sample> samples) {
        double median() {
            double[] v = samples.stream().mapToDouble(Sample::opsPerSec).sorted().toArray();
            int n = v.length;
            return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        }

        double min() {
            return samples.stream().mapToDouble(Sample::opsPerSec).min().orElse(0);
        }

        double max() {
            return samples.stream().mapToDouble(Sample::opsPerSec).max().orElse(0);
        }

        double spread() {
            return (max() - min()) / median();
        }
    }

    /** The built index: where, how many documents, its bytes, and its files (to warm or drop). */
    record Index(Path path, int docs, long bytes, List<Path> files) {
    }

    /** A run's index and rows. */
    record Run(Index index, List<Result> results) {
    }

    /** The operations of one workload: queries, or the sorted document ids of each fetch. */
    record Work(String workload, List<Query> queries, int[][] fetches) {
        int size() {
            return queries != null ? queries.size() : fetches.length;
        }
    }

    private LuceneBench() {
    }

    // ---------------------------------------------------------------- the index

    /**
     * Writes the corpus's index into {@code o.dir()}, or finds it there from an earlier {@code --keep} run with the
     * same size, document count and seed. Written by one thread with merges in line, so the same options give the
     * same segments; synced by the commit, so that a cold sample's drop drops every page.
     */
    static Index build(Options o, PrintWriter log) throws IOException {
        Files.createDirectories(o.dir());
        String name = String.format(Locale.ROOT, "index-%s-seed%d",
                o.docs() > 0 ? o.docs() + "docs" : o.size() + "bytes", o.seed());
        Path index = o.dir().resolve(name);
        if (o.keep() && Files.isDirectory(index)) {
            Index found = describe(index);
            log.printf(Locale.ROOT, "index %s: %,d documents, %,d bytes in %d files (kept from an earlier run)%n",
                    index, found.docs(), found.bytes(), found.files().size());
            log.flush();
            return found;
        }
        // Built under another name and renamed when complete: a run cut short leaves no index to reuse.
        Path partial = o.dir().resolve(name + ".partial");
        deleteTree(partial);
        deleteTree(index);
        Corpus corpus = new Corpus(o.seed());
        SplittableRandom r = new SplittableRandom(o.seed() * 31 + 7);
        long t0 = System.nanoTime();
        long text = 0;
        int docs = 0;
        try (FSDirectory d = FSDirectory.open(partial); IndexWriter writer = new IndexWriter(d, writerConfig())) {
            StringBuilder title = new StringBuilder();
            StringBuilder body = new StringBuilder();
            long nextReport = 64L << 20;
            while (o.docs() > 0 ? docs < o.docs() : text < o.size()) {
                title.setLength(0);
                body.setLength(0);
                corpus.sentences(title, r, 3 + r.nextInt(8));
                corpus.sentences(body, r, 80 + r.nextInt(560));
                writer.addDocument(new Doc(docs, title.toString(), body.toString(),
                        1_700_000_000_000L + docs * 60_000L + r.nextInt(60_000),
                        Corpus.CATEGORIES[r.nextInt(Corpus.CATEGORIES.length)]).document());
                text += title.length() + body.length();
                docs++;
                if (text >= nextReport) {
                    log.printf(Locale.ROOT, "  %,d documents, %,d MB of text (%.0f s)%n", docs, text / 1_000_000,
                            (System.nanoTime() - t0) / 1e9);
                    log.flush();
                    nextReport += 64L << 20;
                }
            }
            writer.commit();
        }
        Files.move(partial, index, StandardCopyOption.ATOMIC_MOVE);
        Index built = describe(index);
        double s = (System.nanoTime() - t0) / 1e9;
        log.printf(Locale.ROOT, "index %s: %,d documents, %,d MB of text in %.1f s (%.1f MB/s), %,d bytes in %d files%n",
                index, docs, text / 1_000_000, s, text / 1e6 / s, built.bytes(), built.files().size());
        log.flush();
        return built;
    }

    /**
     * The one writer configuration of the bench, for the searched index and every indexing row alike: one thread,
     * merges in line ({@code SerialMergeScheduler}) and the default merge policy, so the same documents give the same
     * segments on every file system.
     */
    static IndexWriterConfig writerConfig() {
        return new IndexWriterConfig(new StandardAnalyzer())
                .setOpenMode(IndexWriterConfig.OpenMode.CREATE)
                .setRAMBufferSizeMB(64)
                .setMergeScheduler(new SerialMergeScheduler());
    }

    /** One generated document, as every writer indexes it. */
    record Doc(int number, String title, String body, long timestamp, String category) {
        Document document() {
            Document doc = new Document();
            doc.add(new StringField("id", "doc" + number, Field.Store.YES));
            doc.add(new TextField("title", title, Field.Store.YES));
            doc.add(new TextField("body", body, Field.Store.YES));
            doc.add(new NumericDocValuesField("timestamp", timestamp));
            doc.add(new SortedDocValuesField("category", new BytesRef(category)));
            return doc;
        }

        long textLength() {
            return title.length() + body.length();
        }
    }

    /**
     * The first documents of the corpus, the same ones {@link #build} indexes in the same order, held in memory: at
     * least {@code size} bytes of text, or {@code docs} documents when that is positive. The indexing rows time the
     * writer, not the generator.
     */
    static List<Doc> documents(long seed, long size, int docs) {
        Corpus corpus = new Corpus(seed);
        SplittableRandom r = new SplittableRandom(seed * 31 + 7);
        List<Doc> list = new ArrayList<>();
        StringBuilder title = new StringBuilder();
        StringBuilder body = new StringBuilder();
        long text = 0;
        while (docs > 0 ? list.size() < docs : text < size) {
            title.setLength(0);
            body.setLength(0);
            corpus.sentences(title, r, 3 + r.nextInt(8));
            corpus.sentences(body, r, 80 + r.nextInt(560));
            int n = list.size();
            Doc d = new Doc(n, title.toString(), body.toString(), 1_700_000_000_000L + n * 60_000L + r.nextInt(60_000),
                    Corpus.CATEGORIES[r.nextInt(Corpus.CATEGORIES.length)]);
            list.add(d);
            text += d.textLength();
        }
        return list;
    }

    private static Index describe(Path index) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(index)) {
            files = s.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().equals("write.lock"))
                    .sorted().toList();
        }
        long bytes = 0;
        for (Path f : files) {
            bytes += Files.size(f);
        }
        int docs;
        try (FSDirectory d = FSDirectory.open(index); DirectoryReader reader = DirectoryReader.open(d)) {
            docs = reader.maxDoc();
        }
        return new Index(index, docs, bytes, files);
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.delete(p);
            }
        }
    }

    // ---------------------------------------------------------------- the operations

    /** The fixed operations of a workload, made from the seed; the same for every row. */
    static Work work(String workload, Corpus corpus, int count, int maxDoc, long seed) {
        SplittableRandom r = new SplittableRandom(seed * 1_000_003L + workload.hashCode());
        List<Query> queries = new ArrayList<>(count);
        switch (workload) {
            case TERM -> {
                for (int i = 0; i < count; i++) {
                    queries.add(new TermQuery(term(corpus, Corpus.logUniformRank(r, 0, Corpus.VOCABULARY))));
                }
            }
            case PHRASE_BOOL -> {
                for (int i = 0; i < count; i++) {
                    queries.add(switch (i % 3) {
                        // Common words (ranks 20 to 2,000), so that the phrases occur, as users' phrases do; not the
                        // very top ones, whose positions in nearly every document would make the list all phrases.
                        case 0 -> new PhraseQuery("body", corpus.word(Corpus.logUniformRank(r, 20, 2000)),
                                corpus.word(Corpus.logUniformRank(r, 20, 2000)));
                        case 1 -> new BooleanQuery.Builder()
                                .add(new TermQuery(term(corpus, Corpus.logUniformRank(r, 20, 20_000))),
                                        BooleanClause.Occur.MUST)
                                .add(new TermQuery(term(corpus, Corpus.logUniformRank(r, 20, 20_000))),
                                        BooleanClause.Occur.MUST)
                                .build();
                        default -> {
                            BooleanQuery.Builder b = new BooleanQuery.Builder();
                            for (int t = 0; t < 3; t++) {
                                b.add(new TermQuery(term(corpus, Corpus.logUniformRank(r, 10, Corpus.VOCABULARY))),
                                        BooleanClause.Occur.SHOULD);
                            }
                            yield b.build();
                        }
                    });
                }
            }
            case FETCH -> {
                int[][] fetches = new int[count][];
                for (int i = 0; i < count; i++) {
                    int[] ids = new int[PAGE];
                    for (int k = 0; k < PAGE; k++) {
                        ids[k] = r.nextInt(maxDoc);
                    }
                    // Doc values iterators only go forward.
                    Arrays.sort(ids);
                    fetches[i] = ids;
                }
                return new Work(workload, null, fetches);
            }
            default -> throw new IllegalArgumentException("unknown workload " + workload);
        }
        return new Work(workload, queries, null);
    }

    private static Term term(Corpus corpus, int rank) {
        return new Term("body", corpus.word(rank));
    }

    // ---------------------------------------------------------------- the rows

    private static final Map<Engine, FileSystem> FILE_SYSTEMS = new EnumMap<>(Engine.class);

    /** The index's path on the row's file system: the JDK's default, or Sluice's with the row's engine. */
    static Path pathFor(Contender c, Path index) {
        if (c.engine() == null) {
            return index;
        }
        FileSystem fs;
        synchronized (FILE_SYSTEMS) {
            fs = FILE_SYSTEMS.computeIfAbsent(c.engine(), SluiceFileSystemProvider::newFileSystem);
        }
        return fs.getPath(index.toAbsolutePath().toString());
    }

    static Directory open(Contender c, Path index) throws IOException {
        Path p = pathFor(c, index);
        return c.directory().equals(MMAP_DIRECTORY) ? new MMapDirectory(p) : new NIOFSDirectory(p);
    }

    /** The rows asked for, the JDK's first; engines not available here are left out, saying why. */
    static List<Contender> contenders(Options o, PrintWriter log) {
        List<Contender> list = new ArrayList<>();
        for (String d : o.directories()) {
            list.add(new Contender(d, null));
        }
        for (Engine e : o.engines()) {
            if (!e.isAvailable()) {
                log.println("rows of " + e + " left out: " + e.unavailabilityCause().orElse(""));
                continue;
            }
            for (String d : o.directories()) {
                list.add(new Contender(d, e));
            }
        }
        return list;
    }

    /**
     * One sample: opens the row's directory and a reader (untimed), runs every operation of {@code work} with
     * {@code threads} threads taking them from a counter (timed), closes both.
     */
    static Sample pass(Contender c, Index index, Work work, int threads, ExecutorService pool) throws IOException {
        try (Directory dir = open(c, index.path()); DirectoryReader reader = DirectoryReader.open(dir)) {
            IndexSearcher searcher = new IndexSearcher(reader);
            // Every row computes every query: no row may answer from a cache another row filled.
            searcher.setQueryCache(null);
            AtomicInteger next = new AtomicInteger();
            List<Future<Long>> parts = new ArrayList<>();
            long t0 = System.nanoTime();
            for (int t = 0; t < threads; t++) {
                parts.add(pool.submit(() -> work.queries() != null ? search(searcher, work.queries(), next)
                        : fetch(reader, work.fetches(), next)));
            }
            long checksum = 0;
            for (Future<Long> part : parts) {
                try {
                    checksum += part.get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while running " + work.workload() + " on " + c.name(), e);
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause() instanceof UncheckedIOException u ? u.getCause() : e.getCause();
                    throw new IOException(work.workload() + " on " + c.name() + " (index " + index.path()
                            + ") failed: " + cause, cause);
                }
            }
            return new Sample(work.size(), checksum, System.nanoTime() - t0);
        }
    }

    private static long search(IndexSearcher searcher, List<Query> queries, AtomicInteger next) throws IOException {
        long sum = 0;
        for (int i = next.getAndIncrement(); i < queries.size(); i = next.getAndIncrement()) {
            TopDocs top = searcher.search(queries.get(i), TOP);
            sum += top.totalHits.value() * 31 + top.scoreDocs.length;
            for (ScoreDoc d : top.scoreDocs) {
                sum += d.doc;
            }
        }
        return sum;
    }

    private static long fetch(DirectoryReader reader, int[][] fetches, AtomicInteger next) throws IOException {
        List<LeafReaderContext> leaves = reader.leaves();
        // StoredFields instances belong to one thread.
        StoredFields[] stored = new StoredFields[leaves.size()];
        long sum = 0;
        for (int i = next.getAndIncrement(); i < fetches.length; i = next.getAndIncrement()) {
            int leafOfDocValues = -1;
            NumericDocValues timestamps = null;
            SortedDocValues categories = null;
            for (int doc : fetches[i]) {
                int l = ReaderUtil.subIndex(doc, leaves);
                LeafReaderContext leaf = leaves.get(l);
                int local = doc - leaf.docBase;
                if (stored[l] == null) {
                    stored[l] = leaf.reader().storedFields();
                }
                Document d = stored[l].document(local);
                for (IndexableField f : d.getFields()) {
                    String v = f.stringValue();
                    sum += v == null ? 0 : v.length();
                }
                // A fresh iterator per leaf and page, as a fetch phase gets them.
                if (l != leafOfDocValues) {
                    leafOfDocValues = l;
                    timestamps = DocValues.getNumeric(leaf.reader(), "timestamp");
                    categories = DocValues.getSorted(leaf.reader(), "category");
                }
                if (timestamps.advanceExact(local)) {
                    sum += timestamps.longValue();
                }
                if (categories.advanceExact(local)) {
                    sum += categories.lookupOrd(categories.ordValue()).length;
                }
            }
        }
        return sum;
    }

    // ---------------------------------------------------------------- the indexing rows

    /**
     * The indexing rows: the first documents of the corpus ({@code --index-size} of text, or {@code --docs}
     * documents), held in memory, written by every row into a fresh index in the same directory, {@code rounds}
     * times, the order rotated each round. Each row's index must give the same document count, hits and fields as
     * the first row's, or the run fails naming the row.
     */
    static List<Result> indexRows(Options o, List<Contender> contenders, PrintWriter log, AfterIndexing after)
            throws IOException {
        List<Doc> docs = documents(o.seed(), o.indexSize(), o.docs());
        long text = docs.stream().mapToLong(Doc::textLength).sum();
        Corpus corpus = new Corpus(o.seed());
        // The query mix of the search rows, on this index's documents: what its content check compares.
        List<Work> mix = List.of(work(TERM, corpus, o.queries(), docs.size(), o.seed()),
                work(PHRASE_BOOL, corpus, o.queries(), docs.size(), o.seed()),
                work(FETCH, corpus, o.queries(), docs.size(), o.seed()));
        // One directory for every row, emptied before each: every row writes new files into the same directory, so
        // that fresh pages and new inodes cost every row alike.
        Path target = o.dir().resolve("index-rows");
        Map<String, Long> expected = new LinkedHashMap<>();
        Map<Contender, List<Sample>> samples = new LinkedHashMap<>();
        contenders.forEach(c -> samples.put(c, new ArrayList<>()));
        try {
            // An untimed pass of every row on an eighth of the documents, so that no row's first sample also
            // compiles the writer's code every row runs.
            log.printf(Locale.ROOT, "%s: %,d documents, %,d MB of text; rehearsal on %,d%n", INDEX, docs.size(),
                    text / 1_000_000, Math.max(1, docs.size() / 8));
            log.flush();
            for (Contender c : contenders) {
                indexPass(c, docs, Math.max(1, docs.size() / 8), target, NOTHING, List.of());
            }
            for (int round = 0; round < o.rounds(); round++) {
                log.printf(Locale.ROOT, "%s, round %d of %d%n", INDEX, round + 1, o.rounds());
                log.flush();
                for (int k = 0; k < contenders.size(); k++) {
                    Contender c = contenders.get((k + round) % contenders.size());
                    Sample s = indexPass(c, docs, docs.size(), target, after, mix);
                    check(expected, INDEX, c, s);
                    samples.get(c).add(s);
                }
            }
        } finally {
            deleteTree(target);
        }
        List<Result> results = new ArrayList<>();
        for (var e : samples.entrySet()) {
            results.add(new Result(e.getKey(), INDEX, WRITE, 1, e.getValue()));
        }
        return results;
    }

    /**
     * One indexing sample: empties {@code target}, opens the row's directory on it (untimed), writes the first
     * {@code count} documents with {@link #writerConfig()} and commits (timed: the writer's open to its close, syncs
     * and merges included), then reads the index back through the JDK's file system for its content checksum.
     */
    static Sample indexPass(Contender c, List<Doc> docs, int count, Path target, AfterIndexing after, List<Work> mix)
            throws IOException {
        deleteTree(target);
        Files.createDirectories(target);
        long nanos;
        try (Directory d = open(c, target)) {
            long t0 = System.nanoTime();
            try (IndexWriter writer = new IndexWriter(d, writerConfig())) {
                for (int i = 0; i < count; i++) {
                    writer.addDocument(docs.get(i).document());
                }
                writer.commit();
            } catch (IOException | RuntimeException e) {
                throw new IOException(INDEX + " on " + c.name() + " (index " + target + ") failed: " + e, e);
            }
            nanos = System.nanoTime() - t0;
        }
        after.written(c, target);
        return new Sample(count, content(target, mix), nanos);
    }

    /** The index's document counts and the checksums of {@code mix} on it, read through the JDK's file system. */
    static long content(Path index, List<Work> mix) throws IOException {
        try (FSDirectory d = FSDirectory.open(index); DirectoryReader reader = DirectoryReader.open(d)) {
            IndexSearcher searcher = new IndexSearcher(reader);
            searcher.setQueryCache(null);
            long sum = reader.numDocs() * 1_000_003L + reader.maxDoc();
            for (Work w : mix) {
                AtomicInteger next = new AtomicInteger();
                sum = sum * 31 + (w.queries() != null ? search(searcher, w.queries(), next)
                        : fetch(reader, w.fetches(), next));
            }
            return sum;
        }
    }

    /** Reads every index file once through the page cache. */
    static void warm(Index index) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
        for (Path f : index.files()) {
            try (FileChannel ch = FileChannel.open(f)) {
                long pos = 0;
                int n;
                while ((n = ch.read(buffer.clear(), pos)) > 0) {
                    pos += n;
                }
            }
        }
    }

    /** Builds (or finds) the index, measures every cell, deletes the index unless asked to keep it. */
    static Run run(Options o, PrintWriter log) throws IOException {
        return run(o, log, NOTHING);
    }

    static Run run(Options o, PrintWriter log, AfterIndexing after) throws IOException {
        long t0 = System.nanoTime();
        log.printf(Locale.ROOT, "indexing %s of generated text (seed %d) under %s%n",
                o.docs() > 0 ? String.format(Locale.ROOT, "%,d documents", o.docs())
                        : String.format(Locale.ROOT, "%,d bytes", o.size()), o.seed(), o.dir());
        log.flush();
        Index index = build(o, log);
        List<Contender> contenders = contenders(o, log);
        if (o.engines().contains(Engine.AUTO) && Engine.AUTO.isAvailable()) {
            log.println("AUTO: " + Engine.autoThresholds());
        }
        Corpus corpus = new Corpus(o.seed());
        Map<String, Work> works = new LinkedHashMap<>();
        for (String w : o.workloads()) {
            if (!w.equals(INDEX)) {
                works.put(w, work(w, corpus, o.queries(), index.docs(), o.seed()));
            }
        }
        List<Result> results = new ArrayList<>();
        int maxThreads = o.threads().stream().mapToInt(Integer::intValue).max().orElse(1);
        ExecutorService pool = Executors.newFixedThreadPool(maxThreads);
        try {
            // Untimed passes of each row and workload at each thread count, so that no row's first samples also
            // compile the code every row runs (a first run with one pass left the first warm cells at half the rate
            // of later ones); they also show early that the rows agree.
            log.printf(Locale.ROOT, "rehearsal: every row at each thread count, warm (%.0f s elapsed)%n",
                    (System.nanoTime() - t0) / 1e9);
            log.flush();
            warm(index);
            Map<String, Long> expected = new LinkedHashMap<>();
            for (Work w : works.values()) {
                for (int threads : o.threads()) {
                    for (Contender c : contenders) {
                        check(expected, w.workload(), c, pass(c, index, w, threads, pool));
                    }
                }
            }
            boolean canDrop = CacheAdvice.isSupported();
            for (String cache : o.caches()) {
                if (cache.equals(COLD) && !canDrop) {
                    log.println("cold rows skipped: posix_fadvise needs Linux and native access for io.sluice.core");
                    continue;
                }
                for (Work w : works.values()) {
                    for (int threads : o.threads()) {
                        log.printf(Locale.ROOT, "%s, %s, %d thread%s (%.0f s elapsed)%n", w.workload(), cache, threads,
                                threads == 1 ? "" : "s", (System.nanoTime() - t0) / 1e9);
                        log.flush();
                        if (cache.equals(WARM)) {
                            warm(index);
                        }
                        Map<Contender, List<Sample>> samples = new LinkedHashMap<>();
                        contenders.forEach(c -> samples.put(c, new ArrayList<>()));
                        for (int round = 0; round < o.rounds(); round++) {
                            for (int k = 0; k < contenders.size(); k++) {
                                Contender c = contenders.get((k + round) % contenders.size());
                                if (cache.equals(COLD)) {
                                    for (Path f : index.files()) {
                                        CacheAdvice.drop(f);
                                    }
                                }
                                Sample s = pass(c, index, w, threads, pool);
                                check(expected, w.workload(), c, s);
                                samples.get(c).add(s);
                            }
                        }
                        for (var e : samples.entrySet()) {
                            results.add(new Result(e.getKey(), w.workload(), cache, threads, e.getValue()));
                        }
                    }
                }
            }
            if (o.workloads().contains(INDEX)) {
                log.printf(Locale.ROOT, "%s (%.0f s elapsed)%n", INDEX, (System.nanoTime() - t0) / 1e9);
                log.flush();
                results.addAll(indexRows(o, contenders, log, after));
            }
        } finally {
            pool.shutdownNow();
            if (!o.keep()) {
                deleteTree(index.path());
            }
        }
        log.printf(Locale.ROOT, "measured in %.0f s%n", (System.nanoTime() - t0) / 1e9);
        log.flush();
        return new Run(index, results);
    }

    static void check(Map<String, Long> expected, String workload, Contender c, Sample s) throws IOException {
        Long want = expected.putIfAbsent(workload, s.checksum());
        if (want != null && want != s.checksum()) {
            throw new IOException(workload + " on " + c.name() + " gave checksum " + s.checksum() + ", the first row "
                    + want + ": the rows disagree about the index's contents");
        }
    }

    // ---------------------------------------------------------------- output

    private static Result baseline(List<Result> results, Result r) {
        for (Result b : results) {
            if (b.contender().name().equals(r.contender().baseline()) && b.workload().equals(r.workload())
                    && b.cache().equals(r.cache()) && b.threads() == r.threads()) {
                return b;
            }
        }
        return null;
    }

    /** One table, a line per row and cell: queries per second, spread, and the ratio to the JDK's directory. */
    static void table(List<Result> results, PrintWriter out) {
        out.printf(Locale.ROOT, "%-19s %-5s %7s %-29s %10s %8s %7s%n", "workload", "cache", "threads", "row",
                "queries/s", "spread", "x jdk");
        for (Result r : results) {
            Result b = baseline(results, r);
            out.printf(Locale.ROOT, "%-19s %-5s %7d %-29s %10.0f %7.1f%% %7.2f%n", r.workload(), r.cache(),
                    r.threads(), r.contender().name(), r.median(), r.spread() * 100,
                    b == null ? Double.NaN : r.median() / b.median());
        }
        out.println();
        out.println("queries/s: median over rounds of operations per second of wall time (lucene-fetch: pages of "
                + PAGE + " documents' stored fields and doc values; " + INDEX + ": documents indexed and committed).");
        out.println("spread: (max - min) / median. x jdk: the median over the same Lucene directory's on the JDK's "
                + "default file system, in the same cell, measured side by side.");
        out.flush();
    }

    /**
     * The rows in the schema of the other sections: {@code engine} the row's name, {@code workload},
     * {@code opsPerMs} operations per ms (queries, or pages fetched), {@code cache} warm or cold, {@code baseline} the
     * JDK's row of the same directory and {@code ratioToBaseline}; of its own, {@code directory}, {@code fileSystem}
     * ({@code jdk} or {@code sluice}), {@code sluiceEngine}, {@code docs} and {@code indexBytes} (the searched index;
     * for {@code lucene-index} rows the documents each wrote, and null).
     */
    static void json(List<Result> results, Index index, PrintWriter out) {
        List<String> lines = new ArrayList<>();
        for (Result r : results) {
            Result b = baseline(results, r);
            Contender c = r.contender();
            boolean indexing = r.workload().equals(INDEX);
            lines.add(String.format(Locale.ROOT, "  {\"engine\": \"%s\", \"workload\": \"%s\", \"blockSize\": 0, "
                            + "\"threads\": %d, \"opsPerMs\": %.4f, \"mbPerSec\": null, \"spread\": %.4f, "
                            + "\"rounds\": %d, \"opsPerMsMin\": %.4f, \"opsPerMsMax\": %.4f, \"ratioToClassic\": null, "
                            + "\"fioReference\": null, \"ratioToFio\": null, \"direct\": false, \"depth\": 1, "
                            + "\"baseline\": \"%s\", \"ratioToBaseline\": %s, \"cache\": \"%s\", \"directory\": \"%s\", "
                            + "\"fileSystem\": \"%s\", \"sluiceEngine\": %s, \"docs\": %d, \"indexBytes\": %s}",
                    c.name(), r.workload(), r.threads(), r.median() / 1000, r.spread(), r.samples().size(),
                    r.min() / 1000, r.max() / 1000, c.baseline(),
                    b == null ? "null" : String.format(Locale.ROOT, "%.4f", r.median() / b.median()), r.cache(),
                    c.directory(), c.engine() == null ? "jdk" : "sluice",
                    c.engine() == null ? "null" : "\"" + c.engine().name() + "\"",
                    // An indexing row's own index is deleted after each sample: its documents, and no searched bytes.
                    indexing ? r.samples().get(0).ops() : index.docs(), indexing ? "null" : index.bytes()));
        }
        out.println("[");
        out.println(String.join(",\n", lines));
        out.println("]");
        out.flush();
    }

    // ---------------------------------------------------------------- command line

    static final String USAGE = "Usage: sluice bench lucene [--size BYTES (256m)] [--index-size BYTES (64m)]"
            + " [--docs N] [--seed N (26)] [--rounds N (3)] [--queries N (1000)] [--threads 1,2] [--cache warm,cold]"
            + " [--workload lucene-term,lucene-phrase-bool,lucene-fetch,lucene-index] [--directories mmap,niofs]"
            + " [--engines auto,mmap,channel,io_uring|none] [--dir DIR] [--json FILE|-] [--keep]\n"
            + "--size: the searched index's text. 256 MiB, not the 1 GB the issue names: on 2 cores that corpus"
            + " takes about 4 minutes to index once and its searches outgrow a run of minutes; the ratios are the"
            + " point, and --size 1g runs it.\n"
            + "--index-size: the text each lucene-index row writes, every row in every round (10 rows, 3 rounds:"
            + " 30 indexings), the first documents of the same corpus. --docs sets both.";

    /**
     * The command line: {@link #USAGE}. {@code --size} is the corpus's text, {@code --docs} a document count instead;
     * with {@code --keep} the index stays in DIR, and a later run with the same size (or count) and seed reuses it.
     */
    public static void main(String[] args) throws IOException {
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        int code = run(args, out, err);
        if (code != 0) {
            System.exit(code);
        }
    }

    /** Runs the command line; 0 when it ran, 2 for a wrong option (said on {@code err}). */
    static int run(String[] args, PrintWriter out, PrintWriter err) throws IOException {
        return run(args, out, err, NOTHING);
    }

    static int run(String[] args, PrintWriter out, PrintWriter err, AfterIndexing after) throws IOException {
        Options o;
        Path json = null;
        try {
            Path dir = Path.of(System.getProperty("java.io.tmpdir"), "sluice-lucene-bench");
            long size = 256L << 20;
            long indexSize = 64L << 20;
            int docs = 0;
            long seed = 26;
            int rounds = 3;
            int queries = 1000;
            List<Integer> threads = List.of(1, 2);
            List<String> caches = List.of(WARM, COLD);
            List<String> workloads = List.of(TERM, PHRASE_BOOL, FETCH, INDEX);
            List<String> directories = List.of(MMAP_DIRECTORY, NIOFS_DIRECTORY);
            List<Engine> engines = List.of(Engine.AUTO, Engine.MMAP, Engine.CHANNEL, Engine.IO_URING);
            boolean keep = false;
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "--size" -> size = bytes(value(args, ++i, a));
                    case "--index-size" -> indexSize = bytes(value(args, ++i, a));
                    case "--docs" -> docs = positive(value(args, ++i, a), a);
                    case "--seed" -> seed = Long.parseLong(value(args, ++i, a).trim());
                    case "--rounds" -> rounds = positive(value(args, ++i, a), a);
                    case "--queries" -> queries = positive(value(args, ++i, a), a);
                    case "--threads" -> threads = Arrays.stream(value(args, ++i, a).split(","))
                            .map(s -> positive(s, "--threads")).toList();
                    case "--cache" -> caches = choices(value(args, ++i, a), a, WARM, COLD);
                    case "--workload" -> workloads = choices(value(args, ++i, a), a, TERM, PHRASE_BOOL, FETCH,
                            INDEX);
                    case "--directories" -> directories = choices(value(args, ++i, a), a, "mmap", "niofs").stream()
                            .map(d -> d.equals("mmap") ? MMAP_DIRECTORY : NIOFS_DIRECTORY).toList();
                    // none: the JDK's rows alone, a baseline to subtract when counting a Sluice row's system calls.
                    case "--engines" -> engines = value(args, ++i, a).trim().equals("none") ? List.of()
                            : Arrays.stream(value(args, i, a).split(",")).map(Engine::parse).distinct().toList();
                    case "--dir" -> dir = Path.of(value(args, ++i, a));
                    case "--json" -> json = Path.of(value(args, ++i, a));
                    case "--keep" -> keep = true;
                    case "-h", "--help" -> {
                        out.println(USAGE);
                        return 0;
                    }
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
            o = new Options(dir, size, docs, indexSize, seed, rounds, queries, threads, caches, workloads, directories,
                    engines, keep);
        } catch (IllegalArgumentException e) {
            err.println("sluice bench lucene: " + e.getMessage() + "; see 'sluice bench lucene --help'");
            return 2;
        }
        err.printf(Locale.ROOT, "Java %s, %s %s %s, %d cores%n", Runtime.version(), System.getProperty("os.name"),
                System.getProperty("os.version"), System.getProperty("os.arch"),
                Runtime.getRuntime().availableProcessors());
        Run run = run(o, err, after);
        List<Result> results = run.results();
        Index index = run.index();
        boolean jsonToStdout = json != null && json.toString().equals("-");
        if (jsonToStdout) {
            json(results, index, out);
        } else {
            table(results, out);
        }
        if (json != null && !jsonToStdout) {
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(json, StandardCharsets.UTF_8))) {
                json(results, index, w);
            }
            err.println("wrote " + json);
        }
        return 0;
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static int positive(String s, String option) {
        int v;
        try {
            v = Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a whole number: " + s);
        }
        if (v <= 0) {
            throw new IllegalArgumentException(option + " must be positive: " + s);
        }
        return v;
    }

    private static List<String> choices(String s, String option, String... allowed) {
        List<String> v = Arrays.stream(s.split(",")).map(String::trim).toList();
        for (String c : v) {
            if (!Arrays.asList(allowed).contains(c)) {
                throw new IllegalArgumentException(option + ": " + c + " is not one of " + Arrays.toString(allowed));
            }
        }
        return v;
    }

    /** A size such as {@code 256m}, {@code 1g}, {@code 64k} or a plain byte count. */
    static long bytes(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        long unit = switch (t.isEmpty() ? ' ' : t.charAt(t.length() - 1)) {
            case 'k' -> 1L << 10;
            case 'm' -> 1L << 20;
            case 'g' -> 1L << 30;
            default -> 1;
        };
        long v;
        try {
            v = Long.parseLong(unit == 1 ? t : t.substring(0, t.length() - 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--size must be a byte count such as 256m: " + s);
        }
        if (v <= 0) {
            throw new IllegalArgumentException("--size must be positive: " + s);
        }
        return v * unit;
    }
}
