package io.sluice.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What {@code sluice bench all} runs: for each section, three sizes of run (quick, medium, and the section's own
 * defaults) with the seconds each took on a 2-core machine, and the choice of one size per section that fits a time
 * budget.
 *
 * <p>The cost model is a table, not a formula: each size is a fixed set of arguments whose time was measured. Every
 * section starts quick; then, in {@link #UPGRADE_ORDER}, each is raised to medium while the total stays within the
 * budget, and then, in the same order, to its defaults. {@code --quick} keeps every section quick. A section this
 * table does not know (one added later) gets {@code --size} and {@code --rounds} scaled the same way if it has those
 * options, and is otherwise run with its defaults; one line in {@link #KNOWN} gives it sizes of its own.
 */
final class BenchPlan {
    /** The three sizes, smallest first. */
    enum Level {
        QUICK, MEDIUM, FULL;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The sizes of one section.
     *
     * @param name    the subcommand of {@code sluice bench}, {@code engines} for {@code sluice bench} itself
     * @param quick   the arguments of a quick run (after the subcommand)
     * @param medium  the arguments of a medium run
     * @param full    the arguments of a run at the section's defaults (usually none)
     * @param seconds what each took on a 2-core machine: quick, medium, full
     */
    record Sizes(String name, List<String> quick, List<String> medium, List<String> full, double[] seconds) {
        List<String> arguments(Level level) {
            return switch (level) {
                case QUICK -> quick;
                case MEDIUM -> medium;
                case FULL -> full;
            };
        }

        double seconds(Level level) {
            return seconds[level.ordinal()];
        }
    }

    /**
     * Marks the arguments in {@link Sizes} that belong to {@code sluice bench} itself and so come before the
     * subcommand ({@code --size}, which {@code uring} reads from its parent); the rest go after it.
     */
    static final String PARENT = "^";

    /**
     * The sections' sizes. The quick times come from runs on the 2-vCPU machine of docs/benchmarks/ while other work
     * loaded it (load average 5 to 10; the whole quick plan took 2:19 at about 6); the larger sizes are scaled from
     * those runs and from the recorded runs at the sections' defaults.
     */
    static final List<Sizes> KNOWN = List.of(
            new Sizes("engines",
                    List.of("^--size", "^256m", "^--block-sizes", "^4k", "^--rounds", "^3", "^--duration", "^100"),
                    List.of("^--size", "^512m", "^--rounds", "^3", "^--duration", "^150"),
                    List.of(), new double[] {30, 75, 120}),
            new Sizes("uring",
                    List.of("^--size", "^256m", "--block-sizes", "4k", "--rounds", "3", "--duration", "100",
                            "--write-threads", "1"),
                    List.of("^--size", "^512m", "--block-sizes", "4k,64k", "--rounds", "3", "--duration", "150",
                            "--write-threads", "1,8"),
                    List.of("--block-sizes", "512,4k,16k,64k", "--write-threads", "1,8,20"),
                    new double[] {25, 80, 400}),
            new Sizes("write",
                    List.of("--size", "32m", "--chunk-sizes", "1k,16k", "--rounds", "3", "--writers",
                            "FileOutputStream,BufferedOutputStream,FileChannel-direct,MappedWriter,IO_URING-batch"),
                    List.of("--size", "128m", "--rounds", "3", "--writers", "FileOutputStream,BufferedOutputStream,"
                            + "RandomAccessFile,FileChannel-heap,FileChannel-direct,MappedWriter,IO_URING-batch"),
                    List.of(), new double[] {10, 60, 300}),
            new Sizes("scan",
                    List.of("--rows", "2000000", "--rounds", "3"),
                    List.of("--rows", "10000000", "--rounds", "3"),
                    List.of(), new double[] {10, 35, 200}),
            new Sizes("jruby",
                    List.of("--size", "32m", "--chunk-sizes", "1k", "--rounds", "1", "--no-reads"),
                    List.of("--size", "256m", "--rounds", "2"),
                    // A JRuby JVM per writer since 2026-11-26: 28, 84 and 300 s measured then (were 20, 60, 220).
                    List.of(), new double[] {28, 84, 300}),
            new Sizes("bigfile",
                    List.of("--size", "256m", "--rounds", "3"),
                    List.of("--size", "1g", "--rounds", "3"),
                    List.of(), new double[] {8, 25, 150}),
            new Sizes("zip",
                    List.of("--small-entries", "32", "--big-entries", "1", "--readers", "sluice,jdk", "--rounds", "3",
                            "--duration", "100"),
                    List.of("--rounds", "3", "--duration", "150"),
                    List.of(), new double[] {25, 40, 90}),
            new Sizes("chunks",
                    List.of("--size", "32m", "--chunk-sizes", "128k,8m", "--rounds", "3"),
                    List.of("--size", "256m", "--chunk-sizes", "16k,128k,1m,8m", "--rounds", "3"),
                    List.of(), new double[] {10, 40, 360}),
            new Sizes("kv",
                    List.of("--n", "20000", "--gets", "10000", "--scans", "1000", "--rounds", "1"),
                    List.of("--n", "500000", "--gets", "100000", "--scans", "10000", "--rounds", "2"),
                    List.of(), new double[] {15, 90, 400}));

    /** The order in which sections are raised to a larger size: the seeds' sections first. */
    static final List<String> UPGRADE_ORDER = List.of("uring", "jruby", "chunks", "zip", "bigfile", "write",
            "engines", "scan", "kv");

    /** The sizes of a section {@link #KNOWN} does not name, given the options it has. */
    static Sizes generic(String name, Set<String> options) {
        boolean size = options.contains("--size");
        boolean rounds = options.contains("--rounds");
        List<String> quick = new ArrayList<>();
        List<String> medium = new ArrayList<>();
        if (size) {
            quick.addAll(List.of("--size", "64m"));
            medium.addAll(List.of("--size", "256m"));
        }
        if (rounds) {
            quick.addAll(List.of("--rounds", "3"));
            medium.addAll(List.of("--rounds", "3"));
        }
        return new Sizes(name, quick, medium, List.of(), new double[] {30, 90, 180});
    }

    /** The sizes of {@code name}: from {@link #KNOWN}, or {@link #generic}. */
    static Sizes sizes(String name, Set<String> options) {
        for (Sizes s : KNOWN) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return generic(name, options);
    }

    /**
     * One section's place in the plan.
     *
     * @param options the options the section takes, to pass {@code --dir} and {@code --json} only where they exist
     * @param skip    why it will not run here, or null
     */
    record Step(Sizes sizes, Level level, Set<String> options, String skip) {
        String name() {
            return sizes.name();
        }

        double seconds() {
            return skip != null ? 0 : sizes.seconds(level);
        }

        /**
         * The command line for {@code sluice bench}: options of {@code bench} itself, the subcommand (none for
         * {@code engines}), then the section's own options.
         *
         * @param dir   {@code --dir} for every section, or null
         * @param noFio {@code --no-fio} for the sections that run fio
         * @param json  {@code --json} for the section's rows, or null
         */
        List<String> commandLine(java.nio.file.Path dir, boolean noFio, java.nio.file.Path json) {
            List<String> before = new ArrayList<>();
            List<String> after = new ArrayList<>();
            for (String a : sizes.arguments(level)) {
                if (a.startsWith(PARENT)) {
                    before.add(a.substring(PARENT.length()));
                } else {
                    after.add(a);
                }
            }
            List<String> line = new ArrayList<>(List.of("bench"));
            line.addAll(before);
            // engines is bench itself; uring reads --size, --dir and --no-fio from bench
            boolean parentReads = name().equals("engines") || name().equals("uring");
            if (parentReads) {
                if (dir != null) {
                    line.addAll(List.of("--dir", dir.toString()));
                }
                if (noFio) {
                    line.add("--no-fio");
                }
            }
            if (!name().equals("engines")) {
                line.add(name());
            }
            line.addAll(after);
            if (!parentReads && dir != null && options.contains("--dir")) {
                line.addAll(List.of("--dir", dir.toString()));
            }
            if (json != null && options.contains("--json")) {
                line.addAll(List.of("--json", json.toString()));
            }
            return line;
        }
    }

    private BenchPlan() {
    }

    /**
     * Chooses a size per section.
     *
     * @param sections the sections to run, in order, each with the options it takes (for {@link #generic})
     * @param skips    why a section cannot run here, by name (absent: it can)
     * @param budget   seconds the whole run may take
     * @param quick    whether every section stays quick whatever the budget
     */
    static List<Step> plan(Map<String, Set<String>> sections, Map<String, String> skips, double budget,
                           boolean quick) {
        List<Step> steps = new ArrayList<>();
        for (Map.Entry<String, Set<String>> e : sections.entrySet()) {
            steps.add(new Step(sizes(e.getKey(), e.getValue()), Level.QUICK, e.getValue(), skips.get(e.getKey())));
        }
        if (quick) {
            return steps;
        }
        for (Level level : List.of(Level.MEDIUM, Level.FULL)) {
            for (String name : upgradeOrder(sections.keySet())) {
                for (int i = 0; i < steps.size(); i++) {
                    Step s = steps.get(i);
                    if (!s.name().equals(name) || s.skip() != null || s.level().ordinal() >= level.ordinal()) {
                        continue;
                    }
                    Step raised = new Step(s.sizes(), level, s.options(), null);
                    if (total(steps) - s.seconds() + raised.seconds() <= budget) {
                        steps.set(i, raised);
                    }
                }
            }
        }
        return steps;
    }

    private static List<String> upgradeOrder(Set<String> names) {
        List<String> order = new ArrayList<>();
        for (String n : UPGRADE_ORDER) {
            if (names.contains(n)) {
                order.add(n);
            }
        }
        for (String n : names) {
            if (!order.contains(n)) {
                order.add(n);
            }
        }
        return order;
    }

    /** The estimated seconds of the steps that run. */
    static double total(List<Step> steps) {
        double t = 0;
        for (Step s : steps) {
            t += s.seconds();
        }
        return t;
    }

    /** Seconds as {@code 1:05} or {@code 12:40}, or {@code 1:02:03} past an hour. */
    static String clock(double seconds) {
        long s = Math.max(0, Math.round(seconds));
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
