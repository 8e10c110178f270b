package io.sluice.cli;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The training run the {@code sluice} launcher makes its start-up cache from (JDK 25's AOT cache keeps the classes
 * this run loads and links and the profiles of the methods it runs). Not a command: it runs the {@code wc} command
 * lines whose start-up is most of their time, with their output thrown away, so that their paths are in the cache:
 * {@code wc -l} on every file given (with every core for big ones, on one thread for small ones), and {@code wc -mL}
 * in the C.UTF-8 locale on the small ones (the classes of the character counts, the width table).
 *
 * <p>The plain {@code wc} (lines, words, bytes) is left out on purpose: its word loop compiled from a profile made on
 * the jars' binary bytes ran slower on text, deoptimizing again and again (docs/benchmarks/2026-11-23-wc.md).
 */
final class StartupTraining {
    /** Files up to this size also train {@code -mL} (a big one would only make the training slow). */
    private static final long SMALL = 16L << 20;

    private StartupTraining() {
    }

    /**
     * Runs the training on {@code args}, files that are always there (the launcher gives the jars, the JDK's module
     * image and the README).
     */
    public static void main(String[] args) throws Exception {
        List<String> small = new ArrayList<>();
        for (String a : args) {
            if (Files.isRegularFile(Path.of(a)) && Files.size(Path.of(a)) <= SMALL) {
                small.add(a);
            }
        }
        run(Map.of("LC_ALL", "C"), "-l", args);
        run(Map.of("LC_ALL", "C.UTF-8"), "-mL", small.toArray(new String[0]));
    }

    private static void run(Map<String, String> env, String option, String[] files) {
        List<String> args = new ArrayList<>(List.of("wc"));
        if (option != null) {
            args.add(option);
        }
        args.addAll(List.of(files));
        WcCommand wc = WcCommand.quick(args.toArray(new String[0]));
        wc.env = env;
        PrintWriter sink = new PrintWriter(OutputStream.nullOutputStream());
        Main.runQuick(wc, sink, sink);
    }
}
