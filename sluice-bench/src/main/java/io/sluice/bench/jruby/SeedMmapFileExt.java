package io.sluice.bench.jruby;

import static org.jruby.api.Convert.toLong;

import java.io.IOException;
import org.jruby.Ruby;
import org.jruby.RubyClass;
import org.jruby.RubyObject;
import org.jruby.RubyString;
import org.jruby.anno.JRubyClass;
import org.jruby.anno.JRubyMethod;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.util.ByteList;

/**
 * Seed 000's {@code MmapFileExt}: the same writer as {@link SeedMmapFile} as a JRuby extension class, so a call is a
 * Ruby method call with no Java-integration conversion. {@code sluice bench jruby} only.
 */
// JRuby objects are Serializable by inheritance; this one holds an open file and is never serialized.
@SuppressWarnings("serial")
@JRubyClass(name = "SluiceBench::MmapFileExt")
public final class SeedMmapFileExt extends RubyObject {
    private SeedMapping mapping;

    /** Allocated by JRuby. */
    public SeedMmapFileExt(Ruby runtime, RubyClass type) {
        super(runtime, type);
    }

    /** {@code new(path, truncate, size)}: maps {@code size} bytes from 0, as the seed's {@code initialize}. */
    @JRubyMethod(name = "initialize")
    public IRubyObject initialize(ThreadContext context, IRubyObject path, IRubyObject truncate, IRubyObject size) {
        try {
            mapping = new SeedMapping(path.convertToString().decodeString(), truncate.isTrue(), toLong(context, size));
        } catch (IOException e) {
            throw context.runtime.newIOErrorFromException(e);
        }
        return context.nil;
    }

    /** {@code seek(pos)}: the seed's, {@code size} bytes mapped again from {@code pos} and written from there. */
    @JRubyMethod(name = "seek")
    public IRubyObject seek(ThreadContext context, IRubyObject pos) {
        try {
            mapping.seek(toLong(context, pos));
        } catch (IOException e) {
            throw context.runtime.newIOErrorFromException(e);
        }
        return context.nil;
    }

    /** {@code write_safe(string)}: the ByteList's bytes copied to a new array, then written. */
    @JRubyMethod(name = "write_safe")
    public IRubyObject writeSafe(ThreadContext context, IRubyObject data) {
        byte[] b = ((RubyString) data).getByteList().bytes();
        mapping.put(b, 0, b.length);
        return context.nil;
    }

    /** {@code write_unsafe(string)}: the ByteList's own array, from its begin for its realSize. */
    @JRubyMethod(name = "write_unsafe")
    public IRubyObject writeUnsafe(ThreadContext context, IRubyObject data) {
        ByteList b = ((RubyString) data).getByteList();
        mapping.put(b.unsafeBytes(), b.begin(), b.realSize());
        return context.nil;
    }

    /** {@code close}. */
    @JRubyMethod(name = "close")
    public IRubyObject close(ThreadContext context) {
        try {
            mapping.close();
        } catch (IOException e) {
            throw context.runtime.newIOErrorFromException(e);
        }
        return context.nil;
    }
}
