package io.sluice.jmh;

import io.sluice.Engine;
import io.sluice.PositionalFile;
import io.sluice.SluiceOption;
import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The data file of one trial of the io_uring benchmarks, opened both ways they compare: one pre-opened
 * {@link FileChannel} (the plain-JDK baseline) and one {@link PositionalFile} on {@link Engine#IO_URING}, whose file
 * is registered with the rings. Every benchmark thread shares both, as an application would share its handles.
 *
 * <p>For writes both are opened writable over a file that {@link BenchFile} has already written and read through,
 * so every measured write overwrites a page in the page cache. With {@code direct} both bypass the page cache
 * (O_DIRECT: {@code ExtendedOpenOption.DIRECT} for the channel, {@link SluiceOption#DIRECT} for Sluice).
 */
final class UringTarget implements Closeable {
    private static final int PAGE = 4096;

    private final Path path;
    private final long size;
    private final FileChannel channel;
    private final PositionalFile file;

    private UringTarget(Path path, long size, FileChannel channel, PositionalFile file) {
        this.path = path;
        this.size = size;
        this.channel = channel;
        this.file = file;
    }

    /**
     * Creates a warm data file of {@code size} bytes and opens it both ways.
     *
     * @throws UnsupportedOperationException if io_uring cannot run here (before any file is made)
     * @throws IllegalArgumentException      if O_DIRECT is asked for a block size the file system cannot transfer
     */
    static UringTarget create(long size, int blockSize, boolean write, boolean direct) throws IOException {
        Engine.IO_URING.requireAvailable();
        if (blockSize <= 0 || blockSize > size) {
            throw new IllegalArgumentException("blockSize " + blockSize + " must be positive and at most fileSize " + size);
        }
        Path path = BenchFile.create(size);
        FileChannel channel = null;
        boolean success = false;
        try {
            long fsBlock = Files.getFileStore(path).getBlockSize();
            if (direct && blockSize % fsBlock != 0) {
                throw new IllegalArgumentException("O_DIRECT transfers must be whole blocks of the file system: "
                        + blockSize + " is not a multiple of " + fsBlock + " (" + path.getParent() + ")");
            }
            List<OpenOption> jdk = new ArrayList<>(List.of(StandardOpenOption.READ));
            if (write) {
                jdk.add(StandardOpenOption.WRITE);
            }
            List<OpenOption> sluice = new ArrayList<>(jdk);
            if (direct) {
                jdk.add(com.sun.nio.file.ExtendedOpenOption.DIRECT);
                sluice.add(SluiceOption.DIRECT);
            }
            channel = FileChannel.open(path, jdk.toArray(OpenOption[]::new));
            PositionalFile file = PositionalFile.open(path, Engine.IO_URING, sluice.toArray(OpenOption[]::new));
            success = true;
            return new UringTarget(path, size, channel, file);
        } finally {
            if (!success) {
                if (channel != null) {
                    channel.close();
                }
                BenchFile.delete(path);
            }
        }
    }

    long size() {
        return size;
    }

    FileChannel channel() {
        return channel;
    }

    PositionalFile file() {
        return file;
    }

    /** Page-aligned, as O_DIRECT needs and as the JDK's own temporary buffers are not. */
    static int alignment() {
        return PAGE;
    }

    @Override
    public void close() throws IOException {
        try (channel; file) {
            // both closed, in reverse order, even if one fails
        } finally {
            BenchFile.delete(path);
        }
    }

    @Override
    public String toString() {
        return "UringTarget[" + path + ", " + size + " bytes]";
    }
}
