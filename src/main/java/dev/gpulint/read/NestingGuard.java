package dev.gpulint.read;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Span;
import java.util.Optional;

/**
 * Refuses documents nested deeper than a limit before a recursive parser
 * meets them: 10,000 nested brackets would otherwise overflow the parser's
 * stack. Counts '{' and '[' outside strings and comments, which is where deep
 * nesting comes from in both syntaxes (YAML flow collections, DSL blocks).
 */
public final class NestingGuard {
    public static final int MAX_DEPTH = 256;

    private NestingGuard() {}

    public static Optional<Finding> check(SourceFile f, boolean yaml) {
        String t = f.text();
        int depth = 0, line = 1, col = 1;
        char quote = 0;
        boolean lineComment = false, blockComment = false;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            char next = i + 1 < t.length() ? t.charAt(i + 1) : 0;
            if (c == '\n') { line++; col = 1; lineComment = false; if (yaml) quote = 0; continue; }
            if (lineComment) { col++; continue; }
            if (blockComment) {
                if (c == '*' && next == '/') { blockComment = false; i++; col++; }
                col++;
                continue;
            }
            if (quote != 0) {
                if (c == '\\' && quote == '"') { i++; col += 2; continue; }
                if (c == quote) quote = 0;
                col++;
                continue;
            }
            if (c == '"' || (yaml && c == '\'')) quote = c;
            else if (c == '#' && (!yaml || i == 0 || Character.isWhitespace(t.charAt(i - 1)))) lineComment = true;
            else if (!yaml && c == '/' && next == '/') lineComment = true;
            else if (!yaml && c == '/' && next == '*') { blockComment = true; i++; col++; }
            else if (c == '{' || c == '[') {
                if (++depth > MAX_DEPTH) {
                    return Optional.of(Finding.of("SYN001", new Span(f.displayPath(), line, col, line, col + 1), "syntax",
                            "nesting deeper than " + MAX_DEPTH + " levels: gpulint stops reading this file here (manifests "
                                    + "need a handful of levels)"));
                }
            } else if ((c == '}' || c == ']') && depth > 0) depth--;
            col++;
        }
        return Optional.empty();
    }
}
