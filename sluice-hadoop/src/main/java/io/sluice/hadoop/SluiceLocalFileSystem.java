package io.sluice.hadoop;

import io.sluice.Advice;
import io.sluice.Engine;
import io.sluice.PositionalFile;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.util.Collection;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocalFileSystemPathHandle;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathHandle;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.impl.AbstractFSBuilderImpl;
import org.apache.hadoop.fs.impl.OpenFileParameters;

import static org.apache.hadoop.fs.Options.OpenFileOptions.FS_OPTION_OPENFILE_BUFFER_SIZE;
import static org.apache.hadoop.fs.Options.OpenFileOptions.FS_OPTION_OPENFILE_LENGTH;
import static org.apache.hadoop.fs.Options.OpenFileOptions.FS_OPTION_OPENFILE_READ_POLICY;
import static org.apache.hadoop.fs.Options.OpenFileOptions.FS_OPTION_OPENFILE_STANDARD_OPTIONS;

/**
 * Hadoop's raw local file system with its reads through Sluice: every stream it opens reads with a
 * {@link PositionalFile}, so positional reads ({@code PositionedReadable}, {@code ByteBufferPositionedReadable}) take
 * no lock and may come from many threads at once, and {@code readVectored} hands all of a call's ranges, merged where
 * they lie close together, to the engine as one {@link io.sluice.IoBatch}. Everything else (listing, metadata,
 * writes, renames) is Hadoop's own {@link RawLocalFileSystem}.
 *
 * <p>It is chosen by configuration alone: {@code fs.file.impl=io.sluice.hadoop.SluiceLocalFileSystem} (with
 * {@code fs.file.impl.disable.cache=true} where a cached {@code file:} instance may already exist). Like
 * {@code RawLocalFileSystem}, it keeps no {@code .crc} checksum files.
 *
 * <p>Settings, read from the configuration at {@link #initialize} and, per file, from the options of
 * {@code FileSystem.openFile(path)}:
 * <ul>
 *   <li>{@value #ENGINE} (configuration): the Sluice {@link Engine} by name, default {@link Engine#best()}.</li>
 *   <li>{@value #DIRECT} (configuration default, or an {@code openFile()} option): {@code true} makes vectored reads
 *       bypass the page cache (O_DIRECT through io_uring), reading each merged range in block-aligned pieces into
 *       aligned memory and copying the requested bytes out. Other reads stay buffered. A file system that refuses
 *       O_DIRECT (tmpfs, some overlays) fails the first vectored read with the kernel's cause.</li>
 *   <li>{@value #MIN_SEEK} and {@value #MAX_MERGED} (configuration): how close ranges of one vectored read must be
 *       to be read as one, and the most bytes such a merged read may take.</li>
 *   <li>{@value #WILLNEED} (configuration, default {@code true}): a vectored read without O_DIRECT first asks the
 *       kernel for all its merged ranges ({@code posix_fadvise(WILLNEED)}), so that a cold file's ranges come from
 *       the device at once, and only their bytes, not the read-ahead past their ends.</li>
 *   <li>{@value #PIECE} (configuration, default 2 MiB): vectored reads into heap buffers go in pieces of this
 *       size on several threads (the caller's and up to 16 daemon threads {@code sluice-vectored-read-N} shared by
 *       all streams, never the common pool); {@code 0} reads them one after another in the calling thread.</li>
 *   <li>{@code fs.option.openfile.read.policy}: {@code random}, {@code vector}, {@code columnar}, {@code parquet},
 *       {@code orc} and {@code hbase} open the file with {@link Advice#RANDOM} (no kernel read-ahead);
 *       {@code sequential}, {@code whole-file}, {@code csv}, {@code json} and {@code avro} with
 *       {@link Advice#SEQUENTIAL}; the first policy of a list that is known wins.</li>
 *   <li>{@code fs.option.openfile.buffer.size}: the stream's buffer for sequential reads.</li>
 *   <li>{@code fs.option.openfile.length} or a {@code withFileStatus}: the file's length, which spares the
 *       {@code stat} before the open.</li>
 * </ul>
 */
public class SluiceLocalFileSystem extends RawLocalFileSystem {
    /** Configuration key naming the Sluice engine reads go through (an {@link Engine} constant). */
    public static final String ENGINE = "fs.sluice.engine";
    /** Configuration key and {@code openFile()} option: O_DIRECT for vectored reads ({@code true}/{@code false}). */
    public static final String DIRECT = "fs.sluice.read.direct";
    /**
     * Configuration key: ranges of one vectored read closer than this many bytes are read as one (default 16 KiB,
     * Hadoop's own default for local files).
     */
    public static final String MIN_SEEK = "fs.sluice.vectored.read.min.seek.size";
    /** Configuration key: the most bytes ranges are merged into (default 1 MiB, Hadoop's own default). */
    public static final String MAX_MERGED = "fs.sluice.vectored.read.max.merged.size";
    /**
     * Configuration key: whether a vectored read asks the kernel for all its merged ranges before reading them
     * ({@code posix_fadvise(WILLNEED)}; default {@code true}). Reads without O_DIRECT only.
     */
    public static final String WILLNEED = "fs.sluice.vectored.read.willneed";
    /**
     * Configuration key: a vectored read into heap buffers (parquet-java's default) cuts its merged ranges into
     * pieces of this many bytes and reads them in parallel, in the calling thread and a small pool of daemon threads
     * all streams share; {@code 0} reads each range whole in the calling thread, one after another. Default 2 MiB.
     */
    public static final String PIECE = "fs.sluice.vectored.read.piece";
    /** The stream's buffer for sequential reads when the caller names none: Hadoop's {@code io.file.buffer.size}. */
    private static final int DEFAULT_BUFFER = 64 * 1024;

    private Engine engine = Engine.best();
    private boolean directDefault;
    private boolean willNeed = true;
    private int minSeek = 16 * 1024;
    private int maxMerged = 1024 * 1024;
    private int piece = 2 * 1024 * 1024;

    /** A file system to be {@link #initialize initialized} by Hadoop's {@code FileSystem.get}. */
    public SluiceLocalFileSystem() {
    }

    /**
     * Initializes as the raw local file system, then reads {@value #ENGINE}, {@value #DIRECT}, {@value #WILLNEED},
     * {@value #PIECE}, {@value #MIN_SEEK} and {@value #MAX_MERGED} from {@code conf}.
     *
     * @throws IllegalArgumentException if {@value #ENGINE} names no engine, or a size is out of range
     */
    @Override
    public void initialize(java.net.URI uri, Configuration conf) throws IOException {
        super.initialize(uri, conf);
        String name = conf.getTrimmed(ENGINE, "");
        if (!name.isEmpty()) {
            try {
                engine = Engine.valueOf(name.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(ENGINE + "=" + name + " is not a Sluice engine; one of "
                        + java.util.Arrays.toString(Engine.values()), e);
            }
        }
        directDefault = conf.getBoolean(DIRECT, false);
        willNeed = conf.getBoolean(WILLNEED, true);
        minSeek = (int) conf.getLongBytes(MIN_SEEK, minSeek);
        maxMerged = (int) conf.getLongBytes(MAX_MERGED, maxMerged);
        long pieceBytes = conf.getLongBytes(PIECE, piece);
        if (pieceBytes < 0 || pieceBytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(PIECE + " must be 0 (off) or a positive size up to 2 GiB: "
                    + pieceBytes);
        }
        piece = (int) pieceBytes;
        if (minSeek < 0 || maxMerged <= 0) {
            throw new IllegalArgumentException(MIN_SEEK + " must not be negative and " + MAX_MERGED
                    + " must be positive: " + minSeek + ", " + maxMerged);
        }
    }

    /** The engine this file system's streams read through. */
    public Engine engine() {
        return engine;
    }

    /**
     * Opens {@code f} for reading through Sluice.
     *
     * @throws FileNotFoundException if {@code f} does not exist or is a directory
     */
    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
        return open(f, bufferSize, Advice.NORMAL, directDefault, -1);
    }

    /**
     * Opens the file a handle of {@code getPathHandle} names through Sluice, after checking, as Hadoop's local file
     * system does, that it is still the file the handle was made for.
     *
     * @throws org.apache.hadoop.fs.InvalidPathHandleException if the file moved or changed against the handle's
     *         options
     */
    @Override
    public FSDataInputStream open(PathHandle handle, int bufferSize) throws IOException {
        LocalFileSystemPathHandle local = new LocalFileSystemPathHandle(handle.bytes());
        Path path = new Path(local.getPath());
        local.verify(getFileStatus(path));
        return open(path, bufferSize);
    }

    /**
     * Honours the standard {@code openFile()} options and {@value #DIRECT} (see the class comment); the open itself
     * happens in the calling thread, so the future is already complete.
     *
     * @throws IllegalArgumentException if a mandatory option is one this file system does not know
     */
    @Override
    protected CompletableFuture<FSDataInputStream> openFileWithOptions(Path path, OpenFileParameters parameters)
            throws IOException {
        Set<String> known = new HashSet<>(FS_OPTION_OPENFILE_STANDARD_OPTIONS);
        known.add(DIRECT);
        AbstractFSBuilderImpl.rejectUnknownMandatoryKeys(parameters.getMandatoryKeys(), known,
                "for " + path + " in " + getClass().getSimpleName());
        Configuration options = parameters.getOptions();
        int bufferSize = options.getInt(FS_OPTION_OPENFILE_BUFFER_SIZE, parameters.getBufferSize());
        long length = length(options.getTrimmed(FS_OPTION_OPENFILE_LENGTH, ""));
        FileStatus status = parameters.getStatus();
        if (status != null && status.isFile()) {
            length = status.getLen();
        }
        Advice advice = advice(options.getTrimmedStringCollection(FS_OPTION_OPENFILE_READ_POLICY));
        boolean direct = options.getBoolean(DIRECT, directDefault);
        CompletableFuture<FSDataInputStream> result = new CompletableFuture<>();
        try {
            result.complete(open(path, bufferSize, advice, direct, length));
        } catch (IOException | RuntimeException e) {
            result.completeExceptionally(e);
        }
        return result;
    }

    /**
     * The length option, which only spares the {@code stat} before the open (the stream asks its descriptor for the
     * size): written as a floating-point number by some callers, it is read as one; anything unreadable is no hint.
     */
    static long length(String option) {
        if (option.isEmpty()) {
            return -1;
        }
        try {
            return Long.parseLong(option);
        } catch (NumberFormatException notLong) {
            try {
                double d = Double.parseDouble(option);
                return d >= 0 && d < Long.MAX_VALUE ? (long) d : -1;
            } catch (NumberFormatException notNumber) {
                return -1;
            }
        }
    }

    /** The kernel read-ahead hint for the first known read policy of a list, NORMAL for none. */
    static Advice advice(Collection<String> policies) {
        for (String policy : policies) {
            switch (policy.toLowerCase(Locale.ROOT)) {
                case "random", "vector", "columnar", "parquet", "orc", "hbase" -> {
                    return Advice.RANDOM;
                }
                case "sequential", "whole-file", "csv", "json", "avro" -> {
                    return Advice.SEQUENTIAL;
                }
                case "default", "adaptive" -> {
                    return Advice.NORMAL;
                }
                default -> {
                    // an unknown policy: the next one of the list may be known
                }
            }
        }
        return Advice.NORMAL;
    }

    private FSDataInputStream open(Path f, int bufferSize, Advice advice, boolean direct, long length)
            throws IOException {
        if (length < 0) {
            // Hadoop's own message for a missing path and for a directory, before any descriptor is opened.
            FileStatus status = getFileStatus(f);
            if (status.isDirectory()) {
                throw new FileNotFoundException(f + " is a directory: cannot open it for reading");
            }
        }
        java.nio.file.Path local = pathToFile(f).toPath();
        OpenOption[] options = advice == Advice.NORMAL ? new OpenOption[0] : new OpenOption[] {advice};
        PositionalFile file;
        try {
            file = PositionalFile.open(local, engine, options);
        } catch (NoSuchFileException e) {
            FileNotFoundException missing = new FileNotFoundException(f + ": no such file (" + e.getMessage() + ")");
            missing.initCause(e);
            throw missing;
        } catch (java.nio.file.FileSystemException e) {
            if ("Is a directory".equals(e.getReason())) {
                FileNotFoundException dir = new FileNotFoundException(f + " is a directory: cannot open it for reading");
                dir.initCause(e);
                throw dir;
            }
            throw e;
        }
        int buffer = bufferSize > 0 ? bufferSize : getConf() == null ? DEFAULT_BUFFER
                : getConf().getInt("io.file.buffer.size", DEFAULT_BUFFER);
        return new FSDataInputStream(new SluiceFSInputStream(file, buffer, direct, willNeed, minSeek, maxMerged,
                piece, statistics));
    }
}
