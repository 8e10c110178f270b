package io.sluice;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeAll;

/** The contract on the IO_URING engine; ring-specific cases are in {@link UringEngineTest}. */
class UringFileTest extends PositionalFileContract {
    @BeforeAll
    static void uringIsAvailableHere() {
        // Not a skip: this machine is expected to run io_uring, so its absence is a failure to look into.
        assertTrue(Engine.IO_URING.isAvailable(), () -> "IO_URING unavailable: " + Engine.IO_URING.unavailabilityCause());
    }

    @Override
    Engine engine() {
        return Engine.IO_URING;
    }
}
