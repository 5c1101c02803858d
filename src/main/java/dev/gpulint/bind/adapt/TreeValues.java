package dev.gpulint.bind.adapt;

import dev.gpulint.spec.Located;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import java.util.ArrayList;
import java.util.List;

/** Reading values out of another format's document tree: paths, numbers written as strings, placeholders. */
public final class TreeValues {
    private TreeValues() {}

    public static Node at(Node n, String... path) {
        for (String k : path) {
            if (!(n instanceof MappingNode m)) return null;
            n = m.get(k).orElse(null);
        }
        return n;
    }

    public static MappingNode map(Node n, String... path) {
        return at(n, path) instanceof MappingNode m ? m : null;
    }

    public static ScalarNode scalar(Node n, String... path) {
        return at(n, path) instanceof ScalarNode s ? s : null;
    }

    public static List<Node> list(Node n, String... path) {
        return at(n, path) instanceof ListNode l ? l.items() : List.of();
    }

    public static List<MappingNode> maps(Node n, String... path) {
        List<MappingNode> out = new ArrayList<>();
        for (Node i : list(n, path)) if (i instanceof MappingNode m) out.add(m);
        return out;
    }

    public static String text(Node n, String... path) {
        ScalarNode s = scalar(n, path);
        return s == null || s.isNull() ? null : s.text();
    }

    /**
     * The binder's placeholders ({@link dev.gpulint.bind.Binder#placeholder}), and what other formats
     * add: values that only contain an interpolation ("${base}/x", "{{ .Values.n }}x"), and null.
     */
    public static boolean placeholder(String t) {
        String v = t.strip();
        return dev.gpulint.bind.Binder.placeholder(v) || v.contains("${") || v.startsWith("$") || v.contains("{{")
                || v.equalsIgnoreCase("null") || v.equals("~") || v.isEmpty();
    }

    /** A whole number written plainly or as a string ("8"); null for placeholders, floats, -1 and anything else. */
    public static Located<Long> integer(ScalarNode s) {
        if (s == null || s.isNull() || placeholder(s.text())) return null;
        String t = s.text().strip();
        if (!t.matches("[0-9]{1,15}")) return null;
        return new Located<>(Long.parseLong(t), s.span());
    }

    /**
     * A whole number that binds to a schema field and is checked against its bounds there: like
     * {@link #integer(ScalarNode)}, but a sign and any number of digits are read, so that -2 or
     * 2^62 is reported rather than taken as unknown. Beyond a long it is {@link Long#MAX_VALUE}
     * ({@link Long#MIN_VALUE} below), which no field's bounds admit, so that it is reported too
     * ({@link dev.gpulint.bind.Schema.Field#outOfRange(String, long)} words the two), never dropped.
     */
    public static Located<Long> whole(ScalarNode s) {
        if (s == null || s.isNull() || placeholder(s.text())) return null;
        return whole(s.text(), s.span());
    }

    static Located<Long> whole(String text, dev.gpulint.core.Span span) {
        String t = text.strip();
        if (!t.matches("-?[0-9]+")) return null;
        try {
            return new Located<>(Long.parseLong(t), span);
        } catch (NumberFormatException e) {
            return new Located<>(t.startsWith("-") ? Long.MIN_VALUE : Long.MAX_VALUE, span);
        }
    }

    public static Located<Long> integer(Node n, String... path) {
        return integer(scalar(n, path));
    }

    public static Located<String> string(ScalarNode s) {
        if (s == null || s.isNull()) return null;
        return new Located<>(s.text(), s.span());
    }

    public static Located<Boolean> bool(ScalarNode s) {
        if (s == null || s.isNull()) return null;
        Boolean b = boolWord(s.text());
        return b == null ? null : new Located<>(b, s.span());
    }

    /** The boolean a word is written for (true/1/yes, false/0/no, without case or surrounding space), or null for any other. */
    static Boolean boolWord(String text) {
        String t = text.strip().toLowerCase(java.util.Locale.ROOT);
        if (t.equals("true") || t.equals("1") || t.equals("yes")) return true;
        if (t.equals("false") || t.equals("0") || t.equals("no")) return false;
        return null;
    }
}
