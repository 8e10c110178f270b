package io.sluice.zip;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.spi.FileSystemProvider;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@value #SCHEME} file system provider: zip and jar archives as read-only {@link SluiceZipFileSystem}s over
 * {@link ConcurrentZipFile}. Installed through {@code META-INF/services} and the module's {@code provides}, so that
 * {@link java.nio.file.FileSystems#newFileSystem(URI, Map)} finds it by scheme:
 * {@code sluice-zip:file:///path/app.jar} opens the archive (once: a second open of the same file by URI throws
 * {@link FileSystemAlreadyExistsException} until the first is closed), and
 * {@code sluice-zip:file:///path/app.jar!/a/b.txt} is a path in it ({@link Path#of(URI)}). The environment map is
 * not read: there is nothing to configure for a read-only archive.
 *
 * <p>Everything that would change the archive throws {@link ReadOnlyFileSystemException}; asking for write access
 * ({@link #checkAccess} with {@link AccessMode#WRITE}) is an {@link AccessDeniedException}, so that
 * {@link java.nio.file.Files#isWritable} says false.
 */
public final class SluiceZipFileSystemProvider extends FileSystemProvider {
    /** The URI scheme, {@value}. */
    public static final String SCHEME = "sluice-zip";

    private static volatile SluiceZipFileSystemProvider installed;

    /** The file systems opened by URI, by the archive's real path. */
    private final Map<Path, SluiceZipFileSystem> byArchive = new ConcurrentHashMap<>();

    /** The provider, as the service loader makes it; use {@link SluiceZipFileSystem#open} rather than this. */
    public SluiceZipFileSystemProvider() {
    }

    /** The installed provider if the JDK loaded one, else one of our own, so that URIs and paths agree. */
    static SluiceZipFileSystemProvider instance() {
        SluiceZipFileSystemProvider p = installed;
        if (p == null) {
            for (FileSystemProvider fp : FileSystemProvider.installedProviders()) {
                if (fp instanceof SluiceZipFileSystemProvider z) {
                    p = z;
                }
            }
            if (p == null) {
                p = new SluiceZipFileSystemProvider();
            }
            installed = p;
        }
        return p;
    }

    @Override
    public String getScheme() {
        return SCHEME;
    }

    /** The archive's path in {@code sluice-zip:file:///a.jar} or {@code sluice-zip:file:///a.jar!/entry}. */
    private static Path archiveOf(URI uri) {
        if (!SCHEME.equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException("not a " + SCHEME + ": URI: " + uri);
        }
        String ssp = uri.getRawSchemeSpecificPart();
        int bang = ssp.indexOf("!/");
        String file = bang < 0 ? ssp : ssp.substring(0, bang);
        try {
            return Path.of(URI.create(file)).toAbsolutePath();
        } catch (IllegalArgumentException | FileSystemNotFoundException e) {
            throw new IllegalArgumentException("no archive file in " + uri + ": " + e.getMessage(), e);
        }
    }

    /** The entry part of {@code sluice-zip:file:///a.jar!/entry}, decoded; {@code /} when there is none. */
    private static String entryOf(URI uri) {
        String ssp = uri.getRawSchemeSpecificPart();
        int bang = ssp.indexOf("!/");
        return bang < 0 ? "/" : URI.create(ssp.substring(bang + 1)).getPath();
    }

    /**
     * Opens the archive the URI names, for {@link java.nio.file.FileSystems#newFileSystem(URI, Map)}.
     *
     * @throws FileSystemAlreadyExistsException if it is open already through a URI
     * @throws java.util.zip.ZipException if it is not a readable zip archive
     */
    @Override
    public SluiceZipFileSystem newFileSystem(URI uri, Map<String, ?> env) throws IOException {
        Path archive = archiveOf(uri).toRealPath();
        synchronized (byArchive) {
            if (byArchive.containsKey(archive)) {
                throw new FileSystemAlreadyExistsException(archive.toString());
            }
            SluiceZipFileSystem fs = new SluiceZipFileSystem(this, ConcurrentZipFile.open(archive), true);
            byArchive.put(archive, fs);
            return fs;
        }
    }

    /**
     * Opens the archive at {@code path} as a file system of its own, not found by URI; see
     * {@link SluiceZipFileSystem#open}.
     */
    @Override
    public SluiceZipFileSystem newFileSystem(Path path, Map<String, ?> env) throws IOException {
        ConcurrentZipFile zip = ConcurrentZipFile.open(path);
        try {
            return new SluiceZipFileSystem(this, zip, false);
        } catch (IOException | RuntimeException e) {
            zip.close();
            throw e;
        }
    }

    void removed(SluiceZipFileSystem fs) {
        byArchive.values().remove(fs);
    }

    /**
     * The file system opened for the URI's archive with {@link #newFileSystem(URI, Map)}.
     *
     * @throws FileSystemNotFoundException if there is none open
     */
    @Override
    public SluiceZipFileSystem getFileSystem(URI uri) {
        Path archive = archiveOf(uri);
        SluiceZipFileSystem fs = byArchive.get(archive);
        if (fs == null) {
            try {
                fs = byArchive.get(archive.toRealPath());
            } catch (IOException missing) {
                fs = null;
            }
        }
        if (fs == null) {
            throw new FileSystemNotFoundException("no " + SCHEME + " file system open for " + archive);
        }
        return fs;
    }

    /** The path {@code sluice-zip:file:///a.jar!/entry} names, in the file system open for the archive. */
    @Override
    public Path getPath(URI uri) {
        return getFileSystem(uri).getPath(entryOf(uri));
    }

    private static SluiceZipPath zipPath(Path path) {
        Objects.requireNonNull(path, "path");
        if (!(path instanceof SluiceZipPath z)) {
            throw new ProviderMismatchException("not a " + SCHEME + " path: " + path);
        }
        return z;
    }

    private static SluiceZipFileSystem.Node existing(SluiceZipPath path) throws NoSuchFileException {
        SluiceZipFileSystem.Node node = path.getFileSystem().node(path);
        if (node == null) {
            throw new NoSuchFileException(path.toString(), null, "no such entry in "
                    + path.getFileSystem().zip().getName());
        }
        return node;
    }

    /** The entry at {@code path} to read, refusing directories and what is not there. */
    private static ConcurrentZipFile.Entry file(SluiceZipPath path) throws IOException {
        SluiceZipFileSystem.Node node = existing(path);
        if (node.directory) {
            throw new FileSystemException(path.toString(), null, "is a directory in "
                    + path.getFileSystem().zip().getName());
        }
        return node.entry;
    }

    private static void refuseWrites(Set<? extends OpenOption> options) {
        for (OpenOption o : options) {
            if (o == StandardOpenOption.WRITE || o == StandardOpenOption.APPEND || o == StandardOpenOption.CREATE
                    || o == StandardOpenOption.CREATE_NEW || o == StandardOpenOption.TRUNCATE_EXISTING
                    || o == StandardOpenOption.DELETE_ON_CLOSE) {
                throw new ReadOnlyFileSystemException();
            }
        }
    }

    /**
     * A read-only channel on the entry: a stored entry read in place from the mapping, a deflated one inflated as
     * read.
     *
     * @throws ReadOnlyFileSystemException if an option asks to write, create, truncate or delete
     * @throws NoSuchFileException if there is no such entry; {@link FileSystemException} if it is a directory
     */
    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options,
            FileAttribute<?>... attrs) throws IOException {
        refuseWrites(options);
        if (attrs.length > 0) {
            throw new ReadOnlyFileSystemException();
        }
        SluiceZipPath p = zipPath(path);
        return new EntryChannel(p.getFileSystem().zip(), file(p));
    }

    /** The entry's bytes as a stream, CRC-32 checked at the end (see {@link ConcurrentZipFile#getInputStream}). */
    @Override
    public InputStream newInputStream(Path path, OpenOption... options) throws IOException {
        refuseWrites(Set.of(options));
        SluiceZipPath p = zipPath(path);
        return p.getFileSystem().zip().getInputStream(file(p));
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
            throws IOException {
        SluiceZipPath d = zipPath(dir);
        SluiceZipFileSystem.Node node = existing(d);
        if (!node.directory) {
            throw new NotDirectoryException(d.toString());
        }
        List<String> children = List.copyOf(node.children);
        return new DirectoryStream<>() {
            private boolean opened;
            private volatile boolean closed;

            @Override
            public Iterator<Path> iterator() {
                if (opened || closed) {
                    throw new IllegalStateException("the directory stream of " + d + " was iterated or closed");
                }
                opened = true;
                Iterator<String> names = children.iterator();
                return new Iterator<>() {
                    private Path next;

                    @Override
                    public boolean hasNext() {
                        while (next == null && !closed && names.hasNext()) {
                            Path p = d.resolve(names.next());
                            try {
                                if (filter == null || filter.accept(p)) {
                                    next = p;
                                }
                            } catch (IOException e) {
                                throw new java.nio.file.DirectoryIteratorException(e);
                            }
                        }
                        return next != null;
                    }

                    @Override
                    public Path next() {
                        if (!hasNext()) {
                            throw new NoSuchElementException();
                        }
                        Path p = next;
                        next = null;
                        return p;
                    }
                };
            }

            @Override
            public void close() {
                closed = true;
            }
        };
    }

    /** Refused: the archive is read-only. */
    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) {
        throw new ReadOnlyFileSystemException();
    }

    /** Refused: the archive is read-only. */
    @Override
    public void delete(Path path) {
        throw new ReadOnlyFileSystemException();
    }

    /** Refused: the archive is read-only. */
    @Override
    public void copy(Path source, Path target, CopyOption... options) {
        throw new ReadOnlyFileSystemException();
    }

    /** Refused: the archive is read-only. */
    @Override
    public void move(Path source, Path target, CopyOption... options) {
        throw new ReadOnlyFileSystemException();
    }

    @Override
    public boolean isSameFile(Path path, Path path2) throws IOException {
        if (path.equals(path2)) {
            return true;
        }
        if (!(path2 instanceof SluiceZipPath b) || b.getFileSystem() != zipPath(path).getFileSystem()) {
            return false;
        }
        SluiceZipPath a = (SluiceZipPath) path;
        existing(a);
        existing(b);
        return a.key().equals(b.key());
    }

    /** False: an archive has no hidden entries. */
    @Override
    public boolean isHidden(Path path) throws IOException {
        existing(zipPath(path));
        return false;
    }

    @Override
    public FileStore getFileStore(Path path) throws IOException {
        SluiceZipPath p = zipPath(path);
        existing(p);
        return p.getFileSystem().store();
    }

    /**
     * Checks that the entry exists; reading and executing are allowed, writing is not.
     *
     * @throws AccessDeniedException for {@link AccessMode#WRITE}
     */
    @Override
    public void checkAccess(Path path, AccessMode... modes) throws IOException {
        SluiceZipPath p = zipPath(path);
        existing(p);
        for (AccessMode m : modes) {
            if (m == AccessMode.WRITE) {
                throw new AccessDeniedException(p.toString(), null, "the zip archive "
                        + p.getFileSystem().zip().getName() + " is read-only");
            }
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
        SluiceZipPath p = zipPath(path);
        if (type != BasicFileAttributeView.class) {
            return null;
        }
        return (V) new BasicFileAttributeView() {
            @Override
            public String name() {
                return "basic";
            }

            @Override
            public BasicFileAttributes readAttributes() throws IOException {
                return p.getFileSystem().attributes(existing(p));
            }

            @Override
            public void setTimes(FileTime lastModifiedTime, FileTime lastAccessTime, FileTime createTime) {
                throw new ReadOnlyFileSystemException();
            }
        };
    }

    @Override
    @SuppressWarnings("unchecked")
    public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
            throws IOException {
        SluiceZipPath p = zipPath(path);
        if (type != BasicFileAttributes.class) {
            throw new UnsupportedOperationException("only basic attributes in the zip archive "
                    + p.getFileSystem().zip().getName() + ", not " + type.getName());
        }
        return (A) p.getFileSystem().attributes(existing(p));
    }

    /** The {@code basic} view's attributes by name, {@code "*"} or {@code "basic:size,lastModifiedTime"} say. */
    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options)
            throws IOException {
        SluiceZipPath p = zipPath(path);
        String names = attributes;
        int colon = attributes.indexOf(':');
        if (colon >= 0) {
            String view = attributes.substring(0, colon);
            if (!view.equals("basic")) {
                throw new UnsupportedOperationException("view '" + view + "' is not offered by the zip archive "
                        + p.getFileSystem().zip().getName() + "; only 'basic' is");
            }
            names = attributes.substring(colon + 1);
        }
        BasicFileAttributes a = p.getFileSystem().attributes(existing(p));
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("lastModifiedTime", a.lastModifiedTime());
        all.put("lastAccessTime", a.lastAccessTime());
        all.put("creationTime", a.creationTime());
        all.put("size", a.size());
        all.put("isRegularFile", a.isRegularFile());
        all.put("isDirectory", a.isDirectory());
        all.put("isSymbolicLink", a.isSymbolicLink());
        all.put("isOther", a.isOther());
        all.put("fileKey", a.fileKey());
        Map<String, Object> out = new LinkedHashMap<>();
        for (String n : names.split(",")) {
            if (n.equals("*")) {
                out.putAll(all);
            } else if (all.containsKey(n)) {
                out.put(n, all.get(n));
            } else {
                throw new IllegalArgumentException("no basic attribute '" + n + "' (asked for " + attributes + ")");
            }
        }
        return out;
    }

    /** Refused: the archive is read-only. */
    @Override
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) {
        throw new ReadOnlyFileSystemException();
    }
}
