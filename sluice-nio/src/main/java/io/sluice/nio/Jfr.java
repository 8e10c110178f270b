package io.sluice.nio;

import io.sluice.IoCounters;
import io.sluice.PositionalFile;
import jdk.jfr.Event;
import jdk.jfr.FlightRecorder;

/**
 * The JFR events of the adapters. With no recording enabling them a call costs one read of the event type's enabled
 * flag (through a kept instance): the event object, the clock and the fields are touched only while one does.
 */
final class Jfr {
    private static final FileReadEvent READS = new FileReadEvent();
    private static final FileWriteEvent WRITES = new FileWriteEvent();

    static {
        FlightRecorder.addPeriodicEvent(IoCountersEvent.class, () -> {
            IoCountersEvent e = new IoCountersEvent();
            e.uringSlotWaits = IoCounters.uringSlotWaits();
            e.mappedFaults = IoCounters.mappedFaults();
            e.commit();
        });
    }

    private Jfr() {
    }

    private static <E extends Event> E started(E e) {
        e.begin();
        return e;
    }

    /** Ends {@code e} (null: nothing); whether it is to be committed, its fields to be filled first. */
    private static boolean ended(Event e) {
        if (e == null) {
            return false;
        }
        e.end();
        return e.shouldCommit();
    }

    /** A started read event, or null when no recording wants one. */
    static FileReadEvent beginRead() {
        return READS.isEnabled() ? started(new FileReadEvent()) : null;
    }

    /** Ends {@code e} (null: nothing) for a read at {@code position} that returned {@code result} (-1: end of file). */
    static void endRead(FileReadEvent e, PositionalFile file, long position, long result) {
        if (ended(e)) {
            e.path = file.path().toString();
            e.position = position;
            e.bytes = Math.max(0, result);
            e.endOfFile = result < 0;
            e.engine = file.engine().name();
            e.commit();
        }
    }

    /** A started write event, or null when no recording wants one. */
    static FileWriteEvent beginWrite() {
        return WRITES.isEnabled() ? started(new FileWriteEvent()) : null;
    }

    /** Ends {@code e} (null: nothing) for a write of {@code bytes} at {@code position}. */
    static void endWrite(FileWriteEvent e, PositionalFile file, long position, long bytes) {
        if (ended(e)) {
            e.path = file.path().toString();
            e.position = position;
            e.bytes = bytes;
            e.engine = file.engine().name();
            e.commit();
        }
    }
}
