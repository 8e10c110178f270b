package io.sluice.maf;

import java.io.IOException;

/**
 * Input that is not valid MAF. The message says where, in the form every Sluice error uses for a position:
 * {@code chr22.maf: line 12, offset 345: s line: size 10 does not match the 9 bases of the text}.
 */
public final class MafFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final long line;
    private final long offset;
    private final String problem;

    /**
     * @param source  what was parsed (a file name), for the message
     * @param line    the line number, from 1
     * @param offset  the byte offset in the input of the first byte found wrong
     * @param problem what is wrong
     */
    public MafFormatException(String source, long line, long offset, String problem) {
        super(source + ": line " + line + ", offset " + offset + ": " + problem);
        this.source = source;
        this.line = line;
        this.offset = offset;
        this.problem = problem;
    }

    /** What was parsed, as given to the parser. */
    public String source() {
        return source;
    }

    /** The line number of the problem, from 1. */
    public long line() {
        return line;
    }

    /** The byte offset in the input of the first byte found wrong. */
    public long offset() {
        return offset;
    }

    /** What is wrong, without the position. */
    public String problem() {
        return problem;
    }
}
