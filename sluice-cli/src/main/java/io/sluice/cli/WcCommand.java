package io.sluice.cli;

import io.sluice.ParallelScan;
import io.sluice.cli.wc.CtypeLocale;
import io.sluice.cli.wc.LineCounter;
import io.sluice.cli.wc.WordCounter;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.lang.foreign.MemorySegment;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice wc}: GNU {@code wc}'s counts and output, computed with every core: newlines alone by
 * {@link LineCounter}, anything that looks at characters by {@link ParallelScan} with a {@link WordCounter}.
 *
 * <p>Output matches GNU coreutils 9.1 byte for byte: counts in the order lines, words, characters, bytes, maximum
 * line width; each right-aligned to the width of the largest possible count (the digits of the total size of the
 * regular files named, at least 7 when one is not a regular file, and no padding for one count of one file); a
 * {@code total} line for more than one file, whose maximum line width is the widest of the files'. A file that cannot
 * be read is reported on standard error and skipped; the exit code is then 1. Characters and widths follow the locale
 * as GNU wc's do ({@link CtypeLocale}, {@link WordCounter}).
 */
@Command(name = "wc", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Print newline, word, character and byte counts and the maximum line width for each FILE, and a total "
                    + "line if more than one FILE is given, as GNU wc does. A word is a run of printable characters "
                    + "delimited by white space; characters and their classes and widths follow LC_ALL, LC_CTYPE or "
                    + "LANG (UTF-8 or C).",
            "With no FILE, or when FILE is -, read standard input. Files are read with every core."})
final class WcCommand implements Callable<Integer> {
    /** Bytes read from standard input at once. */
    private static final int STDIN_CHUNK = 1 << 20;
    /** Bytes read from a file at once by each thread: fits in the CPU's cache (1 MiB measured best here). */
    private static final int READ_SIZE = 1 << 20;

    @Spec
    CommandSpec spec;

    @Option(names = {"-c", "--bytes"}, description = "Print the byte counts.")
    boolean bytes;

    @Option(names = {"-m", "--chars"}, description = "Print the character counts.")
    boolean chars;

    @Option(names = {"-l", "--lines"}, description = "Print the newline counts.")
    boolean lines;

    @Option(names = {"-L", "--max-line-length"}, description = "Print the maximum display width.")
    boolean maxLineLength;

    @Option(names = {"-w", "--words"}, description = "Print the word counts.")
    boolean words;

    @Option(names = "--threads", paramLabel = "N", description = "Threads per file (default: one per core).")
    int threads;

    @Parameters(paramLabel = "FILE", arity = "0..*", description = "Files to count; - for standard input.")
    List<String> files;

    /** The environment that selects the locale; tests replace it. */
    Map<String, String> env = System.getenv();

    /** Standard input; tests replace it. */
    InputStream stdin = System.in;

    /** The counts of one input. */
    private record Counts(long lines, long words, long chars, long bytes, long maxLineLength) {
        static final Counts ZERO = new Counts(0, 0, 0, 0, 0);

        /** These counts and {@code o}'s: the sums, and the wider of the two maximum line widths. */
        Counts plus(Counts o) {
            return new Counts(lines + o.lines, words + o.words, chars + o.chars, bytes + o.bytes,
                    Math.max(maxLineLength, o.maxLineLength));
        }
    }

    /**
     * The command as picocli would build it from {@code args} (which begin with {@code wc}), or null when they hold
     * anything but the counting options, {@code --threads}, {@code --} and file names: help, version, a typo. Then
     * picocli parses them, and writes the usage or the error. Counting a file is often a whole process's work, and
     * picocli's reflection over the annotations costs more start-up time than a small file takes to count (about
     * 0.1 s of CPU here), so the usual invocations skip it.
     */
    static WcCommand quick(String[] args) {
        WcCommand c = new WcCommand();
        List<String> names = new ArrayList<>();
        boolean options = true;
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (!options || a.equals("-") || !a.startsWith("-")) {
                names.add(a);
            } else if (a.equals("--")) {
                options = false;
            } else if (a.startsWith("--")) {
                switch (a) {
                    case "--lines" -> c.lines = true;
                    case "--words" -> c.words = true;
                    case "--bytes" -> c.bytes = true;
                    case "--chars" -> c.chars = true;
                    case "--max-line-length" -> c.maxLineLength = true;
                    case "--threads" -> {
                        if (i + 1 == args.length) {
                            return null;
                        }
                        if (!c.threads(args[++i])) {
                            return null;
                        }
                    }
                    default -> {
                        if (!a.startsWith("--threads=") || !c.threads(a.substring("--threads=".length()))) {
                            return null;
                        }
                    }
                }
            } else {
                for (int j = 1; j < a.length(); j++) {
                    switch (a.charAt(j)) {
                        case 'l' -> c.lines = true;
                        case 'w' -> c.words = true;
                        case 'c' -> c.bytes = true;
                        case 'm' -> c.chars = true;
                        case 'L' -> c.maxLineLength = true;
                        default -> {
                            return null;
                        }
                    }
                }
            }
        }
        c.files = names;
        return c;
    }

    /** Sets {@link #threads} from a decimal number; false (for picocli to explain) when it is not one. */
    private boolean threads(String value) {
        try {
            threads = Integer.parseInt(value);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    @Override
    public Integer call() {
        return run(spec.commandLine().getOut(), spec.commandLine().getErr());
    }

    /** Counts and prints; returns the exit code. */
    int run(PrintWriter out, PrintWriter err) {
        if (threads < 0) {
            err.println("sluice: --threads must be 0 (one per core) or more: " + threads);
            err.flush();
            return Main.BAD_INPUT;
        }
        if (!lines && !words && !chars && !bytes && !maxLineLength) {
            lines = true;
            words = true;
            bytes = true;
        }
        boolean implicitStdin = files == null || files.isEmpty();
        List<String> names = implicitStdin ? List.of("-") : files;
        int width = width(names);
        Counts total = Counts.ZERO;
        boolean failed = false;
        for (String name : names) {
            if (name.isEmpty()) {
                // Path.of("") is the current directory; GNU wc refuses the name itself.
                err.println("sluice wc: invalid zero-length file name");
                failed = true;
                continue;
            }
            try {
                if (name.equals("-") && stdinIsClosed()) {
                    // GNU wc's read fails with EBADF; it prints the (zero) counts and fails.
                    err.println("sluice wc: " + (implicitStdin ? "'standard input'" : "-") + ": Bad file descriptor");
                    print(out, Counts.ZERO, width, implicitStdin ? null : name);
                    failed = true;
                    continue;
                }
                Counts c = name.equals("-") ? countStream(standardInput()) : countFile(Path.of(name));
                total = total.plus(c);
                print(out, c, width, implicitStdin ? null : name);
            } catch (IsADirectory e) {
                err.println("sluice wc: " + name + ": Is a directory");
                print(out, Counts.ZERO, width, name);
                failed = true;
            } catch (IOException e) {
                err.println("sluice wc: " + name + ": " + reason(e));
                failed = true;
            } catch (java.nio.file.InvalidPathException e) {
                err.println("sluice wc: " + name + ": " + e.getReason());
                failed = true;
            }
            out.flush();
        }
        if (names.size() > 1) {
            print(out, total, width, "total");
        }
        out.flush();
        if (out.checkError()) {
            // A PrintWriter keeps write failures to itself (a full disk, a closed pipe); GNU wc reports them.
            err.println("sluice wc: write error");
            failed = true;
        }
        err.flush();
        return failed ? Main.FAILED : Main.OK;
    }

    /**
     * What {@code -} reads. For the process's standard input, descriptor 0 itself rather than {@link System#in}:
     * that one is buffered, and {@code BufferedInputStream} asks {@code available()}, which for a regular file seeks to
     * its end, and a /proc file refuses that (EINVAL), so {@code wc - < /proc/version} failed.
     */
    private InputStream standardInput() {
        return stdin == System.in ? new java.io.FileInputStream(java.io.FileDescriptor.in) : stdin;
    }

    /** The column width GNU wc uses: see the class comment. */
    private int width(List<String> names) {
        int counts = (lines ? 1 : 0) + (words ? 1 : 0) + (chars ? 1 : 0) + (bytes ? 1 : 0) + (maxLineLength ? 1 : 0);
        if (names.size() == 1 && counts == 1) {
            return 1;
        }
        long regularTotal = 0;
        int minimum = 1;
        for (String name : names) {
            if (name.isEmpty() || name.equals("-") && stdinIsClosed()) {
                continue; // GNU has nothing to stat: no size, and no minimum width either
            }
            try {
                // GNU stats standard input too: redirected from a file it counts as one, a pipe or terminal does not.
                Path path = !name.equals("-") ? Path.of(name) : stdin == System.in ? Path.of("/dev/stdin") : null;
                if (path == null) {
                    minimum = 7;
                    continue;
                }
                BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class);
                if (a.isRegularFile()) {
                    regularTotal += a.size();
                } else {
                    minimum = 7;
                }
            } catch (IOException | java.nio.file.InvalidPathException e) {
                // reported when the file is counted
            }
        }
        return Math.max(minimum, Long.toString(regularTotal).length());
    }

    private void print(PrintWriter out, Counts c, int width, String name) {
        StringBuilder line = new StringBuilder();
        if (lines) {
            pad(line, c.lines(), width);
        }
        if (words) {
            pad(line, c.words(), width);
        }
        if (chars) {
            pad(line, c.chars(), width);
        }
        if (bytes) {
            pad(line, c.bytes(), width);
        }
        if (maxLineLength) {
            pad(line, c.maxLineLength(), width);
        }
        if (name != null) {
            line.append(' ').append(name);
        }
        out.print(line.append('\n'));
    }

    private static void pad(StringBuilder line, long n, int width) {
        if (!line.isEmpty()) {
            line.append(' ');
        }
        String s = Long.toString(n);
        line.repeat(' ', Math.max(0, width - s.length())).append(s);
    }

    private Counts countFile(Path path) throws IOException {
        FileKind kind = FileKind.of(path);
        if (kind == FileKind.DIRECTORY) {
            throw new IsADirectory();
        }
        if (kind != FileKind.SIZED) {
            // Its size does not say where its data ends (a /proc or /sys file, a FIFO, a device), so it is read to
            // its end on this thread, as standard input is and as GNU wc reads it.
            try (InputStream in = Files.newInputStream(path)) {
                return countStream(in);
            }
        }
        long size = Files.size(path);
        // Characters are bytes in the C locale; the locale is looked up only when it matters. Then, as for -c, the
        // size says them (GNU does the same for regular files).
        boolean charsAreBytes = !chars || !CtypeLocale.isUtf8(env);
        if (!words && !maxLineLength && charsAreBytes) {
            long n = lines ? LineCounter.count(path, size, threads) : 0;
            return new Counts(n, 0, chars ? size : 0, size, 0);
        }
        // Every byte is looked at, so reads into a cache-sized buffer beat mapping (see ParallelScan.withReads).
        ParallelScan scan = ParallelScan.lines().withThreads(threads).withReads(READ_SIZE);
        boolean all = chars || maxLineLength;
        WordCounter c = scan.scan(path, () -> WordCounter.forEnvironment(env, all),
                (acc, records, position) -> acc.count(records), WordCounter::add);
        return new Counts(c.lines(), c.words(), all ? c.chars() : 0, size, c.maxLineWidth());
    }

    /** Counts a stream on this thread, in chunks cut where no UTF-8 sequence is split. */
    private Counts countStream(InputStream in) throws IOException {
        boolean utf8 = CtypeLocale.isUtf8(env);
        boolean all = chars || maxLineLength;
        WordCounter c = new WordCounter(utf8, !env.containsKey("POSIXLY_CORRECT"), all);
        byte[] buf = new byte[STDIN_CHUNK];
        int have = 0;
        long total = 0;
        for (;;) {
            int n = in.read(buf, have, buf.length - have);
            if (n < 0) {
                c.countMore(MemorySegment.ofArray(buf).asSlice(0, have));
                return new Counts(c.lines(), c.words(), c.chars(), total, c.maxLineWidth());
            }
            total += n;
            have += n;
            int cut = utf8 ? safeCut(buf, have) : have;
            c.countMore(MemorySegment.ofArray(buf).asSlice(0, cut));
            System.arraycopy(buf, cut, buf, 0, have - cut);
            have -= cut;
        }
    }

    /**
     * Where to cut {@code buf[0, n)} so that no UTF-8 sequence that may still complete is split: before the first
     * lead byte among the last five whose sequence (of up to six bytes, as glibc decodes) runs past {@code n}.
     */
    static int safeCut(byte[] buf, int n) {
        for (int j = Math.max(0, n - (WordCounter.MAX_SEQUENCE - 1)); j < n; j++) {
            int len = WordCounter.claimedLength(buf[j] & 0xFF);
            if (j + len > n) {
                return j;
            }
        }
        return n;
    }

    private static String reason(IOException e) {
        return switch (e) {
            case NoSuchFileException x -> "No such file or directory";
            case AccessDeniedException x -> "Permission denied";
            default -> e.getMessage();
        };
    }

    /**
     * Whether standard input was closed when the JVM started: the JVM then opened one of its own files on descriptor 0
     * (the runtime image {@code lib/modules}, or a jar), and {@link System#in} would count that file. Read from what
     * descriptor 0 names on Linux: a file of the Java runtime, the class path or the module path. Always false for a
     * replaced {@link #stdin}, and where there is no {@code /proc/self/fd}.
     */
    boolean stdinIsClosed() {
        if (stdin != System.in) {
            return false;
        }
        Path target;
        try {
            target = Files.readSymbolicLink(Path.of("/proc/self/fd/0"));
        } catch (IOException | UnsupportedOperationException e) {
            return false; // descriptor 0 is open (a pipe, a file, a terminal) or this is not Linux
        }
        if (!target.isAbsolute()) {
            return false; // "pipe:[1234]", "socket:[...]": the kernel's names for what a file name cannot say
        }
        try {
            if (target.startsWith(Path.of(System.getProperty("java.home")).toRealPath())) {
                return true;
            }
        } catch (IOException e) {
            // no runtime directory to compare with
        }
        String paths = System.getProperty("java.class.path", "") + java.io.File.pathSeparator
                + System.getProperty("jdk.module.path", "");
        for (String p : paths.split(java.io.File.pathSeparator)) {
            try {
                if (!p.isEmpty() && Path.of(p).toRealPath().equals(target)) {
                    return true;
                }
            } catch (IOException | java.nio.file.InvalidPathException e) {
                // an entry that does not exist is not what descriptor 0 names
            }
        }
        return false;
    }

    /** How {@link #countFile} reads a file, from one {@code stat}. */
    enum FileKind {
        /** A directory: reported, as GNU wc does. */
        DIRECTORY,
        /** A regular file with data up to its size: counted in parallel segments, or by its size for {@code -c}. */
        SIZED,
        /**
         * Anything else, read on one thread to its end: a regular file of size 0 (most of /proc), one on a file system
         * whose sizes are not data (sysfs says 4096 for a few bytes), a FIFO, a character or block device.
         */
        STREAM;

        /**
         * Kernel file systems whose files are made up when read; their sizes do not say how much there is. Only looked
         * up for files on devices with major number 0, which these all have (so do tmpfs, overlayfs and btrfs).
         */
        private static final java.util.Set<String> PSEUDO = java.util.Set.of("proc", "sysfs", "debugfs", "tracefs",
                "securityfs", "configfs", "cgroup", "cgroup2", "pstore", "efivarfs", "bpf", "fusectl", "binfmt_misc",
                "selinuxfs", "smackfs", "devpts", "mqueue", "rpc_pipefs", "nfsd");

        static FileKind of(Path path) throws IOException {
            Map<String, Object> a;
            try {
                a = Files.readAttributes(path, "unix:mode,size,dev");
            } catch (UnsupportedOperationException notUnix) {
                BasicFileAttributes b = Files.readAttributes(path, BasicFileAttributes.class);
                return b.isDirectory() ? DIRECTORY : b.isRegularFile() && b.size() > 0 ? SIZED : STREAM;
            }
            int type = (Integer) a.get("mode") & 0170000;
            if (type == 0040000) {
                return DIRECTORY;
            }
            if (type != 0100000 || (Long) a.get("size") == 0) {
                return STREAM;
            }
            long dev = (Long) a.get("dev");
            // glibc's major(): bits 8-19 and 32-43 of the device number
            long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
            if (major == 0) {
                try {
                    return PSEUDO.contains(Files.getFileStore(path).type()) ? STREAM : SIZED;
                } catch (IOException e) {
                    return SIZED; // no mount entry to say: the size is taken at its word, as before
                }
            }
            return SIZED;
        }
    }

    /** A directory named as a file: GNU wc reports it and prints zero counts for it. */
    private static final class IsADirectory extends IOException {
        private static final long serialVersionUID = 1L;
    }
}
