package io.sluice;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * Pieces of work numbered {@code 0..pieces-1}, done by a few threads that each claim the next unclaimed number from
 * one shared counter until none is left.
 *
 * <p>Why a counter rather than equal shares: pieces cost different amounts (a piece may be cold on disk, another
 * thread may be descheduled on a busy machine), and with equal shares the slowest share decides the end. Claiming
 * one piece at a time, a thread that finishes early simply takes more. Each thread has its own accumulator, so the
 * work shares nothing but the counter; the accumulators are merged in thread order at the end.
 *
 * <p>A failure stops the others at their next claim (they finish the piece in hand) and is thrown to the caller,
 * with any further failures attached as suppressed. An interrupt of the calling thread does the same and ends in
 * {@link InterruptedIOException}, with the interrupt status kept. Workers are never interrupted: an interrupt would
 * close a shared {@link java.nio.channels.FileChannel} for all of them.
 */
final class Claims {
    /** One piece of work, adding to the thread's own accumulator. */
    interface Piece<A> {
        void run(A accumulator, long piece) throws IOException;
    }

    private Claims() {
    }

    /**
     * Runs pieces {@code 0..pieces-1} on up to {@code threads} threads and returns the merged accumulators. With one
     * thread (or one piece) everything runs on the calling thread.
     *
     * @param what names the work in thread names and in the interrupt message
     */
    static <A> A run(String what, int threads, long pieces, Supplier<A> accumulator, Piece<A> piece,
            BinaryOperator<A> merge) throws IOException {
        int n = (int) Math.max(1, Math.min(threads, pieces));
        AtomicLong next = new AtomicLong();
        if (n == 1) {
            A acc = accumulator.get();
            for (long p; (p = next.getAndIncrement()) < pieces; ) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedIOException(what + ": interrupted after " + p + " of " + pieces + " pieces");
                }
                piece.run(acc, p);
            }
            return acc;
        }
        List<A> accs = new ArrayList<>(n);
        for (int t = 0; t < n; t++) {
            accs.add(accumulator.get());
        }
        Throwable[] failures = new Throwable[n];
        Thread[] workers = new Thread[n];
        for (int t = 0; t < n; t++) {
            int id = t;
            workers[t] = Thread.ofPlatform().name("sluice-" + what + "-" + t).daemon().unstarted(() -> {
                try {
                    for (long p; (p = next.getAndIncrement()) < pieces; ) {
                        piece.run(accs.get(id), p);
                    }
                } catch (Throwable e) {
                    failures[id] = e;
                    // Every later claim is past the end: the others stop after the piece in hand.
                    next.set(Long.MAX_VALUE / 2);
                }
            });
        }
        for (Thread w : workers) {
            w.start();
        }
        boolean interrupted = false;
        for (Thread w : workers) {
            for (;;) {
                try {
                    w.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                    next.set(Long.MAX_VALUE / 2);
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
            InterruptedIOException e = new InterruptedIOException(what + ": interrupted");
            addAll(e, failures, null);
            throw e;
        }
        Throwable first = null;
        for (Throwable f : failures) {
            if (f != null && first == null) {
                first = f;
            }
        }
        if (first != null) {
            addAll(first, failures, first);
            switch (first) {
                case IOException io -> throw io;
                case UncheckedIOException u -> throw u;
                case RuntimeException r -> throw r;
                case Error err -> throw err;
                default -> throw new IOException(what + ": " + first, first);
            }
        }
        A result = accs.get(0);
        for (int t = 1; t < n; t++) {
            result = merge.apply(result, accs.get(t));
        }
        return result;
    }

    private static void addAll(Throwable to, Throwable[] failures, Throwable except) {
        for (Throwable f : failures) {
            if (f != null && f != except) {
                to.addSuppressed(f);
            }
        }
    }
}
