package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.bench.BenchChecks;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    @Test
    void benchBigfileDefaultsToFourGiBUnlessMemoryIsShort() {
        StringWriter note = new StringWriter();
        PrintWriter err = new PrintWriter(note, true);
        assertEquals(4L << 30, BenchBigFileCommand.defaultSize(24L << 30, err));
        assertEquals(4L << 30, BenchBigFileCommand.defaultSize(-1, err), "no /proc/meminfo: the default stands");
        assertEquals("", note.toString());
        assertEquals(2L << 30, BenchBigFileCommand.defaultSize(6L << 30, err));
        assertTrue(note.toString().contains("rather than 4 GiB"), note.toString());
        assertEquals(256L << 20, BenchBigFileCommand.defaultSize(100L << 20, err), "never below 256 MiB");
        assertTrue(BenchBigFileCommand.memAvailable() != 0);
    }

    @Test
    void infoListsEveryEngineAndTheBestOne() {
        assertEquals(Main.OK, run("info"), err::toString);
        String s = out.toString();
        for (String engine : new String[] {"CLASSIC", "CHANNEL", "MMAP", "IO_URING", "AUTO"}) {
            assertTrue(s.contains(engine), s);
        }
        io.sluice.Engine uring = io.sluice.Engine.IO_URING;
        String line = uring.isAvailable() ? "(?m)^IO_URING\\s+yes\\s+\\S" : "(?m)^IO_URING\\s+no\\s+\\S";
        assertTrue(Pattern.compile(line).matcher(s).find(), "IO_URING must say whether and why:\n" + s);
        assertTrue(Pattern.compile("(?m)^best\\s+" + io.sluice.Engine.best()).matcher(s).find(), s);
        assertTrue(Pattern.compile("(?m)^auto\\s+reads up to \\d+ (bytes|KiB|MiB) \\(native memory\\) and \\d+ "
                + "(bytes|KiB|MiB) \\(heap memory\\) through the mapping, larger by pread; \\S").matcher(s).find(), s);
    }

    @Test
    void infoSaysWhereAutoThresholdsCameFrom() {
        String old = System.getProperty("sluice.auto.map-max");
        try {
            System.setProperty("sluice.auto.map-max", "16k,256k");
            assertEquals(Main.OK, run("info"), err::toString);
            assertTrue(out.toString().contains("\nauto      reads up to 16 KiB (native memory) and 256 KiB (heap memory)"
                    + " through the mapping, larger by pread; pinned by -Dsluice.auto.map-max=16k,256k\n"), out::toString);
        } finally {
            if (old == null) {
                System.clearProperty("sluice.auto.map-max");
            } else {
                System.setProperty("sluice.auto.map-max", old);
            }
        }
    }

    @Test
    void versionNamesTheReleaseAndTheCommit() {
        assertEquals(Main.OK, run("--version"), err::toString);
        String line = out.toString().strip();
        assertTrue(line.matches("sluice \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(commit ([0-9a-f]{7,}(, modified)?|unknown)\\)"),
                line);
    }

    @Test
    void everySubcommandAnswersVersionLikeTheTopCommand() {
        assertEquals(Main.OK, run("--version"), err::toString);
        String top = out.toString();
        java.util.List<String> names = new java.util.ArrayList<>();
        collect(Main.commandLine(new PrintWriter(out), new PrintWriter(err)), names);
        assertTrue(names.contains("zip test") && names.contains("bench chunks") && names.contains("wc"), names::toString);
        for (String name : names) {
            if (name.equals("help")) {
                continue;
            }
            out.getBuffer().setLength(0);
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of(name.split(" ")));
            args.add("--version");
            assertEquals(Main.OK, run(args.toArray(String[]::new)), () -> name + ": " + err);
            assertEquals(top, out.toString(), name);
        }
    }

    private static void collect(picocli.CommandLine cl, java.util.List<String> names) {
        for (picocli.CommandLine sub : cl.getSubcommands().values()) {
            String q = sub.getCommandSpec().qualifiedName(" ");
            names.add(q.substring(q.indexOf(' ') + 1));
            collect(sub, names);
        }
    }

    @Test
    void versionLineWithoutAGitCheckoutSaysCommitUnknown() {
        assertEquals("sluice 0.1.0 (commit unknown)", Main.Version.line("0.1.0", "${git.commit.id.abbrev}", "${git.dirty}"));
        assertEquals("sluice 0.1.0 (commit unknown)", Main.Version.line("0.1.0", "", "false"));
        assertEquals("sluice 0.1.0 (commit 0123456789ab)", Main.Version.line("0.1.0", "0123456789ab", "false"));
        assertEquals("sluice 0.1.0 (commit 0123456789ab, modified)", Main.Version.line("0.1.0", "0123456789ab", "true"));
    }

    @Test
    void badInputExitsWithTwoAndSaysWhy() {
        assertEquals(Main.BAD_INPUT, run("bench", "--size", "lots"));
        assertTrue(err.toString().contains("not a size: 'lots'"), err::toString);
    }

    @Test
    void unknownEngineIsBadInput() {
        assertEquals(Main.BAD_INPUT, run("bench", "--size", "1m", "--engines", "turbo", "--no-fio"));
        assertTrue(err.toString().contains("unknown engine 'turbo'"), err::toString);
    }

    @Test
    void unknownOptionIsBadInput() {
        assertEquals(Main.BAD_INPUT, run("bench", "--frobnicate"));
    }

    /** What standard error holds, which must be one line (no usage text after it). */
    private String oneLine() {
        String e = err.toString();
        assertTrue(e.endsWith("\n") && e.indexOf('\n') == e.length() - 1, "one line: " + e);
        return e.strip();
    }

    @Test
    void mistakesOnTheCommandLineGetOneLineAndAHintNotTheWholeUsage() {
        String[][] cases = {
            {"sluice: unknown option '--frobnicate'; see 'sluice bench --help'", "bench", "--frobnicate"},
            {"sluice: unknown options '--sise', '1m' (did you mean '--size'?); see 'sluice bench --help'",
                "bench", "--sise", "1m"},
            {"sluice: unknown option '--foo'; see 'sluice bench uring --help'", "bench", "uring", "--foo"},
            // An option of 'bench' given after its subcommand: the message says where it goes.
            {"sluice: --size is an option of 'sluice bench', not of 'sluice bench uring'; put it before 'uring': "
                    + "sluice bench --size 64m uring ...; see 'sluice bench uring --help'", "bench", "uring", "--size",
                "64m"},
            {"sluice: --no-fio is an option of 'sluice bench', not of 'sluice bench uring'; put it before 'uring': "
                    + "sluice bench --no-fio uring ...; see 'sluice bench uring --help'", "bench", "uring", "--no-fio"},
            {"sluice: --threads is an option of 'sluice bench', not of 'sluice bench uring'; put it before "
                    + "'uring': sluice bench --threads=1,2 uring ...; see 'sluice bench uring --help'", "bench",
                "uring", "--threads=1,2"},
            // 'bench write' has options of its own and ignores bench's: there --engines is simply unknown.
            {"sluice: unknown option '--engines'; see 'sluice bench write --help'", "bench", "write", "--engines"},
            {"sluice: unknown option '-x'; see 'sluice wc --help'", "wc", "-x"},
            {"sluice: missing required parameter for option '--size' (BYTES); see 'sluice bench --help'",
                "bench", "--size"},
            {"sluice: invalid value for option '--rounds': 'many' is not an int; see 'sluice bench write --help'",
                "bench", "write", "--rounds", "many"},
            {"sluice: unknown command 'benhc' (did you mean 'bench'?); see 'sluice --help'", "benhc"},
        };
        for (String[] c : cases) {
            err.getBuffer().setLength(0);
            String[] args = java.util.Arrays.copyOfRange(c, 1, c.length);
            assertEquals(Main.BAD_INPUT, run(args), String.join(" ", args));
            assertEquals(c[0], oneLine());
        }
    }

    @Test
    void sizesThatDoNotFitAreRefusedBeforeAnythingIsWritten(@TempDir Path dir) throws Exception {
        String d = dir.toString();
        String[][] cases = {
            {"bench", "--size", "8000000t", "--dir", d, "--no-fio"},
            {"bench", "write", "--size", "8000000t", "--dir", d},
            {"bench", "write", "--size", "5000000t", "--dir", d}, // two files of it overflow a long
            {"bench", "bigfile", "--size", "8000000t", "--dir", d},
        };
        StringBuilder said = new StringBuilder();
        for (String[] c : cases) {
            err.getBuffer().setLength(0);
            assertEquals(Main.BAD_INPUT, run(c), String.join(" ", c) + "\n" + err);
            String e = oneLine();
            said.append(e).append('\n');
            assertTrue(e.startsWith("sluice: --size ") && e.contains(" needs ") && e.contains(" in " + d + ", but only ")
                    && e.contains(" is free there"), e);
            try (var left = Files.list(dir)) {
                assertEquals(0, left.count(), "nothing may be written: " + String.join(" ", c));
            }
        }
        assertTrue(said.toString().contains("(two files of that size) needs more than 8 EiB"), said::toString);
        if (io.sluice.Engine.IO_URING.isAvailable()) {
            err.getBuffer().setLength(0);
            assertEquals(Main.BAD_INPUT, run("bench", "--size", "8000000t", "--dir", d, "--no-fio", "uring"));
            assertTrue(oneLine().contains("(and 64 MiB of open-read-close files) needs 7.6 EiB"), err::toString);
        }
        err.getBuffer().setLength(0);
        assertEquals(Main.BAD_INPUT, run("bench", "zip", "--small-entries", "2000000000", "--dir", d));
        assertEquals("sluice: --small-entries must be 1 to 1000000: 2000000000", oneLine());
        try (var left = Files.list(dir)) {
            assertEquals(0, left.count());
        }
    }

    @Test
    void theSpaceCheckAddsUpWithoutOverflowing(@TempDir Path dir) throws Exception {
        // the archive's bound at the largest counts, and the check that would refuse it on a small disk
        long bound = ZipBenchCommand.archiveBound(ZipBenchCommand.MAX_SMALL_ENTRIES, ZipBenchCommand.MAX_BIG_ENTRIES);
        assertTrue(bound > 164L << 30 && bound < 166L << 30, "" + bound);
        IllegalArgumentException tooBig = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> BenchChecks.space(dir, Files.getFileStore(dir).getUsableSpace() + 1, "the archive"));
        assertTrue(tooBig.getMessage().startsWith("the archive needs "), tooBig.getMessage());
        assertEquals(Long.MAX_VALUE, BenchChecks.times(5_000_000L << 40, 2));
        assertEquals(Long.MAX_VALUE, BenchChecks.plus(Long.MAX_VALUE - 1, 64 << 20));
        assertEquals(3 << 20, BenchChecks.plus(1 << 20, 2 << 20));
    }

    @Test
    void durationsAndRoundsOutOfRangeAreBadInput(@TempDir Path dir) throws Exception {
        String d = dir.toString();
        String[][] cases = {
            {"sluice: --duration must be 1 to 3600000 ms (an hour per sample): 9999999999999",
                "bench", "--size", "1m", "--dir", d, "--duration", "9999999999999"},
            {"sluice: --duration must be 1 to 3600000 ms (an hour per sample): 0", "bench", "zip", "--dir", d,
                "--duration", "0"},
            {"sluice: --rounds must be 1 to 1000: 100000", "bench", "--size", "1m", "--dir", d, "--rounds", "100000"},
            {"sluice: --rounds must be 1 to 1000: 0", "bench", "write", "--dir", d, "--rounds", "0"},
            {"sluice: --rounds must be 1 to 1000: 5000", "bench", "bigfile", "--size", "1m", "--dir", d, "--rounds",
                "5000"},
        };
        for (String[] c : cases) {
            err.getBuffer().setLength(0);
            String[] args = java.util.Arrays.copyOfRange(c, 1, c.length);
            assertEquals(Main.BAD_INPUT, run(args), String.join(" ", args));
            assertEquals(c[0], oneLine());
        }
        if (io.sluice.Engine.IO_URING.isAvailable()) {
            err.getBuffer().setLength(0);
            assertEquals(Main.BAD_INPUT, run("bench", "--dir", d, "uring", "--duration", "9999999999999"));
            assertEquals("sluice: --duration must be 1 to 3600000 ms (an hour per sample): 9999999999999", oneLine());
        }
        try (var left = Files.list(dir)) {
            assertEquals(0, left.count());
        }
    }

    @Test
    void aMissingDirIsRefusedNotCreated(@TempDir Path dir) throws Exception {
        Path typo = dir.resolve("bnech").resolve("data");
        String[][] cases = {
            {"bench", "--size", "1m", "--dir", typo.toString()},
            {"bench", "write", "--size", "1m", "--dir", typo.toString()},
            {"bench", "bigfile", "--size", "1m", "--dir", typo.toString()},
            {"bench", "zip", "--dir", typo.toString()},
        };
        for (String[] c : cases) {
            err.getBuffer().setLength(0);
            assertEquals(Main.BAD_INPUT, run(c), String.join(" ", c));
            assertEquals("sluice: --dir " + typo + " does not exist; create it first (the benchmark makes and removes "
                    + "a directory of its own inside it)", oneLine());
        }
        try (var left = Files.list(dir)) {
            assertEquals(0, left.count(), "no directory made");
        }
        Path file = Files.writeString(dir.resolve("file"), "x");
        err.getBuffer().setLength(0);
        assertEquals(Main.BAD_INPUT, run("bench", "write", "--size", "1m", "--dir", file.toString()));
        assertEquals("sluice: --dir " + file + " is not a directory", oneLine());
    }

    @Test
    void aDirThatTakesNoFilesIsRefusedWithTheCause(@TempDir Path dir) throws Exception {
        // Permission bits stop everyone but root; sysfs refuses new files to root too.
        Path readOnly = Files.createDirectory(dir.resolve("read-only"));
        Files.setPosixFilePermissions(readOnly, java.nio.file.attribute.PosixFilePermissions.fromString("r-xr-xr-x"));
        Path target = readOnly;
        try {
            Files.delete(Files.createTempDirectory(readOnly, "probe"));
            target = Path.of("/sys/kernel"); // root: the bits do not apply
            Files.delete(Files.createTempDirectory(target, "probe"));
            org.junit.jupiter.api.Assumptions.abort("no directory here refuses new files");
        } catch (java.io.IOException expected) {
            // the one to test with
        }
        try {
            for (String[] c : new String[][] {{"bench", "--size", "1m", "--dir", target.toString()},
                {"bench", "bigfile", "--size", "1m", "--dir", target.toString()}}) {
                err.getBuffer().setLength(0);
                assertEquals(Main.BAD_INPUT, run(c), String.join(" ", c));
                String e = oneLine();
                assertTrue(e.startsWith("sluice: --dir " + target + ": cannot create files there: "), e);
                assertTrue(e.endsWith("permission denied") || e.endsWith("Operation not permitted")
                        || e.endsWith("Read-only file system"), e);
            }
        } finally {
            Files.setPosixFilePermissions(readOnly,
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    void failuresAreOneLineWithThePathAndTheCauseAndTheirExitCode() {
        assertEquals("/x: no such file or directory", Main.describe(new java.nio.file.NoSuchFileException("/x")));
        assertEquals("/x: permission denied", Main.describe(new java.nio.file.AccessDeniedException("/x")));
        assertEquals("/x: not a directory", Main.describe(new java.nio.file.NotDirectoryException("/x")));
        assertEquals("/d: Is a directory",
                Main.describe(new java.nio.file.FileSystemException("/d", null, "Is a directory")));
        assertEquals("a -> b: already exists",
                Main.describe(new java.nio.file.FileAlreadyExistsException("a", "b", null)));
        assertEquals("two lines", Main.describe(new java.io.IOException("two\nlines")));
        assertEquals(Main.FAILED, Main.exitCode(new java.io.IOException("x")));
        assertEquals(Main.FAILED, Main.exitCode(new UnsupportedOperationException("engine IO_URING is not available")));
        assertEquals(Main.BAD_INPUT, Main.exitCode(new IllegalArgumentException("x")));
        assertEquals(Main.INTERNAL, Main.exitCode(new NullPointerException()));
    }

    @Test
    void benchForksEveryJavaContenderUnlessNoFork(@TempDir Path dir) throws Exception {
        String d = dir.toString();
        String[] common = {"--size", "1m", "--dir", d, "--engines", "channel,mmap", "--block-sizes", "4k",
            "--seq-block-size", "0", "--threads", "1", "--no-fio"};
        String[] sample = {"--rounds", "1", "--duration", "20", "--json", "-"};
        String[][] cases = {
            concat(new String[] {"bench"}, common, sample),
            concat(new String[] {"bench"}, common, new String[] {"--no-fork"}, sample),
            concat(new String[] {"bench"}, common, new String[] {"channels", "--async-threads", "1", "--depth", "2",
                "--no-direct"}, sample),
            concat(new String[] {"bench"}, common, new String[] {"channels", "--async-threads", "1", "--depth", "2",
                "--no-direct", "--no-fork"}, sample),
            concat(new String[] {"bench"}, common, new String[] {"--no-fork", "channels", "--async-threads", "1",
                "--depth", "2", "--no-direct"}, sample),
        };
        for (int i = 0; i < cases.length; i++) {
            out.getBuffer().setLength(0);
            err.getBuffer().setLength(0);
            String[] c = cases[i];
            assertEquals(Main.OK, run(c), () -> String.join(" ", c) + "\n" + err);
            boolean fork = i == 0 || i == 2;
            String rows = out.toString();
            assertTrue(rows.contains("\"forked\": " + fork) && !rows.contains("\"forked\": " + !fork),
                    String.join(" ", c) + "\n" + rows);
            // Without --forks, one JVM per row: the contender's own child for the run, or the bench's.
            assertTrue(rows.contains("\"forked\": " + fork + ", \"forks\": 1}") && !rows.contains("\"forks\": 2"),
                    rows);
            assertTrue(err.toString().contains(fork ? "each Java contender in a JVM of its own"
                    : "every Java contender in this JVM (--no-fork)"), err::toString);
        }
    }

    @Test
    void forksAboveOneGiveEachJavaRowThatManyJvmsPerCell(@TempDir Path dir) throws Exception {
        String[] common = {"--size", "1m", "--dir", dir.toString(), "--engines", "channel,mmap", "--block-sizes", "4k",
            "--seq-block-size", "0", "--threads", "1", "--no-fio"};
        String[] sample = {"--rounds", "2", "--duration", "20", "--json", "-"};
        String[][] cases = {
            concat(new String[] {"bench"}, common, new String[] {"--forks", "2"}, sample),
            concat(new String[] {"bench"}, common, new String[] {"--forks", "2", "channels", "--async-threads", "1",
                "--depth", "2", "--no-direct"}, sample),
        };
        for (String[] c : cases) {
            out.getBuffer().setLength(0);
            err.getBuffer().setLength(0);
            assertEquals(Main.OK, run(c), () -> String.join(" ", c) + "\n" + err);
            String rows = out.toString();
            assertTrue(rows.contains("\"forked\": true, \"forks\": 2}") && !rows.contains("\"forks\": 1"),
                    String.join(" ", c) + "\n" + rows);
            assertTrue(err.toString().contains("; 2 JVMs per Java contender in every cell"), err::toString);
        }
    }

    @Test
    void forksBeyondTheRoundsOrWithNoForkAreRefused(@TempDir Path dir) {
        String d = dir.toString();
        String[][] cases = {
            {"sluice: --forks 3 is more than --rounds 2: each JVM measures a share of the rounds, so there can be at "
                    + "most one JVM per round", "bench", "--size", "1m", "--dir", d, "--no-fio", "--forks", "3",
                "--rounds", "2"},
            {"sluice: --forks 2 cannot go with --no-fork: --forks starts fresh JVMs for each Java contender, and "
                    + "--no-fork measures them all in the bench's own JVM, which cannot be replaced", "bench",
                "--size", "1m", "--dir", d, "--no-fio", "--no-fork", "--forks", "2"},
            {"sluice: --forks must be at least 1: 0", "bench", "--size", "1m", "--dir", d, "--forks", "0"},
            // bench channels reads bench's --forks, against its own --rounds and either --no-fork.
            {"sluice: --forks 3 is more than --rounds 2: each JVM measures a share of the rounds, so there can be at "
                    + "most one JVM per round", "bench", "--size", "1m", "--dir", d, "--forks", "3", "channels",
                "--rounds", "2"},
            {"sluice: --forks 2 cannot go with --no-fork: --forks starts fresh JVMs for each Java contender, and "
                    + "--no-fork measures them all in the bench's own JVM, which cannot be replaced", "bench",
                "--size", "1m", "--dir", d, "--forks", "2", "channels", "--no-fork"},
            {"sluice: --forks is an option of 'sluice bench', not of 'sluice bench channels'; put it before "
                    + "'channels': sluice bench --forks 2 channels ...; see 'sluice bench channels --help'", "bench",
                "channels", "--forks", "2"},
        };
        for (String[] c : cases) {
            err.getBuffer().setLength(0);
            String[] args = java.util.Arrays.copyOfRange(c, 1, c.length);
            assertEquals(Main.BAD_INPUT, run(args), String.join(" ", args));
            assertEquals(c[0], oneLine());
        }
        assertEquals("", out.toString(), "nothing measured");
    }

    private static String[] concat(String[]... parts) {
        return java.util.Arrays.stream(parts).flatMap(java.util.Arrays::stream).toArray(String[]::new);
    }

    @Test
    void jsonIntoAMissingDirectoryIsRefusedBeforeTheRun(@TempDir Path dir) throws Exception {
        Path data = Files.createDirectory(dir.resolve("data"));
        Path json = dir.resolve("no-such-dir").resolve("rows.json");
        String[][] cases = {
            {"bench", "--size", "1m", "--dir", data.toString(), "--no-fio", "--json", json.toString()},
            {"bench", "write", "--size", "1m", "--dir", data.toString(), "--json", json.toString()},
            {"bench", "bigfile", "--size", "1m", "--dir", data.toString(), "--json", json.toString()},
            {"bench", "zip", "--dir", data.toString(), "--json", json.toString()},
        };
        for (String[] c : cases) {
            err.getBuffer().setLength(0);
            assertEquals(Main.BAD_INPUT, run(c), String.join(" ", c));
            assertEquals("sluice: --json " + json + ": directory " + json.getParent() + " does not exist", oneLine());
        }
        err.getBuffer().setLength(0);
        assertEquals(Main.BAD_INPUT, run("bench", "write", "--size", "1m", "--dir", data.toString(), "--json",
                data.toString()));
        assertEquals("sluice: --json " + data + " is a directory", oneLine());
        try (var left = Files.list(data)) {
            assertEquals(0, left.count(), "nothing was run");
        }
    }

    @Test
    void anErrorDuringProgressStartsALineOfItsOwn(@TempDir Path dir) throws Exception {
        Path data = Files.createDirectory(dir.resolve("data"));
        // Long enough that the run is still going when its directory is taken away under it.
        Thread bench = Thread.ofPlatform().start(() -> assertEquals(Main.FAILED, run("bench", "write", "--size", "8m",
                "--dir", data.toString(), "--chunk-sizes", "64k", "--writers", "FileOutputStream", "--rounds", "1000")));
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!err.toString().contains("[1/2] ") && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertTrue(err.toString().contains("[1/2] "), err::toString);
        // A real failure in the middle of the progress line: the benchmark's files and directory disappear.
        for (int attempt = 0; attempt < 100 && bench.isAlive(); attempt++) {
            try (var dirs = Files.list(data)) {
                for (Path d : dirs.toList()) {
                    try (var files = Files.list(d)) {
                        for (Path f : files.toList()) {
                            Files.deleteIfExists(f);
                        }
                    }
                    Files.deleteIfExists(d);
                }
            } catch (java.io.IOException busy) {
                // the run made a file meanwhile: again
            }
            Thread.sleep(5);
        }
        bench.join(60_000);
        assertTrue(!bench.isAlive());
        String[] lines = err.toString().split("\n");
        String last = lines[lines.length - 1];
        assertTrue(last.startsWith("sluice: ") && last.contains(data.toString()), err::toString);
        assertTrue(lines[lines.length - 2].startsWith("[1/2] seqwrite"), err::toString);
    }

    /** Starts the CLI in a JVM of its own, on this test's class path. */
    private static Process cli(String... args) throws java.io.IOException {
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        cmd.addAll(java.util.List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    @Test
    void aStoppedBenchmarkRemovesItsFiles(@TempDir Path dir) throws Exception {
        Path data = Files.createDirectory(dir.resolve("data"));
        String[][] cases = {
            {"bench", "write", "--size", "16m", "--dir", data.toString(), "--chunk-sizes", "4k", "--rounds", "1000",
                "--writers", "FileOutputStream,MappedWriter"},
            {"bench", "bigfile", "--size", "8m", "--dir", data.toString(), "--threads", "1", "--rounds", "1000"},
        };
        for (String[] c : cases) {
            Process p = cli(c);
            try {
                long deadline = System.nanoTime() + 60_000_000_000L;
                while (!writing(data) && p.isAlive() && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                assertTrue(p.isAlive() && writing(data), "the run was writing: " + String.join(" ", c));
            } finally {
                p.destroy(); // SIGTERM, which runs shutdown hooks as Ctrl-C does
                assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
            }
            try (var left = Files.walk(data)) {
                assertEquals(java.util.List.of(data), left.toList(), String.join(" ", c));
            }
        }
    }

    /** Whether a benchmark's directory in {@code data} holds a file. */
    private static boolean writing(Path data) throws java.io.IOException {
        try (var all = Files.walk(data)) {
            return all.anyMatch(Files::isRegularFile);
        } catch (java.io.UncheckedIOException | java.nio.file.NoSuchFileException changing) {
            return false;
        }
    }

    @Test
    void benchWritesOneJsonRowPerEngineWorkloadAndThreadCountAndCleansUp(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("rows.json");
        Path data = Files.createDirectories(dir.resolve("data"));
        int rc = run("bench", "--size", "4m", "--dir", data.toString(), "--threads", "1,2",
                "--engines", "classic,channel,mmap,naive-direct", "--block-sizes", "4k,64k", "--seq-block-size", "1m",
                "--duration", "20", "--rounds", "2", "--no-fio", "--json", json.toString());
        assertEquals(Main.OK, rc, err::toString);
        String rows = Files.readString(json);
        // 3 workloads x 2 thread counts x 4 contenders
        Matcher m = Pattern.compile("\\{\"engine\": \"([^\"]+)\", \"workload\": \"(randread|seqread)\", "
                + "\"blockSize\": (\\d+), \"threads\": (\\d+), \"opsPerMs\": ([0-9.]+), \"mbPerSec\": ([0-9.]+)")
                .matcher(rows);
        int n = 0;
        while (m.find()) {
            n++;
            double opsPerMs = Double.parseDouble(m.group(5));
            double mbPerSec = Double.parseDouble(m.group(6));
            assertTrue(opsPerMs > 0, m.group());
            // MB/s must follow from ops/ms and the block size (both medians of the same samples)
            assertEquals(opsPerMs * Integer.parseInt(m.group(3)) / 1000, mbPerSec, mbPerSec * 0.35, m.group());
        }
        assertEquals(24, n, rows);
        assertTrue(rows.contains("\"engine\": \"naive-direct\""), rows);
        assertTrue(out.toString().contains("seqread 1 MiB, 2 threads"), out::toString);
        assertTrue(err.toString().contains("page cache warmed"), err::toString);
        try (var left = Files.list(data)) {
            assertEquals(0, left.count(), "the benchmark must remove its test file");
        }
    }
    @Test
    void benchTablesHaveAlignedColumns(@TempDir Path dir) throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        int rc = run("bench", "--size", "1m", "--dir", data.toString(), "--threads", "1",
                "--engines", "classic,channel", "--block-sizes", "4k", "--seq-block-size", "64k",
                "--duration", "5", "--rounds", "1");
        assertEquals(Main.OK, rc, err::toString);
        int tables = 0;
        java.util.List<String> block = new java.util.ArrayList<>();
        for (String line : (out + "\n").split("\n", -1)) {
            if (line.startsWith("  engine ")) {
                block.clear();
                block.add(line);
            } else if (!block.isEmpty() && !line.isBlank()) {
                block.add(line);
            } else if (!block.isEmpty()) {
                assertAligned(block);
                tables++;
                block.clear();
            }
        }
        assertEquals(2, tables, out::toString);
    }

    /**
     * A table's columns are aligned when the runs of character positions blank on every line cut the lines into as
     * many columns as the header names: a cell that strays into the gap between two columns joins them.
     */
    private static void assertAligned(java.util.List<String> table) {
        String[] headers = table.getFirst().strip().split(" {2,}");
        int width = table.stream().mapToInt(String::length).max().orElse(0);
        int columns = 0;
        int blanks = 2; // a gap is two blanks or more: a single one is inside a cell ("x fio")
        for (int i = 0; i < width; i++) {
            boolean blank = true;
            for (String l : table) {
                blank &= i >= l.length() || l.charAt(i) == ' ';
            }
            if (!blank && blanks >= 2) {
                columns++;
            }
            blanks = blank ? blanks + 1 : 0;
        }
        assertEquals(headers.length, columns, () -> String.join("\n", table));
    }

    @Test
    void benchWriteRunsEveryWriterOnBothFilesAndCleansUp(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("rows.json");
        Path data = Files.createDirectories(dir.resolve("data"));
        int rc = run("bench", "write", "--size", "1m", "--dir", data.toString(), "--chunk-sizes", "4k",
                "--rounds", "2", "--json", json.toString());
        assertEquals(Main.OK, rc, err::toString);
        String rows = Files.readString(json);
        Matcher m = Pattern.compile("\\{\"engine\": \"([^\"]+)\", \"workload\": \"seqwrite\", \"blockSize\": 4096, "
                + "\"threads\": 1, \"opsPerMs\": ([0-9.]+).*?\"file\": \"(new|cached)\", "
                + "\"baseline\": \"FileOutputStream\", \"ratioToBaseline\": ([0-9.]+)").matcher(rows);
        int n = 0;
        while (m.find()) {
            n++;
            assertTrue(Double.parseDouble(m.group(2)) > 0, m.group());
        }
        // every writer (AUTO's among them), on a new and a cached file; the io_uring writers only where io_uring runs
        assertEquals(2 * (io.sluice.Engine.IO_URING.isAvailable() ? 9 : 7), n, rows);
        assertTrue(out.toString().contains("seqwrite 4 KiB, cached file, 1 thread"), out::toString);
        try (var left = Files.list(data)) {
            assertEquals(0, left.count(), "the benchmark must remove its files");
        }
    }

    @Test
    void benchBigFileMeasuresEveryThreadCountAgainstTheBaselines(@TempDir Path dir) throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        int rc = run("bench", "bigfile", "--size", "8m", "--dir", data.toString(), "--threads", "1,2",
                "--rounds", "1", "--json", "-");
        assertEquals(Main.OK, rc, err::toString);
        String rows = out.toString();
        for (String row : new String[] {"\"BigFiles.fill\", \"workload\": \"fill\", \"blockSize\": 1048576, \"threads\": 2",
            "\"FileChannel-loop\", \"workload\": \"fill\"", "\"BigFiles.sum\", \"workload\": \"sum\"",
            "\"mmap-long-sum\", \"workload\": \"sum\", \"blockSize\": 1048576, \"threads\": 2",
            "\"FileChannel-loop\", \"workload\": \"sum\""}) {
            assertTrue(rows.contains(row), row + " in\n" + rows);
        }
        assertEquals(8, rows.split("\"engine\"").length - 1, rows);
        try (var left = Files.list(data)) {
            assertEquals(0, left.count(), "the benchmark must remove its files");
        }
    }

    @Test
    void uringSectionMeasuresSingleAndBatchedReadsWarmAndDirect(@TempDir Path dir) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(io.sluice.Engine.IO_URING.isAvailable());
        Path json = dir.resolve("rows.json");
        Path data = Files.createDirectories(dir.resolve("data"));
        int rc = run("bench", "--size", "8m", "--dir", data.toString(), "--no-fio", "uring", "--depth", "4",
                "--duration", "20", "--rounds", "1", "--json", json.toString());
        assertEquals(Main.OK, rc, err::toString);
        String rows = Files.readString(json);
        Matcher m = Pattern.compile("\\{\"engine\": \"([^\"]+)\", \"workload\": \"randread\", \"blockSize\": 4096, "
                + "\"threads\": 1, \"opsPerMs\": ([0-9.]+).*?\"direct\": (true|false), \"depth\": (\\d+),").matcher(rows);
        java.util.List<String> seen = new java.util.ArrayList<>();
        while (m.find()) {
            assertTrue(Double.parseDouble(m.group(2)) > 0, m.group());
            seen.add(m.group(1) + "/" + m.group(3) + "/" + m.group(4));
        }
        assertEquals(java.util.List.of("CHANNEL/false/1", "IO_URING/false/1", "IO_URING/false/4",
                "jdk-direct/true/1", "IO_URING/true/1", "IO_URING/true/4"), seen, rows);
        assertTrue(out.toString().contains("randread 4 KiB, O_DIRECT, 1 thread"), out::toString);
        assertTrue(out.toString().contains("IO_URING depth 4"), out::toString);
        try (var left = Files.list(data)) {
            assertEquals(0, left.count(), "the benchmark must remove its test file");
        }
    }

    @Test
    void uringSectionReadsOnVirtualThreadsAndWritesAtEachThreadCount(@TempDir Path dir) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(io.sluice.Engine.IO_URING.isAvailable());
        Path json = dir.resolve("rows.json");
        Path data = Files.createDirectories(dir.resolve("data"));
        int rc = run("bench", "--size", "4m", "--dir", data.toString(), "--no-fio", "uring", "--depth", "4",
                "--vthreads", "5", "--write-threads", "1,3", "--duration", "20", "--rounds", "1",
                "--json", json.toString());
        assertEquals(Main.OK, rc, err::toString);
        String rows = Files.readString(json);
        Matcher m = Pattern.compile("\\{\"engine\": \"([^\"]+)\", \"workload\": \"(randread-vthreads|randwrite)\", "
                + "\"blockSize\": 4096, \"threads\": (\\d+), \"opsPerMs\": ([0-9.]+), \"mbPerSec\": ([0-9.]+).*?"
                + "\"direct\": (true|false), \"depth\": (\\d+), \"file\": \"cached\", \"baseline\": \"([^\"]+)\", "
                + "\"ratioToBaseline\": ([0-9.]+)").matcher(rows);
        java.util.List<String> seen = new java.util.ArrayList<>();
        while (m.find()) {
            double opsPerMs = Double.parseDouble(m.group(4));
            assertTrue(opsPerMs > 0, m.group());
            // Both figures are printed to 3 decimals: at a low rate (a loaded machine) the rounding of ops/ms, times
            // 4.096, is more than a relative 1e-3 of MB/s.
            assertEquals(opsPerMs * 4096 / 1000, Double.parseDouble(m.group(5)),
                    opsPerMs * 4096 / 1000 * 1e-3 + 0.0005 * 4.096 + 0.0005, m.group());
            if (m.group(1).equals(m.group(8))) {
                assertEquals(1.0, Double.parseDouble(m.group(9)), 1e-9, m.group());
            }
            seen.add(String.join("/", m.group(2), m.group(1), m.group(3), m.group(6), m.group(7), m.group(8)));
        }
        assertEquals(java.util.List.of(
                "randread-vthreads/jdk-aligned/5/false/1/jdk-aligned", "randread-vthreads/IO_URING/5/false/1/jdk-aligned",
                "randread-vthreads/jdk-direct/5/true/1/jdk-direct", "randread-vthreads/IO_URING/5/true/1/jdk-direct",
                "randwrite/jdk-aligned/1/false/1/jdk-aligned", "randwrite/IO_URING/1/false/1/jdk-aligned",
                "randwrite/IO_URING/1/false/4/jdk-aligned", "randwrite/AUTO/1/false/1/jdk-aligned",
                "randwrite/jdk-aligned/3/false/1/jdk-aligned", "randwrite/IO_URING/3/false/1/jdk-aligned",
                "randwrite/IO_URING/3/false/4/jdk-aligned", "randwrite/AUTO/3/false/1/jdk-aligned"), seen, rows);
        assertTrue(out.toString().contains("randread-vthreads 4 KiB, O_DIRECT, 5 threads"), out::toString);
        assertTrue(out.toString().contains("randwrite 4 KiB, cached file, 3 threads"), out::toString);
        assertTrue(err.toString().contains("then reads on 5 virtual threads, random writes on threads [1, 3]"),
                err::toString);
        try (var left = Files.list(data)) {
            assertEquals(0, left.count(), "the benchmark must remove its test file");
        }
    }

    @Test
    void uringSectionSkipsVirtualThreadsAndWritesWhenAskedAndChecksTheirCounts(@TempDir Path dir) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(io.sluice.Engine.IO_URING.isAvailable());
        assertEquals(Main.BAD_INPUT, run("bench", "--no-fio", "uring", "--vthreads", "0"));
        assertTrue(err.toString().contains("--vthreads must be between 1 and 10000: 0"), err::toString);
        assertEquals(Main.BAD_INPUT, run("bench", "--no-fio", "uring", "--write-threads", "1,0"));
        assertTrue(err.toString().contains("--write-threads must be between 1 and 1024: 0"), err::toString);
        Path data = Files.createDirectories(dir.resolve("data"));
        int rc = run("bench", "--size", "1m", "--dir", data.toString(), "--no-fio", "uring", "--no-direct",
                "--no-vthreads", "--no-writes", "--no-open-read-close", "--duration", "5", "--rounds", "1", "--json", "-");
        assertEquals(Main.OK, rc, err::toString);
        assertEquals(3, out.toString().split("\"workload\": \"randread\"").length - 1, out::toString);
        assertEquals(3, out.toString().split("\"engine\"").length - 1, out::toString);
    }

    @Test
    void uringSectionMeasuresOpenReadClosePerRequest(@TempDir Path dir) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(io.sluice.Engine.IO_URING.isAvailable());
        Path json = dir.resolve("rows.json");
        Path data = Files.createDirectories(dir.resolve("data"));
        int rc = run("bench", "--size", "4m", "--dir", data.toString(), "--no-fio", "uring", "--depth", "4",
                "--no-direct", "--no-vthreads", "--no-writes", "--block-sizes", "512,2m", "--duration", "20",
                "--rounds", "1", "--json", json.toString());
        assertEquals(Main.OK, rc, err::toString);
        String rows = Files.readString(json);
        Matcher m = Pattern.compile("\\{\"engine\": \"([^\"]+)\", \"workload\": \"open-read-close\", \"blockSize\": 512, "
                + "\"threads\": 1, \"opsPerMs\": ([0-9.]+).*?\"depth\": (\\d+), .*?\"baseline\": \"([^\"]+)\", "
                + "\"ratioToBaseline\": ([0-9.]+)").matcher(rows);
        java.util.List<String> seen = new java.util.ArrayList<>();
        while (m.find()) {
            assertTrue(Double.parseDouble(m.group(2)) > 0, m.group());
            assertEquals("jdk-open-read-close", m.group(4), m.group());
            seen.add(m.group(1) + "/" + m.group(3));
        }
        assertEquals(java.util.List.of("jdk-open-read-close/1", "IO_URING/1", "IO_URING/4"), seen, rows);
        assertTrue(err.toString().contains("no open-read-close rows for 2 MiB"), err::toString);
        assertTrue(out.toString().contains("open-read-close 512 B, 1 thread"), out::toString);
        try (var left = Files.list(data)) {
            assertEquals(0, left.count(), "the benchmark must remove its files");
        }
    }

    @Test
    void uringSqpollAddsABatchedRowOnTheSqpollRing(@TempDir Path dir) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(io.sluice.Engine.IO_URING.isAvailable());
        Path json = dir.resolve("rows.json");
        Path data = Files.createDirectories(dir.resolve("data"));
        int rc = run("bench", "--size", "8m", "--dir", data.toString(), "--no-fio", "uring", "--depth", "4",
                "--no-direct", "--no-vthreads", "--no-writes", "--no-open-read-close", "--sqpoll", "--duration", "100",
                "--rounds", "1", "--json", json.toString());
        assertEquals(Main.OK, rc, err::toString);
        Matcher m = Pattern.compile("\\{\"engine\": \"([^\"]+)\".*?\"opsPerMs\": ([0-9.]+).*?\"depth\": (\\d+),")
                .matcher(Files.readString(json));
        java.util.List<String> seen = new java.util.ArrayList<>();
        while (m.find()) {
            // Only the SQPOLL row is asserted to have done work: its kernel thread may keep the other rows of this
            // short run off a loaded two-core machine for a whole sample.
            if (m.group(1).equals("IO_URING-sqpoll")) {
                assertTrue(Double.parseDouble(m.group(2)) > 0, m.group());
            }
            seen.add(m.group(1) + "/" + m.group(3));
        }
        assertEquals(java.util.List.of("CHANNEL/1", "IO_URING/1", "IO_URING/4", "IO_URING-sqpoll/4"), seen);
    }
}
