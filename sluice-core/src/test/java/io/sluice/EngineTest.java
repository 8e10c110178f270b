package io.sluice;

import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class EngineTest {
    @TempDir
    Path dir;

    private String savedProperty;

    @BeforeEach
    void saveProperty() {
        savedProperty = System.getProperty(Engine.PROPERTY);
        System.clearProperty(Engine.PROPERTY);
    }

    @AfterEach
    void restoreProperty() {
        if (savedProperty == null) {
            System.clearProperty(Engine.PROPERTY);
        } else {
            System.setProperty(Engine.PROPERTY, savedProperty);
        }
    }

    @ParameterizedTest
    @CsvSource({
        "classic, CLASSIC", "CLASSIC, CLASSIC", "Channel, CHANNEL", "' mmap ', MMAP", "MmAp, MMAP",
        "io_uring, IO_URING", "io-uring, IO_URING", "IO-URING, IO_URING"
    })
    void parseIgnoresCaseSpacesAndDashes(String name, Engine expected) {
        assertEquals(expected, Engine.parse(name));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "bogus", "mmap2", "io uring", "uring"})
    void parseRejectsOtherNamesListingTheValidOnes(String name) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Engine.parse(name));
        assertTrue(e.getMessage().contains("'" + name + "'"), e.getMessage());
        for (Engine engine : Engine.values()) {
            assertTrue(e.getMessage().contains(engine.name()), e.getMessage());
        }
    }

    @Test
    void parseOfNullThrowsNullPointerException() {
        assertThrows(NullPointerException.class, () -> Engine.parse(null));
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"CLASSIC", "CHANNEL", "MMAP"})
    void theJavaEnginesAreAvailable(Engine engine) {
        assertTrue(engine.isAvailable());
        assertEquals(Optional.empty(), engine.unavailabilityCause());
        assertDoesNotThrow(engine::requireAvailable);
        assertFalse(engine.description().isBlank());
    }

    @Test
    void ioUringIsAvailableOnThisMachineAndBestIsAuto() {
        assertTrue(Engine.IO_URING.isAvailable(), () -> Engine.IO_URING.unavailabilityCause().orElse(""));
        assertFalse(Engine.IO_URING.description().isBlank());
        assertEquals("sluice.engine", Engine.PROPERTY);
        assertEquals(Engine.AUTO, Engine.best());
        System.setProperty(Engine.PROPERTY, "   ");
        assertEquals(Engine.AUTO, Engine.best(), "a blank property is no choice");
        System.setProperty(Engine.PROPERTY, "io-uring");
        assertEquals(Engine.IO_URING, Engine.best(), "the property picks IO_URING where it works");
    }

    /**
     * The fallback path, for real: a JVM that may not make native calls (no --enable-native-access), and one where
     * io_uring is switched off by property, must both report why, refuse IO_URING with that reason, creating nothing,
     * and still open AUTO by default, whose asynchronous calls and batches then run one by one.
     */
    @ParameterizedTest
    @CsvSource({"'', native access is not enabled", "-Dsluice.uring.disable=true, disabled by -Dsluice.uring.disable"})
    void withoutIoUringAutoStillServesEveryCallAndSaysWhy(String jvmFlag, String expectedCause) throws Exception {
        Path target = dir.resolve("never-created");
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(
                ProcessHandle.current().info().command().orElseThrow(), "-cp", System.getProperty("java.class.path")));
        if (!jvmFlag.isEmpty()) {
            cmd.add("--enable-native-access=ALL-UNNAMED");
            cmd.add(jvmFlag);
        }
        cmd.addAll(java.util.List.of(EngineProbeMain.class.getName(), target.toString()));
        Process proc = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(proc.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(proc.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(0, proc.exitValue(), out);
        assertTrue(out.contains("available=false"), out);
        assertTrue(out.contains("cause=") && out.contains(expectedCause), out);
        assertTrue(out.contains("best=AUTO"), out);
        assertTrue(out.contains("auto=AUTO read 3 async 3 batch 3"), out);
        assertTrue(out.contains("open=UnsupportedOperationException: engine IO_URING is not available: " + expectedCause),
                out);
        assertFalse(out.contains("WARNING"), "no native-access warning may be printed:\n" + out);
        assertFalse(Files.exists(target));
    }

    @ParameterizedTest
    @CsvSource({"mmap, MMAP", "Classic, CLASSIC", "CHANNEL, CHANNEL", "' mmap', MMAP", "auto, AUTO"})
    void bestHonoursTheSystemProperty(String value, Engine expected) throws IOException {
        System.setProperty(Engine.PROPERTY, value);
        assertEquals(expected, Engine.best());
        Path p = Files.write(dir.resolve("f"), new byte[] {1, 2, 3});
        try (PositionalFile f = PositionalFile.open(p)) {
            assertEquals(expected, f.engine());
            assertEquals(3, f.size());
        }
    }

    @Test
    void bestRejectsABadChoice() {
        System.setProperty(Engine.PROPERTY, "turbo");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, Engine::best);
        assertTrue(e.getMessage().contains("turbo") && e.getMessage().contains("IO_URING"), e.getMessage());
    }

    @Test
    void openRejectsNullArguments() {
        Path p = dir.resolve("f");
        assertThrows(NullPointerException.class, () -> PositionalFile.open(null, Engine.CHANNEL));
        assertThrows(NullPointerException.class, () -> PositionalFile.open(p, (Engine) null));
    }
}
