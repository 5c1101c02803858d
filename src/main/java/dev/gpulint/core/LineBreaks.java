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

    /**
     * A text's line index, built once and shared by every edit placed in it ({@link TextEdit#resolve(Index)}): where
     * each line starts and how many code points come before it, so that placing an edit costs its own line, not the
     * whole file. Placing k fixes in a file of n characters is O(n + k·line) instead of O(k·n).
     */
    public static final class Index {
        private final String text;
        private final int[] starts;
        private final int[] codePoints;

        public Index(String text) {
            this.text = text;
            this.starts = LineBreaks.starts(text);
            this.codePoints = new int[starts.length];
            for (int k = 1; k < starts.length; k++) codePoints[k] = codePoints[k - 1] + text.codePointCount(starts[k - 1], starts[k]);
        }

        public String text() { return text; }

        /** {@link LineBreaks#starts} of the text (not a copy: do not change it). */
        public int[] starts() { return starts; }

        /** The line (from 0) holding UTF-16 index {@code i}. */
        public int line(int i) {
            int k = java.util.Arrays.binarySearch(starts, i);
            return k >= 0 ? k : -k - 2;
        }

        /** The code points before UTF-16 index {@code i} (a code-point offset, as fixes count). */
        public int codePoints(int i) {
            int k = line(i);
            return codePoints[k] + text.codePointCount(starts[k], i);
        }
    }

    /**
     * One {@link Index} per file of {@code texts} (display path to text), built when first asked for: one pass over
     * a file places all its edits. A path without a text gives null.
     */
    public static java.util.function.Function<String, Index> indexes(java.util.Map<String, String> texts) {
        java.util.Map<String, Index> built = new java.util.HashMap<>();
        return file -> {
            Index i = built.get(file);
            if (i == null) {
                String t = texts.get(file);
                if (t == null) return null;
                built.put(file, i = new Index(t));
            }
            return i;
        };
    }
}
