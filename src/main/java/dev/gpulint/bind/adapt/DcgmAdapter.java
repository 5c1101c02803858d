package dev.gpulint.bind.adapt;

import dev.gpulint.bind.adapt.shell.ScalarText;
import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.maps;
import static dev.gpulint.bind.adapt.TreeValues.scalar;
import static dev.gpulint.bind.adapt.TreeValues.text;

import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import dev.gpulint.read.csv.CsvReader;
import dev.gpulint.tree.Document;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Consumer;

/**
 * GPU monitoring configuration: dcgm-exporter counter lists ({@code field, type, help} CSV, on
 * its own or embedded in a ConfigMap's {@code data}), and Prometheus rule files (plain
 * {@code groups:} or a PrometheusRule object), whose expressions are scanned for the DCGM
 * metrics they use and the function applied to each.
 */
final class DcgmAdapter {
    DcgmAdapter() {}


    /** dcgm-exporter's counter list (a CSV of DCGM_FI_* fields, as YAML or plain). */
    static final class CounterList implements FormatAdapter {
        @Override public String id() { return "dcgm-counter-list"; }
        @Override public String displayName() { return "DCGM counter list"; }
        @Override public boolean accepts(ForeignDocument doc) { return isCounterList(doc.root()); }
        @Override public void bind(ForeignDocument doc, DraftSink sink) { counters(doc.root(), doc.file(), sink::counter); }
    }

    /** A Kubernetes ConfigMap that holds dcgm-exporter's counter list. */
    static final class ConfigMap implements FormatAdapter {
        @Override public String id() { return "dcgm-configmap"; }
        @Override public String displayName() { return "DCGM ConfigMap"; }
        @Override public boolean accepts(ForeignDocument doc) { return isConfigMapWithCounters(doc.root()); }
        @Override public void bind(ForeignDocument doc, DraftSink sink) {
            configMap(doc.root(), doc.file(), doc.text(), sink::counter);
        }
    }

    /** Prometheus alerting and recording rules over DCGM metrics. */
    static final class PrometheusRules implements FormatAdapter {
        @Override public String id() { return "prometheus-rules"; }
        @Override public String displayName() { return "Prometheus rules"; }
        @Override public boolean accepts(ForeignDocument doc) { return isRuleFile(doc.root()); }
        @Override public void bind(ForeignDocument doc, DraftSink sink) {
            rules(doc.root(), doc.file(), doc.text(), sink::query);
        }
    }

    /** A DCGM field name: DCGM_FI_..., or dcgm-exporter 1.x's lower-case dcgm_fi_... (the same fields). */
    static boolean isFieldName(String t) { return t.startsWith("DCGM_FI_") || t.startsWith("dcgm_fi_"); }

    private static boolean mentionsField(String t) { return t.contains("DCGM_FI_") || t.contains("dcgm_fi_"); }

    /** A CSV document whose rows name DCGM fields. */
    static boolean isCounterList(MappingNode root) {
        Node rows = root.get("csv").orElse(null);
        if (!(rows instanceof ListNode l) || root.entries().size() != 1) return false;
        for (Node r : l.items()) {
            if (r instanceof ListNode row && !row.items().isEmpty() && row.items().get(0) instanceof ScalarNode s
                    && isFieldName(s.text())) return true;
        }
        return false;
    }

    static void counters(MappingNode root, String file, Consumer<Specs.DcgmField> out) {
        for (Node r : TreeValues.list(root, "csv")) {
            if (!(r instanceof ListNode row) || row.items().isEmpty() || !(row.items().get(0) instanceof ScalarNode name)) continue;
            if (!isFieldName(name.text()) && !name.text().startsWith("DCGM_") && !name.text().matches("[A-Z][A-Z0-9_]+")) continue;
            ScalarNode type = row.items().size() > 1 && row.items().get(1) instanceof ScalarNode t ? t : null;
            ScalarNode help = row.items().size() > 2 && row.items().get(2) instanceof ScalarNode h ? h : null;
            out.accept(new Specs.DcgmField(new Located<>(name.text(), name.span()), TreeValues.string(type), TreeValues.string(help), file));
        }
    }

    /** A ConfigMap whose data holds a counter list. */
    static boolean isConfigMapWithCounters(MappingNode root) {
        if (!"ConfigMap".equals(text(root, "kind"))) return false;
        MappingNode data = map(root, "data");
        return data != null && data.entries().stream().anyMatch(e -> e.value() instanceof ScalarNode s && mentionsField(s.text()));
    }

    static void configMap(MappingNode root, String file, String source, Consumer<Specs.DcgmField> out) {
        for (MappingNode.Entry e : map(root, "data").entries()) {
            if (!(e.value() instanceof ScalarNode s) || !mentionsField(s.text())) continue;
            ScalarText t = ScalarText.of(source, s);
            // each line of the value is a row; its first character's place anchors the row's cells
            String v = s.text();
            int start = 0;
            for (String line : v.split("\n", -1)) {
                var sp = t.span(start, start + Math.max(1, line.length()));
                Document d = CsvReader.document(file, line, sp.startLine(), sp.startColumn());
                counters(d.root(), file, out);
                start += line.length() + 1;
            }
        }
    }

    static boolean isRuleFile(MappingNode root) {
        MappingNode holder = "PrometheusRule".equals(text(root, "kind")) ? map(root, "spec") : root;
        if (holder == null) return false;
        for (MappingNode g : maps(holder, "groups")) {
            for (MappingNode r : maps(g, "rules")) if (scalar(r, "expr") != null) return true;
        }
        return false;
    }

    static void rules(MappingNode root, String file, String source, Consumer<Specs.MetricQuery> out) {
        MappingNode holder = "PrometheusRule".equals(text(root, "kind")) ? map(root, "spec") : root;
        for (MappingNode g : maps(holder, "groups")) {
            for (MappingNode r : maps(g, "rules")) {
                ScalarNode expr = scalar(r, "expr");
                if (expr == null || expr.isNull()) continue;
                String owner = text(r, "record") != null ? "recording rule '" + text(r, "record") + "'"
                        : text(r, "alert") != null ? "alert '" + text(r, "alert") + "'" : "a rule of group '" + text(g, "name") + "'";
                scanExpr(ScalarText.of(source, expr), owner, file, out);
            }
        }
    }

    /** Every DCGM metric in a PromQL expression, with the innermost function around it. */
    static void scanExpr(ScalarText t, String owner, String file, Consumer<Specs.MetricQuery> out) {
        String e = t.value();
        Deque<String> calls = new ArrayDeque<>();
        int i = 0;
        while (i < e.length()) {
            char c = e.charAt(i);
            if (c == '"' || c == '\'') {
                int close = e.indexOf(c, i + 1);
                i = close < 0 ? e.length() : close + 1;
                continue;
            }
            if (Character.isLetter(c) || c == '_') {
                int j = i;
                while (j < e.length() && (Character.isLetterOrDigit(e.charAt(j)) || e.charAt(j) == '_' || e.charAt(j) == ':')) j++;
                String word = e.substring(i, j);
                int k = j;
                while (k < e.length() && Character.isWhitespace(e.charAt(k))) k++;
                if (k < e.length() && e.charAt(k) == '(') {
                    calls.push(word.toLowerCase(java.util.Locale.ROOT));
                    i = k + 1;
                    continue;
                }
                if (k < e.length() && e.charAt(k) == '{' ) {
                    // label matchers: skip to the closing brace (their values are strings)
                    int close = e.indexOf('}', k);
                    if (word.toUpperCase(java.util.Locale.ROOT).startsWith("DCGM_FI_")) record(t, i, j, calls, owner, file, out);
                    i = close < 0 ? e.length() : close + 1;
                    continue;
                }
                if (word.toUpperCase(java.util.Locale.ROOT).startsWith("DCGM_FI_")) record(t, i, j, calls, owner, file, out);
                i = j;
                continue;
            }
            if (c == '(') calls.push("");
            else if (c == ')' && !calls.isEmpty()) calls.pop();
            i++;
        }
    }

    private static void record(ScalarText t, int from, int to, Deque<String> calls, String owner, String file,
                               Consumer<Specs.MetricQuery> out) {
        String fn = "";
        for (String f : calls) { if (!f.isEmpty()) { fn = f; break; } }
        out.accept(new Specs.MetricQuery(new Located<>(t.value().substring(from, to), t.span(from, to)), fn, owner, file));
    }
}
