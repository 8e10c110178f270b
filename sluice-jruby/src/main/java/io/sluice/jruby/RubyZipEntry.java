package io.sluice.jruby;

import static org.jruby.api.Convert.asBoolean;
import static org.jruby.api.Convert.asFixnum;

import io.sluice.zip.ConcurrentZipFile;
import java.nio.file.attribute.FileTime;
import org.jruby.RubyClass;
import org.jruby.RubyObject;
import org.jruby.RubyString;
import org.jruby.RubySymbol;
import org.jruby.RubyTime;
import org.jruby.anno.JRubyClass;
import org.jruby.anno.JRubyMethod;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;

/**
 * {@code Sluice::Zip::Entry}: one entry of a {@code Sluice::Zip}, as its central directory describes it. Made by the
 * archive ({@code entries}, {@code each}, {@code []}); valid while the archive is open.
 */
// JRuby objects are Serializable by inheritance; these hold open files and are never serialized.
@SuppressWarnings("serial")
@JRubyClass(name = "Sluice::Zip::Entry")
public final class RubyZipEntry extends RubyObject {
    private final RubyZip archive;
    private final ConcurrentZipFile.Entry entry;

    RubyZipEntry(ThreadContext context, RubyZip archive, ConcurrentZipFile.Entry entry) {
        super(context.runtime, archive.entryClass());
        this.archive = archive;
        this.entry = entry;
    }

    RubyZip archive() {
        return archive;
    }

    ConcurrentZipFile.Entry entry() {
        return entry;
    }

    /** {@code name}: the entry's name, {@code /} between directories, as stored (also {@code to_s}). */
    @JRubyMethod(name = {"name", "to_s"})
    public IRubyObject name(ThreadContext context) {
        return RubyString.newString(context.runtime, entry.getName());
    }

    /** {@code size}: the uncompressed size in bytes. */
    @JRubyMethod(name = "size")
    public IRubyObject size(ThreadContext context) {
        return asFixnum(context, entry.getSize());
    }

    /** {@code compressed_size}: the bytes the entry takes in the archive. */
    @JRubyMethod(name = "compressed_size")
    public IRubyObject compressedSize(ThreadContext context) {
        return asFixnum(context, entry.getCompressedSize());
    }

    /** {@code crc}: the CRC-32 of the uncompressed bytes, as the archive declares it. */
    @JRubyMethod(name = "crc")
    public IRubyObject crc(ThreadContext context) {
        return asFixnum(context, entry.getCrc());
    }

    /** {@code compression_method}: {@code :stored}, {@code :deflated}, or the method's number for any other. */
    @JRubyMethod(name = "compression_method")
    public IRubyObject compressionMethod(ThreadContext context) {
        int m = entry.getMethod();
        return switch (m) {
            case 0 -> RubySymbol.newSymbol(context.runtime, "stored");
            case 8 -> RubySymbol.newSymbol(context.runtime, "deflated");
            default -> asFixnum(context, m);
        };
    }

    /** {@code directory?}: whether the name ends with {@code /}. */
    @JRubyMethod(name = "directory?")
    public IRubyObject directoryP(ThreadContext context) {
        return asBoolean(context, entry.isDirectory());
    }

    /** {@code file?}: neither a directory nor a symbolic link. */
    @JRubyMethod(name = "file?")
    public IRubyObject fileP(ThreadContext context) {
        return asBoolean(context, !entry.isDirectory() && !entry.isSymbolicLink());
    }

    /** {@code symlink?}: whether the entry is a Unix symbolic link (its data is the target). */
    @JRubyMethod(name = "symlink?")
    public IRubyObject symlinkP(ThreadContext context) {
        return asBoolean(context, entry.isSymbolicLink());
    }

    /** {@code mtime}: the modification time (MS-DOS fields, local time), or nil when they hold no valid date. */
    @JRubyMethod(name = "mtime")
    public IRubyObject mtime(ThreadContext context) {
        FileTime t = entry.getLastModifiedTime();
        return t == null ? context.nil : RubyTime.newTime(context.runtime, t.toMillis());
    }

    /** {@code read}: the entry's bytes as an ASCII-8BIT String, CRC-32 checked. */
    @JRubyMethod(name = "read")
    public IRubyObject read(ThreadContext context) {
        return RubyZip.readEntry(context, archive.zip(context), entry);
    }

    /** {@code inspect}: {@code #<Sluice::Zip::Entry a/b.txt 1234 bytes>}. */
    @JRubyMethod(name = "inspect")
    public IRubyObject inspect(ThreadContext context) {
        return RubyString.newString(context.runtime,
                "#<Sluice::Zip::Entry " + entry.getName() + " " + entry.getSize() + " bytes>");
    }
}
