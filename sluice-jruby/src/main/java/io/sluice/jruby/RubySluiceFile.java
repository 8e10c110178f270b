package io.sluice.jruby;

import static org.jruby.api.Convert.asBoolean;
import static org.jruby.api.Convert.asFixnum;
import static org.jruby.api.Convert.toLong;

import io.sluice.Engine;
import io.sluice.PositionalFile;
import io.sluice.chunks.AdaptivePolicy;
import io.sluice.chunks.ChunkPolicy;
import io.sluice.chunks.ChunkedReader;
import io.sluice.chunks.FixedPolicy;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jcodings.specific.ASCIIEncoding;
import org.jruby.Ruby;
import org.jruby.RubyClass;
import org.jruby.RubyObject;
import org.jruby.RubyString;
import org.jruby.RubySymbol;
import org.jruby.anno.JRubyClass;
import org.jruby.anno.JRubyMethod;
import org.jruby.runtime.Block;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.Visibility;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.util.ByteList;

/**
 * {@code Sluice::File}: a {@link PositionalFile} for Ruby. Bytes move between the file and a Ruby String's own
 * backing array: {@code pread} reads into the array of the String it returns (or of the buffer it is given), and
 * {@code pwrite} writes from the array of the String it is given, starting at the String's {@code begin} and moving
 * exactly its {@code realSize} bytes, so substrings and Strings that share an array move their own bytes only.
 *
 * <p>Safe from any number of Ruby threads at once, as {@link PositionalFile} is (a buffer String is the caller's to
 * keep to one thread). {@code open}, its block form and the keyword arguments are in {@code lib/sluice/file.rb}.
 */
// JRuby objects are Serializable by inheritance; these hold open files and are never serialized.
@SuppressWarnings("serial")
@JRubyClass(name = "Sluice::File")
public final class RubySluiceFile extends RubyObject {
    /**
     * Largest allocation made before knowing the file's size: a {@code pread} asking for more than this allocates
     * only what the file holds from the offset on.
     */
    private static final int EAGER_ALLOCATION = 1 << 20;

    private PositionalFile file;
    private boolean readable;

    /** Allocated by JRuby; {@code initialize} opens the file. */
    public RubySluiceFile(Ruby runtime, RubyClass type) {
        super(runtime, type);
    }

    /**
     * {@code sluice_open(path, mode, engine)} (private; called by {@code initialize}): opens {@code path}, an absolute
     * path String, with a Ruby mode String ({@code "r"}, {@code "r+"}, {@code "w"}, {@code "w+"}, with {@code "b"}
     * and {@code "x"} as in Ruby) and an engine name.
     */
    @JRubyMethod(name = "sluice_open", visibility = Visibility.PRIVATE)
    public IRubyObject sluiceOpen(ThreadContext context, IRubyObject path, IRubyObject mode, IRubyObject engine) {
        if (file != null) {
            throw context.runtime.newRuntimeError("Sluice::File already open: " + file.path());
        }
        Path p = Path.of(path.convertToString().decodeString());
        String m = mode.convertToString().asJavaString();
        List<OpenOption> options = new ArrayList<>();
        readable = parseMode(context, m, options);
        try {
            Engine e = Engine.parse(engine.asJavaString());
            file = PositionalFile.open(p, e, options.toArray(new OpenOption[0]));
        } catch (Exception e) {
            throw Errors.toRuby(context, e, "open(" + p + ")");
        }
        return context.nil;
    }

    /**
     * Adds the open options of Ruby mode {@code m} and returns whether the mode allows reading. {@code "a"} is
     * refused: every write here names its offset, and with O_APPEND Linux would ignore it.
     */
    private static boolean parseMode(ThreadContext context, String m, List<OpenOption> options) {
        String flags = m.replace("b", "");
        boolean exclusive = flags.endsWith("x");
        if (exclusive) {
            flags = flags.substring(0, flags.length() - 1);
        }
        switch (flags) {
            case "r" -> {
                if (exclusive) {
                    throw context.runtime.newArgumentError("invalid access mode " + m);
                }
                return true;
            }
            case "r+" -> {
                if (exclusive) {
                    throw context.runtime.newArgumentError("invalid access mode " + m);
                }
                options.add(StandardOpenOption.WRITE);
                return true;
            }
            case "w", "w+" -> {
                options.add(StandardOpenOption.WRITE);
                options.add(exclusive ? StandardOpenOption.CREATE_NEW : StandardOpenOption.CREATE);
                options.add(StandardOpenOption.TRUNCATE_EXISTING);
                return flags.equals("w+");
            }
            case "a", "a+" -> throw context.runtime.newArgumentError("invalid access mode " + m
                    + ": Sluice::File writes at the offset each pwrite names; open with \"r+\" or \"w\" and pwrite at "
                    + "#size to append");
            default -> throw context.runtime.newArgumentError("invalid access mode " + m);
        }
    }

    private PositionalFile file(ThreadContext context) {
        PositionalFile f = file;
        if (f == null) {
            throw context.runtime.newIOError("uninitialized Sluice::File");
        }
        return f;
    }

    /**
     * {@code pread(length, offset)}: up to {@code length} bytes from {@code offset} as a new ASCII-8BIT String, read
     * straight into that String's array. Fewer bytes only where the file ends; {@code EOFError} when {@code offset}
     * is at or past the end (an empty String when {@code length} is 0).
     */
    @JRubyMethod(name = "pread")
    public IRubyObject pread(ThreadContext context, IRubyObject length, IRubyObject offset) {
        PositionalFile f = readableFile(context);
        int len = length(context, length);
        long pos = toLong(context, offset);
        if (len == 0) {
            return RubyString.newEmptyBinaryString(context.runtime);
        }
        try {
            int capacity = len;
            if (len > EAGER_ALLOCATION) {
                capacity = (int) Math.max(0, Math.min(len, f.size() - pos));
            }
            byte[] bytes = new byte[capacity];
            int n = readFully(f, bytes, 0, capacity, pos);
            if (n == 0) {
                throw context.runtime.newEOFError("end of file reached");
            }
            return RubyString.newStringNoCopy(context.runtime, bytes, 0, n, ASCIIEncoding.INSTANCE);
        } catch (Exception e) {
            throw Errors.toRuby(context, e, "pread(" + f.path() + ", pos=" + pos + ", len=" + len + ")");
        }
    }

    /**
     * {@code pread(length, offset, buffer)}: as {@code pread(length, offset)}, into {@code buffer}, which becomes the
     * bytes read (ASCII-8BIT) and is returned. The bytes land in the buffer's own array, grown if it is too small and
     * copied first only if the buffer shared it with another String. A frozen buffer raises {@code FrozenError}; at
     * end of file the buffer is emptied and {@code EOFError} raised.
     */
    @JRubyMethod(name = "pread")
    public IRubyObject pread(ThreadContext context, IRubyObject length, IRubyObject offset, IRubyObject buffer) {
        PositionalFile f = readableFile(context);
        int len = length(context, length);
        long pos = toLong(context, offset);
        RubyString buf = buffer.convertToString();
        // Frozen check, copy-on-write of a shared array, and room for len bytes from the String's begin.
        buf.modify(len);
        ByteList bytes = buf.getByteList();
        int n = 0;
        try {
            n = readFully(f, bytes.unsafeBytes(), bytes.begin(), len, pos);
        } catch (Exception e) {
            throw Errors.toRuby(context, e, "pread(" + f.path() + ", pos=" + pos + ", len=" + len + ")");
        } finally {
            bytes.setRealSize(n);
            buf.setEncoding(ASCIIEncoding.INSTANCE);
            buf.clearCodeRange();
        }
        if (n == 0 && len > 0) {
            throw context.runtime.newEOFError("end of file reached");
        }
        return buf;
    }

    /** Reads until {@code len} bytes are in or the file ends; returns the count. */
    private static int readFully(PositionalFile f, byte[] dst, int off, int len, long pos) throws java.io.IOException {
        int n = 0;
        while (n < len) {
            int r = f.read(dst, off + n, len - n, pos + n);
            if (r < 0) {
                break;
            }
            n += r;
        }
        return n;
    }

    private PositionalFile readableFile(ThreadContext context) {
        PositionalFile f = file(context);
        if (!readable) {
            throw context.runtime.newIOError("not opened for reading");
        }
        return f;
    }

    /**
     * {@code sluice_each_chunk(chunk_size, offset) { |chunk| }} (private; {@code each_chunk} in
     * {@code lib/sluice/file.rb}): the file from {@code offset} to wherever it ends, through a {@link ChunkedReader}
     * with an {@link AdaptivePolicy} when {@code chunk_size} is nil, or a {@link FixedPolicy}. Each chunk is yielded
     * as a new ASCII-8BIT String made from one copy out of the reader's buffer (a Ruby String lives on the heap, the
     * reader's chunks in native memory). Returns the policy's description: the size it settled on, and why.
     */
    @JRubyMethod(name = "sluice_each_chunk", visibility = Visibility.PRIVATE)
    public IRubyObject eachChunk(ThreadContext context, IRubyObject chunkSize, IRubyObject offset, Block block) {
        PositionalFile f = readableFile(context);
        long from = toLong(context, offset);
        if (from < 0) {
            throw context.runtime.newArgumentError("negative offset: " + from);
        }
        ChunkPolicy policy;
        if (chunkSize.isNil()) {
            policy = AdaptivePolicy.forFile(f.path());
        } else {
            int size = length(context, chunkSize);
            if (size == 0) {
                throw context.runtime.newArgumentError("chunk size must be positive: 0");
            }
            policy = FixedPolicy.of(size);
        }
        ChunkedReader reader = ChunkedReader.of(f, from, ChunkedReader.TO_END, policy);
        try {
            for (MemorySegment chunk; (chunk = reader.next()) != null; ) {
                byte[] bytes = chunk.toArray(ValueLayout.JAVA_BYTE);
                block.yield(context, RubyString.newStringNoCopy(context.runtime, bytes, 0, bytes.length,
                        ASCIIEncoding.INSTANCE));
            }
            reader.close();
        } catch (java.io.IOException e) {
            closeQuietly(reader, e);
            throw Errors.toRuby(context, e, "each_chunk(" + f.path() + ", offset=" + from + ", at="
                    + reader.position() + ")");
        } catch (RuntimeException | Error e) {
            // The block's own exceptions (Ruby's, as RaiseException, and break/next jumps) pass through unchanged.
            closeQuietly(reader, e);
            throw e;
        }
        return context.runtime.newString(policy.toString());
    }

    private static void closeQuietly(ChunkedReader reader, Throwable failure) {
        try {
            reader.close();         // leaves the file open: the reader was made over it
        } catch (Exception e) {
            failure.addSuppressed(e);
        }
    }

    private static int length(ThreadContext context, IRubyObject length) {
        long len = toLong(context, length);
        // The largest Ruby String the JVM can hold, a little under 2 GiB.
        if (len < 0 || len > Integer.MAX_VALUE - 8) {
            throw context.runtime.newArgumentError("negative string size (or size too big): " + len);
        }
        return (int) len;
    }

    /**
     * {@code pwrite(string, offset)}: writes all of {@code string}'s bytes at {@code offset} straight from its array
     * (any encoding; a frozen String is fine) and returns their number. Writing past the end grows the file; a gap
     * reads as zeros. Objects other than Strings are written as their {@code to_s}, as {@code IO#pwrite} does.
     */
    @JRubyMethod(name = "pwrite")
    public IRubyObject pwrite(ThreadContext context, IRubyObject string, IRubyObject offset) {
        PositionalFile f = file(context);
        ByteList bytes = bytesOf(string);
        long pos = toLong(context, offset);
        int len = bytes.realSize();
        try {
            f.writeFully(bytes.unsafeBytes(), bytes.begin(), len, pos);
        } catch (Exception e) {
            throw Errors.toRuby(context, e, "pwrite(" + f.path() + ", pos=" + pos + ", len=" + len + ")");
        }
        return asFixnum(context, len);
    }

    /** The bytes of a String argument, or of its {@code to_s} for other objects. */
    static ByteList bytesOf(IRubyObject data) {
        RubyString s = data instanceof RubyString str ? str : data.asString();
        return s.getByteList();
    }

    /** {@code size}: the file's current size in bytes. */
    @JRubyMethod(name = "size")
    public IRubyObject size(ThreadContext context) {
        PositionalFile f = file(context);
        try {
            return asFixnum(context, f.size());
        } catch (Exception e) {
            throw Errors.toRuby(context, e, "size(" + f.path() + ")");
        }
    }

    /** {@code truncate(size)}: cuts the file to {@code size} bytes (nothing if it is already that small); 0. */
    @JRubyMethod(name = "truncate")
    public IRubyObject truncate(ThreadContext context, IRubyObject size) {
        PositionalFile f = file(context);
        long n = toLong(context, size);
        try {
            f.truncate(n);
        } catch (Exception e) {
            throw Errors.toRuby(context, e, "truncate(" + f.path() + ", size=" + n + ")");
        }
        return asFixnum(context, 0);
    }

    /** {@code fsync}: every byte written and the file's metadata made durable; 0. */
    @JRubyMethod(name = "fsync")
    public IRubyObject fsync(ThreadContext context) {
        return force(context, true);
    }

    /** {@code fdatasync}: every byte written made durable, and the metadata needed to read them back; 0. */
    @JRubyMethod(name = "fdatasync")
    public IRubyObject fdatasync(ThreadContext context) {
        return force(context, false);
    }

    private IRubyObject force(ThreadContext context, boolean metadata) {
        PositionalFile f = file(context);
        try {
            f.force(metadata);
        } catch (Exception e) {
            throw Errors.toRuby(context, e, (metadata ? "fsync(" : "fdatasync(") + f.path() + ")");
        }
        return asFixnum(context, 0);
    }

    /**
     * {@code close}: closes the file; calls in progress on other threads end with {@code Sluice::Error}. Closing
     * twice does nothing; nil.
     */
    @JRubyMethod(name = "close")
    public IRubyObject close(ThreadContext context) {
        PositionalFile f = file;
        if (f != null) {
            try {
                f.close();
            } catch (Exception e) {
                throw Errors.toRuby(context, e, "close(" + f.path() + ")");
            }
        }
        return context.nil;
    }

    /** {@code closed?}: whether {@code close} was called (or the file was never opened). */
    @JRubyMethod(name = "closed?")
    public IRubyObject closedP(ThreadContext context) {
        PositionalFile f = file;
        return asBoolean(context, f == null || !f.isOpen());
    }

    /** {@code path}: the absolute path the file was opened with. */
    @JRubyMethod(name = "path")
    public IRubyObject path(ThreadContext context) {
        return RubyString.newString(context.runtime, file(context).path().toString());
    }

    /** {@code engine}: the engine moving the bytes, as a Symbol ({@code :channel}, {@code :mmap}, ...). */
    @JRubyMethod(name = "engine")
    public IRubyObject engine(ThreadContext context) {
        return RubySymbol.newSymbol(context.runtime, file(context).engine().name().toLowerCase(Locale.ROOT));
    }

    /** {@code inspect}: {@code #<Sluice::File /path (channel)>}, or {@code (closed)}. */
    @JRubyMethod(name = "inspect")
    public IRubyObject inspect(ThreadContext context) {
        PositionalFile f = file;
        String s = f == null ? "#<Sluice::File (not open)>"
                : "#<Sluice::File " + f.path() + " ("
                        + (f.isOpen() ? f.engine().name().toLowerCase(Locale.ROOT) : "closed") + ")>";
        return RubyString.newString(context.runtime, s);
    }
}
