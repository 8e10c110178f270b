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
    void ioUringIsNotAvailableAndSaysWhy() {
        Engine e = Engine.IO_URING;
        assertFalse(e.isAvailable());
        String cause = e.unavailabilityCause().orElseThrow();
        assertFalse(cause.isBlank());
        UnsupportedOperationException x = assertThrows(UnsupportedOperationException.class, e::requireAvailable);
        assertTrue(x.getMessage().contains("IO_URING") && x.getMessage().contains(cause), x.getMessage());
        assertFalse(e.description().isBlank());
    }

    @Test
    void openingWithAnUnavailableEngineThrowsWithTheCauseAndCreatesNothing() {
        Path p = dir.resolve("f");
        String cause = Engine.IO_URING.unavailabilityCause().orElseThrow();
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> PositionalFile.open(p, Engine.IO_URING, CREATE, WRITE).close());
        assertTrue(e.getMessage().contains(cause), e.getMessage());
        assertFalse(Files.exists(p));
    }

    @Test
    void bestIsChannelWhereIoUringIsMissing() {
        assertEquals("sluice.engine", Engine.PROPERTY);
        assertEquals(Engine.CHANNEL, Engine.best());
        System.setProperty(Engine.PROPERTY, "   ");
        assertEquals(Engine.CHANNEL, Engine.best(), "a blank property is no choice");
    }

    @ParameterizedTest
    @CsvSource({"mmap, MMAP", "Classic, CLASSIC", "CHANNEL, CHANNEL", "' mmap', MMAP"})
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
    void bestRejectsABadOrUnavailableChoice() {
        System.setProperty(Engine.PROPERTY, "turbo");
        assertThrows(IllegalArgumentException.class, Engine::best);
        System.setProperty(Engine.PROPERTY, "io_uring");
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, Engine::best);
        assertTrue(e.getMessage().contains(Engine.IO_URING.unavailabilityCause().orElseThrow()), e.getMessage());
    }

    @Test
    void openRejectsNullArguments() {
        Path p = dir.resolve("f");
        assertThrows(NullPointerException.class, () -> PositionalFile.open(null, Engine.CHANNEL));
        assertThrows(NullPointerException.class, () -> PositionalFile.open(p, (Engine) null));
    }
}
