package io.sluice.report;

import java.util.List;

/**
 * The rows of one benchmark section ({@code engines}, {@code uring}, {@code write}, ...) from one source, or the reason
 * the section did not run.
 *
 * @param name      the section: the {@code sluice bench} subcommand, {@code engines} for plain {@code sluice bench}
 * @param source    where the rows came from, for the reader: a file name, or {@code this run}
 * @param rows      the rows, in the order measured
 * @param skipped   why the section did not run or failed, or null when it ran
 * @param arguments the command line the section ran with, or null when unknown
 * @param seconds   how long it ran, NaN when unknown
 */
public record ReportSection(String name, String source, List<ReportRow> rows, String skipped, String arguments,
                            double seconds) {
    /** Copies the rows. */
    public ReportSection {
        rows = List.copyOf(rows);
    }

    /** A section that ran, with nothing known but its rows. */
    public static ReportSection of(String name, String source, List<ReportRow> rows) {
        return new ReportSection(name, source, rows, null, null, Double.NaN);
    }
}
