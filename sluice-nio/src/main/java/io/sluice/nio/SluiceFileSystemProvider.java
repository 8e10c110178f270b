package io.sluice.nio;

import io.sluice.Advice;
import io.sluice.Engine;
import io.sluice.SluiceOption;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.spi.FileSystemProvider;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;

/**
 * A file system provider for the {@code file} scheme that wraps the platform's: the channels and streams of regular
 * files ({@code newFileChannel}, {@code newByteChannel}, {@code newInputStream}, {@code newOutputStream}) are Sluice's
 * {@link FileChannel} (see {@link SluiceChannels} for what it does as the JDK's and where it differs); everything else,
 * directories, attributes, copies, moves, links, watch services, and the channels of anything but a regular file,
 * is the platform's.
 *
 * <p>Two ways in. For a whole unchanged program, as the JVM's default provider:
 * {@snippet lang=sh :
 * java -Djava.nio.file.spi.DefaultFileSystemProvider=io.sluice.nio.SluiceFileSystemProvider \
 *      -Dsluice.nio.engine=MMAP --enable-native-access=ALL-UNNAMED -cp app.jar:sluice-nio.jar:sluice-core.jar app.Main
 * }
 * Then {@code Path.of}, {@code File.toPath} and {@code Files.*} go through Sluice (the jars must be on the class path:
 * the JVM loads the provider with the system class loader). Or explicitly, for some paths only:
 * {@snippet :
 * FileSystem fs = SluiceFileSystemProvider.newFileSystem(Engine.IO_URING);
 * Path p = fs.getPath("/data/index");   // Files.newByteChannel(p) is Sluice's; p.toFile() is the same file
 * }
 *
 * <p>The engine: per file system, from the environment map's {@value #ENGINE_KEY} entry (an {@link Engine} or its
 * name) given to {@link #newFileSystem(URI, Map)}; for the default file system, from the system property
 * {@value #ENGINE_PROPERTY}, else {@link Engine#best()}.
 *
 * <p>Which opens stay the platform's: a path that exists and is not a regular file (directories, devices, FIFOs,
 * symbolic links opened with {@code NOFOLLOW_LINKS}); file attributes given at creation; options other than
 * {@link StandardOpenOption}s, {@link LinkOption}, Sluice's {@link SluiceOption}, {@link Advice} and the JDK's
 * {@code ExtendedOpenOption.DIRECT}; {@code SYNC} and {@code DSYNC} on the MMAP and IO_URING engines, which write
 * without the descriptor's synchronous mode; the JDK's {@code DIRECT} on engines other than IO_URING and AUTO, which
 * have no O_DIRECT; and {@code newAsynchronousFileChannel} on any engine but IO_URING.
 */
public final class SluiceFileSystemProvider extends FileSystemProvider {
    /** The system property naming the default file system's engine ({@code CHANNEL}, {@code MMAP}, ...). */
    public static final String ENGINE_PROPERTY = "sluice.nio.engine";

    /** The key of the environment map of {@link #newFileSystem(URI, Map)} naming the file system's engine. */
    public static final String ENGINE_KEY = "sluice.engine";

    private static final URI ROOT = URI.create("file:///");

    private final FileSystemProvider platform;
    private final Object defaultLock = new Object();
    private volatile SluiceFileSystem defaultFs;

    /**
     * A provider in front of {@code platform}, the JDK's provider for the {@code file} scheme. This is the constructor
     * the JDK calls for {@code -Djava.nio.file.spi.DefaultFileSystemProvider}.
     *
     * @throws IllegalArgumentException if {@code platform} is not for the {@code file} scheme
     */
    public SluiceFileSystemProvider(FileSystemProvider platform) {
        Objects.requireNonNull(platform, "platform");
        if (!"file".equals(platform.getScheme())) {
            throw new IllegalArgumentException("not a provider of the file scheme: " + platform.getScheme());
        }
        // In front of another Sluice provider, wrap what it wraps: one layer is enough.
        this.platform = platform instanceof SluiceFileSystemProvider s ? s.platform : platform;
    }

    private static final class Shared {
        static final SluiceFileSystemProvider PROVIDER = new SluiceFileSystemProvider(FileSystems.getDefault().provider());
    }

    /**
     * A new file system over the platform's files whose regular files are read and written by {@code engine}; its
     * paths come from {@link FileSystem#getPath}. Closing it is allowed and releases nothing.
     *
     * @throws UnsupportedOperationException if the engine is not available here
     */
    public static FileSystem newFileSystem(Engine engine) {
        Objects.requireNonNull(engine, "engine");
        engine.requireAvailable();
        return Shared.PROVIDER.fileSystemOf(engine);
    }

    private SluiceFileSystem fileSystemOf(Engine engine) {
        return new SluiceFileSystem(this, platform.getFileSystem(ROOT), engine, false);
    }

    /** The platform's provider this one is in front of. */
    public FileSystemProvider platform() {
        return platform;
    }

    @Override
    public String getScheme() {
        return "file";
    }

    /**
     * A new file system with the engine named by {@code env}'s {@value #ENGINE_KEY} entry (an {@link Engine} or its
     * name; absent: as the default file system chooses). {@code uri} must be {@code file:///}.
     *
     * @throws IllegalArgumentException for another URI or an unknown engine name
     */
    @Override
    public FileSystem newFileSystem(URI uri, Map<String, ?> env) {
        checkUri(uri);
        Object e = env.get(ENGINE_KEY);
        Engine engine = switch (e) {
            case null -> null;
            case Engine en -> en;
            case String s -> Engine.parse(s);
            default -> throw new IllegalArgumentException(ENGINE_KEY + " must be an Engine or its name, not " + e);
        };
        if (engine != null) {
            engine.requireAvailable();
        }
        return new SluiceFileSystem(this, platform.getFileSystem(ROOT), engine, false);
    }

    /** The default file system of this provider (its engine chosen by {@value #ENGINE_PROPERTY}). */
    @Override
    public FileSystem getFileSystem(URI uri) {
        checkUri(uri);
        return defaultFileSystem();
    }

    private SluiceFileSystem defaultFileSystem() {
        SluiceFileSystem fs = defaultFs;
        if (fs == null) {
            synchronized (defaultLock) {
                fs = defaultFs;
                if (fs == null) {
                    fs = new SluiceFileSystem(this, platform.getFileSystem(ROOT), null, true);
                    defaultFs = fs;
                }
            }
        }
        return fs;
    }

    private static void checkUri(URI uri) {
        if (!"file".equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException("URI scheme is not \"file\": " + uri);
        }
        if (uri.getAuthority() != null || !"/".equals(uri.getPath())) {
            throw new IllegalArgumentException("URI path component must be \"/\": " + uri);
        }
    }

    @Override
    public Path getPath(URI uri) {
        return defaultFileSystem().wrap(platform.getPath(uri));
    }

    // ---------------------------------------------------------------- paths in and out

    private static Path unwrap(Path p) {
        Objects.requireNonNull(p, "path");
        if (p instanceof SluicePath s) {
            return s.delegate();
        }
        throw new ProviderMismatchException("not a path of a Sluice file system: " + p + " (" + p.getClass().getName()
                + ")");
    }

    private static SluiceFileSystem fs(Path p) {
        return ((SluicePath) p).getFileSystem();
    }

    // ---------------------------------------------------------------- what Sluice serves

    /**
     * Set while this thread chooses an engine or opens a file for Sluice: what the engines open themselves then (the
     * probe's /proc files, CLASSIC's checking FileChannel.open) must be the platform's, or the open would come back
     * here and never end.
     */
    private static final ThreadLocal<Boolean> INSIDE_SLUICE = new ThreadLocal<>();

    private static FileChannel openSluice(Path path, Engine engine, Set<? extends OpenOption> options)
            throws IOException {
        INSIDE_SLUICE.set(Boolean.TRUE);
        try {
            return SluiceChannels.open(unwrap(path), engine, options);
        } finally {
            INSIDE_SLUICE.remove();
        }
    }

    /**
     * The engine to open {@code path} with, or null when the platform's channel should serve it (see the class
     * comment).
     */
    private Engine sluiceEngineFor(Path path, Set<? extends OpenOption> options, FileAttribute<?>[] attrs)
            throws IOException {
        if (attrs.length > 0) {
            return null;
        }
        boolean noFollow = false;
        boolean sync = false;
        boolean jdkDirect = false;
        for (OpenOption o : options) {
            if (o == LinkOption.NOFOLLOW_LINKS) {
                noFollow = true;
            } else if (o == StandardOpenOption.SYNC || o == StandardOpenOption.DSYNC) {
                sync = true;
            } else if (DirectIo.isJdkDirect(o)) {
                jdkDirect = true;
            } else if (!(o instanceof StandardOpenOption || o instanceof SluiceOption || o instanceof Advice)) {
                return null;
            }
        }
        if (INSIDE_SLUICE.get() != null) {
            return null;
        }
        Engine engine;
        INSIDE_SLUICE.set(Boolean.TRUE);
        try {
            engine = fs(path).engine();
        } finally {
            INSIDE_SLUICE.remove();
        }
        if (sync && (engine == Engine.MMAP || engine == Engine.IO_URING)) {
            return null;
        }
        // O_DIRECT is io_uring's alone (AUTO opens IO_URING for it); the platform's channel honours the JDK's option.
        if (jdkDirect && engine != Engine.IO_URING && engine != Engine.AUTO) {
            return null;
        }
        try {
            BasicFileAttributes a = noFollow
                    ? platform.readAttributes(unwrap(path), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                    : platform.readAttributes(unwrap(path), BasicFileAttributes.class);
            if (!a.isRegularFile()) {
                return null;
            }
            // Empty files only read (the text files of /proc and /sys among them: size 0, yet content, and no
            // mapping) gain nothing from an engine.
            if (a.size() == 0 && !options.contains(StandardOpenOption.WRITE) && !options.contains(StandardOpenOption.APPEND)) {
                return null;
            }
            return engine;
        } catch (NoSuchFileException e) {
            return engine; // created by the open, or reported by it as the platform would
        }
    }

    @Override
    public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        Engine engine = sluiceEngineFor(path, options, attrs);
        if (engine == null) {
            return platform.newFileChannel(unwrap(path), options, attrs);
        }
        return openSluice(path, engine, options);
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        Engine engine = sluiceEngineFor(path, options, attrs);
        if (engine == null) {
            return platform.newByteChannel(unwrap(path), options, attrs);
        }
        return openSluice(path, engine, options);
    }

    @Override
    public InputStream newInputStream(Path path, OpenOption... options) throws IOException {
        Set<OpenOption> set = new HashSet<>();
        for (OpenOption o : options) {
            if (o == StandardOpenOption.APPEND || o == StandardOpenOption.WRITE) {
                throw new UnsupportedOperationException("'" + o + "' not allowed");
            }
            set.add(Objects.requireNonNull(o));
        }
        Engine engine = sluiceEngineFor(path, set, new FileAttribute<?>[0]);
        if (engine == null) {
            return platform.newInputStream(unwrap(path), options);
        }
        return Channels.newInputStream(openSluice(path, engine, set));
    }

    @Override
    public OutputStream newOutputStream(Path path, OpenOption... options) throws IOException {
        Set<OpenOption> set = new HashSet<>();
        if (options.length == 0) {
            set.add(StandardOpenOption.CREATE);
            set.add(StandardOpenOption.TRUNCATE_EXISTING);
        } else {
            for (OpenOption o : options) {
                if (o == StandardOpenOption.READ) {
                    throw new IllegalArgumentException("READ not allowed");
                }
                set.add(Objects.requireNonNull(o));
            }
        }
        set.add(StandardOpenOption.WRITE);
        Engine engine = sluiceEngineFor(path, set, new FileAttribute<?>[0]);
        if (engine == null) {
            return platform.newOutputStream(unwrap(path), options);
        }
        return Channels.newOutputStream(openSluice(path, engine, set));
    }

    /**
     * Sluice's asynchronous channel ({@link SluiceChannels#openAsynchronous}) when the file system's engine is
     * IO_URING and the file is one Sluice serves; the platform's otherwise, since on the other engines every call
     * would be done by the caller's thread.
     */
    @Override
    public AsynchronousFileChannel newAsynchronousFileChannel(Path path, Set<? extends OpenOption> options,
            ExecutorService executor, FileAttribute<?>... attrs) throws IOException {
        Engine engine = options.contains(StandardOpenOption.APPEND) ? null : sluiceEngineFor(path, options, attrs);
        if (engine != Engine.IO_URING) {
            return platform.newAsynchronousFileChannel(unwrap(path), options, executor, attrs);
        }
        INSIDE_SLUICE.set(Boolean.TRUE);
        try {
            return SluiceChannels.openAsynchronous(unwrap(path), engine, options, executor);
        } finally {
            INSIDE_SLUICE.remove();
        }
    }

    // ---------------------------------------------------------------- the platform's

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
            throws IOException {
        SluiceFileSystem fs = fs(dir);
        DirectoryStream<Path> inner = platform.newDirectoryStream(unwrap(dir), p -> filter.accept(fs.wrap(p)));
        return new DirectoryStream<>() {
            @Override
            public Iterator<Path> iterator() {
                Iterator<Path> it = inner.iterator();
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return it.hasNext();
                    }

                    @Override
                    public Path next() {
                        return fs.wrap(it.next());
                    }
                };
            }

            @Override
            public void close() throws IOException {
                inner.close();
            }
        };
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
        platform.createDirectory(unwrap(dir), attrs);
    }

    @Override
    public void createSymbolicLink(Path link, Path target, FileAttribute<?>... attrs) throws IOException {
        platform.createSymbolicLink(unwrap(link), target instanceof SluicePath s ? s.delegate() : target, attrs);
    }

    @Override
    public void createLink(Path link, Path existing) throws IOException {
        platform.createLink(unwrap(link), unwrap(existing));
    }

    @Override
    public Path readSymbolicLink(Path link) throws IOException {
        return fs(link).wrap(platform.readSymbolicLink(unwrap(link)));
    }

    @Override
    public void delete(Path path) throws IOException {
        platform.delete(unwrap(path));
    }

    @Override
    public boolean deleteIfExists(Path path) throws IOException {
        return platform.deleteIfExists(unwrap(path));
    }

    @Override
    public void copy(Path source, Path target, CopyOption... options) throws IOException {
        platform.copy(unwrap(source), unwrap(target), options);
    }

    @Override
    public void move(Path source, Path target, CopyOption... options) throws IOException {
        platform.move(unwrap(source), unwrap(target), options);
    }

    @Override
    public boolean isSameFile(Path path, Path path2) throws IOException {
        return platform.isSameFile(unwrap(path), path2 instanceof SluicePath s ? s.delegate() : path2);
    }

    @Override
    public boolean isHidden(Path path) throws IOException {
        return platform.isHidden(unwrap(path));
    }

    @Override
    public FileStore getFileStore(Path path) throws IOException {
        return platform.getFileStore(unwrap(path));
    }

    @Override
    public void checkAccess(Path path, AccessMode... modes) throws IOException {
        platform.checkAccess(unwrap(path), modes);
    }

    @Override
    public boolean exists(Path path, LinkOption... options) {
        return platform.exists(unwrap(path), options);
    }

    @Override
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
        return platform.getFileAttributeView(unwrap(path), type, options);
    }

    @Override
    public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
            throws IOException {
        return platform.readAttributes(unwrap(path), type, options);
    }

    @Override
    public <A extends BasicFileAttributes> A readAttributesIfExists(Path path, Class<A> type, LinkOption... options)
            throws IOException {
        return platform.readAttributesIfExists(unwrap(path), type, options);
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
        return platform.readAttributes(unwrap(path), attributes, options);
    }

    @Override
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
        platform.setAttribute(unwrap(path), attribute, value, options);
    }

    @Override
    public String toString() {
        return "SluiceFileSystemProvider[" + platform + "]";
    }
}
