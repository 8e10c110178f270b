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
        Path auto = Path.of(args[0] + ".auto");
        try (PositionalFile f = PositionalFile.open(auto, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.WRITE, java.nio.file.StandardOpenOption.DELETE_ON_CLOSE);
             java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            f.writeFully(new byte[] {1, 2, 3}, 0, 3, 0);
            int read = f.read(new byte[3], 0, 3, 0);
            int async = f.readAsync(arena.allocate(3), 0).join();
            IoBatch batch = IoBatch.create(1);
            batch.read(f, arena.allocate(3), 0);
            batch.submit();
            System.out.println("auto=" + f.engine() + " read " + read + " async " + async + " batch " + batch.result(0));
        } catch (Exception e) {
            System.out.println("auto=" + e);
        }
        try {
            PositionalFile.open(Path.of(args[0]), Engine.IO_URING, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.WRITE).close();
            System.out.println("open=succeeded");
        } catch (Exception e) {
            System.out.println("open=" + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }
}
