package io.sluice.zip;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipException;

/**
 * One run of {@link ConcurrentZipFile#extractTo(Path, ExtractLimits)}: every check that can be made before writing
 * (names, counts, sizes, ratios) is made first, so a refused archive leaves nothing behind; then entries are written
 * in central directory order, and if one fails, everything this run created is deleted again.
 *
 * <p>Where a path can lead is checked twice: lexically (no absolute names, drive letters, {@code ..} or {@code .}
 * segments, empty segments or NUL), and physically before each file is created (the real path of its directory must
 * be inside the real path of the target, so a symbolic link already in the target cannot redirect the write). Files
 * are created with {@code CREATE_NEW} and without following links. Symbolic link entries are refused: a link made
 * now could point anywhere later.
 */
final class Extraction {
    private final ConcurrentZipFile zip;
    private final CentralDirectory cen;
    private final Path target;
    private final ExtractLimits limits;
    /** What this run created, in order, so a failure can undo it in reverse. */
    private final List<Path> created = new ArrayList<>();
    private Path realTarget;

    Extraction(ConcurrentZipFile zip, Path target, ExtractLimits limits) {
        this.zip = zip;
        this.cen = zip.directory();
        this.target = target.toAbsolutePath().normalize();
        this.limits = java.util.Objects.requireNonNull(limits, "limits");
    }

    int run() throws IOException {
        Path[] paths = plan();
        if (!Files.isDirectory(target)) {
            Files.createDirectories(target);
            created.add(target);
        }
        try {
            realTarget = target.toRealPath();
            for (int i = 0; i < cen.count; i++) {
                write(i, paths[i]);
            }
            return cen.count;
        } catch (IOException | RuntimeException | Error e) {
            undo(e);
            throw e;
        }
    }

    /** Checks every limit and name before anything is written; returns each entry's destination. */
    private Path[] plan() throws ZipException {
        if (cen.count > limits.maxEntries()) {
            throw ZipErrors.archive(zip.getName(), cen.end.position(), "has " + cen.count
                    + " entries, more than the limit of " + limits.maxEntries());
        }
        Path[] paths = new Path[cen.count];
        long total = 0;
        for (int i = 0; i < cen.count; i++) {
            long size = cen.sizes[i];
            total += size;
            if (total < 0 || total > limits.maxTotalBytes()) {
                throw zip.entryError(i, "brings the archive's uncompressed size past the limit of "
                        + limits.maxTotalBytes() + " bytes");
            }
            if (size > ExtractLimits.RATIO_THRESHOLD
                    && size / Math.max(1, cen.compressedSizes[i]) >= limits.maxRatio()) {
                throw zip.entryError(i, "compresses " + size + " bytes into " + cen.compressedSizes[i]
                        + ", a ratio above the limit of " + limits.maxRatio() + " to 1");
            }
            ConcurrentZipFile.Entry e = zip.entry(i);
            if (e.isSymbolicLink()) {
                throw zip.entryError(i, "is a symbolic link, which extraction refuses");
            }
            paths[i] = destination(i, e.getName());
        }
        return paths;
    }

    /** Where entry i goes, or a ZipException if its name could leave the target directory. */
    private Path destination(int i, String name) throws ZipException {
        if (name.isEmpty() || name.indexOf('\0') >= 0) {
            throw zip.entryError(i, "has an empty name or one with a NUL character");
        }
        if (name.startsWith("/") || name.startsWith("\\")) {
            throw zip.entryError(i, "has an absolute name, which would be written outside the target directory");
        }
        // Both separators count: a backslash is a separator on Windows, whatever it is here.
        String[] segments = name.split("[/\\\\]", -1);
        if (segments[0].length() >= 2 && segments[0].charAt(1) == ':') {
            throw zip.entryError(i, "starts with a drive letter, which would be written outside the target directory");
        }
        Path p = target;
        for (int k = 0; k < segments.length; k++) {
            String s = segments[k];
            boolean last = k == segments.length - 1;
            if (s.isEmpty() && last && k > 0) {
                break; // the trailing slash of a directory
            }
            if (s.isEmpty() || s.equals(".") || s.equals("..")) {
                throw zip.entryError(i, "has a '" + s + "' path segment, which extraction refuses (it could lead "
                        + "outside the target directory)");
            }
            p = p.resolve(s);
        }
        if (!p.normalize().startsWith(target) || p.equals(target)) {
            throw zip.entryError(i, "would be written at " + p + ", outside the target directory " + target);
        }
        return p;
    }

    private void write(int i, Path path) throws IOException {
        ConcurrentZipFile.Entry e = zip.entry(i);
        Path parent = path.getParent();
        makeDirectories(parent);
        // Physically inside: a link in the target (made by someone else) must not carry the write elsewhere.
        Path realParent = parent.toRealPath();
        if (!realParent.startsWith(realTarget)) {
            throw zip.entryError(i, "would be written through " + parent + ", which leads to " + realParent
                    + ", outside the target directory");
        }
        Path file = realParent.resolve(path.getFileName());
        if (e.isDirectory()) {
            if (!Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectory(file);
                created.add(file);
            }
        } else {
            try (InputStream in = zip.getInputStream(e);
                 OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW,
                         StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
                created.add(file);
                in.transferTo(out);
            }
        }
        FileTime t = e.getLastModifiedTime();
        if (t != null) {
            Files.setLastModifiedTime(file, t);
        }
    }

    /** Creates the missing directories of {@code dir} one by one, remembering each, without following links. */
    private void makeDirectories(Path dir) throws IOException {
        List<Path> missing = new ArrayList<>();
        for (Path d = dir; d != null && !Files.exists(d, LinkOption.NOFOLLOW_LINKS); d = d.getParent()) {
            missing.add(d);
        }
        for (int k = missing.size() - 1; k >= 0; k--) {
            Files.createDirectory(missing.get(k));
            created.add(missing.get(k));
        }
    }

    /**
     * Deletes what this run created, newest first (files before their directories). What cannot be deleted is
     * reported as a suppressed exception of {@code failure}, so the caller learns which partial output is left.
     */
    private void undo(Throwable failure) {
        for (int k = created.size() - 1; k >= 0; k--) {
            try {
                Files.deleteIfExists(created.get(k));
            } catch (IOException e) {
                failure.addSuppressed(new IOException("partial output left behind: " + created.get(k), e));
            }
        }
    }
}
