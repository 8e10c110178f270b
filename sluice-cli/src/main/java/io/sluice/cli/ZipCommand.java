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
     * Opens {@code archive} for a subcommand; an archive that cannot be read at all is bad input (exit 2), with the
     * reason on standard error, and null is returned.
     */
    static ConcurrentZipFile open(Path archive, CommandLine cl) throws IOException {
        try {
            return ConcurrentZipFile.open(archive);
        } catch (ZipException | NoSuchFileException e) {
            PrintWriter err = cl.getErr();
            err.println("sluice: " + (e instanceof NoSuchFileException ? "no such file: " : "") + e.getMessage());
            err.flush();
            return null;
        }
    }
}
