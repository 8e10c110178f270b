package io.sluice;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * File content where the byte at offset {@code i} is a function of {@code i} alone, so any read anywhere can be
 * checked without keeping a copy. The function mixes all 64 bits, so a position cut to 32 bits reads wrong bytes.
 */
final class Pattern {
    private Pattern() {
    }

    static byte at(long offset) {
        long x = (offset + 0x632BE59BD9B4E019L) * 0x9E3779B97F4A7C15L;
        return (byte) (x >>> 56 ^ x >>> 29);
    }

    /** {@code length} pattern bytes starting at file offset {@code offset}. */
    static byte[] bytes(long offset, int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = at(offset + i);
        }
        return b;
    }

    /** Writes {@code [from, from + length)} of the pattern into {@code path}, creating it if needed. */
    static Path write(Path path, long from, long length) {
        try (FileChannel c = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
            long done = 0;
            while (done < length) {
                int n = (int) Math.min(length - done, chunk.capacity());
                chunk.clear();
                for (int i = 0; i < n; i++) {
                    chunk.put(at(from + done + i));
                }
                chunk.flip();
                while (chunk.hasRemaining()) {
                    done += c.write(chunk, from + done);
                }
            }
            return path;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A new file holding the first {@code size} pattern bytes. */
    static Path file(Path path, long size) {
        return write(path, 0, size);
    }

    /**
     * The index of the first byte in {@code actual[offset, offset + length)} that differs from the pattern at
     * {@code position}, or -1 when all match.
     */
    static int mismatch(byte[] actual, int offset, int length, long position) {
        for (int i = 0; i < length; i++) {
            if (actual[offset + i] != at(position + i)) {
                return i;
            }
        }
        return -1;
    }
}
