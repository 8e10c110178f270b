package io.sluice.nio.lucene;

import com.carrotsearch.randomizedtesting.annotations.ThreadLeakFilters;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.tests.store.BaseDirectoryTestCase;
import org.junit.BeforeClass;

/**
 * Lucene's directory test suite for {@code MMapDirectory}, run by the surefire executions {@code lucene-<engine>} with
 * Sluice's provider as the JVM's default: Lucene's mock file systems (leak and handle checks, the virus checker that
 * refuses deletes) wrap Sluice's, and every file the directory opens is Sluice's channel on that engine.
 */
@ThreadLeakFilters(defaultFilters = true, filters = SluiceThreads.class)
public class MMapDirectoryLuceneTest extends BaseDirectoryTestCase {
    @BeforeClass
    public static void onSluice() {
        SluiceDefault.check();
    }

    public void testFilesAreSluices() throws IOException {
        Path path = createTempDir();
        try (Directory dir = getDirectory(path)) {
            SluiceDefault.checkBelowLucenesFileSystems(dir, path);
        }
    }

    @Override
    protected Directory getDirectory(Path path) throws IOException {
        return new MMapDirectory(path);
    }
}
