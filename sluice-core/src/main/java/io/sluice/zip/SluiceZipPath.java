package io.sluice.zip;

import java.io.File;
import java.net.URI;
import java.nio.file.FileSystems;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.Objects;

/**
 * A path in a {@link SluiceZipFileSystem}. Its syntax is that of Unix paths ({@code /} between names, {@code /} the
 * root), so the name arithmetic (resolve, relativize, normalize, ...) is left to a path of the platform's file
 * system on Linux, which has exactly that syntax; only the meaning (an entry of the archive) is this class's.
 */
final class SluiceZipPath implements Path {
    /** The platform's file system, used for its path syntax only: no file is ever looked at through it. */
    private static final java.nio.file.FileSystem SYNTAX = FileSystems.getDefault();
    private static final Path ROOT = SYNTAX.getPath("/");

    private final SluiceZipFileSystem fs;
    private final Path names;

    SluiceZipPath(SluiceZipFileSystem fs, Path names) {
        this.fs = fs;
        this.names = names;
    }

    static SluiceZipPath of(SluiceZipFileSystem fs, String first, String... more) {
        return new SluiceZipPath(fs, SYNTAX.getPath(first, more));
    }

    /** The entry name this path stands for, absolute and normalized: {@code /a/b}, or {@code /} for the root. */
    String key() {
        return ROOT.resolve(names).normalize().toString();
    }

    private SluiceZipPath wrap(Path p) {
        return p == null ? null : new SluiceZipPath(fs, p);
    }

    private Path unwrap(Path other) {
        Objects.requireNonNull(other, "other");
        if (other instanceof SluiceZipPath z) {
            return z.names;
        }
        throw new ProviderMismatchException("not a path of the zip file system " + fs + ": " + other);
    }

    @Override
    public SluiceZipFileSystem getFileSystem() {
        return fs;
    }

    @Override
    public boolean isAbsolute() {
        return names.isAbsolute();
    }

    @Override
    public Path getRoot() {
        return names.isAbsolute() ? fs.root() : null;
    }

    @Override
    public Path getFileName() {
        return wrap(names.getFileName());
    }

    @Override
    public Path getParent() {
        return wrap(names.getParent());
    }

    @Override
    public int getNameCount() {
        return names.getNameCount();
    }

    @Override
    public Path getName(int index) {
        return wrap(names.getName(index));
    }

    @Override
    public Path subpath(int beginIndex, int endIndex) {
        return wrap(names.subpath(beginIndex, endIndex));
    }

    @Override
    public boolean startsWith(Path other) {
        return other instanceof SluiceZipPath z && z.fs == fs && names.startsWith(z.names);
    }

    @Override
    public boolean endsWith(Path other) {
        return other instanceof SluiceZipPath z && z.fs == fs && names.endsWith(z.names);
    }

    @Override
    public Path normalize() {
        return wrap(names.normalize());
    }

    @Override
    public Path resolve(Path other) {
        return wrap(names.resolve(unwrap(other)));
    }

    @Override
    public Path relativize(Path other) {
        return wrap(names.relativize(unwrap(other)));
    }

    /** {@code sluice-zip:file:///archive.jar!/a/b}: the archive's URI, {@code !}, and this path made absolute. */
    @Override
    public URI toUri() {
        return fs.uriOf(key());
    }

    @Override
    public Path toAbsolutePath() {
        return isAbsolute() ? this : wrap(ROOT.resolve(names));
    }

    /** The absolute normalized path, if an entry or directory is there; the archive has no links to follow. */
    @Override
    public Path toRealPath(LinkOption... options) throws java.io.IOException {
        SluiceZipPath real = wrap(ROOT.resolve(names).normalize());
        if (fs.node(real) == null) {
            throw new NoSuchFileException(toString(), null, "no such entry in " + fs.zip().getName());
        }
        return real;
    }

    /** Refused: an entry of an archive is no file of the platform's. */
    @Override
    public File toFile() {
        throw new UnsupportedOperationException("a path in the zip archive " + fs.zip().getName()
                + " is not a file: " + this);
    }

    /** Refused: a read-only archive never changes. */
    @Override
    public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
        throw new UnsupportedOperationException("a read-only zip archive cannot be watched: " + fs.zip().getName());
    }

    @Override
    public int compareTo(Path other) {
        return names.compareTo(unwrap(other));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SluiceZipPath z && z.fs == fs && z.names.equals(names);
    }

    @Override
    public int hashCode() {
        return names.hashCode();
    }

    @Override
    public String toString() {
        return names.toString();
    }
}
