package io.sluice.nio;

import io.sluice.Engine;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.WatchService;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The platform's file system with Sluice's provider in front: the same files, paths and attributes, and Sluice's
 * engine behind the channels and streams of its regular files.
 */
final class SluiceFileSystem extends FileSystem {
    private final SluiceFileSystemProvider provider;
    private final FileSystem platform;
    /** The engine given at creation, or null to choose one at the first open (see {@link #engine()}). */
    private final Engine fixedEngine;
    private final boolean isDefault;
    private volatile Engine engine;
    private volatile boolean open = true;

    SluiceFileSystem(SluiceFileSystemProvider provider, FileSystem platform, Engine engine, boolean isDefault) {
        this.provider = provider;
        this.platform = platform;
        this.fixedEngine = engine;
        this.isDefault = isDefault;
    }

    /**
     * The engine of this file system's channels: the one it was made with, else the system property
     * {@value SluiceFileSystemProvider#ENGINE_PROPERTY}, else {@link Engine#best()}. Chosen at the first open, not at
     * creation: the default file system is made while the JVM sets up its file systems, before Sluice may run.
     */
    Engine engine() {
        Engine e = engine;
        if (e == null) {
            e = resolveEngine();
            engine = e;
        }
        return e;
    }

    private Engine resolveEngine() {
        Engine e = fixedEngine;
        if (e == null) {
            String name = System.getProperty(SluiceFileSystemProvider.ENGINE_PROPERTY);
            e = name != null && !name.isBlank() ? Engine.parse(name) : Engine.best();
        }
        e.requireAvailable();
        return e;
    }

    FileSystem platform() {
        return platform;
    }

    SluicePath wrap(Path p) {
        return p == null ? null : new SluicePath(this, p);
    }

    @Override
    public SluiceFileSystemProvider provider() {
        return provider;
    }

    /**
     * Closes this file system; the default one cannot be closed (as the platform's).
     *
     * @throws UnsupportedOperationException for the default file system
     */
    @Override
    public void close() throws IOException {
        if (isDefault) {
            throw new UnsupportedOperationException("the default file system cannot be closed");
        }
        open = false;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public boolean isReadOnly() {
        return platform.isReadOnly();
    }

    @Override
    public String getSeparator() {
        return platform.getSeparator();
    }

    @Override
    public Iterable<Path> getRootDirectories() {
        List<Path> roots = new ArrayList<>();
        for (Path r : platform.getRootDirectories()) {
            roots.add(wrap(r));
        }
        return roots;
    }

    @Override
    public Iterable<FileStore> getFileStores() {
        return platform.getFileStores();
    }

    @Override
    public Set<String> supportedFileAttributeViews() {
        return platform.supportedFileAttributeViews();
    }

    @Override
    public Path getPath(String first, String... more) {
        return wrap(platform.getPath(first, more));
    }

    @Override
    public PathMatcher getPathMatcher(String syntaxAndPattern) {
        PathMatcher m = platform.getPathMatcher(syntaxAndPattern);
        return p -> m.matches(p instanceof SluicePath s ? s.delegate() : p);
    }

    @Override
    public UserPrincipalLookupService getUserPrincipalLookupService() {
        return platform.getUserPrincipalLookupService();
    }

    /** The platform's watch service: its keys watch the platform's paths. */
    @Override
    public WatchService newWatchService() throws IOException {
        return platform.newWatchService();
    }

    @Override
    public String toString() {
        return "SluiceFileSystem[" + (fixedEngine != null ? fixedEngine : "engine by property") + "]";
    }
}
