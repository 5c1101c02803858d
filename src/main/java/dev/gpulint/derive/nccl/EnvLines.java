package dev.gpulint.derive.nccl;

import dev.gpulint.core.Span;
import dev.gpulint.core.TextEdit;
import java.util.ArrayList;
import java.util.List;

/**
 * The whole lines that set one environment variable, for the fixes that remove it (NCCL001, NCCL002, NCCL003): the
 * derive stage does not see the file's text, so it writes out each line the setting may be, from its name, its value
 * and the value's column, in the shapes gpulint reads. Each is an edit that replaces exactly that text by nothing;
 * the linter places edits in the text it read and drops one whose text is not there, so at most one survives, and
 * none when the line holds anything else (another variable, a comment, other spacing): a line is removed only when
 * it holds this setting alone, and the file keeps its syntax.
 *
 * <p>Shapes (k blanks of indentation, taken from the value's column):
 * <ul>
 *   <li>a YAML mapping's line {@code NAME: VALUE} (a job's env, NeMo's env_vars) when the job sets other variables,
 *       else that line with the {@code env:} above it, so no mapping is left empty;</li>
 *   <li>a Kubernetes env item, on one line {@code - { name: NAME, value: VALUE }} or two ({@code - name: NAME} then
 *       {@code value: VALUE}); a list left empty is null, which Kubernetes reads as no variables;</li>
 *   <li>a whole one-variable block on one line: YAML {@code env: { NAME: VALUE }}, the DSL's {@code env { NAME = VALUE }};</li>
 *   <li>a DSL line {@code NAME = VALUE} and a shell line {@code export NAME=VALUE}, {@code declare -x NAME=VALUE},
 *       {@code typeset -x NAME=VALUE} or a plain {@code NAME=VALUE} (exported by set -a, or a name exported before it).</li>
 * </ul>
 */
public final class EnvLines {
    private EnvLines() {}

    /** The edits that each remove the setting's line(s) when the text there is exactly that shape; empty when none fits. */
    public static List<TextEdit> removals(String name, String value, Span span, boolean othersSet) {
        List<TextEdit> out = new ArrayList<>();
        if (span == null || span.startLine() != span.endLine() || name == null || value == null) return out;
        int col = span.startColumn(), len = span.endColumn() - span.startColumn(), line = span.startLine();
        List<String> raws = new ArrayList<>();
        if (len == value.codePointCount(0, value.length())) raws.add(value);
        if (len == value.codePointCount(0, value.length()) + 2) { raws.add('"' + value + '"'); raws.add("'" + value + "'"); }
        for (String raw : raws) {
            if (othersSet) {
                one(out, span, line, col, name + ": ", raw, "");
            } else {
                // the only variable: its mapping goes with it (env: above it, indented two less)
                int k = col - 1 - (name + ": ").length() - 2;
                if (k >= 0 && line > 1) {
                    String text = " ".repeat(k) + "env:\n" + " ".repeat(k + 2) + name + ": " + raw + "\n";
                    out.add(TextEdit.within(new Span(span.file(), line - 1, 1, line + 1, 1), text, ""));
                }
            }
            // a Kubernetes env list left empty is null, which Kubernetes reads as no variables
            one(out, span, line, col, "- { name: " + name + ", value: ", raw, " }");
            int k = col - 1 - "value: ".length() - 2;
            if (k >= 0 && line > 1) {
                String text = " ".repeat(k) + "- name: " + name + "\n" + " ".repeat(k + 2) + "value: " + raw + "\n";
                out.add(TextEdit.within(new Span(span.file(), line - 1, 1, line + 1, 1), text, ""));
            }
            one(out, span, line, col, "env: { " + name + ": ", raw, " }");
            one(out, span, line, col, "env { " + name + " = ", raw, " }");
            one(out, span, line, col, name + " = ", raw, "");
            one(out, span, line, col, "export " + name + "=", raw, "");
            one(out, span, line, col, "declare -x " + name + "=", raw, "");
            one(out, span, line, col, "typeset -x " + name + "=", raw, "");
            // a plain NAME=VALUE line: bound only when the shell exports it (set -a, or a name exported before)
            one(out, span, line, col, name + "=", raw, "");
        }
        return out;
    }

    /** The line {@code <k blanks>prefix raw suffix\n}, where the value sits at column {@code col}. */
    private static void one(List<TextEdit> out, Span span, int line, int col, String prefix, String raw, String suffix) {
        int k = col - 1 - prefix.length();
        if (k < 0) return;
        out.add(TextEdit.within(new Span(span.file(), line, 1, line + 1, 1), " ".repeat(k) + prefix + raw + suffix + "\n", ""));
    }
}
