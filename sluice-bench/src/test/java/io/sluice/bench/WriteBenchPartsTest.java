package io.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.BigFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The write benchmarks' parts: every writer writes the same bytes, the baselines compute what they claim. */
class WriteBenchPartsTest {
    @TempDir
    Path dir;

    @Test
    void everyWriterWritesTheSameBytesToANewFileAndOverACachedOne() throws IOException {
        long size = 3 * (1 << 20) + 100;
        int chunk = 1000;
        WriteBench bench = new WriteBench(new WriteBench.Options(size, dir, List.of(chunk),
                List.of(), 1), new PrintWriter(new StringWriter()));
        Path reference = dir.resolve("reference");
        bench.write(WriteBench.Writer.FILE_OUTPUT_STREAM, reference, true, chunk, size);
        byte[] expected = Files.readAllBytes(reference);
        assertEquals(size, expected.length);
        for (WriteBench.Writer w : WriteBench.Writer.values()) {
            if ((w == WriteBench.Writer.URING || w == WriteBench.Writer.URING_BATCH)
                    && !io.sluice.Engine.IO_URING.isAvailable()) {
                continue; // the command leaves them out where io_uring cannot run
            }
            Path fresh = dir.resolve("new-" + w);
            bench.write(w, fresh, true, chunk, size);
            assertArrayEquals(expected, Files.readAllBytes(fresh), w + " to a new file");
            Path cached = Files.write(dir.resolve("cached-" + w), new byte[(int) size]);
            bench.write(w, cached, false, chunk, size);
            assertArrayEquals(expected, Files.readAllBytes(cached), w + " over a cached file");
        }
    }

    @Test
    void writerNamesParseInAnyCaseAndUnknownOnesAreRefused() {
        assertEquals(WriteBench.Writer.MAPPED_WRITER, WriteBench.Writer.parse("mappedwriter"));
        assertEquals(WriteBench.Writer.CHANNEL_DIRECT, WriteBench.Writer.parse("FileChannel-direct"));
        assertEquals(WriteBench.Writer.AUTO, WriteBench.Writer.parse("auto"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WriteBench.Writer.parse("turbo"));
        assertTrue(e.getMessage().contains("unknown writer 'turbo'"), e.getMessage());
    }

    @Test
    void theBigFileBaselinesWriteAndReadWhatBigFilesDoes() throws IOException {
        byte[] source = new byte[300_001];
        new java.util.SplittableRandom(1).nextBytes(source);
        long size = 2_000_003;
        Path ours = dir.resolve("ours");
        Path loop = dir.resolve("loop");
        BigFiles.fill(ours, size, source, 2);
        ByteBuffer direct = ByteBuffer.allocateDirect(source.length).put(source).clear();
        BigFileBench.channelFill(loop, size, direct);
        assertArrayEquals(Files.readAllBytes(ours), Files.readAllBytes(loop));
        long viaChannel = BigFileBench.channelSum(loop, ByteBuffer.allocateDirect(1 << 16));
        for (int t = 1; t <= 3; t++) {
            assertEquals(viaChannel, BigFileBench.mmapLongSum(loop, t), "mmap long-sum on " + t + " threads");
        }
    }

    @Test
    void aSingleThreadedBaselineIsTheRatioBaseForEveryThreadCount() {
        Workload fill = new Workload(Workload.FILL, 1 << 20, Workload.NEW_FILE);
        Row loop = new Row("FileChannel-loop", fill, 1, null, List.of(new Sample(1, 1e6)));
        Row one = new Row("BigFiles.fill", fill, 1, null, List.of(new Sample(2, 2e6)));
        Row two = new Row("BigFiles.fill", fill, 2, null, List.of(new Sample(3, 3e6)));
        StringWriter json = new StringWriter();
        Report.json(List.of(one, loop, two), w -> "FileChannel-loop", new PrintWriter(json));
        Matcher m = Pattern.compile("\"threads\": (\\d).*?\"file\": \"new\", \"baseline\": \"FileChannel-loop\", "
                + "\"ratioToBaseline\": ([0-9.]+)").matcher(json.toString());
        StringBuilder seen = new StringBuilder();
        while (m.find()) {
            seen.append(m.group(1)).append('=').append(m.group(2)).append(' ');
        }
        assertEquals("1=2.0000 1=1.0000 2=3.0000 ", seen.toString(), json.toString());
        StringWriter table = new StringWriter();
        Report.table(List.of(one, loop, two), w -> "FileChannel-loop", new PrintWriter(table));
        assertTrue(table.toString().contains("fill 1 MiB, new file, 2 threads"), table.toString());
        assertTrue(!table.toString().contains("x fio"), "no fio column without fio rows:\n" + table);
    }
}
