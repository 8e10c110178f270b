package io.sluice;

import java.nio.file.Path;

/** Run in a child JVM by {@link EngineTest}: prints what this JVM's engine probe decided. */
public final class EngineProbeMain {
    private EngineProbeMain() {
    }

    public static void main(String[] args) {
        System.out.println("available=" + Engine.IO_URING.isAvailable());
        System.out.println("cause=" + Engine.IO_URING.unavailabilityCause().orElse(""));
        System.out.println("best=" + Engine.best());
        try {
            PositionalFile.open(Path.of(args[0]), Engine.IO_URING, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.WRITE).close();
            System.out.println("open=succeeded");
        } catch (Exception e) {
            System.out.println("open=" + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }
}
