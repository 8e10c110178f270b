package io.sluice.hadoop.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tiny run of the whole bench: every contender reads the same rows, and the rows come out in the common JSON. */
class ParquetBenchTest {
    @TempDir
    Path dir;

    @Test
    void tinyRunMeasuresEveryCellAndWritesRows() throws Exception {
        ParquetBench.Options o = new ParquetBench.Options(dir, 2L << 20, 2, 1, List.of(1, 2),
                List.of(ParquetBench.WARM, ParquetBench.COLD), List.of(ParquetBench.ALL, ParquetBench.SUBSET),
                CompressionCodecName.SNAPPY, false, false);
        StringWriter log = new StringWriter();
        List<ParquetBench.Result> results = ParquetBench.run(o, new PrintWriter(log));
        // warm: raw and sluice; cold: raw, sluice and sluice-direct; times two workloads and two thread counts.
        assertEquals((2 + 3) * 2 * 2, results.size(), log.toString());
        for (ParquetBench.Result r : results) {
            assertTrue(r.samples().get(0).rows() > 0, r.toString());
            if (r.cache().equals(ParquetBench.COLD) && r.contender().equals(ParquetBench.RAW)) {
                // Dropped before the scan, so the device was asked for the bytes, and read() returned them.
                assertTrue(r.samples().get(0).deviceBytes() > 0, r.toString());
                assertTrue(r.samples().get(0).readBytes() > 0, r.toString());
            }
        }
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count(), "the dataset is deleted after the run");
        }
        StringWriter json = new StringWriter();
        ParquetBench.json(results, new PrintWriter(json));
        assertTrue(json.toString().contains("\"engine\": \"sluice-direct\", \"workload\": \"parquet-subset\""),
                json.toString());
        assertTrue(json.toString().contains("\"cache\": \"cold\""), json.toString());
        assertEquals(2L << 30, ParquetBench.bytes("2g"));
    }

    @Test
    void aFileWrittenAloneEqualsTheSameFileWrittenWithTheOthers() throws Exception {
        ParquetBench.Options o = new ParquetBench.Options(dir, 3L << 19, 3, 1, List.of(1),
                List.of(ParquetBench.WARM), List.of(ParquetBench.ALL), CompressionCodecName.SNAPPY, true, false);
        List<Path> files = ParquetBench.write(o, new PrintWriter(new StringWriter()));
        assertEquals(3, files.size());
        byte[] second = Files.readAllBytes(files.get(1));
        Files.delete(files.get(1));
        // The others are kept, so only the second file is written, on its own.
        assertEquals(files, ParquetBench.write(o, new PrintWriter(new StringWriter())));
        assertArrayEquals(second, Files.readAllBytes(files.get(1)));
        try (var left = Files.list(dir)) {
            assertEquals(3, left.count(), "no partial file left behind");
        }
    }

    @Test
    void pageCacheCountsResidentBytesAndTheDropLeavesNone() throws Exception {
        Path file = dir.resolve("f");
        byte[] data = new byte[(3 << 20) + 100];
        new java.util.Random(28).nextBytes(data);
        Files.write(file, data);
        assertTrue(PageCache.isSupported());
        ParquetBench.dropAll(List.of(file));
        assertEquals(0, PageCache.residentBytes(file));
        long[] before = ParquetBench.procIo();
        assertArrayEquals(data, Files.readAllBytes(file));
        long[] after = ParquetBench.procIo();
        // Every page, the last one as far as the file goes.
        assertEquals(data.length, PageCache.residentBytes(file));
        assertTrue(after[0] - before[0] >= data.length, "rchar counts the read");
        assertTrue(after[1] - before[1] >= data.length, "read_bytes counts the device's");
        ParquetBench.dropAll(List.of(file));
        assertEquals(0, PageCache.residentBytes(file));
    }

    @Test
    void parquetsDebugLoggingIsOff() {
        // parquet-java wraps its record consumer in a logging one for every record when debug logging is on.
        assertFalse(org.slf4j.LoggerFactory.getLogger(org.apache.parquet.io.MessageColumnIO.class).isDebugEnabled());
        assertFalse(org.slf4j.LoggerFactory.getLogger(org.apache.hadoop.fs.RawLocalFileSystem.class).isDebugEnabled());
    }

    @Test
    void vectoredReadSettingsComeFromSystemProperties() {
        String key = io.sluice.hadoop.SluiceLocalFileSystem.WILLNEED;
        assertEquals(null, ParquetBench.conf(ParquetBench.SLUICE).get(key));
        System.setProperty(key, "false");
        try {
            assertEquals("false", ParquetBench.conf(ParquetBench.SLUICE).get(key));
        } finally {
            System.clearProperty(key);
        }
    }

    @Test
    void decompressProducesEveryPagesBytes() throws Exception {
        ParquetBench.Options o = new ParquetBench.Options(dir, 1L << 20, 1, 1, List.of(1),
                List.of(ParquetBench.WARM), List.of(ParquetBench.ALL), CompressionCodecName.SNAPPY, true, true);
        Path file = ParquetBench.write(o, new PrintWriter(new StringWriter())).get(0);
        var conf = ParquetBench.conf(ParquetBench.SLUICE);
        ParquetBench.Sample lazy = ParquetBench.scan(conf, file, ParquetBench.SCHEMA, false);
        ParquetBench.Sample eager = ParquetBench.scan(conf, file, ParquetBench.SCHEMA, true);
        assertEquals(0, lazy.decompressed());
        assertTrue(eager.pageBytes() > 0, eager.toString());
        // Every page decompressed to the size its header gives, the dictionaries' included.
        assertEquals(eager.pageBytes(), eager.decompressed());
        assertEquals(lazy.rows(), eager.rows());
    }
}
