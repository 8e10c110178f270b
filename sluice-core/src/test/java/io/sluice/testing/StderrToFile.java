package io.sluice.testing;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Points the test JVM's file descriptor 2 at the file named by the system property {@code sluice.test.stderr}, when
 * it is set, before any test runs. The fuzz execution sets it: libFuzzer, inside Jazzer, writes its progress lines and
 * its dictionary to the process's standard error from native code, which Surefire's redirectTestOutputToFile (Java's
 * System.err only) does not catch, and which would otherwise fill the build log. Findings still fail the test and
 * show in the build's test report. Registered in META-INF/services; does nothing without the property.
 */
@SuppressWarnings("exports") // patched into io.sluice.core for compiling only; JUnit loads it from the class path
public final class StderrToFile implements LauncherSessionListener {
    /** Creates the listener; JUnit's launcher does, through the service loader. */
    public StderrToFile() {
    }

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        String target = System.getProperty("sluice.test.stderr");
        if (target == null || target.isBlank()) {
            return;
        }
        try {
            redirect(Path.of(target).toAbsolutePath());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void redirect(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Linker linker = Linker.nativeLinker();
        MethodHandle open = linker.downcallHandle(linker.defaultLookup().find("open").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT,
                        ValueLayout.JAVA_INT),
                Linker.Option.firstVariadicArg(2));
        MethodHandle dup2 = linker.downcallHandle(linker.defaultLookup().find("dup2").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        final int oWronly = 01;
        final int oCreat = 0100;
        final int oTrunc = 01000;
        final int oCloexec = 02000000;
        try (Arena arena = Arena.ofConfined()) {
            int fd = (int) open.invokeExact(arena.allocateFrom(file.toString()), oWronly | oCreat | oTrunc | oCloexec,
                    0644);
            if (fd < 0) {
                throw new IOException(file + ": open for the test JVM's standard error failed");
            }
            if ((int) dup2.invokeExact(fd, 2) < 0) {
                throw new IOException(file + ": dup2 onto standard error failed");
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IOException(file + ": redirecting standard error", t);
        }
    }
}
