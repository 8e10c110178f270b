package io.sluice.bench;

import io.sluice.Engine;
import io.sluice.IoBatch;
import io.sluice.MappedWriter;
import io.sluice.PositionalFile;
import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * {@code sluice bench write}: a file written front to back in small chunks through each of the JDK's ways and
 * {@link MappedWriter}, and Sluice's IO_URING and AUTO engines, to a new file and over a file already in the page cache (the table of the JRuby mmap
 * experiments, in Java). A run is timed from open to close; nothing is forced to the device, so this measures
 * the cost of getting bytes into the page cache, which is where small writes spend their time.
 */
public final class WriteBench {
    /** What to run. */
    public record Options(long size, Path dir, List<Integer> chunkSizes, List<String> writers, int rounds) {
    }

    /** The ways to write, by the names the rows use. */
    public enum Writer {
        /** {@code FileOutputStream.write(byte[], off, len)}: one {@code write} system call per chunk. */
        FILE_OUTPUT_STREAM("FileOutputStream"),
        /** The same through a 64 KiB {@code BufferedOutputStream}: a copy per chunk, a system call per 64 KiB. */
        BUFFERED_OUTPUT_STREAM("BufferedOutputStream"),
        /** {@code RandomAccessFile.write(byte[], off, len)}. */
        RANDOM_ACCESS_FILE("RandomAccessFile"),
        /** {@code FileChannel.write} of a heap buffer: the JDK copies it to a temporary direct buffer first. */
        CHANNEL_HEAP("FileChannel-heap"),
        /** {@code FileChannel.write} from a page-aligned direct buffer that holds the data already: no copy. */
        CHANNEL_DIRECT("FileChannel-direct"),
        /** {@link MappedWriter#write(byte[], int, int)}: a copy into the mapped window. */
        MAPPED_WRITER("MappedWriter"),
        /** The IO_URING engine, one positional write per ring round trip, from the direct buffer. */
        URING("IO_URING"),
        /** The IO_URING engine, {@value #URING_DEPTH} consecutive chunks per {@link IoBatch}: one system call. */
        URING_BATCH("IO_URING-batch"),
        /** The AUTO engine (the default of {@code PositionalFile.open}), one positional write per chunk: a pwrite. */
        AUTO("AUTO");

        /** Chunks per batch of {@link #URING_BATCH}, as the io_uring section's default depth. */
        public static final int URING_DEPTH = 32;

        private final String label;

        Writer(String label) {
            this.label = label;
        }

        /** The name in the table and the JSON rows. */
        public String label() {
            return label;
        }

        /** The writer with this label, ignoring case. */
        public static Writer parse(String name) {
            for (Writer w : values()) {
                if (w.label.equalsIgnoreCase(name) || w.name().equalsIgnoreCase(name)) {
                    return w;
                }
            }
            List<String> labels = new ArrayList<>();
            for (Writer w : values()) {
                labels.add(w.label);
            }
            throw new IllegalArgumentException("unknown writer '" + name + "': expected one of " + labels);
        }
    }

    /** The baseline every row is compared with. */
    public static final String BASELINE = Writer.FILE_OUTPUT_STREAM.label();

    /** Random bytes the chunks are taken from, cycling: enough that successive chunks differ. */
    private static final int SOURCE = 1 << 20;

    private final Options options;
    private final PrintWriter log;
    private final byte[] heap;
    private final ByteBuffer direct;
    /** Reused by {@link Writer#URING_BATCH}: a batch holds no file and is cleared per call. */
    private IoBatch batch;

    /** {@code log} receives progress (standard error in the CLI). */
    public WriteBench(Options options, PrintWriter log) {
        this.options = options;
        this.log = log;
        int max = options.chunkSizes().stream().mapToInt(Integer::intValue).max().orElse(0);
        this.heap = new byte[SOURCE + max];
        new SplittableRandom(7).nextBytes(heap);
        this.direct = Arena.ofAuto().allocate(heap.length, 4096).asByteBuffer();
        direct.put(heap).clear();
    }

    /** Runs every writer at every chunk size, to a new file and over a cached one. */
    public List<Row> run() throws IOException {
        List<Writer> writers = new ArrayList<>();
        for (String name : options.writers()) {
            writers.add(Writer.parse(name));
        }
        List<Row> rows = new ArrayList<>();
        long t0 = System.nanoTime();
        // Removed at the end, on failure, and on Ctrl-C.
        try (ScratchDir dir = ScratchDir.create(options.dir(), "sluice-bench-write-")) {
            Path file = dir.resolve("data.bin");
            Path cached = dir.resolve("cached.bin");
            int cell = 0;
            int cells = options.chunkSizes().size() * 2;
            for (String target : List.of(Workload.NEW_FILE, Workload.CACHED_FILE)) {
                if (target.equals(Workload.CACHED_FILE)) {
                    // Written once and read back, so every overwrite lands on pages already in the page cache.
                    io.sluice.BigFiles.fill(cached, options.size(), heap, 1);
                    try (FileChannel c = FileChannel.open(cached)) {
                        ByteBuffer b = ByteBuffer.allocateDirect(1 << 20);
                        for (long pos = 0; c.read(b.clear(), pos) > 0; pos += b.position()) {
                            // reading is the point
                        }
                    }
                    log.printf(Locale.ROOT, "cached file: %.0f%% resident%n",
                            PageCache.residentFraction(cached) * 100);
                }
                for (int chunk : options.chunkSizes()) {
                    Workload w = new Workload(Workload.SEQWRITE, chunk, target);
                    log.printf(Locale.ROOT, "[%d/%d] %s (%.0f s elapsed) ", ++cell, cells, w,
                            (System.nanoTime() - t0) / 1e9);
                    log.flush();
                    boolean fresh = target.equals(Workload.NEW_FILE);
                    Path f = fresh ? file : cached;
                    List<Job> jobs = new ArrayList<>();
                    for (Writer writer : writers) {
                        jobs.add(job(writer, f, fresh, chunk));
                    }
                    rows.addAll(Job.measure(jobs, w, options.size(), options.rounds(), log));
                }
            }
            log.printf(Locale.ROOT, "measured in %.0f s%n", (System.nanoTime() - t0) / 1e9);
            return rows;
        }
    }

    private Job job(Writer writer, Path f, boolean fresh, int chunk) {
        return new Job() {
            @Override
            public String name() {
                return writer.label();
            }

            @Override
            public int threads() {
                return 1;
            }

            @Override
            public long run() throws IOException {
                if (fresh) {
                    Files.deleteIfExists(f);
                }
                long t0 = System.nanoTime();
                write(writer, f, fresh, chunk, options.size());
                long t1 = System.nanoTime();
                if (fresh) {
                    // Deleted before the next run starts its clock: its dirty pages are dropped, never written.
                    Files.delete(f);
                }
                return t1 - t0;
            }
        };
    }

    /** Writes {@code size} bytes to {@code f} in chunks of {@code chunk}: a new file, or over the cached one. */
    void write(Writer writer, Path f, boolean fresh, int chunk, long size) throws IOException {
        switch (writer) {
            case FILE_OUTPUT_STREAM, BUFFERED_OUTPUT_STREAM -> {
                // Over the cached file the stream must not truncate it (which would free its pages), so it writes
                // through the descriptor of a RandomAccessFile, from position 0.
                try (RandomAccessFile raf = fresh ? null : new RandomAccessFile(f.toFile(), "rw");
                     FileOutputStream fos = fresh ? new FileOutputStream(f.toFile()) : new FileOutputStream(raf.getFD());
                     OutputStream out = writer == Writer.FILE_OUTPUT_STREAM ? fos
                             : new BufferedOutputStream(fos, 64 * 1024)) {
                    for (long pos = 0; pos < size; pos += chunk) {
                        out.write(heap, offset(pos), (int) Math.min(chunk, size - pos));
                    }
                }
            }
            case RANDOM_ACCESS_FILE -> {
                try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
                    for (long pos = 0; pos < size; pos += chunk) {
                        raf.write(heap, offset(pos), (int) Math.min(chunk, size - pos));
                    }
                }
            }
            case CHANNEL_HEAP, CHANNEL_DIRECT -> {
                try (FileChannel c = fresh
                        ? FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)
                        : FileChannel.open(f, StandardOpenOption.WRITE)) {
                    for (long pos = 0; pos < size; pos += chunk) {
                        int off = offset(pos);
                        int len = (int) Math.min(chunk, size - pos);
                        ByteBuffer b = writer == Writer.CHANNEL_HEAP ? ByteBuffer.wrap(heap, off, len)
                                : direct.limit(off + len).position(off);
                        while (b.hasRemaining()) {
                            c.write(b);
                        }
                    }
                }
            }
            case URING, URING_BATCH, AUTO -> {
                Engine engine = writer == Writer.AUTO ? Engine.AUTO : Engine.IO_URING;
                // Over the cached file: WRITE alone, so the file is not truncated and its pages stay.
                try (PositionalFile pf = fresh
                        ? PositionalFile.open(f, engine, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)
                        : PositionalFile.open(f, engine, StandardOpenOption.WRITE)) {
                    if (writer != Writer.URING_BATCH) {
                        for (long pos = 0; pos < size; pos += chunk) {
                            int off = offset(pos);
                            pf.writeFully(direct.limit(off + (int) Math.min(chunk, size - pos)).position(off), pos);
                        }
                    } else {
                        writeBatched(pf, chunk, size);
                    }
                }
            }
            case MAPPED_WRITER -> {
                try (MappedWriter w = fresh ? MappedWriter.open(f)
                        : MappedWriter.open(f, 0, MappedWriter.DEFAULT_WINDOW_SIZE, StandardOpenOption.WRITE)) {
                    for (long pos = 0; pos < size; pos += chunk) {
                        w.write(heap, offset(pos), (int) Math.min(chunk, size - pos));
                    }
                }
            }
        }
    }

    /** Consecutive chunks, {@link Writer#URING_DEPTH} per batch, each a slice of the direct buffer. */
    private void writeBatched(PositionalFile pf, int chunk, long size) throws IOException {
        if (batch == null) {
            batch = IoBatch.create(Writer.URING_DEPTH);
        }
        for (long pos = 0; pos < size; ) {
            batch.clear();
            long start = pos;
            while (batch.size() < batch.capacity() && pos < size) {
                int off = offset(pos);
                int len = (int) Math.min(chunk, size - pos);
                batch.write(pf, direct.clear().slice(off, len), pos);
                pos += len;
            }
            batch.submit();
            batch.throwIfFailed();
            for (int k = 0; k < batch.size(); k++) {
                long expected = Math.min(chunk, size - (start + (long) k * chunk));
                if (batch.result(k) != expected) {
                    // A short buffered write means a full disk or a signal: not a run to time.
                    throw new IOException("io_uring write(path=" + pf.path() + ", pos=" + (start + (long) k * chunk)
                            + "): wrote " + batch.result(k) + " of " + expected + " bytes");
                }
            }
        }
    }

    private static int offset(long pos) {
        return (int) (pos % SOURCE);
    }
}
