/**
 * Sluice behind the JDK's own types: {@link io.sluice.nio.SluiceChannels} for a {@link java.nio.channels.FileChannel}
 * over any engine, {@link io.sluice.nio.SluiceFileSystemProvider} for whole programs.
 */
package io.sluice.nio;
