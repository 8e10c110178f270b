package io.sluice.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * JFR event {@code io.sluice.FileWrite}: a write by a Sluice engine or a {@code MappedWriter} that took at least the
 * threshold (20 ms unless a recording's settings say otherwise, as for the JDK's {@code jdk.FileWrite}, which never
 * sees mapped or io_uring writes). One per call of {@code PositionalFile}'s writes, whether made directly or by
 * sluice-nio's channels, and of {@code MappedWriter}'s; an asynchronous write's duration runs from its submission to
 * its completion.
 */
@Name("io.sluice.FileWrite")
@Label("Sluice File Write")
@Category({"Sluice", "File I/O"})
@Description("Writing data to a file through a Sluice engine")
@Threshold("20 ms")
@StackTrace(true)
public final class FileWriteEvent extends jdk.jfr.Event {
    @Label("Path")
    @Description("Full path of the file")
    String path;

    @Label("Position")
    @Description("Position in the file of the first byte written")
    long position;

    @Label("Bytes Written")
    @Description("Number of bytes written to the file")
    @DataAmount
    long bytes;

    @Label("Engine")
    @Description("What wrote: the engine (CLASSIC, CHANNEL, MMAP, IO_URING or AUTO), or MappedWriter")
    String engine;

    /** Made by {@link Events} only while a recording is running. */
    FileWriteEvent() {
    }
}
