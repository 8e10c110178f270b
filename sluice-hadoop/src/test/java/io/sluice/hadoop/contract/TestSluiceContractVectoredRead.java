package io.sluice.hadoop.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractVectoredReadTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/**
 * Hadoop's vectored-read contract suite against SluiceLocalFileSystem's batched reads, once per buffer kind the suite
 * offers (heap and direct buffers from the caller's allocator).
 */
public class TestSluiceContractVectoredRead extends AbstractContractVectoredReadTest {
    /** The suite's parameter: the kind of buffer its allocator hands out. */
    public TestSluiceContractVectoredRead(String bufferType) {
        super(bufferType);
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return new SluiceContract(conf);
    }
}
