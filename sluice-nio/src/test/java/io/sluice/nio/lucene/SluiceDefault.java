package io.sluice.nio.lucene;

import static org.apache.lucene.tests.util.LuceneTestCase.assumeTrue;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.sluice.Engine;
import io.sluice.nio.SluiceFileSystemProvider;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.tests.mockfile.FilterPath;

/** The Lucene suites run only where Sluice's provider is the default, so that they never pass on the platform's. */
final class SluiceDefault {
    private SluiceDefault() {
    }

    static void check() {
        String name = System.getProperty(SluiceFileSystemProvider.ENGINE_PROPERTY);
        // The module's ordinary test run (JUnit 5) skips these; the executions lucene-<engine> name the engine.
        assumeTrue("run by the surefire executions lucene-<engine>", name != null);
        assertEquals("the executions lucene-<engine> make Sluice's provider the default",
                SluiceFileSystemProvider.class, FileSystems.getDefault().provider().getClass());
        Engine engine = Engine.parse(name);
        assumeTrue("engine " + engine + " is not available here: " + engine.unavailabilityCause().orElse(""),
                engine.isAvailable());
    }

    /**
     * Under Lucene's mock file systems, the path is Sluice's, and a file the directory wrote opens as Sluice's channel
     * on the execution's engine: the suite did not pass on the platform's channels.
     */
    static void checkBelowLucenesFileSystems(Directory dir, Path dirPath) throws IOException {
        Path inner = FilterPath.unwrap(dirPath);
        assertEquals("io.sluice.nio.SluicePath", inner.getClass().getName());
        try (IndexOutput out = dir.createOutput("probe", IOContext.DEFAULT)) {
            out.writeInt(42);
        }
        try (FileChannel ch = FileChannel.open(inner.resolve("probe"))) {
            assertEquals("io.sluice.nio.SluiceFileChannel", ch.getClass().getName());
            String engine = Engine.parse(System.getProperty(SluiceFileSystemProvider.ENGINE_PROPERTY)).name();
            assertTrue(ch.toString(), ch.toString().startsWith("SluiceFileChannel[" + engine + "["));
        }
    }
}
