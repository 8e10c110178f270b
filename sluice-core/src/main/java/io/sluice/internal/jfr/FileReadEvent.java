package io.sluice.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * JFR event {@code io.sluice.FileRead}: a read by a Sluice engine that took at least the threshold (20 ms unless a
 * recording's settings say otherwise, as for the JDK's {@code jdk.FileRead}, which never sees mapped or io_uring
 * reads). One per call of {@code PositionalFile}'s reads, whether made directly or by sluice-nio's channels; an
 * asynchronous read's duration runs from its submission to its completion.
 */
@Name("io.sluice.FileRead")
@Label("Sluice File Read")
@Category({"Sluice", "File I/O"})
@Description("Reading data from a file through a Sluice engine")
@Threshold("20 ms")
@StackTrace(true)
public final class FileReadEvent extends jdk.jfr.Event {
    @Label("Path")
    @Description("Full path of the file")
    String path;

    @Label("Position")
    @Description("Position in the file of the first byte read")
    long position;

    @Label("Bytes Read")
    @Description("Number of bytes read from the file")
    @DataAmount
    long bytes;

    @Label("End of File")
    @Description("If the read found the end of the file")
    boolean endOfFile;

    @Label("Engine")
    @Description("The Sluice engine that did the read: CLASSIC, CHANNEL, MMAP, IO_URING or AUTO")
    String engine;

    /** Made by {@link Events} only while a recording is running. */
    FileReadEvent() {
    }
}
