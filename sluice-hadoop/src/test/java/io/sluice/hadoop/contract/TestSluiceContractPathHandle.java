package io.sluice.hadoop.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractPathHandleTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's PathHandle contract suite against SluiceLocalFileSystem. */
public class TestSluiceContractPathHandle extends AbstractContractPathHandleTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return new SluiceContract(conf);
    }
}
