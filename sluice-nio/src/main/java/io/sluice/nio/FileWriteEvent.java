package io.sluice.nio;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * JFR event {@code io.sluice.FileWrite}: a write through Sluice's channels that took at least the threshold (20 ms
 * unless a recording's settings say otherwise, as for the JDK's {@code jdk.FileWrite}, which never sees mapped or
 * io_uring writes). Emitted by {@link SluiceChannels}' {@code FileChannel} and {@code AsynchronousFileChannel}, and so
 * by the provider's channels and streams; an asynchronous write's duration runs from its submission to its completion.
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
    @Description("The Sluice engine that did the write: CLASSIC, CHANNEL, MMAP, IO_URING or AUTO")
    String engine;

    /** Made by Sluice's channels only while a recording enables the event. */
    FileWriteEvent() {
    }
}
