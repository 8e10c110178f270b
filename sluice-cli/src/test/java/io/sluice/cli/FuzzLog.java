package io.sluice.cli;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Sends the fuzzer's own output to a file. Jazzer's engine (libFuzzer) writes its progress from native code straight
 * to file descriptor 2, past surefire's capture of {@code System.err}; so when the build names a file in the system
 * property {@value #PROPERTY}, descriptor 2 is pointed at it before fuzzing starts. Without the property (a run from
 * an IDE, or on demand) nothing changes.
 */
final class FuzzLog {
    static final String PROPERTY = "sluice.fuzz.log";
    private static final int O_WRONLY = 01;
    private static final int O_CREAT = 0100;
    private static final int O_APPEND = 02000;

    private FuzzLog() {
    }

    /** Points descriptor 2 at the file {@value #PROPERTY} names, if it names one. */
    static void redirectStderr() throws Throwable {
        String name = System.getProperty(PROPERTY);
        if (name == null || name.isEmpty()) {
            return;
        }
        Path file = Path.of(name).toAbsolutePath();
        Files.createDirectories(file.getParent());
        Linker linker = Linker.nativeLinker();
        MethodHandle open = linker.downcallHandle(linker.defaultLookup().find("open").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT,
                        ValueLayout.JAVA_INT), Linker.Option.firstVariadicArg(2));
        MethodHandle dup2 = linker.downcallHandle(linker.defaultLookup().find("dup2").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        MethodHandle close = linker.downcallHandle(linker.defaultLookup().find("close").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        try (Arena arena = Arena.ofConfined()) {
            int fd = (int) open.invokeExact(arena.allocateFrom(file.toString()), O_WRONLY | O_CREAT | O_APPEND, 0644);
            if (fd < 0) {
                throw new IllegalStateException("open(" + file + ") for the fuzzer's output failed");
            }
            if ((int) dup2.invokeExact(fd, 2) < 0) {
                throw new IllegalStateException("dup2(" + file + ", 2) for the fuzzer's output failed");
            }
            int ignored = (int) close.invokeExact(fd);
        }
    }
}
