package dev.gpulint.discover;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The cluster manifest {@code gpulint discover} writes, as a small tree of blocks and values, each
 * value with the comment that says where it comes from; written as YAML or as the .topo DSL
 * (docs/format.md: both bind to the same schema).
 */
final class Manifest {
    private Manifest() {}

    /** How a value is written: a string (quoted where needed), or a word (number, boolean, enum value, bandwidth). */
    enum Kind { STRING, WORD }

    /** A value: its text, how it is written, and the comment naming its source. */
    record Val(String text, Kind kind, String source) {}

    /** {@code key: value}. */
    record Field(String key, Val value) implements Item {}

    /** A block: {@code key:} with its items (YAML), {@code key "label" { ... }} (DSL); {@code listKey} makes it a list item in YAML. */
    record Block(String key, String label, String listKey, List<Item> items) implements Item {}

    /** A comment line of its own. */
    record Note(String text) implements Item {}

    sealed interface Item permits Field, Block, Note {}

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._/-]{0,127}");

    /** YAML: the header comment, then the cluster document. */
    static String yaml(List<String> header, Block cluster) {
        StringBuilder sb = new StringBuilder();
        for (String h : header) sb.append("# ").append(comment(h)).append('\n');
        sb.append("kind: cluster\n");
        sb.append("name: ").append(yamlScalar(new Val(cluster.label(), Kind.STRING, ""))).append('\n');
        yamlItems(cluster.items(), "", sb);
        return sb.toString();
    }

    private static void yamlItems(List<Item> items, String indent, StringBuilder sb) {
        String lastList = null;
        for (Item it : items) {
            if (it instanceof Note n) {
                sb.append(indent).append("# ").append(comment(n.text())).append('\n');
            } else if (it instanceof Field f) {
                line(sb, indent + f.key() + ": " + yamlScalar(f.value()), f.value().source());
            } else if (it instanceof Block b && b.listKey() != null) {
                if (!b.listKey().equals(lastList)) sb.append(indent).append(b.listKey()).append(":\n");
                lastList = b.listKey();
                List<Item> inner = new ArrayList<>();
                if (b.label() != null) inner.add(new Field("name", new Val(b.label(), Kind.STRING, "")));
                inner.addAll(b.items());
                // the first item's line carries the list dash
                StringBuilder item = new StringBuilder();
                yamlItems(inner, indent + "    ", item);
                String text = item.toString();
                int firstContent = firstNonComment(text, indent + "    ");
                sb.append(text, 0, firstContent).append(indent).append("  - ").append(text.substring(firstContent + indent.length() + 4));
                continue;
            } else if (it instanceof Block b) {
                sb.append(indent).append(b.key()).append(":\n");
                yamlItems(b.items(), indent + "  ", sb);
            }
            lastList = null;
        }
    }

    /** Where the first line that is no comment starts. */
    private static int firstNonComment(String text, String indent) {
        int at = 0;
        while (text.startsWith(indent + "#", at)) at = text.indexOf('\n', at) + 1;
        return at;
    }

    private static String yamlScalar(Val v) {
        if (v.kind() == Kind.WORD || PLAIN.matcher(v.text()).matches() && !v.text().equalsIgnoreCase("true")
                && !v.text().equalsIgnoreCase("false") && !v.text().matches("[0-9.eE+-]+")) return v.text();
        return quoted(v.text());
    }

    /** The .topo DSL: the header comment, then the cluster block. */
    static String topo(List<String> header, Block cluster) {
        StringBuilder sb = new StringBuilder();
        for (String h : header) sb.append("# ").append(comment(h)).append('\n');
        sb.append("cluster ").append(quoted(cluster.label())).append(" {\n");
        topoItems(cluster.items(), "  ", sb);
        sb.append("}\n");
        return sb.toString();
    }

    private static void topoItems(List<Item> items, String indent, StringBuilder sb) {
        for (Item it : items) {
            if (it instanceof Note n) {
                sb.append(indent).append("# ").append(comment(n.text())).append('\n');
            } else if (it instanceof Field f) {
                line(sb, indent + f.key() + " = " + (f.value().kind() == Kind.WORD ? f.value().text() : quoted(f.value().text())),
                        f.value().source());
            } else if (it instanceof Block b) {
                sb.append(indent).append(b.key()).append(b.label() == null ? "" : " " + quoted(b.label())).append(" {\n");
                topoItems(b.items(), indent + "  ", sb);
                sb.append(indent).append("}\n");
            }
        }
    }

    private static void line(StringBuilder sb, String text, String source) {
        sb.append(text);
        if (source != null && !source.isEmpty()) sb.append(" ".repeat(Math.max(1, 44 - text.length()))).append("# ").append(comment(source));
        sb.append('\n');
    }

    /**
     * A comment's text on one line: what a capture holds (a CA name, a file name) may hold a line feed, a CR, NEL,
     * U+2028 or U+2029 (YAML 1.1 readers and editors end a line at each) or an escape sequence; shown as the text
     * report shows them ({@code \\n}, {@code \\x85}, {@code \\u2028}), so a comment can never end early and write
     * a key into the manifest.
     */
    static String comment(String s) {
        return dev.gpulint.report.Visible.of(s);
    }

    /** A double-quoted string of YAML and the DSL: quote and backslash escaped; a control character or line separator as a space. */
    private static String quoted(String s) {
        StringBuilder q = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') q.append('\\');
            q.append(c < ' ' || c >= 0x7f && c <= 0x9f || c == '\u2028' || c == '\u2029' ? ' ' : c);
        }
        return q.append('"').toString();
    }
}
