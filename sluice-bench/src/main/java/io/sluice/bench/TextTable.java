package io.sluice.bench;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A plain-text table for the terminal: a header line and rows of cells, each column as wide as its widest cell
 * (header included) and aligned left or right. Every table the CLI prints goes through here, so that widths come
 * from what is printed rather than from fixed format widths that a long label or a ratio with a suffix overflows.
 *
 * <p>A row may have fewer cells than there are columns: the missing ones, like {@code null} cells, print blank.
 * Lines carry no trailing blanks.
 */
public final class TextTable {
    /** How a column's cells sit in its width. */
    public enum Align {
        /** Text: labels and names. */
        LEFT,
        /** Numbers, so that their last digits line up. */
        RIGHT
    }

    private static final String GAP = "  ";

    private final String indent;
    private final String[] headers;
    private final Align[] aligns;
    private final List<String[]> rows = new ArrayList<>();

    /**
     * A table with no rows yet.
     *
     * @param indent  printed before every line, e.g. two blanks to set the table under a heading
     * @param headers the columns' headers, one per column (blank for a column of row labels)
     * @param aligns  each column's alignment, as many as {@code headers}
     * @throws IllegalArgumentException if there are no columns or the counts differ
     */
    public TextTable(String indent, List<String> headers, List<Align> aligns) {
        Objects.requireNonNull(indent, "indent");
        if (headers.isEmpty() || headers.size() != aligns.size()) {
            throw new IllegalArgumentException("a table needs one alignment per header, and at least one column: "
                    + headers.size() + " headers, " + aligns.size() + " alignments");
        }
        this.indent = indent;
        this.headers = headers.stream().map(TextTable::cell).toArray(String[]::new);
        this.aligns = aligns.stream().map(a -> Objects.requireNonNull(a, "alignment")).toArray(Align[]::new);
    }

    /**
     * Adds a row.
     *
     * @param cells the row's cells from the first column on; fewer than the columns leave the rest blank, a
     *              {@code null} cell is blank
     * @return this table
     * @throws IllegalArgumentException if there are more cells than columns, or a cell holds a line break
     */
    public TextTable row(String... cells) {
        if (cells.length > headers.length) {
            throw new IllegalArgumentException("a row of " + cells.length + " cells in a table of " + headers.length
                    + " columns: " + Arrays.toString(cells));
        }
        String[] row = new String[headers.length];
        for (int i = 0; i < row.length; i++) {
            row[i] = i < cells.length ? cell(cells[i]) : "";
        }
        rows.add(row);
        return this;
    }

    private static String cell(String s) {
        if (s == null) {
            return "";
        }
        if (s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("a table cell holds a line break: " + s);
        }
        return s;
    }

    /** The header line and one line per row, indented and padded, without line terminators. */
    public List<String> lines() {
        int[] widths = new int[headers.length];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = headers[c].length();
            for (String[] r : rows) {
                widths[c] = Math.max(widths[c], r[c].length());
            }
        }
        List<String> lines = new ArrayList<>(rows.size() + 1);
        lines.add(line(headers, widths));
        for (String[] r : rows) {
            lines.add(line(r, widths));
        }
        return lines;
    }

    private String line(String[] cells, int[] widths) {
        StringBuilder b = new StringBuilder(indent);
        for (int c = 0; c < cells.length; c++) {
            if (c > 0) {
                b.append(GAP);
            }
            int pad = widths[c] - cells[c].length();
            if (aligns[c] == Align.RIGHT) {
                b.repeat(' ', pad).append(cells[c]);
            } else {
                b.append(cells[c]).repeat(' ', pad);
            }
        }
        int end = b.length();
        while (end > 0 && b.charAt(end - 1) == ' ') {
            end--;
        }
        b.setLength(end);
        return b.toString();
    }

    /** Prints {@link #lines()}, each ending with the platform's line separator. */
    public void print(PrintWriter out) {
        for (String l : lines()) {
            out.println(l);
        }
    }
}
