package io.sluice.nio;

import io.sluice.Engine;
import io.sluice.MappedWriter;
import io.sluice.PositionalFile;
import io.sluice.SluiceOption;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;

/**
 * {@link FileChannel}s whose I/O goes through Sluice's engines, for code written against the JDK's type; and a
 * {@link MappedWriter} as a {@link WritableByteChannel} or an {@link OutputStream}.
 *
 * {@snippet :
 * try (FileChannel ch = SluiceChannels.open(Path.of("data.bin"), Engine.MMAP, StandardOpenOption.READ)) {
 *     ch.read(buffer, 4096);   // a copy out of the mapping, no system call
 * }
 * }
 *
 * <p>What such a channel does as the JDK's does: positional calls (no lock between threads), relative calls on the
 * channel's own position (serialised, as the JDK serialises them), {@code transferTo}/{@code transferFrom},
 * {@code map} (a real mapping of the file), {@code lock}/{@code tryLock} (real POSIX record locks, seen by other
 * processes and by the JDK's own channels in this JVM), {@code force}, {@code truncate}, {@code size}, and
 * interrupts and asynchronous close as {@link java.nio.channels.spi.AbstractInterruptibleChannel} documents them (an
 * interrupt closes the channel). A read or write moves every byte it can, as the JDK's does on a regular file: an
 * engine's short transfer is followed by another. Where it differs:
 * <ul>
 *   <li>{@code map}, {@code lock} and {@code tryLock} use a second descriptor, opened by path on first use: if the
 *       file was renamed or deleted after it was opened, they fail with the open's exception.</li>
 *   <li>In {@link StandardOpenOption#APPEND} mode a write goes to the size the channel finds just before it, under
 *       the channel's lock: appends through this one channel never interleave, but appends from another process or
 *       channel at the same moment may overwrite each other (there is no {@code O_APPEND} on the engines'
 *       descriptors).</li>
 *   <li>The file is always opened for reading underneath, so a file that may be written but not read is refused at
 *       open, where the JDK would open it write-only.</li>
 * </ul>
 */
public final class SluiceChannels {
    private SluiceChannels() {
    }

    /**
     * A channel over {@code file}, readable, and writable if the file is. Its position starts at 0; closing the
     * channel closes the file. {@code map} and the locks open the file's {@link PositionalFile#path() path} again
     * through the JDK's platform provider.
     */
    public static FileChannel fileChannel(PositionalFile file) {
        Objects.requireNonNull(file, "file");
        return new SluiceFileChannel(file, PlatformPaths.of(file.path()), true,
                file.isWritable(), false, 0);
    }

    /**
     * {@code writer} as a {@link WritableByteChannel}: a write appends all of the buffer at the writer's position and
     * returns its length; closing the channel closes the writer (which cuts the file to its position). Used by one
     * thread at a time, as the writer is; a write after close throws {@link java.nio.channels.ClosedChannelException}.
     */
    public static WritableByteChannel writableChannel(MappedWriter writer) {
        return new MappedWriterChannel(Objects.requireNonNull(writer, "writer"));
    }

    /**
     * {@code writer} as an {@link OutputStream}, with no buffer of its own: each write is one copy into the writer's
     * mapping, so {@code flush()} does nothing and durability is {@link MappedWriter#force()}. Closing the stream
     * closes the writer. Used by one thread at a time, as the writer is; a write after close throws
     * {@link java.nio.channels.ClosedChannelException} (an {@link IOException}).
     */
    public static OutputStream outputStream(MappedWriter writer) {
        return new MappedWriterStream(Objects.requireNonNull(writer, "writer"));
    }

    /**
     * Opens {@code path} as {@link FileChannel#open(Path, OpenOption...)} does, with the I/O on {@code engine}:
     * {@code READ}, {@code WRITE} and {@code APPEND} give the channel's access as there ({@code READ} when neither
     * write option is given; {@code READ} with {@code APPEND}, and {@code APPEND} with {@code TRUNCATE_EXISTING},
     * are refused). Other options, Sluice's own among them, go to {@link PositionalFile#open(Path, Engine,
     * OpenOption...)}; the JDK's {@code com.sun.nio.file.ExtendedOpenOption.DIRECT} goes as
     * {@link SluiceOption#DIRECT}. With O_DIRECT a misaligned call fails as the JDK's channel fails it: an
     * {@link IOException} before any I/O, naming the file and what is off (docs/nio.md).
     *
     * @throws IllegalArgumentException for a combination the JDK refuses too
     * @throws IOException if the file cannot be opened, as from {@link PositionalFile#open}
     */
    public static FileChannel open(Path path, Engine engine, OpenOption... options) throws IOException {
        return open(path, engine, Set.of(options));
    }

    /** {@link #open(Path, Engine, OpenOption...)} with the options as a set, as {@code FileChannel.open} takes them. */
    public static FileChannel open(Path path, Engine engine, Set<? extends OpenOption> options) throws IOException {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(engine, "engine");
        boolean read = options.contains(StandardOpenOption.READ);
        boolean write = options.contains(StandardOpenOption.WRITE);
        boolean append = options.contains(StandardOpenOption.APPEND);
        if (!read && !write) {
            if (append) {
                write = true;
            } else {
                read = true;
            }
        }
        if (read && append) {
            throw new IllegalArgumentException("READ + APPEND not allowed");
        }
        if (append && options.contains(StandardOpenOption.TRUNCATE_EXISTING)) {
            throw new IllegalArgumentException("APPEND + TRUNCATE_EXISTING not allowed");
        }
        List<OpenOption> forFile = forFile(options, StandardOpenOption.APPEND);
        if (write && !forFile.contains(StandardOpenOption.WRITE)) {
            forFile.add(StandardOpenOption.WRITE);
        }
        Path platform = PlatformPaths.of(path);
        PositionalFile file = PositionalFile.open(engine == Engine.CLASSIC ? asFile(platform) : platform, engine,
                forFile.toArray(OpenOption[]::new));
        return new SluiceFileChannel(file, platform, read, write, append, directAlign(file, platform, forFile));
    }

    /**
     * Opens {@code path} as {@link AsynchronousFileChannel#open(Path, Set, ExecutorService,
     * java.nio.file.attribute.FileAttribute...)} does, over {@code engine}'s {@link PositionalFile#readAsync} and
     * {@link PositionalFile#writeAsync}. On {@link Engine#IO_URING} a read or write is submitted to the ring and the
     * call returns at once; on the other engines it is done before the call returns. A {@code Future} completes on
     * the ring's completion thread (keep work chained to it short); a {@link java.nio.channels.CompletionHandler}
     * runs on {@code executor}, or, when it is null, on a virtual thread of its own, never on the completion thread.
     * Closing the channel fails the reads and writes still in flight with
     * {@link java.nio.channels.AsynchronousCloseException}. A read or write of a heap buffer moves at most 64 KiB
     * (the ring's registered chunk), a direct buffer up to 1 GiB: callers loop, as the JDK's documentation asks.
     * Locks are real POSIX locks on a second descriptor, as for {@link #open(Path, Engine, OpenOption...)}. O_DIRECT
     * (the JDK's option or Sluice's): a misaligned call's future fails with an {@link IOException} before any I/O,
     * but a read at or past the end of the file completes with -1, as the kernel answers it.
     *
     * @throws UnsupportedOperationException for {@code APPEND}, as the JDK's
     * @throws IOException if the file cannot be opened
     */
    public static AsynchronousFileChannel openAsynchronous(Path path, Engine engine,
            Set<? extends OpenOption> options, ExecutorService executor) throws IOException {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(engine, "engine");
        if (options.contains(StandardOpenOption.APPEND)) {
            throw new UnsupportedOperationException("APPEND not allowed");
        }
        boolean read = options.contains(StandardOpenOption.READ);
        boolean write = options.contains(StandardOpenOption.WRITE);
        if (!read && !write) {
            read = true;
        }
        List<OpenOption> forFile = forFile(options, StandardOpenOption.READ);
        Path platform = PlatformPaths.of(path);
        PositionalFile file = PositionalFile.open(engine == Engine.CLASSIC ? asFile(platform) : platform, engine,
                forFile.toArray(OpenOption[]::new));
        return new SluiceAsynchronousFileChannel(file, platform, read, write, executor,
                directAlign(file, platform, forFile));
    }

    /**
     * The options for {@link PositionalFile#open}: without READ and {@code channelOnly} (the channel's own
     * business), and with the JDK's {@code ExtendedOpenOption.DIRECT} as {@link SluiceOption#DIRECT}.
     */
    private static List<OpenOption> forFile(Set<? extends OpenOption> options, OpenOption channelOnly) {
        List<OpenOption> out = new ArrayList<>(options.size() + 1);
        for (OpenOption o : options) {
            if (o == StandardOpenOption.READ || o == channelOnly) {
                continue;
            }
            OpenOption mine = DirectIo.isJdkDirect(o) ? SluiceOption.DIRECT : o;
            if (!out.contains(mine)) {
                out.add(mine);
            }
        }
        return out;
    }

    /** O_DIRECT's alignment for a file just opened with {@code forFile}, or 0; closes the file if it cannot say. */
    private static int directAlign(PositionalFile file, Path platform, List<OpenOption> forFile) throws IOException {
        if (!forFile.contains(SluiceOption.DIRECT)) {
            return 0;
        }
        try {
            return DirectIo.blockSize(platform);
        } catch (IOException | RuntimeException e) {
            try {
                file.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * A path CLASSIC can open: it makes a {@link java.io.File} of it, which only a path of the default file system
     * allows; while Sluice's provider is the default, the platform's own path is not one.
     */
    private static Path asFile(Path platform) {
        FileSystem def = FileSystems.getDefault();
        return platform.getFileSystem() == def ? platform : def.getPath(platform.toString());
    }
}
