package io.sluice.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code sluice} command. Data goes to standard output, progress and diagnostics to standard error.
 *
 * <p>Exit codes: {@value #OK} success, {@value #FAILED} the operation failed (an I/O error, say),
 * {@value #BAD_INPUT} bad command-line input, {@value #INTERNAL} a bug in Sluice.
 */
@Command(name = "sluice", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Fast file I/O for the JVM: see which I/O strategy wins on this machine.",
        subcommands = {InfoCommand.class, BenchCommand.class, WcCommand.class, CommandLine.HelpCommand.class})
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
        return commandLine(out, err).execute(args);
    }

    static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Main());
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
