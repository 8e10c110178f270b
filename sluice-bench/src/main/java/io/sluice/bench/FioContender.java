package io.sluice.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * fio running the same job as a row of ours: same file, block size, pattern and thread count, page-aligned
 * buffers, and the page cache left as it is ({@code invalidate=0}). fio is C and close to the metal, so its figure
 * is the reference for what this machine can do.
 */
final class FioContender implements Contender {
    /** fio's own warm-up before it starts counting: the mmap engine faults its mapping in during this time. */
    private static final long RAMP_MS = 100;

    private final String ioengine;
    private final Path file;
    private final long fileSize;
    private final List<String> extra;

    FioContender(String ioengine, Path file, long fileSize) {
        this(ioengine, file, fileSize, List.of(), 0);
    }

    private final int depth;
    /** The row's name: fio- and the engine, plus a suffix for a variant such as SQPOLL. */
    private final String name;

    /**
     * With {@code extra} fio options for this engine (for io_uring: registered files) and a queue depth that
     * overrides the cell's.
     */
    FioContender(String ioengine, Path file, long fileSize, List<String> extra, int depth) {
        this("fio-" + ioengine, ioengine, file, fileSize, extra, depth);
    }

    /** The same, in a row named {@code name} (a variant of the engine, such as io_uring with SQPOLL). */
    FioContender(String name, String ioengine, Path file, long fileSize, List<String> extra, int depth) {
        this(name, ioengine, file, fileSize, extra, depth, false);
    }

    /**
     * A synchronous engine (psync) in a cell with {@code depth} requests in flight per thread, as a thread pool of
     * blocking calls keeps them: one fio job per request in flight ({@code --numjobs} = threads x depth), each making
     * one blocking call at a time. This is how the JDK's {@code AsynchronousFileChannel} reads, with a pool thread
     * per outstanding request.
     */
    static FioContender jobPerRequest(String name, String ioengine, Path file, long fileSize, int depth) {
        return new FioContender(name, ioengine, file, fileSize, List.of(), depth, true);
    }

    private FioContender(String name, String ioengine, Path file, long fileSize, List<String> extra, int depth,
            boolean jobPerRequest) {
        this.name = name;
        this.ioengine = ioengine;
        this.file = file;
        this.fileSize = fileSize;
        this.extra = List.copyOf(extra);
        this.depth = depth;
        this.jobPerRequest = jobPerRequest;
    }

    /** Whether the cell's depth is met with that many jobs per thread rather than a queue depth. */
    private final boolean jobPerRequest;

    @Override
    public Workload adapt(Workload w) {
        return depth > 0 ? w.withDepth(depth) : w;
    }

    /** The fio version on PATH, or null when there is none. */
    static String version() {
        try {
            Process p = new ProcessBuilder("fio", "--version").redirectErrorStream(true).start();
            String v = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? v : null;
        } catch (IOException | InterruptedException e) {
            return null;
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String fioReference() {
        return null;
    }

    List<String> command(Workload w, int threads, long nanos) {
        int jobs = jobPerRequest ? threads * w.depth() : threads;
        List<String> cmd = new ArrayList<>(List.of("fio", "--name=sluice", "--filename=" + file,
                "--ioengine=" + ioengine, "--bs=" + w.blockSize(), "--numjobs=" + jobs, "--thread",
                "--group_reporting", "--time_based", "--runtime=" + Math.max(1, nanos / 1_000_000) + "ms",
                "--ramp_time=" + RAMP_MS + "ms", "--invalidate=0", "--iomem_align=4096", "--output-format=json"));
        cmd.addAll(extra);
        if (w.direct()) {
            cmd.add("--direct=1");
        }
        if (w.depth() > 1 && !jobPerRequest) {
            // Keep depth requests in flight, submitted and reaped as whole batches, as IoBatch does.
            cmd.addAll(List.of("--iodepth=" + w.depth(), "--iodepth_batch_submit=" + w.depth(),
                    "--iodepth_batch_complete_min=" + w.depth()));
        }
        if (w.isRandom()) {
            // randwrite overwrites the existing file in place, as our write rows do: it is already fileSize long.
            cmd.addAll(List.of("--rw=" + (w.writes() ? "randwrite" : "randread"), "--size=" + fileSize,
                    "--norandommap", "--randrepeat=0"));
        } else {
            // Like our seqread: thread k reads its own slice [k*size/T, (k+1)*size/T) front to back, wrapping.
            long slice = fileSize / threads / w.blockSize() * w.blockSize();
            cmd.addAll(List.of("--rw=read", "--size=" + slice, "--offset_increment=" + slice));
        }
        return cmd;
    }

    @Override
    public Sample measure(Workload w, int threads, long nanos) throws IOException, InterruptedException {
        List<String> cmd = command(w, threads, nanos);
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(nanos / 1_000_000 + 60_000, TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            throw new IOException("fio did not finish: " + String.join(" ", cmd));
        }
        if (p.exitValue() != 0) {
            throw new IOException("fio exited with " + p.exitValue() + ": " + String.join(" ", cmd));
        }
        return parse(out, cmd, w.writes() ? "write" : "read");
    }

    private static final Pattern BW = Pattern.compile("\"bw_bytes\"\\s*:\\s*([0-9.eE+]+)");
    private static final Pattern IOPS = Pattern.compile("\"iops\"\\s*:\\s*([0-9.eE+]+)");

    /** Reads the group's read bandwidth and IOPS from fio's JSON, which may follow warnings on stdout. */
    static Sample parse(String json, List<String> cmd) throws IOException {
        return parse(json, cmd, "read");
    }

    /**
     * Reads the group's bandwidth and IOPS of one direction ({@code read} or {@code write}, fio's names of the
     * sections) from fio's JSON.
     */
    static Sample parse(String json, List<String> cmd, String direction) throws IOException {
        Matcher r = Pattern.compile("\"" + direction + "\"\\s*:\\s*\\{").matcher(json);
        if (!r.find()) {
            throw new IOException("no " + direction + " results in fio's output of " + String.join(" ", cmd));
        }
        Matcher bw = BW.matcher(json);
        Matcher iops = IOPS.matcher(json);
        if (!bw.find(r.end()) || !iops.find(r.end())) {
            throw new IOException("fio's output has no bw_bytes/iops: " + String.join(" ", cmd));
        }
        double ops = Double.parseDouble(iops.group(1));
        return new Sample(ops / 1000.0, Double.parseDouble(bw.group(1)));
    }

    @Override
    public void close() {
        // nothing held between runs
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s(%s)", name(), file);
    }
}
