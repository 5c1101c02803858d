package dev.gpulint.bind.adapt;

import dev.gpulint.core.Span;
import java.util.Map;

/**
 * The digits of a whole number as a file writes them, for a value read beyond a long ({@link TreeValues#whole} binds it as
 * {@link Long#MAX_VALUE} or {@link Long#MIN_VALUE}, which no field's bounds admit): SYN002 then quotes the number written
 * ("'--num-layers' is 123456789012345678901; expected a whole number from 1 to ...") rather than the long it was clamped to.
 */
final class WrittenNumbers {
    private WrittenNumbers() {}

    /** The longest text looked at: a number of more characters is cut by Quantities.shortText in the message anyway. */
    private static final int MAX = 4096;

    /**
     * The whole number written at {@code s} in {@code texts} (by the span's file), its quotes and blanks stripped; null when
     * the file is not known, the span covers more than one line, or what it covers is not a whole number.
     */
    static String at(Map<String, String> texts, Span s) {
        String text = s == null ? null : texts.get(s.file());
        if (text == null || s.startLine() != s.endLine() || s.startLine() < 1 || s.startColumn() < 1) return null;
        int line = 1, at = 0;
        while (line < s.startLine()) {
            int nl = text.indexOf('\n', at);
            if (nl < 0) return null;
            at = nl + 1;
            line++;
        }
        int from = at + s.startColumn() - 1, to = at + s.endColumn() - 1;
        if (from >= text.length() || to > text.length() || to <= from || to - from > MAX) return null;
        String w = text.substring(from, to).strip();
        if (w.length() >= 2 && (w.charAt(0) == '"' || w.charAt(0) == '\'') && w.charAt(w.length() - 1) == w.charAt(0)) {
            w = w.substring(1, w.length() - 1).strip();
        }
        return w.matches("[-+]?[0-9][0-9_]*") ? w : null;
    }
}
