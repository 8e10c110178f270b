package io.sluice.jmh;

import io.sluice.bench.ZipBenchArchive;
import io.sluice.bench.ZipBenchArchive.Kind;
import io.sluice.bench.ZipReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * The parallel jar read benchmark of seed 003, for three zip libraries: one operation looks an entry up by name,
 * opens its stream, reads all of it and closes it. Small (4 KiB) and big (8 MiB) entries, stored and deflated, on
 * one thread ({@code _single}) and on every CPU ({@code _parallel}, JMH's {@code Threads.MAX}); the score is the
 * average time of one operation, as in the seed's tables.
 *
 * <p>{@code reader} is {@code sluice} (ConcurrentZipFile), {@code jdk} (java.util.zip.ZipFile, the baseline) or
 * {@code commons-compress}. All threads share one open archive, as in a class loader; each thread walks its own
 * share of the entries of one kind. The archive is written to {@code -Dsluice.bench.dir} (or the temp directory),
 * read once into the page cache, and deleted after the trial.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx2g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class ParallelJarReadBenchmark {
    /** The zip library: {@code sluice}, {@code jdk} or {@code commons-compress}. */
    @Param({"sluice", "jdk", "commons-compress"})
    public String reader;

    /** Entries of each small kind. */
    @Param({"256"})
    public int smallEntries;

    /** Entries of each big kind. */
    @Param({"8"})
    public int bigEntries;

    private ZipBenchArchive archive;
    private ZipReader zip;

    /** Writes and warms the archive and opens it with {@link #reader}. */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        String dir = System.getProperty(BenchFile.DIR_PROPERTY);
        archive = ZipBenchArchive.create(Path.of(dir == null || dir.isBlank()
                ? System.getProperty("java.io.tmpdir") : dir), smallEntries, bigEntries);
        archive.warm();
        zip = ZipReader.open(reader, archive.path());
    }

    /** Closes the archive and deletes it. */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        if (zip != null) {
            zip.close();
        }
        if (archive != null) {
            archive.close();
        }
    }

    /** Each thread's walk: its own start, so threads read different entries. */
    @State(Scope.Thread)
    public static class Cursor {
        private int thread;
        private final int[] next = new int[Kind.values().length];

        /** Takes the thread's index, which decides where its walk starts. */
        @Setup(Level.Trial)
        public void setUp(ThreadParams params) {
            thread = params.getThreadIndex();
        }

        String next(ParallelJarReadBenchmark b, Kind kind) {
            int n = b.archive.count(kind);
            int i = (thread * Math.max(1, n / 16) + next[kind.ordinal()]++) % n;
            return b.archive.name(kind, i);
        }
    }

    private int read(Cursor c, Kind kind) throws IOException {
        return zip.read(c.next(this, kind));
    }

    /** Reads one 4 KiB stored entry, on one thread. */
    @Benchmark
    @Threads(1)
    public int smallStored_single(Cursor c) throws IOException {
        return read(c, Kind.SMALL_STORED);
    }

    /** Reads one 4 KiB stored entry, on every CPU at once. */
    @Benchmark
    @Threads(Threads.MAX)
    public int smallStored_parallel(Cursor c) throws IOException {
        return read(c, Kind.SMALL_STORED);
    }

    /** Reads one 4 KiB deflated entry, on one thread. */
    @Benchmark
    @Threads(1)
    public int smallCompressed_single(Cursor c) throws IOException {
        return read(c, Kind.SMALL_DEFLATED);
    }

    /** Reads one 4 KiB deflated entry, on every CPU at once. */
    @Benchmark
    @Threads(Threads.MAX)
    public int smallCompressed_parallel(Cursor c) throws IOException {
        return read(c, Kind.SMALL_DEFLATED);
    }

    /** Reads one 8 MiB stored entry, on one thread. */
    @Benchmark
    @Threads(1)
    public int bigStored_single(Cursor c) throws IOException {
        return read(c, Kind.BIG_STORED);
    }

    /** Reads one 8 MiB stored entry, on every CPU at once. */
    @Benchmark
    @Threads(Threads.MAX)
    public int bigStored_parallel(Cursor c) throws IOException {
        return read(c, Kind.BIG_STORED);
    }

    /** Reads one 8 MiB deflated entry, on one thread. */
    @Benchmark
    @Threads(1)
    public int bigCompressed_single(Cursor c) throws IOException {
        return read(c, Kind.BIG_DEFLATED);
    }

    /** Reads one 8 MiB deflated entry, on every CPU at once. */
    @Benchmark
    @Threads(Threads.MAX)
    public int bigCompressed_parallel(Cursor c) throws IOException {
        return read(c, Kind.BIG_DEFLATED);
    }
}
