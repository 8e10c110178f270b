package io.sluice.jruby;

import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyClass;
import org.jruby.RubyHash;
import org.jruby.RubyObject;
import org.jruby.anno.JRubyClass;
import org.jruby.anno.JRubyMethod;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;

/**
 * {@code Sluice::MAF::Block}: one alignment block, as {@link RubyMaf} made it. Readers only; made by the parser.
 * The names are bioruby-maf's {@code Bio::MAF::Block}'s where it has the same thing.
 */
// JRuby objects are Serializable by inheritance; blocks are never serialized.
@SuppressWarnings("serial")
@JRubyClass(name = "Sluice::MAF::Block")
public final class RubyMafBlock extends RubyObject {
    RubyHash vars;
    RubyArray<?> sequences;
    long offset;
    long size;
    long textSize;

    RubyMafBlock(Ruby runtime, RubyClass type) {
        super(runtime, type);
    }

    /** The {@code a} line's {@code key=value} pairs, as a Hash of Symbol to String ({@code {score: "0.128"}}). */
    @JRubyMethod
    public IRubyObject vars(ThreadContext context) {
        return vars;
    }

    /** The rows, {@code s} and {@code e} lines alike, in file order: an Array of {@code Sluice::MAF::Sequence}. */
    @JRubyMethod
    public IRubyObject sequences(ThreadContext context) {
        return sequences;
    }

    /** The input offset of the block's {@code a} line. */
    @JRubyMethod
    public IRubyObject offset(ThreadContext context) {
        return context.runtime.newFixnum(offset);
    }

    /** The block's length in bytes, from its {@code a} line to the end of its last line. */
    @JRubyMethod
    public IRubyObject size(ThreadContext context) {
        return context.runtime.newFixnum(size);
    }

    /** The number of columns of the block's texts. */
    @JRubyMethod
    public IRubyObject text_size(ThreadContext context) {
        return context.runtime.newFixnum(textSize);
    }

    /** The first row: the reference sequence. */
    @JRubyMethod
    public IRubyObject ref_seq(ThreadContext context) {
        return sequences.isEmpty() ? context.nil : sequences.eltInternal(0);
    }
}
