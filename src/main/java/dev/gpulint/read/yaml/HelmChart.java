package dev.gpulint.read.yaml;

import dev.gpulint.core.Span;
import dev.gpulint.read.ReadResult;
import dev.gpulint.read.SourceFile;
import dev.gpulint.tree.Document;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A Helm chart's template with the chart's own {@code values.yaml}: the simple value expressions are replaced by
 * their values, so a PyTorchJob or MPIJob template is checked with the numbers its chart installs by default.
 *
 * <p>What is substituted: {@code {{ .Values.a.b }}}, with a pipeline of {@code default X}, {@code quote},
 * {@code squote}, {@code int}, {@code int64}, {@code float64}, {@code toString}, {@code trim}; the prefix form
 * {@code {{ default X .Values.a }}} and {@code {{ quote .Values.a }}}; variables set on a line of their own
 * ({@code {{- $gpus := .Values.gpus }}}) and used later. Only a one-line scalar value is substituted (a mapping or
 * a list needs {@code toYaml}, which is Helm's rendering). Everything else is skipped and listed
 * ({@link Skipped}): a line of directives ({@code if}, {@code range}, {@code with}, {@code include}, {@code define},
 * {@code template}) is blank, so every branch's lines are read as written; any other expression stays an unknown
 * value of the same length ({@link Templates#literalView}).
 *
 * <p>Spans: each node's columns are mapped back to the template's, a value substituted for an expression spanning
 * the whole expression; a shorter value followed by a blank or the line's end is padded with blanks, so the
 * columns inside a command string stay exact too.
 *
 * <p>A template whose values break its YAML where they are put is read as if it had none (its literal view).
 *
 * <p>Bounds: a values file over {@link #MAX_VALUES_BYTES} is not read; at most {@link #MAX_SUBSTITUTIONS}
 * expressions are substituted per template; a chart is looked for at most {@link #MAX_DEPTH} folders up.
 */
public final class HelmChart {
    private HelmChart() {}

    /** The largest values file read (a chart's values.yaml is a few kilobytes; 1 MiB is a generous bound). */
    public static final int MAX_VALUES_BYTES = 1 << 20;
    /** The most expressions substituted in one template; the rest stay unknown values. */
    public static final int MAX_SUBSTITUTIONS = 10_000;
    /** How many folders above the template the chart's {@code templates/} folder may be. */
    static final int MAX_DEPTH = 4;

    /** A template action gpulint did not follow, at its 1-based line and column; {@code why} names the kind. */
    public record Skipped(int line, int column, String expression, Why why) {}

    /** Why an action was skipped. */
    public enum Why { BRANCH, LOOP, INCLUDE, DEFINE, MISSING, NOT_SCALAR, OTHER }

    /** A template rendered with its chart's values: the text, the values file's display path, what was skipped. */
    public record Rendered(String text, String valuesFile, int substituted, List<Skipped> skipped,
                           Map<Integer, List<int[]>> regions) {}

    /** The template's chart's values, when {@code f} lies in a chart's templates/ folder whose chart has values.yaml. */
    public static Optional<Rendered> render(SourceFile f) {
        Optional<Values> values = values(f);
        if (values.isEmpty()) return Optional.empty();
        Rendered r = render(f.text(), values.get().root(), values.get().display());
        // a value that breaks the YAML where it is put (Helm's output would not parse either): read literally instead
        try {
            if (new YamlReader().read(new SourceFile(f.path(), f.displayPath(), r.text())).failed()) return Optional.empty();
        } catch (RuntimeException | StackOverflowError e) {
            return Optional.empty();
        }
        return Optional.of(r);
    }

    /** A chart's values: the parsed root and its display path. */
    record Values(MappingNode root, String display) {}

    static Optional<Values> values(SourceFile f) {
        if (f.path() == null) return Optional.empty();
        String display = f.displayPath().replace('\\', '/');
        Path dir = f.path().toAbsolutePath().getParent();
        String displayDir = display.contains("/") ? display.substring(0, display.lastIndexOf('/')) : "";
        for (int up = 0; dir != null && up < MAX_DEPTH; up++, dir = dir.getParent()) {
            boolean last = dir.getFileName() != null && dir.getFileName().toString().equals("templates");
            String shown = displayDir;
            displayDir = displayDir.contains("/") ? displayDir.substring(0, displayDir.lastIndexOf('/')) : "";
            if (!last) continue;
            Path chart = dir.getParent();
            if (chart == null || !Files.isRegularFile(chart.resolve("Chart.yaml"))) return Optional.empty();
            String chartDisplay = shown.contains("/") ? shown.substring(0, shown.lastIndexOf('/') + 1) : "";
            for (String name : List.of("values.yaml", "values.yml")) {
                Path p = chart.resolve(name);
                try {
                    if (!Files.isRegularFile(p) || Files.size(p) > MAX_VALUES_BYTES) continue;
                    ReadResult r = new YamlReader().readAll(new SourceFile(p, chartDisplay + name, Files.readString(p)));
                    if (r.failed()) return Optional.empty();
                    List<Document> docs = r.foreign().isEmpty() ? r.documents() : r.foreign();
                    MappingNode root = docs.isEmpty() ? new MappingNode(List.of(), null) : docs.get(0).root();
                    return Optional.of(new Values(root, chartDisplay + name));
                } catch (IOException | RuntimeException e) {
                    return Optional.empty();
                }
            }
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** {@code text} with its value expressions replaced by {@code values}' (see the class comment). */
    public static Rendered render(String text, MappingNode values, String valuesFile) {
        StringBuilder out = new StringBuilder(text.length());
        List<Skipped> skipped = new ArrayList<>();
        Map<Integer, List<int[]>> regions = new HashMap<>();
        Map<String, String> variables = new HashMap<>();
        int substituted = 0, lineNo = 0;
        for (int i = 0, n = text.length(); i < n; ) {
            int end = text.indexOf('\n', i);
            if (end < 0) end = n;
            lineNo++;
            String line = text.substring(i, end);
            String s = line.strip();
            int outLineStart = out.length();
            if (s.startsWith("{{") && s.endsWith("}}") && Templates.onlyDirectives(s)) {
                for (int at = line.indexOf("{{"); at >= 0; ) {
                    int close = line.indexOf("}}", at + 2);
                    if (close < 0) break;
                    String expr = line.substring(at, close + 2);
                    String inner = inner(expr);
                    String[] assign = inner.split("\\s*:=\\s*", 2);
                    if (assign.length == 2 && assign[0].matches("\\$\\w+")) {
                        String v = evaluate(assign[1], values, variables);
                        if (v != null) variables.put(assign[0], v);
                        else skipped.add(new Skipped(lineNo, at + 1, expr, missingOrOther(assign[1], values)));
                    } else {
                        Why why = directive(inner);
                        if (why == Why.OTHER) why = missingOrOther(inner, values);
                        if (why != null) skipped.add(new Skipped(lineNo, at + 1, expr, why));
                    }
                    at = line.indexOf("{{", close + 2);
                }
                out.append(" ".repeat(line.length()));
            } else {
                int from = 0;
                List<int[]> lineRegions = new ArrayList<>();
                for (int at = line.indexOf("{{"); at >= 0; at = line.indexOf("{{", from)) {
                    int close = line.indexOf("}}", at + 2);
                    if (close < 0) break;
                    out.append(line, from, at);
                    String expr = line.substring(at, close + 2);
                    String value = substituted < MAX_SUBSTITUTIONS ? evaluate(inner(expr), values, variables) : null;
                    if (value == null) {
                        out.append("${").append(expr, 2, expr.length() - 2).append("} ");
                        Why why = missingOrOther(inner(expr), values);
                        if (why != null) skipped.add(new Skipped(lineNo, at + 1, expr, why));
                    } else {
                        substituted++;
                        int renderedStart = out.length() - outLineStart + 1;
                        boolean blankAfter = close + 2 >= line.length() || Character.isWhitespace(line.charAt(close + 2));
                        if (value.length() < expr.length() && blankAfter) value = value + " ".repeat(expr.length() - value.length());
                        out.append(value);
                        lineRegions.add(new int[] {renderedStart, renderedStart + value.length(), at + 1, close + 3});
                    }
                    from = close + 2;
                }
                out.append(line, from, line.length());
                if (!lineRegions.isEmpty()) regions.put(lineNo, lineRegions);
            }
            if (end < n) out.append('\n');
            i = end + 1;
        }
        return new Rendered(out.toString(), valuesFile, substituted, List.copyOf(skipped), regions);
    }

    /** The inside of {@code {{- ... -}}}, without its trim markers. */
    static String inner(String expr) {
        String s = expr.substring(2, expr.length() - 2);
        if (s.startsWith("-")) s = s.substring(1);
        if (s.endsWith("-")) s = s.substring(0, s.length() - 1);
        return s.strip();
    }

    /** The kind of a directive, or null for an end, an else or a comment (nothing skipped of its own). */
    private static Why directive(String inner) {
        String word = inner.split("[\\s(]", 2)[0];
        return switch (word) {
            case "if", "with" -> Why.BRANCH;
            case "range" -> Why.LOOP;
            case "include", "template", "tpl" -> Why.INCLUDE;
            case "define", "block" -> Why.DEFINE;
            case "end", "else" -> null;
            default -> inner.startsWith("/*") ? null : Why.OTHER;
        };
    }

    /**
     * Why an expression was not substituted: its value is not set, is not a one-line scalar, or the expression is
     * another action (include, a function gpulint does not apply); null for a release or chart name (.Release.Name),
     * which names things and sets nothing the rules check, for a variable not set (noted at its assignment or its
     * range), and for a comment.
     */
    private static Why missingOrOther(String inner, MappingNode values) {
        String ref = valueRef(inner);
        if (ref == null) {
            String head = inner.split("[\\s|]", 2)[0];
            if (head.startsWith(".Release.") || head.startsWith(".Chart.") || head.startsWith(".Capabilities.")
                    || head.startsWith(".Template.")) return null;
            // a variable gpulint could not set: its assignment or its range was noted where it is written
            if (head.startsWith("$")) return null;
            return directive(inner);
        }
        Node n = lookup(values, ref);
        if (n == null || n instanceof ScalarNode sc && sc.isNull()) return Why.MISSING;
        return n instanceof ScalarNode sc && sc.text().indexOf('\n') < 0 ? Why.OTHER : Why.NOT_SCALAR;
    }

    /** The first {@code .Values.x} a pipeline reads, or null. */
    private static String valueRef(String inner) {
        for (String t : tokens(inner)) if (t.startsWith(".Values.")) return t;
        return null;
    }

    /** The value of a supported pipeline, or null when it is anything else or its value is not a one-line scalar. */
    static String evaluate(String inner, MappingNode values, Map<String, String> variables) {
        String[] stages = inner.split("\\|", -1);
        List<String> head = tokens(stages[0]);
        String value;
        if (head.size() == 1) value = operand(head.get(0), values, variables);
        else if (head.size() == 3 && head.get(0).equals("default")) {
            value = operand(head.get(2), values, variables);
            if (value == null || value.isEmpty()) value = operand(head.get(1), values, variables);
        } else if (head.size() == 2 && (head.get(0).equals("quote") || head.get(0).equals("squote"))) {
            value = operand(head.get(1), values, variables);
            if (value != null) value = quote(value, head.get(0).equals("quote"));
        } else return null;
        for (int k = 1; k < stages.length; k++) {
            List<String> st = tokens(stages[k]);
            if (st.isEmpty()) return null;
            String fn = st.get(0);
            if (fn.equals("default") && st.size() == 2) {
                if (value == null || value.isEmpty()) value = operand(st.get(1), values, variables);
                continue;
            }
            if (value == null || st.size() != 1) return null;
            switch (fn) {
                case "quote" -> value = quote(value, true);
                case "squote" -> value = quote(value, false);
                case "trim" -> value = value.strip();
                case "toString" -> { }
                case "int", "int64" -> { if (!value.matches("-?\\d+")) return null; }
                case "float64" -> { if (!value.matches("-?\\d+(\\.\\d+)?")) return null; }
                default -> { return null; }
            }
        }
        return value == null || value.isEmpty() ? null : value;
    }

    private static String quote(String v, boolean dbl) {
        return dbl ? "\"" + v.replace("\\", "\\\\").replace("\"", "\\\"") + "\"" : "'" + v.replace("'", "''") + "'";
    }

    /** A literal, a {@code .Values} path, or a variable: its text, or null (unset, null, or not a one-line scalar). */
    private static String operand(String t, MappingNode values, Map<String, String> variables) {
        if (t.startsWith("\"") && t.endsWith("\"") && t.length() >= 2) return t.substring(1, t.length() - 1);
        if (t.matches("-?\\d+(\\.\\d+)?") || t.equals("true") || t.equals("false")) return t;
        if (t.startsWith("$")) return variables.get(t);
        if (!t.startsWith(".Values.")) return null;
        Node n = lookup(values, t);
        if (!(n instanceof ScalarNode s) || s.isNull() || s.text().indexOf('\n') >= 0 || s.text().contains("{{")) return null;
        return s.text();
    }

    private static Node lookup(MappingNode values, String ref) {
        Node n = values;
        for (String key : ref.substring(".Values.".length()).split("\\.")) {
            if (!(n instanceof MappingNode m)) return null;
            n = m.get(key).orElse(null);
            if (n == null) return null;
        }
        return n;
    }

    /** The words of a pipeline stage; a double-quoted string is one word. */
    private static List<String> tokens(String s) {
        List<String> out = new ArrayList<>();
        int i = 0, n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) { i++; continue; }
            int j = i;
            if (c == '"') {
                j++;
                while (j < n && s.charAt(j) != '"') j += s.charAt(j) == '\\' ? 2 : 1;
                j = Math.min(n, j + 1);
            } else {
                while (j < n && !Character.isWhitespace(s.charAt(j))) j++;
            }
            out.add(s.substring(i, j));
            i = j;
        }
        return out;
    }

    /** {@code r}'s documents with every node's columns mapped back to the template's (see the class comment). */
    public static ReadResult mapBack(ReadResult r, Rendered rendered) {
        if (rendered.regions().isEmpty()) return r;
        return new ReadResult(r.file(), docs(r.documents(), rendered), r.problems(), r.manifest(), docs(r.foreign(), rendered),
                r.evidence());
    }

    private static List<Document> docs(List<Document> in, Rendered rendered) {
        List<Document> out = new ArrayList<>(in.size());
        for (Document d : in) out.add(new Document(d.file(), d.index(), (MappingNode) map(d.root(), rendered.regions()), d.folds()));
        return out;
    }

    private static Node map(Node n, Map<Integer, List<int[]>> regions) {
        if (n instanceof ScalarNode s) return new ScalarNode(s.text(), s.quoted(), span(s.span(), regions));
        if (n instanceof ListNode l) {
            List<Node> items = new ArrayList<>(l.items().size());
            for (Node c : l.items()) items.add(map(c, regions));
            return new ListNode(items, span(l.span(), regions));
        }
        MappingNode m = (MappingNode) n;
        List<MappingNode.Entry> entries = new ArrayList<>(m.entries().size());
        for (MappingNode.Entry e : m.entries()) entries.add(new MappingNode.Entry((ScalarNode) map(e.key(), regions), map(e.value(), regions)));
        return new MappingNode(entries, span(m.span(), regions));
    }

    private static Span span(Span s, Map<Integer, List<int[]>> regions) {
        if (s == null) return null;
        return new Span(s.file(), s.startLine(), column(s.startLine(), s.startColumn(), true, regions),
                s.endLine(), column(s.endLine(), s.endColumn(), false, regions));
    }

    /**
     * A rendered column on {@code line} as the template's: inside a substituted value, its expression's start or end
     * ({@code start} false: an end column, exclusive). A binary search over the line's regions, which are in order.
     */
    static int column(int line, int col, boolean start, Map<Integer, List<int[]>> regions) {
        List<int[]> rs = regions.get(line);
        if (rs == null) return col;
        // the last region {renderedStart, renderedEnd, templateStart, templateEnd} that a column here is at or past
        int lo = 0, hi = rs.size() - 1, k = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int[] r = rs.get(mid);
            if (start ? col >= r[0] : col > r[0]) { k = mid; lo = mid + 1; } else hi = mid - 1;
        }
        if (k < 0) return col;
        int[] r = rs.get(k);
        if (start ? col < r[1] : col <= r[1]) return start ? r[2] : r[3];
        return col + r[3] - r[1];
    }
}
