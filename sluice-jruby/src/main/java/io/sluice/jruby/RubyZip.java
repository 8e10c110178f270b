package io.sluice.jruby;

import static org.jruby.api.Convert.asBoolean;
import static org.jruby.api.Convert.asFixnum;
import static org.jruby.api.Convert.toLong;

import io.sluice.zip.ConcurrentZipFile;
import io.sluice.zip.ExtractLimits;
import java.nio.file.Path;
import jnr.constants.platform.Errno;
import org.jcodings.specific.ASCIIEncoding;
import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyClass;
import org.jruby.RubyEnumerator;
import org.jruby.RubyObject;
import org.jruby.RubyString;
import org.jruby.anno.JRubyClass;
import org.jruby.api.Create;
import org.jruby.anno.JRubyMethod;
import org.jruby.runtime.Block;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.Visibility;
import org.jruby.runtime.builtin.IRubyObject;

/**
 * {@code Sluice::Zip}: a {@link ConcurrentZipFile} for Ruby. The archive is mapped once and read with no lock, so
 * any number of Ruby threads (parallel on JRuby) may list and read it at once. Entry data comes back as ASCII-8BIT
 * Strings that own the array the entry was inflated or copied into (no second copy), CRC-32 checked.
 *
 * <p>{@code open} with a block, {@code extract}'s keyword arguments and {@code Enumerable} are in
 * {@code lib/sluice/zip.rb}.
 */
// JRuby objects are Serializable by inheritance; these hold open files and are never serialized.
@SuppressWarnings("serial")
@JRubyClass(name = "Sluice::Zip", include = "Enumerable")
public final class RubyZip extends RubyObject {
    private ConcurrentZipFile zip;
    private RubyClass entryClass;

    /** Allocated by JRuby; {@code initialize} opens the archive. */
    public RubyZip(Ruby runtime, RubyClass type) {
        super(runtime, type);
    }

    /** {@code sluice_open(path)} (private; called by {@code initialize}): maps the archive, reads its directory. */
    @JRubyMethod(name = "sluice_open", visibility = Visibility.PRIVATE)
    public IRubyObject sluiceOpen(ThreadContext context, IRubyObject path) {
        if (zip != null) {
            throw context.runtime.newRuntimeError("Sluice::Zip already open: " + zip.getName());
        }
        Path p = Path.of(path.convertToString().decodeString());
        entryClass = (RubyClass) getMetaClass().getRealClass().getConstant(context, "Entry");
        try {
            zip = ConcurrentZipFile.open(p);
        } catch (Exception e) {
            throw Errors.toRuby(context, e, "open(" + p + ")");
        }
        return context.nil;
    }

    RubyClass entryClass() {
        return entryClass;
    }

    ConcurrentZipFile zip(ThreadContext context) {
        ConcurrentZipFile z = zip;
        if (z == null) {
            throw context.runtime.newIOError("uninitialized Sluice::Zip");
        }
        return z;
    }

    /** {@code entries}: every entry, in the archive's central directory order. */
    @JRubyMethod(name = "entries")
    public IRubyObject entries(ThreadContext context) {
        ConcurrentZipFile z = zip(context);
        try {
            RubyArray<?> out = Create.allocArray(context, z.size());
            for (ConcurrentZipFile.Entry e : z) {
                out.append(context, new RubyZipEntry(context, this, e));
            }
            return out;
        } catch (Exception e) {
            throw Errors.toRuby(context, e, "entries(" + z.getName() + ")");
        }
    }

    /** {@code names}: every entry's name, in order. */
    @JRubyMethod(name = "names")
    public IRubyObject names(ThreadContext context) {
        ConcurrentZipFile z = zip(context);
        try {
            RubyArray<?> out = Create.allocArray(context, z.size());
            for (ConcurrentZipFile.Entry e : z) {
                out.append(context, RubyString.newString(context.runtime, e.getName()));
            }
            return out;
        } catch (Exception e) {
            throw Errors.toRuby(context, e, "names(" + z.getName() + ")");
        }
    }

    /** {@code each { |entry| ... }}: yields every entry in order; without a block, an Enumerator. */
    @JRubyMethod(name = "each")
    public IRubyObject each(ThreadContext context, Block block) {
        if (!block.isGiven()) {
            return RubyEnumerator.enumeratorize(context.runtime, this, "each");
        }
        ConcurrentZipFile z = zip(context);
        // The archive's iterator, as names and entries use: on a closed archive it raises as they do.
        java.util.Iterator<ConcurrentZipFile.Entry> it;
        try {
            it = z.iterator();
        } catch (Exception e) {
            throw Errors.toRuby(context, e, "each(" + z.getName() + ")");
        }
        while (true) {
            ConcurrentZipFile.Entry e;
            try {
                if (!it.hasNext()) {
                    break;
                }
                e = it.next();
            } catch (Exception x) {
                throw Errors.toRuby(context, x, "each(" + z.getName() + ")");
            }
            block.yield(context, new RubyZipEntry(context, this, e));
        }
        return this;
    }

    /** {@code size}: the number of entries. */
    @JRubyMethod(name = "size")
    public IRubyObject size(ThreadContext context) {
        return asFixnum(context, zip(context).size());
    }

    /**
     * {@code zip[name]} (also {@code entry(name)}): the entry called {@code name}, or nil. A name without a trailing
     * slash also finds the directory {@code name/}.
     */
    @JRubyMethod(name = {"[]", "entry"})
    public IRubyObject entry(ThreadContext context, IRubyObject name) {
        ConcurrentZipFile z = zip(context);
        String n = name.convertToString().decodeString();
        try {
            ConcurrentZipFile.Entry e = z.getEntry(n);
            return e == null ? context.nil : new RubyZipEntry(context, this, e);
        } catch (Exception e) {
            throw Errors.toRuby(context, e, "entry(" + z.getName() + ", " + n + ")");
        }
    }

    /**
     * {@code read(name)} (or {@code read(entry)}): the entry's bytes as an ASCII-8BIT String, CRC-32 checked.
     * {@code Errno::ENOENT} if there is no such entry; {@code Sluice::ZipError} if its data is damaged.
     */
    @JRubyMethod(name = "read")
    public IRubyObject read(ThreadContext context, IRubyObject nameOrEntry) {
        ConcurrentZipFile z = zip(context);
        ConcurrentZipFile.Entry e;
        String n;
        if (nameOrEntry instanceof RubyZipEntry re) {
            e = re.entry();
            n = e.getName();
            if (re.archive() != this) {
                throw context.runtime.newArgumentError("entry " + n + " belongs to another archive");
            }
        } else {
            n = nameOrEntry.convertToString().decodeString();
            try {
                e = z.getEntry(n);
            } catch (Exception x) {
                throw Errors.toRuby(context, x, "read(" + z.getName() + ", " + n + ")");
            }
            if (e == null) {
                throw context.runtime.newErrnoFromErrno(Errno.ENOENT, "no entry '" + n + "' in " + z.getName());
            }
        }
        return readEntry(context, z, e);
    }

    static IRubyObject readEntry(ThreadContext context, ConcurrentZipFile z, ConcurrentZipFile.Entry e) {
        try {
            byte[] bytes = z.readAllBytes(e);
            return RubyString.newStringNoCopy(context.runtime, bytes, 0, bytes.length, ASCIIEncoding.INSTANCE);
        } catch (Exception x) {
            throw Errors.toRuby(context, x, "read(" + z.getName() + ", " + e.getName() + ")");
        }
    }

    /**
     * {@code sluice_extract(dir, max_bytes, max_entries, max_ratio)} (private; called by {@code extract}): writes
     * every entry under {@code dir} within the limits (nil: the library's default for that limit) and returns the
     * number of files and directories written.
     */
    @JRubyMethod(name = "sluice_extract", required = 4, visibility = Visibility.PRIVATE)
    public IRubyObject sluiceExtract(ThreadContext context, IRubyObject[] args) {
        ConcurrentZipFile z = zip(context);
        Path dir = Path.of(args[0].convertToString().decodeString());
        ExtractLimits d = ExtractLimits.DEFAULT;
        try {
            ExtractLimits limits = new ExtractLimits(limit(context, args[1], d.maxTotalBytes()),
                    limit(context, args[2], d.maxEntries()), limit(context, args[3], d.maxRatio()));
            return asFixnum(context, z.extractTo(dir, limits));
        } catch (RuntimeException | java.io.IOException e) {
            throw Errors.toRuby(context, e, "extract(" + z.getName() + ", " + dir + ")");
        }
    }

    private static long limit(ThreadContext context, IRubyObject value, long otherwise) {
        return value.isNil() ? otherwise : toLong(context, value);
    }

    /** {@code comment}: the archive's comment, or nil. */
    @JRubyMethod(name = "comment")
    public IRubyObject comment(ThreadContext context) {
        ConcurrentZipFile z = zip(context);
        try {
            String c = z.getComment();
            return c == null ? context.nil : RubyString.newString(context.runtime, c);
        } catch (Exception e) {
            throw Errors.toRuby(context, e, "comment(" + z.getName() + ")");
        }
    }

    /** {@code close}: unmaps the archive; reads in progress on other threads end with {@code Sluice::Error}; nil. */
    @JRubyMethod(name = "close")
    public IRubyObject close(ThreadContext context) {
        ConcurrentZipFile z = zip;
        if (z != null) {
            z.close();
        }
        return context.nil;
    }

    /** {@code closed?}: whether {@code close} was called (or the archive was never opened). */
    @JRubyMethod(name = "closed?")
    public IRubyObject closedP(ThreadContext context) {
        ConcurrentZipFile z = zip;
        return asBoolean(context, z == null || !z.isOpen());
    }

    /** {@code path}: the archive's path. */
    @JRubyMethod(name = "path")
    public IRubyObject path(ThreadContext context) {
        return RubyString.newString(context.runtime, zip(context).getName());
    }

    /** {@code inspect}: {@code #<Sluice::Zip /path (12 entries)>}, or {@code (closed)}. */
    @JRubyMethod(name = "inspect")
    public IRubyObject inspect(ThreadContext context) {
        ConcurrentZipFile z = zip;
        String s = z == null ? "#<Sluice::Zip (not open)>"
                : "#<Sluice::Zip " + z.getName() + (z.isOpen() ? " (" + z.size() + " entries)>" : " (closed)>");
        return RubyString.newString(context.runtime, s);
    }
}
