package dev.gpulint.read.dsl;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Span;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.LexerNoViableAltException;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.Vocabulary;
import org.antlr.v4.runtime.misc.Interval;
import org.antlr.v4.runtime.misc.IntervalSet;

/**
 * Collects the syntax errors ANTLR's recovery finds, phrased for a person (what was found, what
 * was expected): at most one per line, so that one mistake does not cascade into noise, and at
 * most {@link #MAX} per file.
 */
final class SyntaxErrors extends BaseErrorListener {
    static final int MAX = 10;
    private final String file;
    final List<Finding> found = new ArrayList<>();
    private final java.util.Set<Integer> lines = new java.util.HashSet<>();

    SyntaxErrors(String file) { this.file = file; }

    @Override
    public void syntaxError(Recognizer<?, ?> recognizer, Object offending, int line, int col,
                            String msg, RecognitionException e) {
        if (found.size() >= MAX || !lines.add(line)) return;
        // after an error, "unexpected end of file" is the recovery's echo of it, not news
        if (!found.isEmpty() && offending instanceof Token t && t.getType() == Token.EOF) return;
        String text;
        int width = 1;
        if (offending instanceof Token t) {
            String found = t.getType() == Token.EOF ? "end of file" : "'" + t.getText() + "'";
            width = t.getType() == Token.EOF ? 0 : Math.max(1, t.getText().length());
            String expected = recognizer instanceof Parser p ? expected(p) : "";
            text = "unexpected " + found + (expected.isEmpty() ? "" : "; expected " + expected);
        } else if (e instanceof LexerNoViableAltException lx) {
            String bad = lx.getInputStream().getText(Interval.of(lx.getStartIndex(), lx.getStartIndex()));
            text = "unexpected character '" + bad + "'";
        } else {
            text = msg;
        }
        found.add(Finding.of("SYN001", new Span(file, line, col + 1, line, col + 1 + width), "syntax",
                "syntax error: " + text));
    }

    private static String expected(Parser p) {
        IntervalSet set;
        try {
            set = p.getExpectedTokens();
        } catch (RuntimeException ex) {
            return "";
        }
        Vocabulary v = p.getVocabulary();
        TreeSet<String> names = new TreeSet<>();
        for (int type : set.toList()) names.add(describe(type, v));
        return String.join(" or ", names);
    }

    private static String describe(int type, Vocabulary v) {
        return switch (type) {
            case Token.EOF -> "end of file";
            case TopoLexer.WORD -> "a name";
            case TopoLexer.NUMBER -> "a number";
            case TopoLexer.STRING -> "a quoted string";
            default -> v.getLiteralName(type) != null ? v.getLiteralName(type) : v.getDisplayName(type);
        };
    }
}
