package io.sluice.cli;

import io.sluice.zip.ConcurrentZipFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.zip.ZipException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code sluice zip}: read zip and jar archives with Sluice's lock-free reader. */
@Command(name = "zip", mixinStandardHelpOptions = true,
        description = "Zip and jar archives, read with ConcurrentZipFile: 'zip test' checks every entry on every core, "
                + "'zip ls' lists them, 'zip x' extracts them as unzip does.",
        subcommands = {ZipTestCommand.class, ZipListCommand.class, ZipExtractCommand.class})
final class ZipCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** With no subcommand: one line naming them and where the help is, rather than the whole help. */
    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        err.println(spec.qualifiedName() + ": missing subcommand (" + String.join(", ", spec.subcommands().keySet())
                + "); see '" + spec.qualifiedName() + " --help'");
        err.flush();
        return Main.BAD_INPUT;
    }

    /**
     * {@code s} with the characters a terminal acts on written in caret notation, so that a name from an archive can
     * neither start a new line of output nor send a terminal control sequence, and with every other character left as
     * it is, so that a script reading names from the listing gets the names: a C0 control character or DEL is a caret
     * and the character 64 away ({@code ^J} for newline, {@code ^[} for escape, {@code ^?} for DEL), as
     * {@code unzip -l} writes C0; a C1 control character (U+0080 to U+009F, among them the single-character CSI) is
     * {@code M-} and the caret form of its low seven bits ({@code M-^[} for U+009B), as {@code cat -v} writes such
     * bytes. A backslash, a caret or a format character such as a bidirectional override is printed as it is.
     */
    static String printable(String s) {
        int i = 0;
        while (i < s.length() && !isControl(s.charAt(i))) {
            i++;
        }
        if (i == s.length()) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length() + 16).append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!isControl(c)) {
                b.append(c);
                continue;
            }
            if (c >= 0x80) {
                b.append("M-");
                c -= 0x80;
            }
            b.append('^').append((char) (c ^ 0x40));
        }
        return b.toString();
    }

    /** C0, DEL and C1: what a terminal may act on rather than show. */
    private static boolean isControl(char c) {
        return c < 0x20 || c >= 0x7F && c < 0xA0;
    }

    /**
     * Opens {@code archive} for a subcommand; an archive that cannot be read at all (missing, not a regular file, not
     * readable, not a zip archive) is bad input (exit 2), with the path and the reason on one line of standard error,
     * and null is returned.
     */
    static ConcurrentZipFile open(Path archive, CommandLine cl) throws IOException {
        try {
            return ConcurrentZipFile.open(archive);
        } catch (NoSuchFileException e) {
            return refused(cl, "no such file: " + e.getFile());
        } catch (FileSystemException e) {
            // A directory, a FIFO, a file that may not be read: the path and the cause, on one line.
            return refused(cl, Main.describe(e));
        } catch (ZipException e) {
            // The message may hold a name from the archive.
            return refused(cl, String.valueOf(e.getMessage()));
        }
    }

    private static ConcurrentZipFile refused(CommandLine cl, String why) {
        PrintWriter err = cl.getErr();
        err.println("sluice: " + printable(why));
        err.flush();
        return null;
    }
}
