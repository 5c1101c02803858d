package dev.gpulint.core;

import java.util.Comparator;

/**
 * A region of a source file: 1-based lines and columns, end column exclusive
 * (SARIF's convention), so {@code endColumn - startColumn} is the length of a
 * one-line value.
 */
public record Span(String file, int startLine, int startColumn, int endLine, int endColumn)
        implements Comparable<Span> {

    private static final Comparator<Span> ORDER = Comparator.comparing(Span::file)
            .thenComparingInt(Span::startLine).thenComparingInt(Span::startColumn)
            .thenComparingInt(Span::endLine).thenComparingInt(Span::endColumn);

    public Span {
        if (startLine < 1) startLine = 1;
        if (startColumn < 1) startColumn = 1;
        if (endLine < startLine) { endLine = startLine; }
        if (endLine == startLine && endColumn < startColumn) endColumn = startColumn;
    }

    /** A point (empty region) at a line and column. */
    public static Span at(String file, int line, int column) {
        return new Span(file, line, column, line, column);
    }

    /** The start of this span up to the end of {@code other}. */
    public Span to(Span other) {
        return new Span(file, startLine, startColumn, other.endLine, other.endColumn);
    }

    /** Whether the position (line, column) lies within this span, its ends included. */
    public boolean covers(int line, int column) {
        return (line > startLine || line == startLine && column >= startColumn) && (line < endLine || line == endLine && column <= endColumn);
    }

    @Override public int compareTo(Span o) { return ORDER.compare(this, o); }

    @Override public String toString() { return file + ":" + startLine + ":" + startColumn; }

    /*
     * equals and hashCode written out, as the record's own would be: those go through java.lang.runtime.ObjectMethods,
     * whose first use costs a cold JVM tens of milliseconds of method-handle setup, and every lint pays it when a rule
     * tests a span (`nodesSpan != null` is an equals call in the executable model). SpanTest holds that every
     * component takes part.
     */
    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        return o instanceof Span s && startLine == s.startLine && startColumn == s.startColumn && endLine == s.endLine
                && endColumn == s.endColumn && java.util.Objects.equals(file, s.file);
    }

    @Override
    public int hashCode() {
        int h = java.util.Objects.hashCode(file);
        h = 31 * h + startLine;
        h = 31 * h + startColumn;
        h = 31 * h + endLine;
        return 31 * h + endColumn;
    }
}
