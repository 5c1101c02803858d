package dev.gpulint.read.dsl;

import dev.gpulint.read.ReadResult;
import dev.gpulint.read.SourceFile;
import dev.gpulint.core.Finding;
import dev.gpulint.tree.Document;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import dev.gpulint.core.Span;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.LexerNoViableAltException;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.Vocabulary;
import org.antlr.v4.runtime.misc.Interval;
import org.antlr.v4.runtime.misc.IntervalSet;

/**
 * The `.topo` front end: the ANTLR parser of grammar/Topo.g4, turned into the
 * same document tree the YAML front end builds (docs/format.md, "Mapping between
 * the two"). ANTLR types never leave this package.
 */
public final class DslReader {

    /** Blocks that become list items under a plural key even when they appear once. */
    public static final Map<String, String> LIST_BLOCKS = Map.of("node_group", "node_groups", "nic", "nics");

    public ReadResult read(SourceFile file) {
        String name = file.displayPath();
        // A lone CR ends a line for editors and SARIF, not for ANTLR: make it a LF (same length, same offsets).
        CharStream chars = CharStreams.fromString(file.text().replaceAll("\r(?!\n)", "\n"), name);
        TopoLexer lexer = new TopoLexer(chars);
        TopoParser parser = new TopoParser(new CommonTokenStream(lexer));
        SyntaxErrors errors = new SyntaxErrors(name);
        lexer.removeErrorListeners();
        parser.removeErrorListeners();
        lexer.addErrorListener(errors);
        parser.addErrorListener(errors);
        TopoParser.FileContext tree = parser.file();
        if (!errors.found.isEmpty()) {
            return new ReadResult(file, List.of(), errors.found, true);
        }
        Builder b = new Builder(name, chars);
        List<Document> docs = new ArrayList<>();
        int index = 0;
        for (TopoParser.BlockContext block : tree.block()) {
            docs.add(new Document(name, index++, b.topLevel(block)));
        }
        return new ReadResult(file, docs, List.of(), true);
    }

    /**
     * Collects the syntax errors ANTLR's recovery finds, phrased for a person (what was found, what
     * was expected): at most one per line, so that one mistake does not cascade into noise, and at
     * most {@link #MAX} per file.
     */
    private static final class SyntaxErrors extends BaseErrorListener {
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

    /** Parse tree to document tree. */
    private static final class Builder {
        private final String file;
        private final CharStream chars;

        Builder(String file, CharStream chars) { this.file = file; this.chars = chars; }

        MappingNode topLevel(TopoParser.BlockContext block) {
            List<MappingNode.Entry> entries = new ArrayList<>();
            entries.add(new MappingNode.Entry(new ScalarNode("kind", false, span(block.type)),
                    new ScalarNode(block.type.getText(), false, span(block.type))));
            if (block.label != null) {
                entries.add(new MappingNode.Entry(new ScalarNode("name", false, span(block.label)),
                        new ScalarNode(unquote(block.label.getText()), true, span(block.label))));
            }
            entries.addAll(body(block.entry()));
            return new MappingNode(entries, span(block.getStart(), block.getStop()));
        }

        private List<MappingNode.Entry> body(List<TopoParser.EntryContext> items) {
            // Keeps source order; list blocks gather at the position of their first occurrence.
            List<Object> order = new ArrayList<>();
            Map<String, List<Node>> lists = new LinkedHashMap<>();
            Map<String, ScalarNode> listKeys = new LinkedHashMap<>();
            for (TopoParser.EntryContext item : items) {
                if (item.attribute() != null) {
                    TopoParser.AttributeContext a = item.attribute();
                    boolean quotedKey = a.key.getType() == TopoLexer.STRING;
                    ScalarNode key = new ScalarNode(quotedKey ? unquote(a.key.getText()) : a.key.getText(),
                            quotedKey, span(a.key));
                    order.add(new MappingNode.Entry(key, value(a.value())));
                    continue;
                }
                TopoParser.BlockContext b = item.block();
                String type = b.type.getText();
                MappingNode content = nested(b);
                if (b.label != null || LIST_BLOCKS.containsKey(type)) {
                    String plural = LIST_BLOCKS.getOrDefault(type, type + "s");
                    if (!lists.containsKey(plural)) {
                        lists.put(plural, new ArrayList<>());
                        listKeys.put(plural, new ScalarNode(plural, false, span(b.type)));
                        order.add(plural);
                    }
                    lists.get(plural).add(content);
                } else {
                    order.add(new MappingNode.Entry(new ScalarNode(type, false, span(b.type)), content));
                }
            }
            List<MappingNode.Entry> out = new ArrayList<>();
            for (Object o : order) {
                if (o instanceof MappingNode.Entry e) {
                    out.add(e);
                } else {
                    String plural = (String) o;
                    List<Node> list = lists.get(plural);
                    Span sp = list.get(0).span().to(list.get(list.size() - 1).span());
                    out.add(new MappingNode.Entry(listKeys.get(plural), new ListNode(list, sp)));
                }
            }
            return out;
        }

        private MappingNode nested(TopoParser.BlockContext b) {
            List<MappingNode.Entry> entries = new ArrayList<>();
            if (b.label != null) {
                entries.add(new MappingNode.Entry(new ScalarNode("name", false, span(b.label)),
                        new ScalarNode(unquote(b.label.getText()), true, span(b.label))));
            }
            entries.addAll(body(b.entry()));
            return new MappingNode(entries, span(b.getStart(), b.getStop()));
        }

        private Node value(TopoParser.ValueContext v) {
            if (v instanceof TopoParser.QuantityValueContext q) {
                TopoParser.QuantityContext qc = q.quantity();
                Token start = qc.NUMBER().getSymbol();
                Token stop = qc.unit != null ? qc.unit : start;
                String text = chars.getText(Interval.of(start.getStartIndex(), stop.getStopIndex()));
                return new ScalarNode(text, false, span(start, stop));
            }
            if (v instanceof TopoParser.StringValueContext s) {
                Token t = s.STRING().getSymbol();
                return new ScalarNode(unquote(t.getText()), true, span(t));
            }
            if (v instanceof TopoParser.WordValueContext w) {
                Token t = w.WORD().getSymbol();
                return new ScalarNode(t.getText(), false, span(t));
            }
            TopoParser.ListValueContext l = (TopoParser.ListValueContext) v;
            List<Node> items = new ArrayList<>();
            for (TopoParser.ValueContext item : l.value()) items.add(value(item));
            return new ListNode(items, span(l.getStart(), l.getStop()));
        }

        private Span span(Token t) { return span(t, t); }

        private Span span(Token start, Token stop) {
            int endLine = stop.getLine();
            int endCol = stop.getCharPositionInLine() + 1 + stop.getText().length();
            return new Span(file, start.getLine(), start.getCharPositionInLine() + 1, endLine, endCol);
        }

        private static String unquote(String quoted) {
            String body = quoted.substring(1, quoted.length() - 1);
            StringBuilder sb = new StringBuilder(body.length());
            for (int i = 0; i < body.length(); i++) {
                char c = body.charAt(i);
                if (c == '\\' && i + 1 < body.length()) {
                    char n = body.charAt(++i);
                    sb.append(switch (n) { case 'n' -> '\n'; case 't' -> '\t'; default -> n; });
                } else {
                    sb.append(c);
                }
            }
            return sb.toString();
        }
    }
}
