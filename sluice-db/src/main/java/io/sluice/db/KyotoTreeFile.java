package io.sluice.db;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Reads the records of a Kyoto Cabinet TreeDB file ({@code .kct}), read-only, in the tree's order.
 *
 * <p>A TreeDB file is a HashDB file whose records are the B+ tree's pages: a 64-byte header (magic, type, the
 * alignment power, the free block pool power, the options, the bucket count, flags, the record count and the used
 * size, all numbers big-endian), the free block pool, the bucket array, then the records, each starting at a multiple
 * of the alignment. A record is a two-byte padding size (its first byte replaced by {@code 0xCC} when the size is
 * below 256), one or two child offsets of the hash chains (4 bytes each with option {@code s}, else 6; one with
 * option {@code l}), the key and value sizes as base-128 numbers, the key, the value and the padding (which starts
 * with {@code 0xEE}); a freed region is marked {@code 0xDD 0xDD}, its size, {@code 0xEE 0xEE}. The records are read in
 * file order, not through the buckets, so the hash function is not needed. The tree's records are: {@code "@"}, its
 * 80-byte meta record (comparator, ids of the root and of the first and last leaf, counts); {@code "L"} plus a leaf's
 * id in upper-case hex, a leaf page (the ids of the previous and next leaf, then key size, value size, key and value
 * of each of its records); {@code "I"} plus an id, an inner page, which is not needed to read everything in order.
 * Walking the leaves from the first by their next ids gives every record in the comparator's order.
 *
 * <p>Everything read is checked against what the header and the meta record say (sizes, counts, the chain of leaves,
 * keys strictly ascending), so that a damaged or cut-short file fails with an {@link IOException} naming the file and
 * the offset, never reads as other records.
 */
final class KyotoTreeFile {
    private static final int HEAD_SIZE = 64;
    private static final int TYPE_TREE = 0x31;
    private static final int OPT_SMALL = 1;
    private static final int OPT_LINEAR = 1 << 1;
    private static final int OPT_COMPRESS = 1 << 2;
    private static final int FLAG_OPEN = 1;
    private static final int FLAG_FATAL = 1 << 1;
    private static final int REC_MAGIC = 0xCC;
    private static final int PAD_MAGIC = 0xEE;
    private static final int FREE_MAGIC = 0xDD;
    private static final int FREE_POOL_WIDTH = 6;
    private static final int META_SIZE = 80;
    private static final int COMP_LEXICAL = 0x10;
    /** Ends TreeDB's meta record. */
    private static final byte[] META_TAIL = {0x0a, 'B', 'o', 'o', 'f', 'y', '!', 0x0a};

    private final Path path;
    private final FileChannel ch;
    /** The end of the used region, from the header. */
    private long end;
    private final ByteBuffer window = ByteBuffer.allocate(1 << 16);
    /** The file offset of {@link #window}'s first byte, or -1 when it holds nothing. */
    private long windowStart = -1;

    private KyotoTreeFile(Path path, FileChannel ch) {
        this.path = path;
        this.ch = ch;
    }

    /**
     * Hands every record of the TreeDB file {@code path} to {@code sink} as (key, value), in ascending unsigned byte
     * order (TreeDB's default comparator); the arrays are new and the sink may keep them.
     *
     * @return the number of records
     * @throws IOException if the file cannot be read, is another kind of Kyoto Cabinet database, uses an option this
     *     reader cannot follow (compression, a comparator other than the default), was not closed by Kyoto Cabinet, or
     *     is damaged or cut short; the message names the file, the offset where it applies, and the reason
     */
    static long read(Path path, BiConsumer<byte[], byte[]> sink) throws IOException {
        Path wal = path.resolveSibling(path.getFileName() + ".wal");
        if (Files.isRegularFile(wal) && Files.size(wal) > 0) {
            // A writer that died left its write-ahead log: Kyoto Cabinet would first undo the unfinished writes with it.
            throw new IOException("open(" + path + "): a TreeDB file with a write-ahead log left by a writer that did "
                    + "not finish (" + wal + "), so the file may hold half-made writes; open it once with Kyoto "
                    + "Cabinet (e.g. kctreemgr check) to recover it");
        }
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            return new KyotoTreeFile(path, ch).readAll(sink);
        }
    }

    private long readAll(BiConsumer<byte[], byte[]> sink) throws IOException {
        long fileSize = ch.size();
        if (fileSize < HEAD_SIZE) {
            throw damaged(0, "shorter (" + fileSize + " bytes) than Kyoto Cabinet's " + HEAD_SIZE + "-byte header");
        }
        end = HEAD_SIZE;
        byte[] head = bytes(0, HEAD_SIZE);
        int type = head[8] & 0xFF;
        int apow = head[9] & 0xFF;
        int fpow = head[10] & 0xFF;
        int opts = head[11] & 0xFF;
        long bnum = getLong(head, 16);
        int flags = head[24] & 0xFF;
        long count = getLong(head, 32);
        long used = getLong(head, 40);
        if (type != TYPE_TREE) {
            throw unsupported("a Kyoto Cabinet database of type 0x" + Integer.toHexString(type)
                    + (type == 0x30 ? " (HashDB, .kch)" : "") + ", not a TreeDB (.kct) file (type 0x31)");
        }
        if ((opts & OPT_COMPRESS) != 0) {
            throw unsupported("a TreeDB file made with option #opts=c (each page compressed, by Kyoto Cabinet's "
                    + "codec), which this reader does not decompress");
        }
        if ((flags & (FLAG_OPEN | FLAG_FATAL)) != 0) {
            throw unsupported("a TreeDB file that " + ((flags & FLAG_FATAL) != 0 ? "had a fatal error"
                    : "was not closed by its writer (still open, or the writer died)") + ", so its header and pages "
                    + "may disagree; open it once with Kyoto Cabinet (e.g. kctreemgr check) to repair it");
        }
        if (apow > 15 || fpow > 20 || bnum <= 0 || bnum > fileSize || count < 0) {
            throw damaged(8, "header out of range (alignment power " + apow + ", free block pool power " + fpow
                    + ", buckets " + bnum + ", records " + count + ")");
        }
        if (used > fileSize) {
            throw damaged(40, "the header says " + used + " bytes are used but the file has " + fileSize
                    + " (cut short?)");
        }
        int width = (opts & OPT_SMALL) != 0 ? 4 : 6;
        boolean linear = (opts & OPT_LINEAR) != 0;
        long align = 1L << apow;
        long records = HEAD_SIZE + (fpow > 0 ? FREE_POOL_WIDTH * (1L << fpow) + width * 2L + 2 : 0);
        records += width * bnum;
        if (records % align != 0) {
            records += align - records % align;
        }
        if (used < records) {
            throw damaged(40, "the header says " + used + " bytes are used, fewer than the " + records
                    + " before the first record");
        }
        end = used;

        // Pass 1: the HashDB records in file order, noting where each page is.
        byte[] meta = null;
        long metaOffset = -1;
        Map<Long, long[]> leaves = new HashMap<>();
        long seen = 0;
        int headerSize = 2 + (linear ? width : width * 2);
        long off = records;
        while (off < end) {
            if (off % align != 0) {
                throw damaged(off, "a record not at a multiple of the alignment " + align);
            }
            int b0 = u8(off);
            if (b0 == FREE_MAGIC) {
                if (u8(off + 1) != FREE_MAGIC || u8(off + 2 + width) != PAD_MAGIC
                        || u8(off + 3 + width) != PAD_MAGIC) {
                    throw damaged(off, "invalid free block marks");
                }
                long size = fixnum(off + 2, width) << apow;
                if (size < headerSize + 2 || off + size > end) {
                    throw damaged(off, "free block of invalid size " + size);
                }
                off += size;
                continue;
            }
            int padding;
            if (b0 == REC_MAGIC) {
                padding = u8(off + 1);
            } else if (b0 == 0 || b0 >= 0x80) {
                throw damaged(off, "neither a record nor a free block (first byte 0x" + Integer.toHexString(b0) + ")");
            } else {
                padding = b0 << 8 | u8(off + 1);
            }
            long p = off + headerSize;
            long[] ksiz = varnum(p);
            p += ksiz[1];
            long[] vsiz = varnum(p);
            p += vsiz[1];
            long body = p;
            long size = body - off + ksiz[0] + vsiz[0] + padding;
            if (ksiz[0] > Integer.MAX_VALUE || vsiz[0] > Integer.MAX_VALUE || off + size > end) {
                throw damaged(off, "record of key size " + ksiz[0] + " and value size " + vsiz[0]
                        + " runs past the used size " + end);
            }
            if (padding > 0 && u8(body + ksiz[0] + vsiz[0]) != PAD_MAGIC) {
                throw damaged(off, "record padding without its mark");
            }
            byte[] key = bytes(body, (int) ksiz[0]);
            long valueOffset = body + ksiz[0];
            if (key.length == 1 && key[0] == '@') {
                if (meta != null) {
                    throw damaged(off, "a second meta record (the first at " + metaOffset + ")");
                }
                meta = bytes(valueOffset, (int) vsiz[0]);
                metaOffset = off;
            } else if (key.length >= 2 && key[0] == 'L') {
                long id = hexId(key, off);
                if (leaves.put(id, new long[] {valueOffset, vsiz[0], off}) != null) {
                    throw damaged(off, "a second record of leaf page L" + Long.toHexString(id).toUpperCase());
                }
            } else if (!(key.length >= 2 && key[0] == 'I')) {
                throw damaged(off, "a record whose key is not one of a TreeDB's pages");
            }
            seen++;
            off += size;
        }
        if (seen != count) {
            throw damaged(32, "the header counts " + count + " records but " + seen + " were found");
        }
        if (meta == null) {
            throw damaged(records, "no meta record \"@\": not a TreeDB file, or damaged");
        }

        // The tree's meta record.
        if (meta.length != META_SIZE || !Arrays.equals(meta, META_SIZE - 8, META_SIZE, META_TAIL, 0, 8)) {
            throw damaged(metaOffset, "the meta record \"@\" is not TreeDB's (" + meta.length + " bytes)");
        }
        int comparator = meta[0] & 0xFF;
        if (comparator != COMP_LEXICAL) {
            throw unsupported("a TreeDB file ordered by " + switch (comparator) {
                case 0x11 -> "the decimal comparator (#rcomp=dec)";
                case 0x18 -> "the descending lexical comparator (#rcomp=lexdesc)";
                case 0x19 -> "the descending decimal comparator (#rcomp=decdesc)";
                case 0xFF -> "a comparator of its own program's (#rcomp=...)";
                default -> "an unknown comparator (0x" + Integer.toHexString(comparator) + ")";
            } + "; this reader follows the default, lexical order only");
        }
        long first = getLong(meta, 8 + 16);
        long last = getLong(meta, 8 + 24);
        long leafCount = getLong(meta, 8 + 32);
        long total = getLong(meta, 8 + 48);
        if (leafCount != leaves.size()) {
            throw damaged(metaOffset, "the meta record counts " + leafCount + " leaf pages but the file has "
                    + leaves.size());
        }

        // Pass 2: the leaves in order.
        long id = first;
        long previous = 0;
        long n = 0;
        long walked = 0;
        byte[] lastKey = null;
        while (id != 0) {
            long[] leaf = leaves.get(id);
            if (leaf == null) {
                throw damaged(previous == 0 ? metaOffset : leaves.get(previous)[2], "leaf page L"
                        + Long.toHexString(id).toUpperCase() + ", named " + (previous == 0 ? "first" : "next")
                        + " here, is not in the file");
            }
            if (++walked > leaves.size()) {
                throw damaged(leaf[2], "the chain of leaf pages loops");
            }
            long p = leaf[0];
            long pageEnd = leaf[0] + leaf[1];
            long[] prev = varnum(p, pageEnd, leaf[2]);
            p += prev[1];
            long[] next = varnum(p, pageEnd, leaf[2]);
            p += next[1];
            if (prev[0] != previous) {
                throw damaged(leaf[2], "leaf page L" + Long.toHexString(id).toUpperCase() + " names "
                        + prev[0] + " as its previous page, not " + previous);
            }
            while (p < pageEnd) {
                long[] ks = varnum(p, pageEnd, leaf[2]);
                p += ks[1];
                long[] vs = varnum(p, pageEnd, leaf[2]);
                p += vs[1];
                if (ks[0] > pageEnd - p || vs[0] > pageEnd - p - ks[0]) {
                    throw damaged(leaf[2], "a record in leaf page L" + Long.toHexString(id).toUpperCase()
                            + " runs past the page's end");
                }
                byte[] key = bytes(p, (int) ks[0]);
                p += ks[0];
                byte[] value = bytes(p, (int) vs[0]);
                p += vs[0];
                if (lastKey != null && Arrays.compareUnsigned(lastKey, key) >= 0) {
                    throw damaged(leaf[2], "keys out of order in leaf page L" + Long.toHexString(id).toUpperCase());
                }
                lastKey = key;
                sink.accept(key, value);
                n++;
            }
            previous = id;
            id = next[0];
        }
        if (previous != last || walked != leaves.size()) {
            throw damaged(metaOffset, "the chain of leaf pages from L" + Long.toHexString(first).toUpperCase()
                    + " reaches " + walked + " of " + leaves.size() + " pages and ends at "
                    + Long.toHexString(previous).toUpperCase() + ", not at the last page "
                    + Long.toHexString(last).toUpperCase());
        }
        if (n != total) {
            throw damaged(metaOffset, "the meta record counts " + total + " records but the leaf pages hold " + n);
        }
        return n;
    }

    /** A leaf id from its key, {@code "L"} and upper-case hex without leading zeros. */
    private long hexId(byte[] key, long off) throws IOException {
        if (key.length > 17 || key[1] == '0') {
            throw damaged(off, "invalid leaf page key");
        }
        long id = 0;
        for (int i = 1; i < key.length; i++) {
            int c = key[i];
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (d < 0) {
                throw damaged(off, "invalid leaf page key");
            }
            id = id << 4 | d;
        }
        return id;
    }

    private IOException damaged(long off, String why) {
        return new DamagedStoreException("read(" + path + ") at offset " + off + ": damaged Kyoto Cabinet TreeDB file: " + why);
    }

    private IOException unsupported(String what) {
        return new DamagedStoreException("open(" + path + "): " + what);
    }

    private static long getLong(byte[] b, int at) {
        return ByteBuffer.wrap(b, at, 8).getLong();
    }

    /** A base-128 number (high groups first, the high bit set on all bytes but the last) at {@code off}. */
    private long[] varnum(long off) throws IOException {
        return varnum(off, end, off);
    }

    /** {@link #varnum(long)} within {@code limit}; {@code record} is the offset named if it fails. */
    private long[] varnum(long off, long limit, long record) throws IOException {
        long v = 0;
        for (int i = 0; i < 10; i++) {
            if (off + i >= limit) {
                throw damaged(record, "a size runs past the end of its region at " + limit);
            }
            int c = u8(off + i);
            v = v << 7 | (c & 0x7F);
            if (c < 0x80) {
                if (v < 0) {
                    break;
                }
                return new long[] {v, i + 1};
            }
        }
        throw damaged(record, "an invalid size at offset " + off);
    }

    private long fixnum(long off, int width) throws IOException {
        long v = 0;
        for (int i = 0; i < width; i++) {
            v = v << 8 | u8(off + i);
        }
        return v;
    }

    private int u8(long off) throws IOException {
        if (off >= end) {
            throw damaged(off, "past the used size " + end);
        }
        if (windowStart < 0 || off < windowStart || off >= windowStart + window.limit()) {
            window.clear();
            fill(window, off);
            window.flip();
            windowStart = off;
        }
        return window.get((int) (off - windowStart)) & 0xFF;
    }

    /** {@code len} bytes at {@code off}, all within the used size. */
    private byte[] bytes(long off, int len) throws IOException {
        if (off + len > end) {
            throw damaged(off, len + " bytes run past the used size " + end);
        }
        byte[] b = new byte[len];
        if (windowStart >= 0 && off >= windowStart && off + len <= windowStart + window.limit()) {
            window.get((int) (off - windowStart), b);
            return b;
        }
        ByteBuffer bb = ByteBuffer.wrap(b);
        while (bb.hasRemaining()) {
            if (ch.read(bb, off + bb.position()) < 0) {
                throw new EOFException("read(" + path + ") at offset " + (off + bb.position())
                        + ": end of file (the file shrank while being read?)");
            }
        }
        return b;
    }

    /** Fills {@code buf} from {@code off} up to the used size; fewer bytes only at the end of the used region. */
    private void fill(ByteBuffer buf, long off) throws IOException {
        buf.limit((int) Math.min(buf.capacity(), end - off));
        while (buf.hasRemaining()) {
            if (ch.read(buf, off + buf.position()) < 0) {
                throw new EOFException("read(" + path + ") at offset " + (off + buf.position())
                        + ": end of file (the file shrank while being read?)");
            }
        }
    }
}
