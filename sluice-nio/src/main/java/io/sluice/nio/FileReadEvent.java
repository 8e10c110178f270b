package io.sluice.nio;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * JFR event {@code io.sluice.FileRead}: a read through Sluice's channels that took at least the threshold (20 ms
 * unless a recording's settings say otherwise, as for the JDK's {@code jdk.FileRead}, which never sees mapped or
 * io_uring reads). Emitted by {@link SluiceChannels}' {@code FileChannel} and {@code AsynchronousFileChannel}, and so
 * by the provider's channels and streams; an asynchronous read's duration runs from its submission to its completion.
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

    /** Made by Sluice's channels only while a recording enables the event. */
    FileReadEvent() {
    }
}
