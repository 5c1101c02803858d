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

    /** Whether the character at {@code i} ends a line (the \r of a \r\n does not: its \n does). */
    public static boolean endsLine(String s, int i) {
        char c = s.charAt(i);
        return c == '\n' || c == '\r' && (i + 1 == s.length() || s.charAt(i + 1) != '\n');
    }
}
