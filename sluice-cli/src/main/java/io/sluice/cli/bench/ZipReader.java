package io.sluice.cli.bench;

import io.sluice.zip.ConcurrentZipFile;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * One zip library as the zip benchmarks use it: one archive opened once and shared by every thread, and one
 * operation, {@link #read}, that looks an entry up by name, opens its stream, reads all of it and closes it. All
 * three libraries run the same steps through their own {@code getEntry}, {@code getInputStream} and
 * {@code readAllBytes}, so each pays for what its users pay for.
 */
public interface ZipReader extends Closeable {
    /** The readers, in the order the tables show them; {@code jdk} is the baseline. */
    List<String> NAMES = List.of("sluice", "jdk", "commons-compress");

    /** The name in tables and JSON rows. */
    String name();

    /** Reads the named entry fully; returns the number of bytes read. */
    int read(String entry) throws IOException;

    /**
     * Opens {@code archive} with the named library.
     *
     * @throws IllegalArgumentException for a name not in {@link #NAMES}
     */
    static ZipReader open(String name, Path archive) throws IOException {
        return switch (name) {
            case "sluice" -> new Sluice(ConcurrentZipFile.open(archive));
            case "jdk" -> new Jdk(new ZipFile(archive.toFile()));
            case "commons-compress" -> new CommonsCompress(
                    org.apache.commons.compress.archivers.zip.ZipFile.builder().setPath(archive).get());
            default -> throw new IllegalArgumentException("unknown zip reader '" + name + "' (known: " + NAMES + ")");
        };
    }

    /** Sluice's {@link ConcurrentZipFile}: mapped, lock-free; checks each entry's CRC-32 as it reads. */
    record Sluice(ConcurrentZipFile zip) implements ZipReader {
        @Override
        public String name() {
            return "sluice";
        }

        @Override
        public int read(String entry) throws IOException {
            try (InputStream in = zip.getInputStream(zip.getEntry(entry))) {
                return in.readAllBytes().length;
            }
        }

        @Override
        public void close() {
            zip.close();
        }
    }

    /** The JDK's {@link ZipFile}: a RandomAccessFile read under a lock, inflaters cached; no CRC-32 check. */
    record Jdk(ZipFile zip) implements ZipReader {
        @Override
        public String name() {
            return "jdk";
        }

        @Override
        public int read(String entry) throws IOException {
            ZipEntry e = zip.getEntry(entry);
            try (InputStream in = zip.getInputStream(e)) {
                return in.readAllBytes().length;
            }
        }

        @Override
        public void close() throws IOException {
            zip.close();
        }
    }

    /** Apache Commons Compress's ZipFile on a FileChannel (positional reads); a new Inflater per stream. */
    record CommonsCompress(org.apache.commons.compress.archivers.zip.ZipFile zip) implements ZipReader {
        @Override
        public String name() {
            return "commons-compress";
        }

        @Override
        public int read(String entry) throws IOException {
            try (InputStream in = zip.getInputStream(zip.getEntry(entry))) {
                return in.readAllBytes().length;
            }
        }

        @Override
        public void close() throws IOException {
            zip.close();
        }
    }
}
