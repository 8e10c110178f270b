package io.sluice.maf;

/**
 * What a {@link MafParser} reports, line by line, in input order. The {@link MafLine} passed is a view the parser
 * reuses: read what you need during the call (its numbers are parsed already; strings are made only when asked for).
 *
 * <p>Within a block, {@code i} and {@code q} lines follow the {@code s} line they describe (the parser checks it);
 * comments are not reported.
 */
public interface MafHandler {
    /** The {@code ##maf} header line (version 1, checked). */
    default void header(MafLine line) {
    }

    /** An {@code a} line: a block starts. */
    void blockStart(MafLine a);

    /** An {@code s} line: a sequence's part in the alignment. */
    void sequence(MafLine s);

    /** An {@code i} line: what lies beside the previous {@code s} line's sequence. */
    default void info(MafLine i) {
    }

    /** An {@code e} line: a sequence with no bases in this block. */
    default void empty(MafLine e) {
    }

    /** A {@code q} line: the previous {@code s} line's base qualities. */
    default void quality(MafLine q) {
    }

    /**
     * The block ended (a blank line, the next {@code a} line, or the end of the input).
     *
     * @param endOffset the offset just past the block's last line
     */
    default void blockEnd(long endOffset) {
    }
}
