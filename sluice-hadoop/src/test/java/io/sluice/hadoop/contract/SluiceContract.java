package io.sluice.hadoop.contract;

import io.sluice.hadoop.SluiceLocalFileSystem;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.contract.localfs.LocalFSContract;

/**
 * The contract of {@link SluiceLocalFileSystem} for Hadoop's {@code AbstractContract*Test} suites: Hadoop's local
 * contract (test directory under {@code target/test/data}, the {@code file} scheme, case sensitivity and permissions
 * from the operating system) with the file system replaced and the options of {@code contract/sluice.xml}.
 */
public class SluiceContract extends LocalFSContract {
    /** The contract options, a test resource of this module. */
    public static final String CONTRACT_XML = "contract/sluice.xml";

    /** A contract over a fresh, uncached {@link SluiceLocalFileSystem} initialized with {@code conf}. */
    public SluiceContract(Configuration conf) {
        super(conf);
    }

    @Override
    protected String getContractXml() {
        return CONTRACT_XML;
    }

    @Override
    protected FileSystem getLocalFS() throws IOException {
        SluiceLocalFileSystem fs = new SluiceLocalFileSystem();
        fs.initialize(URI.create("file:///"), getConf());
        return fs;
    }
}
