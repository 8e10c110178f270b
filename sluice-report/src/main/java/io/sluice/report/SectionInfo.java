package io.sluice.report;

import java.util.List;

/**
 * What each benchmark section measures, in a sentence a newcomer can read, and how its charts are drawn. A section
 * this list does not know (a new one, or rows from elsewhere) is drawn with the defaults: one line here gives it a
 * title of its own.
 *
 * @param name        the section ({@code sluice bench NAME}; {@code engines} for plain {@code sluice bench})
 * @param title       the heading
 * @param description what runs, against what
 * @param opsPerMs    whether the charts show operations per millisecond (the seeds' unit for single requests)
 *                    rather than MB/s (for whole files and streams)
 */
public record SectionInfo(String name, String title, String description, boolean opsPerMs) {
    private static final List<SectionInfo> KNOWN = List.of(
            new SectionInfo("engines", "Engines: random and sequential reads",
                    "sluice bench. Random reads at each block size and sequential 1 MiB reads of a file in the page "
                            + "cache, by Sluice's engines (CLASSIC is RandomAccessFile under one lock, CHANNEL "
                            + "FileChannel's pread, MMAP a mapping, IO_URING the kernel's rings) and a plain "
                            + "FileChannel into ByteBuffer.allocateDirect (naive-direct), with fio running the same "
                            + "job as the reference.", true),
            new SectionInfo("uring", "io_uring: batches, O_DIRECT, virtual threads, writes, open-read-close",
                    "sluice bench uring. Random reads one request at a time and in batches, from the page cache "
                            + "and with O_DIRECT; blocking reads from many virtual threads; random writes over a cached "
                            + "file; open, read one block, close per request. Against FileChannel with page-aligned "
                            + "buffers allocated once, and fio's psync and io_uring engines.", true),
            new SectionInfo("write", "Small sequential writes from Java",
                    "sluice bench write. A file written front to back in small chunks by the JDK's writers and "
                            + "Sluice's MappedWriter, to a new file and over one in the page cache; each run timed "
                            + "from open to close.", false),
            new SectionInfo("jruby", "From JRuby: String chunks into files, and reads back",
                    "sluice bench jruby. Seed 000's strategies for writing Ruby Strings into a mapped file, Ruby's "
                            + "File, and Sluice::MappedWriter, to a new and a cached file; then File#read against "
                            + "Sluice::File#pread. Run by JRuby from the jruby-complete jar.", false),
            new SectionInfo("bigfile", "A big file written from memory and summed back",
                    "sluice bench bigfile. BigFiles.fill writes a file from arrays in memory and BigFiles.sum adds "
                            + "every byte back, at one thread and every core, against a single-threaded FileChannel "
                            + "loop and a plain mmap long-sum.", false),
            new SectionInfo("zip", "Zip readers",
                    "sluice bench zip. Small and big, stored and deflated entries of one archive read whole (looked "
                            + "up, read, closed) by Sluice's ConcurrentZipFile, the JDK's ZipFile and Commons "
                            + "Compress, on one thread and every core.", true),
            new SectionInfo("chunks", "A parser's chunk size",
                    "sluice bench chunks. A MAF file parsed into an index of its blocks through ChunkedReader at "
                            + "fixed chunk sizes and with the adaptive policy, page cache warm and cold. The bars are "
                            + "the chunk sizes.", false),
            new SectionInfo("scan", "The One Billion Row Challenge: a file of records parsed in parallel",
                    "sluice bench scan. Minimum, mean and maximum temperature per station over a generated file of "
                            + "'station;temperature' lines: the challenge's baseline algorithm on one thread, and "
                            + "ParallelScan (padded segments, word-at-a-time parsing, a table per thread) at one "
                            + "thread and every core; every output checked against the baseline's.", false),
            new SectionInfo("kv", "Sluice::DB, an ordered key-value store for JRuby",
                    "sluice bench kv. Bulk load, random gets and 100-entry scans of a MAF-index-shaped store: "
                            + "Sluice::DB from JRuby, the same MVStore through JRuby's automatic String conversion, "
                            + "KvStore from Java, and Ruby's PStore.", true),
            // Not part of bench all (it runs from a checkout, in a JVM of its own): shown after the sections that are.
            new SectionInfo("lucene", "Lucene's directories on the JDK's file system and on Sluice's",
                    "sluice bench lucene. One index of a generated text corpus searched through Lucene's "
                            + "MMapDirectory and NIOFSDirectory on the JDK's default file system (jdk-) and on "
                            + "sluice-nio's file system per engine (sluice-): top-10 term queries, phrases and boolean "
                            + "queries, and fetches of a page of 10 documents' stored fields and doc values, page cache "
                            + "warm and cold; and the same documents indexed into each directory, one writer thread, "
                            + "every row's index checked to give the same hits. The charts show operations (queries, "
                            + "pages, or documents indexed) per millisecond.", true));

    /** The section's description, or a plain one for a section this list does not know. */
    public static SectionInfo of(String name) {
        for (SectionInfo s : KNOWN) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return new SectionInfo(name, "sluice bench " + name, "Rows of section '" + name + "'.", false);
    }

    /** The order sections are shown in: as {@code bench all} runs them, unknown ones last. */
    public static int order(String name) {
        for (int i = 0; i < KNOWN.size(); i++) {
            if (KNOWN.get(i).name().equals(name)) {
                return i;
            }
        }
        return KNOWN.size();
    }
}
