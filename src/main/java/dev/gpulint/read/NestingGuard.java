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

    /** The ASCII characters that can change the guard's state: everything else is passed over in runs. */
    private static final boolean[] SPECIAL = new boolean[128];
    static {
        for (char c : "\n\"'#/*{[]}\\".toCharArray()) SPECIAL[c] = true;
    }

    public static Optional<Finding> check(SourceFile f, boolean yaml) {
        String t = f.text();
        int n = t.length();
        int depth = 0;
        char quote = 0;
        boolean lineComment = false, blockComment = false;
        // one pass over every character of the file, copied out in chunks (cheaper per character than charAt);
        // the line and column are counted only for the finding
        char[] chunk = new char[8192];
        int chunkStart = 0, chunkEnd = 0;
        for (int i = 0; i < n; i++) {
            if (i >= chunkEnd) {
                chunkStart = i;
                chunkEnd = Math.min(n, i + chunk.length);
                t.getChars(chunkStart, chunkEnd, chunk, 0);
            }
            char c = chunk[i - chunkStart];
            if (c < 128 && !SPECIAL[c]) {
                // most of a file is text that changes no state: skip the run of it within the chunk
                int j = i - chunkStart + 1, end = chunkEnd - chunkStart;
                while (j < end && chunk[j] < 128 && !SPECIAL[chunk[j]]) j++;
                i = chunkStart + j - 1;
                continue;
            }
            if (c == '\n') { lineComment = false; if (yaml) quote = 0; continue; }
            if (lineComment) continue;
            if (blockComment) {
                if (c == '*' && i + 1 < n && t.charAt(i + 1) == '/') { blockComment = false; i++; }
                continue;
            }
            if (quote != 0) {
                if (c == '\\' && quote == '"') i++;
                else if (c == quote) quote = 0;
                continue;
            }
            switch (c) {
                case '"' -> quote = c;
                case '\'' -> { if (yaml) quote = c; }
                case '#' -> { if (!yaml || i == 0 || Character.isWhitespace(t.charAt(i - 1))) lineComment = true; }
                case '/' -> {
                    char next = i + 1 < n ? t.charAt(i + 1) : 0;
                    if (!yaml && next == '/') lineComment = true;
                    else if (!yaml && next == '*') { blockComment = true; i++; }
                }
                case '{', '[' -> {
                    if (++depth > MAX_DEPTH) return Optional.of(tooDeep(f, t, i));
                }
                case '}', ']' -> { if (depth > 0) depth--; }
                default -> { }
            }
        }
        return Optional.empty();
    }

    private static Finding tooDeep(SourceFile f, String t, int at) {
        int line = 1, lineStart = 0;
        for (int i = 0; i < at; i++) if (t.charAt(i) == '\n') { line++; lineStart = i + 1; }
        int col = at - lineStart + 1;
        return Finding.of("SYN001", new Span(f.displayPath(), line, col, line, col + 1), "syntax",
                "nesting deeper than " + MAX_DEPTH + " levels: gpulint stops reading this file here (manifests "
                        + "need a handful of levels)");
    }
}
