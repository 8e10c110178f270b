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
     * on the completing thread. The future returned is the one {@code start} made.
     */
    public static CompletableFuture<Integer> readAsync(Path path, String engine, long position,
            Supplier<CompletableFuture<Integer>> start) {
        if (!READS.isEnabled()) {
            return start.get();
        }
        FileReadEvent e = new FileReadEvent();
        e.begin();
        CompletableFuture<Integer> f = start.get();
        f.whenComplete((n, failure) -> {
            if (failure == null) {
                endRead(e, path, engine, position, n);
            }
        });
        return f;
    }

    /** As {@link #readAsync} for a write. */
    public static CompletableFuture<Integer> writeAsync(Path path, String engine, long position,
            Supplier<CompletableFuture<Integer>> start) {
        if (!WRITES.isEnabled()) {
            return start.get();
        }
        FileWriteEvent e = new FileWriteEvent();
        e.begin();
        CompletableFuture<Integer> f = start.get();
        f.whenComplete((n, failure) -> {
            if (failure == null) {
                endWrite(e, path, engine, position, n);
            }
        });
        return f;
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
