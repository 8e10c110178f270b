package io.sluice.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CountDownLatch;

/**
 * A contender measured in this JVM: {@code threads} platform threads each read their precomputed offsets in a loop
 * until told to stop, and the rate is the sum of every thread's own operations divided by its own elapsed time.
 *
 * <p>For a workload of {@linkplain Workload#virtualThreads() virtual threads} the threads are virtual, and the rate
 * is every thread's operations together divided by the time from the start signal until the last thread stopped:
 * virtual threads share a few carriers and are not preempted, so some may run only after others stop, and a rate per
 * thread would then be meaningless.
 *
 * <p>For a {@linkplain Workload#writes() write} workload the {@link Reader} writes: each call is one positional
 * write of a block from the thread's own buffer, made and filled before the start signal.
 *
 * <p>Everything a thread needs (its buffer, its offsets) is made before the start signal, and buffers are kept for
 * the next sample, so the timed loop does one read call per operation and nothing else: no allocation, no random
 * numbers, no first touches of new memory.
 */
abstract class JavaContender implements Contender {
    /** Reads (or, for a write workload, writes) one block at a position; one per thread, holding its buffer. */
    interface Reader {
        int read(long position) throws IOException;

        /**
         * Performs one or more reads from {@code offsets} starting at {@code index} (wrapping) and returns how many;
         * a reader that keeps several requests in flight overrides this.
         */
        default int readMany(long[] offsets, int index, int blockSize) throws IOException {
            if (read(offsets[index]) != blockSize) {
                throw new IOException("short read at " + offsets[index] + " (file changed during the benchmark?)");
            }
            return 1;
        }
    }

    /** Operations between two looks at the stop flag, so the check costs nothing measurable. */
    private static final int STRIDE = 16;

    private final long fileSize;
    /**
     * Readers (and so buffers) by block size and thread index, kept across samples: freshly touched memory is slow
     * on some virtual machines, and a new buffer per sample would charge its page faults to the first reads.
     */
    private final java.util.Map<Long, Reader> readers = new java.util.HashMap<>();
    private volatile boolean stop;

    JavaContender(long fileSize) {
        this.fileSize = fileSize;
    }

    /** A reader with its own buffer of {@code blockSize} bytes, for one thread. */
    abstract Reader reader(int blockSize) throws IOException;

    @Override
    public Sample measure(Workload w, int threads, long nanos) throws IOException, InterruptedException {
        Thread[] ts = new Thread[threads];
        double[] rates = new double[threads];
        long[] counts = new long[threads];
        long[] ends = new long[threads];
        Throwable[] failures = new Throwable[threads];
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        stop = false;
        Thread.Builder builder = w.virtualThreads() ? Thread.ofVirtual() : Thread.ofPlatform();
        for (int t = 0; t < threads; t++) {
            final int id = t;
            final long[] offsets = w.offsets(fileSize, t, threads);
            final Reader reader = readers.computeIfAbsent(((long) w.blockSize() << 32) | id, k -> newReader(w));
            ts[t] = builder.name("sluice-bench-" + name() + "-" + t).unstarted(() -> {
                try {
                    ready.countDown();
                    go.await();
                    long start = System.nanoTime();
                    long ops = loop(reader, offsets, w.blockSize());
                    ends[id] = System.nanoTime();
                    counts[id] = ops;
                    rates[id] = ops / ((ends[id] - start) / 1e6);
                } catch (Throwable e) {
                    failures[id] = e;
                }
            });
            ts[t].start();
        }
        ready.await();
        long started = System.nanoTime();
        go.countDown();
        Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
        stop = true;
        double total = 0;
        long allOps = 0;
        long lastEnd = started;
        for (int t = 0; t < threads; t++) {
            ts[t].join();
            if (failures[t] != null) {
                if (failures[t] instanceof IOException io) {
                    throw io;
                }
                throw new UncheckedIOException(
                        new IOException(name() + " failed in " + w + ": " + failures[t], failures[t]));
            }
            total += rates[t];
            allOps += counts[t];
            lastEnd = Math.max(lastEnd, ends[t]);
        }
        if (w.virtualThreads()) {
            total = allOps / ((lastEnd - started) / 1e6);
        }
        return new Sample(total, total * 1000.0 * w.blockSize());
    }

    private Reader newReader(Workload w) {
        try {
            return reader(w.blockSize());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private long loop(Reader reader, long[] offsets, int blockSize) throws IOException {
        long ops = 0;
        int i = 0;
        // At least one stride, even when the sample ended before this thread ran (a short sample on a busy machine):
        // the rate is over this thread's own time, and a stride of none would report 0 ops/ms.
        do {
            for (int k = 0; k < STRIDE; k++) {
                int done = reader.readMany(offsets, i, blockSize);
                i = (i + done) % offsets.length;
                ops += done;
            }
        } while (!stop);
        return ops;
    }
}
