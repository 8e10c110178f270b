package io.sluice.nio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.Engine;
import io.sluice.SluiceOption;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * O_DIRECT through the JDK's own {@link ExtendedOpenOption#DIRECT} (and Sluice's option): the same operations, aligned
 * and not, on the JDK's channels opened with it and on Sluice's, with every result, exception type and byte compared;
 * and the descriptor underneath really has O_DIRECT.
 */
class DirectOptionTest {
    private static final int STEPS = 400;

    /**
     * The JDK's {@code com.sun.nio.file.ExtendedOpenOption.DIRECT}, itself. Looked up by name: the tests compile inside
     * module io.sluice.nio, which does not read jdk.unsupported (nor needs to), and run on the class path, which does.
     */
    private static final OpenOption JDK_DIRECT = jdkDirect();

    private static OpenOption jdkDirect() {
        try {
            return (OpenOption) Class.forName("com.sun.nio.file.ExtendedOpenOption").getField("DIRECT").get(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("the JDK's ExtendedOpenOption.DIRECT", e);
        }
    }

    @TempDir
    Path dir;

    private int block;

    @BeforeEach
    void needsIoUring() throws IOException {
        Assumptions.assumeTrue(Engine.IO_URING.isAvailable(), () -> Engine.IO_URING.unavailabilityCause().orElse(""));
        block = (int) Files.getFileStore(dir).getBlockSize();
        Path probe = Files.write(dir.resolve("probe"), new byte[block]);
        try (FileChannel ch = FileChannel.open(probe, StandardOpenOption.READ, JDK_DIRECT)) {
            ch.read(aligned(block), 0);
        } catch (IOException e) {
            Assumptions.abort("no O_DIRECT on " + dir + ": " + e);
        }
    }

    @Test
    void fileChannelByTheJdksOptionBehavesAsTheJdks() throws Exception {
        differential("SluiceChannels.open", p -> SluiceChannels.open(p, Engine.IO_URING, StandardOpenOption.READ,
                StandardOpenOption.WRITE, JDK_DIRECT));
    }

    @Test
    void fileChannelBySluicesOptionBehavesAsTheJdks() throws Exception {
        differential("SluiceOption.DIRECT", p -> SluiceChannels.open(p, Engine.IO_URING, StandardOpenOption.READ,
                StandardOpenOption.WRITE, SluiceOption.DIRECT));
    }

    @Test
    void providerHandsOutSluicesChannelForTheJdksOption() throws Exception {
        for (Engine engine : new Engine[] {Engine.IO_URING, Engine.AUTO}) {
            FileSystem fs = SluiceFileSystemProvider.newFileSystem(engine);
            differential("provider " + engine, p -> {
                FileChannel ch = FileChannel.open(fs.getPath(p.toString()), StandardOpenOption.READ,
                        StandardOpenOption.WRITE, JDK_DIRECT);
                assertInstanceOf(SluiceFileChannel.class, ch, "the provider's channel on " + engine);
                return ch;
            });
        }
    }

    @Test
    void providerLeavesTheJdksOptionToThePlatformOnEnginesWithoutDirect() throws Exception {
        Path p = Files.write(dir.resolve("f"), new byte[2 * block]);
        for (Engine engine : new Engine[] {Engine.CHANNEL, Engine.MMAP}) {
            FileSystem fs = SluiceFileSystemProvider.newFileSystem(engine);
            try (FileChannel ch = FileChannel.open(fs.getPath(p.toString()), StandardOpenOption.READ,
                    JDK_DIRECT)) {
                assertTrue(!(ch instanceof SluiceFileChannel), engine + ": " + ch);
                assertEquals(block, ch.read(aligned(block), 0));
                assertInstanceOf(IOException.class, outcomeException(c -> c.read(aligned(block), 5), ch));
            }
        }
    }

    @Test
    void asynchronousChannelByTheJdksOptionBehavesAsTheJdks() throws Exception {
        long seed = Long.getLong("sluice.test.seed", System.nanoTime());
        Random r = new Random(seed);
        byte[] initial = new byte[10_000];
        r.nextBytes(initial);
        Path a = Files.write(dir.resolve("jdk-async"), initial);
        Path b = Files.write(dir.resolve("sluice-async"), initial);
        Set<OpenOption> opts = Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE, JDK_DIRECT);
        FileSystem fs = SluiceFileSystemProvider.newFileSystem(Engine.IO_URING);
        List<String> trail = new ArrayList<>();
        try (AsynchronousFileChannel jdk = AsynchronousFileChannel.open(a, opts, null);
             AsynchronousFileChannel sluice = AsynchronousFileChannel.open(fs.getPath(b.toString()), opts, null)) {
            assertInstanceOf(SluiceAsynchronousFileChannel.class, sluice);
            assertDirect(b);
            for (int step = 0; step < STEPS; step++) {
                boolean write = r.nextInt(3) == 0;
                // Aligned calls only; misaligned ones are compared apart (below), since the JDK's channel leaves the
                // check to the kernel, whose answer depends on the device and the extents: it checks the device's
                // logical block (often 512 bytes), may write the aligned extents of a misaligned write before it fails
                // with EINVAL, and cuts a read at the end of the file before it looks.
                long pos = (long) r.nextInt(r.nextInt(8) == 0 ? 80 : 4) * block;
                int len = r.nextInt(4) * block + (r.nextInt(8) == 0 ? 32 * block : 0);
                int misalign = 0;
                long fill = r.nextLong();
                String name = (write ? "write" : "read") + " len=" + len + " off=" + misalign + " pos=" + pos;
                trail.add(name);
                AsyncCall call = ch -> {
                    // Direct buffers only: the JDK's asynchronous channel bounces heap buffers through unaligned
                    // memory and fails them all with O_DIRECT, where Sluice's go through aligned memory and work.
                    ByteBuffer buf = aligned(len + misalign).position(misalign);
                    fill(buf, fill);
                    int n = write ? ch.write(buf, pos).get(10, TimeUnit.SECONDS)
                            : ch.read(buf, pos).get(10, TimeUnit.SECONDS);
                    return n + " " + describe(buf);
                };
                lastException = null;
                String x = asyncOutcome(call, jdk);
                String y = asyncOutcome(call, sluice);
                assertEquals(x, y, "seed " + seed + " (-Dsluice.test.seed), step " + step + ": " + name
                        + "\nlast steps: " + trail.subList(Math.max(0, trail.size() - 10), trail.size())
                        + "\nlast exception: " + lastException);
                assertEquals(jdk.size(), sluice.size(), "size after " + name);
            }
        }
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b), "seed " + seed + ": the files");
    }

    @Test
    void misalignedAsynchronousCallsFailAsTheJdksBeforeAnyIo() throws Exception {
        byte[] initial = new byte[4 * block];
        new Random(7).nextBytes(initial);
        Path a = Files.write(dir.resolve("jdk-async-w"), initial);
        Path b = Files.write(dir.resolve("sluice-async-w"), initial);
        Set<OpenOption> opts = Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE, JDK_DIRECT);
        try (AsynchronousFileChannel jdk = AsynchronousFileChannel.open(a, opts, null);
             AsynchronousFileChannel sluice = SluiceChannels.openAsynchronous(b, Engine.IO_URING, opts, null)) {
            // In the middle of the file, where the kernel refuses them all.
            long[][] cases = {{5, block, 0}, {block, 100, 0}, {0, 2 * block + 100, 0}, {0, block, 8}, {block + 1, 100, 8}};
            for (boolean write : new boolean[] {false, true}) {
                for (long[] c : cases) {
                    long pos = c[0];
                    int len = (int) c[1];
                    int off = (int) c[2];
                    String name = (write ? "write" : "read") + " pos=" + pos + " len=" + len + " off=" + off;
                    AsyncCall call = ch -> {
                        ByteBuffer buf = aligned(len + off).position(off);
                        return (write ? ch.write(buf, pos) : ch.read(buf, pos)).get(10, TimeUnit.SECONDS);
                    };
                    assertEquals("fails java.io.IOException", asyncOutcome(call, jdk), "the JDK's " + name);
                    assertEquals("fails java.io.IOException", asyncOutcome(call, sluice), "Sluice's " + name);
                    assertTrue(lastException.getCause().getMessage().contains(b.toString()), lastException.getCause()
                            + " names the file");
                }
            }
            // Past the end a read is end of file before the kernel looks at alignment.
            AsyncCall past = ch -> ch.read(aligned(100), 100L * block).get(10, TimeUnit.SECONDS);
            assertEquals("returns -1", asyncOutcome(past, jdk));
            assertEquals("returns -1", asyncOutcome(past, sluice));
        }
        assertArrayEquals(initial, Files.readAllBytes(b), "Sluice's file after the refused writes");
    }

    // ---------------------------------------------------------------- the FileChannel sequence

    @FunctionalInterface
    interface Opener {
        FileChannel open(Path p) throws IOException;
    }

    @FunctionalInterface
    interface Call {
        Object apply(FileChannel ch) throws Exception;
    }

    @FunctionalInterface
    interface AsyncCall {
        Object apply(AsynchronousFileChannel ch) throws Exception;
    }

    private void differential(String how, Opener opener) throws Exception {
        long seed = Long.getLong("sluice.test.seed", System.nanoTime());
        Random r = new Random(seed);
        byte[] initial = new byte[10_000];
        r.nextBytes(initial);
        Path a = Files.write(dir.resolve("jdk-" + seed), initial);
        Path b = Files.write(dir.resolve("sluice-" + seed), initial);
        List<String> trail = new ArrayList<>();
        int misaligned = 0;
        try (FileChannel jdk = FileChannel.open(a, StandardOpenOption.READ, StandardOpenOption.WRITE,
                JDK_DIRECT);
             FileChannel sluice = opener.open(b)) {
            assertInstanceOf(SluiceFileChannel.class, sluice, how);
            assertDirect(b);
            for (int step = 0; step < STEPS; step++) {
                String[] name = new String[1];
                Call call = randomCall(r, name);
                trail.add(name[0]);
                lastException = null;
                String x = outcome(call, jdk);
                String y = outcome(call, sluice);
                if (x.contains("IOException")) {
                    misaligned++;
                }
                String where = how + ", seed " + seed + " (-Dsluice.test.seed), step " + step + ": " + name[0]
                        + "\nlast steps: " + trail.subList(Math.max(0, trail.size() - 10), trail.size())
                        + "\nlast exception: " + lastException;
                assertEquals(x, y, where);
                assertEquals(jdk.position(), sluice.position(), "position after " + where);
                assertEquals(jdk.size(), sluice.size(), "size after " + where);
            }
        }
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b), how + ", seed " + seed + ": the files");
        assertNotEquals(0, misaligned, "the sequence met no misaligned call");
        Files.delete(a);
        Files.delete(b);
    }

    /**
     * Scattering and gathering calls use aligned memory here: the JDK's hand a misaligned direct buffer to the kernel,
     * which takes or refuses it by the device's DMA alignment; Sluice's bounce it through aligned memory.
     */
    private Call randomCall(Random r, String[] name) {
        long pos = position(r);
        int len = length(r);
        int misalign = r.nextInt(5) == 0 ? 8 : 0;
        boolean heap = r.nextInt(4) == 0;
        long fill = r.nextLong();
        String buf = "buf " + len + (heap ? " heap" : misalign != 0 ? " off 8" : "");
        switch (r.nextInt(11)) {
            case 0 -> {
                name[0] = "read(" + buf + ", " + pos + ")";
                return ch -> {
                    ByteBuffer b = buffer(len, heap, misalign, fill);
                    return ch.read(b, pos) + " " + describe(b);
                };
            }
            case 1 -> {
                name[0] = "write(" + buf + ", " + pos + ")";
                return ch -> {
                    ByteBuffer b = buffer(len, heap, misalign, fill);
                    return ch.write(b, pos) + " " + describe(b);
                };
            }
            case 2 -> {
                name[0] = "read(" + buf + ")";
                return ch -> {
                    ByteBuffer b = buffer(len, heap, misalign, fill);
                    return ch.read(b) + " " + describe(b);
                };
            }
            case 3 -> {
                name[0] = "write(" + buf + ")";
                return ch -> {
                    ByteBuffer b = buffer(len, heap, misalign, fill);
                    return ch.write(b) + " " + describe(b);
                };
            }
            case 4 -> {
                name[0] = "position(" + pos + ")";
                return ch -> ch.position(pos).position();
            }
            case 5 -> {
                name[0] = "read(bufs " + len + ", " + block + ")";
                return ch -> {
                    ByteBuffer[] bs = {buffer(len, heap, 0, fill), buffer(block, heap, 0, fill + 1)};
                    return ch.read(bs) + " " + describe(bs[0]) + " " + describe(bs[1]);
                };
            }
            case 6 -> {
                name[0] = "write(bufs " + len + ", " + block + ")";
                return ch -> {
                    ByteBuffer[] bs = {buffer(len, heap, 0, fill), buffer(block, heap, 0, fill + 1)};
                    return ch.write(bs) + " " + describe(bs[0]) + " " + describe(bs[1]);
                };
            }
            case 7 -> {
                name[0] = "transferTo(" + pos + ", " + len + ")";
                return ch -> {
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    long n = ch.transferTo(pos, len, Channels.newChannel(out));
                    return n + " " + HexFormat.of().formatHex(out.toByteArray());
                };
            }
            case 8 -> {
                name[0] = "transferFrom(" + pos + ", " + len + ")";
                byte[] src = new byte[len];
                new Random(fill).nextBytes(src);
                return ch -> ch.transferFrom(Channels.newChannel(new ByteArrayInputStream(src)), pos, len);
            }
            case 9 -> {
                name[0] = "truncate(" + pos + ")";
                return ch -> ch.truncate(pos).size();
            }
            default -> {
                name[0] = "read(empty, " + pos + ")";
                return ch -> ch.read(buffer(0, heap, misalign, fill), pos);
            }
        }
    }

    private long position(Random r) {
        return switch (r.nextInt(8)) {
            case 0 -> 0;
            case 1 -> block;
            case 2 -> 2L * block;
            case 3 -> 3L * block;
            case 4 -> 64L * block;
            case 5 -> 5;
            case 6 -> block + 100;
            default -> (long) r.nextInt(4) * block;
        };
    }

    private int length(Random r) {
        return switch (r.nextInt(7)) {
            case 0 -> block;
            case 1 -> 2 * block;
            case 2 -> 100;
            case 3 -> 0;
            case 4 -> 32 * block; // more than a registered chunk: a heap buffer goes in pieces
            case 5 -> block + 512;
            default -> (1 + r.nextInt(3)) * block;
        };
    }

    private ByteBuffer buffer(int len, boolean heap, int misalign, long fill) {
        ByteBuffer b = heap ? ByteBuffer.allocate(len) : aligned(len + misalign).position(misalign).slice();
        fill(b, fill);
        return b;
    }

    private ByteBuffer aligned(int len) {
        // alignedSlice trims both ends to the block, so allocate a block more than the start needs.
        return ByteBuffer.allocateDirect(len + 2 * block).alignedSlice(block).limit(len).slice();
    }

    private static void fill(ByteBuffer b, long seed) {
        byte[] bytes = new byte[b.remaining()];
        new Random(seed).nextBytes(bytes);
        b.duplicate().put(bytes);
    }

    private static String describe(ByteBuffer b) {
        ByteBuffer all = b.duplicate().clear();
        byte[] bytes = new byte[all.remaining()];
        all.get(bytes);
        return "pos=" + b.position() + " lim=" + b.limit() + " " + Integer.toHexString(java.util.Arrays.hashCode(bytes));
    }

    /** The last exception {@link #outcome} saw, for the failure message. */
    private Exception lastException;

    private String outcome(Call call, FileChannel ch) {
        try {
            return "returns " + call.apply(ch);
        } catch (Exception e) {
            lastException = e;
            return "throws " + e.getClass().getName();
        }
    }

    private String asyncOutcome(AsyncCall call, AsynchronousFileChannel ch) {
        try {
            return "returns " + call.apply(ch);
        } catch (ExecutionException e) {
            lastException = e;
            return "fails " + e.getCause().getClass().getName();
        } catch (Exception e) {
            lastException = e;
            return "throws " + e.getClass().getName();
        }
    }

    private static Throwable outcomeException(Call call, FileChannel ch) {
        try {
            call.apply(ch);
            return null;
        } catch (Exception e) {
            return e;
        }
    }

    /**
     * The descriptor Sluice opened on {@code file} has O_DIRECT: the flags in /proc/self/fdinfo of every descriptor of
     * this process on it, against the bit the JDK's own O_DIRECT descriptor shows.
     */
    private void assertDirect(Path file) throws IOException {
        // The bit differs between architectures (x86-64, arm64): take it from the JDK's own O_DIRECT descriptor.
        Path probe = Files.write(dir.resolve("flags-probe"), new byte[block]);
        int plain = flagsOf(probe, FileChannel.open(probe, StandardOpenOption.READ));
        int direct = flagsOf(probe, FileChannel.open(probe, StandardOpenOption.READ, JDK_DIRECT));
        int directBit = direct & ~plain;
        assertNotEquals(0, directBit, "O_DIRECT's bit");
        List<Integer> flags = descriptorFlags(file);
        assertTrue(!flags.isEmpty(), "no descriptor of " + file);
        for (int f : flags) {
            assertEquals(directBit, f & directBit, file + " opened without O_DIRECT: flags " + Integer.toOctalString(f));
        }
    }

    private static int flagsOf(Path p, FileChannel ch) throws IOException {
        try (ch) {
            List<Integer> f = descriptorFlags(p);
            assertEquals(1, f.size(), "descriptors of " + p);
            return f.get(0);
        }
    }

    private static List<Integer> descriptorFlags(Path file) throws IOException {
        Path real = file.toRealPath();
        List<Integer> out = new ArrayList<>();
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    if (Files.readSymbolicLink(fd).equals(real)) {
                        for (String line : Files.readAllLines(Path.of("/proc/self/fdinfo", fd.getFileName().toString()))) {
                            if (line.startsWith("flags:")) {
                                out.add(Integer.parseInt(line.substring(6).trim(), 8));
                            }
                        }
                    }
                } catch (IOException gone) {
                    // a descriptor closed while listing (the listing's own)
                }
            }
        }
        return out;
    }
}
