package io.sluice.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

/** What {@code sluice report} does: the report page from saved benchmark JSON, written so no half page is left. */
public final class Reports {
    /** The page's heading unless --title says otherwise. */
    public static final String TITLE = "Sluice benchmarks: which strategy wins here, and do the seeds' claims hold?";

    private Reports() {
    }

    /**
     * The page of the rows in {@code files}: JSON files, or directories standing for the .json files in them.
     *
     * @param title the heading, or null for {@link #TITLE}
     * @param warn  told about each file skipped or read in part, in a sentence
     * @throws NoSuchFileException      naming a file that does not exist
     * @throws IllegalArgumentException when no file has benchmark rows
     */
    public static String page(List<Path> files, String title, Consumer<String> warn) throws IOException {
        List<Path> inputs = new ArrayList<>();
        for (Path f : files) {
            if (Files.isDirectory(f)) {
                try (Stream<Path> s = Files.list(f)) {
                    s.filter(p -> p.getFileName().toString().endsWith(".json") && Files.isRegularFile(p)).sorted()
                            .forEach(inputs::add);
                }
            } else if (!Files.exists(f)) {
                throw new NoSuchFileException(f.toString());
            } else {
                inputs.add(f);
            }
        }
        List<ReportDocument> documents = new ArrayList<>();
        for (Path f : inputs) {
            Optional<ReportDocument> d = ReportInput.read(f, warn);
            d.ifPresent(documents::add);
        }
        if (documents.isEmpty()) {
            throw new IllegalArgumentException("nothing to report: no benchmark rows in " + (inputs.isEmpty()
                    ? "any .json file there" : inputs.size() == 1 ? inputs.get(0) : "any of the " + inputs.size()
                    + " files"));
        }
        String generated = "Made " + ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern(
                "yyyy-MM-dd HH:mm 'UTC'")) + " by sluice report from " + (documents.size() == 1
                ? documents.get(0).source() : documents.size() + " files") + ".";
        return ReportPage.render(documents, SeedClaims.load(), title != null ? title : TITLE, generated);
    }

    /** Writes the page beside its final name and moves it there, so a failed write leaves no half page. */
    public static void write(Path output, String html) throws IOException {
        Path abs = output.toAbsolutePath();
        // Not Files.createTempFile: its file is private to the owner, and the page is for others to read.
        Path tmp = abs.resolveSibling("." + abs.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        try {
            Files.writeString(tmp, html, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE);
            Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
