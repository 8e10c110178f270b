package io.sluice.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Reads benchmark JSON in each shape Sluice has written: the bare array of rows every section writes with
 * {@code --json}, and the document of {@code sluice bench all} ({@link ReportDocument}). Anything else (hyperfine's
 * output, a truncated file) is skipped with a warning naming the file and what was found, so one stray file in a
 * directory of records does not cost the page of the others.
 */
public final class ReportInput {
    private ReportInput() {
    }

    /**
     * Reads one file.
     *
     * @param warn receives one line per problem, naming the file
     * @return the document, or empty when the file was skipped
     * @throws IOException when the file cannot be read at all
     */
    public static Optional<ReportDocument> read(Path file, Consumer<String> warn) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        return parse(text, file.getFileName() == null ? file.toString() : file.getFileName().toString(), warn);
    }

    /** {@link #read} for text already in hand; {@code source} names it in warnings and on the page. */
    public static Optional<ReportDocument> parse(String text, String source, Consumer<String> warn) {
        Object json;
        try {
            json = Json.parse(text);
        } catch (IllegalArgumentException e) {
            warn.accept("skipping " + source + ": " + e.getMessage());
            return Optional.empty();
        }
        try {
            return switch (json) {
                case List<?> list -> bareRows(list, source, warn);
                case Map<?, ?> m when m.get("sections") instanceof List<?> -> Optional.of(document(m, source, warn));
                case Map<?, ?> m when m.get("rows") instanceof List<?> rows -> {
                    List<ReportRow> r = rows(rows, source);
                    String name = m.get("section") instanceof String s ? s : inferSection(r);
                    yield Optional.of(new ReportDocument(source, map(m.get("machine")), text(m.get("command")),
                            List.of(ReportSection.of(name, source, r))));
                }
                case Map<?, ?> m -> {
                    warn.accept("skipping " + source + ": not benchmark rows (a JSON object with "
                            + describeKeys(m) + (m.containsKey("results") ? "; hyperfine's output looks like this" : "")
                            + ")");
                    yield Optional.empty();
                }
                // A switch on a pattern throws NullPointerException for null unless a case names it.
                case null, default -> {
                    warn.accept("skipping " + source + ": not benchmark rows (a single JSON value)");
                    yield Optional.empty();
                }
            };
        } catch (IllegalArgumentException e) {
            warn.accept("skipping " + source + ": " + e.getMessage());
            return Optional.empty();
        }
    }

    private static Optional<ReportDocument> bareRows(List<?> list, String source, Consumer<String> warn) {
        if (list.isEmpty()) {
            warn.accept("skipping " + source + ": an empty array, no rows");
            return Optional.empty();
        }
        List<ReportRow> rows = rows(list, source);
        return Optional.of(new ReportDocument(source, null, null,
                List.of(ReportSection.of(inferSection(rows), source, rows))));
    }

    private static ReportDocument document(Map<?, ?> m, String source, Consumer<String> warn) {
        if (m.get("version") instanceof Number v && v.intValue() > ReportDocument.VERSION) {
            warn.accept(source + ": document version " + v.intValue() + " is newer than this sluice's "
                    + ReportDocument.VERSION + "; reading the fields it knows");
        }
        List<ReportSection> sections = new ArrayList<>();
        int i = 0;
        for (Object o : (List<?>) m.get("sections")) {
            i++;
            if (!(o instanceof Map<?, ?> s)) {
                throw new IllegalArgumentException("section " + i + " is not an object");
            }
            List<ReportRow> rows = s.get("rows") instanceof List<?> l ? rows(l, source) : List.of();
            String name = s.get("name") instanceof String n ? n : inferSection(rows);
            double seconds = s.get("seconds") instanceof Number n ? n.doubleValue() : Double.NaN;
            sections.add(new ReportSection(name, source, rows, text(s.get("skipped")), text(s.get("arguments")),
                    seconds));
        }
        return new ReportDocument(source, map(m.get("machine")), text(m.get("command")), sections);
    }

    private static List<ReportRow> rows(List<?> list, String source) {
        List<ReportRow> rows = new ArrayList<>();
        int i = 0;
        for (Object o : list) {
            i++;
            if (!(o instanceof Map<?, ?> m)) {
                throw new IllegalArgumentException("not benchmark rows (element " + i + " is not an object)");
            }
            try {
                rows.add(new ReportRow(stringKeys(m)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("not benchmark rows (element " + i + ": " + e.getMessage() + ")");
            }
        }
        return rows;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> stringKeys(Map<?, ?> m) {
        // Json reads object members with String keys only.
        return (Map<String, Object>) m;
    }

    private static Map<String, Object> map(Object o) {
        return o instanceof Map<?, ?> m ? stringKeys(m) : null;
    }

    private static String text(Object o) {
        return o instanceof String s ? s : null;
    }

    private static String describeKeys(Map<?, ?> m) {
        List<String> keys = new ArrayList<>();
        for (Object k : m.keySet()) {
            keys.add(String.valueOf(k));
            if (keys.size() == 5) {
                break;
            }
        }
        return m.isEmpty() ? "no members" : "members " + String.join(", ", keys) + (m.size() > 5 ? ", ..." : "");
    }

    private static final Set<String> ZIP_WORKLOADS = Set.of("smallStored", "smallDeflated", "bigStored",
            "bigDeflated");
    private static final Set<String> URING_WORKLOADS = Set.of("randread-vthreads", "randwrite", "open-read-close");
    private static final Set<String> URING_BASELINES = Set.of("CHANNEL", "jdk-direct", "jdk-aligned",
            "jdk-open-read-close");

    /**
     * The section a bare array of rows came from, told by what only that section writes: its workloads, its extra
     * fields, its baselines. Rows of a section this version does not know keep their own name: {@code other}.
     */
    static String inferSection(List<ReportRow> rows) {
        for (ReportRow r : rows) {
            if (r.fields().containsKey("userSec") || r.engine().startsWith("ruby-")) {
                return "jruby";
            }
        }
        for (ReportRow r : rows) {
            String w = r.workload();
            if (w.startsWith("kv-")) {
                return "kv";
            }
            if (w.equals("1brc")) {
                return "scan";
            }
            if (w.equals("maf-parse") || w.equals("raw-read") || r.fields().containsKey("ioEngine")) {
                return "chunks";
            }
            if (ZIP_WORKLOADS.contains(w)) {
                return "zip";
            }
            if (w.equals("fill") || w.equals("sum")) {
                return "bigfile";
            }
            if (w.equals("seqwrite")) {
                return "write";
            }
            if (URING_WORKLOADS.contains(w)) {
                return "uring";
            }
            if (w.startsWith("lucene-")) {
                return "lucene";
            }
        }
        for (ReportRow r : rows) {
            String w = r.workload();
            if (w.equals("randread") || w.equals("seqread")) {
                // Both sections read; only uring names its baseline per cell, and never CLASSIC.
                return r.baseline() != null && URING_BASELINES.contains(r.baseline()) ? "uring" : "engines";
            }
        }
        return "other";
    }
}
