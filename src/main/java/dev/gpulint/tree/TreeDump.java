package dev.gpulint.tree;

import dev.gpulint.core.Span;

/**
 * A stable text dump of a tree with every span, for golden tests and for
 * {@code gpulint dump}: the same manifest in both syntaxes must dump alike
 * apart from the spans.
 */
public final class TreeDump {
    private TreeDump() {}

    public static String dump(Node node, boolean withSpans) {
        StringBuilder sb = new StringBuilder();
        dump(node, 0, withSpans, sb);
        return sb.toString();
    }

    private static void dump(Node node, int depth, boolean spans, StringBuilder sb) {
        String pad = "  ".repeat(depth);
        if (node instanceof MappingNode m) {
            sb.append(pad).append("map").append(spans ? " " + range(m.span()) : "").append('\n');
            for (MappingNode.Entry e : m.entries()) {
                sb.append(pad).append("  key ").append(quote(e.key().text()))
                  .append(spans ? " " + range(e.key().span()) : "").append('\n');
                dump(e.value(), depth + 2, spans, sb);
            }
        } else if (node instanceof ListNode l) {
            sb.append(pad).append("list").append(spans ? " " + range(l.span()) : "").append('\n');
            for (Node item : l.items()) dump(item, depth + 1, spans, sb);
        } else if (node instanceof ScalarNode s) {
            sb.append(pad).append(s.quoted() ? "str " : "scalar ").append(quote(s.text()))
              .append(spans ? " " + range(s.span()) : "").append('\n');
        }
    }

    private static String range(Span s) {
        return s.startLine() + ":" + s.startColumn() + "-" + s.endLine() + ":" + s.endColumn();
    }

    private static String quote(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + '"';
    }
}
