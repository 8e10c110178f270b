package io.sluice.cli;

import io.sluice.zip.ConcurrentZipFile;
import java.io.IOException;
import java.io.PrintWriter;
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
                + "'zip ls' lists them.",
        subcommands = {ZipTestCommand.class, ZipListCommand.class})
final class ZipCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return Main.BAD_INPUT;
    }

    /**
     * {@code s} with every character that could change what a terminal shows written as an escape, so that a name
     * from an archive can neither start a new line of output nor send a terminal control sequence: C0 and C1
     * control characters (newline, escape, the single-byte CSI), format characters (among them the bidirectional
     * overrides, which reorder what follows), line and paragraph separators, and unpaired surrogates. Newline,
     * carriage return and tab are shown as {@code \n}, {@code \r} and {@code \t}, the rest as a backslash and
     * {@code x} with two hex digits (below 256) or {@code u} with four; a backslash is doubled, so that a name
     * holding such an escape literally still reads differently from one holding the character.
     */
    static String printable(String s) {
        int i = 0;
        while (i < s.length() && !needsEscape(s.codePointAt(i))) {
            i += Character.charCount(s.codePointAt(i));
        }
        if (i == s.length()) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length() + 16).append(s, 0, i);
        while (i < s.length()) {
            int c = s.codePointAt(i);
            i += Character.charCount(c);
            if (!needsEscape(c)) {
                b.appendCodePoint(c);
                continue;
            }
            switch (c) {
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> b.append(String.format(c < 0x100 ? "\\x%02x" : "\\u%04x", c));
            }
        }
        return b.toString();
    }

    private static boolean needsEscape(int c) {
        if (c >= 0x20 && c < 0x7F) {
            return c == '\\';
        }
        return switch (Character.getType(c)) {
            // An unpaired surrogate comes out of codePointAt as itself, of type SURROGATE.
            case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                 Character.SURROGATE -> true;
            default -> false;
        };
    }

    /**
     * Opens {@code archive} for a subcommand; an archive that cannot be read at all is bad input (exit 2), with the
     * reason on standard error, and null is returned.
     */
    static ConcurrentZipFile open(Path archive, CommandLine cl) throws IOException {
        try {
            return ConcurrentZipFile.open(archive);
        } catch (ZipException | NoSuchFileException e) {
            PrintWriter err = cl.getErr();
            // The message may hold a name from the archive.
            err.println("sluice: " + (e instanceof NoSuchFileException ? "no such file: " : "")
                    + printable(String.valueOf(e.getMessage())));
            err.flush();
            return null;
        }
    }
}
