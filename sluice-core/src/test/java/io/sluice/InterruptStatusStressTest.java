package io.sluice;

import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Threads interrupted again and again while they read and write: every {@link ClosedByInterruptException} must
 * reach its caller with the caller's interrupt status set (README: the status is kept), and the file stays open.
 *
 * <p>{@code Thread.interrupt} sets the status first and only then closes the channel the thread is blocked on. A
 * caller that cleared the status in between (it saw the interrupt at an earlier call) starts its next call with the
 * status clear, and the JDK still ends that call with {@code ClosedByInterruptException}: an interrupt the caller
 * has already consumed.
 */
class InterruptStatusStressTest {
    private static final Duration RUN = Duration.ofMillis(2500);
    private static final int FILE = 1 << 20;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(names = {"CHANNEL", "MMAP"})
    void everyClosedByInterruptFindsTheStatusSet(Engine engine) throws Exception {
        Path p = dir.resolve("f");
        Files.write(p, Pattern.bytes(0, FILE));
        AtomicLong withStatus = new AtomicLong();
        AtomicLong statusClear = new AtomicLong();
        AtomicLong calls = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(5);
        try (PositionalFile f = PositionalFile.open(p, engine, WRITE)) {
            // Four readers and a writer (worker 4), which rewrites the file's bytes and, on MMAP, grows and cuts it
            // so that the readers' copies meet closed mappings and their calls look at the size through the channel.
            Workers workers = new Workers(5, w -> {
                SplittableRandom rnd = new SplittableRandom(w);
                ByteBuffer direct = ByteBuffer.allocateDirect(8192);
                byte[] heap = new byte[8192];
                started.countDown();
                while (!stop.get()) {
                    try {
                        if (w < 4) {
                            long pos = rnd.nextLong(FILE + 4096L);
                            if (rnd.nextBoolean()) {
                                f.read(direct.clear(), pos);
                            } else {
                                f.read(heap, pos);
                            }
                        } else if (rnd.nextInt(8) == 0) {
                            f.truncate(FILE);
                        } else {
                            long pos = rnd.nextLong(FILE);
                            f.write(Pattern.bytes(pos, 4096), 0, 4096, pos);
                            if (rnd.nextInt(4) == 0) {
                                f.write(new byte[] {Pattern.at(FILE)}, 0, 1, FILE);
                            }
                        }
                    } catch (ClosedByInterruptException e) {
                        (Thread.currentThread().isInterrupted() ? withStatus : statusClear).incrementAndGet();
                    }
                    calls.incrementAndGet();
                    // The caller takes note of any interrupt between calls, as a cancellable task would.
                    Thread.interrupted();
                }
            });
            Thread[] targets = new Thread[5];
            for (int w = 0; w < 5; w++) {
                targets[w] = workers.thread(w);
            }
            // Interrupts start once every worker is past its start latch, which an interrupt would break.
            workers.await(started, PositionalFileContract.JOIN);
            Thread interrupter = Thread.ofPlatform().name("interrupter").start(() -> {
                for (int i = 0; !stop.get(); i++) {
                    targets[i % targets.length].interrupt();
                    LockSupport.parkNanos(100_000 / targets.length);
                }
            });
            Thread.sleep(RUN);
            stop.set(true);
            interrupter.join(PositionalFileContract.JOIN);
            workers.join(PositionalFileContract.JOIN);
            System.out.printf("%s: %d calls, %d ClosedByInterruptException with the status set, %d with it clear%n",
                    engine, calls.get(), withStatus.get(), statusClear.get());
            assertEquals(0, statusClear.get(), "ClosedByInterruptException with the interrupt status clear, of "
                    + (withStatus.get() + statusClear.get()));
            assertTrue(withStatus.get() > 0, "the interrupts must have reached calls in progress");
            assertTrue(f.isOpen());
            assertEquals(Files.size(p), f.size());
        }
    }
}
