package dev.gpulint.cli;

import java.util.function.Function;

/**
 * Text for a terminal, wrapped at its width between words only: a name such as {@code .gpulint.yaml}
 * or {@code 400 Gb/s} is never split (Java's line BreakIterator, which picocli wraps with, breaks after
 * a dot). A wrapped line continues under its own text: under the description of an option or list
 * entry (after the first run of two or more spaces), under the text of a Markdown list item, else at
 * the line's indentation. Fenced code blocks and table rows are left as they are.
 */
final class Wrap {
    private Wrap() {}

    /** Narrower than this, nothing is wrapped (a width from a broken environment). */
    static final int MIN = 40;

    /**
     * The width to wrap at: COLUMNS (the terminal's, passed by the shell or bin/gpulint), else 80 when
     * standard output is a terminal; 0 (no wrapping) for a pipe or a file, unless {@code always}.
     */
    static int width(Function<String, String> env, boolean always) {
        String c = env.apply("COLUMNS");
        if (c != null && c.strip().matches("\\d{1,4}")) {
            int w = Integer.parseInt(c.strip());
            if (w >= MIN) return w;
        }
        return always || Colour.stdoutIsTerminal(env) ? 80 : 0;
    }

    static String text(String s, int width) {
        if (width < MIN) return s;
        StringBuilder out = new StringBuilder(s.length() + 64);
        boolean fence = false;
        int start = 0;
        while (start <= s.length()) {
            int nl = s.indexOf('\n', start);
            String line = nl < 0 ? s.substring(start) : s.substring(start, nl);
            if (line.strip().startsWith("```")) fence = !fence;
            if (fence || line.strip().startsWith("```") || line.strip().startsWith("|") || line.length() <= width) out.append(line);
            else line(out, line, width);
            if (nl < 0) break;
            out.append('\n');
            start = nl + 1;
        }
        return out.toString();
    }

    /** One line wrapped at {@code width}, its continuation lines indented by {@code indent} (or less, on a narrow terminal). */
    static String hanging(String line, int indent, int width) {
        if (width < MIN || line.length() <= width) return line;
        StringBuilder out = new StringBuilder();
        line(out, line, width, indent > width / 2 ? leading(line) : indent);
        return out.toString();
    }

    private static void line(StringBuilder out, String line, int width) {
        int indent = hanging(line);
        line(out, line, width, indent > width / 2 ? leading(line) : indent);
    }

    private static void line(StringBuilder out, String line, int width, int indent) {
        int pos = 0;
        boolean first = true;
        while (pos < line.length()) {
            int room = width - (first ? 0 : indent);
            String rest = line.substring(pos);
            if (!first) out.append('\n').append(" ".repeat(indent));
            if (rest.length() <= room) {
                out.append(rest);
                return;
            }
            int cut = rest.lastIndexOf(' ', room);
            int minCut = first ? Math.max(indent, leading(line)) : 0;
            if (cut <= minCut) cut = rest.indexOf(' ', room);          // a word longer than the room: never split it
            if (cut < 0) {
                out.append(rest);
                return;
            }
            out.append(rest, 0, cut).setLength(trimEnd(out));
            pos += cut;
            while (pos < line.length() && line.charAt(pos) == ' ') pos++;
            first = false;
        }
    }

    private static int trimEnd(StringBuilder sb) {
        int n = sb.length();
        while (n > 0 && sb.charAt(n - 1) == ' ') n--;
        return n;
    }

    private static int leading(String line) {
        int i = 0;
        while (i < line.length() && line.charAt(i) == ' ') i++;
        return i;
    }

    /** Where a wrapped line continues: under the description, under a list item's text, or at the indentation. */
    static int hanging(String line) {
        int lead = leading(line);
        String rest = line.substring(lead);
        if (rest.startsWith("- ") || rest.startsWith("* ")) return lead + 2;
        int dot = 0;
        while (dot < rest.length() && Character.isDigit(rest.charAt(dot))) dot++;
        if (dot > 0 && rest.startsWith(". ", dot)) return lead + dot + 2;
        int gap = line.indexOf("  ", lead);
        if (gap > lead) {
            int col = gap;
            while (col < line.length() && line.charAt(col) == ' ') col++;
            if (col < line.length()) return col;
        }
        return lead;
    }
}
