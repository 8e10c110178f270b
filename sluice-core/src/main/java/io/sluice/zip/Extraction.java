package io.sluice.zip;

import io.sluice.internal.Faults;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.CRC32;
import java.util.zip.ZipException;

/**
 * One run of {@link ConcurrentZipFile#extractTo(Path, ExtractOptions)}: every check that can be made before writing
 * (names, counts, sizes, ratios, methods, existing files, where symbolic links point) is made first, so a refused
 * archive leaves nothing behind; then entries are written in central directory order, and if one fails, everything
 * this run created is deleted again.
 *
 * <p>Where a path can lead is checked twice: lexically (no absolute names, drive letters, {@code ..} or {@code .}
 * segments, empty segments or NUL), and physically before each file is created (the real path of its directory must
 * be inside the real path of the target, so a symbolic link already in the target cannot redirect the write). Files
 * are created with {@code CREATE_NEW} and without following links.
 *
 * <p>As unzip does: symbolic link entries (made on Unix, link file type) are created after every file and
 * directory, so no entry is ever written through a link the archive made; the Unix permissions of entries made on
 * Unix are applied (without set-user-ID, set-group-ID and sticky bits, as unzip without {@code -K}), and the MS-DOS
 * read-only attribute of others removes the write permissions; times come from the extended timestamp extra field
 * (0x5455) of the central directory when it has a modification time, else from the MS-DOS date and time in the local
 * time zone, and the access time is set to the same instant; directories get their permissions and times last,
 * deepest first, since writing into them changes both.
 *
 * <p>A link's target, resolved against the link's directory, must stay inside the target directory: lexically when
 * planning, and once every link exists, physically, following the links met on the way (the archive's own and any
 * already there) as the kernel would, so that a chain of links that are each harmless cannot lead outside.
 */
final class Extraction {
    private static final int MSDOS_READ_ONLY = 0x01;
    /** The longest link target accepted: Linux's PATH_MAX. */
    private static final int MAX_LINK_TARGET = 4096;
    /** Links followed while resolving one target before giving up, as Linux does (ELOOP). */
    private static final int MAX_LINK_HOPS = 40;

    private final ConcurrentZipFile zip;
    private final CentralDirectory cen;
    private final Path target;
    private final ExtractOptions options;
    private final ExtractLimits limits;
    /** What this run created, in order, so a failure can undo it in reverse. */
    private final List<Path> created = new ArrayList<>();
    private Path realTarget;

    Extraction(ConcurrentZipFile zip, Path target, ExtractOptions options) {
        this.zip = zip;
        this.cen = zip.directory();
        this.target = target.toAbsolutePath().normalize();
        this.options = Objects.requireNonNull(options, "options");
        this.limits = options.limits();
    }

    /** What the plan found for one selected entry: where it goes, and for a link, its target. */
    private record Planned(ConcurrentZipFile.Entry entry, Path path, String linkTarget) {
    }

    /** An entry now on disk, at its real path. */
    private record Written(ConcurrentZipFile.Entry entry, Path file) {
    }

    int run() throws IOException {
        List<Planned> plan = plan();
        if (!Files.isDirectory(target)) {
            Files.createDirectories(target);
            created.add(target);
        }
        try {
            realTarget = target.toRealPath();
            List<Written> directories = new ArrayList<>();
            List<Planned> links = new ArrayList<>();
            for (Planned p : plan) {
                if (p.linkTarget != null) {
                    links.add(p);
                    continue;
                }
                Path file = write(p.entry, p.path);
                if (p.entry.isDirectory()) {
                    directories.add(new Written(p.entry, file));
                } else {
                    applyAttributes(p.entry, file);
                }
                options.listener().extracted(p.entry, file);
            }
            List<Written> made = new ArrayList<>();
            for (Planned p : links) {
                made.add(new Written(p.entry, link(p)));
            }
            // Only now that every link exists can a chain of them be followed to where it really ends.
            for (Written w : made) {
                checkLinkPhysically(w.entry, w.file);
            }
            for (Written w : made) {
                options.listener().extracted(w.entry, w.file);
            }
            for (int k = directories.size() - 1; k >= 0; k--) {
                applyAttributes(directories.get(k).entry, directories.get(k).file);
            }
            return plan.size();
        } catch (IOException | RuntimeException | Error e) {
            undo(e);
            throw e;
        }
    }

    /** Checks every limit, name, method, existing file and link target before anything is written. */
    private List<Planned> plan() throws IOException {
        List<Planned> plan = new ArrayList<>();
        long total = 0;
        for (int i = 0; i < cen.count; i++) {
            ConcurrentZipFile.Entry e = zip.entry(i);
            if (!options.selection().test(e)) {
                continue;
            }
            if (plan.size() >= limits.maxEntries()) {
                throw ZipErrors.archive(zip.getName(), cen.end.position(), "has more than the limit of "
                        + limits.maxEntries() + " entries to extract");
            }
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
            if (!e.isDirectory()) {
                checkReadable(i, e);
            }
            Path path = destination(i, e.getName());
            if (!options.overwrite() && Files.exists(path, LinkOption.NOFOLLOW_LINKS)
                    && !(e.isDirectory() && Files.isDirectory(path))) {
                throw new FileAlreadyExistsException(path.toString(), null, "entry '" + e.getName() + "' of "
                        + zip.getName() + " would replace it, and overwriting was not asked for; nothing was extracted");
            }
            String link = e.isSymbolicLink() ? linkTarget(i, e, path) : null;
            plan.add(new Planned(e, path, link));
        }
        return plan;
    }

    /** Refuses, by name and number, a method neither Sluice nor the decoder reads, and encryption. */
    private void checkReadable(int i, ConcurrentZipFile.Entry e) throws ZipException {
        if ((e.getFlags() & ZipLayout.FLAG_ENCRYPTED) != 0) {
            throw zip.entryError(i, "is encrypted, which extraction does not support");
        }
        int method = e.getMethod();
        if (method == ZipLayout.STORED || method == ZipLayout.DEFLATED) {
            return;
        }
        ExtractOptions.Decoder decoder = options.decoder();
        if (decoder == null || !decoder.supports(method)) {
            throw zip.entryError(i, "uses compression method " + method + " (" + ZipLayout.methodName(method)
                    + "), which is not supported (only 0, stored, and 8, deflated"
                    + (decoder == null ? ")" : ", and the methods of the decoder given)"));
        }
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

    /**
     * The target of link entry i, which goes at {@code path}, after checking that it is a path (not empty, no NUL,
     * UTF-8, at most PATH_MAX bytes) and that, resolved against the link's directory, it stays inside the target.
     */
    private String linkTarget(int i, ConcurrentZipFile.Entry e, Path path) throws IOException {
        if (e.getSize() > MAX_LINK_TARGET) {
            throw zip.entryError(i, "is a symbolic link whose target has " + e.getSize() + " bytes, more than the "
                    + MAX_LINK_TARGET + " a path may have");
        }
        byte[] raw;
        try (InputStream in = open(i, e)) {
            raw = in.readAllBytes();
        }
        String link;
        try {
            link = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(raw)).toString();
        } catch (CharacterCodingException x) {
            throw ZipErrors.withCause(zip.entryError(i, "is a symbolic link whose target is not UTF-8"), x);
        }
        if (link.isEmpty() || link.indexOf('\0') >= 0) {
            throw zip.entryError(i, "is a symbolic link with an empty target or one with a NUL character");
        }
        Path resolved = path.getParent().resolve(link).normalize();
        if (!resolved.startsWith(target)) {
            throw zip.entryError(i, "is a symbolic link to '" + link + "', which leads to " + resolved
                    + ", outside the target directory " + target);
        }
        return link;
    }

    /** Writes file or directory entry i at {@code path}; returns its real path. */
    private Path write(ConcurrentZipFile.Entry e, Path path) throws IOException {
        Path file = realPlace(e, path);
        if (e.isDirectory()) {
            if (!Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectory(file);
                created.add(file);
            }
            return file;
        }
        try (InputStream in = open(e.index(), e)) {
            if (options.overwrite() && Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                refuseDirectory(e, file);
                Path part = sibling(file);
                copy(in, part);
                Files.move(part, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                created.remove(created.size() - 1);
            } else {
                copy(in, file);
            }
        }
        return file;
    }

    /** Copies {@code in} into the new file {@code file}, remembered as created before the first byte. */
    private void copy(InputStream in, Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            created.add(file);
            in.transferTo(out);
        }
    }

    /** Creates link entry p; returns its path. */
    private Path link(Planned p) throws IOException {
        Path file = realPlace(p.entry, p.path);
        Path to = file.getFileSystem().getPath(p.linkTarget);
        if (options.overwrite() && Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            refuseDirectory(p.entry, file);
            Path part = sibling(file);
            Files.createSymbolicLink(part, to);
            created.add(part);
            Files.move(part, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            created.set(created.size() - 1, file);
        } else {
            Files.createSymbolicLink(file, to);
            created.add(file);
        }
        return file;
    }

    /**
     * Makes the missing directories above {@code path} and returns where the entry really goes: inside the real
     * target, or the entry is refused, so a link in the target (made by someone else) cannot carry the write
     * elsewhere.
     */
    private Path realPlace(ConcurrentZipFile.Entry e, Path path) throws IOException {
        Path parent = path.getParent();
        makeDirectories(parent);
        Path realParent = parent.toRealPath();
        if (!realParent.startsWith(realTarget)) {
            throw zip.entryError(e.index(), "would be written through " + parent + ", which leads to " + realParent
                    + ", outside the target directory");
        }
        return realParent.resolve(path.getFileName());
    }

    private void refuseDirectory(ConcurrentZipFile.Entry e, Path file) throws IOException {
        if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(file.toString(), null, "entry '" + e.getName() + "' of "
                    + zip.getName() + " would replace this directory, which overwriting never does");
        }
    }

    /** A name beside {@code file} that nothing uses, for writing a replacement before renaming it over the file. */
    private static Path sibling(Path file) {
        return file.resolveSibling("." + file.getFileName() + ".sluice-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong()));
    }

    /**
     * Follows link entry {@code e}, now at {@code link}, to where the kernel would take it, through every link met
     * on the way, and refuses it unless that is inside the target.
     */
    private void checkLinkPhysically(ConcurrentZipFile.Entry e, Path link) throws IOException {
        Deque<String> todo = new ArrayDeque<>();
        Path at = link.getParent();
        int hops = 0;
        Path next = link;
        for (;;) {
            if (next != null) {
                String t = Files.readSymbolicLink(next).toString();
                if (++hops > MAX_LINK_HOPS) {
                    throw zip.entryError(e.index(), "is a symbolic link that leads through more than "
                            + MAX_LINK_HOPS + " links (a loop?), which extraction refuses");
                }
                if (t.startsWith("/")) {
                    at = link.getRoot();
                }
                String[] segments = t.split("/");
                for (int k = segments.length - 1; k >= 0; k--) {
                    todo.push(segments[k]);
                }
                next = null;
            }
            if (todo.isEmpty()) {
                break;
            }
            String s = todo.pop();
            if (s.isEmpty() || s.equals(".")) {
                continue;
            }
            if (s.equals("..")) {
                at = at.getParent() == null ? at : at.getParent();
                continue;
            }
            Path step = at.resolve(s);
            if (Files.isSymbolicLink(step)) {
                next = step;
            } else {
                at = step;
            }
        }
        if (!at.startsWith(realTarget)) {
            throw zip.entryError(e.index(), "is a symbolic link to '" + Files.readSymbolicLink(link)
                    + "', which through the links on its way leads to " + at + ", outside the target directory "
                    + realTarget);
        }
    }

    /** The entry's bytes: read by the archive for stored and deflated entries, else by the decoder, checked here. */
    private InputStream open(int i, ConcurrentZipFile.Entry e) throws IOException {
        int method = e.getMethod();
        if (method == ZipLayout.STORED || method == ZipLayout.DEFLATED) {
            return zip.getInputStream(e);
        }
        ExtractOptions.Decoder decoder = options.decoder();
        if (decoder == null || !decoder.supports(method)) {
            checkReadable(i, e);
        }
        InputStream raw = new RawStream(i, zip.compressedData(i));
        return new Checked(i, decoder.decode(e, raw), raw);
    }

    /**
     * Sets the permissions and times unzip would: see the class comment. The mode is set only where the file
     * system has POSIX permissions.
     */
    private void applyAttributes(ConcurrentZipFile.Entry e, Path file) throws IOException {
        int i = e.index();
        PosixFileAttributeView posix = Files.getFileAttributeView(file, PosixFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        int attributes = cen.externalAttributes[i];
        int mode = attributes >>> 16;
        if (posix != null) {
            if ((cen.madeBy[i] & 0xFF) == CentralDirectory.UNIX_HOST && mode != 0) {
                posix.setPermissions(permissions(mode));
            } else if ((attributes & MSDOS_READ_ONLY) != 0) {
                Set<PosixFilePermission> now = EnumSet.copyOf(posix.readAttributes().permissions());
                now.removeAll(EnumSet.of(PosixFilePermission.OWNER_WRITE, PosixFilePermission.GROUP_WRITE,
                        PosixFilePermission.OTHERS_WRITE));
                posix.setPermissions(now);
            }
        }
        FileTime t = modified(e);
        if (t != null) {
            Files.getFileAttributeView(file, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .setTimes(t, t, null);
        }
    }

    /** The permission bits of a Unix mode; set-user-ID, set-group-ID and sticky are left out, as unzip does. */
    static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> s = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ ... OTHERS_EXECUTE: 0400 down to 01
        for (int k = 0; k < 9; k++) {
            if ((mode & (0400 >> k)) != 0) {
                s.add(bits[k]);
            }
        }
        return s;
    }

    /**
     * The modification time: the extended timestamp field's, when the central directory has one with it, else the
     * MS-DOS fields'.
     */
    private FileTime modified(ConcurrentZipFile.Entry e) {
        byte[] x = zip.extraField(e, false);
        for (int p = 0, next; (next = ZipLayout.extraFieldEnd(x, p)) >= 0; p = next) {
            if (ZipLayout.u16(x, p) == ZipLayout.EXTENDED_TIMESTAMP_EXTRA && next - p >= 4 + 5 && (x[p + 4] & 1) != 0) {
                // A signed 32-bit Unix time, as Info-ZIP writes it.
                return FileTime.fromMillis((int) ZipLayout.u32(x, p + 5) * 1000L);
            }
        }
        return e.getLastModifiedTime();
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
     * A file that replaced an existing one (with overwriting) stays: the old one is gone.
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

    /** An entry's compressed bytes, copied out of the mapping, for a decoder. */
    private final class RawStream extends InputStream {
        private final int index;
        private final MemorySegment data;
        private long position;

        RawStream(int index, MemorySegment data) {
            this.index = index;
            this.data = data;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            zip.ensureOpen();
            int n = (int) Math.min(len, data.byteSize() - position);
            if (n <= 0) {
                return len == 0 ? 0 : -1;
            }
            try {
                MemorySegment.copy(data, ValueLayout.JAVA_BYTE, position, b, off, n);
                Faults.deliver();
            } catch (IllegalStateException e) {
                throw zip.closedOr(e);
            } catch (InternalError e) {
                throw ZipErrors.withCause(zip.entryError(index, "reading its compressed data at byte " + position
                        + " failed: the archive was cut by another process while mapped (SIGBUS)"), e);
            }
            position += n;
            return n;
        }
    }

    /** A decoder's output, held to the entry's declared size and CRC-32 as the archive's own streams are. */
    private final class Checked extends InputStream {
        private final int index;
        private final InputStream in;
        private final InputStream raw;
        private final CRC32 crc = new CRC32();
        private long produced;

        Checked(int index, InputStream in, InputStream raw) {
            this.index = index;
            this.in = in;
            this.raw = raw;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n;
            try {
                n = in.read(b, off, len);
            } catch (ZipException e) {
                throw e;
            } catch (IOException e) {
                throw ZipErrors.withCause(zip.entryError(index, "decoding " + ZipLayout.methodName(
                        cen.method(index)) + " data failed: " + e.getMessage()), e);
            }
            if (n < 0) {
                if (produced != cen.sizes[index]) {
                    throw zip.entryError(index, "decodes to " + produced + " bytes, fewer than its declared size "
                            + cen.sizes[index]);
                }
                if ((int) crc.getValue() != cen.crcs[index]) {
                    throw zip.entryError(index, String.format("CRC-32 mismatch: the archive says %08x, the data "
                            + "gives %08x", cen.crcs[index], (int) crc.getValue()));
                }
                return -1;
            }
            produced += n;
            if (produced > cen.sizes[index]) {
                throw zip.entryError(index, "decodes to more than its declared size " + cen.sizes[index]);
            }
            crc.update(b, off, n);
            return n;
        }

        @Override
        public void close() throws IOException {
            try (raw) {
                in.close();
            }
        }
    }
}
