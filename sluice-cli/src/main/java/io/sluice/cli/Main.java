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
        System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
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
        subcommands.put("help", CommandLine.HelpCommand::new);
        Supplier<Object> only = first == null || first.equals("help") ? null : subcommands.get(first);
        if (only != null) {
            cl.addSubcommand(only.get());
        } else {
            for (Supplier<Object> s : subcommands.values()) {
                cl.addSubcommand(s.get());
            }
        }
        cl.setOut(out);
        cl.setErr(err);
        cl.setExitCodeExceptionMapper(e -> e instanceof CommandLine.ParameterException ? BAD_INPUT
                : e instanceof IllegalArgumentException ? BAD_INPUT
                : e instanceof java.io.IOException ? FAILED : INTERNAL);
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof IllegalArgumentException || e instanceof java.io.IOException) {
                cmd.getErr().println("sluice: " + e.getMessage());
            } else {
                cmd.getErr().println("sluice: internal error, please report it:");
                e.printStackTrace(cmd.getErr());
            }
            cmd.getErr().flush();
            return cmd.getExitCodeExceptionMapper().getExitCode(e);
        });
        cl.setParameterExceptionHandler((e, a) -> {
            e.getCommandLine().getErr().println("sluice: " + e.getMessage());
            e.getCommandLine().usage(e.getCommandLine().getErr());
            return BAD_INPUT;
        });
        return cl;
    }

    /** The version from the jar's manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"sluice " + (v == null ? "(development build)" : v)};
        }
    }
}
