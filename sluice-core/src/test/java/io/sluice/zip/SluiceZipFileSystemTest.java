package io.sluice.zip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link SluiceZipFileSystem} against the JDK's zip file system ({@code FileSystems.newFileSystem(path)}) on the same
 * archives: real jars from the local Maven repository and archives written here with explicit and implied
 * directories and awkward names. Listings, attributes and bytes must agree.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SluiceZipFileSystemTest {
    @TempDir
    Path tmp;

    /** What the file system says about one path: kind, size, time and, for files, a digest of the bytes. */
    static String describe(Path p, boolean withBytes) throws IOException {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
        StringBuilder b = new StringBuilder();
        b.append(a.isDirectory() ? "dir" : a.isRegularFile() ? "file" : "other");
        if (a.isDirectory()) {
            try (Stream<Path> children = Files.list(p)) {
                b.append(" children ").append(children.map(c -> c.getFileName().toString()).sorted().toList());
            }
        } else {
            b.append(" size ").append(a.size()).append(" modified ").append(a.lastModifiedTime().toMillis())
                    .append(" accessed ").append(a.lastAccessTime().toMillis()).append(" created ")
                    .append(a.creationTime().toMillis());
            if (withBytes) {
                b.append(" bytes ").append(java.util.Arrays.hashCode(Files.readAllBytes(p)));
            }
        }
        return b.toString();
    }

    /** Every path under the root, walked, with its description. */
    static Map<String, String> walk(FileSystem fs, boolean withBytes) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> all = Files.walk(fs.getPath("/"))) {
            for (Path p : all.toList()) {
                out.put(p.toString(), describe(p, withBytes));
            }
        }
        return out;
    }

    static void sameAsJdk(Path archive, boolean withBytes) throws IOException {
        try (FileSystem jdk = FileSystems.newFileSystem(archive);
                SluiceZipFileSystem ours = SluiceZipFileSystem.open(archive)) {
            // The JDK's provider comes first among the installed ones, so this is the reference, not ours again.
            assertEquals("jar", jdk.provider().getScheme());
            Map<String, String> expected = walk(jdk, withBytes);
            Map<String, String> got = walk(ours, withBytes);
            assertEquals(expected.keySet(), got.keySet(), archive + ": paths");
            for (String p : expected.keySet()) {
                if (p.equals("/")) {
                    continue;
                }
                String e = expected.get(p);
                String g = got.get(p);
                if (e.startsWith("dir")) {
                    // An implied directory's time is not the archive's business; compare what the entries say.
                    assertEquals(e, g, archive + ": " + p);
                } else {
                    assertEquals(e, g, archive + ": " + p);
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"picocli", "h2-mvstore", "jruby-complete", "bcprov"})
    void realJarsAsTheJdkZipFileSystem(String which) throws IOException {
        sameAsJdk(SluiceJarFileTest.real(which), !which.equals("jruby-complete"));
    }

    /** Explicit and implied directories, an empty directory, stored and deflated files, awkward names. */
    Path synthesized() throws IOException {
        byte[] big = new byte[300_000];
        new Random(27).nextBytes(big);
        for (int i = 0; i < big.length; i += 3) {
            big[i] = 'x';
        }
        ZipBuilder z = new ZipBuilder()
                .add("dir/", new byte[0], ZipBuilder.STORED)
                .add("dir/a.txt", "a".getBytes(StandardCharsets.UTF_8), ZipBuilder.DEFLATED)
                .add("implied/deep/er/file.bin", big, ZipBuilder.STORED)
                .add("implied/deep/deflated.bin", big, ZipBuilder.DEFLATED)
                .add("empty dir/", new byte[0], ZipBuilder.STORED)
                .add("with space/and ü ß €.txt", "unicode".getBytes(StandardCharsets.UTF_8), ZipBuilder.DEFLATED)
                .add("hash#percent%20question?.txt", "odd".getBytes(StandardCharsets.UTF_8), ZipBuilder.STORED)
                .add("empty.txt", new byte[0], ZipBuilder.DEFLATED)
                .add("later/", new byte[0], ZipBuilder.STORED)
                .add("later/x/y.txt", "y".getBytes(StandardCharsets.UTF_8), ZipBuilder.STORED)
                .add("top.txt", "top".getBytes(StandardCharsets.UTF_8), ZipBuilder.DEFLATED);
        return Files.write(tmp.resolve("synthesized.zip"), z.build().bytes());
    }

    @Test
    void synthesizedArchiveAsTheJdkZipFileSystem() throws IOException {
        sameAsJdk(synthesized(), true);
    }

    /** An NTFS extra field (0x000a) with three times in 100 ns units since 1601. */
    static byte[] ntfsTimes(long modified, long accessed, long created) {
        ByteBuffer b = ByteBuffer.allocate(36).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putShort((short) 0x000a).putShort((short) 32).putInt(0).putShort((short) 1).putShort((short) 24);
        for (long millis : new long[] {modified, accessed, created}) {
            b.putLong((millis + 11_644_473_600_000L) * 10_000 + 1234);
        }
        return b.array();
    }

    /** Times finer than the MS-DOS fields' two seconds: extended timestamps (JDK's writer) and NTFS fields. */
    @Test
    void timesFromExtraFieldsAsTheJdkZipFileSystem() throws IOException {
        Path written = tmp.resolve("times.zip");
        try (java.util.zip.ZipOutputStream out = new java.util.zip.ZipOutputStream(Files.newOutputStream(written))) {
            java.util.zip.ZipEntry e = new java.util.zip.ZipEntry("odd-second.txt");
            e.setLastModifiedTime(java.nio.file.attribute.FileTime.fromMillis(1_714_903_811_000L));
            e.setLastAccessTime(java.nio.file.attribute.FileTime.fromMillis(1_714_903_999_000L));
            e.setCreationTime(java.nio.file.attribute.FileTime.fromMillis(1_600_000_001_000L));
            out.putNextEntry(e);
            out.write("odd".getBytes(StandardCharsets.UTF_8));
            java.util.zip.ZipEntry m = new java.util.zip.ZipEntry("only-modified.txt");
            m.setLastModifiedTime(java.nio.file.attribute.FileTime.fromMillis(1_714_903_813_000L));
            out.putNextEntry(m);
            java.util.zip.ZipEntry dos = new java.util.zip.ZipEntry("dos-only.txt");
            dos.setTime(1_714_903_814_000L);
            out.putNextEntry(dos);
        }
        sameAsJdk(written, true);
        Path ntfs = Files.write(tmp.resolve("ntfs.zip"), new ZipBuilder()
                .addWithExtra("ntfs.txt".getBytes(StandardCharsets.UTF_8), true, new byte[] {1},
                        ntfsTimes(1_714_903_811_123L, 1_714_903_999_456L, 1_600_000_001_789L))
                .add("plain.txt", new byte[] {2}, ZipBuilder.STORED)
                .build().bytes());
        sameAsJdk(ntfs, true);
        try (SluiceZipFileSystem ours = SluiceZipFileSystem.open(written)) {
            assertEquals(1_714_903_811_000L, Files.getLastModifiedTime(ours.getPath("/odd-second.txt")).toMillis());
        }
    }

    @Test
    void pathsAsTheJdkZipFileSystem() throws IOException {
        Path archive = synthesized();
        try (FileSystem jdk = FileSystems.newFileSystem(archive);
                SluiceZipFileSystem ours = SluiceZipFileSystem.open(archive)) {
            assertEquals("jar", jdk.provider().getScheme());
            for (String s : List.of("/", "dir", "/dir/a.txt", "dir/../top.txt", "./implied/deep", "/implied/deep/",
                    "with space")) {
                Path j = jdk.getPath(s);
                Path o = ours.getPath(s);
                assertEquals(j.toString(), o.toString(), s);
                assertEquals(j.isAbsolute(), o.isAbsolute(), s);
                assertEquals(j.getNameCount(), o.getNameCount(), s);
                assertEquals(String.valueOf(j.getFileName()), String.valueOf(o.getFileName()), s);
                assertEquals(String.valueOf(j.getParent()), String.valueOf(o.getParent()), s);
                assertEquals(j.toAbsolutePath().toString(), o.toAbsolutePath().toString(), s);
                assertEquals(j.normalize().toString(), o.normalize().toString(), s);
                assertEquals(Files.exists(j), Files.exists(o), s);
                assertEquals(Files.isDirectory(j), Files.isDirectory(o), s);
                assertEquals(jdk.getPath("/implied").relativize(j.toAbsolutePath().normalize()).toString(),
                        ours.getPath("/implied").relativize(o.toAbsolutePath().normalize()).toString(), s);
            }
            assertEquals(jdk.getPathMatcher("glob:**/*.txt").matches(jdk.getPath("/dir/a.txt")),
                    ours.getPathMatcher("glob:**/*.txt").matches(ours.getPath("/dir/a.txt")));
            assertTrue(ours.getPathMatcher("glob:**/*.txt").matches(ours.getPath("/dir/a.txt")));
            assertFalse(Files.exists(ours.getPath("/no/such")));
            assertThrows(NoSuchFileException.class, () -> Files.readAttributes(ours.getPath("/no/such"),
                    BasicFileAttributes.class));
        }
    }

    @Test
    void channelsReadAtAnyPositionAsTheBytesSay() throws IOException {
        Path archive = synthesized();
        try (SluiceZipFileSystem ours = SluiceZipFileSystem.open(archive);
                FileSystem jdk = FileSystems.newFileSystem(archive)) {
            assertEquals("jar", jdk.provider().getScheme());
            for (String name : List.of("/implied/deep/er/file.bin", "/implied/deep/deflated.bin", "/top.txt",
                    "/empty.txt")) {
                byte[] expected = Files.readAllBytes(jdk.getPath(name));
                try (SeekableByteChannel ch = Files.newByteChannel(ours.getPath(name))) {
                    assertEquals(expected.length, ch.size(), name);
                    Random r = new Random(name.hashCode());
                    for (int i = 0; i < 50; i++) {
                        int at = expected.length == 0 ? 0 : r.nextInt(expected.length + 10);
                        int len = r.nextInt(5000);
                        ByteBuffer b = i % 2 == 0 ? ByteBuffer.allocate(len) : ByteBuffer.allocateDirect(len);
                        ch.position(at);
                        int n = ch.read(b);
                        int want = Math.min(len, Math.max(0, expected.length - at));
                        if (at >= expected.length) {
                            assertEquals(-1, n, name + " at " + at);
                            continue;
                        }
                        assertEquals(want, n, name + " at " + at);
                        assertEquals(at + n, ch.position());
                        byte[] got = new byte[n];
                        b.flip().get(got);
                        assertArrayEquals(java.util.Arrays.copyOfRange(expected, at, at + n), got, name + " at " + at);
                    }
                }
                try (InputStream in = Files.newInputStream(ours.getPath(name))) {
                    assertArrayEquals(expected, in.readAllBytes(), name);
                }
            }
        }
    }

    @Test
    void threadsReadOneStoredEntryAtOnce() throws Exception {
        Path archive = synthesized();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (SluiceZipFileSystem ours = SluiceZipFileSystem.open(archive)) {
            Path p = ours.getPath("/implied/deep/er/file.bin");
            byte[] expected = Files.readAllBytes(p);
            List<Future<byte[]>> reads = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                reads.add(pool.submit(() -> {
                    try (SeekableByteChannel ch = Files.newByteChannel(p)) {
                        ByteBuffer all = ByteBuffer.allocate((int) ch.size());
                        while (all.hasRemaining() && ch.read(all) > 0) {
                            // read on
                        }
                        return all.array();
                    }
                }));
            }
            for (Future<byte[]> f : reads) {
                assertArrayEquals(expected, f.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void everyWriteIsRefused() throws IOException {
        Path archive = synthesized();
        byte[] before = Files.readAllBytes(archive);
        try (SluiceZipFileSystem ours = SluiceZipFileSystem.open(archive)) {
            Path top = ours.getPath("/top.txt");
            assertTrue(ours.isReadOnly());
            assertThrows(ReadOnlyFileSystemException.class, () -> Files.writeString(top, "x"));
            assertThrows(ReadOnlyFileSystemException.class, () -> Files.writeString(ours.getPath("/new.txt"), "x"));
            assertThrows(ReadOnlyFileSystemException.class,
                    () -> Files.newByteChannel(top, StandardOpenOption.READ, StandardOpenOption.WRITE));
            assertThrows(ReadOnlyFileSystemException.class, () -> Files.createDirectory(ours.getPath("/d")));
            assertThrows(ReadOnlyFileSystemException.class, () -> Files.delete(top));
            assertThrows(ReadOnlyFileSystemException.class, () -> Files.copy(top, ours.getPath("/copy.txt")));
            assertThrows(ReadOnlyFileSystemException.class, () -> Files.move(top, ours.getPath("/moved.txt")));
            assertThrows(ReadOnlyFileSystemException.class,
                    () -> Files.copy(archive, ours.getPath("/from-outside.zip")));
            assertThrows(ReadOnlyFileSystemException.class,
                    () -> Files.setLastModifiedTime(top, java.nio.file.attribute.FileTime.fromMillis(0)));
            assertFalse(Files.isWritable(top));
            assertTrue(Files.isReadable(top));
            assertThrows(AccessDeniedException.class, () -> ours.provider().checkAccess(top,
                    java.nio.file.AccessMode.WRITE));
            assertThrows(FileSystemException.class, () -> Files.newInputStream(ours.getPath("/dir")));
            assertThrows(NotDirectoryException.class, () -> Files.newDirectoryStream(top).close());
            assertEquals("top", Files.readString(top));
        }
        assertArrayEquals(before, Files.readAllBytes(archive), "the archive is untouched");
    }

    @Test
    void openedByUriAndFoundAgain() throws IOException {
        Path archive = synthesized();
        assertTrue(FileSystemProvider.installedProviders().stream()
                .anyMatch(p -> p.getScheme().equals(SluiceZipFileSystemProvider.SCHEME)), "installed");
        URI uri = URI.create(SluiceZipFileSystemProvider.SCHEME + ":" + archive.toUri());
        try (FileSystem fs = FileSystems.newFileSystem(uri, Map.of())) {
            assertInstanceOf(SluiceZipFileSystem.class, fs);
            assertSame(fs, FileSystems.getFileSystem(uri));
            assertThrows(FileSystemAlreadyExistsException.class, () -> FileSystems.newFileSystem(uri, Map.of()));
            Path p = fs.getPath("/with space/and ü ß €.txt");
            URI entryUri = p.toUri();
            assertTrue(entryUri.toString().startsWith(SluiceZipFileSystemProvider.SCHEME + ":file:"), entryUri.toString());
            assertEquals(p, Path.of(entryUri));
            assertEquals("unicode", Files.readString(Path.of(entryUri)));
            try (DirectoryStream<Path> d = Files.newDirectoryStream(fs.getPath("/"), x -> x.toString().endsWith(".txt"))) {
                List<String> names = new ArrayList<>();
                d.forEach(x -> names.add(x.toString()));
                assertEquals(List.of("/hash#percent%20question?.txt", "/empty.txt", "/top.txt"), names);
            }
        }
        assertThrows(java.nio.file.FileSystemNotFoundException.class, () -> FileSystems.getFileSystem(uri));
    }

    @Test
    void closedFileSystemRefusesAndUnmaps() throws IOException {
        SluiceZipFileSystem ours = SluiceZipFileSystem.open(synthesized());
        Path top = ours.getPath("/top.txt");
        SeekableByteChannel ch = Files.newByteChannel(ours.getPath("/implied/deep/er/file.bin"));
        ours.close();
        assertFalse(ours.isOpen());
        assertFalse(ours.zip().isOpen());
        assertThrows(ClosedFileSystemException.class, () -> Files.readString(top));
        assertThrows(IOException.class, () -> ch.read(ByteBuffer.allocate(10)));
    }

    @Test
    void aNestedJarAsAFileSystem() throws IOException {
        Path outer = tmp.resolve("outer.jar");
        try (java.util.jar.JarOutputStream out = new java.util.jar.JarOutputStream(Files.newOutputStream(outer))) {
            NestedJarTest.putStored(out, "lib/inner.zip", Files.readAllBytes(synthesized()));
        }
        try (ConcurrentZipFile zip = ConcurrentZipFile.open(outer);
                SluiceZipFileSystem nested = SluiceZipFileSystem.of(zip.openNested(zip.getEntry("lib/inner.zip")));
                FileSystem jdk = FileSystems.newFileSystem(synthesized())) {
            Map<String, String> expected = walk(jdk, true);
            Map<String, String> got = walk(nested, true);
            expected.remove("/");
            got.remove("/");
            assertEquals("jar", jdk.provider().getScheme());
            assertEquals(expected, got);
        }
    }
}
