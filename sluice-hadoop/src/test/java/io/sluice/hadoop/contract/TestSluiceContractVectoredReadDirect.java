package io.sluice.hadoop.contract;

import io.sluice.hadoop.SluiceLocalFileSystem;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractVectoredReadTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/**
 * Hadoop's vectored-read contract suite with O_DIRECT vectored reads ({@value SluiceLocalFileSystem#DIRECT}=true):
 * the block-aligned reads into the stream's own memory and the copies out of it. Needs a file system under
 * {@code target/} that accepts O_DIRECT (ext4, xfs, btrfs; not tmpfs).
 */
public class TestSluiceContractVectoredReadDirect extends AbstractContractVectoredReadTest {
    /** The suite's parameter: the kind of buffer its allocator hands out. */
    public TestSluiceContractVectoredReadDirect(String bufferType) {
        super(bufferType);
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        conf.setBoolean(SluiceLocalFileSystem.DIRECT, true);
        return new SluiceContract(conf);
    }
}
