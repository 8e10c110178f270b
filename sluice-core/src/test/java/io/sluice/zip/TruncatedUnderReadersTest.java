package io.sluice.zip;

import static io.sluice.zip.ConcurrentZipFileTest.random;
import static io.sluice.zip.ConcurrentZipFileTest.text;
import static io.sluice.zip.ZipBuilder.DEFLATED;
import static io.sluice.zip.ZipBuilder.STORED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another process truncates the archive while many threads read it: every read of a lost page must fail with an
 * {@link IOException} naming the archive, and the JVM must live on. Before the readers copied out of the mapping,
 * zlib's {@code inflate_fast} and the CRC-32 routine read the mapping directly and SIGBUS ended the JVM.
 *
 * <p>The readers run in a child JVM, so that a crash is this test's failure and not the end of the test run. The
 * child truncates with the {@code truncate} program, a process of its own, as in the bug report.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TruncatedUnderReadersTest {
    private static final int CHILD_FAILED = 3;

    @TempDir
    Path dir;

    /** Stored and deflated entries of a MiB or two, interleaved, so any cut lands in the data of some entry. */
    private ZipBuilder.Built archive() {
        ZipBuilder b = new ZipBuilder();
        for (int i = 0; i < 4; i++) {
            b.add("stored" + i, random(1 << 20, i), STORED).add("deflated" + i, text(2 << 20, i), DEFLATED);
        }
        return b.build();
    }

    @Test
    void readersGetIOExceptionsAndTheJvmLivesWhenTheArchiveIsCut() throws Exception {
        ZipBuilder.Built b = archive();
        long[] cuts = {
            b.dataStarts()[3] + 200_000,           // in the middle of a deflated entry's compressed bytes
            b.dataStarts()[4] + (1 << 19) + 17,    // in the middle of a stored entry
            b.localHeaders()[3] + 10,              // inside a local header
        };
        List<String> log = new ArrayList<>();
        for (long cut : cuts) {
            Path p = Files.write(dir.resolve("cut-" + cut + ".zip"), b.bytes());
            String out = runChild(p, cut, log);
            // Every entry past the cut was read at least once after it, so some reads must have met a lost page.
            assertTrue(out.contains("cut by another process"), "no read met the cut at " + cut + ":\n" + out);
            Files.delete(p);
        }
    }

    /** Runs {@link Child} on {@code p}; returns its output, after checking that it neither crashed nor failed. */
    private String runChild(Path p, long cut, List<String> log) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Path out = dir.resolve("child.out");
        List<String> cmd = List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xshare:auto", "-XX:+UseSerialGC",
                "-Xmx256m", "-XX:-CreateCoredumpOnCrash", "-XX:ErrorFile=" + dir.resolve("hs_err_%p.log"),
                "-cp", System.getProperty("java.class.path"), Child.class.getName(), p.toString(),
                Long.toString(cut));
        Process child = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!child.waitFor(60, TimeUnit.SECONDS)) {
            child.destroyForcibly().waitFor();
            fail("the child reading " + p + " did not finish within 60 s");
        }
        String text = Files.readString(out, StandardCharsets.UTF_8);
        log.add("cut at " + cut + ": exit " + child.exitValue());
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> crashes = s.filter(f -> f.getFileName().toString().startsWith("hs_err")).toList();
            if (!crashes.isEmpty()) {
                String report = Files.readString(crashes.get(0));
                fail("the JVM reading " + p + " crashed when it was cut at " + cut + " (exit " + child.exitValue()
                        + "):\n" + report.substring(0, Math.min(2000, report.length())));
            }
        }
        assertEquals(0, child.exitValue(), () -> "cut at " + cut + ", child output:\n" + text);
        return text;
    }

    /**
     * Reads every entry of the archive on four threads, each in a different way, round after round; cuts the file
     * to the given length with {@code truncate} after a while; and stops once every thread has made one full round
     * that started after the cut. Exits with {@link #CHILD_FAILED} if anything but an {@link IOException} naming
     * the archive came out of a read.
     */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            Path p = Path.of(args[0]);
            long cut = Long.parseLong(args[1]);
            AtomicBoolean isCut = new AtomicBoolean();
            AtomicLong good = new AtomicLong();
            AtomicLong failed = new AtomicLong();
            Queue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
            Queue<String> messages = new ConcurrentLinkedQueue<>();
            try (ConcurrentZipFile zip = ConcurrentZipFile.open(p)) {
                Thread[] threads = new Thread[4];
                for (int t = 0; t < threads.length; t++) {
                    int way = t;
                    threads[t] = new Thread(() -> {
                        for (int round = 0; ; round++) {
                            boolean last = isCut.get();
                            for (int k = 0; k < zip.size(); k++) {
                                ConcurrentZipFile.Entry e = zip.entry((k + way * 5) % zip.size());
                                try {
                                    read(zip, e, (way + round) % 4);
                                    good.incrementAndGet();
                                } catch (IOException x) {
                                    failed.incrementAndGet();
                                    if (!x.getMessage().startsWith(p + ": ")) {
                                        unexpected.add(x);
                                    } else if (messages.size() < 5) {
                                        messages.add(x.getMessage());
                                    }
                                } catch (Throwable x) {
                                    unexpected.add(x);
                                }
                            }
                            if (last) {
                                return;
                            }
                        }
                    });
                    threads[t].start();
                }
                Thread.sleep(200); // long enough for the JIT to compile the copies
                Process truncate = new ProcessBuilder("truncate", "-s", Long.toString(cut), p.toString())
                        .inheritIO().start();
                if (truncate.waitFor() != 0) {
                    throw new IOException("truncate failed: exit " + truncate.exitValue());
                }
                isCut.set(true);
                for (Thread t : threads) {
                    t.join();
                }
            }
            System.out.println("good " + good + ", failed " + failed + ", unexpected " + unexpected.size());
            messages.forEach(System.out::println);
            for (Throwable x : unexpected) {
                x.printStackTrace(System.out);
            }
            System.exit(unexpected.isEmpty() ? 0 : CHILD_FAILED);
        }

        private static void read(ConcurrentZipFile zip, ConcurrentZipFile.Entry e, int way) throws IOException {
            switch (way) {
                case 0 -> zip.verify(e);
                case 1 -> zip.readAllBytes(e);
                case 2 -> {
                    try (InputStream in = zip.getInputStream(e)) {
                        in.transferTo(OutputStream.nullOutputStream());
                    }
                }
                default -> {
                    try (InputStream in = zip.getInputStream(e)) {
                        byte[] piece = new byte[1000];
                        while (in.readNBytes(piece, 0, piece.length) > 0) {
                            // the stream checks the CRC at the end
                        }
                    }
                }
            }
        }
    }
}
