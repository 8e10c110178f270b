package io.sluice.nio;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.Objects;

/** A path of a {@link SluiceFileSystem}: the platform's path, answered for by Sluice's provider. */
final class SluicePath implements Path {
    private final SluiceFileSystem fs;
    private final Path delegate;

    SluicePath(SluiceFileSystem fs, Path delegate) {
        this.fs = fs;
        this.delegate = delegate;
    }

    /** The platform's path this one stands for. */
    Path delegate() {
        return delegate;
    }

    private Path wrap(Path p) {
        return p == null ? null : new SluicePath(fs, p);
    }

    /** The platform path of {@code other}, which must be of this file system's kind (or the platform's own). */
    private Path unwrap(Path other) {
        Objects.requireNonNull(other, "other");
        if (other instanceof SluicePath s) {
            return s.delegate;
        }
        if (other.getFileSystem() == delegate.getFileSystem()) {
            return other;
        }
        throw new ProviderMismatchException("not a path of the file system " + fs + ": " + other);
    }

    @Override
    public SluiceFileSystem getFileSystem() {
        return fs;
    }

    @Override
    public boolean isAbsolute() {
        return delegate.isAbsolute();
    }

    @Override
    public Path getRoot() {
        return wrap(delegate.getRoot());
    }

    @Override
    public Path getFileName() {
        return wrap(delegate.getFileName());
    }

    @Override
    public Path getParent() {
        return wrap(delegate.getParent());
    }

    @Override
    public int getNameCount() {
        return delegate.getNameCount();
    }

    @Override
    public Path getName(int index) {
        return wrap(delegate.getName(index));
    }

    @Override
    public Path subpath(int beginIndex, int endIndex) {
        return wrap(delegate.subpath(beginIndex, endIndex));
    }

    @Override
    public boolean startsWith(Path other) {
        return other instanceof SluicePath s ? delegate.startsWith(s.delegate) : false;
    }

    @Override
    public boolean endsWith(Path other) {
        return other instanceof SluicePath s ? delegate.endsWith(s.delegate) : false;
    }

    @Override
    public Path normalize() {
        return wrap(delegate.normalize());
    }

    @Override
    public Path resolve(Path other) {
        return wrap(delegate.resolve(unwrap(other)));
    }

    @Override
    public Path relativize(Path other) {
        return wrap(delegate.relativize(unwrap(other)));
    }

    @Override
    public URI toUri() {
        return delegate.toUri();
    }

    @Override
    public Path toAbsolutePath() {
        return wrap(delegate.toAbsolutePath());
    }

    @Override
    public Path toRealPath(LinkOption... options) throws IOException {
        return wrap(delegate.toRealPath(options));
    }

    /** The same file as a {@link File}: the file system's paths are the platform's files. */
    @Override
    public File toFile() {
        // Not delegate.toFile(): the platform's path refuses when it is not of the default file system, which it
        // is not while this provider is the default.
        return new File(delegate.toString());
    }

    /** Registers the platform's path: the keys' {@link WatchKey#watchable()} is that path. */
    @Override
    public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers)
            throws IOException {
        return delegate.register(watcher, events, modifiers);
    }

    @Override
    public int compareTo(Path other) {
        return delegate.compareTo(unwrap(other));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SluicePath s && s.fs == fs && s.delegate.equals(delegate);
    }

    @Override
    public int hashCode() {
        return delegate.hashCode();
    }

    @Override
    public String toString() {
        return delegate.toString();
    }
}
