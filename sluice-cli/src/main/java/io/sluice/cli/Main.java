package io.sluice.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code sluice} command. Data goes to standard output, progress and diagnostics to standard error.
 *
 * <p>Exit codes: {@value #OK} success, {@value #FAILED} the operation failed (an I/O error, say),
 * {@value #BAD_INPUT} bad command-line input, {@value #INTERNAL} a bug in Sluice.
 */
@Command(name = "sluice", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Fast file I/O for the JVM: see which I/O strategy wins on this machine.")
public final class Main {
    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int BAD_INPUT = 2;
    public static final int INTERNAL = 4;

    public static void main(String[] args) {
        int code = run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
        if (code == OK && args.length > 0 && args[0].equals("wc")) {
            // Returning ends the JVM as System.exit(0) would, since wc leaves no thread running, but without
            // Runtime.exit's event logging: its first System.Logger lookup scans every jar on the class path for a
            // logger service and starts java.util.logging, 20-50 ms of a run that is often 100 ms in all.
            return;
        }
        System.exit(code);
    }

    /** Runs the command line with the given writers; returns the exit code. Used by tests. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        if (args.length > 0 && args[0].equals("wc")) {
            WcCommand wc = WcCommand.quick(args);
            if (wc != null) {
                return runQuick(wc, out, err);
            }
        }
        return commandLine(out, err, args.length > 0 ? args[0] : null).execute(args);
    }

    /** Runs a command built without picocli (see {@link WcCommand#quick}), with picocli's handling of failures. */
    static int runQuick(WcCommand command, PrintWriter out, PrintWriter err) {
        try {
            return command.run(out, err);
        } catch (RuntimeException e) {
            err.println("sluice: internal error, please report it:");
            e.printStackTrace(err);
            err.flush();
            return INTERNAL;
        }
    }

    /** The command line with every subcommand. */
    static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        return commandLine(out, err, null);
    }

    /**
     * The command line, with only subcommand {@code first} when that names one: picocli reads every option of every
     * command it is given when it is built, and for a one-shot command such as {@code sluice wc} building the others
     * is a visible part of the startup (0.44 s against 0.51 s for the whole JVM here, side by side). Anything else
     * ({@code help}, an option, a typo) gets them all, so that help and error messages list them.
     */
    static CommandLine commandLine(PrintWriter out, PrintWriter err, String first) {
        CommandLine cl = new CommandLine(new Main());
        Map<String, Supplier<Object>> subcommands = new LinkedHashMap<>();
        subcommands.put("info", InfoCommand::new);
        subcommands.put("bench", BenchCommand::new);
        subcommands.put("wc", WcCommand::new);
        subcommands.put("zip", ZipCommand::new);
        subcommands.put("report", ReportCommand::new);
        subcommands.put("help", CommandLine.HelpCommand::new);
        Supplier<Object> only = first == null || first.equals("help") ? null : subcommands.get(first);
        if (only != null) {
            cl.addSubcommand(only.get());
        } else {
            for (Supplier<Object> s : subcommands.values()) {
                cl.addSubcommand(s.get());
            }
        }
        inheritVersion(cl, new Version());
        cl.setOut(out);
        cl.setErr(LineTrackingWriter.wrap(err));
        cl.setExitCodeExceptionMapper(Main::exitCode);
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            PrintWriter w = cmd.getErr();
            // Progress may have left its line open: the error goes on a line of its own.
            LineTrackingWriter.endLine(w);
            int code = exitCode(e);
            if (code == INTERNAL) {
                w.println("sluice: internal error, please report it:");
                e.printStackTrace(w);
            } else {
                w.println("sluice: " + describe(e));
            }
            w.flush();
            return code;
        });
        cl.setParameterExceptionHandler((e, a) -> {
            PrintWriter w = e.getCommandLine().getErr();
            LineTrackingWriter.endLine(w);
            w.println("sluice: " + describe(e) + "; see '" + e.getCommandLine().getCommandSpec().qualifiedName()
                    + " --help'");
            w.flush();
            return BAD_INPUT;
        });
        return cl;
    }

    /**
     * The exit code for a failure: {@value #BAD_INPUT} for what the user asked that cannot be done as asked (a bad
     * option, a size that does not fit), {@value #FAILED} when the operation failed (an I/O error, an engine that
     * cannot run on this machine), {@value #INTERNAL} for anything else, which is a bug.
     */
    static int exitCode(Throwable e) {
        return switch (e) {
            case CommandLine.ParameterException p -> BAD_INPUT;
            case IllegalArgumentException i -> BAD_INPUT;
            case java.io.IOException i -> FAILED;
            case UnsupportedOperationException u -> FAILED;
            case InterruptedException i -> FAILED;
            default -> INTERNAL;
        };
    }

    /**
     * One line for a failure the user should see: the path and the cause for file system errors, whose JDK messages
     * are often the path alone ({@code NoSuchFileException: /data/x}).
     */
    static String describe(Throwable e) {
        String s = switch (e) {
            case CommandLine.UnmatchedArgumentException u when u.isUnknownOption() -> unknownOptions(u);
            case CommandLine.UnmatchedArgumentException u when !u.getCommandLine().getSubcommands().isEmpty()
                    && !u.getUnmatched().isEmpty() && !u.getUnmatched().getFirst().startsWith("-") ->
                    "unknown command '" + u.getUnmatched().getFirst() + "'" + suggestion(u);
            case java.nio.file.FileSystemException f -> f.getFile() + (f.getOtherFile() == null ? "" : " -> "
                    + f.getOtherFile()) + ": " + reason(f);
            case InterruptedException i -> "interrupted";
            default -> e.getMessage() == null ? e.toString() : e.getMessage();
        };
        if (e instanceof CommandLine.ParameterException && !s.isEmpty()) {
            // picocli's sentences start with a capital; ours after "sluice: " do not
            s = Character.toLowerCase(s.charAt(0)) + s.substring(1);
        }
        return s.replace('\n', ' ').strip();
    }

    private static String unknownOptions(CommandLine.UnmatchedArgumentException u) {
        java.util.List<String> unmatched = u.getUnmatched();
        String misplaced = parentOption(u.getCommandLine(), unmatched);
        if (misplaced != null) {
            return misplaced;
        }
        StringBuilder b = new StringBuilder(unmatched.size() == 1 ? "unknown option " : "unknown options ");
        for (int i = 0; i < unmatched.size(); i++) {
            b.append(i == 0 ? "" : ", ").append('\'').append(unmatched.get(i)).append('\'');
        }
        return b.append(suggestion(u)).toString();
    }

    /**
     * Where an option given after a subcommand belongs, when it is an option of a command above it: picocli reads
     * {@code sluice bench uring --size 64m} as an unknown option of {@code uring}, while {@code --size} is
     * {@code bench}'s and goes before {@code uring}. Null when the first unmatched option is not the parent's.
     */
    static String parentOption(CommandLine sub, java.util.List<String> unmatched) {
        // Only a subcommand that reads its parent's options (through @ParentCommand) takes them before its name;
        // for the others the parent's option would be ignored, and "unknown" is the truth.
        if (unmatched.isEmpty() || !unmatched.getFirst().startsWith("-")
                || sub.getCommandSpec().parentCommandElements().isEmpty()) {
            return null;
        }
        String given = unmatched.getFirst();
        int eq = given.indexOf('=');
        String name = eq < 0 ? given : given.substring(0, eq);
        CommandLine parent = sub.getParent();
        CommandLine.Model.OptionSpec option = parent == null ? null : parent.getCommandSpec().findOption(name);
        if (option != null) {
            // The option with its value as typed, for the corrected command line.
            String withValue = given;
            if (eq < 0 && option.arity().min() > 0 && unmatched.size() > 1) {
                withValue += " " + unmatched.get(1);
            }
            String parentName = parent.getCommandSpec().qualifiedName();
            String below = sub.getCommandSpec().name();
            return name + " is an option of '" + parentName + "', not of '" + sub.getCommandSpec().qualifiedName()
                    + "'; put it before '" + below + "': " + parentName + " " + withValue + " " + below + " ...";
        }
        return null;
    }

    /** picocli's closest match for a mistyped name, as {@code " (did you mean '--size'?)"}; empty if none. */
    private static String suggestion(CommandLine.UnmatchedArgumentException u) {
        java.util.List<String> suggestions = u.getSuggestions();
        return suggestions.isEmpty() ? "" : " (did you mean '" + suggestions.getFirst() + "'?)";
    }

    /** The cause of a file system error in words, where the JDK's exception type says it and its message does not. */
    static String reason(java.nio.file.FileSystemException f) {
        return io.sluice.bench.BenchChecks.reason(f);
    }

    /** Gives every subcommand's {@code --version} the top command's answer: picocli leaves theirs empty. */
    private static void inheritVersion(CommandLine cl, CommandLine.IVersionProvider version) {
        for (CommandLine sub : cl.getSubcommands().values()) {
            sub.getCommandSpec().versionProvider(version);
            inheritVersion(sub, version);
        }
    }

    /**
     * The version and the commit the CLI was built from, as the build wrote them into {@code version.properties}:
     * {@code sluice 0.1.0 (commit 0123456789ab)}, with {@code "modified"} after the commit when the working tree had
     * uncommitted changes, and {@code "commit unknown"} when the build had no git repository (a source tarball).
     */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() throws java.io.IOException {
            java.util.Properties p = new java.util.Properties();
            try (java.io.InputStream in = Main.class.getResourceAsStream("version.properties")) {
                if (in == null) {
                    throw new java.io.IOException("io/sluice/cli/version.properties is missing from "
                            + Main.class.getProtectionDomain().getCodeSource().getLocation() + ": a broken build");
                }
                p.load(in);
            }
            return new String[] {line(p.getProperty("version"), p.getProperty("commit"), p.getProperty("dirty"))};
        }

        /** The version line from the three properties; unfilled ones ({@code ${...}}, empty) count as unknown. */
        static String line(String version, String commit, String dirty) {
            String v = filled(version) ? version : "(version unknown)";
            if (!filled(commit)) {
                return "sluice " + v + " (commit unknown)";
            }
            return "sluice " + v + " (commit " + commit + ("true".equals(dirty) ? ", modified)" : ")");
        }

        private static boolean filled(String s) {
            return s != null && !s.isBlank() && !s.contains("${");
        }
    }
}
