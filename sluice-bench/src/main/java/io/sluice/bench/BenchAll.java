package io.sluice.bench;

import io.sluice.Engine;
import io.sluice.report.MachineInfo;
import io.sluice.report.ReportDocument;
import io.sluice.report.ReportInput;
import io.sluice.report.ReportPage;
import io.sluice.report.ReportRow;
import io.sluice.report.ReportSection;
import io.sluice.report.Reports;
import io.sluice.report.SeedClaims;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code sluice bench all}: every section of {@code sluice bench}, sized to a time budget ({@link BenchPlan}), with
 * one progress display, one JSON document and one report page. The command line finds the sections and runs each one
 * ({@link Runner}); this class plans them, keeps the progress display, and gathers their rows.
 */
public final class BenchAll {
    /** Runs one section: its command line for {@code sluice} (starting with {@code bench}). */
    @FunctionalInterface
    public interface Runner {
        /**
         * Runs {@code commandLine} with its table going to {@code out} and its progress to {@code err}.
         *
         * @return the exit code, 0 for success
         */
        int run(List<String> commandLine, PrintWriter out, PrintWriter err);
    }

    private final Path dir;
    private final Path d;
    private final Path json;
    private final Path report;
    private final boolean quick;
    private final boolean noFio;
    private final String command;
    private double seconds;
    private List<BenchPlan.Step> steps = List.of();

    /**
     * Checks where the results go and where the sections write, before anything runs.
     *
     * @param dir     {@code --dir} for every section, or null for the system temp directory
     * @param json    the JSON document to write ({@code -}: standard output instead of the tables), or null
     * @param report  the report page to write, or null
     * @param quick   whether every section stays quick whatever the budget
     * @param noFio   {@code --no-fio} for the sections that run fio
     * @param command the command line as typed, for the document and the page
     */
    public BenchAll(Path dir, Path json, Path report, boolean quick, boolean noFio, String command) {
        BenchChecks.json(json);
        BenchChecks.output(report, "--report");
        this.d = BenchChecks.dir(dir);
        this.dir = dir;
        this.json = json;
        this.report = report;
        this.quick = quick;
        this.noFio = noFio;
        this.command = command;
    }

    /**
     * Chooses each section's size.
     *
     * @param found   the sections to run, in order, each with the options it takes
     * @param budget  seconds the whole run may take
     */
    public void plan(Map<String, Set<String>> found, double budget) {
        Map<String, String> skips = new LinkedHashMap<>();
        for (String name : found.keySet()) {
            unavailable(name).ifPresent(why -> skips.put(name, why));
        }
        this.seconds = budget;
        this.steps = BenchPlan.plan(found, skips, budget, quick);
    }

    /**
     * Runs the planned sections one after another; writes the document and the page.
     *
     * @param out the tables (or, with {@code --json -}, the document)
     * @param err the progress display
     * @return whether every section that could run here ran
     */
    public boolean run(Runner runner, PrintWriter out, PrintWriter err) throws IOException {
        SectionOutput.describeMachine(err);
        err.printf(Locale.ROOT, "sluice bench all: %s; %s, estimate %s%n", describe(steps),
                quick ? "--quick" : "budget " + BenchPlan.clock(seconds), BenchPlan.clock(BenchPlan.total(steps)));
        String fio = noFio ? null : MachineInfo.fioVersion();
        if (!noFio && fio == null) {
            err.println("note: fio not found on PATH: no reference rows or lines ('apt-get install fio').");
        }
        Map<String, Object> machine = MachineInfo.probe(d, fio, true);
        Path tmp = Files.createTempDirectory("sluice-bench-all-");
        Thread cleanup = new Thread(() -> deleteTree(tmp));
        Runtime.getRuntime().addShutdownHook(cleanup);
        List<ReportSection> results = new ArrayList<>();
        boolean failed = false;
        try {
            long start = System.nanoTime();
            for (int i = 0; i < steps.size(); i++) {
                BenchPlan.Step step = steps.get(i);
                if (step.skip() != null) {
                    err.printf("[%d/%d %s] skipped: %s%n", i + 1, steps.size(), step.name(), step.skip());
                    results.add(new ReportSection(step.name(), "this run", List.of(), step.skip(), null, Double.NaN));
                    continue;
                }
                ReportSection r = runStep(runner, steps, i, tmp, start, jsonToStdout() ? discard() : out, err);
                failed |= r.skipped() != null;
                results.add(r);
            }
            MachineInfo.finish(machine);
            err.printf(Locale.ROOT, "sluice bench all: done in %s%n",
                    BenchPlan.clock((System.nanoTime() - start) / 1e9));
        } finally {
            deleteTree(tmp);
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException e) {
                // already shutting down: the hook runs anyway
            }
        }
        ReportDocument doc = new ReportDocument("this run", machine, command, results);
        if (jsonToStdout()) {
            out.print(doc.toJson());
            out.flush();
        } else if (json != null) {
            Files.writeString(json, doc.toJson(), StandardCharsets.UTF_8);
            err.println("wrote " + json);
        }
        if (report != null) {
            String generated = "Measured " + ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern(
                    "yyyy-MM-dd HH:mm 'UTC'")) + " by " + command + ".";
            Reports.write(report, ReportPage.render(List.of(doc), SeedClaims.load(), Reports.TITLE,
                    generated));
            err.println("wrote " + report);
        }
        return !failed;
    }

    /** Runs one section in this JVM, its progress prefixed with the whole run's; returns its rows or why none. */
    private ReportSection runStep(Runner runner, List<BenchPlan.Step> steps, int index, Path tmp, long start,
                                  PrintWriter out, PrintWriter err) {
        BenchPlan.Step step = steps.get(index);
        Path rows = tmp.resolve(step.name() + ".json");
        List<String> line = step.commandLine(dir, noFio, rows);
        long sectionStart = System.nanoTime();
        double later = 0;
        for (int k = index + 1; k < steps.size(); k++) {
            later += steps.get(k).seconds();
        }
        double after = later;
        ProgressWriter progress = new ProgressWriter(err, () -> {
            double elapsed = (System.nanoTime() - start) / 1e9;
            double inSection = (System.nanoTime() - sectionStart) / 1e9;
            double left = Math.max(0, step.seconds() - inSection) + after;
            return String.format(Locale.ROOT, "[%d/%d %s %s, about %s left] ", index + 1, steps.size(), step.name(),
                    BenchPlan.clock(elapsed), BenchPlan.clock(left));
        });
        PrintWriter sectionErr = new PrintWriter(progress, true);
        sectionErr.println("sluice " + String.join(" ", displayed(line)) + " (" + step.level().label() + ", about "
                + BenchPlan.clock(step.seconds()) + ")");
        out.printf("%n== %s (%s): sluice %s%n", step.name(), step.level().label(), String.join(" ", displayed(line)));
        out.flush();

        int code = runner.run(line, out, sectionErr);
        sectionErr.flush();
        double took = (System.nanoTime() - sectionStart) / 1e9;
        List<ReportRow> found = new ArrayList<>();
        String problem = code == 0 ? null : "failed with exit code " + code + ": " + progress.lastLine();
        if (Files.exists(rows)) {
            try {
                Optional<ReportDocument> d = ReportInput.read(rows, w -> sectionErr.println("warning: " + w));
                d.ifPresent(doc -> doc.sections().forEach(s -> found.addAll(s.rows())));
            } catch (IOException e) {
                problem = "its rows could not be read back: " + describe(e);
            }
        } else if (code == 0 && step.options().contains("--json")) {
            problem = "it wrote no rows";
        } else if (code == 0) {
            problem = "it has no --json option, so its rows are only in the table above";
        }
        return new ReportSection(step.name(), "this run", found, problem, "sluice " + String.join(" ",
                displayed(line)), took);
    }

    private boolean jsonToStdout() {
        return json != null && json.toString().equals("-");
    }

    /** Standard output for the sections when the document goes there instead of their tables. */
    private static PrintWriter discard() {
        return new PrintWriter(java.io.Writer.nullWriter());
    }

    /** The command line as a user would type it, without the temporary --json file. */
    private static List<String> displayed(List<String> line) {
        List<String> out = new ArrayList<>(line);
        int j = out.indexOf("--json");
        if (j >= 0 && j + 1 < out.size()) {
            out.remove(j + 1);
            out.remove(j);
        }
        return out;
    }

    /** A failure to read a section's rows back in one line: the path and the cause for file system errors. */
    private static String describe(IOException e) {
        if (e instanceof FileSystemException f) {
            return f.getFile() + (f.getOtherFile() == null ? "" : " -> " + f.getOtherFile()) + ": "
                    + BenchChecks.reason(f);
        }
        return (e.getMessage() == null ? e.toString() : e.getMessage()).replace('\n', ' ').strip();
    }

    /**
     * The sections {@code --sections} and {@code --skip} leave of {@code all}, in the order given.
     *
     * @throws IllegalArgumentException naming a section that does not exist, or when none is left
     */
    public static Map<String, Set<String>> selected(Map<String, Set<String>> all, List<String> sections,
                                                    List<String> skipSections) {
        for (List<String> given : java.util.Arrays.asList(sections, skipSections)) {
            if (given != null) {
                for (String n : given) {
                    if (!all.containsKey(n)) {
                        throw new IllegalArgumentException("unknown section '" + n + "' (sections: "
                                + String.join(", ", all.keySet()) + ")");
                    }
                }
            }
        }
        Map<String, Set<String>> out = new LinkedHashMap<>();
        for (String n : sections != null ? sections : List.copyOf(all.keySet())) {
            if (skipSections == null || !skipSections.contains(n)) {
                out.put(n, all.get(n));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no section left to run");
        }
        return out;
    }

    /** Why a section cannot run on this machine, if it cannot: checked before anything runs. */
    static Optional<String> unavailable(String name) {
        switch (name) {
            case "uring" -> {
                return Engine.IO_URING.unavailabilityCause().map(c -> "io_uring is unavailable here: " + c);
            }
            case "jruby", "kv" -> {
                try {
                    io.sluice.bench.jruby.JRubyBench.jrubyJar(null);
                    // sluice-jruby is an optional dependency: a build without it has no JRuby sections
                    io.sluice.bench.jruby.JRubyBench.bindingJar();
                    return Optional.empty();
                } catch (IOException e) {
                    return Optional.of(e.getMessage());
                }
            }
            default -> {
                return Optional.empty();
            }
        }
    }

    private static String describe(List<BenchPlan.Step> steps) {
        List<String> parts = new ArrayList<>();
        for (BenchPlan.Step s : steps) {
            parts.add(s.name() + " " + (s.skip() != null ? "(skipped)" : s.level().label()));
        }
        return String.join(", ", parts);
    }

    /** Prints the plan: each section's size, estimate and command line, or why it is skipped. */
    public void printPlan(PrintWriter out) {
        out.printf(Locale.ROOT, "%s, estimate %s%n", quick ? "--quick" : "budget " + BenchPlan.clock(seconds),
                BenchPlan.clock(BenchPlan.total(steps)));
        TextTable table = new TextTable("  ", List.of("section", "size", "time", "command"),
                List.of(TextTable.Align.LEFT, TextTable.Align.LEFT, TextTable.Align.RIGHT, TextTable.Align.LEFT));
        for (BenchPlan.Step s : steps) {
            if (s.skip() != null) {
                table.row(s.name(), "skipped", "", s.skip());
            } else {
                table.row(s.name(), s.level().label(), BenchPlan.clock(s.seconds()),
                        "sluice " + String.join(" ", s.commandLine(dir, noFio, null)));
            }
        }
        table.print(out);
        out.flush();
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // a leftover JSON file in the temp directory is not worth failing the run
                }
            });
        } catch (IOException e) {
            // as above
        }
    }
}
