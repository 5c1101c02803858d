package dev.gpulint.tree;

import dev.gpulint.core.Span;

/**
 * A scalar exactly as written: its text without quotes, whether it was quoted
 * (a quoted "8" is a string, a plain 8 a number), and its span.
 */
public record ScalarNode(String text, boolean quoted, Span span) implements Node {
    @Override public String describe() { return quoted ? "a quoted string" : "a value"; }

    /** Plain null, ~ or empty: YAML's null. */
    public boolean isNull() {
        return !quoted && (text.isEmpty() || text.equals("~") || text.equalsIgnoreCase("null"));
    }
}
