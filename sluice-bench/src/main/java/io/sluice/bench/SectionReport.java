package io.sluice.bench;

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

/**
 * {@code --report FILE.html} of one section: the machine looked up before the run (with the load then), the page
 * written after it from the same JSON rows {@code --json} writes, so the page and the file always agree.
 */
public final class SectionReport {
    private final Path page;
    private final Map<String, Object> machine;
    private final PrintWriter err;
    private final String command;
    private final long start = System.nanoTime();

    private SectionReport(Path page, Map<String, Object> machine, PrintWriter err, String command) {
        this.page = page;
        this.machine = machine;
        this.err = err;
        this.command = command;
    }

    /**
     * Checks where the page goes and records the machine, or does nothing without {@code --report}.
     *
     * @param page the page to write, or null
     * @param dir     the directory the section writes in (checked already)
     * @param err     where the page's path is said once it is written, and warnings
     * @param command the command line as typed ({@code sluice bench ...}), for the page
     * @return the report to finish after the run, or null when there is none
     */
    public static SectionReport start(Path page, Path dir, PrintWriter err, String command) {
        if (page == null) {
            return null;
        }
        BenchChecks.output(page, "--report");
        STARTED.add(page.toAbsolutePath());
        return new SectionReport(page, MachineInfo.probe(dir, MachineInfo.fioVersion(), true), err, command);
    }

    /** Pages whose section called {@link #start}, until {@link #finish}. */
    private static final Set<Path> STARTED = ConcurrentHashMap.newKeySet();

    /**
     * Writes the page of a section that has a {@code --report} option but did not {@link #start} its report (a
     * section added without these lines), so that the option is never silently ignored; the machine is looked up
     * now, so the page has no load average from before the run. Called when a section's rows are written.
     *
     * @param page    the section's {@code --report}, or null
     * @param dir     its {@code --dir}, or null
     * @param section the section's name ({@code engines} for plain {@code sluice bench})
     * @param json    writes the section's JSON rows, as for {@code --json}
     * @param err     where the page's path is said, and warnings
     * @param command the command line as typed, for the page
     */
    public static void late(Path page, Path dir, String section, Consumer<PrintWriter> json, PrintWriter err,
                            String command) throws IOException {
        if (page == null || STARTED.contains(page.toAbsolutePath())) {
            return;
        }
        BenchChecks.output(page, "--report");
        Map<String, Object> machine = MachineInfo.probe(dir != null ? dir : Path.of(System.getProperty(
                "java.io.tmpdir")), MachineInfo.fioVersion(), true);
        machine.remove("loadBefore");
        new SectionReport(page, machine, err, command).finish(section, json);
    }

    /**
     * Writes the page.
     *
     * @param section the section's name ({@code engines} for plain {@code sluice bench})
     * @param json    writes the section's JSON rows, as for {@code --json}
     */
    public void finish(String section, Consumer<PrintWriter> json) throws IOException {
        STARTED.remove(page.toAbsolutePath());
        MachineInfo.finish(machine);
        StringWriter rows = new StringWriter();
        json.accept(new PrintWriter(rows));
        List<ReportRow> found = new ArrayList<>();
        ReportInput.parse(rows.toString(), "this run", w -> err.println("warning: " + w))
                .ifPresent(d -> d.sections().forEach(s -> found.addAll(s.rows())));
        ReportSection s = new ReportSection(section, "this run", found, null, command,
                (System.nanoTime() - start) / 1e9);
        ReportDocument doc = new ReportDocument("this run", machine, command, List.of(s));
        String generated = "Measured " + ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern(
                "yyyy-MM-dd HH:mm 'UTC'")) + " by " + command + ".";
        Reports.write(page, ReportPage.render(List.of(doc), SeedClaims.load(), Reports.TITLE, generated));
        err.println("wrote " + page);
    }
}
