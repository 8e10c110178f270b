package io.sluice.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Just enough JSON for benchmark rows: a strict reader into plain Java values and a writer of strings and numbers.
 * The CLI has no JSON library, and rows are small flat objects; a dependency for them would outweigh the code.
 *
 * <p>Values read: {@link Map} (insertion-ordered) for objects, {@link List} for arrays, {@link String}, {@link Double}
 * for every number, {@link Boolean}, and {@code null}.
 */
public final class Json {
    private final String text;
    private int pos;

    private Json(String text) {
        this.text = text;
    }

    /**
     * Parses one JSON value that makes up the whole text (white space around it allowed).
     *
     * @throws IllegalArgumentException saying where and what is wrong, for text that is not JSON
     */
    public static Object parse(String text) {
        Json p = new Json(text);
        p.skipSpace();
        Object v = p.value(0);
        p.skipSpace();
        if (p.pos != text.length()) {
            throw p.error("text after the value");
        }
        return v;
    }

    private static final int MAX_DEPTH = 200;

    private Object value(int depth) {
        if (depth > MAX_DEPTH) {
            throw error("nested deeper than " + MAX_DEPTH);
        }
        if (pos >= text.length()) {
            throw error("unexpected end");
        }
        char c = text.charAt(pos);
        return switch (c) {
            case '{' -> object(depth);
            case '[' -> array(depth);
            case '"' -> string();
            case 't' -> word("true", Boolean.TRUE);
            case 'f' -> word("false", Boolean.FALSE);
            case 'n' -> word("null", null);
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    yield number();
                }
                throw error("unexpected '" + c + "'");
            }
        };
    }

    private Map<String, Object> object(int depth) {
        Map<String, Object> m = new LinkedHashMap<>();
        pos++;
        skipSpace();
        if (peek() == '}') {
            pos++;
            return m;
        }
        while (true) {
            skipSpace();
            if (peek() != '"') {
                throw error("expected a member name");
            }
            String key = string();
            skipSpace();
            expect(':');
            skipSpace();
            m.put(key, value(depth + 1));
            skipSpace();
            char c = next();
            if (c == '}') {
                return m;
            }
            if (c != ',') {
                pos--;
                throw error("expected ',' or '}'");
            }
        }
    }

    private List<Object> array(int depth) {
        List<Object> list = new ArrayList<>();
        pos++;
        skipSpace();
        if (peek() == ']') {
            pos++;
            return list;
        }
        while (true) {
            skipSpace();
            list.add(value(depth + 1));
            skipSpace();
            char c = next();
            if (c == ']') {
                return list;
            }
            if (c != ',') {
                pos--;
                throw error("expected ',' or ']'");
            }
        }
    }

    private String string() {
        pos++;
        StringBuilder b = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw error("unterminated string");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return b.toString();
            }
            if (c < 0x20) {
                pos--;
                throw error("control character in a string");
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = next();
            switch (e) {
                case '"', '\\', '/' -> b.append(e);
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> {
                    if (pos + 4 > text.length()) {
                        throw error("short \\u escape");
                    }
                    try {
                        b.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    } catch (NumberFormatException x) {
                        throw error("bad \\u escape");
                    }
                    pos += 4;
                }
                default -> {
                    pos--;
                    throw error("bad escape '\\" + e + "'");
                }
            }
        }
    }

    private Double number() {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        digits();
        if (peek() == '.') {
            pos++;
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            pos++;
            if (peek() == '+' || peek() == '-') {
                pos++;
            }
            digits();
        }
        return Double.valueOf(text.substring(start, pos));
    }

    private void digits() {
        int start = pos;
        while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
            pos++;
        }
        if (pos == start) {
            throw error("expected a digit");
        }
    }

    private Object word(String w, Object v) {
        if (!text.startsWith(w, pos)) {
            throw error("unexpected '" + text.charAt(pos) + "'");
        }
        pos += w.length();
        return v;
    }

    private void skipSpace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private char next() {
        if (pos >= text.length()) {
            throw error("unexpected end");
        }
        return text.charAt(pos++);
    }

    private void expect(char c) {
        if (next() != c) {
            pos--;
            throw error("expected '" + c + "'");
        }
    }

    private IllegalArgumentException error(String what) {
        int line = 1;
        int col = 1;
        for (int i = 0; i < Math.min(pos, text.length()); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        return new IllegalArgumentException("not JSON: " + what + " at line " + line + ", column " + col);
    }

    /** {@code s} as a JSON string literal, quotes included; {@code null} as {@code null}. */
    public static String quote(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    /** A number as JSON has it: {@code null} for NaN and infinities, which JSON cannot say. */
    public static String number(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "null";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return Double.toString(v);
    }

    /**
     * Writes any value this class reads (maps, lists, strings, numbers, booleans, null) as compact JSON; used to
     * carry rows and machine records from one document into another unchanged.
     */
    public static void write(Object v, StringBuilder out) {
        switch (v) {
            case null -> out.append("null");
            case String s -> out.append(quote(s));
            case Number n -> out.append(number(n.doubleValue()));
            case Boolean b -> out.append(b);
            case Map<?, ?> m -> {
                out.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    out.append(first ? "" : ", ").append(quote(String.valueOf(e.getKey()))).append(": ");
                    write(e.getValue(), out);
                    first = false;
                }
                out.append('}');
            }
            case List<?> l -> {
                out.append('[');
                for (int i = 0; i < l.size(); i++) {
                    out.append(i == 0 ? "" : ", ");
                    write(l.get(i), out);
                }
                out.append(']');
            }
            default -> throw new IllegalArgumentException("not a JSON value: " + v.getClass().getName());
        }
    }
}
