package io.sluice.db;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.FileStore;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreException;
import org.h2.mvstore.SingleFileStore;

/**
 * An embedded ordered key-value store of byte arrays: keys in unsigned byte order (shorter first on a common
 * prefix), in one file or in memory, on H2's MVStore (a copy-on-write B-tree). Sluice's JRuby {@code Sluice::DB} is
 * built on it; nothing here depends on JRuby.
 *
 * <h2>Arrays</h2>
 * The store keeps the arrays it is given and hands out its own: a caller must not change a key or value array after
 * passing it in, nor one it got back. This is what lets a binding move bytes with at most one copy.
 *
 * <h2>Threads</h2>
 * Any number of threads may read and write at once. Reads take no lock and see every write that has returned. Writes
 * are serialized by one lock, which a transaction holds from {@link #beginTransaction} to its end, so other threads'
 * writes wait for a transaction while their reads go on (and see its writes before it ends, as in Kyoto Cabinet).
 *
 * <h2>Durability</h2>
 * A <em>commit</em> writes every change made before it to the file as one new version of the tree, with the
 * {@code write} system call, and the file's header then names the newest complete version; opening a file reads the
 * newest complete version and ignores anything after it.
 * <ul>
 *   <li>{@link #commitTransaction(boolean)} commits the transaction's writes, and the ones made before it, as one
 *       version: after it returns, a {@code kill -9} of this process keeps them (the bytes are in the kernel's page
 *       cache), and a crash can never leave part of a transaction.</li>
 *   <li>With {@code hard} it also {@code fsync}s the file ({@link #sync}) before returning: then the transaction
 *       also survives power loss or a kernel crash. Without it, power loss may lose the last versions committed
 *       before the kernel wrote them out; the file then opens at an older complete version (MVStore checks each
 *       version's checksums and falls back).</li>
 *   <li>Writes outside a transaction are committed by a background thread about once a second (and whenever about
 *       {@value #COMMIT_MEMORY} bytes of changes wait): a {@code kill -9} loses at most the last second or so of
 *       them, never leaves a damaged file.</li>
 *   <li>{@link #close} commits and syncs.</li>
 * </ul>
 * A commit or sync that fails is an {@link IOException} naming the call and the file. A write outside a transaction
 * that finds {@value #COMMIT_MEMORY} bytes waiting commits them, and throws {@link java.io.UncheckedIOException} if
 * that fails (the write itself is kept in memory; the next commit tries again).
 *
 * <h2>Locking</h2>
 * A file is locked while open ({@code FileChannel.tryLock}, a POSIX record lock): exclusively when writable, shared
 * when read-only. Opening a file that another process (or another open store in this JVM) has locked in a conflicting
 * way fails at once with an {@link IOException} saying so. Within one JVM a file can be open in one store only, even
 * read-only: the JDK refuses a second lock on a file its process holds one on.
 *
 * <h2>Damaged files</h2>
 * Opening reads the file's headers and its newest chunk: a file that is not a store (an empty file opened
 * read-only, another format), or whose headers are damaged, fails to open with a {@link DamagedStoreException}
 * naming it, and leaves the file unlocked. A file cut short (an interrupted copy, a crash in the middle of a commit)
 * opens at its newest complete version; opening compares that version with the one the file's header names and with
 * the footer its last bytes should hold, and {@link #droppedAtOpen} then names what was lost (with
 * {@code repair} false, {@link #open(Path, boolean, boolean, boolean, boolean)} refuses the file instead). A file cut
 * exactly at the end of an older version, whose header is older too, cannot be told from a whole older file. MVStore
 * does not check the bytes of each page, so a page damaged after it was written may still read as wrong records, or
 * fail the read that meets it with MVStore's unchecked {@link MVStoreException}.
 */
public final class KvStore implements AutoCloseable {
    /** Bytes of uncommitted changes after which a write outside a transaction commits them. */
    static final int COMMIT_MEMORY = 16 << 20;

    private static final String MAP_NAME = "data";

    private final MVStore store;
    /** The store's file, which MVStore leaves to its opener to close; null in memory. */
    private final FileStore<?> file;
    private final MVMap<byte[], byte[]> map;
    private final Path path;
    private final boolean writable;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final ScheduledExecutorService committer;
    /** The thread in a transaction, or null. Guarded by writeLock. */
    private Thread transaction;
    private volatile boolean closed;
    /** Why the store closed itself, or null. */
    private volatile String closedBecause;
    /**
     * Counts the calls that may have changed records (writes, bulk writes, aborts), so that a cursor can tell that
     * the tree it walks is no longer the one it positioned itself on.
     */
    private volatile long changes;
    /**
     * Counts the calls to {@link #clear} and the aborted transactions, after which cursors are nowhere (as Kyoto
     * Cabinet's are: its tree database disables them).
     */
    private volatile long clears;
    /** What opening found missing from a file cut short, or null. */
    private String droppedAtOpen;

    private KvStore(MVStore store, MVMap<byte[], byte[]> map, FileStore<?> file, Path path, boolean writable) {
        this.store = store;
        this.map = map;
        this.file = file;
        this.path = path;
        this.writable = writable;
        if (path != null && writable) {
            committer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "sluice-db-commit " + path);
                t.setDaemon(true);
                return t;
            });
            committer.scheduleWithFixedDelay(this::backgroundCommit, 1, 1, TimeUnit.SECONDS);
        } else {
            committer = null;
        }
    }

    /** What failed, from the JDK's exception: its reason, or for the kinds that have none, the C library's text. */
    private static String cause(IOException e) {
        if (e instanceof java.nio.file.FileSystemException f) {
            if (f.getReason() != null) {
                return f.getReason();
            }
            if (f instanceof java.nio.file.AccessDeniedException) {
                return "Permission denied";
            }
            if (f instanceof NoSuchFileException) {
                return "No such file or directory";
            }
            if (f instanceof java.nio.file.FileAlreadyExistsException) {
                return "File exists";
            }
        }
        return e.getMessage() != null ? withoutVersion(e.getMessage()) : e.toString();
    }

    /** {@code message} without MVStore's trailing " [2.3.232/1]" (its version and error code). */
    private static String withoutVersion(String message) {
        return message == null ? null : message.replaceFirst("\\s*\\[\\d+\\.\\d+\\.\\d+(/-?\\d+)?\\]$", "");
    }

    /**
     * Opens the store in file {@code path}.
     *
     * @param writable whether writes are allowed (the file is then locked exclusively, else shared)
     * @param create whether a missing file is created (only when writable)
     * @param truncate whether every record is removed on opening (only when writable)
     * @throws NoSuchFileException if the file does not exist and {@code create} is false
     * <p>A Kyoto Cabinet TreeDB file ({@code .kct}) opened read-only is read whole into a read-only store in memory
     * (its records in the same order; see {@code KyotoCabinetFiles}); it is not locked, and a writer changing it
     * meanwhile is not seen.
     *
     * @throws DamagedStoreException if the file is not a store (an empty file opened read-only, another format, a
     *     damaged header or newest chunk), or is a Kyoto Cabinet file opened writable, or one that cannot be read (a
     *     compressed one, another comparator, damaged)
     * @throws IOException if the file is locked by another process or store, or cannot be read; the message names
     *     the file
     */
    public static KvStore open(Path path, boolean writable, boolean create, boolean truncate) throws IOException {
        return open(path, writable, create, truncate, true);
    }

    /**
     * Opens the store in file {@code path}, as {@link #open(Path, boolean, boolean, boolean)} does, and says what to
     * do with a file cut short (see "Damaged files" in the class comment).
     *
     * @param repair whether a file cut short opens at its newest complete version, with {@link #droppedAtOpen}
     *     saying what is missing; if false it is refused with a {@link DamagedStoreException}
     * @throws DamagedStoreException if the file is not a store, or is cut short and {@code repair} is false
     * @throws IOException as {@link #open(Path, boolean, boolean, boolean)}
     */
    public static KvStore open(Path path, boolean writable, boolean create, boolean truncate, boolean repair)
            throws IOException {
        Path p = path.toAbsolutePath();
        if (!Files.exists(p) && !(writable && create)) {
            throw new NoSuchFileException(p.toString(), null, "open: no such store file");
        }
        KvStore kct = KyotoCabinetFiles.openReadOnly(p, writable);   // null unless p is a Kyoto Cabinet file
        if (kct != null) { return kct; }
        if (!writable && Files.isRegularFile(p) && Files.size(p) == 0) {
            // A writer makes a store of an empty file; a reader cannot, and MVStore would try to write a header.
            throw new DamagedStoreException("open(" + p + "): the file is empty, not a store file");
        }
        // The file store is opened here and handed to MVStore rather than named to it: MVStore closes a file it
        // opened itself only when its own exception stops the opening, and any other (an empty file opened read-only
        // fails writing a header with NonWritableChannelException) left the file open and locked until the JVM exits.
        // Read before MVStore opens and locks the file: closing a second channel on a file drops this process's
        // POSIX locks on it.
        Tail tail = Files.isRegularFile(p) ? Tail.read(p) : null;
        // The file store keeps the page cache, sized from this map when it is made (the builder's cacheSize is only
        // read when MVStore makes the file store itself).
        Map<String, Object> config = new HashMap<>();
        config.put("cacheSize", cacheMegabytes());
        SingleFileStore file = new SingleFileStore(config);
        boolean success = false;
        try {
            file.open(p.toString(), !writable, null);
            MVStore.Builder b = new MVStore.Builder().fileStore(file).autoCommitDisabled();
            if (!writable) {
                b.readOnly();
            }
            MVStore s = b.open();
            try {
                MVMap<byte[], byte[]> map = openMap(s);
                if (isOwnMap(s, map.getId())) {
                    // A damaged file can give the name the id of MVStore's own directory of maps; the map would then
                    // share that directory's cached pages, whose keys are strings, and a write would damage it.
                    throw new IOException("open(" + p + "): not a readable store file (map '" + MAP_NAME
                            + "' has the id " + map.getId() + " of one of MVStore's own maps)");
                }
                String dropped = tail == null ? null : tail.dropped(s, map, p);
                if (dropped != null && !repair) {
                    throw new DamagedStoreException(dropped + "; not opened, as asked (no repair)", true);
                }
                KvStore kv = new KvStore(s, map, file, p, writable);
                kv.droppedAtOpen = dropped;
                if (truncate && writable) {
                    kv.map.clear();
                    s.commit();
                }
                success = true;
                return kv;
            } finally {
                if (!success) {
                    s.closeImmediately();
                }
            }
        } catch (MVStoreException e) {
            if (e.getErrorCode() == DataUtils.ERROR_FILE_LOCKED) {
                throw new IOException("open(" + p + "): the file is locked by another process (or is open in this "
                        + "process already): a store file is opened by one writer or by readers only", e);
            }
            // MVStore says "Could not open file X [2.3.232/1]": the cause is in the JDK's exception beneath, and the
            // bracket is MVStore's version and error code, which mean nothing to whoever opened the store.
            for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
                if (c instanceof IOException io) {
                    throw new IOException("open(" + p + "): " + cause(io), e);
                }
            }
            if (isDamage(e)) {
                throw new DamagedStoreException("open(" + p + "): not a readable store file: "
                        + withoutVersion(e.getMessage()), e);
            }
            throw new IOException("open(" + p + "): " + withoutVersion(e.getMessage()), e);
        } catch (IllegalArgumentException e) {
            // MVStore's answer to a missing directory, among others.
            throw new IOException("open(" + p + "): " + e.getMessage(), e);
        } catch (RuntimeException e) {
            // MVStore does not guard every step against a damaged or foreign file.
            throw new DamagedStoreException("open(" + p + "): not a readable store file (" + e + ")", e);
        } catch (OutOfMemoryError e) {
            // A damaged page can claim a key count in the billions, and MVStore allocates arrays of that size before
            // it reads a key: that one allocation fails and the heap is as it was. Reported as damage, with the other
            // reading (a heap too small for the store) named too.
            throw new DamagedStoreException("open(" + p + "): not a readable store file: a page asks for more memory "
                    + "than the heap has (" + e.getMessage() + "): a damaged page, or a heap too small for it", e);
        } finally {
            if (!success) {
                closeQuietly(file);
            }
        }
    }

    /** Whether MVStore's exception says the file's bytes are wrong (rather than that a system call failed). */
    static boolean isDamage(MVStoreException e) {
        return switch (e.getErrorCode()) {
            case DataUtils.ERROR_FILE_CORRUPT, DataUtils.ERROR_UNSUPPORTED_FORMAT, DataUtils.ERROR_CHUNK_NOT_FOUND,
                    DataUtils.ERROR_BLOCK_NOT_FOUND, DataUtils.ERROR_SERIALIZATION -> true;
            default -> false;
        };
    }

    /**
     * The page cache of a store opened now, in MB: an eighth of the heap's limit, at least MVStore's default of 16 and
     * at most 1024. A page not in the cache is read from the file and decoded again on every visit (about 50 entries
     * of 16-byte keys and values each): with MVStore's 16 MB, a store of a million such entries (36 MB on disk, some
     * 90 MB as decoded pages) missed the cache on most random gets, which ran 2.5 to 6 times slower than with the
     * tree cached (docs/benchmarks/2026-11-26-kv-kyotocabinet.md).
     */
    static int cacheMegabytes() {
        long eighth = Runtime.getRuntime().maxMemory() / 8 >> 20;
        return (int) Math.max(16, Math.min(1024, eighth));
    }

    /** The page cache's size in MB (see {@link #cacheMegabytes}). */
    int cacheSize() {
        return store.getCacheSize();
    }

    private static void closeQuietly(FileStore<?> file) {
        try {
            file.close();
        } catch (RuntimeException ignored) {
            // The failure reported is the one that stopped the opening.
        }
    }

    /**
     * What the file's last bytes and its header say about the versions written to it, read before opening, and
     * compared with the version MVStore opened: MVStore opens the newest version it finds complete and says nothing
     * of newer ones it could not read.
     */
    private record Tail(long size, String footer) {
        /** Bytes of the footer that ends every chunk of MVStore's format 3, and of a block. */
        private static final int FOOTER = 128;
        private static final int BLOCK = 4096;

        /** The tail of {@code p}, or null when it cannot be read (the opening then reports why). */
        static Tail read(Path p) {
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(p)) {
                long size = ch.size();
                if (size < FOOTER) {
                    return new Tail(size, null);
                }
                java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(FOOTER);
                while (b.hasRemaining() && ch.read(b, size - FOOTER + b.position()) >= 0) {
                    // a short read continues where it stopped
                }
                return new Tail(size, new String(b.array(), 0, b.position(),
                        java.nio.charset.StandardCharsets.ISO_8859_1));
            } catch (IOException e) {
                return null;
            }
        }

        /** The version named by a valid chunk footer ("chunk:6,len:4,version:6,fletcher:d4d37f8c"), or -1. */
        long footerVersion() {
            if (footer == null || size % BLOCK != 0) {
                return -1;
            }
            String text = footer.trim();
            int f = text.lastIndexOf(",fletcher:");
            if (f < 0) {
                return -1;
            }
            try {
                byte[] checked = text.substring(0, f).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
                long sum = Long.parseLong(text.substring(f + ",fletcher:".length()), 16);
                if (DataUtils.getFletcher32(checked, 0, checked.length) != (int) sum) {
                    return -1;
                }
                return DataUtils.readHexLong(DataUtils.parseMap(text.substring(0, f)), "version", -1);
            } catch (RuntimeException notAFooter) {
                return -1;
            }
        }

        /** What the opened version lacks, naming the file, or null when it is the newest one written. */
        String dropped(MVStore s, MVMap<byte[], byte[]> map, Path p) {
            if (size == 0) {
                // An empty file a writer is making a store of.
                return null;
            }
            long opened = s.getCurrentVersion();
            long named = DataUtils.readHexLong(s.getStoreHeader(), "version", 0);
            long last = footerVersion();
            String at = "opened at version " + opened + " with " + map.sizeAsLong() + " records";
            if (last < 0) {
                return "open(" + p + "): the file is cut short: it ends at offset " + size + " inside a version "
                        + "that is not complete, so that version" + (named > opened ? " and any other up to version "
                        + named + " (named in its header)" : "") + " is lost; " + at;
            }
            if (named > opened || last > opened) {
                return "open(" + p + "): the file is cut short or damaged: versions " + (opened + 1) + " to "
                        + Math.max(named, last) + " (named by its " + (named > last ? "header" : "last chunk")
                        + ") are lost; " + at;
            }
            return null;
        }
    }

    /**
     * What opening found missing from the file, or null: a file cut short (an interrupted copy, or a crash in the
     * middle of a commit) opens at its newest complete version, and this names the versions lost after it.
     */
    public String droppedAtOpen() {
        return droppedAtOpen;
    }

    /**
     * A read-only store in memory, named {@code path}, holding the records that {@code source} hands to its sink: a
     * file of another format read whole.
     */
    static KvStore readOnlyCopy(Path path, RecordSource source) throws IOException {
        MVStore s = new MVStore.Builder().autoCommitDisabled().open();
        MVMap<byte[], byte[]> m = openMap(s);
        try {
            source.readInto(m::put);
        } catch (IOException | RuntimeException e) {
            s.closeImmediately();
            throw e;
        }
        return new KvStore(s, m, null, path, false);
    }

    /** Records read from somewhere, for {@link #readOnlyCopy}. */
    @FunctionalInterface
    interface RecordSource {
        /** Hands every record to {@code sink} as (key, value). */
        void readInto(java.util.function.BiConsumer<byte[], byte[]> sink) throws IOException;
    }

    /** A new empty store in memory only, gone when closed. */
    public static KvStore inMemory() {
        MVStore s = new MVStore.Builder().autoCommitDisabled().open();
        return new KvStore(s, openMap(s), null, null, true);
    }

    /** Whether {@code id} is the id of the map of maps or the file's layout map, which MVStore keeps for itself. */
    private static boolean isOwnMap(MVStore s, int id) {
        return id == s.getMetaMap().getId() || s.getLayoutMap() instanceof MVMap<?, ?> layout && id == layout.getId();
    }

    private static MVMap<byte[], byte[]> openMap(MVStore s) {
        return s.openMap(MAP_NAME, new MVMap.Builder<byte[], byte[]>()
                .keyType(UnsignedBytes.INSTANCE).valueType(UnsignedBytes.INSTANCE));
    }

    /** The absolute path of the file, or null in memory. */
    public Path path() {
        return path;
    }

    /** Whether writes are allowed. */
    public boolean isWritable() {
        return writable;
    }

    /** The value of {@code key}, or null; the array is the store's own. */
    public byte[] get(byte[] key) {
        checkOpen();
        return map.get(key);
    }

    /** Whether {@code key} has a value. */
    public boolean containsKey(byte[] key) {
        checkOpen();
        return map.containsKey(key);
    }

    /** Sets {@code key} to {@code value} and returns the previous value, or null. */
    public byte[] put(byte[] key, byte[] value) {
        lockWrite();
        try {
            return map.put(key, value);
        } finally {
            unlockWrite();
        }
    }

    /** Sets {@code key} to {@code value} only if it has no value; returns whether it did. */
    public boolean putIfAbsent(byte[] key, byte[] value) {
        lockWrite();
        try {
            return map.putIfAbsent(key, value) == null;
        } finally {
            unlockWrite();
        }
    }

    /** Sets {@code key} to {@code value} only if it has a value; returns whether it did. */
    public boolean replace(byte[] key, byte[] value) {
        lockWrite();
        try {
            if (!map.containsKey(key)) {
                return false;
            }
            map.put(key, value);
            return true;
        } finally {
            unlockWrite();
        }
    }

    /** Appends {@code tail} to the value of {@code key} (set to {@code tail} if none); returns the new value. */
    public byte[] append(byte[] key, byte[] tail) {
        lockWrite();
        try {
            byte[] old = map.get(key);
            byte[] v = tail;
            if (old != null) {
                v = Arrays.copyOf(old, old.length + tail.length);
                System.arraycopy(tail, 0, v, old.length, tail.length);
            }
            map.put(key, v);
            return v;
        } finally {
            unlockWrite();
        }
    }

    /** Removes {@code key}; returns its value, or null if it had none. */
    public byte[] remove(byte[] key) {
        lockWrite();
        try {
            return map.remove(key);
        } finally {
            unlockWrite();
        }
    }

    /**
     * Removes the first record and returns it as {key, value}, or null when the store is empty; the lookup and the
     * removal are one step for other writers.
     */
    public byte[][] pollFirst() {
        lockWrite();
        try {
            byte[] k = map.ceilingKey(new byte[0]);
            return k == null ? null : new byte[][] {k, map.remove(k)};
        } finally {
            unlockWrite();
        }
    }

    /**
     * Runs {@code work} holding the write lock, so that no other thread writes (nor begins a transaction) until it
     * returns: a read and the writes that depend on it are one step for other writers. {@code work} may write to
     * this store (the lock is re-entrant); this thread's open transaction, if any, goes on.
     */
    public <T> T exclusively(java.util.function.Supplier<T> work) {
        lockWrite();
        try {
            return work.get();
        } finally {
            unlockWrite();
        }
    }

    /**
     * Writes a copy of the store, as of now, to the file {@code target} (replaced if it exists): every write is
     * committed first, and writes wait until the copy is made. A store in memory has no file to copy.
     *
     * @throws IOException if the commit or the copy fails, naming both files
     * @throws IllegalStateException for a store in memory
     */
    public void copyTo(Path target) throws IOException {
        if (path == null) {
            throw new IllegalStateException("copyTo(" + target + "): a store in memory has no file to copy");
        }
        if (!writable) {
            checkOpen();
            Files.copy(path, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            return;
        }
        lockWrite();
        try {
            if (transaction == null) {
                commit("copyTo");
            }
            try {
                Files.copy(path, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new IOException("copyTo(" + path + " -> " + target + "): " + cause(e), e);
            }
        } finally {
            unlockWrite();
        }
    }

    /**
     * Sets every key of {@code entries} (pairs {key, value}) in order. With {@code atomic}, as one transaction: a
     * crash keeps all or none (a transaction already open by this thread absorbs it).
     *
     * @throws IOException if the atomic commit cannot be written (the entries are then undone)
     */
    public void putAll(List<byte[][]> entries, boolean atomic) throws IOException {
        if (atomic) {
            inTransaction(() -> entries.forEach(e -> map.put(e[0], e[1])));
        } else {
            for (byte[][] e : entries) {
                put(e[0], e[1]);
            }
        }
    }

    /**
     * Removes every key of {@code keys}; returns how many had a value. {@code atomic} as in {@link #putAll}.
     *
     * @throws IOException if the atomic commit cannot be written (the removals are then undone)
     */
    public long removeAll(List<byte[]> keys, boolean atomic) throws IOException {
        long[] n = {0};
        Runnable work = () -> keys.forEach(k -> {
            if (map.remove(k) != null) {
                n[0]++;
            }
        });
        if (atomic) {
            inTransaction(work);
        } else {
            lockWrite();
            try {
                work.run();
            } finally {
                unlockWrite();
            }
        }
        return n[0];
    }

    /** The values of {@code keys}, in a map from each key that has one, read from one version of the tree. */
    public Map<byte[], byte[]> getAll(List<byte[]> keys) {
        checkOpen();
        Map<byte[], byte[]> out = new java.util.IdentityHashMap<>();
        for (byte[] k : keys) {
            byte[] v = map.get(k);
            if (v != null) {
                out.put(k, v);
            }
        }
        return out;
    }

    private void inTransaction(Runnable work) throws IOException {
        if (writeLock.isHeldByCurrentThread() && transaction == Thread.currentThread()) {
            changes++;
            work.run();
            return;
        }
        beginTransaction();
        boolean ok = false;
        try {
            changes++;
            work.run();
            ok = true;
        } finally {
            if (!ok) {
                abortTransaction();
            }
        }
        try {
            commitTransaction(false);
        } catch (IOException e) {
            // The commit failed and left the transaction open: take its writes back.
            if (inTransaction()) {
                abortTransaction();
            }
            throw e;
        }
    }

    /** Removes every record; every cursor is then nowhere. */
    public void clear() {
        lockWrite();
        try {
            clears++;
            map.clear();
        } finally {
            unlockWrite();
        }
    }

    /** The number of records. */
    public long count() {
        checkOpen();
        return map.sizeAsLong();
    }

    /** The first key at or after {@code key}, or null. */
    public byte[] ceilingKey(byte[] key) {
        checkOpen();
        return map.ceilingKey(key);
    }

    /** The first key after {@code key}, or null. */
    public byte[] higherKey(byte[] key) {
        checkOpen();
        return map.higherKey(key);
    }

    /** The last key at or before {@code key}, or null. */
    public byte[] floorKey(byte[] key) {
        checkOpen();
        return map.floorKey(key);
    }

    /** The last key before {@code key}, or null. */
    public byte[] lowerKey(byte[] key) {
        checkOpen();
        return map.lowerKey(key);
    }

    /** The last key, or null when empty. */
    public byte[] lastKey() {
        checkOpen();
        return map.lastKey();
    }

    /** A cursor, positioned nowhere until {@link KvCursor#jump}; see there what it sees. */
    public KvCursor cursor() {
        checkOpen();
        return new KvCursor(this, map, true);
    }

    /**
     * A cursor that walks the tree as it was at its jump, whatever is written meanwhile (a walk that visits each
     * record once while it writes, as Kyoto Cabinet's {@code iterate} does).
     */
    public KvCursor snapshotCursor() {
        checkOpen();
        return new KvCursor(this, map, false);
    }

    /**
     * Starts a transaction on this thread: it waits for any other thread's transaction, and until it ends, this
     * thread's writes are undone together by {@link #abortTransaction} or kept together by
     * {@link #commitTransaction}. Not nested.
     *
     * @throws IllegalStateException if this thread is in a transaction already
     * @throws IOException if the writes made before it cannot be committed
     */
    public void beginTransaction() throws IOException {
        checkWritable();
        writeLock.lock();
        if (transaction != null) {
            writeLock.unlock();
            throw new IllegalStateException("a transaction is open already on this thread: " + path);
        }
        try {
            checkOpen();
            // Commit what came before, so that an abort takes back the transaction's writes only.
            commit("beginTransaction");
        } catch (IOException | RuntimeException e) {
            writeLock.unlock();
            throw e;
        }
        transaction = Thread.currentThread();
    }

    /**
     * Ends this thread's transaction by committing it (see the class's notes on durability); with {@code hard} the
     * file is also synced to the disk.
     *
     * @throws IOException if the commit cannot be written or the sync fails; the store is then closed (MVStore stops
     *     at its first failed write) and the file keeps every version committed before: reopen it
     */
    public void commitTransaction(boolean hard) throws IOException {
        checkTransaction();
        try {
            commit("commitTransaction");
            if (hard) {
                syncFile("commitTransaction");
            }
        } finally {
            transaction = null;
            writeLock.unlock();
        }
    }

    private void commit(String op) throws IOException {
        try {
            store.commit();
        } catch (MVStoreException e) {
            throw failed(op, "commit", e);
        }
    }

    /**
     * Closes the store after MVStore's first failed write (after which MVStore refuses every call) and returns the
     * exception to throw.
     */
    private IOException failed(String op, String what, MVStoreException e) {
        String message = op + "(" + where() + "): " + what + " failed, store closed (the file keeps every version "
                + "committed before; reopen it): " + e.getMessage();
        closedBecause = message;
        closed = true;
        if (committer != null) {
            committer.shutdownNow();
        }
        try {
            store.closeImmediately();
        } catch (RuntimeException ignored) {
            // Closing a store that failed may fail the same way; the failure reported is the first.
        }
        if (file != null) {
            closeQuietly(file);
        }
        return new IOException(message, e);
    }

    private void syncFile(String op) throws IOException {
        if (path == null) {
            return;
        }
        try {
            store.sync();
        } catch (MVStoreException e) {
            throw failed(op, "fsync", e);
        }
    }

    private String where() {
        return path == null ? "memory" : path.toString();
    }

    /** Ends this thread's transaction, undoing its writes; every cursor is then nowhere. */
    public void abortTransaction() {
        checkTransaction();
        changes++;
        clears++;
        try {
            store.rollback();
        } finally {
            transaction = null;
            writeLock.unlock();
        }
    }

    /** Whether the calling thread is in a transaction. */
    public boolean inTransaction() {
        return transaction == Thread.currentThread();
    }

    private void checkTransaction() {
        if (transaction != Thread.currentThread()) {
            throw new IllegalStateException("no transaction open on this thread: " + path);
        }
    }

    /**
     * Commits every write made so far (a transaction open on another thread is waited for); with {@code hard} also
     * syncs the file to the disk, so that the writes survive power loss.
     *
     * @throws IOException if the commit or the sync fails
     */
    public void sync(boolean hard) throws IOException {
        if (!writable) {
            checkOpen();
            return;
        }
        lockWrite();
        try {
            if (transaction == null) {
                commit("sync");
            }
            if (hard) {
                syncFile("sync");
            }
        } finally {
            unlockWrite();
        }
    }

    /**
     * The size of the file in bytes (an estimate of the memory used, for a store in memory, a Kyoto Cabinet file read
     * into memory too).
     */
    public long size() {
        checkOpen();
        return store.getFileStore() == null ? map.sizeAsLong() * 64 : store.getFileStore().size();
    }

    /**
     * Commits, syncs and closes; writes of a transaction still open (on any thread) are undone first. Closing twice
     * does nothing.
     */
    @Override
    public void close() throws IOException {
        writeLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            if (committer != null) {
                committer.shutdownNow();
            }
            if (transaction != null) {
                store.rollback();
                transaction = null;
            }
            store.close();
        } catch (MVStoreException e) {
            throw new IOException("close(" + path + "): " + e.getMessage(), e);
        } finally {
            if (file != null) {
                closeQuietly(file);
            }
            writeLock.unlock();
        }
    }

    /** Whether {@link #close} was called. */
    public boolean isClosed() {
        return closed;
    }

    private void backgroundCommit() {
        // Skip a second where a transaction holds the lock: its end commits anyway.
        if (writeLock.tryLock()) {
            try {
                if (!closed && transaction == null && store.hasUnsavedChanges()) {
                    commit("background commit");
                }
            } catch (IOException | RuntimeException e) {
                // The store is closed now; the next call reports why.
            } finally {
                writeLock.unlock();
            }
        }
    }

    private void lockWrite() {
        checkWritable();
        writeLock.lock();
        if (closed) {
            writeLock.unlock();
            checkOpen();
        }
    }

    private void unlockWrite() {
        changes++;
        try {
            if (transaction == null && store.getUnsavedMemory() > COMMIT_MEMORY) {
                commit("write");
            }
        } catch (IOException e) {
            // The write itself is in the tree; only saving it failed, and the next commit tries again.
            throw new java.io.UncheckedIOException(e);
        } finally {
            writeLock.unlock();
        }
    }

    /** The number of calls to {@link #clear} and of aborted transactions so far. */
    long clears() {
        return clears;
    }

    /** The number of calls so far that may have changed records (see {@link KvCursor}). */
    long changes() {
        return changes;
    }

    void checkOpen() {
        if (closed) {
            String why = closedBecause;
            throw new IllegalStateException(why != null ? why : "store closed: " + path);
        }
    }

    private void checkWritable() {
        checkOpen();
        if (!writable) {
            throw new ReadOnlyStoreException("store opened read-only: " + path);
        }
    }

    @Override
    public String toString() {
        return "KvStore[" + (path == null ? "memory" : path) + (closed ? ", closed]" : "]");
    }
}
