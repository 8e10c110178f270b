package io.sluice.zip;

import static io.sluice.zip.ConcurrentZipFileTest.random;
import static io.sluice.zip.ConcurrentZipFileTest.text;
import static io.sluice.zip.ZipBuilder.DEFLATED;
import static io.sluice.zip.ZipBuilder.STORED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.Workers;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Many threads on one archive: right bytes without a shared lock, and closing under them never crashes. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConcurrentReadTest {
    static final int THREADS = 8;
    static final Duration JOIN = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    Path archive() throws IOException {
        ZipBuilder b = new ZipBuilder();
        for (int i = 0; i < 40; i++) {
            b.add("s" + i, random(1000 + i * 300, i), STORED).add("d" + i, text(2000 + i * 500, i), DEFLATED);
        }
        b.add("bigS", random(4 << 20, 99), STORED).add("bigD", text(4 << 20, 98), DEFLATED);
        return Files.write(dir.resolve("many.zip"), b.build().bytes());
    }

    static byte[] expected(String name) {
        int i = name.startsWith("big") ? -1 : Integer.parseInt(name.substring(1));
        return switch (name) {
            case "bigS" -> random(4 << 20, 99);
            case "bigD" -> text(4 << 20, 98);
            default -> name.charAt(0) == 's' ? random(1000 + i * 300, i) : text(2000 + i * 500, i);
        };
    }

    @Test
    void manyThreadsReadTheRightBytes() throws Exception {
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(archive())) {
            Workers.run(THREADS, JOIN, t -> {
                for (int round = 0; round < 3; round++) {
                    for (int k = 0; k < zip.size(); k++) {
                        ConcurrentZipFile.Entry e = zip.entry((k + t * 7) % zip.size());
                        byte[] want = expected(e.getName());
                        if (k % 3 == 0) {
                            try (InputStream in = zip.getInputStream(e)) {
                                assertArrayEquals(want, in.readAllBytes(), e.getName());
                            }
                        } else if (k % 3 == 1) {
                            assertArrayEquals(want, zip.readAllBytes(e), e.getName());
                        } else {
                            zip.verify(e);
                        }
                    }
                }
            });
        }
    }

    @RepeatedTest(5)
    void closingWhileThreadsReadGivesThemClosedChannelException() throws Exception {
        Path p = archive();
        ConcurrentZipFile zip = ConcurrentZipFile.open(p);
        ByteBuffer view = zip.mappedBytes(zip.getEntry("bigS"));
        Workers readers = new Workers(THREADS, t -> {
            try {
                for (;;) {
                    switch (t % 4) {
                        case 0 -> zip.readAllBytes(zip.entry(zip.size() - 1)); // inflating 4 MiB
                        case 1 -> zip.readAllBytes(zip.entry(zip.size() - 2)); // copying 4 MiB
                        case 2 -> zip.verify(zip.entry(zip.size() - 2));      // CRC straight from the mapping
                        default -> {
                            try (InputStream in = zip.getInputStream(zip.entry(zip.size() - 1))) {
                                in.transferTo(java.io.OutputStream.nullOutputStream());
                            }
                        }
                    }
                }
            } catch (ClosedChannelException expected) {
                // the only way out
            }
        });
        Thread.sleep(50);
        zip.close();
        readers.join(JOIN);
        // Once close has returned the mapping is gone, and a view says so rather than crashing.
        assertThrows(IllegalStateException.class, () -> view.get(0));
    }
}
