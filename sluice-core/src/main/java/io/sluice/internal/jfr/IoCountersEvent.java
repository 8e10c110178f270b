package io.sluice.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/**
 * JFR periodic event {@code io.sluice.IoCounters} (every second unless a recording's settings say otherwise): the
 * counts of {@link io.sluice.IoCounters} since the JVM started. Registered once JFR is initialized and Sluice has done
 * its first read or write.
 */
@Name("io.sluice.IoCounters")
@Label("Sluice I/O Counters")
@Category({"Sluice", "File I/O"})
@Description("The Sluice engines' slow paths since the JVM started")
@Period("1 s")
@StackTrace(false)
public final class IoCountersEvent extends jdk.jfr.Event {
    @Label("io_uring Slot Waits")
    @Description("Times a thread found every request slot of an io_uring ring in flight and waited for one (back-pressure)")
    long uringSlotWaits;

    @Label("Mapped Faults")
    @Description("Times a copy from or to an MMAP or AUTO mapping raised SIGBUS")
    long mappedFaults;

    /** Made by the periodic hook only. */
    IoCountersEvent() {
    }
}
