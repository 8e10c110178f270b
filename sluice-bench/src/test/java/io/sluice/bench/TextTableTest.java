package io.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.bench.TextTable.Align;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextTableTest {
    @Test
    void textColumnsAlignLeftAndNumbersRightEachAsWideAsItsWidestCell() {
        TextTable t = new TextTable("  ", List.of("engine", "MB/s", "x fio", "fio engine"),
                List.of(Align.LEFT, Align.RIGHT, Align.RIGHT, Align.LEFT));
        t.row("CLASSIC", "12.5", "0.98", "psync");
        t.row("IO_URING depth 32", "1234.0", "10.25", "io_uring");
        assertEquals(List.of(
                "  engine               MB/s  x fio  fio engine",
                "  CLASSIC              12.5   0.98  psync",
                "  IO_URING depth 32  1234.0  10.25  io_uring"), t.lines());
    }

    @Test
    void aHeaderWiderThanItsCellsSetsTheWidth() {
        TextTable t = new TextTable("", List.of("row", "x baseline"), List.of(Align.LEFT, Align.RIGHT));
        t.row("a", "1.00");
        assertEquals(List.of("row  x baseline", "a          1.00"), t.lines());
    }

    @Test
    void missingAndNullCellsPrintBlankAndLinesHaveNoTrailingBlanks() {
        TextTable t = new TextTable("  ", List.of("name", "n", "note"), List.of(Align.LEFT, Align.RIGHT, Align.LEFT));
        t.row("first", "1", "long note");
        t.row("second");
        t.row("third", null, "x");
        t.row("4th", "22");
        assertEquals(List.of(
                "  name     n  note",
                "  first    1  long note",
                "  second",
                "  third       x",
                "  4th     22"), t.lines());
    }

    @Test
    void printWritesEveryLine() {
        TextTable t = new TextTable("", List.of("a", "b"), List.of(Align.LEFT, Align.RIGHT)).row("x", "1");
        StringWriter s = new StringWriter();
        t.print(new PrintWriter(s, true));
        assertEquals("a  b" + System.lineSeparator() + "x  1" + System.lineSeparator(), s.toString());
    }

    @Test
    void misuseIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> new TextTable("", List.of("a"), List.of()));
        assertThrows(IllegalArgumentException.class, () -> new TextTable("", List.of(), List.of()));
        TextTable t = new TextTable("", List.of("a"), List.of(Align.LEFT));
        assertThrows(IllegalArgumentException.class, () -> t.row("x", "y"));
        assertThrows(IllegalArgumentException.class, () -> t.row("two\nlines"));
    }
}
