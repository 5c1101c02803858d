package dev.gpulint.core;

import java.util.Objects;

/**
 * One edit of a {@link Fix}: the text of {@code span} becomes {@code replacement}. Span-based, so nothing
 * around it moves: comments, quoting and layout of the file stay as they were (YAML, DSL, JSON, TOML, launch
 * scripts, CSV alike).
 *
 * <p>A rule knows where a value is written, not always how (quoted or not, with what spacing): with
 * {@code match} the edit replaces the one occurrence of {@code match} inside {@code span} instead of the
 * whole span ({@code "GB/s"} within {@code speed: "400 GB/s"}). {@link #resolve} narrows it against the file's
 * text; an edit whose span or match the text does not hold (the file changed, the match is not there or is
 * there twice) resolves to nothing, and its fix is dropped: a fix never edits what it did not look at.
 *
 * <p>Offsets count characters as columns do (Unicode code points, SARIF's {@code unicodeCodePoints}) from the
 * file's first character (after a byte-order mark); they are -1 until resolved.
 *
 * @param span        where: 1-based lines and columns, end exclusive ({@link Span})
 * @param replacement the new text ("" deletes)
 * @param match       the text to replace inside span, or null for the whole span; after {@link #resolve}, the
 *                    text the edit replaces
 * @param startOffset the code-point offset of the span's start, or -1
 * @param endOffset   the code-point offset of the span's end (exclusive), or -1
 */
public record TextEdit(Span span, String replacement, String match, int startOffset, int endOffset) {
    public TextEdit {
        Objects.requireNonNull(span);
        Objects.requireNonNull(replacement);
    }

    /** Replaces the whole of span. */
    public static TextEdit replace(Span span, String replacement) {
        return new TextEdit(span, replacement, null, -1, -1);
    }

    /** Replaces the one occurrence of {@code match} inside span. */
    public static TextEdit within(Span span, String match, String replacement) {
        return new TextEdit(span, replacement, Objects.requireNonNull(match), -1, -1);
    }

    /** Inserts text at a point. */
    public static TextEdit insert(String file, int line, int column, String text) {
        return new TextEdit(Span.at(file, line, column), text, null, -1, -1);
    }

    /** Whether {@link #resolve} has placed it (offsets known). */
    public boolean resolved() { return startOffset >= 0; }

    /** The edit's file (its span's display path). */
    public String file() { return span.file(); }

    /** The same edit at another place (a folded node group's member, see settle.Unfolder). */
    public TextEdit at(Span other) {
        return new TextEdit(other, replacement, match, -1, -1);
    }

    /**
     * This edit placed in {@code text} (the file's whole text, as read): the span narrowed to its match, offsets
     * set; null when the text does not hold it (a line or column past the end, the match absent or not unique).
     * Builds the text's line index: to place many edits in one text, use {@link #resolve(LineBreaks.Index)}.
     */
    public TextEdit resolve(String text) {
        return resolve(new LineBreaks.Index(text));
    }

    /** {@link #resolve(String)} in an index built once for the text: costs the span's lines, not the whole text. */
    public TextEdit resolve(LineBreaks.Index index) {
        String text = index.text();
        int[] starts = index.starts();
        int from = index(text, starts, span.startLine(), span.startColumn());
        int to = index(text, starts, span.endLine(), span.endColumn());
        if (from < 0 || to < from) return null;
        int a = from, b = to;
        if (match != null) {
            String within = text.substring(from, to);
            int at = within.indexOf(match);
            if (at < 0 || match.isEmpty() || within.indexOf(match, at + 1) >= 0) return null;
            a = from + at;
            b = a + match.length();
        }
        int la = index.line(a), lb = index.line(b);
        Span s = new Span(span.file(), la + 1, text.codePointCount(starts[la], a) + 1, lb + 1, text.codePointCount(starts[lb], b) + 1);
        return new TextEdit(s, replacement, text.substring(a, b), index.codePoints(a), index.codePoints(b));
    }

    /** The UTF-16 index of (line, column) in text, or -1 past its end (a column may stop at its line's end). */
    public static int index(String text, int[] starts, int line, int column) {
        if (line < 1 || line > starts.length || column < 1) return -1;
        int i = starts[line - 1], end = LineBreaks.end(text, starts, line - 1);
        for (int c = 1; c < column; c++) {
            if (i >= end) return -1;
            i += Character.charCount(text.codePointAt(i));
        }
        return i;
    }
}
