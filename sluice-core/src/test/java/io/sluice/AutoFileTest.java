package io.sluice;

/** The contract on the AUTO engine, with the device's own chooser (calibrated, cached or pinned as in use). */
class AutoFileTest extends PositionalFileContract {
    @Override
    Engine engine() {
        return Engine.AUTO;
    }
}
