package io.sluice.jruby;

import static org.jruby.api.Convert.asBoolean;
import static org.jruby.api.Convert.asFixnum;
import static org.jruby.api.Convert.toLong;

import io.sluice.MappedWriter;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.jruby.Ruby;
import org.jruby.RubyClass;
import org.jruby.RubyFixnum;
import org.jruby.RubyObject;
import org.jruby.RubyString;
import org.jruby.RubySymbol;
import org.jruby.anno.JRubyClass;
import org.jruby.anno.JRubyMethod;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.Visibility;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.util.ByteList;

/**
 * {@code Sluice::MappedWriter}: a {@link MappedWriter} for Ruby. {@code write} and {@code <<} copy a String's bytes
 * (from its {@code begin}, exactly its {@code realSize}) from its own array into the mapped window: no Java array is
 * made, no system call is made until the window is full, and files grow past 2 GiB a window at a time.
 *
 * <p>One thread at a time, as {@link MappedWriter}. {@code open} with a block and the keyword arguments are in
 * {@code lib/sluice/mapped_writer.rb}.
 */
// JRuby objects are Serializable by inheritance; these hold open files and are never serialized.
@SuppressWarnings("serial")
@JRubyClass(name = "Sluice::MappedWriter")
public final class RubyMappedWriter extends RubyObject {
    private MappedWriter writer;
    /** The Integer {@code write} returned last, shared by every writer of this JRuby runtime. */
    private final Counts counts;

    /**
     * The Integer the writers of one JRuby runtime returned last. A loop of writes usually writes the same count each
     * time, and JRuby keeps ready-made Integers only from -256 to 255: a new one for every 1 KiB write was all that
     * Sluice::MappedWriter allocated per call beyond the seed's fastest writer, which returns nil (41 bytes a call,
     * docs/benchmarks/2026-11-26-seed000-harness.md). Integers are values, so handing out the same one is safe, and
     * a writer reading another thread's Integer compares its value first. Shared rather than per writer, and never
     * null, so that a writer's first write takes the same branch as the previous writer's last: per writer, the
     * compiled loop of the writer before had never seen the branch that fills an empty cache, and a new writer's
     * first write threw the loop back to the interpreter (an uncommon trap). The post's harness times a second
     * writer's pass in a fresh JVM, and found MappedWriter recompiling in it (docs/benchmarks/2026-11-26-seed000-s3.md).
     */
    static final class Counts {
        private RubyFixnum last;

        Counts(Ruby runtime) {
            last = RubyFixnum.zero(runtime);
        }
    }

    /** Allocated by JRuby; {@code initialize} opens the file. {@code counts}: the runtime's, made by the library. */
    RubyMappedWriter(Ruby runtime, RubyClass type, Counts counts) {
        super(runtime, type);
        this.counts = counts;
    }

    /**
     * {@code sluice_open(path, position, window_size)} (private; called by {@code initialize}). {@code position}
     * nil: the file is created or truncated and written from 0; {@code :end}: written from its end; an Integer:
     * written from there, the bytes before it kept. In every case {@code close} cuts the file where writing ended.
     */
    @JRubyMethod(name = "sluice_open", visibility = Visibility.PRIVATE)
    public IRubyObject sluiceOpen(ThreadContext context, IRubyObject path, IRubyObject position,
            IRubyObject windowSize) {
        if (writer != null) {
            throw context.runtime.newRuntimeError("Sluice::MappedWriter already open: " + writer.path());
        }
        Path p = Path.of(path.convertToString().decodeString());
        long window = toLong(context, windowSize);
        try {
            if (position.isNil()) {
                writer = MappedWriter.open(p, -1, window);
            } else if (position instanceof RubySymbol s && s.idString().equals("end")) {
                writer = MappedWriter.open(p, -1, window, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            } else {
                long at = toLong(context, position);
                if (at < 0) {
                    throw context.runtime.newArgumentError("negative position: " + at);
                }
                writer = MappedWriter.open(p, at, window, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            }
        } catch (Exception e) {
            throw Errors.toRuby(context, e, "open(" + p + ")");
        }
        return context.nil;
    }

    private MappedWriter writer(ThreadContext context) {
        MappedWriter w = writer;
        if (w == null) {
            throw context.runtime.newIOError("uninitialized Sluice::MappedWriter");
        }
        return w;
    }

    /**
     * {@code write(string)}: appends the String's bytes (any encoding; frozen is fine; other objects as their
     * {@code to_s}) and returns their number.
     *
     * <p>Two and three Strings have methods of their own rather than one taking {@code *strings}: a rest-argument
     * overload of {@code write} made JRuby bind some one-String call sites through an argument array, which C2 then
     * failed to remove in about half of the JVMs: 24 more bytes allocated per write, a young collection every few
     * hundred MB of 1 KiB writes, and the mmap post's harness measuring those JVMs a pass behind
     * (docs/benchmarks/2026-11-26-seed000-s4.md).
     */
    @JRubyMethod(name = "write")
    public IRubyObject write(ThreadContext context, IRubyObject data) {
        return count(context, append(context, data));
    }

    /** {@code write(a, b)}: appends both in order; returns the number of bytes in both. */
    @JRubyMethod(name = "write")
    public IRubyObject write(ThreadContext context, IRubyObject a, IRubyObject b) {
        long n = append(context, a);
        n += append(context, b);
        return count(context, n);
    }

    /** {@code write(a, b, c)}: appends the three in order; returns the number of bytes in all. */
    @JRubyMethod(name = "write")
    public IRubyObject write(ThreadContext context, IRubyObject a, IRubyObject b, IRubyObject c) {
        long n = append(context, a);
        n += append(context, b);
        n += append(context, c);
        return count(context, n);
    }

    private RubyFixnum count(ThreadContext context, long n) {
        Counts shared = counts;
        RubyFixnum c = shared.last;
        if (c.getLongValue() != n) {
            c = asFixnum(context, n);
            shared.last = c;
        }
        return c;
    }

    /** {@code writer << string}: appends the String's bytes and returns the writer, for chains. */
    @JRubyMethod(name = "<<")
    public IRubyObject appendOp(ThreadContext context, IRubyObject data) {
        append(context, data);
        return this;
    }

    private int append(ThreadContext context, IRubyObject data) {
        MappedWriter w = writer(context);
        ByteList bytes = RubySluiceFile.bytesOf(data);
        int len = bytes.realSize();
        try {
            w.write(bytes.unsafeBytes(), bytes.begin(), len);
        } catch (Exception e) {
            throw Errors.toRuby(context, e, "write(" + w.path() + ", pos=" + w.position() + ", len=" + len + ")");
        }
        return len;
    }

    /** {@code position}: where the next write lands (also {@code pos}). */
    @JRubyMethod(name = {"position", "pos"})
    public IRubyObject position(ThreadContext context) {
        return asFixnum(context, writer(context).position());
    }

    /** {@code seek(amount)}: as {@code seek(amount, IO::SEEK_SET)}. */
    @JRubyMethod(name = "seek")
    public IRubyObject seek(ThreadContext context, IRubyObject amount) {
        return seekTo(context, toLong(context, amount), context.nil);
    }

    /**
     * {@code seek(amount, whence)}: moves where the next write lands, as {@code IO#seek}: {@code IO::SEEK_SET} (or
     * {@code :SET}) to {@code amount}, {@code IO::SEEK_CUR} ({@code :CUR}) by {@code amount} from the position,
     * {@code IO::SEEK_END} ({@code :END}) by {@code amount} from {@code size}, the furthest byte written. Bytes
     * written stay; a position past {@code size} leaves a gap that reads as zeros once written past. 0.
     */
    @JRubyMethod(name = "seek")
    public IRubyObject seek(ThreadContext context, IRubyObject amount, IRubyObject whence) {
        return seekTo(context, toLong(context, amount), whence);
    }

    /** {@code pos = n} (also {@code position=}): as {@code seek(n)}; returns {@code n}. */
    @JRubyMethod(name = {"pos=", "position="})
    public IRubyObject setPosition(ThreadContext context, IRubyObject position) {
        seekTo(context, toLong(context, position), context.nil);
        return position;
    }

    private IRubyObject seekTo(ThreadContext context, long amount, IRubyObject whence) {
        MappedWriter w = writer(context);
        long base;
        if (whence.isNil() || isWhence(whence, 0, "SET")) {
            base = 0;
        } else if (isWhence(whence, 1, "CUR")) {
            base = w.position();
        } else if (isWhence(whence, 2, "END")) {
            base = w.size();
        } else {
            throw context.runtime.newErrnoEINVALError("seek(" + w.path() + "): unknown whence " + whence.inspect());
        }
        long to = base + amount;
        if (to < 0 || (amount > 0 && to < base)) {
            throw context.runtime.newErrnoEINVALError("seek(" + w.path() + "): position " + base + " + " + amount
                    + " is negative or too large");
        }
        try {
            w.position(to);
        } catch (Exception e) {
            throw Errors.toRuby(context, e, "seek(" + w.path() + ", " + to + ")");
        }
        return asFixnum(context, 0);
    }

    /** Whether {@code whence} is the Integer {@code value} (IO::SEEK_*) or the Symbol {@code name}. */
    private static boolean isWhence(IRubyObject whence, long value, String name) {
        if (whence instanceof RubyFixnum f) {
            return f.getLongValue() == value;
        }
        return whence instanceof RubySymbol s && s.idString().equals(name);
    }

    /** {@code size}: the file's length once closed: the furthest byte written (the position, unless moved back). */
    @JRubyMethod(name = "size")
    public IRubyObject size(ThreadContext context) {
        return asFixnum(context, writer(context).size());
    }

    /** {@code window_size}: the bytes mapped at once. */
    @JRubyMethod(name = "window_size")
    public IRubyObject windowSize(ThreadContext context) {
        return asFixnum(context, writer(context).windowSize());
    }

    /** {@code fsync}: every byte written so far made durable (also {@code force}); 0. */
    @JRubyMethod(name = {"fsync", "force"})
    public IRubyObject fsync(ThreadContext context) {
        MappedWriter w = writer(context);
        try {
            w.force();
        } catch (Exception e) {
            throw Errors.toRuby(context, e, "fsync(" + w.path() + ")");
        }
        return asFixnum(context, 0);
    }

    /** {@code close}: unmaps and cuts the file to {@code position}; closing twice does nothing; nil. */
    @JRubyMethod(name = "close")
    public IRubyObject close(ThreadContext context) {
        MappedWriter w = writer;
        if (w != null) {
            try {
                w.close();
            } catch (Exception e) {
                throw Errors.toRuby(context, e, "close(" + w.path() + ")");
            }
        }
        return context.nil;
    }

    /** {@code closed?}: whether {@code close} was called (or the writer was never opened). */
    @JRubyMethod(name = "closed?")
    public IRubyObject closedP(ThreadContext context) {
        MappedWriter w = writer;
        return asBoolean(context, w == null || !w.isOpen());
    }

    /** {@code path}: the absolute path being written. */
    @JRubyMethod(name = "path")
    public IRubyObject path(ThreadContext context) {
        return RubyString.newString(context.runtime, writer(context).path().toString());
    }

    /** {@code inspect}: {@code #<Sluice::MappedWriter /path at 1234>}, or {@code (closed)}. */
    @JRubyMethod(name = "inspect")
    public IRubyObject inspect(ThreadContext context) {
        MappedWriter w = writer;
        String s = w == null ? "#<Sluice::MappedWriter (not open)>"
                : "#<Sluice::MappedWriter " + w.path() + (w.isOpen() ? " at " + w.position() : " (closed)") + ">";
        return RubyString.newString(context.runtime, s);
    }
}
