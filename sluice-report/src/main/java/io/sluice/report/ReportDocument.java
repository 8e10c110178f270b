package io.sluice.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one JSON file holds: sections of rows and, when it was recorded, the machine they ran on. This is also the
 * document {@code sluice bench all --json} writes (docs/bench-json.md):
 *
 * <pre>
 * {"format": "sluice-bench", "version": 1, "command": "...", "machine": {...},
 *  "sections": [{"name": "uring", "arguments": "...", "seconds": 41.2, "rows": [...]},
 *               {"name": "jruby", "skipped": "no jruby-complete jar ...", "rows": []}]}
 * </pre>
 *
 * @param source   the file name, or {@code this run}
 * @param machine  the machine record ({@link MachineInfo}), or null when the file has none (a bare array of rows)
 * @param command  the command that made it, or null
 * @param sections the sections, in the order they ran
 */
public record ReportDocument(String source, Map<String, Object> machine, String command,
                             List<ReportSection> sections) {
    /** The value of {@code format} in documents this class writes. */
    public static final String FORMAT = "sluice-bench";
    /** The version of the document's shape; rows have their own stable fields. */
    public static final int VERSION = 1;

    /** Copies the sections and the machine record. */
    public ReportDocument {
        sections = List.copyOf(sections);
        machine = machine == null ? null : new LinkedHashMap<>(machine);
    }

    /** The document as JSON text, rows written back with every member they had. */
    public String toJson() {
        StringBuilder b = new StringBuilder();
        b.append("{\"format\": ").append(Json.quote(FORMAT)).append(", \"version\": ").append(VERSION);
        b.append(",\n \"command\": ").append(Json.quote(command));
        b.append(",\n \"machine\": ");
        Json.write(machine, b);
        b.append(",\n \"sections\": [");
        for (int i = 0; i < sections.size(); i++) {
            ReportSection s = sections.get(i);
            b.append(i == 0 ? "\n" : ",\n").append("  {\"name\": ").append(Json.quote(s.name()));
            if (s.arguments() != null) {
                b.append(", \"arguments\": ").append(Json.quote(s.arguments()));
            }
            if (!Double.isNaN(s.seconds())) {
                b.append(", \"seconds\": ").append(Json.number(Math.round(s.seconds() * 10) / 10.0));
            }
            if (s.skipped() != null) {
                b.append(", \"skipped\": ").append(Json.quote(s.skipped()));
            }
            b.append(", \"rows\": [");
            List<ReportRow> rows = s.rows();
            for (int r = 0; r < rows.size(); r++) {
                b.append(r == 0 ? "\n    " : ",\n    ");
                Json.write(ordered(rows.get(r)), b);
            }
            b.append(rows.isEmpty() ? "]}" : "\n  ]}");
        }
        b.append(sections.isEmpty() ? "]}\n" : "\n]}\n");
        return b.toString();
    }

    /** The common fields first, in the documented order, then the section's own. */
    private static Map<String, Object> ordered(ReportRow row) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (String f : COMMON_FIELDS) {
            if (row.fields().containsKey(f)) {
                m.put(f, row.fields().get(f));
            }
        }
        List<String> rest = new ArrayList<>(row.fields().keySet());
        rest.removeAll(COMMON_FIELDS);
        rest.sort(null);
        for (String f : rest) {
            m.put(f, row.fields().get(f));
        }
        return m;
    }

    /** The fields every section writes, in their documented order. */
    public static final List<String> COMMON_FIELDS = List.of("engine", "workload", "blockSize", "threads", "opsPerMs",
            "mbPerSec", "spread", "rounds", "opsPerMsMin", "opsPerMsMax", "ratioToClassic", "fioReference",
            "ratioToFio", "direct", "depth", "file", "baseline", "ratioToBaseline");
}
