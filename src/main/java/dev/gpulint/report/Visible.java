package dev.gpulint.report;

/**
 * Makes control characters visible in line-based output (text, GitHub annotations): a file name or
 * a key with a line break would forge report lines, and ESC sequences would drive the reader's
 * terminal. Line feed, carriage return and tab show as {@code \n}, {@code \r} and {@code \t}; other C0
 * and C1 controls and DEL as {@code \xNN}; bidirectional overrides as {@code \u202E} (they reorder
 * what a reviewer sees); the line and paragraph separators U+2028 and U+2029 as a backslash, u and four hex digits (editors and
 * YAML 1.1 end a line there, as at NEL, U+0085, shown as {@code \x85}). JSON and SARIF escape through their own encoders.
 */
public final class Visible {
    private Visible() {}

    public static String of(String s) {
        if (s == null) return "null";
        int i = 0;
        while (i < s.length() && !special(s.charAt(i))) i++;
        if (i == s.length()) return s;
        StringBuilder sb = new StringBuilder(s.length() + 8).append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!special(c)) sb.append(c);
            else if (c == '\n') sb.append("\\n");
            else if (c == '\r') sb.append("\\r");
            else if (c == '\t') sb.append("\\t");
            else if (c < 0x100) sb.append(String.format("\\x%02x", (int) c));
            else sb.append(String.format("\\u%04X", (int) c));
        }
        return sb.toString();
    }

    private static boolean special(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029' || (c >= '\u202a' && c <= '\u202e')
                || (c >= '\u2066' && c <= '\u2069');
    }
}
