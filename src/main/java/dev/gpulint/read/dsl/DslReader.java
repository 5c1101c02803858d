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
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.LexerNoViableAltException;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.Vocabulary;
import org.antlr.v4.runtime.misc.Interval;
import org.antlr.v4.runtime.misc.IntervalSet;
import org.antlr.v4.runtime.tree.ErrorNode;
import org.antlr.v4.runtime.tree.ParseTreeListener;
import org.antlr.v4.runtime.tree.TerminalNode;

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
        String text = file.text();
        if (text.indexOf('\r') >= 0) text = text.replaceAll("\r(?!\n)", "\n");
        CharStream chars = CharStreams.fromString(text, name);
        TopoLexer lexer = new TopoLexer(chars);
        WindowedTokenStream tokens = new WindowedTokenStream(lexer);
        TopoParser parser = new TopoParser(tokens);
        SyntaxErrors errors = new SyntaxErrors(name);
        lexer.removeErrorListeners();
        parser.removeErrorListeners();
        lexer.addErrorListener(errors);
        parser.addErrorListener(errors);
        Builder b = new Builder(name, chars);
        parser.addParseListener(new EntryConverter(b, tokens, errors));
        TopoParser.FileContext tree = parser.file();
        if (!errors.found.isEmpty()) {
            return new ReadResult(file, List.of(), errors.found, true);
        }
        List<Document> docs = new ArrayList<>();
        int index = 0;
        for (TopoParser.BlockContext block : tree.block()) {
            docs.add(new Document(name, index++, b.topLevel(block)));
        }
        return new ReadResult(file, docs, List.of(), true);
    }

    /**
     * Converts each entry of a top-level block as soon as the parser finishes it, then drops the
     * entry's parse tree and its tokens: memory stays proportional to the document tree, not to
     * ANTLR's (a fleet file lists a million node groups in one cluster block). After a syntax
     * error nothing is converted: the file reports its errors only.
     */
    private static final class EntryConverter implements ParseTreeListener {
        private final Builder builder;
        private final WindowedTokenStream tokens;
        private final SyntaxErrors errors;

        EntryConverter(Builder builder, WindowedTokenStream tokens, SyntaxErrors errors) {
            this.builder = builder;
            this.tokens = tokens;
            this.errors = errors;
        }

        @Override public void exitEveryRule(ParserRuleContext ctx) {
            if (!(ctx instanceof TopoParser.EntryContext e) || !(e.getParent() instanceof TopoParser.BlockContext top)
                    || !(top.getParent() instanceof TopoParser.FileContext)) return;
            if (!errors.found.isEmpty() || e.exception != null) return;
            builder.converted(top).add(builder.item(e));
            top.removeLastChild();
            tokens.forgetBefore(e.getStart().getTokenIndex());
        }

        @Override public void enterEveryRule(ParserRuleContext ctx) {}
        @Override public void visitTerminal(TerminalNode node) {}
        @Override public void visitErrorNode(ErrorNode node) {}
    }

    /** Parse tree to document tree. */
    private static final class Builder {
        private final String file;
        private final CharStream chars;

        Builder(String file, CharStream chars) { this.file = file; this.chars = chars; }

        /** A block entry, converted: its type, where the type is written, whether it has a label. */
        private record Child(String type, Span typeSpan, boolean labelled, MappingNode content) {}

        /** The entries of each top-level block, converted while parsing ({@link EntryConverter}). */
        private final Map<TopoParser.BlockContext, List<Object>> converted = new IdentityHashMap<>();

        List<Object> converted(TopoParser.BlockContext top) {
            return converted.computeIfAbsent(top, k -> new ArrayList<>());
        }

        MappingNode topLevel(TopoParser.BlockContext block) {
            List<MappingNode.Entry> entries = new ArrayList<>();
            entries.add(new MappingNode.Entry(new ScalarNode("kind", false, span(block.type)),
                    new ScalarNode(block.type.getText(), false, span(block.type))));
            if (block.label != null) {
                entries.add(new MappingNode.Entry(new ScalarNode("name", false, span(block.label)),
                        new ScalarNode(unquote(block.label.getText()), true, span(block.label))));
            }
            List<Object> items = converted.remove(block);
            if (items == null) items = new ArrayList<>();
            for (TopoParser.EntryContext e : block.entry()) items.add(item(e)); // entries not converted while parsing
            body(items, entries);
            return new MappingNode(entries, span(block.getStart(), block.getStop()));
        }

        /** One entry: an attribute becomes a mapping entry; a block, a {@link Child}. */
        Object item(TopoParser.EntryContext item) {
            if (item.attribute() != null) {
                TopoParser.AttributeContext a = item.attribute();
                boolean quotedKey = a.key.getType() == TopoLexer.STRING;
                ScalarNode key = new ScalarNode(quotedKey ? unquote(a.key.getText()) : word(a.key.getText()),
                        quotedKey, span(a.key));
                return new MappingNode.Entry(key, value(a.value()));
            }
            TopoParser.BlockContext b = item.block();
            return new Child(word(b.type.getText()), span(b.type), b.label != null, nested(b));
        }

        /** Appends the entries to {@code out}; keeps source order, list blocks gather at the position of their first occurrence. */
        private void body(List<Object> items, List<MappingNode.Entry> out) {
            List<Object> order = new ArrayList<>();
            Map<String, List<Node>> lists = new LinkedHashMap<>();
            Map<String, ScalarNode> listKeys = new LinkedHashMap<>();
            for (Object o : items) {
                if (o instanceof MappingNode.Entry e) {
                    order.add(e);
                    continue;
                }
                Child c = (Child) o;
                if (c.labelled() || LIST_BLOCKS.containsKey(c.type())) {
                    String plural = LIST_BLOCKS.getOrDefault(c.type(), c.type() + "s");
                    if (!lists.containsKey(plural)) {
                        lists.put(plural, new ArrayList<>());
                        listKeys.put(plural, new ScalarNode(plural, false, c.typeSpan()));
                        order.add(plural);
                    }
                    lists.get(plural).add(c.content());
                } else {
                    order.add(new MappingNode.Entry(new ScalarNode(c.type(), false, c.typeSpan()), c.content()));
                }
            }
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
        }

        private MappingNode nested(TopoParser.BlockContext b) {
            List<MappingNode.Entry> entries = new ArrayList<>();
            if (b.label != null) {
                entries.add(new MappingNode.Entry(new ScalarNode("name", false, span(b.label)),
                        new ScalarNode(unquote(b.label.getText()), true, span(b.label))));
            }
            List<Object> items = new ArrayList<>();
            for (TopoParser.EntryContext e : b.entry()) items.add(item(e));
            body(items, entries);
            return new MappingNode(entries, span(b.getStart(), b.getStop()));
        }

        /** Short words (keys, types, enum values, units) repeat on every node group: one String each. */
        private final Map<String, String> words = new HashMap<>();

        private String word(String w) {
            if (w.length() > 32 || words.size() >= 4096) {
                String known = words.get(w);
                return known != null ? known : w;
            }
            String known = words.putIfAbsent(w, w);
            return known != null ? known : w;
        }

        private Node value(TopoParser.ValueContext v) {
            if (v instanceof TopoParser.QuantityValueContext q) {
                TopoParser.QuantityContext qc = q.quantity();
                Token start = qc.NUMBER().getSymbol();
                Token stop = qc.unit != null ? qc.unit : start;
                String text = word(chars.getText(Interval.of(start.getStartIndex(), stop.getStopIndex())));
                return new ScalarNode(text, false, span(start, stop));
            }
            if (v instanceof TopoParser.StringValueContext s) {
                Token t = s.STRING().getSymbol();
                return new ScalarNode(unquote(t.getText()), true, span(t));
            }
            if (v instanceof TopoParser.WordValueContext w) {
                Token t = w.WORD().getSymbol();
                return new ScalarNode(word(t.getText()), false, span(t));
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
