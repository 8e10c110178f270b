package io.sluice.zip;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Writes zip archives byte by byte, with the features {@code ZipOutputStream} will not produce on demand: Zip64
 * records and extra fields for small entries, names without the UTF-8 flag, a prefix before the archive, Unix modes.
 * {@link Built} says where each record landed, so tests can damage exactly the field they mean to.
 */
final class ZipBuilder {
    static final int STORED = 0;
    static final int DEFLATED = 8;

    private record Item(byte[] name, byte[] data, int method, boolean utf8, boolean descriptor, int unixMode,
                        byte[] comment, byte[] cenExtra) {
    }

    /** The archive and where its records are (positions in {@link #bytes}, prefix included). */
    record Built(byte[] bytes, int prefix, long[] localHeaders, long[] dataStarts, long[] cenHeaders, long cenStart,
                 long endRecord) {
        ByteBuffer le() {
            return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        }

        Built putShort(long pos, int v) {
            le().putShort((int) pos, (short) v);
            return this;
        }

        Built putInt(long pos, long v) {
            le().putInt((int) pos, (int) v);
            return this;
        }

        Built putLong(long pos, long v) {
            le().putLong((int) pos, v);
            return this;
        }
    }

    private final List<Item> items = new ArrayList<>();
    private byte[] prefix = new byte[0];
    private byte[] comment = new byte[0];
    private boolean zip64;

    ZipBuilder prefix(byte[] prefix) {
        this.prefix = prefix;
        return this;
    }

    ZipBuilder comment(String comment) {
        this.comment = comment.getBytes(StandardCharsets.UTF_8);
        return this;
    }

    /** Writes Zip64 end records and a Zip64 extra field for every entry, as for a huge archive. */
    ZipBuilder zip64() {
        this.zip64 = true;
        return this;
    }

    ZipBuilder add(String name, byte[] data, int method) {
        return add(name.getBytes(StandardCharsets.UTF_8), true, data, method, false, 0);
    }

    ZipBuilder addWithDescriptor(String name, byte[] data, int method) {
        return add(name.getBytes(StandardCharsets.UTF_8), true, data, method, true, 0);
    }

    /** An entry whose name is given as raw bytes; {@code utf8} sets flag bit 11. */
    ZipBuilder addRaw(byte[] name, boolean utf8, byte[] data, int method) {
        return add(name, utf8, data, method, false, 0);
    }

    /** An entry made on Unix with the given mode (0120777 for a symbolic link). */
    ZipBuilder addUnix(String name, byte[] data, int unixMode) {
        return add(name.getBytes(StandardCharsets.UTF_8), true, data, STORED, false, unixMode);
    }

    ZipBuilder addWithComment(String name, byte[] data, String comment) {
        items.add(new Item(name.getBytes(StandardCharsets.UTF_8), data, STORED, true, false, 0,
                comment.getBytes(StandardCharsets.UTF_8), new byte[0]));
        return this;
    }

    /** A stored entry with a raw name and extra fields {@code cenExtra} in its central directory header. */
    ZipBuilder addWithExtra(byte[] name, boolean utf8, byte[] data, byte[] cenExtra) {
        items.add(new Item(name, data, STORED, utf8, false, 0, new byte[0], cenExtra));
        return this;
    }

    /** An Info-ZIP Unicode Path extra field (0x7075) for the raw name {@code raw}: version, CRC-32, UTF-8 name. */
    static byte[] unicodePath(int version, byte[] raw, String name) {
        byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(9 + utf8.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort((short) 0x7075).putShort((short) (5 + utf8.length)).put((byte) version)
                .putInt((int) crc(raw)).put(utf8);
        return b.array();
    }

    private ZipBuilder add(byte[] name, boolean utf8, byte[] data, int method, boolean descriptor, int mode) {
        items.add(new Item(name, data, method, utf8, descriptor, mode, new byte[0], new byte[0]));
        return this;
    }

    static byte[] deflate(byte[] data) {
        Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        d.setInput(data);
        d.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        while (!d.finished()) {
            out.write(buf, 0, d.deflate(buf));
        }
        d.end();
        return out.toByteArray();
    }

    static long crc(byte[] data) {
        CRC32 c = new CRC32();
        c.update(data);
        return c.getValue();
    }

    Built build() {
        Out out = new Out();
        out.bytes(prefix);
        int n = items.size();
        long[] locals = new long[n];
        long[] dataStarts = new long[n];
        long[] cens = new long[n];
        long[] csizes = new long[n];
        for (int i = 0; i < n; i++) {
            Item it = items.get(i);
            byte[] stored = it.method == DEFLATED ? deflate(it.data) : it.data;
            csizes[i] = stored.length;
            locals[i] = out.size();
            int flags = (it.utf8 ? 1 << 11 : 0) | (it.descriptor ? 1 << 3 : 0);
            out.i32(0x04034b50).i16(zip64 ? 45 : 20).i16(flags).i16(it.method).i32(0x5A210000);
            if (it.descriptor) {
                out.i32(0).i32(0).i32(0);
            } else if (zip64) {
                out.i32(crc(it.data)).i32(0xFFFFFFFFL).i32(0xFFFFFFFFL);
            } else {
                out.i32(crc(it.data)).i32(stored.length).i32(it.data.length);
            }
            out.i16(it.name.length).i16(zip64 && !it.descriptor ? 20 : 0).bytes(it.name);
            if (zip64 && !it.descriptor) {
                out.i16(1).i16(16).i64(it.data.length).i64(stored.length);
            }
            dataStarts[i] = out.size();
            out.bytes(stored);
            if (it.descriptor) {
                out.i32(0x08074b50).i32(crc(it.data));
                if (zip64) {
                    out.i64(stored.length).i64(it.data.length);
                } else {
                    out.i32(stored.length).i32(it.data.length);
                }
            }
        }
        long cenStart = out.size();
        for (int i = 0; i < n; i++) {
            Item it = items.get(i);
            cens[i] = out.size();
            int flags = (it.utf8 ? 1 << 11 : 0) | (it.descriptor ? 1 << 3 : 0);
            int madeBy = it.unixMode != 0 ? (3 << 8) | 20 : 20;
            out.i32(0x02014b50).i16(madeBy).i16(zip64 ? 45 : 20).i16(flags).i16(it.method).i32(0x5A210000)
                    .i32(crc(it.data));
            long offset = locals[i] - prefix.length;
            if (zip64) {
                out.i32(0xFFFFFFFFL).i32(0xFFFFFFFFL);
            } else {
                out.i32(csizes[i]).i32(it.data.length);
            }
            out.i16(it.name.length).i16((zip64 ? 28 : 0) + it.cenExtra.length).i16(it.comment.length).i16(0).i16(0)
                    .i32((long) it.unixMode << 16).i32(zip64 ? 0xFFFFFFFFL : offset).bytes(it.name);
            if (zip64) {
                out.i16(1).i16(24).i64(it.data.length).i64(csizes[i]).i64(offset);
            }
            out.bytes(it.cenExtra);
            out.bytes(it.comment);
        }
        long cenSize = out.size() - cenStart;
        if (zip64) {
            long z64 = out.size();
            out.i32(0x06064b50).i64(44).i16(45).i16(45).i32(0).i32(0).i64(n).i64(n).i64(cenSize)
                    .i64(cenStart - prefix.length);
            out.i32(0x07064b50).i32(0).i64(z64 - prefix.length).i32(1);
        }
        long end = out.size();
        out.i32(0x06054b50).i16(0).i16(0);
        if (zip64) {
            out.i16(0xFFFF).i16(0xFFFF).i32(0xFFFFFFFFL).i32(0xFFFFFFFFL);
        } else {
            out.i16(n).i16(n).i32(cenSize).i32(cenStart - prefix.length);
        }
        out.i16(comment.length).bytes(comment);
        return new Built(out.toByteArray(), prefix.length, locals, dataStarts, cens, cenStart, end);
    }

    /** Little-endian output. */
    private static final class Out extends ByteArrayOutputStream {
        Out i16(int v) {
            write(v);
            write(v >>> 8);
            return this;
        }

        Out i32(long v) {
            return i16((int) v & 0xFFFF).i16((int) (v >>> 16) & 0xFFFF);
        }

        Out i64(long v) {
            return i32(v & 0xFFFFFFFFL).i32(v >>> 32);
        }

        Out bytes(byte[] b) {
            write(b, 0, b.length);
            return this;
        }
    }
}
