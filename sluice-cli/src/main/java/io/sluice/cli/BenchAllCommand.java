package io.sluice.cli;

import io.sluice.bench.BenchAll;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sluice bench all}: every section of {@code sluice bench}, sized to a time budget, with one progress display,
 * one JSON document and one report page. Sections are found among {@code bench}'s subcommands, so a section added
 * there runs here too; {@link BenchAll} (module sluice-bench) sizes and runs them.
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
        BenchAll all = new BenchAll(dir, json, report, quick, noFio, commandText());
        all.plan(BenchAll.selected(discover(), sections, skipSections), seconds);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (planOnly) {
            all.printPlan(out);
            return Main.OK;
        }
        boolean ran = all.run((line, o, e) -> Main.commandLine(o, e, "bench").execute(line.toArray(String[]::new)),
                out, err);
        return ran ? Main.OK : Main.FAILED;
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
}
