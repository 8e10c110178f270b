package io.sluice.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Consumer;

/** What every section prints around its run: the machine first, its table or JSON rows last. */
public final class SectionOutput {
    private SectionOutput() {
    }

    /** The first line of every benchmark's log: what it runs on. */
    public static void describeMachine(PrintWriter err) {
        err.printf(Locale.ROOT, "Java %s, %s %s %s, %d cores%n", Runtime.version(), System.getProperty("os.name"),
                System.getProperty("os.version"), System.getProperty("os.arch"),
                Runtime.getRuntime().availableProcessors());
    }

    /**
     * Prints a section's table ({@code table}) to {@code out}, and its JSON rows ({@code rows}) to {@code json}
     * ('-': to {@code out} instead of the table), saying on {@code err} where they went. The caller ends any
     * progress line left open on {@code err} first.
     */
    public static void writeRows(Path json, PrintWriter out, PrintWriter err, Consumer<PrintWriter> rows,
                                 Consumer<PrintWriter> table) throws IOException {
        boolean jsonToStdout = json != null && json.toString().equals("-");
        if (jsonToStdout) {
            rows.accept(out);
        } else {
            table.accept(out);
        }
        out.flush();
        if (json != null && !jsonToStdout) {
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(json, StandardCharsets.UTF_8))) {
                rows.accept(w);
            }
            err.println("wrote " + json);
        }
    }
}
