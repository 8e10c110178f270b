package io.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where AUTO's thresholds come from: the cache file, its machine check, the calibration, the pin. */
class AutoThresholdsTest {
    @TempDir
    Path dir;

    @Test
    void theCacheFileRoundTripsOnThisMachineOnly() throws IOException {
        Path file = dir.resolve("sub").resolve(AutoThresholds.CACHE_FILE);
        AutoThresholds.store(file, new AutoThresholds(16384, 262144, "x"), "sluice bench");
        AutoThresholds t = AutoThresholds.load(file);
        assertEquals(16384, t.nativeMapMax());
        assertEquals(262144, t.heapMapMax());
        assertTrue(t.source().startsWith("cached in " + file + " (sluice bench, 20"), t.source());
        try (Stream<Path> s = Files.list(file.getParent())) {
            assertEquals(List.of(file), s.toList(), "no temporary file left beside it");
        }

        String text = Files.readString(file);
        Files.writeString(file, text.replace("machine=", "machine=another "));
        assertNull(AutoThresholds.load(file), "written on another machine: measured again");
        Files.writeString(file, text.replace("native-map-max=16384", "native-map-max=lots"));
        assertNull(AutoThresholds.load(file), "unreadable numbers: measured again");
        assertNull(AutoThresholds.load(dir.resolve("missing")));
    }

    @Test
    void calibrationPicksMeasuredSizesAndCleansUp() throws IOException {
        AutoThresholds t = AutoThresholds.calibrate(dir);
        List<Long> sizes = List.of(0L, 4096L, 16384L, 65536L, 262144L, 1048576L);
        assertTrue(sizes.contains(t.nativeMapMax()), t.toString());
        assertTrue(sizes.contains(t.heapMapMax()), t.toString());
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(0, s.count(), "the calibration file is deleted");
        }
    }

    @Test
    void engineSaysWhatIsInUseAndWhereItCameFrom() {
        String old = System.getProperty(AutoThresholds.PROPERTY);
        try {
            System.setProperty(AutoThresholds.PROPERTY, "16k,1m");
            assertEquals("reads up to 16 KiB (native memory) and 1 MiB (heap memory) through the mapping, larger by"
                    + " pread; pinned by -Dsluice.auto.map-max=16k,1m", Engine.autoThresholds());
        } finally {
            if (old == null) {
                System.clearProperty(AutoThresholds.PROPERTY);
            } else {
                System.setProperty(AutoThresholds.PROPERTY, old);
            }
        }
    }
}
