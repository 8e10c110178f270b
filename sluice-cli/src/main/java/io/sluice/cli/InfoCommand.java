package io.sluice.cli;

import io.sluice.Engine;
import io.sluice.bench.TextTable;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code sluice info}: the engines, which can run here, and why the others cannot; the engine {@code open(path)} uses,
 * and the thresholds AUTO starts from with where they came from.
 */
@Command(name = "info", mixinStandardHelpOptions = true,
        description = "Show the I/O engines, which are available on this machine, and why not; the default "
                + "engine; and the read sizes AUTO sends through a mapping, with where they came from (pinned by "
                + "-Dsluice.auto.map-max, cached under the user's cache directory, or calibrated now).")
final class InfoCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        out.printf("Java      %s (%s), %s %s %s, %d cores%n", Runtime.version(), System.getProperty("java.vendor"),
                System.getProperty("os.name"), System.getProperty("os.version"), System.getProperty("os.arch"),
                Runtime.getRuntime().availableProcessors());
        out.printf("native    %s%n", Engine.class.getModule().isNativeAccessEnabled()
                ? "access enabled for " + moduleName()
                : "access NOT enabled for " + moduleName() + " (madvise hints are skipped)");
        out.println();
        TextTable engines = new TextTable("", List.of("engine", "available", "how / why not"),
                List.of(TextTable.Align.LEFT, TextTable.Align.LEFT, TextTable.Align.LEFT));
        for (Engine e : Engine.values()) {
            engines.row(e.name(), e.isAvailable() ? "yes" : "no", e.unavailabilityCause().orElse(e.description()));
        }
        engines.print(out);
        out.println();
        String forced = System.getProperty(Engine.PROPERTY);
        out.printf("best      %s%s%n", Engine.best(), forced == null ? "" : " (forced by -D" + Engine.PROPERTY + ")");
        out.printf("auto      %s%n", Engine.autoThresholds());
        out.flush();
        return Main.OK;
    }

    private static String moduleName() {
        Module m = Engine.class.getModule();
        return m.isNamed() ? m.getName() : "the class path";
    }
}
