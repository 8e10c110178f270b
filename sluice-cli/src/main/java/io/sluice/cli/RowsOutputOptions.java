package io.sluice.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Where a bench section writes its rows besides the table: {@code --json} and {@code --report}. A picocli mixin for
 * sections with options of their own, and the superclass of the shared option sets ({@link JobBenchOptions},
 * {@link SampleOptions}), so that every section describes the two the same way.
 */
class RowsOutputOptions {
    @Option(names = "--json", paramLabel = "FILE",
            description = "Also write the rows as a JSON array to FILE ('-' for standard output, instead of the table).")
    Path json;

    @Option(names = "--report", paramLabel = "FILE.html",
            description = "Also write the report page of the rows (with the machine, charts and the seed's claims "
                    + "beside them): one HTML file that works offline.")
    Path report;
}
