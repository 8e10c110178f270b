package io.sluice.db;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;

/**
 * MVStore's type for keys and values: byte arrays ordered as unsigned bytes, shorter first on a common prefix (the
 * order of Kyoto Cabinet's tree database and of {@link Arrays#compareUnsigned(byte[], byte[])}). Stored as a
 * variable-length size and the bytes.
 */
final class UnsignedBytes extends BasicDataType<byte[]> {
    static final UnsignedBytes INSTANCE = new UnsignedBytes();

    private UnsignedBytes() {
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    @Override
    public int getMemory(byte[] bytes) {
        // An estimate of the array's heap footprint, which MVStore uses to decide when pages are big enough to save.
        return 24 + bytes.length;
    }

    @Override
    public void write(WriteBuffer buff, byte[] bytes) {
        buff.putVarInt(bytes.length).put(bytes);
    }

    @Override
    public byte[] read(ByteBuffer buff) {
        byte[] bytes = new byte[DataUtils.readVarInt(buff)];
        buff.get(bytes);
        return bytes;
    }

    @Override
    public byte[][] createStorage(int size) {
        return new byte[size][];
    }

    // BasicDataType's equals compares classes; one instance suffices.
    @Override
    public boolean equals(Object o) {
        return o == this;
    }

    @Override
    public int hashCode() {
        return UnsignedBytes.class.hashCode();
    }
}
