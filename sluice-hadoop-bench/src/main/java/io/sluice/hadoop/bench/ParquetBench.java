package io.sluice.hadoop.bench;

import io.sluice.chunks.CacheAdvice;
import io.sluice.hadoop.SluiceLocalFileSystem;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetInputFormat;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * {@code sluice bench parquet}: a lineitem-like Parquet dataset (TPC-H's sixteen columns, generated here), scanned
 * with parquet-java's {@link ParquetFileReader} through Hadoop's {@link RawLocalFileSystem} ({@code raw}), through
 * {@link SluiceLocalFileSystem} ({@code sluice}) and, cold only, through it with O_DIRECT vectored reads
 * ({@code sluice-direct}).
 *
 * <p>A scan reads every row group and every page of the columns asked for: all sixteen
 * ({@code parquet-all}), or the four of TPC-H's query 6 ({@code parquet-subset}: quantity, extended price, discount,
 * ship date), the case where Parquet asks for several ranges of a row group at once through {@code readVectored}
 * (on by default, {@value ParquetInputFormat#HADOOP_VECTORED_IO_ENABLED}). Records are not assembled. parquet-java
 * decompresses a Snappy or gzip page only when its bytes are asked for, so by default the work measured is the file
 * system's (the footer, the column chunks, the page headers); with {@code --decompress} every page's bytes are
 * produced too, as a reader that goes on to decode values would, and the decompression is measured with the reading.
 *
 * <p>Each cell (workload, cache, threads) runs every contender once per round, the order rotated each round; a cold
 * round first drops every file's pages ({@code posix_fadvise(DONTNEED)}, then {@code mincore} checks that none is left),
 * a warm one follows a scan that loaded them. Each scan's bytes read (by system calls, and from the device) are
 * taken from {@code /proc/self/io}, so both contenders can be seen to read the same.
 * Threads take whole files from a shared counter. The rows go out in the common JSON of the other sections.
 */
public final class ParquetBench {
    static final String RAW = "raw";
    static final String SLUICE = "sluice";
    static final String SLUICE_DIRECT = "sluice-direct";
    static final String ALL = "parquet-all";
    static final String SUBSET = "parquet-subset";
    static final String WARM = "warm";
    static final String COLD = "cold";

    static final MessageType SCHEMA = MessageTypeParser.parseMessageType("""
            message lineitem {
              required int64 l_orderkey;
              required int64 l_partkey;
              required int64 l_suppkey;
              required int32 l_linenumber;
              required double l_quantity;
              required double l_extendedprice;
              required double l_discount;
              required double l_tax;
              required binary l_returnflag (STRING);
              required binary l_linestatus (STRING);
              required int32 l_shipdate (DATE);
              required int32 l_commitdate (DATE);
              required int32 l_receiptdate (DATE);
              required binary l_shipinstruct (STRING);
              required binary l_shipmode (STRING);
              required binary l_comment (STRING);
            }""");
    static final MessageType Q6 = MessageTypeParser.parseMessageType("""
            message lineitem {
              required double l_quantity;
              required double l_extendedprice;
              required double l_discount;
              required int32 l_shipdate (DATE);
            }""");

    private static final String[] INSTRUCT = {"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"};
    private static final String[] MODE = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};
    private static final String[] WORDS = {"furiously", "quickly", "carefully", "blithely", "slyly", "regular",
        "express", "final", "pending", "ironic", "even", "bold", "special", "deposits", "requests", "accounts",
        "packages", "theodolites", "pinto", "beans", "foxes", "instructions", "asymptotes", "dependencies"};

    /** What to run. */
    record Options(Path dir, long size, int files, int rounds, List<Integer> threads, List<String> caches,
                   List<String> workloads, CompressionCodecName codec, boolean keep, boolean decompress) {
    }

    /**
     * One scan's figures: {@code pageBytes} the pages' uncompressed sizes as their headers give them,
     * {@code decompressed} the bytes decompression actually produced (0 unless asked to decompress);
     * {@code readBytes} and {@code deviceBytes} what the JVM read meanwhile ({@link #procIo()}: bytes that read
     * system calls returned, bytes the block device was asked for), -1 where unknown.
     */
    record Sample(long rows, long pageBytes, long decompressed, long nanos, long readBytes, long deviceBytes) {
        Sample(long rows, long pageBytes, long decompressed, long nanos) {
            this(rows, pageBytes, decompressed, nanos, -1, -1);
        }
    }

    /** The samples of one contender in one cell. */
    record Result(String contender, String workload, String cache, int threads, List<Sample> samples) {
        double rowsPerMs(Sample s) {
            return s.rows() / (s.nanos() / 1e6);
        }

        double median() {
            double[] v = samples.stream().mapToDouble(this::rowsPerMs).sorted().toArray();
            int n = v.length;
            return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        }

        double mbPerSec() {
            double[] v = samples.stream().mapToDouble(s -> s.pageBytes() / (s.nanos() / 1e9) / 1e6).sorted()
                    .toArray();
            int n = v.length;
            return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        }

        /** The median over rounds of a figure of the samples. */
        long medianOf(java.util.function.ToLongFunction<Sample> figure) {
            long[] v = samples.stream().mapToLong(figure).sorted().toArray();
            int n = v.length;
            return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        }

        double spread() {
            double[] v = samples.stream().mapToDouble(this::rowsPerMs).toArray();
            return (Arrays.stream(v).max().orElse(0) - Arrays.stream(v).min().orElse(0)) / median();
        }
    }

    private ParquetBench() {
    }

    /**
     * Writes the dataset: {@code files} files of about {@code size / files} bytes each, several at once (one per
     * core), and returns their paths in file order. A file's rows depend on its index alone (its own random seed,
     * its order keys from {@code index * 2^32 + 1}), so a kept file and one written again agree whatever else ran.
     */
    static List<Path> write(Options o, PrintWriter log) throws IOException {
        Files.createDirectories(o.dir());
        long target = Math.max(1, o.size() / o.files());
        List<Path> files = new ArrayList<>();
        List<Integer> missing = new ArrayList<>();
        for (int f = 0; f < o.files(); f++) {
            // The name says what the file holds, so a kept dataset is reused only by a run that asks for the same.
            Path file = o.dir().resolve(String.format(Locale.ROOT, "lineitem-%d-%s-%03d-of-%03d.parquet", o.size(),
                    o.codec().name().toLowerCase(Locale.ROOT), f, o.files()));
            files.add(file);
            if (o.keep() && Files.isRegularFile(file)) {
                log.printf(Locale.ROOT, "  %s %,d bytes (kept from an earlier run)%n", file.getFileName(),
                        Files.size(file));
            } else {
                missing.add(f);
            }
        }
        if (missing.isEmpty()) {
            return files;
        }
        // parquet-hadoop encodes and compresses a file on the thread that writes it: files in parallel use every core.
        int threads = Math.min(missing.size(), Runtime.getRuntime().availableProcessors());
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> parts = new ArrayList<>();
            for (int f : missing) {
                parts.add(pool.submit(() -> {
                    writeFile(files.get(f), f, target, o.codec());
                    synchronized (log) {
                        log.printf(Locale.ROOT, "  %s %,d bytes%n", files.get(f).getFileName(),
                                Files.size(files.get(f)));
                        log.flush();
                    }
                    return null;
                }));
            }
            for (Future<?> part : parts) {
                part.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while writing the dataset under " + o.dir(), e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException("writing the dataset under " + o.dir() + " failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
        return files;
    }

    /** Writes file number {@code index}: whole orders until the writer holds {@code target} bytes. */
    private static void writeFile(Path file, int index, long target, CompressionCodecName codec) throws IOException {
        // Written under another name and renamed when complete: a run cut short leaves no file to reuse.
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        SplittableRandom random = new SplittableRandom(28L * 1000 + index);
        LineItem item = new LineItem();
        long orderKey = ((long) index << 32) + 1;
        try (ParquetWriter<LineItem> writer = new LineItemWriter(new org.apache.hadoop.fs.Path(partial.toUri()))
                .withConf(conf(RAW)).withCompressionCodec(codec)
                .withWriteMode(ParquetFileWriter.Mode.OVERWRITE).build()) {
            long rows = 0;
            while (rows % 4096 != 0 || writer.getDataSize() < target) {
                int lines = 1 + random.nextInt(7);
                for (int line = 1; line <= lines; line++) {
                    item.next(random, orderKey, line);
                    writer.write(item);
                    rows++;
                }
                orderKey++;
            }
        } catch (IOException e) {
            throw new IOException("writing " + partial + ": " + e.getMessage(), e);
        }
        // Written through the page cache: synced now, so that a cold round's drop drops every page.
        try (var channel = java.nio.channels.FileChannel.open(partial)) {
            channel.force(false);
        }
        Files.move(partial, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * One line of an order, refilled in place for every row: the values of the sixteen columns, drawn from the
     * random source in a fixed order. The strings are bytes taken from constant tables (the comment's words joined
     * with spaces), not Java strings encoded again for every row.
     */
    static final class LineItem {
        private static final Binary[] INSTRUCT_BYTES = binaries(INSTRUCT);
        private static final Binary[] MODE_BYTES = binaries(MODE);
        private static final Binary[] FLAG_BYTES = binaries("R", "A", "N");
        private static final Binary OPEN = Binary.fromConstantByteArray("O".getBytes(StandardCharsets.US_ASCII));
        private static final Binary FILLED = Binary.fromConstantByteArray("F".getBytes(StandardCharsets.US_ASCII));
        private static final byte[][] WORD_BYTES = Arrays.stream(WORDS)
                .map(w -> w.getBytes(StandardCharsets.US_ASCII)).toArray(byte[][]::new);

        long orderKey;
        long partKey;
        long suppKey;
        int lineNumber;
        double quantity;
        double extendedPrice;
        double discount;
        double tax;
        Binary returnFlag;
        Binary lineStatus;
        int shipDate;
        int commitDate;
        int receiptDate;
        Binary shipInstruct;
        Binary shipMode;
        Binary comment;
        private final int[] words = new int[6];

        void next(SplittableRandom r, long order, int line) {
            shipDate = 8036 + r.nextInt(2526); // 1992-01-02 .. 1998-12-01 in days since 1970
            quantity = 1 + r.nextInt(50);
            extendedPrice = quantity * (900 + r.nextInt(100_000) / 100.0);
            int count = 2 + r.nextInt(5);
            int length = count - 1;
            for (int w = 0; w < count; w++) {
                words[w] = r.nextInt(WORDS.length);
                length += WORD_BYTES[words[w]].length;
            }
            // A new array per row: the dictionary and the statistics keep the values they are given.
            byte[] text = new byte[length];
            for (int w = 0, at = 0; w < count; w++) {
                if (w > 0) {
                    text[at++] = ' ';
                }
                byte[] word = WORD_BYTES[words[w]];
                System.arraycopy(word, 0, text, at, word.length);
                at += word.length;
            }
            comment = Binary.fromConstantByteArray(text);
            orderKey = order;
            partKey = 1 + r.nextLong(200_000);
            suppKey = 1 + r.nextLong(10_000);
            lineNumber = line;
            discount = r.nextInt(11) / 100.0;
            tax = r.nextInt(9) / 100.0;
            returnFlag = FLAG_BYTES[r.nextInt(3)];
            lineStatus = r.nextBoolean() ? OPEN : FILLED;
            commitDate = shipDate - 30 + r.nextInt(60);
            receiptDate = shipDate + 1 + r.nextInt(30);
            shipInstruct = INSTRUCT_BYTES[r.nextInt(INSTRUCT.length)];
            shipMode = MODE_BYTES[r.nextInt(MODE.length)];
        }

        private static Binary[] binaries(String... values) {
            return Arrays.stream(values).map(v -> Binary.fromConstantByteArray(v.getBytes(StandardCharsets.US_ASCII)))
                    .toArray(Binary[]::new);
        }
    }

    /** Hands a {@link LineItem}'s values to Parquet's record consumer field by field, in {@link #SCHEMA}'s order. */
    private static final class LineItemSupport extends WriteSupport<LineItem> {
        private RecordConsumer out;

        @Override
        public WriteContext init(Configuration configuration) {
            return new WriteContext(SCHEMA, Map.of());
        }

        @Override
        public String getName() {
            return "sluice-lineitem";
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            out = recordConsumer;
        }

        @Override
        public void write(LineItem l) {
            out.startMessage();
            field(0, "l_orderkey").addLong(l.orderKey);
            end(0, "l_orderkey");
            field(1, "l_partkey").addLong(l.partKey);
            end(1, "l_partkey");
            field(2, "l_suppkey").addLong(l.suppKey);
            end(2, "l_suppkey");
            field(3, "l_linenumber").addInteger(l.lineNumber);
            end(3, "l_linenumber");
            field(4, "l_quantity").addDouble(l.quantity);
            end(4, "l_quantity");
            field(5, "l_extendedprice").addDouble(l.extendedPrice);
            end(5, "l_extendedprice");
            field(6, "l_discount").addDouble(l.discount);
            end(6, "l_discount");
            field(7, "l_tax").addDouble(l.tax);
            end(7, "l_tax");
            field(8, "l_returnflag").addBinary(l.returnFlag);
            end(8, "l_returnflag");
            field(9, "l_linestatus").addBinary(l.lineStatus);
            end(9, "l_linestatus");
            field(10, "l_shipdate").addInteger(l.shipDate);
            end(10, "l_shipdate");
            field(11, "l_commitdate").addInteger(l.commitDate);
            end(11, "l_commitdate");
            field(12, "l_receiptdate").addInteger(l.receiptDate);
            end(12, "l_receiptdate");
            field(13, "l_shipinstruct").addBinary(l.shipInstruct);
            end(13, "l_shipinstruct");
            field(14, "l_shipmode").addBinary(l.shipMode);
            end(14, "l_shipmode");
            field(15, "l_comment").addBinary(l.comment);
            end(15, "l_comment");
            out.endMessage();
        }

        private RecordConsumer field(int index, String name) {
            out.startField(name, index);
            return out;
        }

        private void end(int index, String name) {
            out.endField(name, index);
        }
    }

    /** parquet-hadoop's writer builder for {@link LineItem}s: its defaults (row groups, pages, dictionaries) kept. */
    private static final class LineItemWriter extends ParquetWriter.Builder<LineItem, LineItemWriter> {
        LineItemWriter(org.apache.hadoop.fs.Path path) {
            super(path);
        }

        @Override
        protected LineItemWriter self() {
            return this;
        }

        @Override
        protected WriteSupport<LineItem> getWriteSupport(Configuration conf) {
            return new LineItemSupport();
        }
    }

    /**
     * The configuration of a contender: which class serves {@code file:}, uncached so that each scan gets it, and
     * {@code SluiceLocalFileSystem}'s vectored-read settings ({@code fs.sluice.vectored.read.*}) where a system
     * property of the same name gives them, so that a run can compare them without a rebuild
     * ({@code SLUICE_JAVA_OPTS=-Dfs.sluice.vectored.read.willneed=false ./sluice bench parquet ...}).
     */
    static Configuration conf(String contender) {
        Configuration conf = new Configuration();
        conf.set("fs.file.impl", switch (contender) {
            case RAW -> RawLocalFileSystem.class.getName();
            case SLUICE, SLUICE_DIRECT -> SluiceLocalFileSystem.class.getName();
            default -> throw new IllegalArgumentException("unknown contender " + contender);
        });
        conf.setBoolean("fs.file.impl.disable.cache", true);
        conf.setBoolean(SluiceLocalFileSystem.DIRECT, contender.equals(SLUICE_DIRECT));
        conf.setBoolean(ParquetInputFormat.HADOOP_VECTORED_IO_ENABLED, true);
        for (String key : List.of(SluiceLocalFileSystem.WILLNEED, SluiceLocalFileSystem.PIECE, SluiceLocalFileSystem.MIN_SEEK,
                SluiceLocalFileSystem.MAX_MERGED)) {
            String value = System.getProperty(key);
            if (value != null) {
                conf.set(key, value);
            }
        }
        return conf;
    }

    /**
     * Reads every row group of {@code file}, every page of the columns of {@code projection}, and with
     * {@code decompress} the bytes of each (parquet-java decompresses a page lazily, when they are asked for).
     */
    static Sample scan(Configuration conf, Path file, MessageType projection, boolean decompress) throws IOException {
        long t0 = System.nanoTime();
        long rows = 0;
        long bytes = 0;
        long produced = 0;
        org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.toUri());
        try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(path, conf))) {
            reader.setRequestedSchema(projection);
            PageReadStore group;
            while ((group = reader.readNextRowGroup()) != null) {
                rows += group.getRowCount();
                for (ColumnDescriptor column : projection.getColumns()) {
                    PageReader pages = group.getPageReader(column);
                    DictionaryPage dictionary = pages.readDictionaryPage();
                    if (dictionary != null) {
                        bytes += dictionary.getUncompressedSize();
                        if (decompress) {
                            produced += dictionary.getBytes().toByteBuffer().remaining();
                        }
                    }
                    DataPage page;
                    while ((page = pages.readPage()) != null) {
                        bytes += page.getUncompressedSize();
                        if (decompress) {
                            produced += page.accept(PAGE_BYTES);
                        }
                    }
                }
            }
        }
        return new Sample(rows, bytes, produced, System.nanoTime() - t0);
    }

    /** The bytes of a data page, decompressed if they were compressed: their length. */
    private static final DataPage.Visitor<Long> PAGE_BYTES = new DataPage.Visitor<>() {
        @Override
        public Long visit(DataPageV1 page) {
            return bytes(page.getBytes());
        }

        @Override
        public Long visit(DataPageV2 page) {
            return bytes(page.getData()) + bytes(page.getRepetitionLevels()) + bytes(page.getDefinitionLevels());
        }

        private long bytes(org.apache.parquet.bytes.BytesInput in) {
            try {
                return in.toByteBuffer().remaining();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("decompressing a page: " + e.getMessage(), e);
            }
        }
    };

    /** Scans every file with {@code threads} threads taking files from a counter; one sample for the whole set. */
    static Sample scanAll(String contender, List<Path> files, MessageType projection, int threads,
            boolean decompress, ExecutorService pool) throws IOException {
        Configuration conf = conf(contender);
        AtomicInteger next = new AtomicInteger();
        long[] io0 = procIo();
        long t0 = System.nanoTime();
        List<Future<long[]>> parts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            parts.add(pool.submit(() -> {
                long rows = 0;
                long bytes = 0;
                long produced = 0;
                for (int i = next.getAndIncrement(); i < files.size(); i = next.getAndIncrement()) {
                    Sample s = scan(conf, files.get(i), projection, decompress);
                    rows += s.rows();
                    bytes += s.pageBytes();
                    produced += s.decompressed();
                }
                return new long[] {rows, bytes, produced};
            }));
        }
        long rows = 0;
        long bytes = 0;
        long produced = 0;
        for (Future<long[]> part : parts) {
            try {
                long[] v = part.get();
                rows += v[0];
                bytes += v[1];
                produced += v[2];
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while scanning with " + contender, e);
            } catch (ExecutionException e) {
                throw new IOException(contender + " scan failed: " + e.getCause(), e.getCause());
            }
        }
        long nanos = System.nanoTime() - t0;
        long[] io1 = procIo();
        return new Sample(rows, bytes, produced, nanos, io0[0] < 0 || io1[0] < 0 ? -1 : io1[0] - io0[0],
                io0[1] < 0 || io1[1] < 0 ? -1 : io1[1] - io0[1]);
    }

    /**
     * This JVM's I/O so far from {@code /proc/self/io}: {@code rchar}, the bytes read system calls returned
     * ({@code read}, {@code pread}, {@code readv}, whether from the cache or the device; io_uring's reads and page
     * faults of mappings are not counted), and {@code read_bytes}, the bytes the block layer was asked to fetch for
     * it (read-ahead and {@code WILLNEED} included, O_DIRECT too). {@code {-1, -1}} where the file cannot be read.
     */
    static long[] procIo() {
        long rchar = -1;
        long device = -1;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
                if (line.startsWith("rchar:")) {
                    rchar = Long.parseLong(line.substring(6).trim());
                } else if (line.startsWith("read_bytes:")) {
                    device = Long.parseLong(line.substring(11).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            return new long[] {-1, -1};
        }
        return new long[] {rchar, device};
    }

    /**
     * Drops every file's pages and checks with {@code mincore} that none stayed: a cold round that found part of a
     * file cached would measure the cache. One more drop is tried before giving up.
     *
     * @throws IOException naming the file when pages stay resident after two drops
     */
    static void dropAll(List<Path> files) throws IOException {
        for (Path file : files) {
            CacheAdvice.drop(file);
            if (PageCache.isSupported() && PageCache.residentBytes(file) > 0) {
                CacheAdvice.drop(file);
                long left = PageCache.residentBytes(file);
                if (left > 0) {
                    throw new IOException(file + ": " + left + " bytes still in the page cache after "
                            + "posix_fadvise(DONTNEED) (mapped or locked by another process?): a cold round would "
                            + "read them from memory");
                }
            }
        }
    }

    /** The bytes of the files in the page cache, or -1 where that cannot be asked. */
    static long residentBytes(List<Path> files) throws IOException {
        if (!PageCache.isSupported()) {
            return -1;
        }
        long sum = 0;
        for (Path file : files) {
            sum += PageCache.residentBytes(file);
        }
        return sum;
    }

    /** Writes the dataset, measures every cell, deletes the dataset unless asked to keep it. */
    static List<Result> run(Options o, PrintWriter log) throws IOException {
        long t0 = System.nanoTime();
        log.printf(Locale.ROOT, "writing about %,d bytes of lineitem in %d files (%s) under %s%n", o.size(),
                o.files(), o.codec(), o.dir());
        log.flush();
        List<Path> files = write(o, log);
        List<Result> results = new ArrayList<>();
        int maxThreads = o.threads().stream().mapToInt(Integer::intValue).max().orElse(1);
        ExecutorService pool = Executors.newFixedThreadPool(maxThreads);
        try {
            boolean canDrop = CacheAdvice.isSupported();
            // One untimed scan of the first file per contender and projection: class loading and the first
            // compilations (a second or more) otherwise fall on whichever contender the first round puts first.
            List<String> everyone = new ArrayList<>(List.of(RAW, SLUICE));
            if (o.caches().contains(COLD) && canDrop) {
                everyone.add(SLUICE_DIRECT);
            }
            for (String contender : everyone) {
                for (String workload : o.workloads()) {
                    scan(conf(contender), files.get(0), workload.equals(ALL) ? SCHEMA : Q6, o.decompress());
                }
            }
            for (String cache : o.caches()) {
                if (cache.equals(COLD) && !canDrop) {
                    log.println("cold rows skipped: posix_fadvise needs Linux and native access for io.sluice.core");
                    continue;
                }
                for (String workload : o.workloads()) {
                    MessageType projection = workload.equals(ALL) ? SCHEMA : Q6;
                    for (int threads : o.threads()) {
                        List<String> contenders = new ArrayList<>(List.of(RAW, SLUICE));
                        if (cache.equals(COLD)) {
                            contenders.add(SLUICE_DIRECT);
                        }
                        Map<String, List<Sample>> samples = new LinkedHashMap<>();
                        contenders.forEach(c -> samples.put(c, new ArrayList<>()));
                        log.printf(Locale.ROOT, "%s, %s, %d thread%s (%.0f s elapsed)%n", workload, cache, threads,
                                threads == 1 ? "" : "s", (System.nanoTime() - t0) / 1e9);
                        log.flush();
                        if (cache.equals(WARM)) {
                            scanAll(RAW, files, SCHEMA, maxThreads, false, pool); // loads every page
                            long total = 0;
                            for (Path file : files) {
                                total += Files.size(file);
                            }
                            log.printf(Locale.ROOT, "  %,d of the files' %,d bytes in the page cache%n",
                                    residentBytes(files), total);
                        }
                        for (int round = 0; round < o.rounds(); round++) {
                            for (int k = 0; k < contenders.size(); k++) {
                                String contender = contenders.get((k + round) % contenders.size());
                                if (cache.equals(COLD)) {
                                    dropAll(files);
                                }
                                samples.get(contender).add(scanAll(contender, files, projection, threads, o.decompress(), pool));
                            }
                        }
                        long rows = samples.get(RAW).get(0).rows();
                        for (var e : samples.entrySet()) {
                            for (Sample s : e.getValue()) {
                                if (s.rows() != rows) {
                                    throw new IOException(e.getKey() + " scanned " + s.rows() + " rows, " + RAW
                                            + " " + rows + ": the contenders disagree about the dataset");
                                }
                            }
                            results.add(new Result(e.getKey(), workload, cache, threads, e.getValue()));
                        }
                    }
                }
            }
        } finally {
            pool.shutdownNow();
            if (!o.keep()) {
                for (Path file : files) {
                    Files.deleteIfExists(file);
                }
            }
        }
        log.printf(Locale.ROOT, "measured in %.0f s%n", (System.nanoTime() - t0) / 1e9);
        log.flush();
        return results;
    }

    private static Result baseline(List<Result> results, Result r) {
        for (Result b : results) {
            if (b.contender().equals(RAW) && b.workload().equals(r.workload()) && b.cache().equals(r.cache())
                    && b.threads() == r.threads()) {
                return b;
            }
        }
        return null;
    }

    /** One table, a line per contender and cell: rows per ms, decoded MB/s, spread and the ratio to {@code raw}. */
    static void table(List<Result> results, PrintWriter out) {
        out.printf(Locale.ROOT, "%-15s %-6s %7s %-14s %12s %10s %8s %8s %9s %9s %9s%n", "workload", "cache",
                "threads", "contender", "rows/ms", "MB/s", "spread", "x raw", "ms/round", "read MB", "device MB");
        for (Result r : results) {
            Result b = baseline(results, r);
            out.printf(Locale.ROOT, "%-15s %-6s %7d %-14s %12.0f %10.0f %7.1f%% %8.2f %9.0f %9.1f %9.1f%n",
                    r.workload(), r.cache(), r.threads(), r.contender(), r.median(), r.mbPerSec(), r.spread() * 100,
                    b == null ? Double.NaN : r.median() / b.median(), r.medianOf(Sample::nanos) / 1e6,
                    r.medianOf(Sample::readBytes) / 1e6, r.medianOf(Sample::deviceBytes) / 1e6);
        }
        out.println();
        out.println("rows/ms: median over rounds of the rows scanned per ms of wall time (every file, every row group).");
        out.println("MB/s: the page bytes of the columns read (uncompressed sizes; produced only with --decompress), per second.");
        out.println("spread: (max - min) / median.");
        out.println("x raw: the median over Hadoop's RawLocalFileSystem's in the same cell, measured side by side.");
        out.println("ms/round: median wall time of a round's scan of every file.");
        out.println("read MB: median per round of the bytes read system calls returned to the JVM (rchar; io_uring's");
        out.println("  reads, so sluice-direct's, and mapped reads are not in it); device MB: of the bytes the block");
        out.println("  device was asked for (read_bytes: read-ahead, WILLNEED and O_DIRECT included). /proc/self/io.");
        out.flush();
    }

    /**
     * The rows in the schema of the other sections: {@code engine} the contender, {@code workload}
     * {@code parquet-all} or {@code parquet-subset}, {@code opsPerMs} rows per ms, {@code mbPerSec} decoded page
     * bytes per second, {@code cache} warm or cold, {@code baseline} raw and {@code ratioToBaseline} the ratio to it;
     * per round (medians) {@code scanMs} the wall time, {@code readBytes} and {@code deviceBytes} the JVM's reads
     * ({@link #procIo()}, -1 where unknown).
     */
    static void json(List<Result> results, PrintWriter out) {
        List<String> lines = new ArrayList<>();
        for (Result r : results) {
            Result b = baseline(results, r);
            double[] v = r.samples().stream().mapToDouble(r::rowsPerMs).toArray();
            lines.add(String.format(Locale.ROOT, "  {\"engine\": \"%s\", \"workload\": \"%s\", \"blockSize\": 0, "
                            + "\"threads\": %d, \"opsPerMs\": %.3f, \"mbPerSec\": %.3f, \"spread\": %.4f, "
                            + "\"rounds\": %d, \"opsPerMsMin\": %.3f, \"opsPerMsMax\": %.3f, \"ratioToClassic\": null, "
                            + "\"fioReference\": null, \"ratioToFio\": null, \"direct\": %s, \"depth\": 1, "
                            + "\"baseline\": \"%s\", \"ratioToBaseline\": %s, \"cache\": \"%s\", "
                            + "\"scanMs\": %.1f, \"readBytes\": %d, \"deviceBytes\": %d}",
                    r.contender(), r.workload(), r.threads(), r.median(), r.mbPerSec(), r.spread(),
                    r.samples().size(), Arrays.stream(v).min().orElse(0), Arrays.stream(v).max().orElse(0),
                    r.contender().equals(SLUICE_DIRECT), RAW,
                    b == null ? "null" : String.format(Locale.ROOT, "%.4f", r.median() / b.median()), r.cache(),
                    r.medianOf(Sample::nanos) / 1e6, r.medianOf(Sample::readBytes), r.medianOf(Sample::deviceBytes)));
        }
        out.println("[");
        out.println(String.join(",\n", lines));
        out.println("]");
        out.flush();
    }

    /**
     * The command line: {@code [--size BYTES] [--files N] [--rounds N] [--threads 1,2] [--cache warm,cold]
     * [--workload parquet-all,parquet-subset] [--codec snappy] [--dir DIR] [--json FILE|-] [--keep] [--decompress]}.
     * With {@code --keep} the dataset stays in DIR, and a later run with the same size, file count and codec reads it
     * instead of writing it again; {@code --decompress} has every page's bytes produced (see the class comment).
     */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "sluice-parquet-bench");
        long size = 2_000_000_000L;
        int files = 8;
        int rounds = 3;
        List<Integer> threads = List.of(1, 2);
        List<String> caches = List.of(WARM, COLD);
        List<String> workloads = List.of(ALL, SUBSET);
        CompressionCodecName codec = CompressionCodecName.SNAPPY;
        Path json = null;
        boolean keep = false;
        boolean decompress = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--size" -> size = bytes(value(args, ++i, a));
                case "--files" -> files = positive(value(args, ++i, a), a);
                case "--rounds" -> rounds = positive(value(args, ++i, a), a);
                case "--threads" -> threads = Arrays.stream(value(args, ++i, a).split(","))
                        .map(s -> positive(s, "--threads")).toList();
                case "--cache" -> caches = choices(value(args, ++i, a), a, WARM, COLD);
                case "--workload" -> workloads = choices(value(args, ++i, a), a, ALL, SUBSET);
                case "--codec" -> codec = CompressionCodecName.valueOf(value(args, ++i, a).toUpperCase(Locale.ROOT));
                case "--dir" -> dir = Path.of(value(args, ++i, a));
                case "--json" -> json = Path.of(value(args, ++i, a));
                case "--keep" -> keep = true;
                case "--decompress" -> decompress = true;
                case "-h", "--help" -> {
                    System.out.println("Usage: sluice bench parquet [--size BYTES (2g)] [--files N (8)] [--rounds N (3)]"
                            + " [--threads 1,2] [--cache warm,cold] [--workload parquet-all,parquet-subset]"
                            + " [--codec snappy|zstd|gzip|uncompressed] [--dir DIR] [--json FILE|-] [--keep]"
                            + " [--decompress]");
                    return;
                }
                default -> throw new IllegalArgumentException("unknown option " + a + " (try --help)");
            }
        }
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        err.printf(Locale.ROOT, "Java %s, %s %s %s, %d cores%n", Runtime.version(), System.getProperty("os.name"),
                System.getProperty("os.version"), System.getProperty("os.arch"),
                Runtime.getRuntime().availableProcessors());
        List<Result> results = run(new Options(dir, size, files, rounds, threads, caches, workloads, codec, keep,
                decompress), err);
        boolean jsonToStdout = json != null && json.toString().equals("-");
        if (jsonToStdout) {
            json(results, out);
        } else {
            table(results, out);
        }
        if (json != null && !jsonToStdout) {
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(json, StandardCharsets.UTF_8))) {
                json(results, w);
            }
            err.println("wrote " + json);
        }
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static int positive(String s, String option) {
        int v = Integer.parseInt(s.trim());
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

    /** A size such as {@code 2g}, {@code 200m}, {@code 64k} or a plain byte count. */
    static long bytes(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        long unit = switch (t.isEmpty() ? ' ' : t.charAt(t.length() - 1)) {
            case 'k' -> 1L << 10;
            case 'm' -> 1L << 20;
            case 'g' -> 1L << 30;
            default -> 1;
        };
        long v = Long.parseLong(unit == 1 ? t : t.substring(0, t.length() - 1));
        if (v <= 0) {
            throw new IllegalArgumentException("--size must be positive: " + s);
        }
        return v * unit;
    }
}
