package io.sluice.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.Engine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The depth of the FileChannel adapter's positional read, as C2 sees it. HotSpot inlines calls at most 15 levels
 * deep (MaxInlineLevel); the JDK's copy out of a mapping takes seven of them below {@code MemorySegment.copy}, and a
 * caller's loop usually some of its own above the channel. When the adapter and the engine took too many of the rest,
 * the JDK's {@code copyMemoryChecks} stayed a call ("inlining too deep") and random 512-byte reads over MMAP ran at
 * 0.59-0.79 of the engine's own API (docs/benchmarks/2026-11-26-depth-s6.md). This test compiles a caller two
 * levels above the channel, as the bench's reader is, in a JVM of its own with only that loop compiled, in the
 * foreground, and reads C2's inlining decisions.
 */
class ReadDepthTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"MMAP", "AUTO"})
    void aMappedReadIsInlinedIntoTheCallersLoopDownToTheCopy(Engine engine) throws Exception {
        Path file = dir.resolve("data.bin");
        Files.write(file, new byte[8 << 20]);
        // Only the loop is compiled: a hot callee compiled on its own first may be called rather than inlined by the
        // loop's compilation ("already compiled into a big method"), which hides the depth the loop would reach.
        String loop = ReadDepthChild.class.getName() + "::loop";
        List<String> command = List.of(ProcessHandle.current().info().command().orElseThrow(),
                "--enable-native-access=ALL-UNNAMED", "-Xmx256m", "-Xbatch",
                "-XX:+UnlockDiagnosticVMOptions", "-XX:CompileCommand=quiet",
                "-XX:CompileCommand=compileonly," + loop, "-XX:CompileCommand=PrintInlining," + loop,
                "-cp", System.getProperty("java.class.path"), ReadDepthChild.class.getName(), engine.name(),
                file.toString());
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child did not finish");
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.lines().anyMatch(l -> l.contains("::copyMemoryChecks (") && l.contains("inline")),
                "C2 compiled the read down to the JDK's copy:\n" + out);
        List<String> tooDeep = out.lines().filter(l -> l.contains("inlining too deep")).toList();
        assertEquals(List.of(), tooDeep, "calls left out for depth in the loop's compilation:\n" + out);
    }
}
