package io.sluice;

import io.sluice.internal.Native;
import io.sluice.internal.uring.Ring;
import io.sluice.internal.uring.Uapi;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;

/**
 * The io_uring rings of this JVM: one {@link UringLane} per core (threads pick one by id, so contention spreads),
 * created on first use, and one table of registered files kept identical in every ring so a file's slot means the
 * same file in all of them.
 */
final class UringPool {
    static final int ENTRIES = 256;
    static final int CHUNKS = 32;
    static final int FILE_SLOTS = 4096;
    /**
     * The top of each ring's file table is kept for direct descriptors: files opened by {@link PathReads} straight
     * into a slot, with no normal descriptor. Those slots are per ring, not shared: request slot {@code s} of a lane
     * owns table slot {@link #directSlot directSlot(s)} of that lane's ring while its chain runs, so two chains can
     * never name the same one and none is ever left allocated.
     */
    static final int DIRECT_SLOTS = ENTRIES;
    /** Slots below this are shared registrations of {@link UringFile}s, the same file in every ring. */
    static final int SHARED_SLOTS = FILE_SLOTS - DIRECT_SLOTS;

    private static final Object LOCK = new Object();
    private static String cause;
    private static boolean probed;
    private static UringPool instance;

    final UringLane[] lanes;
    /** The IORING_SETUP_SQPOLL/IOPOLL flags of every ring here. */
    final int setupFlags;
    /** Registered file slots in use; guarded by {@code this}. */
    private final BitSet slots = new BitSet(FILE_SLOTS);

    UringPool(int lanes, int entries, int chunks) throws IOException {
        this(lanes, entries, chunks, 0, "sluice-uring-");
    }

    UringPool(int lanes, int entries, int chunks, int setupFlags, String threadPrefix) throws IOException {
        this.lanes = new UringLane[lanes];
        this.setupFlags = setupFlags;
        boolean success = false;
        try {
            for (int i = 0; i < lanes; i++) {
                this.lanes[i] = new UringLane(entries, chunks, threadPrefix + i, setupFlags);
                if (this.lanes[i].slots() > DIRECT_SLOTS) {
                    throw new IllegalArgumentException("a lane of " + this.lanes[i].slots() + " request slots needs more"
                            + " than the " + DIRECT_SLOTS + " direct-descriptor slots kept per ring");
                }
                this.lanes[i].ring.registerSparseFiles(FILE_SLOTS);
            }
            success = true;
        } finally {
            if (!success) {
                close();
            }
        }
    }

    /** Why io_uring cannot be used here, or null when it can. Probed once, on first call. */
    static String unavailabilityCause() {
        synchronized (LOCK) {
            if (!probed) {
                cause = probe();
                probed = true;
            }
            return cause;
        }
    }

    /** The shared pool, created on first use. */
    static UringPool get() throws IOException {
        String why = unavailabilityCause();
        if (why != null) {
            throw new UnsupportedOperationException("engine IO_URING is not available: " + why);
        }
        synchronized (LOCK) {
            if (instance == null) {
                instance = new UringPool(Math.max(1, Runtime.getRuntime().availableProcessors()), ENTRIES, CHUNKS);
            }
            return instance;
        }
    }

    /** Pools of rings set up with SQPOLL and/or IOPOLL, by setup flags; created on first use, guarded by LOCK. */
    private static final java.util.Map<Integer, UringPool> POLLED = new java.util.HashMap<>();

    /**
     * The pool for files opened with {@link SluiceOption#SQPOLL} and/or {@link SluiceOption#IOPOLL}, apart from the
     * default one so that other files never pay for polling. SQPOLL pools have one ring: each SQPOLL ring has its
     * own kernel thread spinning on a core, and one thread submitting for everybody is the point. IOPOLL-only pools
     * have a ring per core, like the default pool.
     *
     * @throws IOException naming the flags and the kernel's errno when it refuses such a ring; not cached, so a
     *                     later open tries again
     */
    static UringPool polled(int setupFlags) throws IOException {
        String why = unavailabilityCause();
        if (why != null) {
            throw new UnsupportedOperationException("engine IO_URING is not available: " + why);
        }
        synchronized (LOCK) {
            UringPool p = POLLED.get(setupFlags);
            if (p == null) {
                boolean sq = (setupFlags & Uapi.IORING_SETUP_SQPOLL) != 0;
                int lanes = sq ? 1 : Math.max(1, Runtime.getRuntime().availableProcessors());
                p = new UringPool(lanes, ENTRIES, CHUNKS, setupFlags,
                        "sluice-uring-" + (sq ? "sqpoll-" : "") + ((setupFlags & Uapi.IORING_SETUP_IOPOLL) != 0
                                ? "iopoll-" : ""));
                POLLED.put(setupFlags, p);
            }
            return p;
        }
    }

    private static String probe() {
        String os = System.getProperty("os.name", "");
        if (!os.equals("Linux")) {
            return "io_uring is Linux only (os.name=" + os + ")";
        }
        if (!Native.isSupportedArchitecture()) {
            return "architecture " + System.getProperty("os.arch") + " is not supported (x86-64 and arm64 are)";
        }
        if (Boolean.getBoolean("sluice.uring.disable")) {
            return "disabled by -Dsluice.uring.disable=true";
        }
        if (!Native.isEnabled()) {
            return "native access is not enabled for io.sluice.core: run java with "
                    + "--enable-native-access=io.sluice.core (module path) or ALL-UNNAMED (class path)";
        }
        String sysctl = readSysctl();
        if ("2".equals(sysctl)) {
            return "disabled by the administrator (kernel.io_uring_disabled=2)";
        }
        try (Ring r = Ring.create(4, 0)) {
            if ((r.features() & Uapi.IORING_FEAT_RW_CUR_POS) == 0 || (r.features() & Uapi.IORING_FEAT_NODROP) == 0) {
                return "kernel too old: its io_uring lacks READ/WRITE/OPENAT and no-drop completions (Linux 5.6+ needed; "
                        + "this is " + System.getProperty("os.version") + ")";
            }
            return null;
        } catch (IOException e) {
            String m = e.getMessage();
            if (m.contains("EPERM")) {
                return "io_uring_setup was refused (EPERM): kernel.io_uring_disabled=" + sysctl
                        + ", or a seccomp policy blocks it (container runtimes often do)";
            }
            if (m.contains("ENOSYS")) {
                return "the kernel has no io_uring (ENOSYS): Linux 5.6+ built with CONFIG_IO_URING is needed";
            }
            if (m.contains("ENOMEM")) {
                return "io_uring_setup ran out of locked memory (ENOMEM): raise 'ulimit -l'";
            }
            return m;
        } catch (RuntimeException | LinkageError e) {
            return "io_uring could not be probed: " + e;
        }
    }

    private static String readSysctl() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/io_uring_disabled")).trim();
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /** The lane for the calling thread. */
    UringLane lane() {
        return lanes[(int) (Thread.currentThread().threadId() % lanes.length)];
    }

    /** Registers {@code fd} in every ring under one slot; -1 when the table is full (the file then goes unregistered). */
    synchronized int register(int fd) throws IOException {
        int slot = slots.nextClearBit(0);
        if (slot >= SHARED_SLOTS) {
            return -1;
        }
        for (UringLane l : lanes) {
            l.ring.updateFile(slot, fd);
        }
        slots.set(slot);
        return slot;
    }

    /** The ring's file-table slot that request slot {@code requestSlot} of a lane may open a direct descriptor into. */
    static int directSlot(int requestSlot) {
        return SHARED_SLOTS + requestSlot;
    }

    synchronized void unregister(int slot) throws IOException {
        for (UringLane l : lanes) {
            l.ring.updateFile(slot, -1);
        }
        slots.clear(slot);
    }

    /** Asks every lane to cancel {@code file}'s requests in flight ({@link UringLane#cancelFile}). */
    void cancel(UringFile file) {
        for (UringLane l : lanes) {
            l.cancelFile(file);
        }
    }

    /** Delivers every lane's ready completions ({@link UringLane#drainReady}). */
    void drainReady() {
        for (UringLane l : lanes) {
            l.drainReady();
        }
    }

    /** Closes every lane, waiting for their requests in flight. */
    void close() {
        for (UringLane l : lanes) {
            if (l != null) {
                l.close();
            }
        }
    }
}
