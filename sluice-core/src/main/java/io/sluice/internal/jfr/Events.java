package io.sluice.internal.jfr;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The JFR events of Sluice's reads and writes, used only while {@link Jfr#recording()}. With a recording running that
 * does not enable an event, a call costs one read of the event type's enabled flag (through a kept instance); the
 * event object and the clock are touched only while one does, and the fields are filled only for a call over the
 * threshold. A call that throws records nothing, as the JDK's {@code jdk.FileRead} does not.
 */
public final class Events {
    private static final FileReadEvent READS = new FileReadEvent();
    private static final FileWriteEvent WRITES = new FileWriteEvent();

    private Events() {
    }

    /** Runs {@code call}, a read at {@code position}, timed as an {@code io.sluice.FileRead} when one is enabled. */
    public static long read(Path path, String engine, long position, IoCall call) throws IOException {
        if (!READS.isEnabled()) {
            return call.run();
        }
        FileReadEvent e = new FileReadEvent();
        e.begin();
        long n = call.run();
        endRead(e, path, engine, position, n);
        return n;
    }

    /** Runs {@code call}, a write at {@code position}, timed as an {@code io.sluice.FileWrite} when one is enabled. */
    public static long write(Path path, String engine, long position, IoCall call) throws IOException {
        if (!WRITES.isEnabled()) {
            return call.run();
        }
        FileWriteEvent e = new FileWriteEvent();
        e.begin();
        long n = call.run();
        endWrite(e, path, engine, position, n);
        return n;
    }

    /**
     * Starts an asynchronous read; its event, when enabled, runs from here to the future's completion and is committed
     * on the completing thread. The future returned completes with the outcome of the one {@code start} made, once
     * the event is committed.
     */
    public static CompletableFuture<Integer> readAsync(Path path, String engine, long position,
            Supplier<CompletableFuture<Integer>> start) {
        if (!READS.isEnabled()) {
            return start.get();
        }
        FileReadEvent e = new FileReadEvent();
        e.begin();
        return committedFirst(start.get(), n -> endRead(e, path, engine, position, n));
    }

    /** As {@link #readAsync} for a write. */
    public static CompletableFuture<Integer> writeAsync(Path path, String engine, long position,
            Supplier<CompletableFuture<Integer>> start) {
        if (!WRITES.isEnabled()) {
            return start.get();
        }
        FileWriteEvent e = new FileWriteEvent();
        e.begin();
        return committedFirst(start.get(), n -> endWrite(e, path, engine, position, n));
    }

    /**
     * A future with {@code f}'s outcome that completes only after {@code commit} ran on a success: a caller that waits
     * for the I/O then finds its event committed (a stage added to {@code f} and {@code f} itself handed back would race
     * the caller's wake-up: a recording stopped at once could miss the event). The outcome is passed on unchanged.
     */
    private static CompletableFuture<Integer> committedFirst(CompletableFuture<Integer> f,
            java.util.function.IntConsumer commit) {
        CompletableFuture<Integer> out = new CompletableFuture<>();
        f.whenComplete((n, failure) -> {
            if (failure != null) {
                out.completeExceptionally(failure);
                return;
            }
            try {
                commit.accept(n);
            } finally {
                out.complete(n);
            }
        });
        return out;
    }

    private static void endRead(FileReadEvent e, Path path, String engine, long position, long result) {
        e.end();
        if (e.shouldCommit()) {
            e.path = path.toString();
            e.position = position;
            e.bytes = Math.max(0, result);
            e.endOfFile = result < 0;
            e.engine = engine;
            e.commit();
        }
    }

    private static void endWrite(FileWriteEvent e, Path path, String engine, long position, long bytes) {
        e.end();
        if (e.shouldCommit()) {
            e.path = path.toString();
            e.position = position;
            e.bytes = bytes;
            e.engine = engine;
            e.commit();
        }
    }
}
