package io.sluice.jruby;

import org.jruby.Ruby;
import org.jruby.RubyClass;
import org.jruby.RubyObject;
import org.jruby.anno.JRubyClass;
import org.jruby.anno.JRubyMethod;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;

/**
 * {@code Sluice::MAF::Sequence}: one row of a block, an {@code s} line (with its {@code q} and {@code i} lines) or an
 * {@code e} line. Readers only; made by the parser. The names are bioruby-maf's {@code Bio::MAF::Sequence}'s.
 */
// JRuby objects are Serializable by inheritance; rows are never serialized.
@SuppressWarnings("serial")
@JRubyClass(name = "Sluice::MAF::Sequence")
public final class RubyMafSequence extends RubyObject {
    IRubyObject source;
    long start;
    long size;
    IRubyObject strand;
    long srcSize;
    IRubyObject text;
    IRubyObject quality;
    IRubyObject info;
    IRubyObject status;

    RubyMafSequence(Ruby runtime, RubyClass type) {
        super(runtime, type);
    }

    private static IRubyObject orNil(ThreadContext context, IRubyObject v) {
        return v == null ? context.nil : v;
    }

    /** The source sequence, as {@code "hg19.chr22"} (ASCII-8BIT, frozen: rows of the same source share it). */
    @JRubyMethod
    public IRubyObject source(ThreadContext context) {
        return source;
    }

    /** The 0-based start in the source, on the row's strand. */
    @JRubyMethod
    public IRubyObject start(ThreadContext context) {
        return context.runtime.newFixnum(start);
    }

    /** The bases aligned (the text's letters); for an {@code e} row, the length of the stretch it bridges. */
    @JRubyMethod
    public IRubyObject size(ThreadContext context) {
        return context.runtime.newFixnum(size);
    }

    /** {@code start + size}. */
    @JRubyMethod
    public IRubyObject end(ThreadContext context) {
        return context.runtime.newFixnum(start + size);
    }

    /** {@code :+} or {@code :-}. */
    @JRubyMethod
    public IRubyObject strand(ThreadContext context) {
        return strand;
    }

    /** The length of the whole source sequence. */
    @JRubyMethod
    public IRubyObject src_size(ThreadContext context) {
        return context.runtime.newFixnum(srcSize);
    }

    /** The alignment text (ASCII-8BIT), or nil for an {@code e} row. */
    @JRubyMethod
    public IRubyObject text(ThreadContext context) {
        return orNil(context, text);
    }

    /** The {@code q} line's qualities, or nil. */
    @JRubyMethod
    public IRubyObject quality(ThreadContext context) {
        return orNil(context, quality);
    }

    /** The {@code i} line's {@code [left_status, left_count, right_status, right_count]}, or nil. */
    @JRubyMethod
    public IRubyObject i_data(ThreadContext context) {
        return orNil(context, info);
    }

    /** An {@code e} row's status ({@code "C"}, {@code "I"}, {@code "M"}, {@code "n"}, {@code "T"}), or nil. */
    @JRubyMethod
    public IRubyObject status(ThreadContext context) {
        return orNil(context, status);
    }

    /** Whether this is an {@code e} row: a sequence with no bases in the block. */
    @JRubyMethod(name = "empty?")
    public IRubyObject empty_p(ThreadContext context) {
        return context.runtime.newBoolean(status != null);
    }
}
