package io.sluice;

import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A FIFO made with {@code mkfifo}, and the test's own descriptor on it (read and write), through which bytes are fed.
 * Since that descriptor is a writer, a read of the FIFO through another descriptor waits until bytes are fed rather
 * than seeing the end of the file: a real request that does not complete on its own.
 */
final class Fifo implements AutoCloseable {
    final Path path;
    final FileChannel channel;

    Fifo(Path dir) throws IOException, InterruptedException {
        path = NonRegularFiles.fifo(dir.resolve("fifo"));
        // Read and write: the kernel does not wait for a partner to open a FIFO that way.
        channel = FileChannel.open(path, READ, WRITE);
    }

    void feed(String s) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
        while (b.hasRemaining()) {
            channel.write(b);
        }
    }

    /** Completes whatever read still waits on the FIFO (with bytes it may not expect), then closes it. */
    @Override
    public void close() throws IOException {
        try (channel) {
            feed("x".repeat(4096));
        }
    }
}
