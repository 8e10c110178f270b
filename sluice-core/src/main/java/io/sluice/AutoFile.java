package io.sluice;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The AUTO engine: one file, one channel, and per call the mechanism that is fastest for its shape. Reads the
 * {@link AutoChooser} sends to the mapping are memory copies out of a read-only mapping made over the same channel
 * (CHANNEL's {@code pread} takes the rest); every write is a {@code pwrite} on that channel, which ext4 and most file
 * systems complete in the caller's thread, where io_uring would hand a buffered write to a kernel worker; batches
 * and asynchronous calls go to an io_uring file opened on the same file the first time one comes.
 *
 * <p>Why the semantics are one file's: the mapping is {@code MAP_SHARED} over the page cache that {@code pread},
 * {@code pwrite} and io_uring use, so a write by any path is seen by a read by any other as soon as the write
 * returns. The mapping covers what the file held when it was last mapped: a read reaching past it goes to
 * {@code pread}, which sees a file grown by writes since, and after a run of such reads the mapping follows the file
 * (each run twice as long as the last, so a file that keeps growing is not remapped for every few reads). Truncation
 * goes through the mapping's engine, which shrinks the mapping before the file, so no read can touch a page the file
 * lost. A cut by another process is the one case where AUTO can answer as MMAP does (zeros in the page holding the
 * new end, until the size is next looked at) or as CHANNEL does (-1), depending on which path the read took. The
 * io_uring file is opened by path, so it is used only when it is the same file (device and inode) the channel holds.
 *
 * <p>With {@link SluiceOption#DIRECT}, {@code SQPOLL} or {@code IOPOLL} every transfer must go through io_uring, so
 * {@link PositionalFile#open} opens an IO_URING file instead of this.
 */
final class AutoFile extends PositionalFile {
    /** Per device (st_dev): the chooser shared by every AUTO file there, so what one file learns the next uses. */
    private static final Map<Long, AutoChooser> CHOOSERS = new ConcurrentHashMap<>();
    private static final Object NO_URING = new Object();
    private static final Object CLOSED = new Object();
    private static final int FOLLOW_FIRST = 16;
    private static final int FOLLOW_MOST = 1 << 16;

    private final ReopeningChannel channel;
    private final ChannelFile io;
    /** Null when the file is not one that maps (a device, a /proc file). */
    private final MappedFile map;
    private final AutoChooser chooser;
    /** Device and inode of the file the channel opened, to check the io_uring file against; null if unknown. */
    private final Object identity;
    /** Null until the first batch or asynchronous call, then the io_uring file, {@link #NO_URING} or {@link #CLOSED}. */
    private volatile Object uring;
    /** Reads that passed the end of the mapping since it last followed the file (racy counts: a hint only). */
    private int misses;
    private int followAfter;
    /** Whether each follow doubles the run of misses before the next (off in tests that follow at every miss). */
    private final boolean backOff;

    private AutoFile(Path path, OpenSpec spec, ReopeningChannel channel, boolean mappable, AutoChooser chooser,
                     Object identity, int followFirst, boolean backOff) {
        super(path, Engine.AUTO, spec);
        this.channel = channel;
        this.io = new ChannelFile(path, spec, channel);
        this.map = mappable ? MappedFile.reader(path, spec, channel) : null;
        this.chooser = chooser;
        this.identity = identity;
        this.followAfter = followFirst;
        this.backOff = backOff;
    }

    static AutoFile open(Path path, OpenSpec spec) throws IOException {
        return open(path, spec, null, FOLLOW_FIRST, true);
    }

    /**
     * Opens with the given chooser (tests pin one; null: the device's), the number of reads past the mapping after
     * which it first follows the file, and whether that number doubles at each follow.
     */
    static AutoFile open(Path path, OpenSpec spec, AutoChooser chooser, int followFirst, boolean backOff)
            throws IOException {
        ReopeningChannel channel = new ReopeningChannel(path, spec);
        boolean success = false;
        try {
            Map<String, Object> a = attributes(path, spec);
            long dev = a == null ? -1 : ((Number) a.get("dev")).longValue();
            boolean regular = a != null && (((Integer) a.get("mode")) & 0170000) == 0100000;
            // An empty regular file maps and grows like any other; a /proc file says 0 too, and has bytes.
            boolean mappable = regular && (((Number) a.get("size")).longValue() > 0
                    || Mapped.unmappableCause(path, spec.noFollowLinks()) == null);
            Object identity = a == null ? null : dev + ":" + a.get("ino");
            AutoFile f = new AutoFile(path, spec, channel, mappable, chooser != null ? chooser : chooser(dev),
                    identity, followFirst, backOff);
            success = true;
            return f;
        } finally {
            if (!success) {
                channel.close();
            }
        }
    }

    /** One stat of the path just opened: device, inode, type and size; null where there is no "unix" view. */
    private static Map<String, Object> attributes(Path path, OpenSpec spec) {
        try {
            LinkOption[] links = spec.noFollowLinks() ? new LinkOption[] {LinkOption.NOFOLLOW_LINKS}
                    : new LinkOption[0];
            return Files.readAttributes(path, "unix:dev,ino,mode,size", links);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return null;
        }
    }

    /** The chooser for device {@code dev}, made from this machine's thresholds, remade when those change (a pin). */
    static AutoChooser chooser(long dev) {
        AutoThresholds t = AutoThresholds.current();
        AutoChooser c = CHOOSERS.get(dev);
        if (c == null || !c.initial().equals(t)) {
            c = new AutoChooser(t, !t.source().startsWith("pinned"),
                    () -> ThreadLocalRandom.current().nextInt() & Integer.MAX_VALUE, System::nanoTime);
            CHOOSERS.put(dev, c);
        }
        return c;
    }

    /** Every device's chooser, described ({@link Engine#autoChoices}). */
    static String describeChoosers() {
        if (CHOOSERS.isEmpty()) {
            return "no AUTO file opened yet";
        }
        StringBuilder b = new StringBuilder();
        new TreeMap<>(CHOOSERS).forEach((dev, c) -> {
            if (!b.isEmpty()) {
                b.append(System.lineSeparator());
            }
            b.append("device ").append(dev).append(": ").append(c.describe());
        });
        return b.toString();
    }

    /** The chooser this file's reads ask (for {@code sluice info} and tests). */
    AutoChooser chooser() {
        return chooser;
    }

    /** For tests: how many bytes the mapping covers now (0 when there is none or it is not made yet). */
    long mappedBytes() {
        return map == null ? 0 : map.mappedSize();
    }

    /** Whether reads may go through a mapping (false for devices and files that cannot be mapped). */
    boolean maps() {
        return map != null;
    }

    /**
     * Closing unmaps first and closes the channel after, so with a mapping, the mapping says whether the file is
     * open: a read that the unmapping ended must find the file closed.
     */
    @Override
    public boolean isOpen() {
        return map != null ? map.isOpen() : channel.isOpen();
    }

    @Override
    void ensureOpen() throws ClosedChannelException {
        if (!isOpen()) {
            throw new ClosedChannelException();
        }
    }

    // ---------------------------------------------------------------- reads: the chooser's call

    // An untimed read the chooser sends to the mapping asks the mapping once (MappedFile.readMapped checks the
    // coverage and copies); one it sends to pread goes straight there. Everything else (timed reads, reads past the
    // mapping, files without one) takes the methods below, which only a sampled call or a miss reaches.

    /**
     * After a read past the end of the mapping: whether the mapping was just made to follow the file, so the read
     * should try it again. It follows after a run of such reads, each run twice as long as the last.
     */
    private boolean follow() throws IOException {
        if (++misses < followAfter) {
            return false;
        }
        misses = 0;
        if (backOff) {
            followAfter = Math.min(FOLLOW_MOST, followAfter * 2);
        }
        map.follow();
        return true;
    }

    private void record(int how, int path, int kind, long length, long t0) {
        if ((how & AutoChooser.TIMED) != 0) {
            chooser.record(kind, length, path, chooser.now() - t0);
        }
    }

    @Override
    int readSegment(MemorySegment dst, long position) throws IOException {
        int kind = dst.isNative() ? AutoChooser.NATIVE : AutoChooser.HEAP;
        int how = chooser.route(kind, dst.byteSize());
        if (how == AutoChooser.MAP && map != null) {
            int n = map.readMapped(dst, position);
            if (n != MappedFile.UNMAPPED) {
                return n;
            }
        } else if (how == AutoChooser.PREAD) {
            return io.readSegment(dst, position);
        }
        return readSegmentOtherwise(dst, position, kind, how);
    }

    /** A timed read, or one the chooser sent to a mapping that does not cover it (or that this file lacks). */
    private int readSegmentOtherwise(MemorySegment dst, long position, int kind, int how) throws IOException {
        long t0 = (how & AutoChooser.TIMED) != 0 ? chooser.now() : 0;
        int n = MappedFile.UNMAPPED;
        if ((how & AutoChooser.MAP) != 0 && map != null) {
            n = map.readMapped(dst, position);
            if (n == MappedFile.UNMAPPED && follow()) {
                n = map.readMapped(dst, position);
            }
        }
        int path = AutoChooser.MAP;
        if (n == MappedFile.UNMAPPED) {
            path = AutoChooser.PREAD;
            n = io.readSegment(dst, position);
        }
        record(how, path, kind, dst.byteSize(), t0);
        return n;
    }

    @Override
    int readArray(byte[] dst, int offset, int length, long position) throws IOException {
        int how = chooser.route(AutoChooser.HEAP, length);
        if (how == AutoChooser.MAP && map != null) {
            int n = map.readMappedArray(dst, offset, length, position);
            if (n != MappedFile.UNMAPPED) {
                return n;
            }
        } else if (how == AutoChooser.PREAD) {
            return io.readArray(dst, offset, length, position);
        }
        return readArrayOtherwise(dst, offset, length, position, how);
    }

    private int readArrayOtherwise(byte[] dst, int offset, int length, long position, int how) throws IOException {
        long t0 = (how & AutoChooser.TIMED) != 0 ? chooser.now() : 0;
        int n = MappedFile.UNMAPPED;
        if ((how & AutoChooser.MAP) != 0 && map != null) {
            n = map.readMappedArray(dst, offset, length, position);
            if (n == MappedFile.UNMAPPED && follow()) {
                n = map.readMappedArray(dst, offset, length, position);
            }
        }
        int path = AutoChooser.MAP;
        if (n == MappedFile.UNMAPPED) {
            path = AutoChooser.PREAD;
            n = io.readArray(dst, offset, length, position);
        }
        record(how, path, AutoChooser.HEAP, length, t0);
        return n;
    }

    @Override
    int readBuffer(ByteBuffer dst, long position) throws IOException {
        int how = chooser.route(dst.isDirect() ? AutoChooser.NATIVE : AutoChooser.HEAP, dst.remaining());
        // Only the untimed mapped read is here, to keep this method's compiled code small: HotSpot inlines a method
        // already compiled into more than InlineSmallCode (2,500 bytes on x86-64) into no caller compiled after it
        // ("already compiled into a big method"), and random 512-byte reads reached through such a call ran at
        // 0.55 to 0.85 of inlined ones in `sluice bench`. With pread, the timed path and a second segment view here
        // it compiled to 3,656 bytes; now 2,888 (MMAP's readBuffer: 2,512), so still over (2026-11-26-auto-s4.md).
        if (how == AutoChooser.MAP && map != null) {
            int n = map.readMapped(MemorySegment.ofBuffer(dst), position);
            if (n > 0) {
                dst.position(dst.position() + n);
                return n;
            }
            if (n != MappedFile.UNMAPPED) {
                return n; // -1: a copy that failed went on in the mapping's engine, which found the end
            }
        }
        return readBufferOtherwise(dst, position, how);
    }

    /** A read by pread, a timed read, or one the mapping does not cover; the buffer moves past what was read. */
    private int readBufferOtherwise(ByteBuffer dst, long position, int how) throws IOException {
        if (how == AutoChooser.PREAD) {
            return io.readBuffer(dst, position);
        }
        if (how == (AutoChooser.PREAD | AutoChooser.TIMED)) {
            // Timed on the call the untimed preads make. Through readSegmentOtherwise, a segment view of the buffer
            // and a buffer view of that segment were made per call, by code that a young JVM, where this path runs
            // once in thousands of reads, had not compiled: an explored 512-byte pread was timed at 12 to 24 µs where
            // it takes about 2, and the chooser kept reads on the mapping where pread was faster
            // (docs/benchmarks/2026-11-26-deciding-s6.md).
            int length = dst.remaining();
            long t0 = chooser.now();
            int n = io.readBuffer(dst, position);
            record(how, AutoChooser.PREAD, dst.isDirect() ? AutoChooser.NATIVE : AutoChooser.HEAP, length, t0);
            return n;
        }
        // The mapping's form is a segment, made here and not shared with readBuffer: a view that reached a call
        // that is not inlined escaped, and the JIT allocated it on every read.
        int n = readSegmentOtherwise(MemorySegment.ofBuffer(dst), position,
                dst.isDirect() ? AutoChooser.NATIVE : AutoChooser.HEAP, how);
        if (n > 0) {
            dst.position(dst.position() + n);
        }
        return n;
    }

    @Override
    long readBuffers(ByteBuffer[] dsts, int offset, int count, long position) throws IOException {
        return io.readBuffers(dsts, offset, count, position);
    }

    @Override
    long readSegments(MemorySegment[] dsts, int offset, int count, long position) throws IOException {
        return io.readSegments(dsts, offset, count, position);
    }

    // ---------------------------------------------------------------- writes: pwrite

    @Override
    int writeSegment(MemorySegment src, long position) throws IOException {
        return io.writeSegment(src, position);
    }

    @Override
    int writeArray(byte[] src, int offset, int length, long position) throws IOException {
        return io.writeArray(src, offset, length, position);
    }

    @Override
    int writeBuffer(ByteBuffer src, long position) throws IOException {
        return io.writeBuffer(src, position);
    }

    @Override
    long writeBuffers(ByteBuffer[] srcs, int offset, int count, long position) throws IOException {
        return io.writeBuffers(srcs, offset, count, position);
    }

    @Override
    long writeSegments(MemorySegment[] srcs, int offset, int count, long position) throws IOException {
        return io.writeSegments(srcs, offset, count, position);
    }

    // ---------------------------------------------------------------- batches and asynchronous calls: io_uring

    /**
     * The io_uring file, opened on first use; null when io_uring cannot serve this file (not available here, the
     * path now names another file, or this file is closed: the caller's synchronous fallback then reports that).
     */
    UringFile uring() {
        Object u = uring;
        if (u == null) {
            synchronized (this) {
                u = uring;
                if (u == null) {
                    uring = u = openUring();
                }
            }
        }
        return u instanceof UringFile f ? f : null;
    }

    /** For tests: whether the io_uring file has been opened (without opening it). */
    boolean ringOpened() {
        return uring instanceof UringFile;
    }

    private Object openUring() {
        if (identity == null || !isOpen() || !Engine.IO_URING.isAvailable()) {
            return NO_URING;
        }
        OpenSpec s = spec();
        EnumSet<StandardOpenOption> std = EnumSet.copyOf(s.standard());
        // The file exists now: it must be neither created again nor emptied.
        std.remove(StandardOpenOption.CREATE);
        std.remove(StandardOpenOption.CREATE_NEW);
        std.remove(StandardOpenOption.TRUNCATE_EXISTING);
        UringFile f;
        try {
            f = UringFile.open(path(), new OpenSpec(std, s.noFollowLinks(), s.advice(), false, false, false));
        } catch (IOException | RuntimeException e) {
            return NO_URING; // renamed away, deleted, or refused: the synchronous paths still serve every call
        }
        boolean same = false;
        try {
            Map<String, Object> a = Files.readAttributes(Path.of("/proc/self/fd/" + f.fd()), "unix:dev,ino");
            same = Objects.equals(identity, ((Number) a.get("dev")).longValue() + ":" + a.get("ino"));
        } catch (IOException | RuntimeException e) {
            same = false;
        }
        if (!same) {
            closeQuietly(f);
            return NO_URING;
        }
        return f;
    }

    private static void closeQuietly(UringFile f) {
        try {
            f.closeFile();
        } catch (IOException e) {
            // nothing was done through it
        }
    }

    @Override
    void submit(IoBatch batch, int from, int to) {
        UringFile u = uring();
        if (u != null) {
            u.submit(batch, from, to);
        } else {
            super.submit(batch, from, to);
        }
    }

    @Override
    CompletableFuture<Integer> startReadAsync(MemorySegment dst, long position) {
        UringFile u = uring();
        // The io_uring file's own start, not its readAsync: the event is this file's (engine AUTO), and one.
        return u != null ? u.startReadAsync(dst, position) : super.startReadAsync(dst, position);
    }

    @Override
    CompletableFuture<Integer> startWriteAsync(MemorySegment src, long position) {
        UringFile u = uring();
        return u != null ? u.startWriteAsync(src, position) : super.startWriteAsync(src, position);
    }

    // ---------------------------------------------------------------- the rest

    @Override
    public long size() throws IOException {
        // Through the mapping's engine when there is one: its size call follows a cut, and it takes the lock that
        // keeps the JDK's size and map apart on the shared channel.
        return map != null ? map.size() : io.size();
    }

    @Override
    void truncateFile(long size) throws IOException {
        if (map != null) {
            map.truncateFile(size); // the mapping shrinks before the file
        } else {
            io.truncateFile(size);
        }
    }

    @Override
    public void force(boolean metadata) throws IOException {
        io.force(metadata);
    }

    @Override
    boolean closeFile() throws IOException {
        // The mapping's engine unmaps (reads in flight there end with ClosedChannelException) and closes the shared
        // channel; without one the channel engine closes it.
        boolean closed = map != null ? map.closeFile() : io.closeFile();
        Object u;
        synchronized (this) {
            u = uring;
            uring = CLOSED;
        }
        if (u instanceof UringFile f) {
            f.closeFile();
        }
        return closed;
    }
}
