package io.sluice;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * The I/O mechanisms behind a {@link PositionalFile}.
 *
 * <p>Every engine honours the same contract (the javadoc of {@link PositionalFile}); they differ in how the bytes
 * move and therefore in speed. Whether an engine can run here is probed the first time it is asked, never at class
 * load, and the reason it cannot is kept: {@link #unavailabilityCause()}.
 *
 * <p>{@link #best()} picks the engine {@code PositionalFile.open(path)} uses: AUTO, which chooses among the others per
 * call. Which one that is may change between releases; set the system property {@value #PROPERTY} (for example {@code -Dsluice.engine=MMAP}) to
 * force one.
 */
public enum Engine {
    /**
     * {@link java.io.RandomAccessFile} with {@code seek} and {@code read} under one lock: the way the JDK's
     * {@code ZipFile} and many older libraries still read. It serialises all threads and is kept as the baseline
     * every benchmark compares against.
     */
    CLASSIC("RandomAccessFile, seek+read under a lock (the JDK's traditional way; baseline)"),
    /**
     * {@link java.nio.channels.FileChannel} positional reads and writes ({@code pread}/{@code pwrite}): no lock, so
     * threads proceed in parallel. Heap arrays are copied through page-aligned direct buffers, and a thread
     * interrupt does not leave the file closed for other threads.
     */
    CHANNEL("FileChannel pread/pwrite, lock-free, page-aligned bounce buffers"),
    /**
     * The file mapped into memory with {@link java.nio.channels.FileChannel#map(java.nio.channels.FileChannel.MapMode,
     * long, long, java.lang.foreign.Arena)}: reads and writes are memory copies, with no system call once the pages
     * are resident. Files of any size; {@code madvise} hints through {@link Advice}.
     */
    MMAP("memory-mapped MemorySegment, madvise hints"),
    /**
     * Linux io_uring through the FFM API, with no native library: registered files and buffers, batches submitted
     * with one system call, asynchronous reads and writes, and O_DIRECT ({@link SluiceOption#DIRECT}). Needs Linux
     * 5.6+, x86-64 or arm64, and native access for this module.
     */
    IO_URING("Linux io_uring rings through FFM syscalls; registered files and buffers"),
    /**
     * The fastest of the others for each call, chosen while running: small reads copied out of a mapping of the
     * file, larger ones by {@code pread}, writes by {@code pwrite}, {@link IoBatch batches} and
     * {@link PositionalFile#readAsync asynchronous} calls through io_uring when it is available. The size up to which
     * reads use the mapping is measured on this machine at first use and refined from the rates the calls show (see
     * {@link #autoThresholds()}). One file, one channel: a write by one path is seen by a read by another. With
     * {@link SluiceOption#DIRECT}, {@code SQPOLL} or {@code IOPOLL}, whose transfers all need a ring, AUTO opens an
     * IO_URING file. Available everywhere; without io_uring, batches and asynchronous calls run one by one.
     */
    AUTO("per call: mapped copies for small reads, pread/pwrite, io_uring for batches and async; measured thresholds");

    /** The system property that forces {@link #best()} to return a given engine. */
    public static final String PROPERTY = "sluice.engine";

    private final String description;

    Engine(String description) {
        this.description = description;
    }

    /** One line saying how this engine moves bytes. */
    public String description() {
        return description;
    }

    /** Whether this engine can be used in this JVM on this machine. */
    public boolean isAvailable() {
        return unavailabilityCause().isEmpty();
    }

    /** Why this engine cannot be used here, or empty when it can. */
    public Optional<String> unavailabilityCause() {
        return switch (this) {
            case CLASSIC, CHANNEL, MMAP, AUTO -> Optional.empty();
            case IO_URING -> Optional.ofNullable(UringPool.unavailabilityCause());
        };
    }

    /**
     * Throws when this engine cannot be used here.
     *
     * @throws UnsupportedOperationException naming the engine and the cause
     */
    public void requireAvailable() {
        Optional<String> cause = unavailabilityCause();
        if (cause.isPresent()) {
            throw new UnsupportedOperationException("engine " + this + " is not available: " + cause.get());
        }
    }

    /**
     * The engine {@link PositionalFile#open(java.nio.file.Path, java.nio.file.OpenOption...)} uses: the one named by
     * the system property {@value #PROPERTY} if set, else AUTO.
     *
     * <p>Why AUTO: each of the others wins somewhere and loses elsewhere (a mapping copies small reads of cached data
     * faster than {@code pread}, and large ones slower; io_uring wins with many requests in flight and loses on one
     * blocking call at a time), and AUTO sends each call to the one that wins for its shape, measured on this
     * machine; it passes the whole contract suite. Name an engine to have only its behaviour, for example MMAP to
     * map every read, or CHANNEL for no mapping at all.
     * This choice may change between releases as the engines do.
     *
     * @throws IllegalArgumentException if the property names no engine
     * @throws UnsupportedOperationException if the property names an engine that cannot run here
     */
    public static Engine best() {
        String forced = System.getProperty(PROPERTY);
        if (forced != null && !forced.isBlank()) {
            Engine e = parse(forced);
            e.requireAvailable();
            return e;
        }
        return AUTO;
    }

    /**
     * The thresholds {@link #AUTO} starts from on this machine and where they came from, in words: for example
     * {@code reads up to 64 KiB (native memory) and 256 KiB (heap memory) through the mapping; calibrated at first
     * use, cached in /home/u/.cache/sluice/auto-thresholds.properties}. Looking may run the calibration (a fraction
     * of a second) when nothing is pinned or cached yet. The system property {@code sluice.auto.map-max} pins them
     * ({@code 64k}, or {@code 64k,256k} for native and heap memory).
     */
    public static String autoThresholds() {
        AutoThresholds t = AutoThresholds.current();
        return "reads up to " + bytes(t.nativeMapMax()) + " (native memory) and " + bytes(t.heapMapMax())
                + " (heap memory) through the mapping, larger by pread; " + t.source();
    }

    /**
     * What {@link #AUTO} has learned in this JVM, per device it has read from: for each size class and kind of
     * memory with timed reads, the path it prefers now, what each path's fastest reads took, how often the
     * preference changed and how often the class still tries the other path. For {@code sluice info} and the
     * benchmarks, to read a result with the path AUTO took; the wording may change between releases.
     */
    public static String autoChoices() {
        return AutoFile.describeChoosers();
    }

    /**
     * Measures {@link #AUTO}'s thresholds again, on a temporary file in {@code dir} (the device to be measured), and
     * stores them in this machine's cache file, which later JVMs read instead of calibrating; {@code sluice bench}
     * calls this under its lock, where the machine is quietest. Returns {@link #autoThresholds()} afterwards.
     *
     * @throws IOException if the file cannot be written, mapped or read, or the cache file cannot be written
     */
    public static String calibrateAuto(Path dir) throws IOException {
        AutoThresholds t = AutoThresholds.calibrate(dir);
        AutoThresholds.store(AutoThresholds.cacheFile(), t, "sluice bench, on " + dir);
        AutoThresholds.forget();
        return autoThresholds();
    }

    static String bytes(long n) {
        if (n >= 1 << 20 && n % (1 << 20) == 0) {
            return (n >> 20) + " MiB";
        }
        if (n >= 1 << 10 && n % (1 << 10) == 0) {
            return (n >> 10) + " KiB";
        }
        return n + " bytes";
    }

    /**
     * The engine with this name, ignoring case ({@code "mmap"}, {@code "io_uring"} and {@code "io-uring"} all work).
     *
     * @throws IllegalArgumentException naming the valid values
     */
    public static Engine parse(String name) {
        String n = name.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (Engine e : values()) {
            if (e.name().equals(n)) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown engine '" + name + "': expected one of CLASSIC, CHANNEL, MMAP, IO_URING, AUTO");
    }
}
