package dev.gpulint.core;

/**
 * The one XML escaper (JUnit reports, SVG pictures): correct in XML 1.0 text content and in attribute values
 * quoted with either {@code "} or {@code '}, and in SVG (XML) inside HTML. The five markup characters are
 * entities ({@code '} as {@code &#39;}, which HTML also reads, unlike {@code &apos;} in HTML 4); a carriage
 * return is {@code &#13;} (a parser turns a bare one into a line feed); characters XML 1.0 cannot carry at all
 * (controls other than tab, line feed and carriage return, U+FFFE, U+FFFF, unpaired surrogates) are written
 * visibly as {@code \\uXXXX}, so no input makes the document unreadable.
 */
public final class Xml {
    private Xml() {}

    /** For text content: tabs and line breaks kept as they are (a parser keeps them there). */
    public static String text(String s) {
        return escape(s, false);
    }

    /**
     * For an attribute value: tabs and line feeds also as character references, since a parser turns bare
     * ones into spaces in attributes (XML 1.0 §3.3.3); the value reads back exactly as given.
     */
    public static String attribute(String s) {
        return escape(s, true);
    }

    private static String escape(String s, boolean attribute) {
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                case '\r' -> sb.append("&#13;");
                case '\n' -> sb.append(attribute ? "&#10;" : "\n");
                case '\t' -> sb.append(attribute ? "&#9;" : "\t");
                default -> {
                    boolean pair = Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
                    if (pair) {
                        sb.append(c).append(s.charAt(++i));
                    } else if ((c >= 0x20 && c < 0xD800) || (c >= 0xE000 && c <= 0xFFFD)) {
                        sb.append(c);
                    } else {
                        sb.append(String.format("\\u%04X", (int) c));
                    }
                }
            }
        }
        return sb.toString();
    }
}
