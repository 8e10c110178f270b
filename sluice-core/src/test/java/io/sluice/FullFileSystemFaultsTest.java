package io.sluice;

import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * SIGBUS that no remapping cures: a full file system. Touching a hole of a file on a full tmpfs, to read or to write,
 * needs a page the file system cannot give, so the kernel raises SIGBUS on every try. Every path that touches mapped
 * memory (MMAP reads and writes of every kind of memory, vectored calls, {@link MappedWriter}, {@link ParallelScan},
 * {@link BigFiles#sum}) must report it as an {@link IOException} naming the file, whether its code runs interpreted
 * (cold) or compiled (hot, where HotSpot delivers the error late), and with or without native access (which decides
 * how Sluice makes HotSpot deliver it).
 *
 * <p>Each case runs in a child JVM inside {@code unshare -Urm}: an unprivileged user namespace with its own mount
 * namespace, where a 4 MiB tmpfs is mounted without root and without touching the machine. Where such namespaces are
 * not allowed, the test is skipped.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FullFileSystemFaultsTest {
    static final long KiB = 1L << 10;
    /** Calls that make HotSpot compile a path: well past its thresholds for C1 and C2. */
    static final int WARM_CALLS = 20_000;

    @TempDir
    Path dir;

    static boolean canMountInANamespace(Path at) throws InterruptedException {
        try {
            Process p = new ProcessBuilder("unshare", "-Urm", "sh", "-c", "mount -t tmpfs -o size=1m sluice \"$1\"",
                    "sh", at.toString()).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    @ParameterizedTest
    @CsvSource({"cold, true", "hot, true", "hot, false"})
    void everyMappedPathReportsSigbusAsAnIOException(String mode, boolean nativeAccess) throws Exception {
        Path small = Files.createDirectory(dir.resolve("small"));
        assumeTrue(canMountInANamespace(small), "needs unprivileged user and mount namespaces (unshare -Urm)");
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> cmd = new ArrayList<>(List.of("unshare", "-Urm", "sh", "-c",
                "mount -t tmpfs -o size=4m sluice \"$1\" && shift && exec \"$@\"", "sh", small.toString(), java));
        if (nativeAccess) {
            cmd.add("--enable-native-access=ALL-UNNAMED");
        }
        if (mode.equals("cold")) {
            cmd.add("-Xint");
        }
        cmd.addAll(List.of("-Xmx256m", "-cp", System.getProperty("java.class.path"), Child.class.getName(), mode,
                small.toString(), Files.createDirectory(dir.resolve("warm")).toString()));
        Process child = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes());
        assertEquals(0, child.waitFor(), out);
        assertTrue(out.contains("all paths checked"), out);
    }

    /** The child JVM: fills the small file system, then touches holes every way there is. */
    static final class Child {
        static Path holes;
        static final long DATA = 256 * KiB;
        static final long HOLE = 64 * KiB;

        public static void main(String[] args) throws Exception {
            boolean hot = args[0].equals("hot");
            Path small = Path.of(args[1]);
            Path warmDir = Path.of(args[2]);
            holes = Pattern.file(small.resolve("holes"), DATA);
            try (RandomAccessFile raf = new RandomAccessFile(holes.toFile(), "rw")) {
                raf.setLength(DATA + HOLE);
            }
            Path log = small.resolve("log");
            MappedWriter writer = MappedWriter.open(log, 0, 1L << 20, CREATE_NEW, WRITE);
            writer.write(new byte[10_000]);
            fill(small.resolve("fill"));

            Path warm = hot ? Pattern.file(warmDir.resolve("data"), DATA + HOLE) : holes;
            mappedFile(hot, warm);
            mappedWriter(hot, writer, log, warmDir.resolve("log"));
            scans(hot, warm);
            System.out.println("all paths checked");
        }

        static void fill(Path p) throws IOException {
            try (FileChannel c = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer chunk = ByteBuffer.allocateDirect(64 * 1024);
                for (;;) {
                    c.write(chunk.clear());
                }
            } catch (IOException full) {
                if (!String.valueOf(full.getMessage()).contains("No space")) {
                    throw full;
                }
            }
        }

        static void assertSigbus(String what, Executable call) {
            IOException e = assertThrows(IOException.class, call, what);
            assertTrue(e.getMessage().contains(holes.toString()) && e.getMessage().contains("SIGBUS")
                    && e.getMessage().contains("pos="), what + ": " + e.getMessage());
        }

        // Plain loops over each public call, as a caller writes them: one method for warm-up and the real call, so
        // both run the same compiled code.

        static long readArrays(PositionalFile f, long pos, int times, byte[] into) throws IOException {
            long n = 0;
            for (int i = 0; i < times; i++) {
                n += f.read(into, pos + i * 8L);
            }
            return n;
        }

        static long readSegments(PositionalFile f, long pos, int times, MemorySegment into) throws IOException {
            long n = 0;
            for (int i = 0; i < times; i++) {
                n += f.read(into, pos + i * 8L);
            }
            return n;
        }

        static long readBuffers(PositionalFile f, long pos, int times, ByteBuffer into) throws IOException {
            long n = 0;
            for (int i = 0; i < times; i++) {
                n += f.read(into.clear(), pos + i * 8L);
            }
            return n;
        }

        static long readVectors(PositionalFile f, long pos, int times, MemorySegment a, MemorySegment b)
                throws IOException {
            long n = 0;
            for (int i = 0; i < times; i++) {
                n += f.read(pos + i * 8L, a, b);
            }
            return n;
        }

        static long writeArrays(PositionalFile f, long pos, int times, byte[] from) throws IOException {
            long n = 0;
            for (int i = 0; i < times; i++) {
                n += f.write(from, 0, from.length, pos + i * 8L);
            }
            return n;
        }

        static long writeSegments(PositionalFile f, long pos, int times, MemorySegment from) throws IOException {
            long n = 0;
            for (int i = 0; i < times; i++) {
                n += f.write(from, pos + i * 8L);
            }
            return n;
        }

        static long writeBuffers(PositionalFile f, long pos, int times, ByteBuffer from) throws IOException {
            long n = 0;
            for (int i = 0; i < times; i++) {
                n += f.write(from.clear(), pos + i * 8L);
            }
            return n;
        }

        static long writeVectors(PositionalFile f, long pos, int times, MemorySegment a, MemorySegment b)
                throws IOException {
            long n = 0;
            for (int i = 0; i < times; i++) {
                n += f.write(pos + i * 8L, a, b);
            }
            return n;
        }

        static void mappedFile(boolean hot, Path warm) throws IOException {
            try (PositionalFile w = PositionalFile.open(warm, Engine.MMAP, WRITE);
                    PositionalFile f = PositionalFile.open(holes, Engine.MMAP, WRITE);
                    Arena arena = Arena.ofConfined()) {
                byte[] array = new byte[4096];
                MemorySegment a = arena.allocate(3000);
                MemorySegment b = arena.allocate(3000);
                MemorySegment heap = MemorySegment.ofArray(new byte[4096]);
                ByteBuffer direct = ByteBuffer.allocateDirect(4096);
                ByteBuffer onHeap = ByteBuffer.allocate(4096);
                int times = hot ? WARM_CALLS : 0;
                for (int round = 0; round < 2; round++) {
                    // Every kind of memory through the same loop, so its compiled code knows them all.
                    readArrays(w, 0, times, array);
                    readSegments(w, 0, times, round == 0 ? a : heap);
                    readBuffers(w, 0, times, round == 0 ? direct : onHeap);
                    readVectors(w, 0, times, a, b);
                    writeArrays(w, 0, times, array);
                    writeSegments(w, 0, times, round == 0 ? a : heap);
                    writeBuffers(w, 0, times, round == 0 ? direct : onHeap);
                    writeVectors(w, 0, times, a, b);
                }
                long hole = DATA + 1000;
                assertSigbus("read into a byte[]", () -> readArrays(f, hole, 10, array));
                assertSigbus("read into a native segment", () -> readSegments(f, hole, 10, a));
                assertSigbus("read into a heap segment", () -> readSegments(f, hole, 10, heap));
                assertSigbus("read into a direct buffer", () -> readBuffers(f, hole, 10, direct));
                assertSigbus("read into a heap buffer", () -> readBuffers(f, hole, 10, onHeap));
                assertSigbus("vectored read", () -> readVectors(f, hole, 10, a, b));
                assertSigbus("write from a byte[]", () -> writeArrays(f, hole, 10, array));
                assertSigbus("write from a native segment", () -> writeSegments(f, hole, 10, a));
                assertSigbus("write from a heap segment", () -> writeSegments(f, hole, 10, heap));
                assertSigbus("write from a direct buffer", () -> writeBuffers(f, hole, 10, direct));
                assertSigbus("write from a heap buffer", () -> writeBuffers(f, hole, 10, onHeap));
                assertSigbus("vectored write", () -> writeVectors(f, hole, 10, a, b));
                // The data before the holes is still there, and the file is still usable.
                MappedFileTest.assertPattern(Dst.NATIVE_SEGMENT.readFully(f, 0, 4096), 4096, 0);
                assertEquals(DATA + HOLE, f.size());
            }
        }

        static void mappedWriter(boolean hot, MappedWriter w, Path log, Path warmLog) throws IOException {
            byte[] record = new byte[100];
            long[] acknowledged = {w.position()};
            if (hot) {
                try (MappedWriter warm = MappedWriter.open(warmLog)) {
                    for (int i = 0; i < WARM_CALLS / 100; i++) {
                        MappedWriterTest.appendRecords(warm, record, 100, new long[1]);
                    }
                }
            }
            IOException e = assertThrows(IOException.class,
                    () -> MappedWriterTest.appendRecords(w, record, 100_000, acknowledged));
            assertTrue(e.getMessage().contains(log.toString()) && e.getMessage().contains("pos=" + acknowledged[0]),
                    e.getMessage());
            assertEquals(acknowledged[0], w.position(), "the failed write is not counted");
            w.close();
            assertEquals(acknowledged[0], Files.size(log), "close keeps exactly the bytes acknowledged");
        }

        static long countLines(ParallelScan scan, Path p) throws IOException {
            return scan.scan(p, () -> new long[1], (acc, records, position) ->
                    acc[0] += ParallelScan.count(records, (byte) 0), (x, y) -> {
                        x[0] += y[0];
                        return x;
                    })[0];
        }

        static void scans(boolean hot, Path warm) throws IOException {
            ParallelScan scan = ParallelScan.delimitedBy((byte) 0).withThreads(2).withSegmentSize(64 * KiB);
            for (int i = 0; hot && i < WARM_CALLS / 40; i++) {
                countLines(scan, warm);
                BigFiles.sum(warm, 2);
            }
            assertSigbus("scan", () -> countLines(scan, holes));
            assertSigbus("sum", () -> BigFiles.sum(holes, 2));
        }
    }
}
