package dev.gpulint.bind.adapt.shell;

import dev.gpulint.tree.ScalarNode;
import dev.gpulint.core.Span;

/**
 * Maps offsets inside a scalar's value back to lines and columns of its source file, so that a
 * word found inside a shell script or a CSV embedded in YAML points at its own place, not at the
 * start of the block. The value is aligned with the source greedily: each value character is
 * matched with the next equal source character within a short look-ahead (indentation, quotes,
 * line folds and escapes are skipped); a character with no match keeps the previous position.
 */
public final class ScalarText {
    private final String file;
    private final String value;
    private final int[] line;
    private final int[] column;

    private ScalarText(String file, String value, int[] line, int[] column) {
        this.file = file;
        this.value = value;
        this.line = line;
        this.column = column;
    }

    public String value() { return value; }

    /** The value of {@code s}, aligned with {@code source} (the whole text of the file it came from). */
    public static ScalarText of(String source, ScalarNode s) {
        String v = s.text();
        Span sp = s.span();
        int[] starts = starts(source);
        int begin = offset(starts, source, sp.startLine(), sp.startColumn());
        int end = Math.max(begin, offset(starts, source, sp.endLine(), sp.endColumn()));
        int[] ln = new int[v.length() + 1];
        int[] col = new int[v.length() + 1];
        if (s.quoted() && begin < source.length() && source.charAt(begin) == '"') {
            int[] exact = DoubleQuoted.offsets(source, begin, end, v);
            if (exact != null) {
                for (int i = 0; i <= v.length(); i++) {
                    ln[i] = lineOf(starts, exact[i]) + 1;
                    col[i] = exact[i] - starts[ln[i] - 1] + 1;
                }
                return new ScalarText(sp.file(), v, ln, col);
            }
        }
        int p = begin;
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            int q = p;
            int limit = Math.min(end, p + 64);
            while (q < limit && source.charAt(q) != c) q++;
            if (q < limit) p = q;
            int at = Math.min(p, Math.max(begin, source.length() - 1));
            ln[i] = lineOf(starts, at) + 1;
            col[i] = at - starts[ln[i] - 1] + 1;
            if (q < limit) p++;
        }
        int at = Math.min(p, source.length());
        ln[v.length()] = lineOf(starts, at) + 1;
        col[v.length()] = at - starts[ln[v.length()] - 1] + 1;
        return new ScalarText(sp.file(), v, ln, col);
    }

    /** A value that is not in a file (tests): every offset maps to line 1. */
    public static ScalarText detached(String file, String value) {
        int[] ln = new int[value.length() + 1];
        int[] col = new int[value.length() + 1];
        for (int i = 0; i <= value.length(); i++) { ln[i] = 1; col[i] = i + 1; }
        return new ScalarText(file, value, ln, col);
    }

    /**
     * A text made of this one's characters: {@code text}'s character i is written where this text's character
     * {@code origins[i]} is (a string a script runs with {@code bash -c}, built from the values of its variables,
     * each character placed where the script wrote it). {@code origins} has one entry per character of {@code text}.
     */
    public ScalarText derived(String text, int[] origins) {
        int[] ln = new int[text.length() + 1];
        int[] col = new int[text.length() + 1];
        for (int i = 0; i < text.length(); i++) {
            int o = Math.max(0, Math.min(origins[i], value.length()));
            ln[i] = line[o];
            col[i] = column[o];
        }
        int lastOrigin = text.isEmpty() ? 0 : Math.min(value.length(), Math.max(0, origins[text.length() - 1]) + 1);
        ln[text.length()] = line[lastOrigin];
        col[text.length()] = column[lastOrigin];
        return new ScalarText(file, text, ln, col);
    }

    /**
     * The span of value[from, to). A range whose last character is written before its first (the parts of a
     * {@code bash -c} string that come from variables assigned in another order) is placed at its first character.
     */
    public Span span(int from, int to) {
        from = Math.max(0, Math.min(from, value.length()));
        to = Math.max(from, Math.min(to, value.length()));
        int last = to > from ? to - 1 : from;
        int endCol = to > from ? column[last] + 1 : column[from];
        if (to > from && (line[last] < line[from] || line[last] == line[from] && endCol <= column[from])) {
            return new Span(file, line[from], column[from], line[from], column[from] + 1);
        }
        return new Span(file, line[from], column[from], line[last], endCol);
    }

    /** The last file's line starts: a rule file with thousands of expressions is one file, scanned once. */
    private static final ThreadLocal<Object[]> LAST = new ThreadLocal<>();

    private static int[] starts(String source) {
        Object[] last = LAST.get();
        if (last != null && last[0] == source) return (int[]) last[1];
        int[] s = dev.gpulint.core.LineBreaks.starts(source);
        LAST.set(new Object[] {source, s});
        return s;
    }

    private static int offset(int[] starts, String s, int line, int column) {
        if (line - 1 >= starts.length) return s.length();
        return Math.min(s.length(), starts[Math.max(0, line - 1)] + Math.max(0, column - 1));
    }

    private static int lineOf(int[] starts, int offset) {
        int lo = 0, hi = starts.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (starts[mid] <= offset) lo = mid; else hi = mid - 1;
        }
        return lo;
    }
}
