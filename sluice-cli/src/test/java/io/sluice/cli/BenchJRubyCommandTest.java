package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** {@code sluice bench jruby} is registered and checks its options before starting JRuby. */
class BenchJRubyCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    @Test
    void isASectionOfBench() {
        assertEquals(Main.OK, run("bench", "jruby", "--help"), err::toString);
        assertTrue(out.toString().contains("Sluice::MappedWriter"), out::toString);
        assertTrue(out.toString().contains("--chunk-sizes"), out::toString);
    }

    @Test
    void unknownRowsAreBadInput() {
        assertEquals(Main.BAD_INPUT, run("bench", "jruby", "--size", "1m", "--only", "turbo"));
        assertTrue(err.toString().contains("unknown contender 'turbo'"), err::toString);
    }

    @Test
    void chunksLargerThanTheSizeAreBadInput() {
        assertEquals(Main.BAD_INPUT, run("bench", "jruby", "--size", "1k", "--chunk-sizes", "4k"));
        assertTrue(err.toString().contains("chunk sizes must be 1 byte to --size"), err::toString);
    }

    @Test
    void aMissingDirAndBadRoundsAreRefusedBeforeJRubyStarts() {
        assertEquals(Main.BAD_INPUT, run("bench", "jruby", "--dir", "/nonexistent/sluice-typo"));
        assertTrue(err.toString().contains("does not exist"), err::toString);
        assertEquals(Main.BAD_INPUT, run("bench", "jruby", "--rounds", "0"));
        assertEquals(Main.BAD_INPUT, run("bench", "jruby", "--rounds", "2", "--forks", "3"));
        assertTrue(err.toString().contains("--forks 3 is more than --rounds 2"), err::toString);
        assertTrue(err.toString().contains("--rounds must be 1 to"), err::toString);
    }

    @Test
    void aHeapTooSmallForJRubyOrTooLargeForTheMachineIsRefusedBeforeJRubyStarts() {
        assertEquals(Main.BAD_INPUT, run("bench", "jruby", "--size", "1m", "--heap", "10m"));
        assertTrue(err.toString().contains("--heap must be 0 (the JVM's own sizing) or at least 64m"), err::toString);
        assertEquals(Main.BAD_INPUT, run("bench", "jruby", "--size", "1m", "--heap", "lots"));
        assertTrue(err.toString().contains("not a size: 'lots'"), err::toString);
        // Nine writers' JVMs of 1 TiB each fit no machine this runs on; where MemAvailable cannot be read, nothing is
        // checked.
        org.junit.jupiter.api.Assumptions.assumeTrue(
                java.nio.file.Files.isReadable(java.nio.file.Path.of("/proc/meminfo")));
        assertEquals(Main.BAD_INPUT, run("bench", "jruby", "--size", "1m", "--heap", "1t"));
        assertTrue(err.toString().contains("--heap 1024 GiB for each of 9 JRuby JVMs"), err::toString);
    }
}
