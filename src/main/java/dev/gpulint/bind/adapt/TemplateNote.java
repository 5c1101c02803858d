package dev.gpulint.bind.adapt;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Level;
import dev.gpulint.core.Span;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What gpulint did not read of a Helm template it bound a job from (read.yaml.Templates reads the literal text, each
 * {@code {{ ... }}} an unknown value): a SYN006 note at the first template expression naming how many expressions
 * are unknown and how many directive lines ({@code {{- if }}}, {@code range}, {@code include}...) were not followed,
 * and how to have them checked (render the chart with its values and lint the output). Before, such a job was bound
 * with every templated value unknown, silently. The chart's values.yaml is not read: rendering is Helm's.
 */
final class TemplateNote {
    private TemplateNote() {}

    /** The most expressions named in the note; the rest are counted. */
    static final int NAMED = 3;

    /** The note for a template's text, or null when it holds no template expression. */
    static Finding of(String file, String text) {
        int expressions = 0, directives = 0, line = 1, firstLine = -1, firstColumn = -1;
        Set<String> named = new LinkedHashSet<>();
        int lineStart = 0;
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            if (c == '\n') { line++; lineStart = i + 1; continue; }
            if (c != '{' || i + 1 >= n || text.charAt(i + 1) != '{') continue;
            int close = text.indexOf("}}", i + 2);
            int eol = text.indexOf('\n', i);
            if (close < 0 || eol >= 0 && close > eol) break;
            String expr = text.substring(i, close + 2);
            String inner = expr.substring(2, expr.length() - 2).replace("-", " ").strip();
            boolean directive = inner.matches("(if|else|end|range|with|define|template|include|block)\\b.*")
                    || text.substring(lineStart, Math.min(n, eol < 0 ? n : eol)).strip().equals(expr.strip());
            if (directive) directives++; else expressions++;
            if (!directive && named.size() < NAMED) named.add(expr.length() > 60 ? expr.substring(0, 57) + "...}}" : expr);
            if (firstLine < 0) { firstLine = line; firstColumn = i - lineStart + 1; }
            i = close + 1;
        }
        if (firstLine < 0) return null;
        List<String> parts = new ArrayList<>();
        if (expressions > 0) parts.add(expressions + " template expression" + (expressions == 1 ? "" : "s") + " ("
                + String.join(", ", named) + (expressions > named.size() ? ", ..." : "") + ") " + (expressions == 1 ? "is an unknown value" : "are unknown values")
                + " no rule checks");
        if (directives > 0) parts.add(directives + " directive" + (directives == 1 ? "" : "s") + " (if, range, include...) "
                + (directives == 1 ? "was" : "were") + " not followed: every branch's lines are read as written");
        String message = "'" + file + "' is a Helm template: gpulint read its literal text only; " + String.join(", and ", parts)
                + "; to check the values too, render the chart with its values (helm template CHART -f values.yaml > rendered.yaml) "
                + "and lint the output";
        return new Finding("SYN006", Level.NOTE, new Span(file, firstLine, firstColumn, firstLine, firstColumn + 2), message,
                List.of(), "format/template");
    }
}
