package io.sluice;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/** Threads for concurrency tests: started together, joined with a deadline, failures reported, never a hang. */
public final class Workers {
    /** What each worker runs, given its number. */
    public interface Body {
        /** Runs worker {@code worker}'s part. */
        void run(int worker) throws Exception;
    }

    private final Thread[] threads;
    private final Throwable[] failures;

    /** Starts {@code n} threads running {@code body}, released together. */
    public Workers(int n, Body body) {
        failures = new Throwable[n];
        threads = new Thread[n];
        CountDownLatch go = new CountDownLatch(1);
        for (int i = 0; i < n; i++) {
            int w = i;
            threads[i] = new Thread(() -> {
                try {
                    go.await();
                    body.run(w);
                } catch (Throwable t) {
                    failures[w] = t;
                }
            }, "worker-" + i);
            threads[i].setDaemon(true);
            threads[i].start();
        }
        go.countDown();
    }

    /** Runs {@code body} on {@code n} threads and waits for all; see {@link #join}. */
    public static void run(int n, Duration timeout, Body body) throws InterruptedException {
        new Workers(n, body).join(timeout);
    }

    Thread thread(int worker) {
        return threads[worker];
    }

    /**
     * Waits until {@code latch} opens; fails at once with a worker's failure if one of them died first, or after
     * {@code timeout} (the workers are then interrupted and left to end on their own).
     */
    void await(CountDownLatch latch, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!latch.await(20, TimeUnit.MILLISECONDS)) {
            for (int i = 0; i < threads.length; i++) {
                if (!threads[i].isAlive()) {
                    threads[i].join();
                    throw new AssertionError("worker " + i + " ended before the latch opened: " + failures[i],
                            failures[i]);
                }
            }
            if (System.nanoTime() > deadline) {
                for (Thread t : threads) {
                    t.interrupt();
                }
                fail("latch still closed after " + timeout);
            }
        }
    }

    /** Waits for every thread; fails with the stacks of those still running after {@code timeout}. */
    private void awaitAll(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Thread t : threads) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                t.join(Duration.ofNanos(left));
            }
        }
        String stuck = Arrays.stream(threads).filter(Thread::isAlive)
                .map(t -> t.getName() + " " + Arrays.toString(t.getStackTrace()))
                .collect(Collectors.joining("\n"));
        if (!stuck.isEmpty()) {
            for (Thread t : threads) {
                t.interrupt();
            }
            fail("threads still running after " + timeout + ":\n" + stuck);
        }
    }

    /** {@link #awaitAll}, then fails with the first worker's failure, the others attached as suppressed. */
    public void join(Duration timeout) throws InterruptedException {
        awaitAll(timeout);
        AssertionError first = null;
        for (int i = 0; i < failures.length; i++) {
            if (failures[i] != null) {
                if (first == null) {
                    first = new AssertionError("worker " + i + " failed: " + failures[i], failures[i]);
                } else {
                    first.addSuppressed(failures[i]);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
