package io.sluice.lucene.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.Engine;
import io.sluice.nio.SluiceFileSystemProvider;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line end to end on a tiny corpus: every row of every cell, in the common JSON, and nothing left behind. */
class LuceneBenchTest {
    private static final Pattern ROW = Pattern.compile("\\{\"engine\": \"([^\"]+)\", \"workload\": \"([^\"]+)\".*?"
            + "\"threads\": (\\d+), \"opsPerMs\": ([0-9.]+),.*?\"rounds\": (\\d+),.*?\"baseline\": \"([^\"]+)\", "
            + "\"ratioToBaseline\": ([0-9.]+|null), \"cache\": \"(warm|cold|write)\", \"directory\": \"([^\"]+)\", "
            + "\"fileSystem\": \"(jdk|sluice)\", \"sluiceEngine\": (null|\"[A-Z_]+\"), \"docs\": (\\d+), "
            + "\"indexBytes\": (\\d+|null)}");

    @TempDir
    Path dir;

    @Test
    void tinyRunMeasuresEveryRowOfEveryCellAndWritesTheCommonRows() throws Exception {
        Path json = dir.resolve("rows.json");
        Path work = Files.createDirectory(dir.resolve("work"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = LuceneBench.run(new String[] {"--docs", "400", "--rounds", "2", "--queries", "30", "--threads",
            "1,2", "--dir", work.toString(), "--json", json.toString()}, new PrintWriter(out), new PrintWriter(err));
        assertEquals(0, code, err::toString);

        List<String> engines = new ArrayList<>(List.of("AUTO", "MMAP", "CHANNEL"));
        if (Engine.IO_URING.isAvailable()) {
            engines.add("IO_URING");
        }
        boolean cold = !err.toString().contains("cold rows skipped");
        List<String> names = new ArrayList<>(List.of("jdk-MMapDirectory", "jdk-NIOFSDirectory"));
        for (String e : engines) {
            names.add("sluice-MMapDirectory-" + e);
            names.add("sluice-NIOFSDirectory-" + e);
        }
        Matcher m = ROW.matcher(Files.readString(json));
        Map<String, Integer> cells = new HashMap<>();
        int rows = 0;
        while (m.find()) {
            rows++;
            String engine = m.group(1);
            assertTrue(names.contains(engine), engine);
            assertTrue(List.of("lucene-term", "lucene-phrase-bool", "lucene-fetch", "lucene-index").contains(m.group(2)),
                    m.group());
            assertEquals(m.group(2).equals("lucene-index"), m.group(8).equals("write"), m.group());
            assertTrue(Double.parseDouble(m.group(4)) > 0, m.group());
            assertEquals("2", m.group(5), m.group());
            String directory = m.group(9);
            assertEquals("jdk-" + directory, m.group(6), m.group());
            assertTrue(engine.startsWith(m.group(10) + "-" + directory), m.group());
            if (engine.startsWith("jdk-")) {
                assertEquals("1.0000", m.group(7), m.group());
                assertEquals("null", m.group(11), m.group());
            } else {
                assertTrue(Double.parseDouble(m.group(7)) > 0, m.group());
                assertTrue(engine.endsWith("-" + m.group(11).replace("\"", "")), m.group());
            }
            assertEquals("400", m.group(12), m.group());
            if (m.group(2).equals("lucene-index")) {
                assertEquals("null", m.group(13), m.group());
            } else {
                assertTrue(Long.parseLong(m.group(13)) > 0, m.group());
            }
            cells.merge(m.group(2) + " " + m.group(8) + " " + m.group(3), 1, Integer::sum);
        }
        int caches = cold ? 2 : 1;
        // Searches: 3 workloads, 2 thread counts, each cache; indexing: one cell, one thread.
        assertEquals(names.size() * (3 * 2 * caches + 1), rows, Files.readString(json));
        assertEquals(3 * 2 * caches + 1, cells.size(), cells::toString);
        assertEquals(names.size(), cells.get("lucene-index write 1"), cells::toString);
        cells.values().forEach(n -> assertEquals(names.size(), n, cells::toString));
        for (String n : names) {
            assertTrue(out.toString().contains(n), out::toString);
        }
        assertTrue(out.toString().contains("queries/s"), out::toString);
        try (Stream<Path> left = Files.list(work)) {
            assertEquals(List.of(), left.toList(), "the index is deleted after the run");
        }
    }

    @Test
    void anIndexingRowWhoseIndexDiffersFailsTheRunNamingTheRow() throws Exception {
        Path work = Files.createDirectory(dir.resolve("work"));
        String broken = "sluice-NIOFSDirectory-CHANNEL";
        List<String> seen = new ArrayList<>();
        // One document fewer in one row's index, after its writer closed: the row was timed as usual, its content differs.
        LuceneBench.AfterIndexing dropOne = (c, index) -> {
            seen.add(c.name());
            if (c.name().equals(broken)) {
                try (FSDirectory d = FSDirectory.open(index);
                     IndexWriter w = new IndexWriter(d, new IndexWriterConfig()
                             .setOpenMode(IndexWriterConfig.OpenMode.APPEND))) {
                    w.deleteDocuments(new Term("id", "doc7"));
                    w.commit();
                }
            }
        };
        StringWriter err = new StringWriter();
        IOException e = assertThrows(IOException.class, () -> LuceneBench.run(new String[] {"--docs", "200",
            "--rounds", "1", "--queries", "20", "--workload", "lucene-index", "--engines", "mmap,channel",
            "--directories", "niofs", "--dir", work.toString()}, new PrintWriter(new StringWriter()),
                new PrintWriter(err), dropOne));
        assertTrue(e.getMessage().contains("lucene-index on " + broken), e.getMessage());
        assertTrue(seen.contains(broken), seen::toString);
        try (Stream<Path> left = Files.list(work)) {
            assertEquals(List.of(), left.toList(), "the indexes are deleted after a failed run too");
        }
    }

    @Test
    void enginesNoneRunsTheJdksRowsAlone() throws Exception {
        Path work = Files.createDirectory(dir.resolve("work"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = LuceneBench.run(new String[] {"--docs", "100", "--rounds", "1", "--queries", "5", "--workload",
            "lucene-term,lucene-index", "--cache", "warm", "--threads", "1", "--engines", "none", "--dir",
            work.toString(), "--json", "-"}, new PrintWriter(out), new PrintWriter(err));
        assertEquals(0, code, err::toString);
        Matcher m = ROW.matcher(out.toString());
        List<String> rows = new ArrayList<>();
        while (m.find()) {
            rows.add(m.group(1) + " " + m.group(2));
        }
        assertEquals(List.of("jdk-MMapDirectory lucene-term", "jdk-NIOFSDirectory lucene-term",
                "jdk-MMapDirectory lucene-index", "jdk-NIOFSDirectory lucene-index"), rows, out::toString);
    }

    @Test
    void sluiceRowsReadThroughSluicesChannelsAndTheJdkRowsDoNot() throws IOException {
        Path file = Files.writeString(dir.resolve("f"), "x");
        LuceneBench.Contender jdk = new LuceneBench.Contender(LuceneBench.NIOFS_DIRECTORY, null);
        LuceneBench.Contender sluice = new LuceneBench.Contender(LuceneBench.NIOFS_DIRECTORY, Engine.CHANNEL);
        Path onSluice = LuceneBench.pathFor(sluice, file);
        assertTrue(onSluice.getFileSystem().provider() instanceof SluiceFileSystemProvider, onSluice::toString);
        try (FileChannel a = FileChannel.open(onSluice); FileChannel b = FileChannel.open(LuceneBench.pathFor(jdk, file))) {
            assertTrue(a.getClass().getName().startsWith("io.sluice.nio."), a.getClass().getName());
            assertNotEquals(a.getClass(), b.getClass());
        }
    }

    @Test
    void rowsThatDisagreeFailTheRun() throws IOException {
        Map<String, Long> expected = new HashMap<>();
        LuceneBench.Contender c = new LuceneBench.Contender(LuceneBench.MMAP_DIRECTORY, Engine.MMAP);
        LuceneBench.check(expected, "lucene-term", c, new LuceneBench.Sample(1, 42, 1));
        LuceneBench.check(expected, "lucene-term", c, new LuceneBench.Sample(1, 42, 1));
        IOException e = assertThrows(IOException.class,
                () -> LuceneBench.check(expected, "lucene-term", c, new LuceneBench.Sample(1, 43, 1)));
        assertTrue(e.getMessage().contains("sluice-MMapDirectory-MMAP"), e.getMessage());
    }

    @Test
    void wrongOptionsAreRefusedBeforeAnythingIsWritten() throws IOException {
        for (String[] args : List.of(new String[] {"--rounds", "0"}, new String[] {"--size", "lots"},
                new String[] {"--engines", "turbo"}, new String[] {"--cache", "tepid"}, new String[] {"--frobnicate"},
                new String[] {"--docs"})) {
            StringWriter err = new StringWriter();
            List<String> a = new ArrayList<>(List.of(args));
            a.addAll(List.of("--dir", dir.resolve("never").toString()));
            assertEquals(2, LuceneBench.run(a.toArray(String[]::new), new PrintWriter(new StringWriter()),
                    new PrintWriter(err)), String.join(" ", args));
            assertTrue(err.toString().startsWith("sluice bench lucene: "), err::toString);
        }
        assertTrue(Files.notExists(dir.resolve("never")));
        assertEquals(256L << 20, LuceneBench.bytes("256m"));
    }
}
