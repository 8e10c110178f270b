package io.sluice.bench;

import io.sluice.Engine;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The child JVM of a {@link ForkedContender}: opens one contender on the data file and measures it whenever the
 * parent asks. Requests come one per line on standard input, answers go one per line to standard output:
 * <pre>
 *   measure WORKLOAD BLOCKSIZE DEPTH DIRECT FILE THREADS NANOS  -> sample OPS_PER_MS BYTES_PER_SEC
 *   auto                                                        -> auto CHOICES (line breaks as \n)
 *   pid                                                         -> pid PID
 *   quit                                                        -> (closes the contender and exits 0)
 * </pre>
 * The first line it writes is {@code ready PID}, once the contender is open. Anything else it has to say (warnings,
 * a failure's stack trace) goes to standard error, which the parent copies to its log. A failure ends the JVM with
 * a non-zero status, so the parent sees the exit and the stack trace rather than a half answer; the end of standard
 * input (the parent gone) ends it too.
 */
public final class ContenderHost {
    /** Exit status after a failure. */
    static final int FAILED = 2;

    private ContenderHost() {
    }

    /**
     * Runs the host.
     *
     * @param args the contender's {@link ForkedContender.Kind}, its engine, reads in flight per thread, whether
     *             O_DIRECT, the data file's size and its path
     */
    public static void main(String[] args) {
        // The answers get a stream of their own; System.out goes to standard error, so a stray print anywhere in
        // the child lands in the log instead of in the middle of an answer.
        PrintStream answers = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        System.setOut(System.err);
        int status = 0;
        try {
            if (args.length != 6) {
                throw new IllegalArgumentException("expected KIND ENGINE DEPTH DIRECT SIZE PATH, got "
                        + String.join(" ", args));
            }
            ForkedContender.Kind kind = ForkedContender.Kind.valueOf(args[0]);
            Engine engine = Engine.valueOf(args[1]);
            int depth = Integer.parseInt(args[2]);
            boolean direct = Boolean.parseBoolean(args[3]);
            long size = Long.parseLong(args[4]);
            try (JavaContender c = kind.open(engine, depth, direct, Path.of(args[5]), size)) {
                answers.println("ready " + ProcessHandle.current().pid());
                answers.flush();
                serve(c, new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), answers);
            }
        } catch (Throwable e) {
            e.printStackTrace();
            status = FAILED;
        }
        System.err.flush();
        // Exits even if a library left a non-daemon thread running (an engine's reaper, a JDK pool).
        System.exit(status);
    }

    private static void serve(JavaContender c, BufferedReader in, PrintStream answers) throws Exception {
        for (String line; (line = in.readLine()) != null; ) {
            String[] f = line.split(" ");
            switch (f[0]) {
                case "measure" -> {
                    if (f.length != 8) {
                        throw new IllegalArgumentException("malformed request: " + line);
                    }
                    Workload w = new Workload(f[1], Integer.parseInt(f[2]), Integer.parseInt(f[3]),
                            Boolean.parseBoolean(f[4]), f[5]);
                    Sample s = c.measure(w, Integer.parseInt(f[6]), Long.parseLong(f[7]));
                    // Double.toString gives back the same double when parsed, so the parent's figures are the child's.
                    answers.println("sample " + s.opsPerMs() + " " + s.bytesPerSec());
                }
                case "auto" -> answers.println("auto " + escape(Engine.autoChoices()));
                case "pid" -> answers.println("pid " + ProcessHandle.current().pid());
                case "quit" -> {
                    return;
                }
                default -> throw new IllegalArgumentException("unknown request: " + line);
            }
            answers.flush();
        }
    }

    /** The text on one line: backslashes doubled, line breaks as {@code \n}. */
    static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\r\n", "\n").replace("\n", "\\n");
    }

    /** The reverse of {@link #escape}, with the platform's line breaks. */
    static String unescape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '\\' && i + 1 < s.length()) {
                char next = s.charAt(++i);
                b.append(next == 'n' ? System.lineSeparator() : String.valueOf(next));
            } else {
                b.append(ch);
            }
        }
        return b.toString();
    }

    /** The request line for one sample; {@code w}'s fields never hold spaces. */
    static String measureRequest(Workload w, int threads, long nanos) {
        return String.format(Locale.ROOT, "measure %s %d %d %b %s %d %d", w.name(), w.blockSize(), w.depth(),
                w.direct(), w.file(), threads, nanos);
    }
}
