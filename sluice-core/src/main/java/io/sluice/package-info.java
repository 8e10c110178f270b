/**
 * Sluice: fast file I/O for the JVM.
 *
 * <p>{@link io.sluice.PositionalFile} is the one file abstraction: positional reads and writes, safe from any number
 * of threads, done by an {@link io.sluice.Engine} chosen at open. {@link io.sluice.IoBatch} hands many requests over
 * at once.
 *
 * <p>Beside it: {@link io.sluice.MappedWriter} appends through memory-mapped windows, {@link io.sluice.ParallelScan}
 * reads a file of records with every core, and {@link io.sluice.BigFiles} writes and reads whole big files with
 * every core.
 *
 * <p>The jar is the module {@code io.sluice.core}. Native access (for {@code madvise} and io_uring) is needed by that
 * module alone: {@code --enable-native-access=io.sluice.core} on the module path, or {@code ALL-UNNAMED} on the class
 * path. Without it, Sluice skips what needs it and says so in {@link io.sluice.Engine#unavailabilityCause()}.
 * Package {@code io.sluice.internal} is not API.
 */
package io.sluice;
