package io.sluice.bench.jruby;

import io.sluice.PositionalFile;
import io.sluice.bench.BenchChecks;
import io.sluice.bench.ChildStderr;
import io.sluice.bench.TextTable;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code sluice bench jruby}: seed 000's table, JRuby writing a file in String chunks through each strategy the seed
 * compared and through {@code Sluice::MappedWriter}, then Ruby's {@code File} reads against
 * {@code Sluice::File#pread}.
 *
 * <p>The measuring is Ruby ({@code bench.rb} in this package, run by JRuby from the complete jar in JVMs of its own,
 * so no JRuby installation is needed and JRuby runs with its own defaults: one per writer, one for the reads); this
 * class starts them, asks the writers' for their runs round by round, reads the samples they print (one line per
 * run) and makes the table and the JSON rows. It uses no JRuby class, so the command line can
 * call it without JRuby on its class path.
 */
public final class JRubyBench {
    /** The measuring script, a resource of this module's jar. */
    static final String SCRIPT = "uri:classloader:/io/sluice/bench/jruby/bench.rb";

    /** The write baseline, as in the seed's table. */
    static final String WRITE_BASELINE = "ruby-File";
    /** The read baseline. */
    static final String READ_BASELINE = "ruby-File#read";

    /** What the rows are called in the table, in the seed's words where the seed had the row. */
    private static final Map<String, String> LABELS = new LinkedHashMap<>();

    /**
     * Seed 000's real times in seconds for 2 GB in 1k, 4k and 16k chunks (JRuby 1.7.15, Java 7, OS X on an SSD),
     * from its full results; its ratios to its {@code File} row are printed beside ours.
     */
    private static final Map<String, double[]> SEED_REAL = new LinkedHashMap<>();

    /** The write rows, by their JSON names; the other labels are reads. */
    private static final List<String> WRITERS = List.of("ruby-File", "PureMmapFile", "MmapFile-autoboxing",
            "MmapFile-unboxed-safe", "MmapFile-unboxed-unsafe", "MmapFileExt-unboxed-safe",
            "MmapFileExt-unboxed-unsafe", "Sluice::MappedWriter", "Sluice::MappedWriter-windows");

    /** The rows that map the whole target in one {@code MappedByteBuffer}, as the seed's writers do. */
    private static final List<String> WHOLE_MAPPINGS = List.of("PureMmapFile", "MmapFile-autoboxing",
            "MmapFile-unboxed-safe", "MmapFile-unboxed-unsafe", "MmapFileExt-unboxed-safe",
            "MmapFileExt-unboxed-unsafe");

    /** The most one {@code MappedByteBuffer} maps, and so the most the seed's writers can write. */
    static final long SEED_MAX_SIZE = Integer.MAX_VALUE;

    /**
     * The heap each JRuby JVM gets by default: fixed, and touched once when the JVM starts. The seed's timed loop
     * ({@code count.times.each { write.call(...) }}, the same in every row) allocates on every write (about 90 bytes,
     * docs/benchmarks/2026-11-26-seed000-harness.md), and a heap left to grow takes that memory fresh inside the timed
     * runs: on a VM that gets its memory from the host only when first touched, that is the host's work in the
     * middle of whichever run grew the heap. Here a served MappedWriter JVM took about 47,000 faults of fresh heap
     * per 2,000 MiB pass of 1 KiB writes over a cached file, and its passes a median 0.40 s (0.14 s of system time);
     * with 1 GiB fixed and touched, 3,700 faults and 0.26 s (0.05 s), docs/benchmarks/2026-11-27-heap-s9.md. The
     * same for every row, so no writer is favoured. A smaller heap collects more often inside the runs (a young
     * collection here takes about 20 ms). All the writers' JVMs of a generation live at once: see
     * {@link #checkMemory}.
     */
    public static final long DEFAULT_HEAP = 1L << 30;

    /** Less than this and JRuby's own start-up collects all the time. */
    static final long MIN_HEAP = 64L << 20;

    static {
        LABELS.put("ruby-File", "ruby File");
        LABELS.put("PureMmapFile", "ruby PureMmapFile, String#to_java_bytes");
        LABELS.put("MmapFile-autoboxing", "java MmapFile, autoboxing");
        LABELS.put("MmapFile-unboxed-safe", "java MmapFile, unboxed, safe");
        LABELS.put("MmapFile-unboxed-unsafe", "java MmapFile, unboxed, unsafe");
        LABELS.put("MmapFileExt-unboxed-safe", "java MmapFileExt, unboxed, safe");
        LABELS.put("MmapFileExt-unboxed-unsafe", "java MmapFileExt, unboxed, unsafe");
        LABELS.put("Sluice::MappedWriter", "Sluice::MappedWriter");
        LABELS.put("Sluice::MappedWriter-windows", "Sluice::MappedWriter, 64 MiB windows");
        LABELS.put("ruby-File#read", "ruby File#read (seek + read)");
        LABELS.put("ruby-IO#pread", "ruby IO#pread");
        LABELS.put("Sluice::File#pread", "Sluice::File#pread (channel)");
        LABELS.put("Sluice::File#pread-mmap", "Sluice::File#pread (mmap)");

        //                                          1k     4k     16k
        SEED_REAL.put("ruby-File", new double[] {4.198, 3.440, 2.779});
        SEED_REAL.put("PureMmapFile", new double[] {4.943, 2.732, 2.021});
        SEED_REAL.put("MmapFile-autoboxing", new double[] {8.457, 8.313, 8.204});
        SEED_REAL.put("MmapFile-unboxed-safe", new double[] {2.664, 2.122, 2.111});
        SEED_REAL.put("MmapFile-unboxed-unsafe", new double[] {1.639, 1.223, 1.275});
        SEED_REAL.put("MmapFileExt-unboxed-safe", new double[] {2.275, 2.013, 2.028});
        SEED_REAL.put("MmapFileExt-unboxed-unsafe", new double[] {1.466, 1.258, 1.266});
    }

    private JRubyBench() {
    }

    /**
     * What to run.
     *
     * @param size       bytes written (and read) per run
     * @param dir        where the files go
     * @param chunkSizes bytes per String written or read
     * @param rounds     measured rounds, after one rehearsal
     * @param writes     whether to run the write table
     * @param reads      whether to run the read table
     * @param contenders the rows to measure, by their JSON names, or empty for all of them
     * @param jrubyJar   the jruby-complete jar to run, or null to find the one the build copied
     * @param forks      JVMs per writer and write cell: 1 runs each writer in one JVM for the whole run; N &gt; 1
     *                   splits each cell's rounds into N groups, each measured by a fresh JVM per writer after its own
     *                   rehearsal; N equal to {@code rounds} runs each JVM alone, and a rewritten cell's JVM with no
     *                   warm-up or rehearsal, as the post's harness runs one
     * @param heap       bytes of heap for each JRuby JVM, fixed and touched at its start ({@code -Xms}, {@code -Xmx},
     *                   {@code -XX:+AlwaysPreTouch}), or 0 to leave the heap to the JVM's own sizing; see
     *                   {@link #DEFAULT_HEAP}
     */
    public record Options(long size, Path dir, List<Integer> chunkSizes, int rounds, boolean writes, boolean reads,
            List<String> contenders, Path jrubyJar, int forks, long heap) {
        /** Checks the numbers. */
        public Options {
            if (size < 1 || rounds < 1) {
                throw new IllegalArgumentException("--size and --rounds must be positive");
            }
            BenchChecks.forks(forks, rounds, true);
            if (heap != 0 && heap < MIN_HEAP) {
                throw new IllegalArgumentException("--heap must be 0 (the JVM's own sizing) or at least "
                        + (MIN_HEAP >> 20) + "m, for JRuby itself: " + heap);
            }
            for (int c : chunkSizes) {
                if (c < 1 || c > size) {
                    throw new IllegalArgumentException("chunk sizes must be 1 byte to --size: " + c);
                }
            }
            chunkSizes = List.copyOf(chunkSizes);
            for (String c : contenders) {
                if (!LABELS.containsKey(c)) {
                    throw new IllegalArgumentException("unknown contender '" + c + "': expected some of "
                            + String.join(", ", LABELS.keySet()));
                }
            }
            contenders = List.copyOf(contenders);
            List<String> rows = contenders.isEmpty() ? WRITERS : contenders;
            if (writes && size > SEED_MAX_SIZE && rows.stream().anyMatch(WHOLE_MAPPINGS::contains)) {
                throw new IllegalArgumentException("--size " + size + " is more than the seed's writers can map ("
                        + SEED_MAX_SIZE + " bytes, one MappedByteBuffer of the whole file; the seed wrote 2000m): "
                        + "use a smaller --size, or --only ruby-File,Sluice::MappedWriter,Sluice::MappedWriter-windows");
            }
        }

        /** One JVM per writer for the whole run. */
        public Options(long size, Path dir, List<Integer> chunkSizes, int rounds, boolean writes, boolean reads,
                List<String> contenders, Path jrubyJar) {
            this(size, dir, chunkSizes, rounds, writes, reads, contenders, jrubyJar, 1);
        }

        /** Each JRuby JVM with the {@link #DEFAULT_HEAP}. */
        public Options(long size, Path dir, List<Integer> chunkSizes, int rounds, boolean writes, boolean reads,
                List<String> contenders, Path jrubyJar, int forks) {
            this(size, dir, chunkSizes, rounds, writes, reads, contenders, jrubyJar, forks, DEFAULT_HEAP);
        }

        List<String> writers() {
            return contenders.stream().filter(WRITERS::contains).toList();
        }

        List<String> readers() {
            return contenders.stream().filter(c -> !WRITERS.contains(c)).toList();
        }
    }

    /**
     * One run: seconds of wall-clock, user and system time (the whole JRuby process), and what it moved.
     *
     * @param real   wall-clock seconds
     * @param user   user CPU seconds
     * @param system system CPU seconds
     * @param bytes  bytes written or read
     * @param ops    write or read calls
     */
    public record Sample(double real, double user, double system, long bytes, long ops) {
        /** MB/s (10^6 bytes). */
        public double mbPerSec() {
            return bytes / real / 1e6;
        }
    }

    /**
     * The measured runs of one contender in one cell; the rehearsal is not among them.
     *
     * @param workload  {@code seqwrite}, {@code seqread} or {@code randread}
     * @param file      {@code new}, {@code cached} or {@code rewritten} (see {@link #FILE_KINDS})
     * @param chunk     bytes per String
     * @param contender the strategy, as in the JSON rows ({@code Sluice::MappedWriter}, {@code ruby-File}, ...)
     * @param samples   one per measured round
     */
    public record Row(String workload, String file, int chunk, String contender, List<Sample> samples) {
        double real() {
            return median(samples.stream().mapToDouble(Sample::real).toArray());
        }

        double user() {
            return median(samples.stream().mapToDouble(Sample::user).toArray());
        }

        double system() {
            return median(samples.stream().mapToDouble(Sample::system).toArray());
        }

        double mbPerSec() {
            return median(samples.stream().mapToDouble(Sample::mbPerSec).toArray());
        }

        double opsPerMs() {
            return median(samples.stream().mapToDouble(s -> s.ops() / (s.real() * 1000)).toArray());
        }

        /** {@code (max - min) / median} of MB/s. */
        double spread() {
            double[] v = samples.stream().mapToDouble(Sample::mbPerSec).toArray();
            double m = median(v);
            return m == 0 ? 0 : (Arrays.stream(v).max().orElse(0) - Arrays.stream(v).min().orElse(0)) / m;
        }

        String cell() {
            return workload + "/" + file + "/" + chunk;
        }

        String baseline() {
            return workload.equals("seqwrite") ? WRITE_BASELINE : READ_BASELINE;
        }
    }

    /**
     * What a run measured.
     *
     * @param rows    one per contender and cell, in the order measured
     * @param runtime which JRuby and Java ran them, and whether with native access
     * @param forks   JVMs per writer in each write cell (see {@link Options#forks})
     * @param heap    each JRuby JVM's fixed heap in bytes, or 0 for the JVM's own sizing (see {@link Options#heap})
     */
    public record Result(List<Row> rows, String runtime, int forks, long heap) {
        /** Rows measured with one JVM per writer for the whole run, with the JVMs' own heap sizing. */
        public Result(List<Row> rows, String runtime) {
            this(rows, runtime, 1, 0);
        }
    }

    /**
     * Runs the benchmark: the writes in one JRuby JVM per writer, the reads in one more; the children's progress
     * goes to {@code err}. Returns the rows.
     */
    public static Result run(Options o, PrintWriter err) throws IOException, InterruptedException {
        checkMemory(o);
        List<String> lines = new ArrayList<>();
        List<String> writers = writersToRun(o);
        if (!writers.isEmpty()) {
            lines.addAll(runWriters(o, writers, err));
        }
        if (readsToRun(o)) {
            lines.addAll(runReads(command(o, false), err));
        }
        Result parsed = parse(lines);
        return new Result(parsed.rows(), parsed.runtime(), o.forks(), o.heap());
    }

    /** {@link #checkMemory(Options, long)} against this machine's MemAvailable. */
    public static void checkMemory(Options o) {
        checkMemory(o, io.sluice.report.MachineInfo.meminfo("MemAvailable:"));
    }

    /**
     * Refuses a run whose fixed heaps would not fit: every writer's JVM of a generation lives until the generation
     * ends, each with {@link Options#heap} touched at its start, beside one file of {@link Options#size} in the page
     * cache. (Where each generation measures one round, {@link #oneAtATime}, one lives at a time; the check is the
     * same, so that a run that fits with one fork per round fits with fewer.)
     *
     * @param available bytes of memory available (MemAvailable), or -1 when unknown: then nothing is checked
     * @throws IllegalArgumentException naming the need, what is available and what to change
     */
    static void checkMemory(Options o, long available) {
        if (o.heap() <= 0 || available < 0) {
            return;
        }
        // The reads' JVM runs alone, after the writers' have ended.
        int jvms = Math.max(writersToRun(o).size(), 1);
        long need = BenchChecks.plus(BenchChecks.times(o.heap(), jvms), o.size());
        if (need > available) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "--heap %s for each of %d JRuby JVMs, with "
                    + "a %s file in the page cache, needs %s; the machine has %s available (MemAvailable in "
                    + "/proc/meminfo): use a smaller --heap, fewer rows (--only) or a smaller --size, or --heap 0 for "
                    + "the JVM's own heap sizing", sizeLabel(o.heap()), jvms, sizeLabel(o.size()), gib(need),
                    gib(available)));
        }
    }

    private static String gib(long bytes) {
        return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }

    /** The write rows to measure: the ones named, or all when none is; none when the writes are not run. */
    static List<String> writersToRun(Options o) {
        if (!o.writes()) {
            return List.of();
        }
        return o.contenders().isEmpty() ? WRITERS : o.writers();
    }

    private static boolean readsToRun(Options o) {
        return o.reads() && (o.contenders().isEmpty() || !o.readers().isEmpty());
    }

    /**
     * The write cells, each writer in a JRuby JVM of its own, as the seed's harness runs each row. With every row in
     * one JVM, a row's figure was not the writer's cost (most likely it was how that JVM compiled the timed loop all
     * rows share): at 1 KiB MappedWriter measured 0.84-0.92 of the post's fastest writer there, against 1.01-1.23 in
     * the post's own harness and 1.10-1.12 with the two taking turns in one JVM through scripts/seed-mmap-pair.rb
     * (docs/benchmarks/2026-11-26-deciding-s7.md). The JVMs of a generation are started one at a time (each warms up
     * its row alone) and every round asks each for one run ({@link #order}), so that all rows see the same machine.
     * <p>
     * With one fork, one generation serves every cell. A JVM's compilation of its writer's loop then decides all of
     * that row's samples: the same build measured MappedWriter / the post's fastest writer at 4 KiB as 1.11, 0.83,
     * 1.26 and 0.87 in four runs (deciding-s7). With N forks every cell gets N generations, each measuring a share of
     * the rounds after a rehearsal of its own, as the post's harness gives every row and chunk size a fresh JVM.
     */
    private static List<String> runWriters(Options o, List<String> writers, PrintWriter err)
            throws IOException, InterruptedException {
        List<Cell> cells = new ArrayList<>();
        for (String kind : FILE_KINDS) {
            for (int chunk : o.chunkSizes()) {
                cells.add(new Cell(kind, chunk));
            }
        }
        List<String> lines = new ArrayList<>();
        if (o.forks() == 1) {
            lines.addAll(generation(o, writers, cells, roundGroups(o.rounds(), 1).get(0), 0, true, true, true, err));
            return lines;
        }
        List<List<Integer>> groups = roundGroups(o.rounds(), o.forks());
        for (Cell cell : cells) {
            for (int g = 0; g < groups.size(); g++) {
                err.printf(Locale.ROOT, "sluice bench jruby: %s %s, JVM generation %d of %d%n", cell.kind(),
                        chunkLabel(cell.chunk()), g + 1, groups.size());
                err.flush();
                boolean echo = cell.equals(cells.get(0)) && g == 0;
                lines.addAll(onePerRound(o.forks(), o.rounds())
                        ? oneAtATime(o, writers, cell, groups.get(g), g, g == 0, g == groups.size() - 1, echo, err)
                        : generation(o, writers, List.of(cell), groups.get(g), g, g == 0, g == groups.size() - 1,
                                echo, err));
            }
        }
        return lines;
    }

    /**
     * A generation that measures one round ({@code --forks} equal to {@code --rounds}, above 1), run as the seed's harness runs
     * a round: each writer's JVM alone, started, rehearsed, measured and ended before the next writer's starts, in
     * the round's order ({@link #order}). With every row's JVM alive at once, the kernel wrote a mapped writer's
     * first pass back during its timed second one, write-protecting its pages: 10,350 faults in one MappedWriter pass
     * that takes none alone. Most likely the heaps alive took enough of the memory the kernel counts as dirtyable
     * that one 2,000 MB pass crossed the background writeback threshold (vm.dirty_background_ratio, 10% of it); the
     * post's harness, one JVM at a time, never wrote back during a row (docs/benchmarks/2026-11-27-s17.md).
     * <p>
     * A rewritten cell's JVM goes further and runs as a JVM of the post's harness does: no warm-up and no rehearsal
     * round, only its measured run, whose untimed first pass is the post's rehearsal ({@link #asThePost}).
     */
    private static List<String> oneAtATime(Options o, List<String> writers, Cell cell, List<Integer> rounds, int shift,
            boolean prepare, boolean delete, boolean echo, PrintWriter err) throws IOException, InterruptedException {
        List<String> lines = new ArrayList<>();
        int[] turn = order(writers.size(), shift);
        boolean asThePost = asThePost(cell.kind());
        List<Integer> runs = asThePost ? rounds.stream().filter(r -> r > 0).toList() : rounds;
        for (int i = 0; i < turn.length; i++) {
            String w = writers.get(turn[i]);
            JRubyJvm jvm = new JRubyJvm(w, serveCommand(o, w, List.of(cell.chunk()), !asThePost), echo && i == 0, err);
            try {
                lines.addAll(jvm.started());
                if (prepare && i == 0 && cell.kind().equals("cached")) {
                    lines.addAll(jvm.step("prepare " + cell.chunk()));
                }
                for (int round : runs) {
                    lines.addAll(jvm.step(cell.run(round)));
                }
                if (delete && i == turn.length - 1) {
                    lines.addAll(jvm.step("delete"));
                }
                jvm.finish();
            } finally {
                jvm.destroy();
            }
        }
        return lines;
    }

    /** Whether each generation measures one round, and so runs its writers' JVMs one at a time ({@link #oneAtATime}). */
    private static boolean onePerRound(int forks, int rounds) {
        return forks > 1 && forks == rounds;
    }

    /**
     * Whether a JVM that measures one round of a cell of file {@code kind} alone runs as the post's harness runs a JVM: no warm-up,
     * no rehearsal, the measured run at once. Only a rewritten run has the post's rehearsal in it (its untimed first
     * pass through the same writer), so only a rewritten cell can. Warmed up (three runs of 32 MiB) and rehearsed
     * (a round of two 2,000 MB passes) first, its JVM timed a writer that had written about 4 GB more than the post's
     * had when timed, and the two harnesses disagreed on MappedWriter / the post's fastest writer by up to a fifth:
     * 1.39 / 1.39 / 1.50 at 1k / 4k / 16k in ours against 1.10 / 1.38 / 1.27 in the post's
     * (docs/benchmarks/2026-11-27-s17.md); a fresh JVM's first passes are not its later ones (MappedWriter's CPU
     * time for a pass fell from 0.349 s to 0.257 s after the first, docs/benchmarks/2026-11-27-s16.md).
     */
    private static boolean asThePost(String kind) {
        return kind.equals("rewritten");
    }

    /**
     * The write cells' files: {@code new} (deleted before each run), {@code cached} (written and in the page cache,
     * overwritten from 0 by a writer made for the run) and {@code rewritten} (as the seed's harness's measured pass:
     * the file deleted, written once through the writer untimed, then rewritten through the same writer after a
     * {@code seek(0)}, timed with the writes; each writer's seek is its own, the seed's mapping the file again).
     */
    static final List<String> FILE_KINDS = List.of("new", "cached", "rewritten"); // as bench.rb's FILE_KINDS

    /** A write cell: the file's kind ({@link #FILE_KINDS}) and the bytes per String. */
    private record Cell(String kind, int chunk) {
        /** The step that asks a writer's JVM for one run of this cell. */
        String run(int round) {
            return "run " + kind + " " + chunk + " " + round;
        }
    }

    /**
     * The rounds each generation of JVMs runs: round 0 (the rehearsal, not measured) in every group, then the
     * measured rounds 1 to {@code rounds} dealt out in turn, so the groups' sizes differ by one at most.
     */
    static List<List<Integer>> roundGroups(int rounds, int forks) {
        List<List<Integer>> groups = new ArrayList<>();
        for (int g = 0; g < forks; g++) {
            groups.add(new ArrayList<>(List.of(0)));
        }
        for (int r = 1; r <= rounds; r++) {
            groups.get((r - 1) % forks).add(r);
        }
        return groups;
    }

    /**
     * The order of the rows in round {@code k}: a Williams design, so that every row follows every other equally often
     * (once in each {@code n} rounds for an even {@code n}; with the orders backwards in every other run of {@code n}
     * rounds, twice in {@code 2n} for an odd one). Plain rotation (a, b, c; b, c, a; c, a, b) keeps each row behind
     * the same one, and a row's run starts from the file the row before it left: its pages cached and flushed, but
     * in whatever folios that writer's way of writing made.
     */
    static int[] order(int n, int k) {
        int[] order = new int[n];
        boolean backwards = n % 2 == 1 && (k / n) % 2 == 1;
        for (int j = 0; j < n; j++) {
            // 0, 1, n-1, 2, n-2, ...: the neighbours' differences take every value from 1 to n-1 once.
            int step = j % 2 == 1 ? (j + 1) / 2 : n - j / 2;
            order[backwards ? n - 1 - j : j] = (k + (j == 0 ? 0 : step)) % n;
        }
        return order;
    }

    /**
     * One JVM per writer, started one at a time, runs {@code rounds} of each cell and ends. The cached cells' file
     * is made first when {@code prepare}, and deleted after a cell when {@code delete}, so that the generations of
     * one cell share one file. The first round's order ({@link #order}) is shifted by {@code shift}, so that the
     * generations of a cell do not all start alike. The JVMs' commands are printed when {@code echo}; the same ones
     * again, a generation later, would bury the progress.
     */
    private static List<String> generation(Options o, List<String> writers, List<Cell> cells, List<Integer> rounds,
            int shift, boolean prepare, boolean delete, boolean echo, PrintWriter err)
            throws IOException, InterruptedException {
        List<String> lines = new ArrayList<>();
        List<JRubyJvm> jvms = new ArrayList<>();
        try {
            for (String w : writers) {
                JRubyJvm jvm = new JRubyJvm(w, serveCommand(o, w, cells.stream().map(Cell::chunk).distinct().toList()),
                        echo, err);
                jvms.add(jvm);
                lines.addAll(jvm.started());
            }
            JRubyJvm any = jvms.get(0);
            for (Cell cell : cells) {
                if (prepare && cell.kind().equals("cached")) {
                    lines.addAll(any.step("prepare " + cell.chunk()));
                }
                for (int i = 0; i < rounds.size(); i++) {
                    for (int j : order(jvms.size(), i + shift)) {
                        lines.addAll(jvms.get(j).step(cell.run(rounds.get(i))));
                    }
                }
                if (delete) {
                    lines.addAll(any.step("delete"));
                }
            }
            for (JRubyJvm jvm : jvms) {
                jvm.finish();
            }
        } finally {
            for (JRubyJvm jvm : jvms) {
                jvm.destroy();
            }
        }
        return lines;
    }

    /**
     * One JRuby child: a writer's ({@code bench.rb --serve}), sent a step per line and answering with its sample lines
     * and "done", or the reads', read to its end. Its standard error goes to {@code err} as it comes.
     */
    private static final class JRubyJvm {
        private final String what;
        private final Process process;
        private final Writer in;
        private final BufferedReader out;
        private final ChildStderr stderr;

        JRubyJvm(String what, List<String> command, boolean echo, PrintWriter err) throws IOException {
            this.what = what;
            err.println("sluice bench jruby: " + (echo ? String.join(" ", command) : "a JVM for " + what));
            err.flush();
            this.process = new ProcessBuilder(command).start();
            this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            // Its progress lines go to err as they come, so that they interleave with nothing else.
            this.stderr = new ChildStderr(process, err, "", 5, "sluice-bench-jruby-progress");
        }

        /** Its lines up to its first "done": the info line, after the warm-up. */
        List<String> started() throws IOException, InterruptedException {
            return answer("start");
        }

        List<String> step(String step) throws IOException, InterruptedException {
            in.write(step + "\n");
            in.flush();
            return answer(step);
        }

        private List<String> answer(String step) throws IOException, InterruptedException {
            List<String> lines = new ArrayList<>();
            for (String line; (line = out.readLine()) != null; ) {
                if (line.equals("done")) {
                    return lines;
                }
                lines.add(line);
            }
            throw failure("ended at step '" + step + "'");
        }

        /** All it prints, to its end. */
        List<String> rest() throws IOException {
            List<String> lines = new ArrayList<>();
            for (String line; (line = out.readLine()) != null; ) {
                lines.add(line);
            }
            return lines;
        }

        /** Ends its input and waits for it to exit. */
        void finish() throws IOException, InterruptedException {
            in.close();
            if (process.waitFor() != 0) {
                throw failure("failed");
            }
            stderr.awaitEnd(1000);
        }

        private IOException failure(String how) throws InterruptedException {
            int exit = process.waitFor();
            stderr.awaitEnd(1000);
            return new IOException("the JRuby benchmark process of " + what + " " + how + " with exit code " + exit
                    + " (its messages are above; the last: " + String.join(" / ", stderr.lastLines()) + ")");
        }

        void destroy() {
            if (process.isAlive()) {
                process.destroy();
            }
        }
    }

    /** Runs the reads' child to its end: its progress to {@code err}, its standard output returned line by line. */
    private static List<String> runReads(List<String> command, PrintWriter err)
            throws IOException, InterruptedException {
        JRubyJvm reads = new JRubyJvm("the reads", command, true, err);
        try {
            List<String> lines = reads.rest();
            reads.finish();
            return lines;
        } finally {
            reads.destroy();
        }
    }

    /**
     * The children a run starts: one per writer ({@link #serveCommand}), then one for the reads, since each side
     * needs its own JRuby compile mode (see {@link #command}). A side with nothing to run has no child.
     */
    static List<List<String>> commands(Options o) throws IOException {
        List<List<String>> out = new ArrayList<>();
        for (String w : writersToRun(o)) {
            out.add(serveCommand(o, w));
        }
        if (readsToRun(o)) {
            out.add(command(o, false));
        }
        return out;
    }

    /** The command of one writer's JVM for the whole run: the writes' command for that writer alone, serving steps. */
    static List<String> serveCommand(Options o, String writer) throws IOException {
        return serveCommand(o, writer, o.chunkSizes());
    }

    /**
     * The command of one writer's JVM that serves only cells of {@code chunks}: its untimed warm-up writes those chunk
     * sizes alone. A generation of {@code --forks} serves one cell, and its JVM then sees one chunk size, as a JVM of
     * the seed's harness does. (It was tried as the cause of MappedWriter's slow first 1 KiB run in each fresh JVM,
     * a median 0.328 s against 0.230 s later with all three sizes warmed up; it is not: 0.352 s against 0.267 s with
     * one, docs/benchmarks/2026-11-26-deciding-s8.md. It stays because it is what the seed's harness does.)
     */
    static List<String> serveCommand(Options o, String writer, List<Integer> chunks) throws IOException {
        return serveCommand(o, writer, chunks, true);
    }

    /** As {@link #serveCommand(Options, String, List)}, with the untimed warm-up only when {@code warmUp}. */
    static List<String> serveCommand(Options o, String writer, List<Integer> chunks, boolean warmUp)
            throws IOException {
        List<String> c = new ArrayList<>(command(o, true));
        c.set(c.indexOf("--chunk-sizes") + 1, String.join(",", chunks.stream().map(String::valueOf).toList()));
        int at = c.indexOf("--writers");
        if (at >= 0) {
            c.subList(at, at + 2).clear();
        }
        c.addAll(List.of("--writers", writer, "--serve", "true"));
        if (!warmUp) {
            c.addAll(List.of("--warm-up", "false"));
        }
        return c;
    }

    /**
     * One child's command: JRuby's main class with Sluice's jars on the class path and native access granted, for
     * the writes or for the reads.
     */
    static List<String> command(Options o, boolean writes) throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElseGet(() -> Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // The extension defines Sluice::DB and Sluice::MAF when `sluice` is required, so sluice-db, MVStore and sluice-maf
        // must be there too.
        String classPath = String.join(File.pathSeparator, jrubyJar(o.jrubyJar()).toString(),
                codeSource(JRubyBench.class).toString(), bindingJar().toString(),
                codeSource(PositionalFile.class).toString(), codeSource(io.sluice.db.KvStore.class).toString(),
                codeSource(io.sluice.maf.MafParser.class).toString(), codeSource(org.h2.mvstore.MVStore.class).toString());
        // Writes run with JRuby's own compile mode, as the seed's harness runs them: their timed loop calls a block
        // per write, which JRuby's JIT compiles once it is hot, and compiled that way the writers ran 1.8 to 1.9 times
        // as fast as under compile.mode=FORCE (1 KiB writes to a cached file, here), so FORCE would measure every row,
        // the seed's writers too, at about half the speed the seed's own harness shows.
        // Reads run with compile.mode=FORCE: JRuby compiles the script to JVM bytecode before running it. Each read
        // loop is a `while` in a lambda called once per round, far below JRuby's JIT threshold; it would otherwise stay
        // in JRuby's interpreter, which adds the same cost to every row and hides the differences between them.
        List<String> c = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xss2m"));
        if (o.heap() > 0) {
            // See DEFAULT_HEAP: no heap growth, and so no fresh memory, inside a timed run.
            c.addAll(List.of("-Xms" + o.heap(), "-Xmx" + o.heap(), "-XX:+AlwaysPreTouch"));
        }
        if (!writes) {
            c.add("-Djruby.compile.mode=FORCE");
        }
        c.addAll(List.of("-cp", classPath, "org.jruby.Main",
                "-e", "load '" + SCRIPT + "'; SluiceBench.main(ARGV)", "--",
                "--size", Long.toString(o.size()), "--chunk-sizes",
                String.join(",", o.chunkSizes().stream().map(String::valueOf).toList()),
                "--rounds", Integer.toString(o.rounds()), "--dir", o.dir().toAbsolutePath().toString(),
                "--writes", Boolean.toString(writes), "--reads", Boolean.toString(!writes)));
        if (writes && !o.writers().isEmpty()) {
            c.addAll(List.of("--writers", String.join(",", o.writers())));
        }
        if (!writes && !o.readers().isEmpty()) {
            c.addAll(List.of("--readers", String.join(",", o.readers())));
        }
        return c;
    }

    /**
     * The jruby-complete jar: the one given, else the one the build copied beside this module's jar (into
     * {@code sluice-cli/target/jruby/} for the command line), else the one on the class path.
     *
     * @throws IOException naming where it looked, when there is none
     */
    public static Path jrubyJar(Path given) throws IOException {
        if (given != null) {
            if (!Files.isRegularFile(given)) {
                throw new IOException("no such jar: " + given);
            }
            return given;
        }
        String property = System.getProperty("sluice.jruby.jar");
        if (property != null && Files.isRegularFile(Path.of(property))) {
            return Path.of(property);
        }
        Path here = codeSource(JRubyBench.class).getParent();
        for (Path dir : List.of(here.resolveSibling("jruby"), here.resolve("jruby"))) {
            if (Files.isDirectory(dir)) {
                try (Stream<Path> s = Files.list(dir)) {
                    var jar = s.filter(p -> p.getFileName().toString().matches("jruby-complete.*\\.jar")).findFirst();
                    if (jar.isPresent()) {
                        return jar.get();
                    }
                }
            }
        }
        try {
            return codeSource(Class.forName("org.jruby.Main"));
        } catch (ClassNotFoundException e) {
            throw new IOException("no jruby-complete jar found beside " + here + " nor on the class path: build with "
                    + "./mvnw -pl sluice-cli -am package, or name one with --jruby-jar");
        }
    }

    /**
     * Where the gem's binding ({@code require "sluice"}, module sluice-jruby) is: its jar, or its classes directory.
     * Found as a resource rather than through a class, which would load JRuby's classes into this JVM.
     *
     * @throws IOException when sluice-jruby is not on the class path
     */
    public static Path bindingJar() throws IOException {
        String name = "io/sluice/jruby/SluiceLibrary.class";
        java.net.URL u = JRubyBench.class.getClassLoader().getResource(name);
        if (u == null) {
            throw new IOException("sluice-jruby is not on the class path, so this build has no JRuby sections");
        }
        try {
            if (u.getProtocol().equals("jar")) {
                return Path.of(((java.net.JarURLConnection) u.openConnection()).getJarFileURL().toURI());
            }
            Path p = Path.of(u.toURI());
            for (int i = 0; i < name.split("/").length; i++) {
                p = p.getParent();
            }
            return p;
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new IOException("cannot tell where " + u + " is", e);
        }
    }

    private static Path codeSource(Class<?> c) throws IOException {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IOException("cannot tell where " + c.getName() + " was loaded from", e);
        }
    }

    /** The rows of the child's sample lines, measured rounds only, in the order first seen. */
    static Result parse(List<String> lines) {
        Map<String, List<Sample>> samples = new LinkedHashMap<>();
        Map<String, String[]> keys = new LinkedHashMap<>();
        String runtime = "";
        for (String line : lines) {
            String[] f = line.split("\t");
            if (f[0].equals("info") && f.length == 3 && f[1].equals("jruby")) {
                // One line per child: the writes' and the reads' JVMs differ in compile mode.
                runtime = runtime.isEmpty() || runtime.equals(f[2]) ? f[2] : runtime + "; " + f[2];
            } else if (f[0].equals("sample") && f.length == 11) {
                String key = f[1] + "\t" + f[2] + "\t" + f[3] + "\t" + f[4];
                keys.putIfAbsent(key, f);
                List<Sample> list = samples.computeIfAbsent(key, k -> new ArrayList<>());
                if (Integer.parseInt(f[5]) > 0) {
                    list.add(new Sample(Double.parseDouble(f[8]), Double.parseDouble(f[9]), Double.parseDouble(f[10]),
                            Long.parseLong(f[6]), Long.parseLong(f[7])));
                }
            }
        }
        List<Row> rows = new ArrayList<>();
        for (var e : samples.entrySet()) {
            String[] f = keys.get(e.getKey());
            if (!e.getValue().isEmpty()) {
                rows.add(new Row(f[1], f[2], Integer.parseInt(f[3]), f[4], List.copyOf(e.getValue())));
            }
        }
        return new Result(rows, runtime);
    }

    // ---------------------------------------------------------------- the table

    /** Seed 000's tables, one per cell, fastest first, with our ratios to Ruby's File and the seed's. */
    public static void table(Result result, PrintWriter out) {
        out.println("JRuby " + result.runtime());
        for (List<Row> cell : cells(result.rows()).values()) {
            Row first = cell.get(0);
            Row base = find(cell, first.baseline());
            boolean writes = first.workload().equals("seqwrite");
            String from = !writes || result.forks() == 1 ? "after a rehearsal"
                    : onePerRound(result.forks(), first.samples().size()) && asThePost(first.file())
                            ? String.format(Locale.ROOT, "from %d JVMs per row, each a fresh JVM's first run, as the "
                                    + "post's harness times its measured pass", result.forks())
                            : String.format(Locale.ROOT, "from %d JVMs per row, each after a rehearsal", result.forks());
            out.printf(Locale.ROOT, "%n%s, %s String chunks, %s file: %s per run; medians of %d rounds %s%n",
                    first.workload(), chunkLabel(first.chunk()), first.file(), sizeLabel(first.samples().get(0).bytes()),
                    first.samples().size(), from);
            List<String> headers = new ArrayList<>(List.of("", "user", "system", "total", "real", "MB/s", "spread",
                    "x File"));
            List<TextTable.Align> aligns = new ArrayList<>(List.of(TextTable.Align.LEFT));
            while (aligns.size() < headers.size()) {
                aligns.add(TextTable.Align.RIGHT);
            }
            if (writes) {
                headers.add("seed x File");
                aligns.add(TextTable.Align.RIGHT);
            }
            TextTable table = new TextTable("", headers, aligns);
            List<Row> sorted = new ArrayList<>(cell);
            sorted.sort(Comparator.comparingDouble(Row::real));
            int i = 0;
            for (Row r : sorted) {
                List<String> cells = new ArrayList<>(List.of(++i + " " + LABELS.getOrDefault(r.contender(),
                        r.contender()), seconds(r.user()), seconds(r.system()), seconds(r.user() + r.system()),
                        "(" + seconds(r.real()) + ")", String.format(Locale.ROOT, "%.1f", r.mbPerSec()),
                        String.format(Locale.ROOT, "%.1f%%", r.spread() * 100), fmt(ratio(r, base))));
                if (writes) {
                    cells.add(fmt(seedRatio(r)));
                }
                table.row(cells.toArray(String[]::new));
            }
            table.print(out);
        }
        out.println();
        out.println("user and system are the whole JRuby process's CPU seconds (Process.times, as Ruby's Benchmark), real");
        out.println("the wall-clock; all medians over the rounds. spread is (max - min) / median of MB/s. x File is MB/s");
        out.println("against Ruby's File in the same cell (File#read for reads); seed x File is the same ratio in seed 000's");
        out.println("2 GB runs (JRuby 1.7, Java 7, OS X). Each round runs every row once (writers in orders where");
        out.println("each follows every other equally often, reads in rotating order). Writes: as in the seed's harness,");
        out.println("each writer runs in a JVM of its own (user and system are that JVM's) and is made (the seed's map the");
        out.println("whole file) before the timing and closed after it; before each, untimed, the previous run's file is");
        out.println("flushed to the disk (fdatasync), so that no row pays for another's writeback, and a cached cell's");
        out.println("file is read back into the page cache where the kernel dropped it. Sluice::MappedWriter is told the");
        out.println("size, as the seed's writers are, and maps one window of the whole file; the 64 MiB windows row is");
        out.println("not told it. A rewritten cell's writer writes the whole file once, untimed, then seeks to 0 and");
        out.println("writes it again, timed with its seek, as the seed's harness times each row's second pass: the seed's");
        out.println("writers map the file again in their seek, Sluice::MappedWriter keeps the window it has; Ruby's");
        out.println("File writes a file of its own there, as in the seed's harness.");
        if (result.heap() > 0) {
            out.printf(Locale.ROOT, "Every JRuby JVM had a fixed heap of %s, touched when it started (-Xms, -Xmx,%n"
                    + "-XX:+AlwaysPreTouch), so that no timed run grows the heap into memory touched for the first time.%n",
                    sizeLabel(result.heap()));
        }
        out.flush();
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.6f", s);
    }

    /** JSON rows with the fields of the other sections, plus {@code userSec}, {@code systemSec}, {@code realSec} and
     * {@code seedRatioToBaseline}. */
    public static void json(Result result, PrintWriter out) {
        out.println("[");
        List<Row> rows = result.rows();
        int i = 0;
        for (List<Row> cell : cells(rows).values()) {
            for (Row r : cell) {
                Row base = find(cell, r.baseline());
                out.printf(Locale.ROOT, "  {\"engine\": \"%s\", \"workload\": \"%s\", \"blockSize\": %d, \"threads\": 1, "
                                + "\"opsPerMs\": %.3f, \"mbPerSec\": %.3f, \"spread\": %.4f, \"rounds\": %d, "
                                + "\"ratioToClassic\": null, \"fioReference\": null, \"ratioToFio\": null, "
                                + "\"direct\": false, \"depth\": 1, \"file\": \"%s\", \"baseline\": \"%s\", "
                                + "\"ratioToBaseline\": %s, \"userSec\": %.6f, \"systemSec\": %.6f, \"realSec\": %.6f, "
                                + "\"seedRatioToBaseline\": %s}%s%n",
                        r.contender(), r.workload(), r.chunk(), r.opsPerMs(), r.mbPerSec(), r.spread(),
                        r.samples().size(), r.file(), r.baseline(), num(ratio(r, base)), r.user(), r.system(),
                        r.real(), num(seedRatio(r)), ++i < rows.size() ? "," : "");
            }
        }
        out.println("]");
        out.flush();
    }

    private static Map<String, List<Row>> cells(List<Row> rows) {
        Map<String, List<Row>> cells = new LinkedHashMap<>();
        for (Row r : rows) {
            cells.computeIfAbsent(r.cell(), k -> new ArrayList<>()).add(r);
        }
        return cells;
    }

    private static Row find(List<Row> cell, String contender) {
        for (Row r : cell) {
            if (r.contender().equals(contender)) {
                return r;
            }
        }
        return null;
    }

    /** How many times faster {@code r} ran than {@code base} (medians of MB/s); NaN without a base. */
    private static double ratio(Row r, Row base) {
        return base == null || r == null ? Double.NaN : r.mbPerSec() / base.mbPerSec();
    }

    /** The same ratio in the seed's results, for the rows and chunk sizes it had. */
    static double seedRatio(Row r) {
        double[] row = SEED_REAL.get(r.contender());
        double[] base = SEED_REAL.get(r.baseline());
        int k = switch (r.chunk()) {
            case 1024 -> 0;
            case 4096 -> 1;
            case 16384 -> 2;
            default -> -1;
        };
        return row == null || base == null || k < 0 ? Double.NaN : base[k] / row[k];
    }

    private static String chunkLabel(int chunk) {
        return chunk % 1024 == 0 ? chunk / 1024 + "k" : chunk + "-byte";
    }

    private static String sizeLabel(long bytes) {
        if (bytes % (1L << 30) == 0) {
            return bytes / (1L << 30) + " GiB";
        }
        return bytes % (1L << 20) == 0 ? bytes / (1L << 20) + " MiB" : bytes + " bytes";
    }

    private static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.2f", v);
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "null" : String.format(Locale.ROOT, "%.4f", v);
    }
}
