/**
 * Sluice behind the JDK's own types, so that unchanged code gains: {@link io.sluice.nio.SluiceChannels} makes a
 * {@link java.nio.channels.FileChannel} of any {@link io.sluice.PositionalFile}, and
 * {@link io.sluice.nio.SluiceFileSystemProvider} hands out such channels, and streams over them, for the regular
 * files of a file system, installed as the JVM's default provider or used through its factory.
 */
module io.sluice.nio {
    // PositionalFile and Engine appear in this module's API.
    requires transitive io.sluice.core;

    exports io.sluice.nio;
}
