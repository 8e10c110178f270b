package io.sluice;

import static io.sluice.internal.uring.Uapi.IORING_OP_READ;

import io.sluice.internal.Errno;
import io.sluice.internal.Native;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether the device under a file can complete polled (IORING_SETUP_IOPOLL) transfers, asked when the file is opened
 * with {@link SluiceOption#IOPOLL}. Setting up a polled ring succeeds on any kernel; only a transfer finds out that the
 * block device has no poll queues, and it fails with EOPNOTSUPP. Finding that at open time, with the device named,
 * beats an unexplained failure of the first read.
 */
final class IopollCheck {
    private IopollCheck() {
    }

    /**
     * Refuses a device whose {@code queue/io_poll} is 0 in sysfs, then, when the file holds a block, reads it through
     * the polled ring {@code lane} (by descriptor) and refuses EOPNOTSUPP.
     *
     * @throws IOException "IOPOLL not supported by the device of PATH: why"
     */
    static void deviceCanPoll(Path path, UringLane lane, int fd, int block) throws IOException {
        String setting = pollSetting(path);
        if (setting != null && setting.endsWith("= 0")) {
            throw new IOException("IOPOLL not supported by the device of " + path + ": " + setting
                    + " (the device has no poll queues; for NVMe they come from the nvme.poll_queues module parameter)");
        }
        probeRead(path, lane, fd, block, setting);
    }

    /** The read half of {@link #deviceCanPoll}; {@code setting} is quoted in the message when known. */
    static void probeRead(Path path, UringLane lane, int fd, int block, String setting) throws IOException {
        long size = Native.size(fd);
        if (size < block) {
            return; // nothing to read: the sysfs setting is all there is to go on
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(block, 4096);
            int rc = lane.await(lane.submitOne(IORING_OP_READ, fd, false, buf.address(), block, 0, 0, -1, null, null,
                    null, -1, null));
            if (rc == -Errno.EOPNOTSUPP) {
                throw new IOException("IOPOLL not supported by the device of " + path + ": a polled read returned "
                        + Errno.describe(rc) + (setting != null ? " (" + setting + ")" : ""));
            }
            if (rc < 0) {
                throw new IOException("IOPOLL check of " + path + ": polled read(pos=0, len=" + block + "): "
                        + Errno.describe(rc));
            }
        }
    }

    /**
     * "/sys/dev/block/M:m/queue/io_poll = V" for the block device holding {@code path}, or null when it cannot be
     * told (not a block device, such as tmpfs or btrfs's anonymous devices, or no sysfs).
     */
    static String pollSetting(Path path) {
        try {
            long dev = ((Number) Files.getAttribute(path, "unix:dev")).longValue();
            // glibc's gnu_dev_major/minor: the 64-bit dev_t keeps the high bits of each number apart
            long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
            long minor = (dev & 0xff) | ((dev >>> 12) & ~0xffL);
            Path base = Path.of("/sys/dev/block/" + major + ":" + minor);
            // a partition's queue is its disk's, one directory up
            for (Path q : new Path[] {base.resolve("queue/io_poll"), base.resolve("../queue/io_poll")}) {
                if (Files.isReadable(q)) {
                    return q.toRealPath() + " = " + Files.readString(q).trim();
                }
            }
            return null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
