package dev.gpulint.read.evidence;

import dev.gpulint.core.LineBreaks;
import dev.gpulint.core.Span;
import java.util.ArrayList;
import java.util.List;

/**
 * The lines of a captured tool output, bounded: a line is read up to {@link #MAX_LINE} characters
 * (the rest of a longer one is ignored), and terminal colour codes are blanked to spaces, so
 * columns stay where the terminal printed them.
 */
final class Text {
    /** Characters of a line that are read; tool outputs print far shorter lines. */
    static final int MAX_LINE = 4096;

    private Text() {}

    /** The file's lines, each cut to {@link #MAX_LINE}; line breaks are gpulint's ({@link LineBreaks}) and dropped. */
    static List<String> lines(String text) {
        int[] starts = LineBreaks.starts(text);
        List<String> out = new ArrayList<>(starts.length);
        for (int k = 0; k < starts.length; k++) {
            int start = starts[k];
            out.add(blankEscapes(text.substring(start, Math.min(LineBreaks.end(text, starts, k), start + MAX_LINE))));
        }
        return out;
    }

    /** ESC [ digits ; ... letter (a terminal colour or underline) becomes spaces of the same length. */
    static String blankEscapes(String line) {
        if (line.indexOf('\u001B') < 0) return line;
        StringBuilder sb = new StringBuilder(line);
        for (int i = 0; i < sb.length(); i++) {
            if (sb.charAt(i) != '\u001B') continue;
            int j = i + 1;
            if (j < sb.length() && sb.charAt(j) == '[') {
                j++;
                while (j < sb.length() && (Character.isDigit(sb.charAt(j)) || sb.charAt(j) == ';')) j++;
                if (j < sb.length()) j++;
            }
            for (int k = i; k < j && k < sb.length(); k++) sb.setCharAt(k, ' ');
            i = j - 1;
        }
        return sb.toString();
    }

    /** A whitespace-separated word of a line and its 1-based column. */
    record Token(String text, int column) {}

    /** The line's words (separated by spaces and tabs), each with its column. */
    static List<Token> tokens(String line) {
        List<Token> out = new ArrayList<>();
        int i = 0, n = line.length();
        while (i < n) {
            while (i < n && Character.isWhitespace(line.charAt(i))) i++;
            int s = i;
            while (i < n && !Character.isWhitespace(line.charAt(i))) i++;
            if (i > s) out.add(new Token(line.substring(s, i), s + 1));
        }
        return out;
    }

    static Span span(String file, int line, int column, int length) {
        return new Span(file, line, column, line, column + length);
    }

    /** The span of the line's text without its leading and trailing blanks. */
    static Span lineSpan(String file, int line, String text) {
        int s = 0;
        while (s < text.length() && Character.isWhitespace(text.charAt(s))) s++;
        return new Span(file, line, s + 1, line, text.stripTrailing().length() + 1);
    }

    /** A number, or {@code otherwise} when the word is none. */
    static double number(String s, double otherwise) {
        try {
            double d = Double.parseDouble(s);
            return Double.isFinite(d) ? d : otherwise;
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    static long whole(String s, long otherwise) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }
}
