package io.sluice.bench;

import io.sluice.zip.ConcurrentZipFile;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipFile;

/**
 * One zip library as the zip benchmarks use it: one archive opened once and shared by every thread, and one
 * operation, {@link #read}, that looks an entry up by name, opens its stream, reads all of it and closes it. The
 * three libraries run the same steps through their own {@code getEntry}, {@code getInputStream} and
 * {@code readAllBytes}, so each pays for what its users pay for:
 * <ul>
 *   <li>{@code sluice}: {@link ConcurrentZipFile}, mapped and lock-free; it checks each entry's CRC-32 as it reads;
 *   <li>{@code jdk}: {@link ZipFile}, one {@code RandomAccessFile} read under a lock, inflaters cached, no CRC check;
 *   <li>{@code commons-compress}: Apache Commons Compress's {@code ZipFile} on a {@code FileChannel} (positional
 *       reads), a new {@code Inflater} per stream.
 * </ul>
 *
 * @param name    the name in tables and JSON rows
 * @param archive the open archive, closed with this reader
 * @param opener  looks an entry up and opens its stream
 */
public record ZipReader(String name, Closeable archive, Opener opener) implements Closeable {
    /** The readers, in the order the tables show them; {@code jdk} is the baseline. */
    public static final List<String> NAMES = List.of("sluice", "jdk", "commons-compress");

    /** Opens the stream of the named entry. */
    @FunctionalInterface
    public interface Opener {
        /** The stream of entry {@code name}. */
        InputStream open(String name) throws IOException;
    }

    /**
     * Opens {@code archive} with the named library.
     *
     * @throws IllegalArgumentException for a name not in {@link #NAMES}
     */
    public static ZipReader open(String name, Path archive) throws IOException {
        switch (name) {
            case "sluice" -> {
                ConcurrentZipFile z = ConcurrentZipFile.open(archive);
                return new ZipReader(name, z, e -> z.getInputStream(z.getEntry(e)));
            }
            case "jdk" -> {
                ZipFile z = new ZipFile(archive.toFile());
                return new ZipReader(name, z, e -> z.getInputStream(z.getEntry(e)));
            }
            case "commons-compress" -> {
                var z = org.apache.commons.compress.archivers.zip.ZipFile.builder().setPath(archive).get();
                return new ZipReader(name, z, e -> z.getInputStream(z.getEntry(e)));
            }
            default -> throw new IllegalArgumentException("unknown zip reader '" + name + "' (known: " + NAMES + ")");
        }
    }

    /** Reads the named entry fully; returns the number of bytes read. */
    public int read(String entry) throws IOException {
        try (InputStream in = opener.open(entry)) {
            return in.readAllBytes().length;
        }
    }

    @Override
    public void close() throws IOException {
        archive.close();
    }
}
