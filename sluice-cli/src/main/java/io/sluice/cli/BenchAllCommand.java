package io.sluice.cli;

import io.sluice.Engine;
import io.sluice.cli.report.MachineInfo;
import io.sluice.cli.report.ReportDocument;
import io.sluice.cli.report.ReportInput;
import io.sluice.cli.report.ReportPage;
import io.sluice.cli.report.ReportRow;
import io.sluice.cli.report.ReportSection;
import io.sluice.cli.report.SeedClaims;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sluice bench all}: every section of {@code sluice bench}, sized to a time budget, with one progress display,
 * one JSON document and one report page. Sections are found among {@code bench}'s subcommands, so a section added
 * there runs here too (see {@link BenchPlan} for how it is sized).
 */
@Command(name = "all", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Run every section of 'sluice bench' (engines, uring, write, jruby, bigfile, zip, chunks, kv, and any "
                    + "added later), one after another, each sized so the whole run fits --budget. Each section "
                    + "has three sizes whose times were measured on a 2-core machine: quick, medium, and its own "
                    + "defaults. All start quick; then, seeds' sections first, each is raised to medium while the "
                    + "estimate stays within the budget, then to its defaults. --plan shows the choice without "
                    + "running anything.",
            "A section that cannot run here (io_uring unavailable, no jruby-complete jar) is skipped with the reason; "
                    + "one that fails is reported and the others still run. Tables go to standard output, one "
                    + "progress display (section, its own step, elapsed, time left) to standard error."})
final class BenchAllCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--budget", defaultValue = "10m", paramLabel = "TIME",
            description = "How long the whole run may take: 90s, 10m, 1h (default: ${DEFAULT-VALUE}). Estimates "
                    + "come from a 2-core machine; a busy or slow machine takes longer.")
    String budget;

    @Option(names = "--quick", description = "Every section at its quick size: about two minutes on 2 cores.")
    boolean quick;

    @Option(names = "--dir", paramLabel = "DIR",
            description = "An existing directory every section writes its files in (default: the system temp "
                    + "directory).")
    Path dir;

    @Option(names = "--json", paramLabel = "FILE",
            description = "Write every section's rows, with the machine they ran on, as one JSON document "
                    + "(docs/bench-json.md); 'sluice report' reads it back.")
    Path json;

    @Option(names = "--report", paramLabel = "FILE.html",
            description = "Write the report page: the seeds' claims beside our rows, charts, the machine.")
    Path report;

    @Option(names = "--sections", split = ",", paramLabel = "NAME",
            description = "Run only these sections, in this order (default: all).")
    List<String> sections;

    @Option(names = "--skip", split = ",", paramLabel = "NAME", description = "Do not run these sections.")
    List<String> skipSections;

    @Option(names = "--no-fio", description = "Do not run fio in the sections that compare with it.")
    boolean noFio;

    @Option(names = "--plan", description = "Print the plan (each section's size, estimate and command) and stop.")
    boolean planOnly;

    @Override
    public Integer call() throws IOException {
        double seconds = budgetSeconds(budget);
        BenchChecks.json(json);
        BenchChecks.output(report, "--report");
        Path d = BenchChecks.dir(dir);
        Map<String, Set<String>> found = selected(discover());
        Map<String, String> skips = new LinkedHashMap<>();
        for (String name : found.keySet()) {
            unavailable(name).ifPresent(why -> skips.put(name, why));
        }
        List<BenchPlan.Step> steps = BenchPlan.plan(found, skips, seconds, quick);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (planOnly) {
            printPlan(steps, seconds, out);
            return Main.OK;
        }
        BenchCommand.describeMachine(err);
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
                ReportSection r = runStep(steps, i, tmp, start, jsonToStdout() ? discard() : out, err);
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
        ReportDocument doc = new ReportDocument("this run", machine, commandText(), results);
        if (jsonToStdout()) {
            out.print(doc.toJson());
            out.flush();
        } else if (json != null) {
            Files.writeString(json, doc.toJson(), StandardCharsets.UTF_8);
            err.println("wrote " + json);
        }
        if (report != null) {
            String generated = "Measured " + ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern(
                    "yyyy-MM-dd HH:mm 'UTC'")) + " by " + commandText() + ".";
            ReportCommand.write(report, ReportPage.render(List.of(doc), SeedClaims.load(), ReportCommand.TITLE,
                    generated));
            err.println("wrote " + report);
        }
        return failed ? Main.FAILED : Main.OK;
    }

    /** Runs one section in this JVM, its progress prefixed with the whole run's; returns its rows or why none. */
    private ReportSection runStep(List<BenchPlan.Step> steps, int index, Path tmp, long start, PrintWriter out,
                                  PrintWriter err) {
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

        int code = Main.commandLine(out, sectionErr, "bench").execute(line.toArray(String[]::new));
        sectionErr.flush();
        double took = (System.nanoTime() - sectionStart) / 1e9;
        List<ReportRow> found = new ArrayList<>();
        String problem = code == Main.OK ? null : "failed with exit code " + code + ": " + progress.lastLine();
        if (Files.exists(rows)) {
            try {
                Optional<ReportDocument> d = ReportInput.read(rows, w -> sectionErr.println("warning: " + w));
                d.ifPresent(doc -> doc.sections().forEach(s -> found.addAll(s.rows())));
            } catch (IOException e) {
                problem = "its rows could not be read back: " + Main.describe(e);
            }
        } else if (code == Main.OK && step.options().contains("--json")) {
            problem = "it wrote no rows";
        } else if (code == Main.OK) {
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

    /** The sections: bench itself ({@code engines}), then its subcommands but this one, each with its options. */
    Map<String, Set<String>> discover() {
        CommandSpec bench = spec.parent();
        Map<String, Set<String>> found = new LinkedHashMap<>();
        found.put("engines", optionNames(bench));
        for (Map.Entry<String, CommandLine> e : bench.subcommands().entrySet()) {
            String name = e.getKey();
            if (!name.equals(spec.name()) && !found.containsKey(name)) {
                found.put(name, optionNames(e.getValue().getCommandSpec()));
            }
        }
        return found;
    }

    private static Set<String> optionNames(CommandSpec c) {
        Set<String> names = new LinkedHashSet<>();
        for (OptionSpec o : c.options()) {
            names.addAll(List.of(o.names()));
        }
        return names;
    }

    private Map<String, Set<String>> selected(Map<String, Set<String>> all) {
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
                    io.sluice.jruby.bench.JRubyBench.jrubyJar(null);
                    return Optional.empty();
                } catch (NoClassDefFoundError e) {
                    // sluice-jruby is an optional dependency: a build without it has no JRuby sections
                    return Optional.of("sluice-jruby is not on the class path, so this build has no JRuby sections");
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

    private void printPlan(List<BenchPlan.Step> steps, double seconds, PrintWriter out) {
        out.printf(Locale.ROOT, "%s, estimate %s%n", quick ? "--quick" : "budget " + BenchPlan.clock(seconds),
                BenchPlan.clock(BenchPlan.total(steps)));
        for (BenchPlan.Step s : steps) {
            if (s.skip() != null) {
                out.printf(Locale.ROOT, "  %-8s skipped: %s%n", s.name(), s.skip());
            } else {
                out.printf(Locale.ROOT, "  %-8s %-6s %6s  sluice %s%n", s.name(), s.level().label(),
                        BenchPlan.clock(s.seconds()), String.join(" ", s.commandLine(dir, noFio, null)));
            }
        }
        out.flush();
    }

    private String commandText() {
        List<String> args = new ArrayList<>(List.of("sluice", "bench", "all"));
        if (quick) {
            args.add("--quick");
        } else {
            args.addAll(List.of("--budget", budget));
        }
        if (sections != null) {
            args.addAll(List.of("--sections", String.join(",", sections)));
        }
        if (skipSections != null) {
            args.addAll(List.of("--skip", String.join(",", skipSections)));
        }
        if (noFio) {
            args.add("--no-fio");
        }
        return String.join(" ", args);
    }

    /** {@code 90s}, {@code 10m}, {@code 1h}, {@code 1h30m} or plain seconds, in seconds. */
    static double budgetSeconds(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        var m = java.util.regex.Pattern.compile("(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s?)?").matcher(t);
        if (t.isEmpty() || !m.matches()) {
            throw new IllegalArgumentException("--budget: not a time: '" + text + "' (examples: 90s, 10m, 1h)");
        }
        long s = 0;
        s += m.group(1) != null ? Long.parseLong(m.group(1)) * 3600 : 0;
        s += m.group(2) != null ? Long.parseLong(m.group(2)) * 60 : 0;
        s += m.group(3) != null ? Long.parseLong(m.group(3)) : 0;
        if (s < 1 || s > 7 * 24 * 3600) {
            throw new IllegalArgumentException("--budget must be 1 second to a week: '" + text + "'");
        }
        return s;
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
