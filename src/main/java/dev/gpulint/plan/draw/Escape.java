package dev.gpulint.plan.draw;

/**
 * Names from a manifest made safe for each picture format: cut to {@link #MAX_NAME} characters ({@link #bounded},
 * where the scene takes them in), line breaks and control characters made visible, and each format's syntax
 * characters escaped. A node group named
 * {@code a"b<c>&d\n%%} must neither break nor inject into a picture.
 */
public final class Escape {
    private Escape() {}

    /** The longest name kept whole (in code points); longer ones are cut and end in "…". */
    public static final int MAX_NAME = 64;

    /** Cut to {@link #MAX_NAME} code points (never inside a surrogate pair): a name as pictures show it. */
    public static String bounded(String s) {
        if (s.codePointCount(0, s.length()) <= MAX_NAME) return s;
        return s.substring(0, s.offsetByCodePoints(0, MAX_NAME - 1)) + "…";
    }

    private static boolean control(int c) {
        return c < 0x20 || (c >= 0x7f && c < 0xa0) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)
                || c == 0x2028 || c == 0x2029 || c == 0xfeff || (c >= 0xd800 && c <= 0xdfff) || c == 0xfffe || c == 0xffff;
    }

    /** Plain text: control characters (line breaks, bidirectional overrides) shown as \n, \t, \\u{202e}. */
    public static String text(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().forEach(c -> {
            if (c == '\n') b.append("\\n");
            else if (c == '\r') b.append("\\r");
            else if (c == '\t') b.append("\\t");
            else if (control(c)) b.append("\\u{").append(Integer.toHexString(c)).append('}');
            else b.appendCodePoint(c);
        });
        return b.toString();
    }

    /**
     * Inside a quoted Mermaid label ({@code ["..."]}): quotes, '#', '&amp;', '&lt;', '&gt;', '%', '`' and the
     * brackets as Mermaid's numeric entity codes ({@code #34;}), control characters as spaces.
     */
    public static String mermaid(String s) {
        StringBuilder b = new StringBuilder();
        text(s).codePoints().forEach(c -> {
            if ("\"#&<>%`;\\[](){}|".indexOf(c) >= 0) b.append('#').append(c).append(';');
            else b.appendCodePoint(c);
        });
        return b.toString();
    }

    /**
     * Inside a YAML double-quoted scalar on one line (Mermaid's front matter): backslash and quote escaped, and
     * '`', '&lt;', '&gt;', '&amp;' as YAML's \xNN escapes, so the text closes no Markdown code fence and holds no tag.
     */
    public static String yaml(String s) {
        StringBuilder b = new StringBuilder();
        text(s).codePoints().forEach(c -> {
            if (c == '\\' || c == '"') b.append('\\').appendCodePoint(c);
            else if ("`<>&".indexOf(c) >= 0) b.append("\\x").append(Integer.toHexString(c));
            else b.appendCodePoint(c);
        });
        return b.toString();
    }

    /** Inside a double-quoted Graphviz string: backslash and quote escaped, control characters shown as in {@link #text}. */
    public static String dot(String s) {
        return text(s).replace("\\", "\\\\").replace("\"", "\\\"");
    }

    /** XML text or attribute (SVG): control characters shown as in {@link #text}, then {@link dev.gpulint.core.Xml}'s escapes. */
    public static String xml(String s) {
        return dev.gpulint.core.Xml.attribute(text(s));
    }

    /** Markdown inline text (GitHub, GitLab): HTML characters as entities, Markdown punctuation backslash-escaped. */
    public static String markdown(String s) {
        StringBuilder b = new StringBuilder();
        text(s).codePoints().forEach(c -> {
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                default -> {
                    if ("\\`*_[]#|~$".indexOf(c) >= 0) b.append('\\');
                    b.appendCodePoint(c);
                }
            }
        });
        return b.toString();
    }
}
