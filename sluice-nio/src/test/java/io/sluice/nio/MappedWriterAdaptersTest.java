package io.sluice.nio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.MappedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** MappedWriter as a stream and as a channel, against the JDK's stream and channel over a FileChannel. */
class MappedWriterAdaptersTest {
    @TempDir
    Path dir;

    private static FileChannel jdkChannel(Path p) throws IOException {
        return FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
    }

    @Test
    void theStreamWritesWhatTheJdksStreamWrites() throws Exception {
        long seed = System.nanoTime();
        Path a = dir.resolve("jdk");
        Path b = dir.resolve("sluice");
        // A small window, so writes cross windows.
        try (OutputStream jdk = Channels.newOutputStream(jdkChannel(a));
             OutputStream sluice = SluiceChannels.outputStream(MappedWriter.open(b, 0, 8192))) {
            Random r = new Random(seed);
            for (int i = 0; i < 2000; i++) {
                if (r.nextInt(5) == 0) {
                    int v = r.nextInt();
                    jdk.write(v);
                    sluice.write(v);
                } else {
                    byte[] bytes = new byte[r.nextInt(r.nextInt(10) == 0 ? 40_000 : 300)];
                    r.nextBytes(bytes);
                    int off = bytes.length == 0 ? 0 : r.nextInt(bytes.length);
                    int len = r.nextInt(bytes.length - off + 1);
                    jdk.write(bytes, off, len);
                    sluice.write(bytes, off, len);
                }
                if (r.nextInt(50) == 0) {
                    jdk.flush();
                    sluice.flush();
                }
            }
            assertEquals(IndexOutOfBoundsException.class,
                    assertThrows(RuntimeException.class, () -> sluice.write(new byte[2], 1, 2)).getClass());
            assertThrows(IndexOutOfBoundsException.class, () -> jdk.write(new byte[2], 1, 2));
        }
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b), "seed " + seed);
    }

    @Test
    void theChannelWritesWhatTheJdksChannelWrites() throws Exception {
        long seed = System.nanoTime();
        Path a = dir.resolve("jdk");
        Path b = dir.resolve("sluice");
        WritableByteChannel sluice = SluiceChannels.writableChannel(MappedWriter.open(b, 0, 8192));
        try (FileChannel jdk = jdkChannel(a)) {
            Random r = new Random(seed);
            for (int i = 0; i < 1000; i++) {
                byte[] bytes = new byte[r.nextInt(r.nextInt(10) == 0 ? 40_000 : 300)];
                r.nextBytes(bytes);
                boolean direct = r.nextBoolean();
                ByteBuffer x = direct ? ByteBuffer.allocateDirect(bytes.length) : ByteBuffer.allocate(bytes.length);
                x.put(bytes).flip();
                if (bytes.length > 1) {
                    x.position(1);
                }
                ByteBuffer y = x.duplicate();
                assertEquals(jdk.write(x), sluice.write(y));
                assertEquals(x.position(), y.position());
            }
        }
        sluice.close();
        assertFalse(sluice.isOpen());
        assertThrows(java.nio.channels.ClosedChannelException.class, () -> sluice.write(ByteBuffer.allocate(1)));
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b), "seed " + seed);
    }

    @Test
    void writesAfterCloseFailAsTheJdksDo() throws Exception {
        OutputStream jdk = Channels.newOutputStream(jdkChannel(dir.resolve("jdk")));
        OutputStream sluice = SluiceChannels.outputStream(MappedWriter.open(dir.resolve("sluice")));
        jdk.close();
        sluice.close();
        sluice.close(); // twice is nothing, as for the JDK's
        assertEquals(assertThrows(IOException.class, () -> jdk.write(1)).getClass(),
                assertThrows(IOException.class, () -> sluice.write(1)).getClass());
        assertEquals(assertThrows(IOException.class, () -> jdk.write(new byte[3])).getClass(),
                assertThrows(IOException.class, () -> sluice.write(new byte[3])).getClass());
    }
}
