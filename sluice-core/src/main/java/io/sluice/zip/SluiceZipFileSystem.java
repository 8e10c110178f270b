package io.sluice.zip;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileStoreAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A zip or jar archive as a read-only {@link FileSystem}, over {@link ConcurrentZipFile}: {@link Files#walk},
 * {@link Files#readAttributes}, {@link Files#newByteChannel} and {@link Files#newInputStream} work on its entries, and
 * readers on any number of threads share no lock.
 *
 * {@snippet :
 * try (FileSystem zip = SluiceZipFileSystem.open(Path.of("app.jar"))) {
 *     try (Stream<Path> all = Files.walk(zip.getPath("/"))) { ... }
 *     byte[] b = Files.readAllBytes(zip.getPath("/META-INF/MANIFEST.MF"));
 * }
 * // or, by URI: FileSystems.newFileSystem(URI.create("sluice-zip:" + Path.of("app.jar").toUri()), Map.of())
 * }
 *
 * <p>It answers as the JDK's zip file system ({@code FileSystems.newFileSystem(path)}) does on the same archive:
 * every entry's parent directories exist even without entries of their own, a directory lists its children, a
 * file's size is its uncompressed size and its times are the entry's (from the NTFS and extended timestamp extra
 * fields where they are, else the MS-DOS fields). What differs: it is always read-only (every
 * change throws {@link java.nio.file.ReadOnlyFileSystemException}), only the {@code basic} attribute view is offered,
 * when an archive holds a name twice the first one counts (as {@link ConcurrentZipFile#getEntry}), and a directory
 * without an entry of its own (and the root) has the archive file's modification time.
 *
 * <p>A stored entry's channel reads the archive's mapping in place; a deflated entry's inflates as it goes (see
 * {@code EntryChannel}). Paths use {@code /} and may be relative (to the root).
 */
public final class SluiceZipFileSystem extends FileSystem {
    /** One name of the tree: an entry, or a directory implied by an entry's name. */
    static final class Node {
        final String key;
        /** Null for a directory that has no entry of its own, and for the root. */
        final ConcurrentZipFile.Entry entry;
        final boolean directory;
        /** Names (not paths) of the children, in the order their entries come; empty for a file. */
        final List<String> children = new ArrayList<>();

        Node(String key, ConcurrentZipFile.Entry entry, boolean directory) {
            this.key = key;
            this.entry = entry;
            this.directory = directory;
        }
    }

    private final SluiceZipFileSystemProvider provider;
    private final ConcurrentZipFile zip;
    /** The archive's file, or null for an archive opened from another (nested); its URI names the file system. */
    private final Path archive;
    private final Map<String, Node> nodes;
    private final FileTime archiveTime;
    private final SluiceZipPath root;
    private final Store store = new Store();
    /** Whether closing this file system removes it from its provider's table (opened by URI). */
    private final boolean registered;
    private volatile boolean open = true;

    SluiceZipFileSystem(SluiceZipFileSystemProvider provider, ConcurrentZipFile zip, boolean registered)
            throws IOException {
        this.provider = provider;
        this.zip = zip;
        this.archive = zip.path();
        this.registered = registered;
        this.archiveTime = archive == null ? FileTime.fromMillis(0) : Files.getLastModifiedTime(archive);
        this.root = SluiceZipPath.of(this, "/");
        this.nodes = tree(zip);
    }

    /**
     * Opens the archive at {@code path} as a file system of its own (not the one {@link FileSystems#getFileSystem}
     * finds by URI; open that with {@link FileSystems#newFileSystem(URI, Map)}). Closing it closes the archive.
     *
     * @throws java.util.zip.ZipException if the file is not a readable zip archive
     * @throws IOException if it cannot be opened or mapped (see {@link ConcurrentZipFile#open(Path)})
     */
    public static SluiceZipFileSystem open(Path path) throws IOException {
        return SluiceZipFileSystemProvider.instance().newFileSystem(path, Map.of());
    }

    /**
     * The file system of an archive opened already, a {@linkplain ConcurrentZipFile#openNested nested} one say.
     * Closing the file system closes {@code zip}.
     */
    public static SluiceZipFileSystem of(ConcurrentZipFile zip) throws IOException {
        Objects.requireNonNull(zip, "zip");
        return new SluiceZipFileSystem(SluiceZipFileSystemProvider.instance(), zip, false);
    }

    private static Map<String, Node> tree(ConcurrentZipFile zip) {
        Map<String, Node> nodes = new HashMap<>(zip.size() * 2);
        nodes.put("/", new Node("/", null, true));
        for (ConcurrentZipFile.Entry e : zip) {
            String key;
            try {
                key = SluiceZipPath.of(null, "/" + e.getName()).key();
            } catch (java.nio.file.InvalidPathException unnamable) {
                // A name no path can spell (a NUL in it) stays reachable through the archive, not the file system.
                continue;
            }
            if (key.equals("/") || nodes.containsKey(key) && nodes.get(key).entry != null) {
                continue;
            }
            Node old = nodes.get(key);
            Node node = new Node(key, e, e.isDirectory() || old != null);
            if (old != null) {
                // A directory implied by earlier names now has its own entry.
                node.children.addAll(old.children);
                nodes.put(key, node);
                continue;
            }
            nodes.put(key, node);
            // Link to the parents, making those that have no entry (yet).
            String child = key;
            for (;;) {
                int slash = child.lastIndexOf('/');
                String parent = slash == 0 ? "/" : child.substring(0, slash);
                Node p = nodes.get(parent);
                boolean made = p == null;
                if (made) {
                    p = new Node(parent, null, true);
                    nodes.put(parent, p);
                } else if (!p.directory) {
                    // A file's name used as a directory too: the directory wins, as in the JDK's zip file system.
                    Node d = new Node(parent, p.entry, true);
                    nodes.put(parent, d);
                    p = d;
                }
                p.children.add(child.substring(slash + 1));
                if (!made) {
                    break;
                }
                child = parent;
            }
        }
        return nodes;
    }

    /** The archive underneath. */
    public ConcurrentZipFile zip() {
        return zip;
    }

    SluiceZipPath root() {
        return root;
    }

    /** The node at {@code path}, or null when the archive has nothing there. */
    Node node(SluiceZipPath path) {
        ensureOpen();
        return nodes.get(path.key());
    }

    FileTime archiveTime() {
        return archiveTime;
    }

    URI uriOf(String key) {
        String base = archive == null ? zip.getName() : archive.toUri().toString();
        try {
            return new URI(SluiceZipFileSystemProvider.SCHEME, base + "!" + key, null);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("no URI for " + key + " in " + zip.getName() + ": " + e.getMessage(), e);
        }
    }

    Path archive() {
        return archive;
    }

    void ensureOpen() {
        if (!open) {
            throw new ClosedFileSystemException();
        }
    }

    @Override
    public FileSystemProvider provider() {
        return provider;
    }

    /** Closes the archive; paths of this file system then throw {@link ClosedFileSystemException}. */
    @Override
    public void close() throws IOException {
        if (!open) {
            return;
        }
        open = false;
        if (registered) {
            provider.removed(this);
        }
        zip.close();
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    /** Always true: the archive is never changed. */
    @Override
    public boolean isReadOnly() {
        return true;
    }

    @Override
    public String getSeparator() {
        return "/";
    }

    @Override
    public Iterable<Path> getRootDirectories() {
        ensureOpen();
        return List.of(root);
    }

    @Override
    public Iterable<FileStore> getFileStores() {
        ensureOpen();
        return List.of(store);
    }

    FileStore store() {
        return store;
    }

    @Override
    public Set<String> supportedFileAttributeViews() {
        return Set.of("basic");
    }

    @Override
    public Path getPath(String first, String... more) {
        ensureOpen();
        return SluiceZipPath.of(this, first, more);
    }

    /** {@code glob:} and {@code regex:} matchers with the platform's rules, applied to the path's text. */
    @Override
    public PathMatcher getPathMatcher(String syntaxAndPattern) {
        PathMatcher platform = FileSystems.getDefault().getPathMatcher(syntaxAndPattern);
        return p -> platform.matches(FileSystems.getDefault().getPath(p.toString()));
    }

    /** Refused: an archive has no owners to look up. */
    @Override
    public UserPrincipalLookupService getUserPrincipalLookupService() {
        throw new UnsupportedOperationException("a zip archive has no user principals: " + zip.getName());
    }

    /** Refused: a read-only archive never changes. */
    @Override
    public java.nio.file.WatchService newWatchService() {
        throw new UnsupportedOperationException("a read-only zip archive cannot be watched: " + zip.getName());
    }

    @Override
    public String toString() {
        return zip.getName();
    }

    /** The archive as a store: read-only, as large as the archive, with no space to write to. */
    private final class Store extends FileStore {
        @Override
        public String name() {
            return zip.getName();
        }

        @Override
        public String type() {
            return SluiceZipFileSystemProvider.SCHEME;
        }

        @Override
        public boolean isReadOnly() {
            return true;
        }

        @Override
        public long getTotalSpace() throws IOException {
            return archive == null ? 0 : Files.size(archive);
        }

        @Override
        public long getUsableSpace() {
            return 0;
        }

        @Override
        public long getUnallocatedSpace() {
            return 0;
        }

        @Override
        public boolean supportsFileAttributeView(Class<? extends FileAttributeView> type) {
            return type == BasicFileAttributeView.class;
        }

        @Override
        public boolean supportsFileAttributeView(String name) {
            return "basic".equals(name);
        }

        @Override
        public <V extends FileStoreAttributeView> V getFileStoreAttributeView(Class<V> type) {
            return null;
        }

        @Override
        public Object getAttribute(String attribute) {
            throw new UnsupportedOperationException("no file store attribute '" + attribute + "' in "
                    + zip.getName());
        }
    }

    /** What {@link Files#readAttributes} gives for a node. */
    record Attributes(Node node, FileTime lastModifiedTime, FileTime lastAccessTime, FileTime creationTime)
            implements BasicFileAttributes {
        @Override
        public boolean isRegularFile() {
            return !node.directory;
        }

        @Override
        public boolean isDirectory() {
            return node.directory;
        }

        @Override
        public boolean isSymbolicLink() {
            return false;
        }

        @Override
        public boolean isOther() {
            return false;
        }

        @Override
        public long size() {
            return node.directory || node.entry == null ? 0 : node.entry.getSize();
        }

        @Override
        public Object fileKey() {
            return null;
        }
    }

    Attributes attributes(Node node) throws IOException {
        if (node.entry == null) {
            return new Attributes(node, archiveTime, archiveTime, archiveTime);
        }
        try {
            ExtraTimes t = ExtraTimes.of(zip, node.entry, archiveTime);
            return new Attributes(node, t.modified, t.accessed, t.created);
        } catch (IllegalStateException closed) {
            throw new java.nio.channels.ClosedChannelException();
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
