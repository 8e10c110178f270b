package io.sluice.nio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.Engine;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileLock;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sluice's AsynchronousFileChannel on IO_URING against the JDK's, operation by operation. */
class AsynchronousFileChannelTest {
    @TempDir
    Path dir;

    @BeforeEach
    void needsIoUring() {
        Assumptions.assumeTrue(Engine.IO_URING.isAvailable(), () -> Engine.IO_URING.unavailabilityCause().orElse(""));
    }

    private static final Set<StandardOpenOption> RW = Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE);

    @Test
    void sameResultsAsTheJdks() throws Exception {
        long base = Long.getLong("sluice.test.seed", System.nanoTime());
        for (int seq = 0; seq < 30; seq++) {
            long seed = base + seq;
            Random r = new Random(seed);
            byte[] initial = new byte[r.nextInt(100_000)];
            r.nextBytes(initial);
            Path a = Files.write(dir.resolve("jdk-" + seq), initial);
            Path b = Files.write(dir.resolve("sluice-" + seq), initial);
            Set<StandardOpenOption> mode = switch (r.nextInt(3)) {
                case 0 -> RW;
                case 1 -> Set.of(StandardOpenOption.READ);
                default -> Set.of(StandardOpenOption.WRITE);
            };
            List<String> trail = new ArrayList<>();
            try (AsynchronousFileChannel jdk = AsynchronousFileChannel.open(a, mode, null);
                 AsynchronousFileChannel sluice = SluiceChannels.openAsynchronous(b, Engine.IO_URING, mode, null)) {
                for (int step = 0; step < 120; step++) {
                    int kind = r.nextInt(10);
                    long pos = r.nextInt(20) == 0 ? -1 : r.nextInt(120_000);
                    // Up to 64 KiB: a heap buffer's transfer goes through one registered chunk of that size.
                    int len = r.nextInt(8) == 0 ? 0 : r.nextInt(65_536);
                    boolean direct = r.nextBoolean();
                    long fill = r.nextLong();
                    boolean close = step == 110;
                    String name = close ? "close" : kind + " pos=" + pos + " len=" + len + " direct=" + direct;
                    trail.add(name);
                    Call call = ch -> {
                        if (close) {
                            ch.close();
                            return "closed";
                        }
                        ByteBuffer buf = buffer(len, direct, fill);
                        return switch (kind) {
                            case 0, 1, 2, 3 -> ch.read(buf, pos).get(30, TimeUnit.SECONDS) + " " + describe(buf);
                            case 4, 5, 6 -> ch.write(buf, pos).get(30, TimeUnit.SECONDS) + " " + describe(buf);
                            case 7 -> {
                                ch.truncate(pos);
                                yield "truncated";
                            }
                            case 8 -> {
                                ch.force(direct);
                                yield "forced";
                            }
                            default -> {
                                FileLock l = ch.tryLock(Math.max(0, pos), len, direct);
                                String s = l.position() + " " + l.size() + " " + l.isShared() + " " + (l.acquiredBy() == ch);
                                l.release();
                                yield s;
                            }
                        };
                    };
                    String x = outcome(call, jdk);
                    String y = outcome(call, sluice);
                    assertEquals(x, y, "seed " + seed + " (-Dsluice.test.seed), mode " + mode + ", step " + step + ": "
                            + name + "; last steps " + trail.subList(Math.max(0, trail.size() - 8), trail.size()));
                    assertEquals(outcome(AsynchronousFileChannel::size, jdk), outcome(AsynchronousFileChannel::size, sluice),
                            "size after step " + step);
                }
            }
            assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b), "seed " + seed);
        }
    }

    @FunctionalInterface
    interface Call {
        Object apply(AsynchronousFileChannel ch) throws Exception;
    }

    private static String outcome(Call call, AsynchronousFileChannel ch) {
        try {
            return "returns " + call.apply(ch);
        } catch (ExecutionException e) {
            return "fails " + e.getCause().getClass().getName();
        } catch (Exception e) {
            return "throws " + e.getClass().getName();
        }
    }

    private static ByteBuffer buffer(int len, boolean direct, long seed) {
        byte[] fill = new byte[len];
        new Random(seed).nextBytes(fill);
        ByteBuffer b = direct ? ByteBuffer.allocateDirect(len) : ByteBuffer.allocate(len);
        b.put(fill).flip();
        if (len > 2) {
            b.position(1).limit(len - 1);
        }
        return b;
    }

    private static String describe(ByteBuffer b) throws Exception {
        ByteBuffer all = b.duplicate().clear();
        byte[] bytes = new byte[all.remaining()];
        all.get(bytes);
        return b.position() + "/" + b.limit() + " "
                + HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    @Test
    void handlersRunOnTheExecutorNotTheRing() throws Exception {
        Path p = Files.write(dir.resolve("h"), new byte[8192]);
        try (AsynchronousFileChannel ch = SluiceChannels.openAsynchronous(p, Engine.IO_URING, RW, null)) {
            List<CompletableFuture<String>> threads = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                CompletableFuture<String> where = new CompletableFuture<>();
                threads.add(where);
                ch.read(ByteBuffer.allocateDirect(4096), i * 64L, null, new CompletionHandler<Integer, Object>() {
                    @Override
                    public void completed(Integer n, Object a) {
                        where.complete(Thread.currentThread().isVirtual() + " " + Thread.currentThread().getName());
                    }

                    @Override
                    public void failed(Throwable e, Object a) {
                        where.completeExceptionally(e);
                    }
                });
            }
            for (CompletableFuture<String> t : threads) {
                String s = t.get(30, TimeUnit.SECONDS);
                assertTrue(s.startsWith("true sluice-aio-handler-"), s);
            }
        }
    }

    @Test
    void aClosedChannelFailsItsFutures() throws Exception {
        Path p = Files.write(dir.resolve("c"), new byte[100]);
        AsynchronousFileChannel ch = SluiceChannels.openAsynchronous(p, Engine.IO_URING, RW, null);
        ch.close();
        assertFalse(ch.isOpen());
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> ch.read(ByteBuffer.allocateDirect(10), 0).get());
        assertInstanceOf(ClosedChannelException.class, e.getCause());
    }

    /**
     * Closing with reads in flight: each read completes, or fails with AsynchronousCloseException, never anything
     * else. How many were still in flight depends on the machine; the test prints it.
     */
    @Test
    void closingFailsWhatIsInFlightWithAsynchronousClose() throws Exception {
        Path p = dir.resolve("big");
        try (var out = Files.newOutputStream(p)) {
            byte[] mb = new byte[1 << 20];
            for (int i = 0; i < 64; i++) {
                out.write(mb);
            }
        }
        for (int round = 0; round < 5; round++) {
            // O_DIRECT, so the reads go to the device and are still there when close comes.
            AsynchronousFileChannel ch = SluiceChannels.openAsynchronous(p, Engine.IO_URING,
                    Set.of(StandardOpenOption.READ, io.sluice.SluiceOption.DIRECT), null);
            List<java.util.concurrent.Future<Integer>> reads = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                reads.add(ch.read(ByteBuffer.allocateDirect((1 << 20) + 4096).alignedSlice(4096).limit(1 << 20),
                        (long) i << 20));
            }
            ch.close();
            int done = 0;
            int closed = 0;
            for (var f : reads) {
                try {
                    assertEquals(1 << 20, f.get(30, TimeUnit.SECONDS));
                    done++;
                } catch (ExecutionException e) {
                    assertInstanceOf(java.nio.channels.AsynchronousCloseException.class, e.getCause());
                    closed++;
                }
            }
            System.out.println("round " + round + ": " + done + " completed, " + closed + " failed by the close");
        }
    }

    @Test
    void theProviderHandsItOutOnIoUring() throws Exception {
        FileSystem fs = SluiceFileSystemProvider.newFileSystem(Engine.IO_URING);
        Path p = fs.getPath(Files.write(dir.resolve("p"), new byte[] {1, 2, 3}).toString());
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(p, StandardOpenOption.READ)) {
            assertInstanceOf(SluiceAsynchronousFileChannel.class, ch);
            ByteBuffer b = ByteBuffer.allocateDirect(3);
            assertEquals(3, ch.read(b, 0).get());
            assertEquals(3, b.get(2));
        }
        FileSystem channelFs = SluiceFileSystemProvider.newFileSystem(Engine.CHANNEL);
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(channelFs.getPath(p.toString()))) {
            assertFalse(ch instanceof SluiceAsynchronousFileChannel, "other engines leave it to the platform");
        }
    }
}
