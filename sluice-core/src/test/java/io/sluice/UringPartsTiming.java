package io.sluice;

import io.sluice.internal.Native;
import io.sluice.internal.uring.Ring;
import io.sluice.internal.uring.Uapi;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Not a test: the candidates for a cheaper blocking read through io_uring, each timed alone against {@code pread}, one
 * blocking 1 KiB positional read of a cached file per call (the read {@code NIOFSDirectory} makes per refill). Rows
 * (median over rounds of nanoseconds per call, rows interleaved and rotated every round):
 *
 * <ul>
 *   <li>{@code jdk-heap}: {@code FileChannel.read(heap buffer, position)}, the default provider's refill;
 *   <li>{@code getppid-ccs}, {@code getppid-plain}, {@code getppid-critical}: the cheapest system call through
 *       {@code syscall(3)} linked with errno capture (as Sluice links it), without, and as a critical downcall: what
 *       the downcall's shape costs;
 *   <li>{@code pread-ccs}, {@code pread-critical}: {@code pread64} into native memory, linked both ways;
 *   <li>{@code preadv2-nowait}: {@code preadv2(RWF_NOWAIT)}, the non-blocking page-cache attempt io_uring makes
 *       itself first, made from the caller's thread;
 *   <li>{@code preadv2-plain}, {@code pread-plain}: {@code preadv2} without flags, {@code pread64} linked without
 *       errno capture;
 *   <li>{@code raw-nop}, {@code raw-read}: a private ring used by this thread only, no lane (no lock, no slots, no
 *       atomics): prepare, one {@code io_uring_enter(submit)}, drain;
 *   <li>{@code raw-read-getevents}: the same with {@code IORING_ENTER_GETEVENTS, min_complete=1} in the same call;
 *   <li>{@code raw-read-critical}: the enter as a critical downcall (no thread-state transition, no errno capture);
 *   <li>{@code raw-read-regring}: the ring descriptor registered in this thread ({@code IORING_REGISTER_RING_FDS}),
 *       entered with {@code IORING_ENTER_REGISTERED_RING} (no descriptor lookup);
 *   <li>{@code raw-read-coop}: a ring set up with {@code COOP_TASKRUN};
 *   <li>{@code raw-read-single}: a ring set up with {@code SINGLE_ISSUER | DEFER_TASKRUN}, entered with GETEVENTS;
 *   <li>{@code lane-read}: a READ of the registered file through the calling thread's lane (lock, slot, drain);
 *   <li>{@code IO_URING-direct}, {@code IO_URING-heap}: the engine's positional reads through its ring;
 *   <li>{@code CHANNEL-heap}: the CHANNEL engine's read into a heap buffer.
 * </ul>
 *
 * <p>Run with the test classpath and native access:
 * {@code java --enable-native-access=ALL-UNNAMED -cp sluice-core/target/classes:sluice-core/target/test-classes
 * io.sluice.UringPartsTiming [file] [rounds] [calls] [row,row,...]}.
 */
public final class UringPartsTiming {
    private static final int LEN = 1024;
    private static final long SIZE = 64L << 20;
    private static final int SYS_PREAD64 = 17;
    private static final int SYS_PREADV2 = 327;
    private static final int SYS_GETPPID = 110;
    private static final int RWF_NOWAIT = 8;

    private UringPartsTiming() {
    }


    /** A ring of this thread's own, with the file registered at slot 0. */
    private static final class RawRing implements AutoCloseable {
        final Ring ring;
        final MemorySegment state = Native.newCallState();
        final MemorySegment nat;
        int enterFd;
        int enterFlags;
        boolean getEvents;
        boolean critical;
        long sink;

        RawRing(int setupFlags, int fileFd, MemorySegment nat) throws IOException {
            ring = Ring.create(8, setupFlags);
            ring.registerSparseFiles(4);
            ring.updateFile(0, fileFd);
            this.nat = nat;
            enterFd = ring.fd();
        }

        long nop() {
            long sqe = ring.nextSqe();
            ring.prep(sqe, Uapi.IORING_OP_NOP, -1, false, 0, 0, 0, 7);
            return enterAndDrain();
        }

        long read(long pos) {
            long sqe = ring.nextSqe();
            ring.prep(sqe, Uapi.IORING_OP_READ, 0, true, nat.address(), LEN, pos, 7);
            return enterAndDrain();
        }

        private long enterAndDrain() {
            int n = ring.publish();
            int flags = enterFlags | (getEvents ? Uapi.IORING_ENTER_GETEVENTS : 0);
            int min = getEvents ? 1 : 0;
            long rc;
            try {
                rc = critical ? (long) ENTER_CRITICAL.invokeExact((long) Uapi.SYS_IO_URING_ENTER, (long) enterFd,
                        (long) n, (long) min, (long) flags, 0L, 0L)
                        : Native.syscall(state, Uapi.SYS_IO_URING_ENTER, enterFd, n, min, flags, 0, 0);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
            if (rc < 0) {
                throw new IllegalStateException("enter: " + rc);
            }
            while (ring.cqReady() == 0) {
                Native.syscall(state, Uapi.SYS_IO_URING_ENTER, ring.fd(), 0, 1, Uapi.IORING_ENTER_GETEVENTS, 0, 0);
            }
            ring.drain((u, res, f) -> sink += res);
            return sink;
        }

        /** Registers the ring's descriptor in this thread's table; later enters name it by index. */
        void registerRingFd() {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment upd = a.allocate(16, 8);
                upd.set(ValueLayout.JAVA_INT, 0, -1);
                upd.set(ValueLayout.JAVA_LONG, 8, ring.fd());
                long rc = Native.syscall(Uapi.SYS_IO_URING_REGISTER, ring.fd(), Uapi.IORING_REGISTER_RING_FDS,
                        upd.address(), 1, 0, 0);
                if (rc != 1) {
                    throw new IllegalStateException("REGISTER_RING_FDS: " + rc);
                }
                enterFd = upd.get(ValueLayout.JAVA_INT, 0);
                enterFlags |= Uapi.IORING_ENTER_REGISTERED_RING;
            }
        }

        @Override
        public void close() {
            ring.close();
        }
    }

    private static final Linker LINKER = Linker.nativeLinker();
    private static final MemorySegment SYSCALL = LINKER.defaultLookup().find("syscall").orElseThrow();
    private static final FunctionDescriptor SYSCALL6 = FunctionDescriptor.of(ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG);
    private static final MethodHandle PLAIN = LINKER.downcallHandle(SYSCALL, SYSCALL6,
            Linker.Option.firstVariadicArg(1));
    private static final MethodHandle ENTER_CRITICAL = LINKER.downcallHandle(SYSCALL, SYSCALL6,
            Linker.Option.firstVariadicArg(1), Linker.Option.critical(false));

    public static void main(String[] args) throws Throwable {
        Path file = Path.of(args.length > 0 ? args[0] : "/tmp/sluice-uring-single-read.bin");
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        int calls = args.length > 2 ? Integer.parseInt(args[2]) : 200_000;
        List<String> only = args.length > 3 ? List.of(args[3].split(",")) : null;
        UringSingleReadTiming.makeFile(file, SIZE);
        long[] positions = UringSingleReadTiming.positions(SIZE, LEN);
        int fd = Native.open(file.toString(), 0, 0);
        if (fd < 0) {
            throw new IOException("open " + file + ": " + fd);
        }
        try (Arena arena = Arena.ofShared();
                FileChannel jdk = FileChannel.open(file, StandardOpenOption.READ);
                PositionalFile uring = PositionalFile.open(file, Engine.IO_URING);
                PositionalFile channel = PositionalFile.open(file, Engine.CHANNEL)) {
            ByteBuffer heap = ByteBuffer.allocate(LEN);
            ByteBuffer direct = ByteBuffer.allocateDirect(LEN);
            MemorySegment nat = arena.allocate(LEN, 4096);
            MemorySegment iov = arena.allocate(16, 8);
            iov.set(ValueLayout.JAVA_LONG, 0, nat.address());
            iov.set(ValueLayout.JAVA_LONG, 8, LEN);
            MemorySegment state = Native.newCallState();
            UringFile uf = (UringFile) uring;
            UringLane lane = UringPool.get().lane();
            int regSlot = uf.registeredSlot();
            RawRing plain = new RawRing(0, fd, nat);
            RawRing events = new RawRing(0, fd, nat);
            events.getEvents = true;
            RawRing crit = new RawRing(0, fd, nat);
            crit.critical = true;
            RawRing regring = new RawRing(0, fd, nat);
            regring.registerRingFd();
            RawRing coop = new RawRing(Uapi.IORING_SETUP_COOP_TASKRUN, fd, nat);
            RawRing single = new RawRing(Uapi.IORING_SETUP_SINGLE_ISSUER | Uapi.IORING_SETUP_DEFER_TASKRUN, fd, nat);
            single.getEvents = true;
            Map<String, UringSingleReadTiming.Call> rows = new LinkedHashMap<>();
            rows.put("jdk-heap", p -> jdk.read(heap.clear(), p));
            rows.put("getppid-ccs", p -> Native.syscall(state, SYS_GETPPID, 0, 0, 0, 0, 0, 0));
            rows.put("getppid-plain", p -> call(PLAIN, SYS_GETPPID, 0, 0, 0));
            rows.put("getppid-critical", p -> call(ENTER_CRITICAL, SYS_GETPPID, 0, 0, 0));
            rows.put("pread-ccs", p -> Native.syscall(state, SYS_PREAD64, fd, nat.address(), LEN, p, 0, 0));
            rows.put("pread-critical", p -> call(ENTER_CRITICAL, SYS_PREAD64, fd, nat.address(), LEN, p));
            rows.put("preadv2-nowait", p -> Native.syscall(state, SYS_PREADV2, fd, iov.address(), 1, p, 0,
                    RWF_NOWAIT));
            rows.put("preadv2-plain", p -> Native.syscall(state, SYS_PREADV2, fd, iov.address(), 1, p, 0, 0));
            rows.put("pread-plain", p -> call(PLAIN, SYS_PREAD64, fd, nat.address(), LEN, p));
            rows.put("raw-nop", p -> plain.nop());
            rows.put("raw-read", plain::read);
            rows.put("raw-read-getevents", events::read);
            rows.put("raw-read-critical", crit::read);
            rows.put("raw-read-regring", regring::read);
            rows.put("raw-read-coop", coop::read);
            rows.put("raw-read-single", single::read);
            rows.put("lane-read", p -> lane.await(lane.submitOne(Uapi.IORING_OP_READ,
                    regSlot >= 0 ? regSlot : fd, regSlot >= 0, nat.address(), LEN, p, 0, -1, null, null, null, -1,
                    null)));
            rows.put("IO_URING-direct", p -> uring.read(direct.clear(), p));
            rows.put("IO_URING-heap", p -> uring.read(heap.clear(), p));
            rows.put("CHANNEL-heap", p -> channel.read(heap.clear(), p));
            if (only != null) {
                rows.keySet().retainAll(only);
            }
            Map<String, double[]> ns = UringSingleReadTiming.time(rows, positions, rounds, calls);
            for (RawRing rr : List.of(plain, events, crit, regring, coop, single)) {
                rr.close();
            }
            UringSingleReadTiming.print(ns, 20);
        } finally {
            Native.close(fd);
        }
    }

    private static long call(MethodHandle h, long nr, long a1, long a2, long a3) {
        return call(h, nr, a1, a2, a3, 0);
    }

    private static long call(MethodHandle h, long nr, long a1, long a2, long a3, long a4) {
        try {
            return (long) h.invokeExact(nr, a1, a2, a3, a4, 0L, 0L);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
