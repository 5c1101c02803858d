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
 * with every templated value unknown, silently. A template in a chart with a values.yaml is read with its values
 * substituted (read.yaml.HelmChart): then each action not followed gets a note of its own at its line, at most
 * {@link #NOTES} (the last counting the rest), and a template with nothing skipped gets none.
 */
final class TemplateNote {
    private TemplateNote() {}

    /** The most expressions named in the note; the rest are counted. */
    static final int NAMED = 3;

    /** The most notes of one chart template; the last one names the lines of the rest. */
    static final int NOTES = 5;

    /** The notes of a template a job was bound from: per action skipped in a chart with values, else the one note. */
    static List<Finding> of(dev.gpulint.read.SourceFile f) {
        var rendered = dev.gpulint.read.yaml.HelmChart.render(f);
        if (rendered.isEmpty()) {
            Finding note = of(f.displayPath(), f.text());
            return note == null ? List.of() : List.of(note);
        }
        String file = f.displayPath();
        var r = rendered.get();
        List<dev.gpulint.read.yaml.HelmChart.Skipped> skipped = r.skipped();
        List<Finding> out = new ArrayList<>();
        for (int k = 0; k < skipped.size() && k < NOTES; k++) {
            var s = skipped.get(k);
            String expr = s.expression().length() > 60 ? s.expression().substring(0, 57) + "...}}" : s.expression();
            String message = "'" + file + "' is a Helm template read with the default values of its chart (" + r.valuesFile() + ", "
                    + r.substituted() + " expression" + (r.substituted() == 1 ? "" : "s") + " substituted); " + expr + " " + why(s.why(), r.valuesFile());
            int rest = skipped.size() - NOTES;
            if (k == NOTES - 1 && rest > 0) {
                List<String> lines = skipped.subList(NOTES, skipped.size()).stream().map(x -> String.valueOf(x.line())).distinct().toList();
                message += "; and " + rest + " more template action" + (rest == 1 ? " was" : "s were") + " not followed (line"
                        + (lines.size() == 1 ? " " : "s ") + String.join(", ", lines.subList(0, Math.min(10, lines.size())))
                        + (lines.size() > 10 ? ", ..." : "") + ")";
            }
            message += "; to check " + (k == NOTES - 1 && skipped.size() > NOTES ? "them" : "it") + " too, render the chart "
                    + "(helm template CHART -f values.yaml > rendered.yaml) and lint the output";
            out.add(new Finding("SYN006", Level.NOTE, new Span(file, s.line(), s.column(), s.line(), s.column() + s.expression().length()),
                    message, List.of(), "format/template"));
        }
        return out;
    }

    private static String why(dev.gpulint.read.yaml.HelmChart.Why why, String values) {
        return switch (why) {
            case BRANCH -> "was not evaluated (gpulint substitutes values, it does not follow conditions): the lines of every branch are read as written";
            case LOOP -> "was not expanded: its body is read once, as written";
            case INCLUDE -> "was not expanded: what it writes is not read";
            case DEFINE -> "defines a named template, which is not read";
            case MISSING -> "has no value: " + values + " does not set it and no default is given, so it is an unknown value no rule checks";
            case NOT_SCALAR -> "is not a one-line value in " + values + " (a mapping, a list or a block): what it writes is not read";
            case OTHER -> "uses a function gpulint does not apply: it is an unknown value no rule checks";
        };
    }

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
