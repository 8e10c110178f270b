package io.sluice;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Run in a child JVM by {@link MappedWriterFootprintTest}: a MappedWriter's first life in a JVM (open from a position,
 * as the JRuby binding opens, 1 KiB writes past the first 2 MiB made writable ahead, close), then the file's length.
 */
public final class MappedWriterFootprintMain {
    private MappedWriterFootprintMain() {
    }

    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        byte[] chunk = new byte[1024];
        java.util.Arrays.fill(chunk, (byte) 'x');
        try (MappedWriter w = MappedWriter.open(path, 0, 8L << 20, StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            for (int i = 0; i < 5000; i++) {
                w.write(chunk);
            }
        }
        System.out.println("length=" + Files.size(path));
    }
}
