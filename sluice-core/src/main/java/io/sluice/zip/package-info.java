/**
 * Reading zip and jar archives from many threads at once: {@link io.sluice.zip.ConcurrentZipFile}, the
 * {@link java.util.zip.ZipFile} API on a memory-mapped archive with no lock shared between readers, and safe
 * extraction with {@link io.sluice.zip.ExtractLimits}. Every damaged archive or entry is a
 * {@link java.util.zip.ZipException} naming the archive, the entry and the offset; so is an archive cut short by
 * another process while it is read, which never crashes the JVM.
 */
package io.sluice.zip;
