package io.sluice.cli;

import java.io.PrintWriter;
import java.io.Writer;

/**
 * Standard error that knows whether its last line is finished. Progress is written a piece at a time on one line
 * ({@code [2/6] seqwrite 4 KiB ...}, then a dot per round); an error or a result that came in the middle would
 * otherwise be glued to the end of it. {@link #endLine} finishes such a line first.
 */
final class LineTrackingWriter extends PrintWriter {
    /** Whether the last character written was a line end, or nothing was written; guarded by {@code lock}. */
    private boolean atLineStart = true;

    private LineTrackingWriter(Writer out) {
        super(out, true);
    }

    /** {@code w} itself when it already tracks its lines, otherwise a tracking writer around it. */
    static PrintWriter wrap(PrintWriter w) {
        return w instanceof LineTrackingWriter ? w : new LineTrackingWriter(w);
    }

    /** Writes a line end if {@code w} is a tracking writer in the middle of a line; flushes it in any case. */
    static void endLine(PrintWriter w) {
        if (w instanceof LineTrackingWriter t) {
            synchronized (t.lock) {
                if (!t.atLineStart) {
                    t.println();
                }
            }
        }
        w.flush();
    }

    @Override
    public void write(int c) {
        synchronized (lock) {
            super.write(c);
            atLineStart = c == '\n';
        }
    }

    @Override
    public void write(char[] buf, int off, int len) {
        synchronized (lock) {
            super.write(buf, off, len);
            if (len > 0) {
                atLineStart = buf[off + len - 1] == '\n';
            }
        }
    }

    @Override
    public void write(String s, int off, int len) {
        synchronized (lock) {
            super.write(s, off, len);
            if (len > 0) {
                atLineStart = s.charAt(off + len - 1) == '\n';
            }
        }
    }

    @Override
    public void println() {
        // PrintWriter writes the line separator straight to the writer underneath, not through write().
        synchronized (lock) {
            super.println();
            atLineStart = true;
        }
    }
}
