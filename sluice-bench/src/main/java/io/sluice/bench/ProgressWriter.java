package io.sluice.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.function.Supplier;

/**
 * Standard error for a section run by {@code sluice bench all}: each line the section starts is prefixed with where
 * the whole run stands ({@code [3/8 write 2:10, about 4:30 left] }), so its own progress ({@code [2/6] seqwrite
 * 4 KiB ...}) reads as part of one display. It also keeps the section's last complete line, which is the error
 * message when the section fails.
 */
final class ProgressWriter extends Writer {
    private final PrintWriter out;
    private final Supplier<String> prefix;
    private final StringBuilder line = new StringBuilder();
    private String lastLine = "";
    private boolean atLineStart = true;

    ProgressWriter(PrintWriter out, Supplier<String> prefix) {
        this.out = out;
        this.prefix = prefix;
    }

    /** The last complete line written, without its prefix; empty if none. */
    String lastLine() {
        synchronized (lock) {
            return lastLine;
        }
    }

    @Override
    public void write(char[] buf, int off, int len) {
        synchronized (lock) {
            int start = off;
            for (int i = off; i < off + len; i++) {
                char c = buf[i];
                if (atLineStart && c != '\n') {
                    out.write(buf, start, i - start);
                    start = i;
                    out.write(prefix.get());
                    atLineStart = false;
                }
                if (c == '\n') {
                    lastLine = line.toString().strip();
                    line.setLength(0);
                    atLineStart = true;
                } else if (c != '\r') {
                    line.append(c);
                }
            }
            out.write(buf, start, off + len - start);
        }
    }

    @Override
    public void flush() {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        // standard error belongs to the caller
        flush();
    }
}
