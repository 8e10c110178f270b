package io.sluice.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * The archive the zip benchmarks read: small (4 KiB) and big (8 MiB) entries, stored and deflated, as in the
 * parallel jar read benchmark this reproduces. Entry contents are text-like bytes that deflate to about 60% of their
 * size, so inflating costs what it costs for class files and sources. Written to a new temporary directory and
 * removed on {@link #close()}.
 */
public final class ZipBenchArchive implements AutoCloseable {
    /** The four kinds of entry, each a workload of its own. */
    public enum Kind {
        /** 4 KiB, stored. */
        SMALL_STORED(4 << 10, false),
        /** 4 KiB, deflated. */
        SMALL_DEFLATED(4 << 10, true),
        /** 8 MiB, stored. */
        BIG_STORED(8 << 20, false),
        /** 8 MiB, deflated. */
        BIG_DEFLATED(8 << 20, true);

        private final int size;
        private final boolean deflated;

        Kind(int size, boolean deflated) {
            this.size = size;
            this.deflated = deflated;
        }

        /** Bytes in each entry of this kind. */
        public int size() {
            return size;
        }

        /** {@code smallStored}, {@code bigDeflated}, ...: the seed benchmark's names, used in tables and JSON. */
        public String label() {
            String[] w = name().toLowerCase(Locale.ROOT).split("_");
            return w[0] + Character.toUpperCase(w[1].charAt(0)) + w[1].substring(1);
        }

        boolean isSmall() {
            return size < (1 << 20);
        }
    }

    private final Path dir;
    private final Path file;
    private final int smallEntries;
    private final int bigEntries;

    private ZipBenchArchive(Path dir, int smallEntries, int bigEntries) {
        this.dir = dir;
        this.file = dir.resolve("bench.zip");
        this.smallEntries = smallEntries;
        this.bigEntries = bigEntries;
    }

    /** Writes an archive with {@code smallEntries} of each small kind and {@code bigEntries} of each big kind. */
    public static ZipBenchArchive create(Path parent, int smallEntries, int bigEntries) throws IOException {
        Files.createDirectories(parent);
        ZipBenchArchive a = new ZipBenchArchive(Files.createTempDirectory(parent, "sluice-zip-bench-"), smallEntries,
                bigEntries);
        boolean success = false;
        try (OutputStream os = Files.newOutputStream(a.file); ZipOutputStream z = new ZipOutputStream(os)) {
            SplittableRandom random = new SplittableRandom(42);
            for (Kind k : Kind.values()) {
                for (int i = 0; i < a.count(k); i++) {
                    byte[] data = text(k.size(), random);
                    ZipEntry e = new ZipEntry(a.name(k, i));
                    if (!k.deflated) {
                        CRC32 crc = new CRC32();
                        crc.update(data);
                        e.setMethod(ZipEntry.STORED);
                        e.setSize(data.length);
                        e.setCompressedSize(data.length);
                        e.setCrc(crc.getValue());
                    }
                    z.putNextEntry(e);
                    z.write(data);
                    z.closeEntry();
                }
            }
            success = true;
        } finally {
            if (!success) {
                a.close();
            }
        }
        return a;
    }

    /** Words from a small vocabulary in random order: compressible, but not trivially. */
    private static byte[] text(int size, SplittableRandom random) {
        String[] words = {"class ", "public ", "static ", "final ", "int ", "return ", "this.", "new ", "String ",
            "void ", "(", ");\n", " = ", "{\n", "}\n", "import ", "java.", "io.", "if (", " != null) "};
        byte[] out = new byte[size];
        int n = 0;
        while (n < size) {
            String w = random.nextInt(4) == 0 ? Long.toString(random.nextLong(1_000_000), 36) + " "
                    : words[random.nextInt(words.length)];
            for (int i = 0; i < w.length() && n < size; i++) {
                out[n++] = (byte) w.charAt(i);
            }
        }
        return out;
    }

    /** The archive file. */
    public Path path() {
        return file;
    }

    /** How many entries of this kind the archive holds. */
    public int count(Kind kind) {
        return kind.isSmall() ? smallEntries : bigEntries;
    }

    /** The name of entry {@code i} of this kind. */
    public String name(Kind kind, int i) {
        return kind.label() + "/" + i;
    }

    /** Reads the whole archive once so it is in the page cache. */
    public void warm() throws IOException {
        try (var in = Files.newInputStream(file)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
    }

    /** Deletes the archive and its directory. */
    @Override
    public void close() throws IOException {
        Files.deleteIfExists(file);
        Files.deleteIfExists(dir);
    }
}
