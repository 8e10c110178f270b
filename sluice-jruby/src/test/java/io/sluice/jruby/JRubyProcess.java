package io.sluice.jruby;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs JRuby from the complete jar in a child JVM on the JDK running the tests (Maven itself may run on an older one;
 * the tests run on the toolchain's), and copies its output into the test's output line by line, so that minitest's
 * summary appears in the build log.
 */
final class JRubyProcess {
    /** What the child printed and how it ended. */
    record Result(int exitCode, String output) {
    }

    private JRubyProcess() {
    }

    /** The complete jar the build resolved, as the POM passes it. */
    static Path jrubyJar() {
        String jar = System.getProperty("sluice.jruby.jar");
        if (jar == null) {
            throw new IllegalStateException("system property sluice.jruby.jar is not set: run through Maven");
        }
        return Path.of(jar);
    }

    /** The module's directory. */
    static Path basedir() {
        return Path.of(System.getProperty("sluice.jruby.basedir", "."));
    }

    /**
     * Runs {@code java <quick JVM options> -jar jruby-complete.jar --dev args...} in {@code dir} with {@code env}
     * added to the environment, waiting at most {@code timeoutMinutes}.
     */
    static Result run(Path dir, Map<String, String> env, long timeoutMinutes, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        String quick = System.getProperty("sluice.jruby.quickJvm", "");
        if (!quick.isBlank()) {
            command.addAll(Arrays.asList(quick.trim().split("\\s+")));
        }
        command.add("-jar");
        command.add(jrubyJar().toString());
        // Interpreter only: these runs are short, and JRuby's JIT would cost more start-up than it saves.
        command.add("--dev");
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        // The developer's own JRUBY_OPTS or GEM_* must not change what is tested.
        for (String inherited : List.of("JRUBY_OPTS", "GEM_HOME", "GEM_PATH", "RUBYOPT", "RUBYLIB")) {
            pb.environment().remove(inherited);
        }
        pb.environment().putAll(env);
        System.out.println("$ " + String.join(" ", command));
        Process p = pb.start();
        StringBuilder out = new StringBuilder();
        Thread pump = Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r = new BufferedReader(
                    new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    System.out.println(line);
                    synchronized (out) {
                        out.append(line).append('\n');
                    }
                }
            } catch (IOException e) {
                System.out.println("(output lost: " + e + ")");
            }
        });
        if (!p.waitFor(timeoutMinutes, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            p.waitFor();
            pump.join(10_000);
            throw new AssertionError("JRuby did not finish in " + timeoutMinutes + " minutes: " + command);
        }
        pump.join(10_000);
        synchronized (out) {
            return new Result(p.exitValue(), out.toString());
        }
    }
}
