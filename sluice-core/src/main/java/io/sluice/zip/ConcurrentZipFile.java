package io.sluice.zip;

import static io.sluice.zip.ZipLayout.DEFLATED;
import static io.sluice.zip.ZipLayout.DEFLATE_MAX_RATIO;
import static io.sluice.zip.ZipLayout.FLAG_ENCRYPTED;
import static io.sluice.zip.ZipLayout.LOCEXT;
import static io.sluice.zip.ZipLayout.LOCHDR;
import static io.sluice.zip.ZipLayout.LOCNAM;
import static io.sluice.zip.ZipLayout.LOCSIG;
import static io.sluice.zip.ZipLayout.STORED;

import io.sluice.internal.Faults;
import io.sluice.internal.FileKinds;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import java.util.zip.ZipException;

/**
 * A zip or jar archive read by any number of threads at once, with no lock shared between them: the
 * {@link java.util.zip.ZipFile} API, on a memory-mapped archive.
 *
 * {@snippet :
 * try (ConcurrentZipFile zip = ConcurrentZipFile.open(Path.of("app.jar"))) {
 *     ConcurrentZipFile.Entry e = zip.getEntry("META-INF/MANIFEST.MF");
 *     byte[] manifest = zip.readAllBytes(e);                   // CRC-32 checked
 *     zip.stream().filter(x -> x.getName().endsWith(".class")).forEach(...);
 * }
 * }
 *
 * <p><b>Why a mapping.</b> The whole archive is mapped once ({@link FileChannel#map} in a shared {@link Arena}).
 * A read is then a memory copy with no system call and no lock, where {@code ZipFile} takes a lock around
 * {@code seek} and {@code read} of one {@code RandomAccessFile}, so its readers queue. Stored entries can be handed
 * out with no copy at all ({@link #mappedBytes}). Positional reads ({@code pread}) would also be lock-free, but cost a
 * system call per piece read and could not offer the zero-copy view.
 *
 * <p><b>Truncation by another process.</b> A mapped file that shrinks loses pages, and touching one raises SIGBUS.
 * Native code never reads the mapping here: compressed bytes are copied into a pooled 64 KiB buffer by Java code
 * before the inflater sees them, and CRC-32s are computed from copies. The JVM turns SIGBUS in such a copy into an
 * error, which becomes a {@link ZipException} naming the archive, the entry and the file offset. So reading,
 * verifying or extracting an archive that is cut meanwhile fails with an {@link IOException}, never a crash. The one
 * exception is the zero-copy view of {@link #mappedBytes}, which is the mapping itself.
 *
 * <p><b>The central directory</b> is parsed once at open into compact immutable tables (parallel arrays, one byte
 * table of names, a hash index), not one object per entry. {@link Entry} objects are made on demand and are light.
 * Zip64 archives, data descriptors, archive comments, UTF-8 names (flag bit 11) and legacy names (code page 437, or
 * the charset given to {@link #open(Path, Charset)}) are read, as are archives with something prepended (a launcher
 * script, a self-extractor): their offsets are taken relative to where the archive really starts. A legacy name that
 * comes with an Info-ZIP Unicode Path extra field (0x7075, which 7-Zip and WinZip write) is replaced by that field's
 * UTF-8 name, if the field's CRC-32 matches the legacy name (a tool that renamed the entry may have left a stale one);
 * where the legacy name has no backslash, the field's backslashes (WinZip writes them) become slashes, so the name
 * keeps the legacy name's directories. Whether an entry is a directory comes from the legacy name and the attributes,
 * never from the field.
 *
 * <p><b>Errors</b> in the archive are {@link ZipException}s naming the archive, the entry and the offset. Open
 * refuses structural damage, listed below; an entry's own problems (unsupported method, encryption, a size deflate
 * cannot produce from its compressed size, a bad CRC) surface when it is read. An empty central directory that is
 * not where its offset says is an empty archive with something before it, and the end record's count of entries "on
 * this disk" is not held against its total, as every reference reads them.
 *
 * <p><b>What is refused</b> at open, each with the references that refuse the same input (in parentheses: the JDK's
 * {@link java.util.zip.ZipFile}, Python's zipfile, Info-ZIP's unzip reporting an error, Commons Compress), or the
 * reason where none does; {@code RefusalsTest} holds one input per item and checks the JDK's verdict:
 * <ul>
 *   <li>Shorter than an end record: 22 bytes at least (JDK, python, unzip, commons-compress).</li>
 *   <li>No end record: no end record signature in the last 64 KiB + 22 bytes (JDK, python, unzip,
 *       commons-compress).</li>
 *   <li>Split over disks: a disk number other than 0 in the end record; the other disks are not here
 *       (commons-compress).</li>
 *   <li>Zip64 count above 2^63: a count, size or offset that is negative as a Java long (JDK, unzip).</li>
 *   <li>Directory larger than the file: more directory than bytes before the end record (JDK, python, unzip).</li>
 *   <li>Directory offset past the directory: the start of the archive is missing (JDK, unzip,
 *       commons-compress).</li>
 *   <li>More entries than the directory can hold: 46 bytes each, checked before anything is allocated (JDK,
 *       unzip).</li>
 *   <li>No directory where the end record puts it: no header signature at its start (JDK, python, unzip).</li>
 *   <li>Directory cut short: fewer bytes than a header left at its end (JDK, python).</li>
 *   <li>Header without signature: a header in the directory that does not start with one (JDK, python, unzip).</li>
 *   <li>Header running past the directory: its name, extra field and comment reach past the directory's end (JDK,
 *       unzip, commons-compress).</li>
 *   <li>Count differs from the directory: the end record's count is not the number of headers, also modulo 65536
 *       (unzip).</li>
 *   <li>Name flagged UTF-8 that is not: it could not be looked up, and two names could decode alike (JDK,
 *       python).</li>
 *   <li>Entry on another disk: no reference refuses it; Sluice does because an entry's offset counts on its own
 *       disk, which split archives are and this file is not, so what is at that offset here is not the entry.</li>
 *   <li>Negative Zip64 size: a size or offset in a Zip64 extra field above 2^63 (JDK, commons-compress).</li>
 *   <li>Local header offset outside the data: at or past the central directory (commons-compress).</li>
 *   <li>Zip64 field lacking a deferred value: the header's 0xFFFFFFFF sends a size or offset to a Zip64 field that
 *       does not hold it (JDK, python, commons-compress).</li>
 *   <li>Extra field running past the extra data: one that claims more bytes than are left, met while looking for
 *       the Zip64 field (JDK, python, commons-compress).</li>
 *   <li>Overlapping entries: no reference refuses it at open; Sluice does because entries that share data are the
 *       "overlapping files" zip bomb, which makes a small archive extract to an enormous size, and no tool writes
 *       them.</li>
 *   <li>Compressed size past the directory: data that would run into the central directory
 *       (commons-compress).</li>
 *   <li>Prefix without the first local header: the offsets imply something prepended, yet the first entry is not
 *       where that puts it (commons-compress).</li>
 * </ul>
 *
 * <p><b>Threads and closing.</b> Every method may be called from any thread. {@link #close()} may run while other
 * threads read: they get {@link ClosedChannelException} (an {@link IOException}), never a crash. Entries of any size
 * (Zip64, 2 GiB and more) can be streamed, verified and extracted; only {@link #readAllBytes} and
 * {@link #mappedBytes} are limited to what one array or buffer holds.
 */
public final class ConcurrentZipFile implements Closeable, Iterable<ConcurrentZipFile.Entry> {
    private final Path path;
    private final String name;
    /** The mapping (or the caller's segment); null when the archive was read into {@link #held} instead. */
    private final MemorySegment file;
    /** The whole archive, when a small one was read into memory at open (see {@link #open(Path, Charset, int)}). */
    private final byte[] held;
    /** Reads of {@link #file} or {@link #held}, by which the directory, local headers and entries' bytes are read. */
    private final ArchiveBytes bytes;
    /** Null when the archive is a segment given by the caller (tests, fuzzing), which owns its memory. */
    private final Arena arena;
    private final CentralDirectory cen;
    private final ScratchPool scratches;
    /** The archive this one is an entry of, whose closing closes this one too; null for an archive on its own. */
    private final ConcurrentZipFile outer;
    /** Nested archives inflated into memory of their own, freed when this archive closes if not before. */
    private final java.util.Queue<ConcurrentZipFile> inflatedNested = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final AtomicBoolean closing = new AtomicBoolean();
    private volatile boolean closed;

    private ConcurrentZipFile(Path path, String name, MemorySegment file, Arena arena, Charset legacyCharset)
            throws ZipException {
        this(path, name, file, null, arena, legacyCharset, null);
    }

    private ConcurrentZipFile(Path path, String name, MemorySegment file, Arena arena, Charset legacyCharset,
            ConcurrentZipFile outer) throws ZipException {
        this(path, name, file, null, arena, legacyCharset, outer);
    }

    private ConcurrentZipFile(Path path, String name, MemorySegment file, byte[] held, Arena arena,
            Charset legacyCharset, ConcurrentZipFile outer) throws ZipException {
        this.outer = outer;
        this.path = path;
        this.name = name;
        this.file = file;
        this.held = held;
        this.arena = arena;
        this.bytes = held != null ? new ArchiveBytes(held) : new ArchiveBytes(file);
        try {
            this.cen = CentralDirectory.parse(bytes, name, legacyCharset);
            Faults.deliver();
        } catch (IndexOutOfBoundsException e) {
            // Every read is checked before it is made, so this is a bug; but a bug must still not escape as a
            // stranger exception than the damage that caused it.
            throw ZipErrors.withCause(ZipErrors.archive(name, 0, "damaged archive: " + e.getMessage()), e);
        } catch (InternalError e) {
            // Where the file ends now is where the lost pages begin.
            throw ZipErrors.withCause(ZipErrors.archive(name, Math.max(0, sizeNow()), "reading the central directory"
                    + " failed: the archive was cut by another process while it was being opened (SIGBUS)"
                    + cutSizes()), e);
        }
        this.scratches = new ScratchPool(Math.max(4, 2 * Runtime.getRuntime().availableProcessors()));
    }

    /**
     * Opens and maps the archive at {@code path} and reads its central directory. Names without the UTF-8 flag are
     * read as code page 437, as the zip specification says.
     *
     * @throws ZipException if the file is not a readable zip archive; the message names the offset and the problem
     * @throws java.nio.file.NoSuchFileException if there is no such file
     * @throws FileSystemException naming the path, if it is a directory ({@code Is a directory}), a FIFO, a socket or a
     *                             device
     * @throws IOException if the file cannot be opened or mapped
     */
    public static ConcurrentZipFile open(Path path) throws IOException {
        return open(path, null);
    }

    /**
     * Opens the archive at {@code path}, reading names without the UTF-8 flag in {@code legacyCharset} (for archives
     * made by tools that wrote names in the system's charset, such as Shift_JIS or CP866), or code page 437 if null.
     *
     * @see #open(Path)
     */
    public static ConcurrentZipFile open(Path path, Charset legacyCharset) throws IOException {
        Objects.requireNonNull(path, "path");
        requireRegularFile(path);
        Arena arena = Arena.ofShared();
        boolean success = false;
        try (FileChannel ch = FileChannel.open(path)) {
            // The mapping outlives the channel: it stays valid until the arena is closed.
            MemorySegment file = ch.size() == 0 ? MemorySegment.NULL
                    : ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            ConcurrentZipFile zip = new ConcurrentZipFile(path, path.toString(), file, arena, legacyCharset);
            success = true;
            return zip;
        } finally {
            if (!success) {
                arena.close();
            }
        }
    }

    /**
     * Opens the archive at {@code path} as {@link #open(Path, Charset)} does, except that an archive of at most
     * {@code inMemoryUpTo} bytes is read whole into a heap array instead of being mapped: a class loader's small jars,
     * opened before a program's first class, where the JVM's first mapping, arena and segment cost milliseconds of
     * set-up (see {@link ArchiveBytes}) that one read does not. The array is held until the archive is unreachable, so
     * this is for archives that stay open and small; reads of it take no lock either, and a file truncated after the
     * read no longer matters to it. Unlike a mapping's, a {@link #mappedBytes} view of such an archive stays readable
     * after {@link #close()}: it is the array.
     *
     * @throws IOException naming the path and the offset if the read fails; otherwise as {@link #open(Path, Charset)}
     */
    static ConcurrentZipFile open(Path path, Charset legacyCharset, int inMemoryUpTo) throws IOException {
        Objects.requireNonNull(path, "path");
        requireRegularFile(path);
        byte[] held;
        try (FileChannel ch = FileChannel.open(path)) {
            long size = ch.size();
            if (size > inMemoryUpTo) {
                held = null;
            } else {
                held = new byte[(int) size];
                int at = 0;
                try {
                    // In pieces: a heap buffer is read through a temporary direct one of its size, which the thread
                    // keeps.
                    for (int n; at < held.length && (n = ch.read(ByteBuffer.wrap(held, at, Math.min(64 * 1024,
                            held.length - at)), at)) > 0;) {
                        at += n;
                    }
                } catch (IOException e) {
                    throw new IOException("reading " + path + " into memory failed at offset " + at + " of " + size
                            + ": " + e.getMessage(), e);
                }
                if (at < held.length) {
                    // Cut by another process since its size was read: parse what is there, as a mapping of it would.
                    held = java.util.Arrays.copyOf(held, at);
                }
            }
        }
        if (held == null) {
            return open(path, legacyCharset);
        }
        return new ConcurrentZipFile(path, path.toString(), null, held, null, legacyCharset, null);
    }

    /**
     * Refuses, before anything is opened, what is not a regular file, naming the path and what it is, in the words of
     * PositionalFile's engines: a directory as the JDK says it ({@code Is a directory}: it opens, then fails to map
     * with "No such device"), and a FIFO, socket or device as such (opening a FIFO waits for a writer, and what it
     * then reads has no end to find the central directory at). A path that cannot be looked at (missing, say) is left
     * to the open, which reports it as the JDK does.
     */
    private static void requireRegularFile(Path path) throws IOException {
        int type = FileKinds.type(path, false);
        if (type == FileKinds.S_IFDIR) {
            throw new FileSystemException(path.toString(), null, "Is a directory");
        }
        String kind = FileKinds.nonPositional(type, false);
        if (kind != null) {
            throw new FileSystemException(path.toString(), null, kind.startsWith("is not") ? kind
                    + ", so it cannot be read as a zip archive" : kind + ", not a regular file, so it cannot be read"
                    + " as a zip archive");
        }
    }

    /** An archive held in memory, for tests and fuzzing: {@code bytes} stay the caller's. */
    static ConcurrentZipFile of(MemorySegment bytes, String name) throws ZipException {
        return new ConcurrentZipFile(null, name, bytes, null, null);
    }

    // ---------------------------------------------------------------- the archive

    /** The path this archive was opened from. */
    public Path path() {
        return path;
    }

    /** The archive's path as a string, as {@link java.util.zip.ZipFile#getName()}. */
    public String getName() {
        return name;
    }

    /** The number of entries. */
    public int size() {
        return cen.count;
    }

    /**
     * The archive comment, or null when there is none; decoded as UTF-8, as the JDK does.
     *
     * @throws IllegalStateException if the archive is closed
     * @throws UncheckedIOException wrapping a {@link ZipException} if another process cut the archive short
     */
    public String getComment() {
        int len = cen.end.commentLength();
        if (len == 0) {
            return null;
        }
        byte[] b = bytes(cen.end.commentPosition(), len);
        return new String(b, StandardCharsets.UTF_8);
    }

    /**
     * The entry called {@code name}, or null if there is none. As with {@code ZipFile}, a name without a trailing
     * slash also finds the directory entry {@code name + "/"}. When names repeat, the first in the central
     * directory wins.
     *
     * @throws IllegalStateException if the archive is closed
     */
    public Entry getEntry(String name) {
        Objects.requireNonNull(name, "name");
        ensureOpenUnchecked();
        int i = cen.find(name);
        if (i < 0 && !name.endsWith("/")) {
            i = cen.find(name.concat("/"));
        }
        return i < 0 ? null : new Entry(this, i, cen.name(i));
    }

    /**
     * The entries in central directory order, made as the stream is consumed.
     *
     * @throws IllegalStateException if the archive is closed
     */
    public Stream<Entry> stream() {
        ensureOpenUnchecked();
        return IntStream.range(0, cen.count).mapToObj(this::entry);
    }

    /** The entries in central directory order. */
    @Override
    public Iterator<Entry> iterator() {
        ensureOpenUnchecked();
        return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < cen.count;
            }

            @Override
            public Entry next() {
                if (next >= cen.count) {
                    throw new NoSuchElementException();
                }
                return entry(next++);
            }
        };
    }

    /**
     * The entry at position {@code index} of the central directory, {@code 0 <= index < size()}.
     *
     * @throws IndexOutOfBoundsException if there is no such position
     */
    public Entry entry(int index) {
        Objects.checkIndex(index, cen.count);
        return new Entry(this, index, cen.name(index));
    }

    // ---------------------------------------------------------------- reading entries

    /**
     * A stream of the entry's uncompressed bytes, of any size. Its CRC-32 and size are checked in the call that
     * delivers the last byte, which then throws {@link ZipException} on a mismatch. A read that meets the end of an
     * archive cut short by another process throws {@link ZipException} too.
     *
     * @throws ZipException if the entry cannot be read (unsupported method, encryption, damage)
     * @throws ClosedChannelException if the archive is closed
     */
    public InputStream getInputStream(Entry entry) throws IOException {
        return stream(check(entry));
    }

    /**
     * The entry's bytes, in an array of exactly its size; the CRC-32 is checked.
     *
     * @throws ZipException if the entry cannot be read, its CRC-32 or size is wrong, or it is 2 GiB or larger
     * @throws ClosedChannelException if the archive is closed, also while this call runs
     */
    public byte[] readAllBytes(Entry entry) throws IOException {
        try (EntryStream in = stream(check(entry))) {
            return in.readAllBytes();
        }
    }

    /**
     * Reads the entry through and checks its CRC-32 and size, keeping nothing: the bytes pass through a pooled
     * 64 KiB buffer, whatever the entry's size.
     *
     * @throws ZipException naming the entry and what is wrong with it, or that the archive was cut short meanwhile
     * @throws ClosedChannelException if the archive is closed
     */
    public void verify(Entry entry) throws IOException {
        try (EntryStream in = stream(check(entry))) {
            in.drain();
        }
    }

    /**
     * A stored (uncompressed) entry's bytes as a read-only view of the mapped archive, with no copy. The CRC-32 is
     * not checked (use {@link #verify}). The view is valid until the archive is closed; after that, reading it
     * throws {@link IllegalStateException}.
     *
     * <p>The view is the mapping itself, so the rule of every memory-mapped file applies to it: if another process
     * truncates the archive, reading a lost page from Java code throws {@link InternalError} (possibly a little
     * later than the read), and native code given the view (a channel write, a checksum) can end the JVM. Every
     * other method of this class copies out of the mapping first and reports a truncation as a {@link ZipException}.
     *
     * @throws IllegalArgumentException if the entry is not stored, or is 2 GiB or larger, more than a
     *                                  {@code ByteBuffer} can hold
     * @throws ZipException if the entry's local header is damaged
     */
    public ByteBuffer mappedBytes(Entry entry) throws IOException {
        int i = check(entry);
        if (cen.method(i) != STORED) {
            throw new IllegalArgumentException("entry '" + entry.getName() + "' is compressed (method "
                    + cen.method(i) + "), so there is no view of its bytes; use getInputStream or readAllBytes");
        }
        long size = cen.compressedSizes[i];
        if (size > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("entry '" + entry.getName() + "' has " + size
                    + " bytes, more than a ByteBuffer can view; use getInputStream");
        }
        return segment().asSlice(dataStart(i), size).asReadOnly().asByteBuffer();
    }

    /**
     * The zip or jar archive stored in {@code entry}, such as a library inside a Spring Boot executable jar
     * ({@code BOOT-INF/lib/x.jar}), read as an archive of its own without writing it anywhere.
     *
     * <ul>
     *   <li>A <b>stored</b> entry is not copied: the nested archive reads a slice of this archive's mapping. Its
     *       CRC-32 is not checked as a whole (that would read every byte at open); each of its own entries is still
     *       checked when read.</li>
     *   <li>A <b>deflated</b> entry is inflated once, CRC-32 checked, into memory off the Java heap that the nested
     *       archive owns and frees when it is closed, or this archive is.</li>
     * </ul>
     *
     * <p>The nested archive's {@link #getName()} is this archive's name, {@code !/} and the entry's name; its
     * {@link #path()} is null. Closing it leaves this archive open; closing this archive closes it too (its reads
     * then end with {@link ClosedChannelException}), so this archive must stay open while the nested one is used.
     *
     * @throws ZipException if the entry is not a readable zip archive (the message names both), is encrypted, uses
     *                      another compression method, or does not inflate to its declared size and CRC-32
     * @throws ClosedChannelException if this archive is closed
     */
    public ConcurrentZipFile openNested(Entry entry) throws IOException {
        int i = check(entry);
        String nestedName = name + "!/" + entry.getName();
        try (EntryStream in = stream(i)) {
            if (cen.method(i) == STORED) {
                MemorySegment slice = segment().asSlice(dataStart(i), cen.compressedSizes[i]);
                return new ConcurrentZipFile(null, nestedName, slice, null, null, this);
            }
            return inflated(in, i, nestedName);
        } catch (IllegalStateException e) {
            throw closedOr(e);
        }
    }

    private ConcurrentZipFile inflated(EntryStream in, int i, String nestedName) throws IOException {
        long size = cen.sizes[i];
        Arena memory = Arena.ofShared();
        boolean success = false;
        try {
            MemorySegment copy = size == 0 ? MemorySegment.NULL : memory.allocate(size);
            byte[] buf = new byte[64 * 1024];
            long at = 0;
            // EntryStream delivers no more than the declared size and checks size and CRC-32 with the last byte.
            for (int n; (n = in.read(buf, 0, (int) Math.min(buf.length, size - at))) > 0;) {
                MemorySegment.copy(buf, 0, copy, ValueLayout.JAVA_BYTE, at, n);
                at += n;
            }
            if (at != size) {
                throw entryError(i, "inflated to " + at + " bytes, but its declared size is " + size);
            }
            ConcurrentZipFile zip = new ConcurrentZipFile(null, nestedName, copy, memory, null, this);
            inflatedNested.add(zip);
            success = true;
            if (closed) {
                // Closed while inflating: close() may have run before the add, so it might not have seen this one.
                zip.close();
            }
            return zip;
        } finally {
            if (!success) {
                memory.close();
            }
        }
    }

    /**
     * Extracts every entry under {@code directory} with the {@link ExtractLimits#DEFAULT default limits}.
     *
     * @see #extractTo(Path, ExtractLimits)
     */
    public int extractTo(Path directory) throws IOException {
        return extractTo(directory, ExtractLimits.DEFAULT);
    }

    /**
     * Extracts every entry under {@code directory}, which is created if needed, and returns the number of files,
     * directories and symbolic links written, with the given limits and otherwise {@link ExtractOptions#DEFAULT}.
     *
     * @see #extractTo(Path, ExtractOptions)
     */
    public int extractTo(Path directory, ExtractLimits limits) throws IOException {
        return extractTo(directory, ExtractOptions.DEFAULT.withLimits(limits));
    }

    /**
     * Extracts the entries {@code options} selects under {@code directory}, which is created if needed, as unzip
     * does, and returns the number of files, directories and symbolic links written. Nothing is ever written
     * outside it: entries whose names are absolute, carry a drive letter, contain {@code ..} segments or reach
     * outside through a symbolic link are refused, and so are symbolic link entries whose target, resolved against
     * the link's directory (and through the links on the way, once all exist), leads outside. Links are made after
     * every file and directory. Entries made on Unix get their permission bits (not set-user-ID, set-group-ID or
     * sticky); times come from the extended timestamp field (0x5455) or the MS-DOS fields. The limits stop zip bombs:
     * everything that can be checked (limits, names, methods, existing files, link targets) is checked before
     * anything is written, and a failure while writing deletes what this call wrote.
     *
     * @throws ZipException naming the entry for a refused name or link, a crossed limit, a method neither this
     *                      class nor the options' decoder reads (named, with its number), or a damaged entry
     * @throws java.nio.file.FileAlreadyExistsException naming the file, if an entry's path exists and the options do
     *                                                  not overwrite
     */
    public int extractTo(Path directory, ExtractOptions options) throws IOException {
        return new Extraction(this, directory, options).run();
    }

    /**
     * Closes the archive and unmaps it. Reads in progress on other threads end with
     * {@link ClosedChannelException}. If a caller's native I/O is using a {@link #mappedBytes} view (a channel
     * writing it, say), this call waits for that to finish. Closing twice does nothing.
     */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        closed = true;
        scratches.close();
        if (outer != null) {
            outer.inflatedNested.remove(this);
        }
        for (ConcurrentZipFile n; (n = inflatedNested.poll()) != null;) {
            n.close();
        }
        if (arena == null) {
            return;
        }
        boolean interrupted = false;
        for (;;) {
            try {
                // A shared arena closes only after a handshake with every thread: a thread copying from the mapping
                // gets IllegalStateException. Our own reads never pass the mapping to native code, but a caller's
                // native I/O on a mappedBytes view (FileChannel.write, say) acquires the arena for its duration and
                // makes close throw instead; new views cannot be made once the flag above is set, so retrying ends
                // when those calls return.
                arena.close();
                break;
            } catch (IllegalStateException busy) {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the archive is still open: neither it nor, for a nested archive, the archive holding it is closed. */
    public boolean isOpen() {
        return !isClosedNow();
    }

    private boolean isClosedNow() {
        return closed || outer != null && outer.isClosedNow();
    }

    @Override
    public String toString() {
        return "ConcurrentZipFile[" + name + ", " + cen.count + " entries" + (isClosedNow() ? ", closed" : "") + "]";
    }

    // ---------------------------------------------------------------- internals

    CentralDirectory directory() {
        return cen;
    }

    /** Whether entry {@code index}'s name starts with {@code asciiPrefix}, looked at without making the name. */
    boolean nameStartsWith(int index, String asciiPrefix, boolean ignoreCase) {
        return cen.nameStartsWith(index, asciiPrefix, ignoreCase);
    }

    ScratchPool scratches() {
        return scratches;
    }

    String entryName(int i) {
        return cen.describe(i);
    }

    /** The entry's index after checking it belongs to this archive. */
    private int check(Entry entry) {
        Objects.requireNonNull(entry, "entry");
        if (entry.zip != this) {
            throw new IllegalArgumentException("entry '" + entry.getName() + "' belongs to " + entry.zip.name
                    + ", not to " + name);
        }
        return entry.index;
    }

    EntryStream stream(int i) throws IOException {
        ensureOpen();
        int method = cen.method(i);
        long size = cen.sizes[i];
        long csize = cen.compressedSizes[i];
        if ((cen.flags(i) & FLAG_ENCRYPTED) != 0) {
            throw entryError(i, "is encrypted, which is not supported");
        }
        if (method == STORED && size != csize) {
            throw entryError(i, "is stored, yet its size " + size + " differs from its compressed size " + csize);
        }
        if (method == DEFLATED && size / DEFLATE_MAX_RATIO > csize + 1) {
            throw entryError(i, "declares " + size + " bytes, more than deflate can make of " + csize
                    + " compressed bytes");
        }
        if (method != STORED && method != DEFLATED) {
            throw entryError(i, "uses compression method " + method + " (" + ZipLayout.methodName(method)
                    + "), which is not supported (only 0, stored, and 8, deflated)");
        }
        long start = dataStart(i);
        return new EntryStream(this, i, bytes, start, csize, size, cen.crcs[i], method == DEFLATED);
    }

    /**
     * A stored entry's bytes as a slice of the mapping, of any size, after the checks a read makes; null if the
     * entry is compressed. Readers copy from it with {@link Faults#deliver()} inside their catch of InternalError.
     */
    MemorySegment storedData(Entry entry) throws IOException {
        int i = check(entry);
        if (cen.method(i) != STORED) {
            return null;
        }
        stream(i).close();
        try {
            return segment().asSlice(dataStart(i), cen.compressedSizes[i]);
        } catch (IllegalStateException e) {
            throw closedOr(e);
        }
    }

    /**
     * A copy of the extra field of the entry's central directory header ({@code local} false) or of its local header
     * (true), for the times a zip file system reports.
     *
     * @throws IllegalStateException if the archive is closed
     * @throws UncheckedIOException wrapping a {@link ZipException} if another process cut the archive short
     */
    byte[] extraField(Entry entry, boolean local) {
        int i = check(entry);
        if (local) {
            long at = cen.localOffsets[i];
            if (at + LOCHDR > cen.dataLimit(i)) {
                return new byte[0];
            }
            ByteBuffer h = ByteBuffer.wrap(bytes(at, LOCHDR)).order(ByteOrder.LITTLE_ENDIAN);
            int nameLen = Short.toUnsignedInt(h.getShort(LOCNAM));
            int extLen = Short.toUnsignedInt(h.getShort(LOCEXT));
            long extra = at + LOCHDR + nameLen;
            return extLen == 0 || extra + extLen > cen.dataLimit(i) ? new byte[0] : bytes(extra, extLen);
        }
        long header = cen.headerPositions[i];
        ByteBuffer h = ByteBuffer.wrap(bytes(header, ZipLayout.CENHDR)).order(ByteOrder.LITTLE_ENDIAN);
        int extLen = Short.toUnsignedInt(h.getShort(ZipLayout.CENEXT));
        return extLen == 0 ? new byte[0]
                : bytes(header + ZipLayout.CENHDR + Short.toUnsignedInt(h.getShort(ZipLayout.CENNAM)), extLen);
    }

    /** The entry's index, after checking that it belongs to this archive. */
    int indexOf(Entry entry) {
        return check(entry);
    }

    /** Where the entry's (compressed) bytes start in the file, after checking its local header. */
    long dataOffset(Entry entry) throws IOException {
        return dataStart(check(entry));
    }

    /**
     * Where entry i's compressed bytes start in the file, after checking its local header and that they stay within
     * the entry's room.
     */
    private long dataStart(int i) throws IOException {
        ensureOpen();
        long local = cen.localOffsets[i];
        long base = cen.end.base();
        try {
            if (bytes.int32(local) != LOCSIG) {
                throw entryError(i, "has no local header signature at its offset");
            }
            long start = local + LOCHDR + bytes.u16(local + LOCNAM) + bytes.u16(local + LOCEXT);
            Faults.deliver();
            long end = start + cen.compressedSizes[i];
            if (end > cen.dataLimit(i)) {
                throw entryError(i, "data (" + cen.compressedSizes[i] + " bytes from offset " + (start - base)
                        + ") runs past " + (cen.dataLimit(i) - base) + ", where the next record starts");
            }
            return start;
        } catch (IllegalStateException e) {
            throw closedOr(e);
        } catch (InternalError e) {
            throw cutUnderUs(i, local, LOCHDR, e);
        }
    }

    /**
     * Entry i's compressed bytes, as a slice of the mapping, after the checks of {@link #dataStart}; for methods
     * this class cannot decode, handed to a {@link ExtractOptions.Decoder}. Read them only by copying, as
     * {@link EntryStream} does.
     */
    MemorySegment compressedData(int i) throws IOException {
        return segment().asSlice(dataStart(i), cen.compressedSizes[i]);
    }

    /** A copy of the archive's bytes at {@code position}; for comments, which come with no IOException. */
    private byte[] bytes(long position, int length) {
        ensureOpenUnchecked();
        try {
            byte[] b = new byte[length];
            bytes.copy(position, b, 0, length);
            Faults.deliver();
            return b;
        } catch (IllegalStateException e) {
            if (isClosedNow()) {
                throw new IllegalStateException("zip archive closed: " + name, e);
            }
            throw e;
        } catch (InternalError e) {
            throw new UncheckedIOException(ZipErrors.withCause(ZipErrors.archive(name, position, "reading "
                    + length + " bytes failed: the archive was cut by another process while mapped (SIGBUS)"
                    + cutSizes()), e));
        }
    }

    void ensureOpen() throws ClosedChannelException {
        if (isClosedNow()) {
            throw new ClosedChannelException();
        }
    }

    private void ensureOpenUnchecked() {
        if (isClosedNow()) {
            throw new IllegalStateException("zip archive closed: " + name);
        }
    }

    /** What an {@link IllegalStateException} from the mapping means: closed by us, or someone else's problem. */
    IOException closedOr(IllegalStateException e) {
        if (isClosedNow()) {
            ClosedChannelException c = new ClosedChannelException();
            c.initCause(e);
            return c;
        }
        throw e;
    }

    /**
     * The failure for a fault (SIGBUS) while reading {@code length} bytes at file position {@code position} for
     * entry i: the file lost those pages, so another process cut it while it was mapped.
     */
    ZipException cutUnderUs(int i, long position, long length, InternalError e) {
        return ZipErrors.withCause(entryError(i, "reading " + length + " bytes at file offset " + position
                + " failed: the archive was cut by another process while mapped (SIGBUS)" + cutSizes()), e);
    }

    /** For messages about a file cut under the mapping: its size now and when it was mapped, if known. */
    private String cutSizes() {
        long now = sizeNow();
        return now < 0 ? "" : "; it is now " + now + " bytes, it was " + bytes.size();
    }

    /** The archive's bytes as a segment: the mapping, or a segment over the array it was read into. */
    private MemorySegment segment() {
        return file != null ? file : MemorySegment.ofArray(held);
    }

    /** The archive's size now, or -1 if unknown. */
    private long sizeNow() {
        if (path == null) {
            return -1;
        }
        try {
            return Files.size(path);
        } catch (IOException e) {
            return -1;
        }
    }

    ZipException entryError(int i, String what) {
        return ZipErrors.entry(name, cen.describe(i), cen.localOffsets[i] - cen.end.base(), what);
    }

    // ---------------------------------------------------------------- entries

    /**
     * One entry of a {@link ConcurrentZipFile}: its name and what the central directory says about it. Made on
     * demand from the archive's tables, immutable, and valid only with its own archive. Two entries are equal when
     * they are the same entry of the same archive.
     */
    public static final class Entry {
        private static final int S_IFMT = 0xF000;
        private static final int S_IFLNK = 0xA000;

        private final ConcurrentZipFile zip;
        private final int index;
        private final String name;

        private Entry(ConcurrentZipFile zip, int index, String name) {
            this.zip = zip;
            this.index = index;
            this.name = name;
        }

        /** The entry's name, with {@code /} between directories, as stored. */
        public String getName() {
            return name;
        }

        /** The entry's position in the central directory. */
        public int index() {
            return index;
        }

        /**
         * Whether the entry is a directory: its name as stored ends with {@code /}, or it holds no data and its
         * attributes say so (the MS-DOS directory bit, or a Unix directory mode). A Unicode Path field, which only
         * spells the name in UTF-8, does not change it.
         */
        public boolean isDirectory() {
            return zip.cen.isDirectory(index);
        }

        /**
         * Whether the entry is a symbolic link: made on Unix, with the link file type in its Unix mode. Its data is
         * the link's target.
         */
        public boolean isSymbolicLink() {
            return (zip.cen.madeBy[index] & 0xFF) == CentralDirectory.UNIX_HOST
                    && ((zip.cen.externalAttributes[index] >>> 16) & S_IFMT) == S_IFLNK;
        }

        /** The uncompressed size in bytes. */
        public long getSize() {
            return zip.cen.sizes[index];
        }

        /** The compressed size in bytes (equal to {@link #getSize()} for stored entries). */
        public long getCompressedSize() {
            return zip.cen.compressedSizes[index];
        }

        /** The CRC-32 of the uncompressed bytes, as the archive declares it. */
        public long getCrc() {
            return zip.cen.crcs[index] & 0xFFFF_FFFFL;
        }

        /** The compression method: 0 stored, 8 deflated, or another number Sluice cannot read. */
        public int getMethod() {
            return zip.cen.method(index);
        }

        /** The general purpose bit flags (APPNOTE 4.4.4): bit 0 encrypted, 3 data descriptor, 11 UTF-8 name. */
        public int getFlags() {
            return zip.cen.flags(index);
        }

        /**
         * The last modification time from the MS-DOS date and time fields, read in the system time zone as
         * {@link java.util.zip.ZipEntry#getTime()} does; null when the fields hold no valid date.
         */
        public FileTime getLastModifiedTime() {
            int dos = zip.cen.dosTimes[index];
            int date = dos >>> 16;
            int time = dos & 0xFFFF;
            try {
                LocalDateTime t = LocalDateTime.of(1980 + (date >>> 9), (date >>> 5) & 0xF, date & 0x1F,
                        time >>> 11, (time >>> 5) & 0x3F, Math.min(59, (time & 0x1F) * 2));
                return FileTime.from(t.atZone(ZoneId.systemDefault()).toInstant());
            } catch (java.time.DateTimeException e) {
                return null;
            }
        }

        /**
         * The entry's comment, or null if it has none.
         *
         * @throws IllegalStateException if the archive is closed
         * @throws UncheckedIOException wrapping a {@link ZipException} if another process cut the archive short
         */
        public String getComment() {
            CentralDirectory cen = zip.cen;
            long header = cen.headerPositions[index];
            // Read through a copy, like every access after open, so that a cut archive is an exception here too.
            ByteBuffer h = ByteBuffer.wrap(zip.bytes(header, ZipLayout.CENHDR)).order(ByteOrder.LITTLE_ENDIAN);
            int commentLen = Short.toUnsignedInt(h.getShort(ZipLayout.CENCOM));
            if (commentLen == 0) {
                return null;
            }
            // The raw name's length: the name in the table may be a longer Unicode Path.
            long at = header + ZipLayout.CENHDR + Short.toUnsignedInt(h.getShort(ZipLayout.CENNAM))
                    + Short.toUnsignedInt(h.getShort(ZipLayout.CENEXT));
            return cen.comment(index, zip.bytes(at, commentLen));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Entry e && e.zip == zip && e.index == index;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(zip) * 31 + index;
        }

        /** The entry's name, as {@link java.util.zip.ZipEntry#toString()}. */
        @Override
        public String toString() {
            return name;
        }
    }
}
