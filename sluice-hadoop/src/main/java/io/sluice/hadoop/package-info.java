/**
 * Sluice under Hadoop's {@code FileSystem} API: {@link io.sluice.hadoop.SluiceLocalFileSystem}, the local file system
 * with its reads (positional, byte-buffer and vectored) through a {@link io.sluice.PositionalFile}, for Hadoop, Spark
 * and Parquet readers on each node. Hadoop itself is a provided dependency: the application brings its own.
 */
package io.sluice.hadoop;
