package io.sluice.nio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.Engine;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileChannel.MapMode;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The same random operation sequences on the JDK's {@link FileChannel} and on Sluice's, each over its own copy of
 * one file: every result, exception type, buffer state, position and size must match after every step, and the
 * files' bytes at the end.
 */
class FileChannelDifferentialTest {
    private static final int SEQUENCES = 40;
    private static final int STEPS = 150;

    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        List<Set<StandardOpenOption>> modes = List.of(
                Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE),
                Set.of(StandardOpenOption.READ),
                Set.of(StandardOpenOption.WRITE),
                Set.of(StandardOpenOption.APPEND));
        for (Engine e : Engine.values()) {
            for (Set<StandardOpenOption> m : modes) {
                out.add(Arguments.of(e, m));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void sameAsTheJdk(Engine engine, Set<StandardOpenOption> mode) throws Exception {
        Assumptions.assumeTrue(engine.isAvailable(), () -> engine.unavailabilityCause().orElse(""));
        long base = Long.getLong("sluice.test.seed", System.nanoTime());
        for (int seq = 0; seq < SEQUENCES; seq++) {
            long seed = base + seq * 7919L + engine.ordinal() * 104729L + mode.hashCode();
            runSequence(engine, mode, seed);
        }
    }

    private void runSequence(Engine engine, Set<StandardOpenOption> mode, long seed) throws Exception {
        Random r = new Random(seed);
        byte[] initial = new byte[r.nextInt(4) == 0 ? 0 : r.nextInt(70_000)];
        r.nextBytes(initial);
        Path jdkPath = dir.resolve("jdk-" + seed);
        Path sluicePath = dir.resolve("sluice-" + seed);
        Files.write(jdkPath, initial);
        Files.write(sluicePath, initial);
        String where = "engine " + engine + ", mode " + mode + ", seed " + seed + " (-Dsluice.test.seed to replay), step ";
        List<String> trail = new ArrayList<>();
        try (FileChannel jdk = FileChannel.open(jdkPath, mode);
             FileChannel sluice = SluiceChannels.open(sluicePath, engine, mode)) {
            for (int step = 0; step < STEPS; step++) {
                Op op = randomOp(r, step == STEPS - 10);
                trail.add(op.name);
                String a = outcome(op, jdk);
                String b = outcome(op, sluice);
                assertEquals(a, b, where + step + ": " + op.name + "\nlast steps: "
                        + trail.subList(Math.max(0, trail.size() - 12), trail.size()));
                assertEquals(outcome(Op.of("position", FileChannel::position), jdk),
                        outcome(Op.of("position", FileChannel::position), sluice), where + step + " position after " + op.name);
                assertEquals(outcome(Op.of("size", FileChannel::size), jdk),
                        outcome(Op.of("size", FileChannel::size), sluice), where + step + " size after " + op.name);
                assertEquals(jdk.isOpen(), sluice.isOpen(), where + step + " isOpen after " + op.name);
            }
        }
        assertArrayEquals(Files.readAllBytes(jdkPath), Files.readAllBytes(sluicePath), where + "end: file contents");
        Files.delete(jdkPath);
        Files.delete(sluicePath);
    }

    /** One operation with its arguments drawn; applying it builds fresh, equal buffers for each channel. */
    record Op(String name, ChannelCall call) {
        static Op of(String name, ChannelCall call) {
            return new Op(name, call);
        }
    }

    @FunctionalInterface
    interface ChannelCall {
        Object apply(FileChannel ch) throws Exception;
    }

    private static String outcome(Op op, FileChannel ch) {
        try {
            return "returns " + op.call.apply(ch);
        } catch (Exception e) {
            return "throws " + e.getClass().getName();
        }
    }

    private static Op randomOp(Random r, boolean close) {
        if (close) {
            return Op.of("close", ch -> {
                ch.close();
                return null;
            });
        }
        int kind = r.nextInt(100);
        long pos = position(r);
        int len = length(r);
        boolean direct = r.nextBoolean();
        long seed = r.nextLong();
        if (kind < 15) {
            boolean readOnly = r.nextInt(20) == 0;
            return Op.of("read(buf " + len + (direct ? " direct" : "") + (readOnly ? " read-only" : "") + ")", ch -> {
                ByteBuffer b = buffer(len, direct, readOnly, seed);
                int n = ch.read(b);
                return n + " " + describe(b);
            });
        }
        if (kind < 30) {
            return Op.of("read(buf " + len + (direct ? " direct" : "") + ", " + pos + ")", ch -> {
                ByteBuffer b = buffer(len, direct, false, seed);
                int n = ch.read(b, pos);
                return n + " " + describe(b);
            });
        }
        if (kind < 36) {
            int count = r.nextInt(4);
            int offset = r.nextInt(2);
            int[] lens = r.ints(count + offset + 1, 0, 5000).toArray();
            return Op.of("read(bufs " + Arrays.toString(lens) + ", " + offset + ", " + count + ")", ch -> {
                ByteBuffer[] bs = new ByteBuffer[lens.length];
                for (int i = 0; i < bs.length; i++) {
                    bs[i] = buffer(lens[i], direct, false, seed + i);
                }
                long n = ch.read(bs, offset, count);
                StringBuilder sb = new StringBuilder().append(n);
                for (ByteBuffer b : bs) {
                    sb.append(' ').append(describe(b));
                }
                return sb.toString();
            });
        }
        if (kind < 48) {
            return Op.of("write(buf " + len + ")", ch -> {
                ByteBuffer b = buffer(len, direct, false, seed);
                return ch.write(b) + " " + describe(b);
            });
        }
        if (kind < 60) {
            return Op.of("write(buf " + len + ", " + pos + ")", ch -> {
                ByteBuffer b = buffer(len, direct, false, seed);
                return ch.write(b, pos) + " " + describe(b);
            });
        }
        if (kind < 65) {
            int count = r.nextInt(4);
            int[] lens = r.ints(count, 0, 5000).toArray();
            return Op.of("write(bufs " + Arrays.toString(lens) + ")", ch -> {
                ByteBuffer[] bs = new ByteBuffer[lens.length];
                for (int i = 0; i < bs.length; i++) {
                    bs[i] = buffer(lens[i], direct, false, seed + i);
                }
                return ch.write(bs, 0, count);
            });
        }
        if (kind < 72) {
            return Op.of("position(" + pos + ")", ch -> {
                ch.position(pos);
                return null;
            });
        }
        if (kind < 77) {
            return Op.of("truncate(" + pos + ")", ch -> {
                ch.truncate(pos);
                return null;
            });
        }
        if (kind < 79) {
            boolean meta = r.nextBoolean();
            return Op.of("force(" + meta + ")", ch -> {
                ch.force(meta);
                return null;
            });
        }
        if (kind < 84) {
            long count = r.nextInt(10) == 0 ? -1 : len * 3L;
            return Op.of("transferTo(" + pos + ", " + count + ")", ch -> {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                long n = ch.transferTo(pos, count, Channels.newChannel(out));
                return n + " " + HexFormat.of().formatHex(digest(out.toByteArray()));
            });
        }
        if (kind < 89) {
            long count = r.nextInt(10) == 0 ? -1 : len * 2L;
            int available = len;
            return Op.of("transferFrom(" + available + " bytes, " + pos + ", " + count + ")", ch -> {
                byte[] data = new byte[available];
                new Random(seed).nextBytes(data);
                return ch.transferFrom(Channels.newChannel(new ByteArrayInputStream(data)), pos, count);
            });
        }
        if (kind < 94) {
            MapMode[] modes = {MapMode.READ_ONLY, MapMode.READ_WRITE, MapMode.PRIVATE};
            MapMode mode = modes[r.nextInt(3)];
            long size = r.nextInt(10) == 0 ? -1 : len;
            boolean arena = r.nextBoolean();
            return Op.of("map(" + mode + ", " + pos + ", " + size + (arena ? ", arena" : "") + ")", ch -> {
                if (arena) {
                    try (Arena a = Arena.ofConfined()) {
                        MemorySegment s = ch.map(mode, pos, size, a);
                        byte[] got = s.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
                        if (mode == MapMode.READ_WRITE && got.length > 0) {
                            s.set(java.lang.foreign.ValueLayout.JAVA_BYTE, 0, (byte) 0x5a);
                        }
                        return HexFormat.of().formatHex(digest(got));
                    }
                }
                MappedByteBuffer m = ch.map(mode, pos, size);
                byte[] got = new byte[m.remaining()];
                m.get(got);
                if (mode == MapMode.READ_WRITE && got.length > 0) {
                    m.put(0, (byte) 0x5a);
                }
                return HexFormat.of().formatHex(digest(got));
            });
        }
        boolean shared = r.nextBoolean();
        long size = r.nextInt(10) == 0 ? -1 : len;
        boolean blocking = r.nextBoolean();
        return Op.of((blocking ? "lock(" : "tryLock(") + pos + ", " + size + ", " + shared + ")", ch -> {
            FileLock l = blocking ? ch.lock(pos, size, shared) : ch.tryLock(pos, size, shared);
            if (l == null) {
                return "null";
            }
            String s = l.position() + " " + l.size() + " " + l.isShared() + " " + l.isValid() + " " + (l.channel() == ch);
            l.release();
            return s + " " + l.isValid();
        });
    }

    private static long position(Random r) {
        int k = r.nextInt(20);
        if (k == 0) {
            return -1 - r.nextInt(3);
        }
        if (k == 1) {
            return 200_000 + r.nextInt(10_000); // past the end
        }
        return r.nextInt(80_000);
    }

    private static int length(Random r) {
        int k = r.nextInt(10);
        if (k == 0) {
            return 0;
        }
        if (k == 1) {
            return 300_000 + r.nextInt(100_000); // beyond a bounce buffer
        }
        return r.nextInt(9000);
    }

    private static ByteBuffer buffer(int len, boolean direct, boolean readOnly, long seed) {
        byte[] fill = new byte[len];
        new Random(seed).nextBytes(fill);
        ByteBuffer b = direct ? ByteBuffer.allocateDirect(len) : ByteBuffer.allocate(len);
        b.put(fill).flip();
        // Some room around the bytes, so a call's use of position and limit shows.
        if (len > 2) {
            b.position(1).limit(len - 1);
        }
        return readOnly ? b.asReadOnlyBuffer() : b;
    }

    private static String describe(ByteBuffer b) {
        ByteBuffer all = b.duplicate().clear();
        byte[] bytes = new byte[all.remaining()];
        all.get(bytes);
        return b.position() + "/" + b.limit() + " " + HexFormat.of().formatHex(digest(bytes));
    }

    private static byte[] digest(byte[] bytes) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
