/**
 * Sluice: fast file I/O for the JVM. Positional reads and writes over several I/O engines ({@link io.sluice}),
 * chunked sequential reading ({@link io.sluice.chunks}) and concurrent zip reading ({@link io.sluice.zip}).
 *
 * <p>Native access (for {@code madvise}, {@code fadvise} and io_uring) is needed by this module alone: grant it with
 * {@code --enable-native-access=io.sluice.core} on the module path, or {@code --enable-native-access=ALL-UNNAMED}
 * on the class path. Without it every engine but io_uring still works, and
 * {@link io.sluice.Engine#unavailabilityCause()} says why the others are off.
 */
module io.sluice.core {
    // The JFR events of reads and writes (io.sluice.FileRead, FileWrite, IoCounters), used only where jdk.jfr is
    // resolved (on the class path always; on the module path when the application or -XX:StartFlightRecording asks for
    // it); without it Sluice records nothing and loads none of it.
    requires static jdk.jfr;
    exports io.sluice;
    exports io.sluice.chunks;
    exports io.sluice.zip;
    provides java.nio.file.spi.FileSystemProvider with io.sluice.zip.SluiceZipFileSystemProvider;
    // io.sluice.internal and io.sluice.internal.uring (system calls, the ring) stay unexported: not API.
}
