package io.sluice.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The small JSON reader and writer the report uses. */
class JsonTest {
    @Test
    void readsEveryKindOfValue() {
        Object v = Json.parse(" {\"a\": [1, -2.5e3, 0.125], \"b\": {\"c\": null, \"d\": true, \"e\": false}, "
                + "\"s\": \"q\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\u2028\"} ");
        Map<?, ?> m = (Map<?, ?>) v;
        assertEquals(List.of(1.0, -2500.0, 0.125), m.get("a"));
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("c", null);
        b.put("d", true);
        b.put("e", false);
        assertEquals(b, m.get("b"));
        assertEquals("q\"\\/\b\f\n\r\t\u00e9\u2028", m.get("s"));
        assertEquals(List.of("a", "b", "s"), List.copyOf(m.keySet()), "members keep their order");
    }

    @Test
    void refusesWhatIsNotJsonSayingWhere() {
        for (String bad : List.of("", "[1,]", "{\"a\" 1}", "[1 2]", "\"open", "nul", "01x", "[1] [2]", "{'a': 1}",
                "\"tab\there\"", "-", "1.", "[\"\\x\"]")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Json.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("not JSON: ") && e.getMessage().contains("line 1, column "),
                    e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Json.parse("[\n1,\n}"));
        assertTrue(e.getMessage().endsWith("at line 3, column 1"), e.getMessage());
    }

    @Test
    void deepNestingIsRefusedNotAStackOverflow() {
        char[] open = new char[100_000];
        Arrays.fill(open, '[');
        assertThrows(IllegalArgumentException.class, () -> Json.parse(new String(open)));
    }

    @Test
    void writesWhatItReads() {
        String text = "{\"name\": \"a \\\"b\\\" \\n\\u0001\", \"n\": [1, 2.5, null, true], \"m\": {}}";
        Object v = Json.parse(text);
        StringBuilder b = new StringBuilder();
        Json.write(v, b);
        assertEquals(v, Json.parse(b.toString()));
        assertEquals("null", Json.number(Double.NaN));
        assertEquals("null", Json.number(Double.POSITIVE_INFINITY));
        assertEquals("3", Json.number(3.0));
        assertEquals("\"\\u2028\"", Json.quote("\u2028"), "line separators would break a script reading the file");
    }
}
