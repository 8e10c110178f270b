package io.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testing.ChildJvm;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a MappedWriter's first open, writes and close make a fresh JVM load. Each downcall handle the linker makes
 * spins a stub class and its method handles, and each pattern switch a class of its own; in a cold JVM (a JRuby
 * script's first writer) that is start-up time and metaspace that a plain write does not need.
 */
class MappedWriterFootprintTest {
    @TempDir
    Path dir;

    /**
     * With native access the writer asks for pages ahead of its copies with {@code madvise}: that one call is linked,
     * and none of the io_uring engine's (syscall, openat, mmap, ...), which a writer never makes.
     */
    @Test
    void linksOnlyMadviseAndSpinsNoTypeSwitch() throws Exception {
        String text = run("--enable-native-access=ALL-UNNAMED");
        assertTrue(text.contains("length=" + 5000 * 1024), text);
        List<String> stubs = new ArrayList<>();
        List<String> switches = new ArrayList<>();
        for (String line : text.split("\n")) {
            String name = line.split(" ", 2)[0];
            if (isDowncallStub(name)) {
                stubs.add(name);
            }
            if (name.startsWith("io.sluice.") && name.contains("$$TypeSwitch")) {
                switches.add(name);
            }
        }
        assertEquals(1, stubs.size(), "downcall stubs spun (madvise's alone expected): " + stubs);
        assertEquals(List.of(), switches, "pattern switches bootstrapped");
        assertTrue(!text.contains("io.sluice.internal.Native$Libc "), "the io_uring engine's calls were linked");
    }

    /**
     * madvise succeeds (MADV_POPULATE_WRITE, Linux 5.14 or later), so errno is never asked for: no capture layout,
     * no var handle for it, and the stub the linker spins is the plain call's.
     */
    @Test
    void capturesNoErrnoWhileMadviseSucceeds() throws Exception {
        String[] version = System.getProperty("os.version").split("[.-]");
        int major = Integer.parseInt(version[0]);
        int minor = Integer.parseInt(version[1]);
        Assumptions.assumeTrue(major > 5 || major == 5 && minor >= 14, "MADV_POPULATE_WRITE needs Linux 5.14");
        String text = run("--enable-native-access=ALL-UNNAMED");
        assertTrue(text.contains("io.sluice.internal.Native$Madvise "), "madvise was not called:\n" + text);
        assertTrue(!text.contains("io.sluice.internal.Native$CallState "), "errno capture was set up");
    }

    /** Without native access nothing is linked at all. */
    @Test
    void withoutNativeAccessLinksNothing() throws Exception {
        String text = run();
        assertTrue(text.contains("length=" + 5000 * 1024), text);
        assertTrue(text.lines().map(l -> l.split(" ", 2)[0]).noneMatch(MappedWriterFootprintTest::isDowncallStub),
                text);
        assertTrue(!text.contains("java.lang.foreign.Linker "), text);
    }

    /**
     * Whether a loaded class is a stub the linker spun for one downcall: its simple name starts with
     * {@code DowncallStub}, in whichever package of its own the JDK keeps it (matched by name only; never used).
     */
    private static boolean isDowncallStub(String className) {
        return className.substring(className.lastIndexOf('.') + 1).startsWith("DowncallStub");
    }

    /** Runs {@link MappedWriterFootprintMain} in a new JVM with the class-load log on stdout; returns its output. */
    private String run(String... jvmOptions) throws Exception {
        List<String> command = new ArrayList<>(List.of(ChildJvm.java(),
                "-cp", System.getProperty("java.class.path"), "-Xlog:disable", "-Xlog:class+load=info:stdout:none"));
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of(MappedWriterFootprintMain.class.getName(), dir.resolve("out.bin").toString()));
        return ChildJvm.run(command);
    }
}
