package io.sluice.nio;

import io.sluice.PositionalFile;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * An {@link AsynchronousFileChannel} over {@link PositionalFile#readAsync}/{@link PositionalFile#writeAsync}: on
 * IO_URING a read or write is submitted to the ring and the call returns at once. Futures complete on the ring's
 * completion thread; completion handlers run on the channel's executor, never there.
 */
final class SluiceAsynchronousFileChannel extends AsynchronousFileChannel {
    /** Handlers of channels opened without an executor: one virtual thread per handler. */
    static final ExecutorService DEFAULT_EXECUTOR =
            Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("sluice-aio-handler-", 0).factory());

    private final PositionalFile file;
    private final Path platformPath;
    private final boolean readable;
    private final boolean writable;
    private final ExecutorService executor;
    /** O_DIRECT's alignment (the file system's block size), or 0 without O_DIRECT. */
    private final int directAlign;
    /** The platform's channel on the file, for locks. */
    private final SecondDescriptor second;

    SluiceAsynchronousFileChannel(PositionalFile file, Path platformPath, boolean readable, boolean writable,
            ExecutorService executor, int directAlign) {
        this.file = file;
        this.directAlign = directAlign;
        this.platformPath = platformPath;
        this.readable = readable;
        this.writable = writable;
        this.second = new SecondDescriptor(platformPath, readable, writable, "lock");
        this.executor = executor != null ? executor : DEFAULT_EXECUTOR;
    }

    PositionalFile file() {
        return file;
    }

    @Override
    public boolean isOpen() {
        return file.isOpen();
    }

    @Override
    public void close() throws IOException {
        try {
            second.close();
        } finally {
            // IO_URING cancels what is in flight: those futures fail with AsynchronousCloseException.
            file.close();
        }
    }

    @Override
    public long size() throws IOException {
        return file.size();
    }

    @Override
    public AsynchronousFileChannel truncate(long size) throws IOException {
        if (size < 0) {
            throw new IllegalArgumentException("negative size: " + size);
        }
        if (!writable) {
            throw new NonWritableChannelException();
        }
        if (!isOpen()) {
            // What the JDK's channel throws here too: its truncate finds the descriptor gone inside its begin/end.
            throw new AsynchronousCloseException();
        }
        if (size < file.size()) {
            file.truncate(size);
        }
        return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
        file.force(metaData);
    }

    // ---------------------------------------------------------------- reads and writes

    @Override
    public Future<Integer> read(ByteBuffer dst, long position) {
        return startRead(dst, position);
    }

    @Override
    public <A> void read(ByteBuffer dst, long position, A attachment, CompletionHandler<Integer, ? super A> handler) {
        Objects.requireNonNull(handler, "handler");
        deliver(startRead(dst, position), attachment, handler);
    }

    @Override
    public Future<Integer> write(ByteBuffer src, long position) {
        return startWrite(src, position);
    }

    @Override
    public <A> void write(ByteBuffer src, long position, A attachment, CompletionHandler<Integer, ? super A> handler) {
        Objects.requireNonNull(handler, "handler");
        deliver(startWrite(src, position), attachment, handler);
    }

    private CompletableFuture<Integer> startRead(ByteBuffer dst, long position) {
        Objects.requireNonNull(dst, "dst");
        if (position < 0) {
            throw new IllegalArgumentException("negative position: " + position);
        }
        if (!readable) {
            throw new NonReadableChannelException();
        }
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("read-only buffer");
        }
        if (!isOpen()) {
            return CompletableFuture.failedFuture(new ClosedChannelException());
        }
        if (!dst.hasRemaining()) {
            return CompletableFuture.completedFuture(0);
        }
        CompletableFuture<Integer> misaligned = checkDirect("read", position, dst);
        if (misaligned != null) {
            return misaligned;
        }
        int start = dst.position();
        // The slice the kernel fills: the buffer's own memory when direct, which the future's chain keeps reachable.
        MemorySegment mem = MemorySegment.ofBuffer(dst);
        return settle(file.readAsync(mem, position).thenApply(n -> {
            if (n > 0) {
                dst.position(start + n);
            }
            return n;
        }));
    }

    private CompletableFuture<Integer> startWrite(ByteBuffer src, long position) {
        Objects.requireNonNull(src, "src");
        if (position < 0) {
            throw new IllegalArgumentException("negative position: " + position);
        }
        if (!writable) {
            throw new NonWritableChannelException();
        }
        if (!isOpen()) {
            return CompletableFuture.failedFuture(new ClosedChannelException());
        }
        if (!src.hasRemaining()) {
            return CompletableFuture.completedFuture(0);
        }
        CompletableFuture<Integer> misaligned = checkDirect("write", position, src);
        if (misaligned != null) {
            return misaligned;
        }
        int start = src.position();
        MemorySegment mem = MemorySegment.ofBuffer(src);
        return settle(file.writeAsync(mem, position).thenApply(n -> {
            src.position(start + n);
            return n;
        }));
    }

    /**
     * The outcome of a misaligned O_DIRECT call, or null when it is aligned. The JDK's channel hands such a call to the
     * kernel, which answers a read at or past the end of the file with end of file before it looks at alignment, and
     * anything else with EINVAL, an {@link IOException} in the future; this one does the same before any I/O, and says
     * which part is off.
     */
    private CompletableFuture<Integer> checkDirect(String op, long position, ByteBuffer buf) {
        if (directAlign == 0) {
            return null;
        }
        try {
            DirectIo.checkPosition(directAlign, platformPath, op, position);
            DirectIo.checkBuffer(directAlign, platformPath, op, buf);
            return null;
        } catch (IOException misaligned) {
            try {
                if (op.equals("read") && position >= file.size()) {
                    return CompletableFuture.completedFuture(-1);
                }
            } catch (IOException e) {
                misaligned.addSuppressed(e);
            }
            return CompletableFuture.failedFuture(misaligned);
        }
    }

    /**
     * The future as the JDK's channel completes it: with the exception itself rather than wrapped, and a call that
     * found the file closed under it as {@link AsynchronousCloseException}.
     */
    private CompletableFuture<Integer> settle(CompletableFuture<Integer> f) {
        CompletableFuture<Integer> out = new CompletableFuture<>();
        f.whenComplete((n, e) -> {
            if (e == null) {
                out.complete(n);
                return;
            }
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            if (cause instanceof ClosedChannelException && !(cause instanceof AsynchronousCloseException)) {
                AsynchronousCloseException ace = new AsynchronousCloseException();
                ace.initCause(cause);
                cause = ace;
            }
            out.completeExceptionally(cause);
        });
        return out;
    }

    /** Runs the handler on the executor, so that it never runs on (nor blocks) the ring's completion thread. */
    private <V, A> void deliver(CompletableFuture<V> f, A attachment, CompletionHandler<V, ? super A> handler) {
        f.whenCompleteAsync((v, e) -> {
            if (e == null) {
                handler.completed(v, attachment);
            } else {
                handler.failed(e instanceof CompletionException && e.getCause() != null ? e.getCause() : e,
                        attachment);
            }
        }, executor);
    }

    // ---------------------------------------------------------------- locks

    @Override
    public Future<FileLock> lock(long position, long size, boolean shared) {
        return startLock(position, size, shared);
    }

    @Override
    public <A> void lock(long position, long size, boolean shared, A attachment,
            CompletionHandler<FileLock, ? super A> handler) {
        Objects.requireNonNull(handler, "handler");
        deliver(startLock(position, size, shared), attachment, handler);
    }

    private CompletableFuture<FileLock> startLock(long position, long size, boolean shared) {
        checkLockMode(shared);
        if (!isOpen()) {
            return CompletableFuture.failedFuture(new ClosedChannelException());
        }
        // A blocking lock waits on the executor, as the JDK's channel waits on its thread pool.
        CompletableFuture<FileLock> f = new CompletableFuture<>();
        executor.execute(() -> {
            try {
                f.complete(new ForwardedLock(this, second.get().lock(position, size, shared)));
            } catch (IOException | RuntimeException e) {
                f.completeExceptionally(isOpen() || e instanceof AsynchronousCloseException ? e
                        : new AsynchronousCloseException());
            }
        });
        return f;
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        checkLockMode(shared);
        FileLock inner = second.get().tryLock(position, size, shared);
        return inner == null ? null : new ForwardedLock(this, inner);
    }

    private void checkLockMode(boolean shared) {
        if (shared && !readable) {
            throw new NonReadableChannelException();
        }
        if (!shared && !writable) {
            throw new NonWritableChannelException();
        }
    }

    @Override
    public String toString() {
        return "SluiceAsynchronousFileChannel[" + file + "]";
    }
}
