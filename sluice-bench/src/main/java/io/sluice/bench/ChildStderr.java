package io.sluice.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;

/**
 * A bench's child process's standard error, copied line by line to the bench's log (each line prefixed with who
 * said it) by a daemon thread, with the last few lines kept for the message when the child fails. The log is the
 * caller's writer (standard error for the CLI, a buffer in tests), not this JVM's file descriptor 2.
 */
public final class ChildStderr {
    private final ArrayDeque<String> last = new ArrayDeque<>();
    private final int keep;
    private final Thread copier;

    /**
     * Starts copying {@code child}'s standard error to {@code log}, each line after {@code prefix}, keeping the last
     * {@code keep} lines; the thread is named {@code threadName}.
     */
    public ChildStderr(Process child, PrintWriter log, String prefix, int keep, String threadName) {
        this.keep = keep;
        this.copier = Thread.ofPlatform().daemon().name(threadName).start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getErrorStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    synchronized (last) {
                        if (last.size() == this.keep) {
                            last.removeFirst();
                        }
                        last.addLast(line);
                    }
                    log.println(prefix + line);
                    log.flush();
                }
            } catch (IOException e) {
                log.println(prefix + "(its standard error could not be read further: " + e + ")");
                log.flush();
            }
        });
    }

    /** The last lines read so far, oldest first. */
    public List<String> lastLines() {
        synchronized (last) {
            return List.copyOf(last);
        }
    }

    /**
     * Waits up to {@code millis} for the copy to reach the end of the child's output (its last lines may still be in
     * the pipe when it has exited).
     */
    public void awaitEnd(long millis) throws InterruptedException {
        copier.join(millis);
    }
}
