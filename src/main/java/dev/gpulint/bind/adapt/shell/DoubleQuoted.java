package dev.gpulint.bind.adapt.shell;

/**
 * The exact source offset of every character of a YAML double-quoted scalar's value (YAML 1.2,
 * sec. 7.3.1): escapes ({@code \\n}, {@code \\x41}, {@code \\u00e9}...) map to their backslash, an
 * escaped line break ({@code \\} at a line end, the shape of shell scripts written in one quoted
 * string) and the indentation after it vanish, an unescaped line break folds to a space (or to one
 * newline per empty line that follows it) mapped to the break, and blanks before an unescaped line
 * break are dropped. A character outside the Basic Multilingual Plane gives two chars, both mapped
 * to its escape or its first char.
 */
final class DoubleQuoted {
    private DoubleQuoted() {}

    /**
     * Offsets of {@code value}'s characters in {@code source}, for the double-quoted scalar whose opening
     * quote is at {@code begin}, plus one for the closing quote; null when decoding the source does not
     * give {@code value} back (then the caller aligns approximately).
     */
    static int[] offsets(String source, int begin, int end, String value) {
        int n = Math.min(source.length(), Math.max(end, begin) + 1);
        int[] at = new int[value.length() + 1];
        int k = 0;
        int i = begin + 1;
        while (i < n) {
            char c = source.charAt(i);
            if (c == '"') break;
            if (c == '\\') {
                if (i + 1 >= n) return null;
                char e = source.charAt(i + 1);
                if (e == '\n' || e == '\r') {
                    i = blanks(source, lineBreak(source, i + 1), n);
                    continue;
                }
                int len = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
                String decoded;
                if (len > 0) {
                    if (i + 2 + len > n) return null;
                    int cp;
                    try {
                        cp = Integer.parseInt(source.substring(i + 2, i + 2 + len), 16);
                    } catch (NumberFormatException x) {
                        return null;
                    }
                    if (!Character.isValidCodePoint(cp)) return null;
                    decoded = new String(Character.toChars(cp));
                } else {
                    decoded = simple(e);
                    if (decoded == null) return null;
                }
                for (int j = 0; j < decoded.length(); j++) {
                    if (k >= value.length() || value.charAt(k) != decoded.charAt(j)) return null;
                    at[k++] = i;
                }
                i += 2 + len;
            } else if (c == ' ' || c == '\t') {
                int j = i;
                while (j < n && (source.charAt(j) == ' ' || source.charAt(j) == '\t')) j++;
                if (j < n && (source.charAt(j) == '\n' || source.charAt(j) == '\r')) { i = j; continue; }
                if (k >= value.length() || value.charAt(k) != c) return null;
                at[k++] = i++;
            } else if (c == '\n' || c == '\r') {
                int breakAt = i;
                i = blanks(source, lineBreak(source, i), n);
                int empty = 0;
                while (i < n && (source.charAt(i) == '\n' || source.charAt(i) == '\r')) {
                    empty++;
                    i = blanks(source, lineBreak(source, i), n);
                }
                for (int j = 0; j < Math.max(1, empty); j++) {
                    char want = empty == 0 ? ' ' : '\n';
                    if (k >= value.length() || value.charAt(k) != want) return null;
                    at[k++] = breakAt;
                }
            } else {
                if (k >= value.length() || value.charAt(k) != c) return null;
                at[k++] = i++;
            }
        }
        if (k != value.length() || i >= n) return null;
        at[k] = i;
        return at;
    }

    private static String simple(char e) {
        return switch (e) {
            case '0' -> "\0"; case 'a' -> "\u0007"; case 'b' -> "\b"; case 't', '\t' -> "\t"; case 'n' -> "\n";
            case 'v' -> "\u000b"; case 'f' -> "\f"; case 'r' -> "\r"; case 'e' -> "\u001b"; case ' ' -> " ";
            case '"' -> "\""; case '/' -> "/"; case '\\' -> "\\"; case 'N' -> "\u0085"; case '_' -> "\u00a0";
            case 'L' -> "\u2028"; case 'P' -> "\u2029";
            default -> null;
        };
    }

    /** The offset after the line break at {@code i} (\n, \r or \r\n). */
    private static int lineBreak(String s, int i) {
        if (s.charAt(i) == '\r' && i + 1 < s.length() && s.charAt(i + 1) == '\n') return i + 2;
        return i + 1;
    }

    private static int blanks(String s, int i, int n) {
        while (i < n && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) i++;
        return i;
    }
}
