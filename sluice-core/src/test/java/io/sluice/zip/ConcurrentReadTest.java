package io.sluice.zip;

import static io.sluice.zip.ConcurrentZipFileTest.random;
import static io.sluice.zip.ConcurrentZipFileTest.text;
import static io.sluice.zip.ZipBuilder.DEFLATED;
import static io.sluice.zip.ZipBuilder.STORED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Many threads on one archive: right bytes without a shared lock, and closing under them never crashes. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConcurrentReadTest {
    static final int THREADS = 8;

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

    /** Runs {@code body} on {@link #THREADS} threads started together; returns their failures. */
    static List<Throwable> onThreads(Body body, Runnable whileRunning) throws InterruptedException {
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        Thread[] ts = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            ts[t] = new Thread(() -> {
                try {
                    go.await();
                    body.run(id);
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            ts[t].start();
        }
        go.countDown();
        whileRunning.run();
        for (Thread t : ts) {
            t.join(TimeUnit.SECONDS.toMillis(30));
            if (t.isAlive()) {
                fail("reader still running: " + java.util.Arrays.toString(t.getStackTrace()));
            }
        }
        return failures;
    }

    interface Body {
        void run(int thread) throws Exception;
    }

    @Test
    void manyThreadsReadTheRightBytes() throws Exception {
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(archive())) {
            List<Throwable> failures = onThreads(t -> {
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
            }, () -> { });
            if (!failures.isEmpty()) {
                throw new AssertionError(failures.size() + " readers failed", failures.get(0));
            }
        }
    }

    @RepeatedTest(5)
    void closingWhileThreadsReadGivesThemClosedChannelException() throws Exception {
        Path p = archive();
        ConcurrentZipFile zip = ConcurrentZipFile.open(p);
        AtomicLong reads = new AtomicLong();
        ByteBuffer view = zip.mappedBytes(zip.getEntry("bigS"));
        List<Throwable> failures = onThreads(t -> {
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
                    reads.incrementAndGet();
                }
            } catch (ClosedChannelException expected) {
                // the only way out
            }
        }, () -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                throw new RuntimeException(e);
            }
            zip.close();
        });
        // Once close has returned the mapping is gone, and a view says so rather than crashing.
        assertThrows(IllegalStateException.class, () -> view.get(0));
        assertTrue(reads.get() >= 0);
        if (!failures.isEmpty()) {
            AssertionError a = new AssertionError(failures.size() + " readers failed otherwise", failures.get(0));
            failures.stream().skip(1).forEach(a::addSuppressed);
            throw a;
        }
    }
}
