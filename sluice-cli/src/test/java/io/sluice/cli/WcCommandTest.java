package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sluice.cli.wc.CharWidths;
import io.sluice.cli.wc.CtypeLocale;
import io.sluice.cli.wc.WordCounter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code sluice wc} against GNU {@code wc} on this machine, on random text with every awkward kind of byte. */
class WcCommandTest {
    @TempDir
    static Path dir;

    static List<Path> files = new ArrayList<>();

    /** What one run printed and returned. */
    record Result(String out, String err, int exit) {
    }

    /**
     * Pieces of text: words, every ASCII space, control characters, bytes that are not UTF-8, and UTF-8 characters
     * of each class (printable, space, neither) and display width (wide, zero-width, combining), some assigned only
     * in Unicode 15 or later (where glibc 2.36 and the JDK disagree: U+1FAE9, U+31350).
     */
    private static final String[] PIECES = {
        "word", "a", "Zz9", "x.y", " ", "  ", "\t", "\n", "\n", "\n", "\u000B", "\f", "\r", "\u0000", "\u0001",
        "\u001B", "\u007F", "é", "€", "😀", "日本", "\u00A0", "\u3000", "\u2028", "\u2029", "\u0085", "\u180E",
        "\uFEFF", "\uE000", "\u2007", "\u2060", "\u205F", "\u1680", "\u200B", "\u202F", "\u2003", "\uFFFE", "\uFDD0",
        "\t\t", "ab\tc", "e\u0301", "\u00AD", "\uFF21", "\u1160", "\uD83E\uDEE9", "\uD884\uDF50", "中文\t",
        "\u0378", "\uDB40\uDC01", "\u05D0",
    };
    private static final byte[][] RAW = {
        {(byte) 0xED, (byte) 0xA0, (byte) 0x80},             // a surrogate
        {(byte) 0xC0, (byte) 0xAF},                          // overlong '/'
        {(byte) 0xE0, (byte) 0x80, (byte) 0xAF},             // overlong
        {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // past U+10FFFF
        {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}, // a five-byte form
        {(byte) 0xE2, (byte) 0x82},                          // cut short
        {(byte) 0xF0, (byte) 0x9F, (byte) 0x98},             // cut short
        {(byte) 0x80}, {(byte) 0xBF}, {(byte) 0xFF}, {(byte) 0xC3},
        {(byte) 0xF5, (byte) 0x80, (byte) 0x80, (byte) 0x80},                         // past U+10FFFF, four bytes
        {(byte) 0xFC, (byte) 0x84, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80}, // a six-byte form
        {(byte) 0xF8, (byte) 0x87, (byte) 0xBF, (byte) 0xBF, (byte) 0xBF},              // an overlong five-byte form
        {(byte) 0xFE}, {(byte) 0xF8, (byte) 0x88, (byte) 0x80},                         // cut short
    };

    static byte[] randomText(SplittableRandom rnd, int pieces) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int i = 0; i < pieces; i++) {
            if (rnd.nextInt(6) == 0) {
                b.writeBytes(RAW[rnd.nextInt(RAW.length)]);
            } else if (rnd.nextInt(40) == 0) {
                b.writeBytes("long".repeat(rnd.nextInt(300)).getBytes(StandardCharsets.UTF_8));
            } else {
                b.writeBytes(PIECES[rnd.nextInt(PIECES.length)].getBytes(StandardCharsets.UTF_8));
            }
        }
        return b.toByteArray();
    }

    @BeforeAll
    static void makeFiles() throws IOException {
        SplittableRandom rnd = new SplittableRandom(Long.getLong("sluice.test.seed", 2024));
        files.add(Files.write(dir.resolve("empty"), new byte[0]));
        files.add(Files.write(dir.resolve("no-final-newline"), "one two\nthree".getBytes(StandardCharsets.UTF_8)));
        files.add(Files.write(dir.resolve("only-newlines"), "\n\n\n".getBytes(StandardCharsets.UTF_8)));
        for (int i = 0; i < 6; i++) {
            files.add(Files.write(dir.resolve("random-" + i), randomText(rnd, 1 + rnd.nextInt(20_000))));
        }
        // a few MiB: more than one segment, so threads split it and the counts are merged
        byte[] big = randomText(rnd, 200_000);
        assertTrue(big.length > 2 << 20, "big enough for several segments: " + big.length);
        files.add(Files.write(dir.resolve("big"), big));
    }

    /** Runs through picocli, as help and bad input do. */
    static Result sluice(Map<String, String> env, InputStream stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine(new PrintWriter(out, true), new PrintWriter(err, true));
        WcCommand wc = cl.getSubcommands().get("wc").getCommand();
        wc.env = env;
        if (stdin != null) {
            wc.stdin = stdin;
        }
        List<String> all = new ArrayList<>(List.of("wc"));
        all.addAll(List.of(args));
        int exit = cl.execute(all.toArray(new String[0]));
        return new Result(out.toString(), err.toString(), exit);
    }

    /** Runs through {@link WcCommand#quick}, as {@code sluice wc} with plain options does. */
    static Result quick(Map<String, String> env, String... args) {
        List<String> all = new ArrayList<>(List.of("wc"));
        all.addAll(List.of(args));
        WcCommand wc = WcCommand.quick(all.toArray(new String[0]));
        assertNotNull(wc, "the quick parser takes " + all);
        wc.env = env;
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.runQuick(wc, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(out.toString(), err.toString(), exit);
    }

    static Result gnu(Map<String, String> env, List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("wc"));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().remove("POSIXLY_CORRECT");
        // exactly the locale variables given, none inherited
        pb.environment().keySet().removeIf(k -> k.startsWith("LC_") || k.equals("LANG") || k.equals("LOCPATH"));
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        return new Result(out, err, p.exitValue());
    }

    static boolean gnuWcIsHere() {
        try {
            Process p = new ProcessBuilder("wc", "--version").redirectErrorStream(true).start();
            String v = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 && v.contains("GNU coreutils");
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    @Test
    void sameOutputAndExitCodeAsGnuWc() throws Exception {
        assumeTrue(gnuWcIsHere(), "GNU wc is not installed");
        List<String> names = files.stream().map(p -> p.getFileName().toString()).toList();
        List<List<String>> operands = new ArrayList<>();
        for (String n : names) {
            operands.add(List.of(n));
        }
        operands.add(names);
        operands.add(List.of("missing", names.get(4), "big"));
        operands.add(List.of(".", "no-final-newline"));
        operands.add(List.of(names.get(5), "missing"));
        String[][] optionSets = {{}, {"-l"}, {"-w"}, {"-c"}, {"-lw"}, {"-wc"}, {"-c", "-l"}, {"--lines", "--bytes"}};
        assertTrue(compareWithGnu(optionSets, operands, true) > 100);
    }

    @Test
    void charactersAndLineWidthsAreGnuWcs() throws Exception {
        assumeTrue(gnuWcIsHere(), "GNU wc is not installed");
        List<String> names = files.stream().map(p -> p.getFileName().toString()).toList();
        List<List<String>> operands = List.of(names, List.of("big"), List.of("random-2"),
                List.of("empty", "no-final-newline", "missing"), List.of("only-newlines"));
        String[][] optionSets = {{"-m"}, {"-L"}, {"-lwmcL"}, {"--chars", "-c"}, {"--max-line-length", "-w"},
            {"-Lm", "-l"}};
        assertTrue(compareWithGnu(optionSets, operands, false) > 50);
    }

    /**
     * Runs every option set on every list of operands (names in {@link #dir}) with GNU wc and with {@code sluice wc},
     * in the C and C.UTF-8 locales (and with {@code posixlyCorrect} in C.UTF-8 with {@code POSIXLY_CORRECT}), and
     * compares output, exit code and the reason of each error; returns how many runs were compared.
     */
    private static int compareWithGnu(String[][] optionSets, List<List<String>> operands, boolean posixlyCorrect)
            throws Exception {
        int compared = 0;
        List<Map<String, String>> envs = new ArrayList<>(List.of(Map.of("LC_ALL", "C.UTF-8"), Map.of("LC_ALL", "C")));
        if (posixlyCorrect) {
            envs.add(Map.of("LC_ALL", "C.UTF-8", "POSIXLY_CORRECT", "1"));
        }
        for (Map<String, String> env : envs) {
            for (String[] options : optionSets) {
                for (List<String> files : operands) {
                    List<String> args = new ArrayList<>(List.of(options));
                    args.addAll(files);
                    Result expected = gnu(env, args);
                    List<String> ours = new ArrayList<>(List.of(options));
                    for (String f : files) {
                        ours.add(dir.resolve(f).toString());
                    }
                    Result got = sluice(env, null, ours.toArray(new String[0]));
                    assertEquals(got, quick(env, ours.toArray(new String[0])), "picocli and quick paths differ");
                    // Same output once our absolute paths are written as wc was given them.
                    String out = got.out().replace(dir.toString() + "/", "").replace(dir.toString(), ".");
                    String what = env + " wc " + String.join(" ", args);
                    assertEquals(expected.out(), out, what);
                    assertEquals(expected.exit(), got.exit(), what + "\n" + got.err());
                    assertSameReasons(expected, got, what);
                    compared++;
                }
            }
        }
        return compared;
    }

    /**
     * Runs {@code sluice} and GNU wc with the same arguments and compares output, exit code and the reason of each
     * error; {@code args} name files by absolute path, so both run alike wherever they start.
     */
    private static void assertSameAsGnu(Map<String, String> env, List<String> args) throws Exception {
        Result expected = gnu(env, args);
        Result got = sluice(env, null, args.toArray(new String[0]));
        assertEquals(got, quick(env, args.toArray(new String[0])), "picocli and quick paths differ");
        String what = env + " wc " + String.join(" ", args);
        assertEquals(expected.out(), got.out(), what);
        assertEquals(expected.exit(), got.exit(), what + "\n" + got.err());
        assertSameReasons(expected, got, what);
    }

    private static void assertSameReasons(Result expected, Result got, String what) {
        for (String line : expected.err().split("\n")) {
            if (!line.isEmpty()) {
                String reason = line.substring(line.lastIndexOf(": ") + 2);
                assertTrue(got.err().contains(reason), what + ": expected '" + reason + "' in " + got.err());
            }
        }
    }

    @Test
    void procAndSysFilesAreReadToTheirEndNotToTheirSize() throws Exception {
        assumeTrue(gnuWcIsHere(), "GNU wc is not installed");
        // Files whose text does not change from read to read: /proc says size 0, sysfs 4096 for a few bytes.
        List<String> pseudo = new ArrayList<>();
        for (String f : new String[] {"/proc/version", "/proc/filesystems", "/sys/kernel/mm/transparent_hugepage/enabled",
            "/sys/kernel/mm/transparent_hugepage/defrag", "/sys/bus/cpu/uevent"}) {
            if (Files.exists(Path.of(f))) {
                pseudo.add(f);
            }
        }
        assumeTrue(pseudo.contains("/proc/version"), "no /proc here");
        String[][] optionSets = {{}, {"-l"}, {"-w"}, {"-c"}, {"-lc"}};
        for (String[] options : optionSets) {
            for (String f : pseudo) {
                List<String> args = new ArrayList<>(List.of(options));
                args.add(f);
                assertSameAsGnu(Map.of("LC_ALL", "C.UTF-8"), args);
            }
            List<String> all = new ArrayList<>(List.of(options));
            all.addAll(pseudo);
            all.add(dir.resolve("big").toString());
            assertSameAsGnu(Map.of("LC_ALL", "C"), all);
        }
    }

    @Test
    void anEmptyFileNameIsInvalidNotTheCurrentDirectory() throws Exception {
        assumeTrue(gnuWcIsHere(), "GNU wc is not installed");
        String a = dir.resolve("no-final-newline").toString();
        String b = dir.resolve("only-newlines").toString();
        for (List<String> args : List.of(List.of(""), List.of("-l", ""), List.of("", a), List.of(a, "", b),
                List.of("-c", a, ""))) {
            assertSameAsGnu(Map.of("LC_ALL", "C"), args);
        }
    }

    @Test
    void aFifoIsReadToItsEndAsItsWriterFeedsIt() throws Exception {
        assumeTrue(gnuWcIsHere(), "GNU wc is not installed");
        Path fifo = dir.resolve("fifo");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assumeTrue(mk.waitFor(30, TimeUnit.SECONDS) && mk.exitValue() == 0, "no mkfifo here");
        byte[] text = Files.readAllBytes(dir.resolve("random-3"));
        try {
            for (String[] options : new String[][] {{}, {"-c"}, {"-lw"}}) {
                List<String> args = new ArrayList<>(List.of(options));
                args.add(fifo.toString());
                args.add(dir.resolve("random-3").toString());
                Map<String, String> env = Map.of("LC_ALL", "C.UTF-8");
                Result expected = fedThroughFifo(fifo, text, () -> gnu(env, args));
                Result got = fedThroughFifo(fifo, text, () -> sluice(env, null, args.toArray(new String[0])));
                assertEquals(expected, got, String.join(" ", args));
            }
        } finally {
            Files.delete(fifo);
        }
    }

    /** Runs {@code wc} while another thread writes {@code text} into {@code fifo} (its open waits for a reader). */
    private static Result fedThroughFifo(Path fifo, byte[] text, java.util.concurrent.Callable<Result> wc)
            throws Exception {
        Thread writer = Thread.ofPlatform().start(() -> {
            try {
                Files.write(fifo, text);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        Result r = wc.call();
        writer.join(30_000);
        assertTrue(!writer.isAlive(), "the writer finished");
        return r;
    }

    /**
     * Runs the command line {@code sh} is given, whose {@code $JAVA} is a JVM on this test's class path running
     * {@link Main}: for what only a process of its own can have, such as a closed standard input.
     */
    private static Result shell(String script) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", script).directory(dir.toFile());
        pb.environment().put("JAVA", java + " -cp " + System.getProperty("java.class.path") + " " + Main.class.getName());
        pb.environment().put("LC_ALL", "C");
        pb.environment().remove("POSIXLY_CORRECT");
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new Result(out, err, p.exitValue());
    }

    @Test
    void aClosedStandardInputIsABadDescriptorNotAFileTheJvmOpened() throws Exception {
        assumeTrue(gnuWcIsHere(), "GNU wc is not installed");
        assumeTrue(Files.isSymbolicLink(Path.of("/proc/self/fd/0")) || Files.isDirectory(Path.of("/proc/self/fd")),
                "no /proc/self/fd here");
        for (String args : new String[] {"-", "", "-l -", "-c - " + dir.resolve("no-final-newline")}) {
            Result expected = shell("exec wc " + args + " <&-");
            // The JVM opens its own files on the lowest free descriptor: 0, here.
            Result got = shell("exec $JAVA wc " + args + " <&-");
            String what = "wc " + args + " <&-";
            assertEquals(expected.out(), got.out(), what + "\n" + got.err());
            assertEquals(expected.exit(), got.exit(), what + "\n" + got.err());
            assertSameReasons(expected, got, what);
        }
    }

    @Test
    void aFailedWriteOfTheCountsIsAnError() throws Exception {
        assumeTrue(gnuWcIsHere(), "GNU wc is not installed");
        assumeTrue(Files.exists(Path.of("/dev/full")), "no /dev/full here");
        for (String args : new String[] {"-l no-final-newline", "no-final-newline only-newlines"}) {
            Result expected = shell("exec wc " + args + " > /dev/full");
            Result got = shell("exec $JAVA wc " + args + " > /dev/full");
            String what = "wc " + args + " > /dev/full";
            assertEquals(expected.exit(), got.exit(), what + "\n" + got.err());
            assertSameReasons(expected, got, what);
        }
    }

    @Test
    void standardInputRedirectedFromAProcFileIsReadToItsEnd() throws Exception {
        assumeTrue(gnuWcIsHere(), "GNU wc is not installed");
        assumeTrue(Files.exists(Path.of("/proc/version")), "no /proc here");
        for (String args : new String[] {"-", "", "-lc -"}) {
            Result expected = shell("exec wc " + args + " < /proc/version");
            Result got = shell("exec $JAVA wc " + args + " < /proc/version");
            assertEquals(expected, new Result(got.out(), "", got.exit()), "wc " + args + " < /proc/version\n" + got.err());
        }
    }

    @Test
    void standardInputGivesTheSameCountsAsTheFileHowEverTheReadsAreCut() throws Exception {
        Path big = dir.resolve("big");
        byte[] all = Files.readAllBytes(big);
        for (String[] options : new String[][] {{}, {"-mL"}, {"-lwmcL"}}) {
            for (String locale : new String[] {"C.UTF-8", "C"}) {
                assertSameCountsAsTheFile(big, all, locale, options);
            }
        }
    }

    private static void assertSameCountsAsTheFile(Path big, byte[] all, String locale, String[] options) {
        {
            List<String> args = new ArrayList<>(List.of(options));
            args.add(big.toString());
            Result file = sluice(Map.of("LC_ALL", locale), null, args.toArray(new String[0]));
            // reads of 1 to 7 bytes cut UTF-8 sequences anywhere
            InputStream dribble = new ByteArrayInputStream(all) {
                private final SplittableRandom rnd = new SplittableRandom(9);

                @Override
                public synchronized int read(byte[] b, int off, int len) {
                    return super.read(b, off, Math.min(len, 1 + rnd.nextInt(7)));
                }
            };
            Result stream = sluice(Map.of("LC_ALL", locale), dribble, options);
            String counts = file.out().substring(0, file.out().lastIndexOf(' '));
            // the same counts, without a name, and at width 7: a stream is not a regular file (as for GNU)
            assertEquals(pad7(counts) + "\n", stream.out(), locale + " " + List.of(options));
            assertEquals(0, stream.exit());
        }
    }

    private static String pad7(String counts) {
        StringBuilder b = new StringBuilder();
        for (String n : counts.trim().split(" +")) {
            b.append(b.isEmpty() ? "" : " ").append(String.format("%7s", n));
        }
        return b.toString();
    }

    @Test
    void theQuickParserReadsWhatPicocliReadsAndLeavesTheRestToIt() {
        String[][] taken = {{}, {"-l"}, {"-lwc", "a"}, {"a", "-w", "b"}, {"--bytes", "--", "-l"}, {"-"},
            {"--threads", "3", "x"}, {"--threads=2", "--lines", "-c"}, {"-cl", "--words", "-", "--", "--help"},
            {"-L"}, {"-mL", "a"}, {"--chars", "--max-line-length", "b"}, {"-lwmcL"}};
        for (String[] args : taken) {
            List<String> all = new ArrayList<>(List.of("wc"));
            all.addAll(List.of(args));
            WcCommand q = WcCommand.quick(all.toArray(new String[0]));
            assertNotNull(q, all.toString());
            CommandLine cl = Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
            WcCommand p = cl.getSubcommands().get("wc").getCommand();
            cl.parseArgs(all.toArray(new String[0]));
            String what = all.toString();
            assertEquals(p.lines, q.lines, what);
            assertEquals(p.words, q.words, what);
            assertEquals(p.bytes, q.bytes, what);
            assertEquals(p.chars, q.chars, what);
            assertEquals(p.maxLineLength, q.maxLineLength, what);
            assertEquals(p.threads, q.threads, what);
            assertEquals(p.files == null ? List.of() : p.files, q.files, what);
        }
        String[][] left = {{"--help"}, {"-h"}, {"-V"}, {"--version"}, {"-lx"}, {"--line"}, {"--threads"},
            {"--threads=two"}, {"--threads", "two"}, {"--lines=1"}, {"-Lx"}, {"--max-line"}};
        for (String[] args : left) {
            List<String> all = new ArrayList<>(List.of("wc"));
            all.addAll(List.of(args));
            assertNull(WcCommand.quick(all.toArray(new String[0])), all.toString());
        }
        // and those get picocli's answer: usage, or an error naming the option
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(Main.OK, Main.run(new PrintWriter(out, true), new PrintWriter(err, true), "wc", "--help"));
        assertTrue(out.toString().contains("--threads"), out.toString());
        assertEquals(Main.BAD_INPUT, Main.run(new PrintWriter(out, true), new PrintWriter(err, true), "wc", "-x"));
        assertTrue(err.toString().contains("-x"), err.toString());
    }

    @Test
    void negativeThreadsAreBadInputOnBothPaths() {
        Result q = quick(Map.of(), "--threads", "-1", "x");
        Result p = sluice(Map.of(), null, "--threads", "-1", "x");
        assertEquals(Main.BAD_INPUT, q.exit());
        assertEquals(p, q);
        assertTrue(q.err().contains("--threads must be 0"), q.err());
    }

    @Test
    void theLocaleComesFromLcAllThenLcCtypeThenLang() {
        // LOCPATH names an empty directory, so only the built-in locales are there, whatever this machine has
        String none = dir.resolve("no-locales").toString();
        assertTrue(CtypeLocale.isUtf8(Map.of("LC_CTYPE", "C.utf8", "LANG", "C", "LOCPATH", none)));
        assertTrue(!CtypeLocale.isUtf8(Map.of("LC_ALL", "C", "LANG", "C.UTF-8", "LOCPATH", none)));
        assertTrue(CtypeLocale.isUtf8(Map.of("LC_ALL", "", "LANG", "C.UTF-8", "LOCPATH", none)),
                "empty values are skipped");
        assertTrue(!CtypeLocale.isUtf8(Map.of("LOCPATH", none)), "no locale is C");
        assertTrue(!CtypeLocale.isUtf8(Map.of("LANG", "en_US.UTF-8", "LOCPATH", none)), "a missing locale is C");
        assertTrue(!CtypeLocale.isUtf8(Map.of("LANG", "C.UTF-8", "LC_TIME", "xx_XX", "LOCPATH", none)),
                "one missing category leaves them all C");
        assertTrue(CtypeLocale.isUtf8(Map.of("LC_ALL", "C.UTF-8", "LC_TIME", "xx_XX", "LOCPATH", none)),
                "LC_ALL overrides every category");
    }

    @Test
    void aMissingFileIsReportedAndTheOthersStillCounted() {
        Result r = sluice(Map.of(), null, dir.resolve("nope").toString(), dir.resolve("no-final-newline").toString());
        assertEquals(Main.FAILED, r.exit());
        assertTrue(r.err().contains("nope: No such file or directory"), r.err());
        assertTrue(r.out().contains(" 1  3 13 ") && r.out().endsWith(" 1  3 13 total\n"), r.out());
    }

    @Test
    void safeCutNeverSplitsASequenceThatMayComplete() {
        byte[] euro = "a€".getBytes(StandardCharsets.UTF_8); // 61 E2 82 AC
        assertEquals(4, WcCommand.safeCut(euro, 4));
        assertEquals(1, WcCommand.safeCut(euro, 3));
        assertEquals(1, WcCommand.safeCut(euro, 2));
        assertEquals(1, WcCommand.safeCut(new byte[] {'a', 'b'}, 1));
        assertEquals(0, WcCommand.safeCut(new byte[] {(byte) 0xF0, (byte) 0x9F, (byte) 0x98}, 3));
        // glibc also decodes five- and six-byte forms: those may complete too
        byte[] six = {'a', (byte) 0xFC, (byte) 0x84, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80};
        assertEquals(1, WcCommand.safeCut(six, 6));
        assertEquals(7, WcCommand.safeCut(six, 7));
        assertEquals(1, WcCommand.safeCut(new byte[] {'a', (byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80}, 5));
    }

    /**
     * Every code point's class and width against glibc's, through GNU wc: for each block of 256 code points, a file
     * holding them separated by spaces, so {@code -w} counts the printable ones (less the spaces among them) and
     * {@code -L} adds their widths; one {@code wc} reads all the files from a {@code --files0-from} list.
     */
    @Test
    void everyCodePointHasGlibcsClassAndWidth() throws Exception {
        assumeTrue(gnuWcIsHere(), "GNU wc is not installed");
        Path blocks = Files.createDirectories(dir.resolve("blocks"));
        ByteArrayOutputStream list = new ByteArrayOutputStream();
        List<long[]> expected = new ArrayList<>();
        for (int first = 0x80; first < 0x110000; first += 256) {
            StringBuilder text = new StringBuilder();
            long words = 0;
            long width = 0;
            for (int cp = first; cp < first + 256 && cp < 0x110000; cp++) {
                if (cp >= 0xD800 && cp <= 0xDFFF) {
                    continue; // surrogates have no UTF-8 form
                }
                text.append(' ').appendCodePoint(cp);
                words += WordCounter.classify(cp, true) == WordCounter.PRINTABLE ? 1 : 0;
                width += 1 + Math.max(0, CharWidths.of(cp));
            }
            if (text.isEmpty()) {
                continue;
            }
            Path f = Files.writeString(blocks.resolve(Integer.toHexString(first)), text);
            list.writeBytes((f + "\0").getBytes(StandardCharsets.UTF_8));
            expected.add(new long[] {first, words, width});
        }
        Path names = Files.write(dir.resolve("blocks.list"), list.toByteArray());
        Result gnu = gnu(Map.of("LC_ALL", "C.UTF-8"), List.of("-wL", "--files0-from=" + names));
        assertEquals(0, gnu.exit(), gnu.err());
        String[] lines = gnu.out().split("\n");
        for (int i = 0; i < expected.size(); i++) {
            long[] e = expected.get(i);
            String[] got = lines[i].trim().split(" +");
            String what = "U+" + Long.toHexString(e[0]) + " and the 255 after it: words, width";
            assertEquals(e[1] + " " + e[2], got[0] + " " + got[1], what);
        }
    }

    /** {@code LANG}, {@code LC_CTYPE}, {@code LC_ALL} and the rest as glibc reads them, against GNU wc here. */
    @Test
    void theLocaleIsDecidedAsGnuWcDecidesIt() throws Exception {
        assumeTrue(gnuWcIsHere(), "GNU wc is not installed");
        Path text = Files.write(dir.resolve("locale-text"),
                "café 日本\u00A0x\n".getBytes(StandardCharsets.UTF_8));
        List<Map<String, String>> envs = List.of(Map.of(), Map.of("LANG", "C.UTF-8"), Map.of("LC_ALL", "C.utf8"),
                Map.of("LC_ALL", "C.UTF8"), Map.of("LC_ALL", "c.utf8"), Map.of("LC_ALL", "POSIX"),
                Map.of("LC_CTYPE", "C.UTF-8", "LANG", "C"), Map.of("LC_ALL", "C", "LC_CTYPE", "C.UTF-8"),
                Map.of("LC_ALL", "", "LANG", "C.UTF-8"), Map.of("LANG", "C.UTF-8", "LC_MESSAGES", "xx_XX.UTF-8"),
                Map.of("LC_ALL", "C.UTF-8", "LC_TIME", "xx_XX"), Map.of("LANG", "C.UTF-8@euro"),
                Map.of("LANG", "/usr/lib/locale/C.utf8"), Map.of("LANG", "en_US.UTF-8"),
                Map.of("LC_CTYPE", "en_US.UTF-8", "LANG", "C.UTF-8"), Map.of("LANG", "C.UTF-8", "LOCPATH", "/nonexistent"));
        for (Map<String, String> env : envs) {
            for (String options : new String[] {"-m", "-lwmcL"}) {
                List<String> args = List.of(options, text.toString());
                Result expected = gnu(env, args);
                Result got = sluice(env, null, args.toArray(new String[0]));
                assertEquals(expected, got, env + " wc " + String.join(" ", args));
            }
        }
    }
}
