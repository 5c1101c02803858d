package dev.gpulint.read.toml;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Takes the strings out of a TOML text before tomlj parses it. tomlj's ANTLR grammar makes tokens and
 * parse-tree nodes for every character of a string (about 500 bytes each: a 10 MB string took 5 GB),
 * so each string longer than {@link #SHORT} characters, key or value, is replaced by a short marker
 * that stands for it, and the reader puts the text back into the tree. A multi-line string keeps its
 * line breaks, so every line number after it stays true; what follows a replaced string on its own
 * line moves left (TOML puts one key on a line, so that is a comment or the rest of an inline table).
 * One pass over the text: a string that is never closed is reported here, at its opening quote, and so
 * is the comma past {@link #MAX_COMMAS}.
 */
final class TomlStrings {

    /** Strings up to this many characters are left to tomlj (a marker is about as long). */
    static final int SHORT = 16;
    private static final char MARK = '\uE000';

    /**
     * The most commas (array items and inline-table entries) a file may hold: tomlj's parse of an array is
     * quadratic in its items (20,000 take 2 s, 40,000 8 s), and a torchtitan configuration holds a few dozen.
     */
    static final int MAX_COMMAS = 10_000;

    /**
     * The text tomlj parses, what its markers stand for, and a problem found on the way ({@code problem}
     * at line, column; null when none): a string that is never closed, or more commas than {@link #MAX_COMMAS}.
     */
    record Prepared(String text, List<String> strings, Set<Integer> numbers, int line, int column, String problem) {

        /** The text a marker stands for, or the value itself when it is none. */
        String restore(String value) {
            if (value.length() < 2 || value.charAt(0) != MARK) return value;
            int end = 1;
            while (end < value.length() && Character.isDigit(value.charAt(end))) end++;
            if (end == 1 || end > 10 || end >= value.length() || value.charAt(end) != MARK) return value;
            int i = Integer.parseInt(value, 1, end, 10);
            return i < strings.size() && value.substring(end + 1).chars().allMatch(c -> c == '\n' || c == MARK)
                    ? strings.get(i) : value;
        }

        /** Whether the value is a marker for a whole number too large for a long (written bare, so not a string). */
        boolean number(String value) {
            if (numbers.isEmpty() || value.length() < 3 || value.charAt(0) != MARK) return false;
            int end = 1;
            while (end < value.length() && Character.isDigit(value.charAt(end))) end++;
            return end > 1 && end <= 10 && numbers.contains(Integer.parseInt(value, 1, end, 10));
        }
    }

    private TomlStrings() {}

    static Prepared prepare(String text) {
        StringBuilder out = new StringBuilder(text.length());
        List<String> strings = new ArrayList<>();
        Map<String, Integer> index = new HashMap<>();
        Set<Integer> numbers = new HashSet<>();
        int line = 1, lineStart = 0, n = text.length(), commas = 0;
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (c == '\n') {
                out.append(c);
                line++;
                lineStart = ++i;
            } else if (c == '#') {
                int e = text.indexOf('\n', i);
                e = e < 0 ? n : e;
                out.append(text, i, e);
                i = e;
            } else if (c == '"' || c == '\'') {
                boolean multi = text.startsWith(c == '"' ? "\"\"\"" : "'''", i);
                int open = multi ? 3 : 1;
                int close = multi ? closeMulti(text, i + 3, c) : closeSingle(text, i + 1, c);
                if (close < 0) {
                    return new Prepared(text, List.of(), Set.of(), line, i - lineStart + 1, "the string opened here with "
                            + (multi ? String.valueOf(c).repeat(3) : String.valueOf(c)) + " is never closed");
                }
                int from = i + open, to = close;      // the raw content
                String raw = text.substring(from, to);
                int lines = 0;
                for (int k = from; k < to; k++) if (text.charAt(k) == '\n') lines++;
                if (to - from <= SHORT) {
                    out.append(text, i, to + open);
                } else {
                    String value = c == '"' ? unescape(raw, multi) : multi && raw.startsWith("\n") ? raw.substring(1)
                            : multi && raw.startsWith("\r\n") ? raw.substring(2) : raw;
                    Integer k = index.computeIfAbsent(value, v -> { strings.add(v); return strings.size() - 1; });
                    // a marker in a basic string of the same kind (""" keeps its line breaks, " has none)
                    out.append(multi ? "\"\"\"" : "\"").append(MARK).append(k).append(MARK).append("\n".repeat(lines))
                            .append(multi ? "\"\"\"" : "\"");
                }
                if (lines > 0) {
                    line += lines;
                    lineStart = text.lastIndexOf('\n', to) + 1;
                }
                i = to + open;
            } else if (wholeAt(text, i, out) > i) {
                // a whole number beyond a long, which tomlj rejects for the whole file ("Integer is too large"): a marker
                // of the same width stands for it, so the value keeps its columns and the bounds check reports it (SYN002)
                int e = wholeAt(text, i, out);
                String digits = text.substring(i, e).replace("_", "").replace("+", "");
                int k = strings.size();
                strings.add(digits);
                numbers.add(k);
                String marker = "\"" + MARK + k + MARK;
                out.append(marker).append(String.valueOf(MARK).repeat(e - i - marker.length() - 1)).append('"');
                i = e;
            } else {
                if (c == ',' && ++commas > MAX_COMMAS) {
                    return new Prepared(text, List.of(), Set.of(), line, i - lineStart + 1, "more than " + MAX_COMMAS
                            + " array items and inline-table entries in one file, more than gpulint reads (a torchtitan "
                            + "configuration holds a few dozen)");
                }
                out.append(c);
                i++;
            }
        }
        return new Prepared(out.toString(), strings, numbers, 0, 0, null);
    }

    /**
     * The end of a bare whole number that starts a value at {@code i} ('=' or ',' before it, '[' between) and does not fit in a long,
     * or {@code i} when there is none. A date, a float, a hex number or a key stops before the character that follows.
     */
    private static int wholeAt(String t, int i, StringBuilder out) {
        char c = t.charAt(i);
        if (!(c >= '0' && c <= '9') && c != '+' && c != '-') return i;
        int b = out.length() - 1;
        while (b >= 0 && (out.charAt(b) == ' ' || out.charAt(b) == '\t' || out.charAt(b) == '[')) b--;     // [[ a header
        if (b < 0 || (out.charAt(b) != '=' && out.charAt(b) != ',')) return i;
        int j = c == '+' || c == '-' ? i + 1 : i, digits = 0;
        int first = j;
        while (j < t.length() && (t.charAt(j) >= '0' && t.charAt(j) <= '9' || t.charAt(j) == '_')) {
            if (t.charAt(j) != '_') digits++;
            j++;
        }
        if (digits < 19 || t.charAt(first) == '0') return i;
        int f = j;
        while (f < t.length() && (t.charAt(f) == ' ' || t.charAt(f) == '\t')) f++;
        if (f < t.length() && "\r\n#,]}".indexOf(t.charAt(f)) < 0) return i;
        if (digits == 19) {
            String d = t.substring(first, j).replace("_", "");
            if (d.compareTo(c == '-' ? "9223372036854775808" : "9223372036854775807") <= 0) return i;
        }
        return j;
    }

    /** The index of the closing quote of a one-line string whose content starts at {@code from}, or -1. */
    private static int closeSingle(String t, int from, char q) {
        for (int i = from; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '\n') return -1;
            if (c == '\\' && q == '"') i++;
            else if (c == q) return i;
        }
        return -1;
    }

    /** The index of the closing triple quote of a multi-line string (up to two quotes before it belong to the content), or -1. */
    private static int closeMulti(String t, int from, char q) {
        for (int i = from; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '\\' && q == '"') {
                i++;
            } else if (c == q && i + 2 < t.length() && t.charAt(i + 1) == q && t.charAt(i + 2) == q) {
                int run = i;
                while (run + 3 < t.length() && t.charAt(run + 3) == q && run - i < 2) run++;
                return run;
            }
        }
        return -1;
    }

    /** A basic string's escapes decoded (TOML 1.0: \b \t \n \f \r \" \\ \\uXXXX \\UXXXXXXXX, and a line-ending backslash in """). */
    static String unescape(String raw, boolean multi) {
        String s = multi && raw.startsWith("\r\n") ? raw.substring(2) : multi && raw.startsWith("\n") ? raw.substring(1) : raw;
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 >= s.length()) {
                b.append(c);
                continue;
            }
            char e = s.charAt(++i);
            switch (e) {
                case 'b' -> b.append('\b');
                case 't' -> b.append('\t');
                case 'n' -> b.append('\n');
                case 'f' -> b.append('\f');
                case 'r' -> b.append('\r');
                case 'e' -> b.append('\u001b');
                case '"' -> b.append('"');
                case '\\' -> b.append('\\');
                case 'u', 'U' -> {
                    int len = e == 'u' ? 4 : 8;
                    if (i + len < s.length()) {
                        try {
                            b.appendCodePoint(Integer.parseInt(s, i + 1, i + 1 + len, 16));
                            i += len;
                        } catch (RuntimeException x) {
                            b.append('\\').append(e);
                        }
                    } else {
                        b.append('\\').append(e);
                    }
                }
                default -> {
                    if (multi && (e == ' ' || e == '\t' || e == '\n' || e == '\r')) {
                        // a line-ending backslash: the line break and the white space after it go
                        while (i + 1 < s.length() && Character.isWhitespace(s.charAt(i + 1))) i++;
                    } else {
                        b.append('\\').append(e);
                    }
                }
            }
        }
        return b.toString();
    }
}
