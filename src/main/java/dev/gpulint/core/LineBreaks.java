package dev.gpulint.core;

/**
 * Where a text's lines start, as gpulint's spans count lines: {@code \n}, {@code \r\n} and a lone
 * {@code \r} each end one (YAML's line breaks, and what editors show).
 */
public final class LineBreaks {
    private LineBreaks() {}

    /** The offset of each line's first character; element 0 is 0, and there is one element per line. */
    public static int[] starts(String s) {
        int n = 1;
        for (int i = 0; i < s.length(); i++) if (endsLine(s, i)) n++;
        int[] out = new int[n];
        int k = 1;
        for (int i = 0; i < s.length(); i++) if (endsLine(s, i)) out[k++] = i + 1;
        return out;
    }

    /**
     * Where line {@code k} (from 0) of {@code s} ends: the offset of its line break ({@code \r\n} counted
     * from its {@code \r}), or the text's length for the last line; {@code starts} is {@link #starts}'s.
     */
    public static int end(String s, int[] starts, int k) {
        if (k + 1 >= starts.length) return s.length();
        int brk = starts[k + 1] - 1;
        return s.charAt(brk) == '\n' && brk > starts[k] && s.charAt(brk - 1) == '\r' ? brk - 1 : brk;
    }

    /** Whether the character at {@code i} ends a line (the \r of a \r\n does not: its \n does). */
    public static boolean endsLine(String s, int i) {
        char c = s.charAt(i);
        return c == '\n' || c == '\r' && (i + 1 == s.length() || s.charAt(i + 1) != '\n');
    }
}
