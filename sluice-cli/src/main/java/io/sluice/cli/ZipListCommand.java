package io.sluice.cli;

import io.sluice.zip.ConcurrentZipFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice zip ls}: the entries of an archive, in the layout of {@code unzip -l} (or {@code -v}). Names are
 * printed through {@link ZipCommand#printable}, so a name with a newline or a terminal escape in it cannot forge
 * lines of the listing or drive the terminal.
 */
@Command(name = "ls", mixinStandardHelpOptions = true,
        description = "List the entries of a zip or jar archive, as 'unzip -l' does.")
final class ZipListCommand implements Callable<Integer> {
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")
            .withZone(ZoneId.systemDefault());

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "ARCHIVE", description = "The zip or jar file.")
    Path archive;

    @Option(names = {"-v", "--verbose"},
            description = "Also show the method, compressed size, ratio and CRC-32, as 'unzip -v'.")
    boolean verbose;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        try (ConcurrentZipFile zip = ZipCommand.open(archive, spec.commandLine())) {
            if (zip == null) {
                return Main.BAD_INPUT;
            }
            out.println("Archive:  " + ZipCommand.printable(archive.toString()));
            if (verbose) {
                out.println(" Length   Method    Size  Cmpr    Date    Time   CRC-32   Name");
                out.println("--------  ------  ------- ---- ---------- ----- --------  ----");
            } else {
                out.println("  Length      Date    Time    Name");
                out.println("---------  ---------- -----   ----");
            }
            long total = 0;
            long compressed = 0;
            for (ConcurrentZipFile.Entry e : zip) {
                total += e.getSize();
                compressed += e.getCompressedSize();
                if (verbose) {
                    out.printf("%8d  %-6s %8d %3d%% %s %08x  %s%n", e.getSize(), method(e.getMethod()),
                            e.getCompressedSize(), ratio(e.getSize(), e.getCompressedSize()), date(e),
                            e.getCrc(), ZipCommand.printable(e.getName()));
                } else {
                    out.printf("%9d  %s   %s%n", e.getSize(), date(e), ZipCommand.printable(e.getName()));
                }
            }
            int n = zip.size();
            if (verbose) {
                out.println("--------          -------  ---                            -------");
                out.printf("%8d         %8d %3d%%                            %d file%s%n", total, compressed,
                        ratio(total, compressed), n, n == 1 ? "" : "s");
            } else {
                out.println("---------                     -------");
                out.printf("%9d                     %d file%s%n", total, n, n == 1 ? "" : "s");
            }
            out.flush();
            return Main.OK;
        }
    }

    private static String date(ConcurrentZipFile.Entry e) {
        FileTime t = e.getLastModifiedTime();
        return t == null ? "????-??-?? ??:??" : DATE.format(t.toInstant());
    }

    private static String method(int m) {
        return switch (m) {
            case 0 -> "Stored";
            case 8 -> "Defl";
            default -> "Unk:" + m;
        };
    }

    /** Space saved, in percent, as unzip shows it. */
    private static int ratio(long size, long compressed) {
        return size == 0 ? 0 : (int) Math.round(100.0 * (size - compressed) / size);
    }
}
