package io.sluice.bench.jruby;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.jruby.RubyString;
import org.jruby.util.ByteList;

/**
 * Seed 000's {@code MmapFile}, a plain Java class called through JRuby's Java integration, with its write strategies
 * as separate methods (no overload for JRuby to choose between on each call). {@code sluice bench jruby} only.
 */
public final class SeedMmapFile {
    private final SeedMapping mapping;

    /**
     * Maps {@code size} bytes of {@code path} from 0, as the seed's constructor; {@code truncate} false keeps the
     * file (the cached-file runs).
     */
    public SeedMmapFile(String path, boolean truncate, long size) throws IOException {
        this.mapping = new SeedMapping(path, truncate, size);
    }

    /** The seed's {@code seek(pos)}: {@code size} bytes mapped again from {@code pos}, written from there. */
    public void seek(long pos) throws IOException {
        mapping.seek(pos);
    }

    /**
     * Automatic conversion: called with a Ruby String, JRuby hands over a {@code java.lang.String} it decoded from
     * the String's bytes, and its bytes are encoded again here. (JRuby 10 refuses a Ruby String for a
     * {@code byte[]} parameter, so this {@code String} parameter is how a plain Java method takes one.)
     */
    public void writeString(String data) {
        byte[] b = data.getBytes(StandardCharsets.UTF_8);
        mapping.put(b, 0, b.length);
    }

    /** Unboxed, safe: the RubyString itself, its bytes copied out of the ByteList first. */
    public void writeSafe(RubyString data) {
        byte[] b = data.getByteList().bytes();
        mapping.put(b, 0, b.length);
    }

    /** Unboxed, unsafe: the ByteList's own array, from its begin for its realSize. */
    public void writeUnsafe(RubyString data) {
        ByteList b = data.getByteList();
        mapping.put(b.unsafeBytes(), b.begin(), b.realSize());
    }

    /** Unmaps, cuts the file to the bytes written, closes. */
    public void close() throws IOException {
        mapping.close();
    }
}
