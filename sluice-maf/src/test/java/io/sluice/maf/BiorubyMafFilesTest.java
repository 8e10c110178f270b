package io.sluice.maf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sluice.chunks.ChunkedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * Every file of bioruby-maf's {@code test/data} against the parser, compared with what bioruby-maf's own parser finds
 * in it ({@code bioruby-maf-answers.txt}, made under MRI by {@code sluice-jruby/test/bioruby_maf/maf_summary.rb}):
 * the same blocks at the same offsets, the same rows with the same fields, {@code i} and {@code q} data.
 *
 * <p>The files come from a bioruby-maf checkout named by the {@code BIORUBY_MAF} environment variable (or the
 * {@code bioruby.maf} system property): a work tree, or a git repository, which is cloned into {@code target/}. The
 * test is skipped, saying so, when neither is set.
 */
class BiorubyMafFilesTest {
    /** What bioruby-maf finds, by file name, one line per block and row. */
    static Map<String, List<String>> answers() throws IOException {
        Map<String, List<String>> answers = new LinkedHashMap<>();
        List<String> current = null;
        try (InputStream in = BiorubyMafFilesTest.class.getResourceAsStream("bioruby-maf-answers.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
                if (line.startsWith("file ")) {
                    current = new ArrayList<>();
                    answers.put(line.substring(5), current);
                } else if (!line.startsWith("#")) {
                    current.add(line);
                }
            }
        }
        return answers;
    }

    /** bioruby-maf's test/data, from a checkout or a clone of the repository named; null when none is named. */
    static Path testData() throws IOException, InterruptedException {
        String from = System.getenv("BIORUBY_MAF");
        if (from == null) {
            from = System.getProperty("bioruby.maf");
        }
        if (from == null || from.isEmpty()) {
            return null;
        }
        Path source = Path.of(from);
        if (Files.isDirectory(source.resolve("test/data"))) {
            return source.resolve("test/data");
        }
        Path clone = Path.of("target", "bioruby-maf");
        if (!Files.isDirectory(clone.resolve("test/data"))) {
            Process git = new ProcessBuilder("git", "clone", "-q", source.toString(), clone.toString())
                    .redirectErrorStream(true).start();
            String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (git.waitFor() != 0) {
                throw new IOException("git clone " + source + " " + clone + " failed: " + out);
            }
        }
        return clone.resolve("test/data");
    }

    /** The parser's findings, in the answers' form. */
    static final class Summary implements MafHandler {
        final List<String> lines = new ArrayList<>();
        private String row;

        @Override
        public void blockStart(MafLine a) {
            flush();
            lines.add(("a " + a.offset() + " " + a.pairs()).strip());
        }

        @Override
        public void sequence(MafLine s) {
            flush();
            row = "s " + s.src() + " " + s.start() + " " + s.size() + " " + s.strand() + " " + s.srcSize() + " "
                    + s.textLength();
        }

        @Override
        public void quality(MafLine q) {
            row += " q" + q.textLength();
        }

        @Override
        public void info(MafLine i) {
            row += " i " + i.leftStatus() + " " + i.leftCount() + " " + i.rightStatus() + " " + i.rightCount();
        }

        @Override
        public void empty(MafLine e) {
            flush();
            lines.add("e " + e.src() + " " + e.start() + " " + e.size() + " " + e.strand() + " " + e.srcSize() + " "
                    + e.status());
        }

        void flush() {
            if (row != null) {
                lines.add(row);
                row = null;
            }
        }
    }

    static Summary parse(Path file, InputStream decompressed) throws IOException {
        Summary summary = new Summary();
        if (decompressed == null) {
            try (ChunkedReader r = ChunkedReader.open(file)) {
                MafParser.parse(r, summary, file.toString());
            }
        } else {
            MafParser p = new MafParser(summary, file.toString());
            byte[] buf = new byte[8192];
            for (int n; (n = decompressed.read(buf)) > 0; ) {
                p.feed(buf, 0, n);
            }
            p.finish();
        }
        summary.flush();
        return summary;
    }

    @Test
    void everyFileParsesAsBiorubyMafParsesIt() throws Exception {
        Path data = testData();
        assumeTrue(data != null, "set BIORUBY_MAF to a bioruby-maf checkout or git repository to run this test");
        Map<String, List<String>> answers = answers();
        List<Path> files;
        try (Stream<Path> list = Files.list(data)) {
            files = list.filter(f -> f.getFileName().toString().matches(".*\\.maf(\\.gz|\\.bgz)?")).sorted().toList();
        }
        assertEquals(answers.size() + 2, files.size(), "the answers cover every *.maf file, and two compressed ones");
        for (Path file : files) {
            String name = file.getFileName().toString();
            Summary ours;
            List<String> theirs;
            if (name.endsWith("gz")) {
                // BGZF is gzip members one after another, which GZIPInputStream reads through.
                try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
                    ours = parse(file, in);
                }
                theirs = answers.get(name.substring(0, name.lastIndexOf('.')));
            } else {
                ours = parse(file, null);
                theirs = answers.get(name);
            }
            assertTrue(theirs != null, name);
            if (name.equals("big-block.maf")) {
                // Its last line is cut short: "i panTro2.chrY C 0 C" with no rightCount and no newline. bioruby-maf
                // keeps the three fields; the parser drops the line and keeps the rest of the block.
                String last = theirs.get(theirs.size() - 1);
                assertTrue(last.endsWith(" i C 0 C"), last);
                theirs = new ArrayList<>(theirs);
                theirs.set(theirs.size() - 1, last.substring(0, last.length() - " i C 0 C".length()));
                assertEquals(490, theirs.stream().filter(l -> l.startsWith("a ")).count());
            }
            assertEquals(theirs, ours.lines, name);
        }
    }

    @Test
    void theCutShortLastLineIsSaid() throws Exception {
        Path data = testData();
        assumeTrue(data != null, "set BIORUBY_MAF to a bioruby-maf checkout or git repository to run this test");
        Path big = data.resolve("big-block.maf");
        MafParser p;
        try (ChunkedReader r = ChunkedReader.open(big)) {
            p = MafParser.parse(r, new Summary(), big.toString());
        }
        String text = Files.readString(big, StandardCharsets.ISO_8859_1);
        assertTrue(text.endsWith("\n"));
        assertEquals(text.lastIndexOf('\n', text.length() - 2) + 1, p.cutShortAt());
        assertEquals(490, p.blocks());

        Path empty = data.resolve("empty");
        MafFormatException e = assertThrows(MafFormatException.class, () -> parse(empty, null));
        assertTrue(e.getMessage().startsWith(empty + ": line 1, offset 0: empty input"), e.getMessage());
        assertFalse(Files.size(empty) > 0);
    }
}
