package dev.gpulint.tree;

import dev.gpulint.core.Span;
import java.util.Objects;

/**
 * A scalar exactly as written: its text without quotes, whether it was quoted
 * (a quoted "8" is a string, a plain 8 a number), and its span.
 *
 * <p>Equal as a record of (text, quoted, span) would be. The span's numbers are held in the node
 * itself, not in a {@link Span} object: scalars are most of a document tree, and a fleet file has
 * tens of millions of them (one object fewer each is a fifth of the tree's memory and of the
 * collector's work on it). {@link #span()} builds the Span when it is asked for.
 */
public final class ScalarNode implements Node {
    private final String text;
    private final boolean quoted;
    private final String file;
    private final int startLine, startColumn, endLine, endColumn;

    public ScalarNode(String text, boolean quoted, Span span) {
        this.text = text;
        this.quoted = quoted;
        // a null span stays null, as the record kept it (startLine 0 marks it: a Span's lines start at 1)
        this.file = span == null ? null : span.file();
        this.startLine = span == null ? 0 : span.startLine();
        this.startColumn = span == null ? 0 : span.startColumn();
        this.endLine = span == null ? 0 : span.endLine();
        this.endColumn = span == null ? 0 : span.endColumn();
    }

    public String text() { return text; }

    // the span's numbers without building it (startLine 0: no span), for walks over many nodes
    int startLine() { return startLine; }
    int startColumn() { return startColumn; }
    int endLine() { return endLine; }
    int endColumn() { return endColumn; }

    public boolean quoted() { return quoted; }

    @Override public Span span() {
        return startLine == 0 ? null : new Span(file, startLine, startColumn, endLine, endColumn);
    }

    @Override public String describe() { return quoted ? "a quoted string" : "a value"; }

    /** Plain null, ~ or empty: YAML's null. */
    public boolean isNull() {
        return !quoted && (text.isEmpty() || text.equals("~") || text.equalsIgnoreCase("null"));
    }

    @Override public boolean equals(Object o) {
        return o instanceof ScalarNode s && quoted == s.quoted && Objects.equals(text, s.text) && Objects.equals(file, s.file)
                && startLine == s.startLine && startColumn == s.startColumn && endLine == s.endLine && endColumn == s.endColumn;
    }

    @Override public int hashCode() {
        return Objects.hash(text, quoted, file, startLine, startColumn, endLine, endColumn);
    }

    @Override public String toString() { return "ScalarNode[text=" + text + ", quoted=" + quoted + ", span=" + span() + "]"; }
}
