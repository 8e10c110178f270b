package io.sluice.chunks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The first guess: the rule on given hints, and the hints read from a sysfs tree laid out as the kernel's. */
class DeviceHintsTest {
    private static final long K = 1024;

    @TempDir
    Path dir;

    private static int guess(long blockSize, long optimal, long maxRequest, long readAhead) {
        return new DeviceHints("8:0 sda", blockSize, optimal, maxRequest, readAhead).firstGuess(16 << 10, 8 << 20);
    }

    @Test
    void theGuessIsTheSizeOfTheReadsTheKernelIssues() {
        assertEquals(128 << 10, DeviceHints.UNKNOWN.firstGuess(16 << 10, 8 << 20), "nothing known: 128 KiB");
        assertEquals(128 << 10, guess(4 * K, 0, 1280 * K, 128 * K), "a typical NVMe disk: its read-ahead");
        assertEquals(4 << 20, guess(4 * K, 0, 4096 * K, 8192 * K), "read-ahead is split at max_sectors_kb");
        assertEquals(128 << 10, guess(4 * K, 0, 1280 * K, 0), "read-ahead off: the default");
        assertEquals(1 << 20, guess(4 * K, 1024 * K, 1280 * K, 128 * K), "a RAID stripe: optimal_io_size");
        assertEquals(2 << 20, guess(2048 * K, 0, -1, -1), "a large st_blksize");
        assertEquals(64 << 10, guess(4 * K, 0, -1, 96 * K), "rounded down to a power of two");
        assertEquals(8 << 20, guess(4 * K, 0, 65536 * K, 32768 * K), "kept under the maximum");
        assertEquals(16 << 10, guess(512, 0, 8 * K, 8 * K), "and over the minimum");
        assertEquals(100, DeviceHints.UNKNOWN.firstGuess(100, 120), "no power of two in range: the minimum");
        assertThrows(IllegalArgumentException.class, () -> DeviceHints.UNKNOWN.firstGuess(0, 10));
    }

    private static String devNumber(Path p) throws IOException {
        long dev = ((Number) Files.getAttribute(p, "unix:dev")).longValue();
        long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
        long minor = (dev & 0xff) | ((dev >>> 12) & ~0xffL);
        return major + ":" + minor;
    }

    @Test
    void hintsAreReadFromTheDevicesQueueOrItsDisksForAPartition() throws IOException {
        Assumptions.assumeTrue(System.getProperty("os.name").toLowerCase().contains("linux"));
        Path file = Files.write(dir.resolve("data"), new byte[1]);
        String dev = devNumber(file);

        Path sys = Files.createDirectories(dir.resolve("disk/dev/block"));
        Path queue = Files.createDirectories(sys.resolve(dev).resolve("queue"));
        Files.writeString(queue.resolve("optimal_io_size"), "0\n");
        Files.writeString(queue.resolve("max_sectors_kb"), "1280\n");
        Files.writeString(queue.resolve("read_ahead_kb"), "512\n");
        DeviceHints h = DeviceHints.of(file, sys);
        assertEquals(0, h.optimalIoSize());
        assertEquals(1280 * K, h.maxRequestSize());
        assertEquals(512 * K, h.readAhead());
        assertTrue(h.blockSize() > 0, h::toString);
        assertEquals(dev + " " + dev, h.device());
        assertEquals(512 << 10, h.firstGuess(16 << 10, 8 << 20));
        assertTrue(h.describe().contains("read_ahead_kb 512"), h::describe);

        // A partition: /sys/dev/block/M:m links to .../block/sda/sda1, which has no queue; sda's counts.
        Path devices = Files.createDirectories(dir.resolve("part/devices/block/sda/sda1"));
        Files.writeString(devices.resolve("partition"), "1\n");
        Path diskQueue = Files.createDirectories(devices.getParent().resolve("queue"));
        Files.writeString(diskQueue.resolve("read_ahead_kb"), "2048\n");
        Files.writeString(diskQueue.resolve("max_sectors_kb"), "garbage\n");
        Path partSys = Files.createDirectories(dir.resolve("part/dev/block"));
        Files.createSymbolicLink(partSys.resolve(dev), devices);
        DeviceHints p = DeviceHints.of(file, partSys);
        assertEquals(dev + " sda", p.device());
        assertEquals(2048 * K, p.readAhead());
        assertEquals(-1, p.maxRequestSize(), "what cannot be read is unknown");
        assertEquals(-1, p.optimalIoSize());

        DeviceHints none = DeviceHints.of(file, dir.resolve("nowhere"));
        assertNull(none.device());
        assertEquals(-1, none.readAhead());
        assertEquals(128 << 10, none.firstGuess(16 << 10, 8 << 20));
        assertEquals(DeviceHints.UNKNOWN, DeviceHints.of(dir.resolve("missing"), sys), "no file, nothing known");
    }

    @Test
    void thisMachinesHintsReadWithoutError() {
        DeviceHints h = DeviceHints.of(dir);
        assertTrue(h.blockSize() > 0, h::toString);
        assertTrue(h.describe().contains("st_blksize"), h::describe);
    }
}
