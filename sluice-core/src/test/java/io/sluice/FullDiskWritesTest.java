package io.sluice;

import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A write that fails because the file system is full leaves the file as it was: its size and its bytes, while open
 * and after close, on every engine and through {@link MappedWriter}. The file system is a 1 MiB tmpfs mounted for
 * the test (root only; skipped elsewhere), filled to the last page.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FullDiskWritesTest {
    private static final int KEPT = 64 * 1024;
    private static final int WRITE_LEN = 256 * 1024;

    @TempDir
    Path dir;
    private Path small;
    private boolean mounted;

    @BeforeEach
    void mountASmallFileSystem() throws Exception {
        small = Files.createDirectory(dir.resolve("small"));
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=1m", "sluice-full", small.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        mounted = p.waitFor() == 0;
        assumeTrue(mounted, "needs to mount a tmpfs (root): " + out.strip());
    }

    @AfterEach
    void unmount() throws Exception {
        if (mounted) {
            new ProcessBuilder("umount", small.toString()).inheritIO().start().waitFor();
        }
    }

    /** The file under test, {@value #KEPT} bytes of pattern; then the rest of the file system filled. */
    private Path fullFileSystemWithFile() throws IOException {
        Path f = Pattern.file(small.resolve("f"), KEPT);
        try (FileChannel c = FileChannel.open(small.resolve("fill"), StandardOpenOption.CREATE_NEW, WRITE)) {
            for (int chunk : new int[] {64 * 1024, 4096, 1}) {
                ByteBuffer b = ByteBuffer.allocateDirect(chunk);
                try {
                    for (;;) {
                        c.write(b.clear());
                    }
                } catch (IOException full) {
                    if (!String.valueOf(full.getMessage()).contains("No space")) {
                        throw full;
                    }
                }
            }
        }
        return f;
    }

    private static void assertUnchanged(Path f, String when) throws IOException {
        assertEquals(KEPT, Files.size(f), "size " + when);
        assertArrayEquals(Pattern.bytes(0, KEPT), Files.readAllBytes(f), "bytes " + when);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aWritePastTheEndThatFindsNoSpaceLeavesTheFileAsItWas(Engine engine) throws Exception {
        assumeTrue(engine.isAvailable(), engine + " unavailable here");
        Path f = fullFileSystemWithFile();
        byte[] bytes = Pattern.bytes(KEPT, WRITE_LEN);
        try (PositionalFile file = PositionalFile.open(f, engine, WRITE)) {
            IOException e = assertThrows(IOException.class, () -> file.writeFully(ByteBuffer.wrap(bytes), KEPT));
            assertUnchanged(f, "after the failed write: " + e);
            assertEquals(KEPT, file.size());
            byte[] back = new byte[KEPT];
            assertEquals(KEPT, file.read(back, 0));
            assertArrayEquals(Pattern.bytes(0, KEPT), back);
        }
        assertUnchanged(f, "after close");
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aMappedWriterWriteThatFindsNoSpaceIsCutOffAtClose(boolean populate) throws Exception {
        Path f = fullFileSystemWithFile();
        try (MappedWriter w = MappedWriter.open(f, -1, WRITE_LEN, WRITE)) {
            Field p = MappedWriter.class.getDeclaredField("populate");
            p.setAccessible(true);
            // false: the pages are faulted in by the copies (no native access, or a kernel before 5.14)
            p.setBoolean(w, populate && p.getBoolean(w));
            assertThrows(IOException.class, () -> w.write(Pattern.bytes(KEPT, WRITE_LEN)));
            assertEquals(KEPT, w.position());
        }
        assertUnchanged(f, "after close");
    }
}
