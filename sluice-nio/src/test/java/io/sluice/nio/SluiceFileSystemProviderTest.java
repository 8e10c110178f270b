package io.sluice.nio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.Engine;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SluiceFileSystemProviderTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Engine.class)
    void regularFilesGetSluiceChannelsAndStreams(Engine engine) throws Exception {
        Assumptions.assumeTrue(engine.isAvailable());
        FileSystem fs = SluiceFileSystemProvider.newFileSystem(engine);
        Path p = fs.getPath(dir.toString(), "a.txt");
        assertInstanceOf(SluicePath.class, p);
        try (OutputStream out = Files.newOutputStream(p)) {
            out.write("hello, sluice".getBytes(StandardCharsets.US_ASCII));
        }
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            SluiceFileChannel s = assertInstanceOf(SluiceFileChannel.class, ch);
            assertEquals(engine, s.file().engine());
            assertEquals(13, ch.size());
        }
        try (SeekableByteChannel ch = Files.newByteChannel(p, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            assertInstanceOf(SluiceFileChannel.class, ch);
            ch.write(ByteBuffer.wrap("!".getBytes(StandardCharsets.US_ASCII)));
        }
        try (InputStream in = Files.newInputStream(p)) {
            assertEquals("hello, sluice!", new String(in.readAllBytes(), StandardCharsets.US_ASCII));
        }
        assertEquals("hello, sluice!", Files.readString(p));
        assertArrayEquals(Files.readAllBytes(dir.resolve("a.txt")), Files.readAllBytes(p));
        assertEquals(dir.resolve("a.txt").toFile(), p.toFile());
    }

    @Test
    void everythingElseIsThePlatforms() throws Exception {
        FileSystem fs = SluiceFileSystemProvider.newFileSystem(Engine.CHANNEL);
        Path d = fs.getPath(dir.toString());
        Path sub = Files.createDirectory(d.resolve("sub"));
        Files.writeString(sub.resolve("x"), "x");
        Files.copy(sub.resolve("x"), sub.resolve("y"));
        Files.move(sub.resolve("y"), sub.resolve("z"));
        try (Stream<Path> s = Files.list(sub)) {
            List<Path> names = s.map(Path::getFileName).map(Path::toString).sorted().map(fs::getPath).toList();
            assertEquals(List.of(fs.getPath("x"), fs.getPath("z")), names);
        }
        try (Stream<Path> s = Files.walk(d)) {
            assertTrue(s.allMatch(p -> p.getFileSystem() == fs), "walked paths stay in the file system");
        }
        // A directory's channel is the platform's, as its attributes are.
        try (FileChannel ch = FileChannel.open(sub)) {
            assertFalse(ch instanceof SluiceFileChannel);
        }
        assertTrue(Files.isDirectory(sub));
        assertEquals(1, Files.size(sub.resolve("x")));
        // Attributes at creation are the platform's to set.
        Path withPerms = sub.resolve("perms");
        try (SeekableByteChannel ch = Files.newByteChannel(withPerms, java.util.Set.of(StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
            assertFalse(ch instanceof SluiceFileChannel);
        }
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(withPerms)));
        Files.delete(withPerms);
        assertTrue(Files.deleteIfExists(sub.resolve("z")));
        assertThrows(java.nio.file.NoSuchFileException.class, () -> Files.newByteChannel(sub.resolve("missing")));
    }

    @Test
    void theEngineComesFromTheEnvironmentMap() throws Exception {
        SluiceFileSystemProvider provider = new SluiceFileSystemProvider(FileSystems.getDefault().provider());
        try (FileSystem fs = provider.newFileSystem(java.net.URI.create("file:///"), Map.of("sluice.engine", "mmap"))) {
            Path p = fs.getPath(dir.toString(), "m");
            Files.write(p, new byte[100]);
            try (FileChannel ch = FileChannel.open(p)) {
                assertEquals(Engine.MMAP, ((SluiceFileChannel) ch).file().engine());
            }
        }
        assertThrows(IllegalArgumentException.class,
                () -> provider.newFileSystem(java.net.URI.create("file:///"), Map.of("sluice.engine", "nope")));
    }

    /** The JDK's own hook, in a JVM of its own: an unchanged program's Path.of and Files calls reach Sluice. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void worksAsTheDefaultProvider(Engine engine) throws Exception {
        Assumptions.assumeTrue(engine.isAvailable());
        Path out = dir.resolve("child.out");
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process p = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-Xmx256m",
                "-Djava.nio.file.spi.DefaultFileSystemProvider=" + SluiceFileSystemProvider.class.getName(),
                "-D" + SluiceFileSystemProvider.ENGINE_PROPERTY + "=" + engine,
                "-cp", System.getProperty("java.class.path"), DefaultProviderChild.class.getName(), dir.toString())
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child did not finish");
        String said = Files.readString(out);
        assertEquals(0, p.exitValue(), said);
        assertEquals("provider=" + SluiceFileSystemProvider.class.getName() + "\nchannel=" + SluiceFileChannel.class.getName()
                + " engine=" + engine + "\ncontent=written by an unchanged program\n", said);
    }
}
