package io.sluice.cli;

import io.sluice.cli.report.MachineInfo;
import io.sluice.cli.report.ReportDocument;
import io.sluice.cli.report.ReportInput;
import io.sluice.cli.report.ReportPage;
import io.sluice.cli.report.ReportRow;
import io.sluice.cli.report.ReportSection;
import io.sluice.cli.report.SeedClaims;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code --report FILE.html} of one section: the machine looked up before the run (with the load then), the page
 * written after it from the same JSON rows {@code --json} writes, so the page and the file always agree.
 */
final class SectionReport {
    private final Path page;
    private final Map<String, Object> machine;
    private final long start = System.nanoTime();

    private SectionReport(Path page, Map<String, Object> machine) {
        this.page = page;
        this.machine = machine;
    }

    /**
     * Checks where the page goes and records the machine, or does nothing without {@code --report}.
     *
     * @param page the page to write, or null
     * @param dir  the directory the section writes in (checked already)
     * @return the report to finish after the run, or null when there is none
     */
    static SectionReport start(Path page, Path dir) {
        if (page == null) {
            return null;
        }
        BenchChecks.output(page, "--report");
        STARTED.add(page.toAbsolutePath());
        return new SectionReport(page, MachineInfo.probe(dir, MachineInfo.fioVersion(), true));
    }

    /** Pages whose section called {@link #start}, until {@link #finish}. */
    private static final Set<Path> STARTED = ConcurrentHashMap.newKeySet();

    /**
     * Writes the page of a section that has a {@code --report} option but did not {@link #start} its report (a
     * section added without these lines), so that the option is never silently ignored; the machine is looked up
     * now, so the page has no load average from before the run. Called by {@link BenchCommand#emit}.
     */
    static void late(Consumer<PrintWriter> json, CommandSpec spec) throws IOException {
        OptionSpec option = spec.findOption("--report");
        Path page = option == null ? null : option.getValue();
        if (page == null || STARTED.contains(page.toAbsolutePath())) {
            return;
        }
        BenchChecks.output(page, "--report");
        OptionSpec dirOption = spec.findOption("--dir");
        Path dir = dirOption == null ? null : dirOption.getValue();
        Map<String, Object> machine = MachineInfo.probe(dir != null ? dir : Path.of(System.getProperty(
                "java.io.tmpdir")), MachineInfo.fioVersion(), true);
        machine.remove("loadBefore");
        new SectionReport(page, machine).finish(spec.name().equals("bench") ? "engines" : spec.name(), json, spec);
    }

    /**
     * Writes the page.
     *
     * @param section the section's name ({@code engines} for plain {@code sluice bench})
     * @param json    writes the section's JSON rows, as for {@code --json}
     */
    void finish(String section, Consumer<PrintWriter> json, CommandSpec spec) throws IOException {
        STARTED.remove(page.toAbsolutePath());
        MachineInfo.finish(machine);
        PrintWriter err = spec.commandLine().getErr();
        StringWriter rows = new StringWriter();
        json.accept(new PrintWriter(rows));
        List<ReportRow> found = new ArrayList<>();
        ReportInput.parse(rows.toString(), "this run", w -> err.println("warning: " + w))
                .ifPresent(d -> d.sections().forEach(s -> found.addAll(s.rows())));
        String command = "sluice " + String.join(" ", spec.root().commandLine().getParseResult().originalArgs());
        ReportSection s = new ReportSection(section, "this run", found, null, command,
                (System.nanoTime() - start) / 1e9);
        ReportDocument doc = new ReportDocument("this run", machine, command, List.of(s));
        String generated = "Measured " + ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern(
                "yyyy-MM-dd HH:mm 'UTC'")) + " by " + command + ".";
        ReportCommand.write(page, ReportPage.render(List.of(doc), SeedClaims.load(), ReportCommand.TITLE, generated));
        err.println("wrote " + page);
    }
}
