package io.sluice.report;

/** Escaping for text from JSON placed in HTML and inline SVG, as element content or quoted attribute values. */
final class Html {
    private Html() {
    }

    /**
     * {@code s} with {@code & < > " '} replaced by character references, safe both between tags and inside a quoted
     * attribute; {@code null} becomes the empty string. Control characters other than tab and line ends, which HTML
     * does not allow as text, become U+FFFD.
     */
    static String escape(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String r = switch (c) {
                case '&' -> "&amp;";
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '"' -> "&quot;";
                case '\'' -> "&#39;";
                default -> (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f ? "\uFFFD" : null;
            };
            if (r != null) {
                if (b == null) {
                    b = new StringBuilder(s.length() + 16).append(s, 0, i);
                }
                b.append(r);
            } else if (b != null) {
                b.append(c);
            }
        }
        return b == null ? s : b.toString();
    }
}
