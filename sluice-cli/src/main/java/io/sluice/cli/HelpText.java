package io.sluice.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * Writes the manual of the distribution ({@code doc/sluice.txt} in sluice-&lt;version&gt;.tar.gz): the version line,
 * then the {@code --help} of {@code sluice} and of every subcommand, each under its full name. Run by the build; not a
 * command.
 */
final class HelpText {
    private HelpText() {
    }

    /**
     * Writes the manual to the file {@code args[0]}.
     *
     * @param args the file to write
     * @throws IOException if the file cannot be written
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: HelpText FILE");
        }
        Path file = Path.of(args[0]);
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, text());
    }

    /** The manual: every command's usage, the top command first, then its subcommands depth first. */
    static String text() throws IOException {
        StringWriter s = new StringWriter();
        PrintWriter w = new PrintWriter(s);
        CommandLine top = Main.commandLine(w, w);
        w.println(new Main.Version().getVersion()[0]);
        w.println();
        append(top, w);
        w.flush();
        return s.toString();
    }

    private static void append(CommandLine cl, PrintWriter w) {
        if (cl.getCommandSpec().userObject() instanceof CommandLine.HelpCommand) {
            return;
        }
        String name = cl.getCommandSpec().qualifiedName(" ");
        w.println("=".repeat(name.length()));
        w.println(name);
        w.println("=".repeat(name.length()));
        w.println();
        w.print(cl.getUsageMessage(CommandLine.Help.Ansi.OFF));
        w.println();
        for (CommandLine sub : cl.getSubcommands().values()) {
            append(sub, w);
        }
    }
}
