package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** {@code sluice bench kv} is registered and checks its options before starting JRuby. */
class BenchKvCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    @Test
    void isASectionOfBench() {
        assertEquals(Main.OK, run("bench", "kv", "--help"), err::toString);
        assertTrue(out.toString().contains("Sluice::DB"), out::toString);
        assertTrue(out.toString().contains("--pstore-n"), out::toString);
        assertTrue(out.toString().contains("ruby-kyotocabinet") && out.toString().contains("libkyotocabinet-dev"),
                out::toString);
    }

    @Test
    void nonPositiveCountsAreBadInput() {
        assertEquals(Main.BAD_INPUT, run("bench", "kv", "--n", "0"));
        assertTrue(err.toString().contains("must be positive"), err::toString);
    }

    @Test
    void aMissingDirAndBadRoundsAreRefusedBeforeJRubyStarts() {
        assertEquals(Main.BAD_INPUT, run("bench", "kv", "--dir", "/nonexistent/sluice-typo"));
        assertTrue(err.toString().contains("does not exist"), err::toString);
        assertEquals(Main.BAD_INPUT, run("bench", "kv", "--rounds", "0"));
        assertTrue(err.toString().contains("--rounds must be 1 to"), err::toString);
    }
}
