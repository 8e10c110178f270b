package io.sluice.internal.jfr;

import io.sluice.IoCounters;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;

/**
 * Whether any JFR recording is running, so that Sluice's reads and writes go through {@link Events}: one volatile read
 * on every call, and nothing else while no recording runs. The flag follows the recordings through a
 * {@link FlightRecorderListener}, which JFR calls on the thread that starts or stops a recording, before that call
 * returns.
 *
 * <p>sluice-core reads {@code jdk.jfr} only where it is there ({@code requires static}): on the module path it is
 * resolved when the application or {@code -XX:StartFlightRecording} asks for it, and a runtime image may leave it
 * out. This class uses no type of {@code jdk.jfr} unless the module can be read, so without it the flag stays false
 * and no event class is ever loaded; {@link Events} is reached only while the flag is true.
 */
public final class Jfr {
    private static volatile boolean recording;

    static {
        Module jfr = ModuleLayer.boot().findModule("jdk.jfr").orElse(null);
        if (jfr != null && Jfr.class.getModule().canRead(jfr)) {
            try {
                Listener.install();
            } catch (LinkageError | RuntimeException e) {
                // JFR cannot be used in this JVM (built without it, or refused): Sluice then records nothing.
            }
        }
    }

    private Jfr() {
    }

    /** True while at least one JFR recording runs. */
    public static boolean recording() {
        return recording;
    }

    /** Follows the recorder; loaded only when {@code jdk.jfr} is readable. */
    private static final class Listener implements FlightRecorderListener {
        private static boolean periodicAdded;

        static void install() {
            FlightRecorder.addListener(new Listener());
        }

        @Override
        public void recorderInitialized(FlightRecorder recorder) {
            synchronized (Listener.class) {
                if (!periodicAdded) {
                    periodicAdded = true;
                    // Registered only now: registering an event type sets up JFR's metadata, which a JVM that never
                    // records should not pay for.
                    FlightRecorder.addPeriodicEvent(IoCountersEvent.class, Listener::counters);
                }
            }
            refresh(recorder);
        }

        @Override
        public void recordingStateChanged(Recording changed) {
            refresh(FlightRecorder.getFlightRecorder());
        }

        /**
         * Recomputes the flag from every recording's state, under one lock, so that the last change seen wins whatever
         * the order in which threads starting and stopping recordings get here.
         */
        private static synchronized void refresh(FlightRecorder recorder) {
            boolean any = false;
            for (Recording r : recorder.getRecordings()) {
                any |= r.getState() == RecordingState.RUNNING;
            }
            recording = any;
        }

        private static void counters() {
            IoCountersEvent e = new IoCountersEvent();
            e.uringSlotWaits = IoCounters.uringSlotWaits();
            e.mappedFaults = IoCounters.mappedFaults();
            e.commit();
        }
    }
}
