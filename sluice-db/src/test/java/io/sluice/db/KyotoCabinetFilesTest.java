package io.sluice.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file made by Kyoto Cabinet itself ({@code kctreemgr}, from Debian's kyotocabinet-utils) is named as such. */
class KyotoCabinetFilesTest {
    @TempDir
    Path dir;

    /** A tree database made by Kyoto Cabinet's own tool; the test is skipped, saying why, without it. */
    private Path kyotoCabinetFile(String name) throws IOException, InterruptedException {
        Path kct = dir.resolve(name);
        Process p;
        try {
            p = new ProcessBuilder("kctreemgr", "create", kct.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "needs kctreemgr (Debian's kyotocabinet-utils) to make a Kyoto Cabinet file: " + e);
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        return kct;
    }

    @Test
    void openingOneSaysWhatItIsAndWhatToDo() throws Exception {
        Path kct = kyotoCabinetFile("index.kct");
        byte[] before = Files.readAllBytes(kct);
        for (boolean[] mode : new boolean[][] {{false, false}, {true, false}, {true, true}}) {
            IOException e = assertThrows(IOException.class, () -> KvStore.open(kct, mode[0], true, mode[1]));
            assertTrue(e.getMessage().startsWith("open(" + kct.toAbsolutePath() + "): a Kyoto Cabinet database file"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("build the store anew"), e.getMessage());
        }
        assertArrayEquals(before, Files.readAllBytes(kct), "the file is left as it was");
    }
}
