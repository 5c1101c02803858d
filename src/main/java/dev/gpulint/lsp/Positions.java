package dev.gpulint.lsp;

import dev.gpulint.core.LineBreaks;
import dev.gpulint.core.Span;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;

/**
 * gpulint's places in a text as the Language Server Protocol counts them. gpulint's spans count lines from 1 and
 * columns from 1 in Unicode code points (SARIF's {@code unicodeCodePoints}); LSP counts both from 0, and columns in
 * UTF-16 code units (its default position encoding): a character outside the Basic Multilingual Plane (an emoji) is
 * one column to gpulint and two to an editor. Lines end at {@code \n}, {@code \r\n} or a lone {@code \r} in both.
 * Places past a line's end (or past the last line) are clamped to it.
 */
public final class Positions {
    private final String text;
    private final int[] starts;

    public Positions(String text) {
        this.text = text;
        this.starts = LineBreaks.starts(text);
    }

    /** The LSP range of a span of this text. */
    public Range range(Span s) {
        Position start = position(s.startLine(), s.startColumn());
        Position end = position(s.endLine(), s.endColumn());
        if (end.getLine() < start.getLine() || end.getLine() == start.getLine() && end.getCharacter() < start.getCharacter()) end = start;
        return new Range(start, end);
    }

    /** The LSP position of gpulint's (line, column), both from 1, the column in code points. */
    public Position position(int line, int column) {
        int k = Math.min(Math.max(line, 1), starts.length) - 1;
        int from = starts[k], end = LineBreaks.end(text, starts, k);
        int at = from, cps = 1;
        while (cps < column && at < end) {
            at += Character.charCount(text.codePointAt(at));
            cps++;
        }
        return new Position(k, Math.min(at, end) - from);
    }

    /** gpulint's (line, column) of an LSP position: both from 1, the column in code points. */
    public int[] lineColumn(Position p) {
        int k = Math.min(Math.max(p.getLine(), 0), starts.length - 1);
        int from = starts[k], end = LineBreaks.end(text, starts, k);
        int to = from + Math.min(Math.max(p.getCharacter(), 0), end - from);     // no overflow far past the end
        if (to > from && to < end && Character.isLowSurrogate(text.charAt(to))) to--;
        return new int[] {k + 1, text.codePointCount(from, to) + 1};
    }

    /** The offset in the text (UTF-16 units) of an LSP position, clamped to its line. */
    public int offset(Position p) {
        int k = Math.min(Math.max(p.getLine(), 0), starts.length - 1);
        int from = starts[k];
        return from + Math.min(Math.max(p.getCharacter(), 0), LineBreaks.end(text, starts, k) - from);
    }

    /** The text of line {@code k} (from 0) without its line break; empty past the last line. */
    public String line(int k) {
        if (k < 0 || k >= starts.length) return "";
        return text.substring(starts[k], LineBreaks.end(text, starts, k));
    }

    /** How many lines the text has (an empty text has one). */
    public int lines() { return starts.length; }
}
