package io.sluice.bench;

import io.sluice.Engine;
import io.sluice.PositionalFile;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.InterruptedIOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A Java contender measured in a JVM of its own ({@link ContenderHost}), started once and kept for the run, or
 * replaced by a fresh one between groups of rounds ({@link #restart}, {@code --forks}), as JMH forks: in one JVM, the
 * engines' reads share call sites ({@code PositionalFile.read} calling an engine's {@code readBuffer}), whose type
 * profile fills with whichever engine ran first, so C2 inlines that one and the others pay a megamorphic call; how
 * much depends on the order, not on the engine. In its own JVM each contender's call sites see one type only. Which
 * methods C2 compiles, and how, still varies from one JVM to the next, hence several JVMs per row with
 * {@code --forks}.
 *
 * <p>The child opens the data file itself, by path, and measures when asked: {@link #measure} is a round trip over
 * the child's standard input and output, so the caller's rounds, rotation and warm-up are unchanged. The child's
 * standard error goes to the log, each line prefixed with the contender's name. The name, the fio reference and the
 * adapted workload are answered here, without a round trip.
 */
final class ForkedContender implements Contender {
    /** The contenders a child can run. */
    enum Kind {
        /** {@link SluiceContender}: the engine's own {@code PositionalFile}. */
        SLUICE,
        /** {@link FileChannelAdapterContender}: sluice-nio's FileChannel over the engine. */
        FILE_CHANNEL_ADAPTER,
        /** {@link ChannelContender#naiveDirect}: a plain FileChannel (the engine is ignored). */
        NAIVE_DIRECT,
        /** {@link AsyncChannelContender#jdk}: the JDK's AsynchronousFileChannel (the engine is ignored). */
        ASYNC_JDK,
        /** {@link AsyncChannelContender#sluice}: sluice-nio's AsynchronousFileChannel over IO_URING. */
        ASYNC_SLUICE;

        JavaContender open(Engine engine, int depth, boolean direct, Path path, long size) throws IOException {
            return switch (this) {
                case SLUICE -> new SluiceContender(engine, path, size);
                case FILE_CHANNEL_ADAPTER -> new FileChannelAdapterContender(engine, path, size);
                case NAIVE_DIRECT -> ChannelContender.naiveDirect(path, size);
                case ASYNC_JDK -> AsyncChannelContender.jdk(path, size, depth, direct);
                case ASYNC_SLUICE -> AsyncChannelContender.sluice(path, size, depth, direct);
            };
        }

        String name(Engine engine) {
            return switch (this) {
                case SLUICE -> engine.name();
                case FILE_CHANNEL_ADAPTER -> FileChannelAdapterContender.PREFIX + engine.name();
                case NAIVE_DIRECT -> ChannelContender.NAIVE_DIRECT;
                case ASYNC_JDK -> AsyncChannelContender.JDK;
                case ASYNC_SLUICE -> AsyncChannelContender.SLUICE;
            };
        }

        String fioReference(Engine engine) {
            return switch (this) {
                case SLUICE, FILE_CHANNEL_ADAPTER -> SluiceContender.fioReference(engine);
                case NAIVE_DIRECT -> ChannelContender.FIO_REFERENCE;
                case ASYNC_JDK, ASYNC_SLUICE -> AsyncChannelContender.fioReference(name(engine));
            };
        }
    }

    /** How long a child may take to start the JVM and open its file (a loaded machine, AUTO's first calibration). */
    private static final long START_NANOS = TimeUnit.SECONDS.toNanos(120);
    /** Beyond a sample's own time, how long its answer may take (making the threads' offsets and buffers, GC). */
    private static final long MARGIN_NANOS = TimeUnit.SECONDS.toNanos(60);
    /** How long a child has to exit after {@code quit} before it is killed. */
    private static final long EXIT_SECONDS = 5;
    /** Lines of the child's standard error kept for a failure's message. */
    private static final int TAIL_LINES = 20;
    /** Put on the answer queue when the child's standard output ends. */
    private static final String EOF = new String("end of output");
    /** Every child not yet ended, killed by the shutdown hook when the run is stopped (Ctrl-C, an exception). */
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (Process p : LIVE) {
                p.destroyForcibly();
            }
        }, "sluice-bench-children"));
    }

    private final Kind kind;
    private final Engine engine;
    private final int depth;
    private final List<String> command;
    private final PrintWriter log;
    /** Who measures now: the first child, or the one {@link #restart} put in its place. */
    private Child child;
    /** Every sample asked for, warm-ups included, in order: which child answered and how long it ran; for tests. */
    private final List<Measured> measured = new ArrayList<>();

    /** One sample asked of a child: its process id and the sample's length. */
    record Measured(long pid, long nanos) {
    }

    private ForkedContender(Kind kind, Engine engine, int depth, boolean direct, Path path, long size, PrintWriter log)
            throws IOException {
        this.kind = kind;
        this.engine = engine;
        this.depth = depth;
        this.log = log;
        this.command = command(ContenderHost.class.getName(), List.of(kind.name(), engine.name(),
                Integer.toString(depth), Boolean.toString(direct), Long.toString(size), path.toString()));
        this.child = new Child(null);
    }

    /** The engine's own {@code PositionalFile} ({@link SluiceContender}) in a child JVM; {@code log}: its output. */
    static ForkedContender sluice(Engine engine, Path path, long size, PrintWriter log) throws IOException {
        return new ForkedContender(Kind.SLUICE, engine, 1, false, path, size, log);
    }

    /** The plain FileChannel baseline {@value ChannelContender#NAIVE_DIRECT} in a child JVM. */
    static ForkedContender naiveDirect(Path path, long size, PrintWriter log) throws IOException {
        return new ForkedContender(Kind.NAIVE_DIRECT, Engine.CHANNEL, 1, false, path, size, log);
    }

    /** sluice-nio's FileChannel over the engine ({@link FileChannelAdapterContender}) in a child JVM. */
    static ForkedContender fileChannelAdapter(Engine engine, Path path, long size, PrintWriter log)
            throws IOException {
        return new ForkedContender(Kind.FILE_CHANNEL_ADAPTER, engine, 1, false, path, size, log);
    }

    /** An {@link AsyncChannelContender}, the JDK's ({@code jdk}) or sluice-nio's, in a child JVM. */
    static ForkedContender async(boolean jdk, Path path, long size, int depth, boolean direct, PrintWriter log)
            throws IOException {
        return new ForkedContender(jdk ? Kind.ASYNC_JDK : Kind.ASYNC_SLUICE, Engine.IO_URING, depth, direct, path,
                size, log);
    }

    @Override
    public String name() {
        return kind.name(engine);
    }

    @Override
    public String fioReference() {
        return kind.fioReference(engine);
    }

    @Override
    public Workload adapt(Workload w) {
        return kind == Kind.ASYNC_JDK || kind == Kind.ASYNC_SLUICE ? w.withDepth(depth) : w;
    }

    @Override
    public Sample measure(Workload workload, int threads, long nanos) throws IOException {
        Child c = child;
        measured.add(new Measured(c.pid, nanos));
        String a = c.request(ContenderHost.measureRequest(workload, threads, nanos), workload, nanos + MARGIN_NANOS);
        String[] f = a.split(" ");
        if (f.length == 3 && f[0].equals("sample")) {
            try {
                return new Sample(Double.parseDouble(f[1]), Double.parseDouble(f[2]));
            } catch (NumberFormatException e) {
                // answered garbage: below
            }
        }
        throw c.garbage(a, workload);
    }

    /**
     * Puts a fresh child JVM, started with the same command, in the place of the present one, which is told to quit
     * and reaped first: two children of one contender never run at once (they would compete for the cores). The new
     * child has compiled nothing yet, so the caller warms it up before recording its samples.
     *
     * @param next the workload the new child is to measure, for a failure's message
     * @throws IOException if the present child has died or exits with a failure when told to quit (its samples may
     *                     not be what it reported), or if the new one cannot start; the message names the contender,
     *                     the workload, the exit code and the child's last lines of standard error
     */
    void restart(Workload next) throws IOException {
        child.retire(next);
        child = new Child(next);
    }

    /**
     * {@link Engine#autoChoices()} as the child sees it: what AUTO's reads went by there. After a {@link #restart},
     * that is the newest child, which has seen only the reads made since it started.
     */
    String autoChoices() throws IOException {
        Child c = child;
        String a = c.request("auto", null, MARGIN_NANOS);
        if (!a.startsWith("auto ")) {
            throw c.garbage(a, null);
        }
        return ContenderHost.unescape(a.substring(5));
    }

    /** The present child's process id, as the child itself reports it. */
    long childPid() throws IOException {
        Child c = child;
        String a = c.request("pid", null, MARGIN_NANOS);
        try {
            if (a.startsWith("pid ")) {
                return Long.parseLong(a.substring(4));
            }
        } catch (NumberFormatException e) {
            // answered garbage: below
        }
        throw c.garbage(a, null);
    }

    /** The present child's process, for tests. */
    ProcessHandle process() {
        return child.process.toHandle();
    }

    /** Every sample asked of this contender's children so far, warm-ups included, oldest first; for tests. */
    List<Measured> measured() {
        return List.copyOf(measured);
    }

    /** Ends the child: asks it to quit, and kills it if it has not exited within a few seconds. */
    @Override
    public void close() throws IOException {
        child.close();
    }

    /** One child JVM and the pipes to it; a contender has one at a time. */
    private final class Child {
        private final Process process;
        private final Writer requests;
        private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
        private final ChildStderr stderr;
        private final long pid;

        /** Starts the JVM and waits for its {@code ready}; {@code next}: the workload it is started for, if any. */
        Child(Workload next) throws IOException {
            ProcessBuilder pb = new ProcessBuilder(command);
            // Their options are in the parent's input arguments already, which the child is given; read again by the
            // child's launcher they would be there twice (and a debugger's port taken twice).
            pb.environment().remove("JAVA_TOOL_OPTIONS");
            pb.environment().remove("JDK_JAVA_OPTIONS");
            try {
                this.process = pb.start();
            } catch (IOException e) {
                throw new IOException(name() + (next == null ? "" : ", to measure " + next)
                        + ": cannot start its JVM with " + command.get(0) + ": " + e.getMessage(), e);
            }
            LIVE.add(process);
            this.pid = process.pid();
            this.requests = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            String prefix = "  [" + name() + ", pid " + pid + "] ";
            Thread.ofPlatform().daemon().name("sluice-bench-child-out-" + pid).start(() -> readAnswers(process
                    .getInputStream()));
            this.stderr = new ChildStderr(process, log, prefix, TAIL_LINES, "sluice-bench-child-err-" + pid);
            boolean started = false;
            try {
                String ready = answer("start", next, START_NANOS);
                if (!ready.equals("ready " + pid)) {
                    throw failure("started with '" + ready + "' instead of 'ready " + pid + "'", next);
                }
                started = true;
            } finally {
                if (!started) {
                    kill();
                }
            }
        }

        /**
         * Ends this child before another takes its place: it must still be running and exit cleanly when told to
         * quit, since a child that died or failed may have reported samples it did not finish.
         */
        void retire(Workload next) throws IOException {
            if (!process.isAlive()) {
                waitQuietly(EXIT_SECONDS);
                LIVE.remove(process);
                throw failure("had ended before it was to be replaced by a fresh JVM", next);
            }
            try {
                if (!quit()) {
                    // Slow to close its file, not wrong: its samples are in, and the new child must not share the
                    // cores with it.
                    kill();
                    log.printf(Locale.ROOT, "note: %s's child JVM %d did not exit within %d s of 'quit' and was "
                            + "killed%n", name(), pid, EXIT_SECONDS);
                    log.flush();
                    return;
                }
            } catch (InterruptedException e) {
                kill();
                Thread.currentThread().interrupt();
                throw new InterruptedIOException(name() + " in child JVM " + pid + ": interrupted waiting for it to "
                        + "quit before " + next + "; the child was killed");
            }
            LIVE.remove(process);
            if (process.exitValue() != 0) {
                throw failure("failed when told to quit before being replaced by a fresh JVM", next);
            }
        }

        /** Asks the child to quit, and kills it if it has not exited within a few seconds. */
        void close() {
            try {
                if (process.isAlive() && !quit()) {
                    kill();
                }
            } catch (InterruptedException e) {
                kill();
                Thread.currentThread().interrupt();
            } finally {
                LIVE.remove(process);
            }
        }

        /** Tells the child to quit and waits a few seconds for it: whether it exited. */
        private boolean quit() throws InterruptedException {
            try {
                requests.write("quit\n");
                requests.flush();
            } catch (IOException e) {
                // Gone already, or going: its exit code says how.
            }
            return process.waitFor(EXIT_SECONDS, TimeUnit.SECONDS);
        }

        String request(String line, Workload w, long timeoutNanos) throws IOException {
            try {
                requests.write(line + "\n");
                requests.flush();
            } catch (IOException e) {
                // A broken pipe: the child has exited, and its exit code and stderr say why.
                kill();
                throw failure("could not be sent '" + line + "' (" + e.getMessage() + ")", w);
            }
            return answer(line, w, timeoutNanos);
        }

        private String answer(String what, Workload w, long timeoutNanos) throws IOException {
            String a;
            try {
                a = answers.poll(timeoutNanos, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                kill();
                Thread.currentThread().interrupt();
                throw new InterruptedIOException(name() + " in child JVM " + pid + ": interrupted waiting for '" + what
                        + "'; the child was killed");
            }
            if (a == null) {
                kill();
                throw failure(String.format(Locale.ROOT, "gave no answer to '%s' within %.0f s and was killed", what,
                        timeoutNanos / 1e9), w);
            }
            if (a == EOF) {
                // Kept for the next request, which must fail at once too rather than wait for an answer that cannot
                // come.
                answers.add(EOF);
                // Sets the exit code, which the message gives.
                waitQuietly(EXIT_SECONDS);
                throw failure("ended its output while asked '" + what + "'", w);
            }
            return a;
        }

        IOException garbage(String answer, Workload w) {
            kill();
            return failure("answered '" + answer + "', which is no answer of the protocol; the child was killed", w);
        }

        /**
         * A failure's exception: the contender, the workload, the child's exit code and the end of its standard
         * error.
         */
        private IOException failure(String what, Workload w) {
            if (!process.isAlive()) {
                try {
                    // The child's last lines may still be on their way through the pipe.
                    stderr.awaitEnd(TimeUnit.SECONDS.toMillis(EXIT_SECONDS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            StringBuilder b = new StringBuilder();
            b.append(name()).append(" (child JVM, pid ").append(pid).append(")");
            if (w != null) {
                b.append(", measuring ").append(w);
            }
            b.append(": the child ").append(what).append("; exit code ")
                    .append(process.isAlive() ? "none (still running)" : Integer.toString(process.exitValue()));
            List<String> tail = stderr.lastLines();
            if (tail.isEmpty()) {
                b.append("; nothing on its standard error");
            } else {
                b.append("; last lines of its standard error:");
                for (String l : tail) {
                    b.append(System.lineSeparator()).append("    ").append(l);
                }
            }
            return new IOException(b.toString());
        }

        private void kill() {
            process.destroyForcibly();
            waitQuietly(EXIT_SECONDS);
            if (!process.isAlive()) {
                LIVE.remove(process);
            }
        }

        private void waitQuietly(long seconds) {
            try {
                process.waitFor(seconds, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private void readAnswers(InputStream out) {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(out, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    answers.add(line);
                }
            } catch (IOException e) {
                // The pipe closed under the reader (the child killed): the end of the output, as below.
            }
            answers.add(EOF);
        }
    }

    /**
     * The command that starts {@code mainClass} in a JVM like this one: the same java binary, class path and JVM
     * options ({@link #jvmOptions}).
     */
    static List<String> command(String mainClass, List<String> args) {
        List<String> c = new ArrayList<>();
        c.add(ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        List<String> input = ManagementFactory.getRuntimeMXBean().getInputArguments();
        c.addAll(jvmOptions(input));
        if (input.stream().noneMatch(o -> o.startsWith("--enable-native-access"))
                && PositionalFile.class.getModule().isNativeAccessEnabled()) {
            // Granted by the manifest of a jar run with java -jar (Enable-Native-Access), which the child, started
            // with a class path and a main class, does not read.
            Module m = PositionalFile.class.getModule();
            c.add("--enable-native-access=" + (m.isNamed() ? m.getName() : "ALL-UNNAMED"));
        }
        c.add("-cp");
        c.add(System.getProperty("java.class.path"));
        c.add(mainClass);
        c.addAll(args);
        return c;
    }

    /**
     * The parent's JVM options that a child may be given too: all but those that would make every child write the
     * parent's output files again, or compete with it for something only one JVM can hold.
     */
    static List<String> jvmOptions(List<String> input) {
        List<String> out = new ArrayList<>();
        for (String o : input) {
            boolean drop =
                    // An AOT cache or CDS archive being written at exit (a training run): the children would write it
                    // too, over the parent's. Reading one (-XX:AOTCache, -XX:SharedArchiveFile) is kept.
                    o.startsWith("-XX:AOTCacheOutput") || o.startsWith("-XX:AOTConfiguration")
                            || o.startsWith("-XX:AOTMode") || o.startsWith("-XX:ArchiveClassesAtExit")
                            || o.equals("-XX:+AutoCreateSharedArchive") || o.startsWith("-XX:DumpLoadedClassList")
                            || o.startsWith("-Xshare:dump")
                            // Debugger and agents: a debugger's port is the parent's; an agent instruments what it
                            // was attached to, not the measured child.
                            || o.startsWith("-agentlib:") || o.startsWith("-agentpath:")
                            || o.startsWith("-javaagent:") || o.equals("-Xdebug") || o.startsWith("-Xrunjdwp")
                            // Logs and recordings into a named file: each child would truncate the parent's, unless
                            // the name holds the process id (%p).
                            || (writesNamedFile(o) && !o.contains("%p"));
            if (!drop) {
                out.add(o);
            }
        }
        return out;
    }

    private static boolean writesNamedFile(String o) {
        // -Xlog:WHAT:OUTPUT[:...], where OUTPUT is stdout, stderr, or a file (file=NAME or NAME alone).
        String[] log = o.startsWith("-Xlog:") ? o.split(":", -1) : new String[0];
        boolean logFile = log.length > 2 && !log[2].isEmpty() && !log[2].equals("stdout") && !log[2].equals("stderr");
        return logFile || o.startsWith("-Xloggc:")
                || o.startsWith("-XX:LogFile=")
                || (o.startsWith("-XX:StartFlightRecording") && o.contains("filename="));
    }
}
