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
import org.antlr.v4.runtime.atn.PredictionMode;
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
        String text = file.text();
        if (text.indexOf('\r') >= 0) text = text.replaceAll("\r(?!\n)", "\n");
        CharStream chars = CharStreams.fromString(text, name);
        // SLL prediction first (no full-context lookahead: faster on a fleet file's millions of decisions); a
        // syntax error in that mode may be SLL's own, so the file is parsed again in full LL mode, whose errors
        // are the ones reported
        Builder b = new Builder(name, chars);
        SyntaxErrors errors = parse(chars, name, b, PredictionMode.SLL);
        if (!errors.found.isEmpty()) {
            chars.seek(0);
            b = new Builder(name, chars);
            errors = parse(chars, name, b, PredictionMode.LL);
        }
        if (!errors.found.isEmpty()) {
            return new ReadResult(file, List.of(), errors.found, true);
        }
        List<Document> docs = new ArrayList<>();
        int index = 0;
        for (int i = 0; i < b.documents.size(); i++) docs.add(new Document(name, index++, b.documents.get(i), b.documentFolds.get(i)));
        return new ReadResult(file, docs, List.of(), true);
    }

    private static SyntaxErrors parse(CharStream chars, String name, Builder b, PredictionMode mode) {
        TopoLexer lexer = new TopoLexer(chars);
        WindowedTokenStream tokens = new WindowedTokenStream(lexer);
        SyntaxErrors errors = new SyntaxErrors(name);
        ConvertingParser parser = new ConvertingParser(tokens, b, errors);
        parser.getInterpreter().setPredictionMode(mode);
        lexer.removeErrorListeners();
        parser.removeErrorListeners();
        lexer.addErrorListener(errors);
        parser.addErrorListener(errors);
        parser.file();
        return errors;
    }

    /**
     * The parser of grammar/Topo.g4 without ANTLR's parse tree: each entry is converted to the
     * document tree as soon as its rule ends (reading the grammar's labels), and the tokens of a
     * top-level entry are released then, so memory stays proportional to the document tree, not to
     * ANTLR's (a fleet file lists a million node groups in one cluster block; a parse tree costs
     * several times the document tree, and a parse listener an iterator per token). After a syntax
     * error nothing more is converted: the file reports its errors only.
     */
    private static final class ConvertingParser extends TopoParser {
        private final Builder builder;
        private final WindowedTokenStream tokens;
        private final SyntaxErrors errors;

        ConvertingParser(WindowedTokenStream tokens, Builder builder, SyntaxErrors errors) {
            super(tokens);
            this.builder = builder;
            this.tokens = tokens;
            this.errors = errors;
            setBuildParseTree(false);
        }

        @Override public void exitRule() {
            ParserRuleContext ctx = _ctx;
            super.exitRule();
            if (!errors.found.isEmpty() || ctx.exception != null) return;
            if (ctx instanceof EntryContext e && e.getParent() instanceof BlockContext parent) {
                Object item = builder.item(e);
                if (!(parent.getParent() instanceof FileContext) || !builder.folded(parent, item)) builder.converted(parent).add(item);
                if (parent.getParent() instanceof FileContext) tokens.forgetBefore(e.getStart().getTokenIndex());
            } else if (ctx instanceof BlockContext block && block.getParent() instanceof FileContext) {
                builder.documents.add(builder.topLevel(block));
            }
        }
    }

    /** Parse tree to document tree. */
    private static final class Builder {
        private final String file;
        private final CharStream chars;

        Builder(String file, CharStream chars) { this.file = file; this.chars = chars; }

        /** A block entry, converted: its type, where the type is written, whether it has a label. */
        private record Child(String type, Span typeSpan, boolean labelled, MappingNode content) {}

        /** The entries of each open block, converted as their rules end ({@link ConvertingParser}). */
        private final Map<TopoParser.BlockContext, List<Object>> converted = new IdentityHashMap<>();

        /** The top-level blocks, converted. */
        final List<MappingNode> documents = new ArrayList<>();
        /** The folds of each of {@link #documents}. */
        final List<dev.gpulint.tree.Folds> documentFolds = new ArrayList<>();

        /** The top-level block being read, and its folds: its node groups fold as they end. */
        private TopoParser.BlockContext foldingBlock;
        private dev.gpulint.tree.Folds folds;
        private dev.gpulint.tree.GroupFolder folder;
        /** The last node group folded away: the node_groups list still ends where it ends. */
        private Span lastFolded;

        /** A top-level cluster's node group that {@link dev.gpulint.tree.GroupFolder} folds into an earlier one. */
        boolean folded(TopoParser.BlockContext top, Object item) {
            if (!(item instanceof Child c) || !c.type().equals("node_group") || !top.type.getText().equals("cluster")) {
                return false;
            }
            if (foldingBlock != top) {
                foldingBlock = top;
                folds = new dev.gpulint.tree.Folds();
                folder = new dev.gpulint.tree.GroupFolder(file, folds);
                lastFolded = null;
            }
            if (!folder.offer(c.content())) return false;
            lastFolded = c.content().span();
            return true;
        }

        List<Object> converted(TopoParser.BlockContext top) {
            return converted.computeIfAbsent(top, k -> new ArrayList<>());
        }

        MappingNode topLevel(TopoParser.BlockContext block) {
            List<MappingNode.Entry> entries = new ArrayList<>();
            entries.add(new MappingNode.Entry(new ScalarNode("kind", false, span(block.type)),
                    new ScalarNode(block.type.getText(), false, span(block.type))));
            MappingNode root = content(block, entries);
            documentFolds.add(foldingBlock == block ? folds : dev.gpulint.tree.Folds.NONE);
            foldingBlock = null;
            folds = null;
            folder = null;
            lastFolded = null;
            return root;
        }

        /** One entry: an attribute becomes a mapping entry; a block, a {@link Child}. */
        Object item(TopoParser.EntryContext item) {
            if (item.attr != null) {
                TopoParser.AttributeContext a = item.attr;
                boolean quotedKey = a.key.getType() == TopoLexer.STRING;
                ScalarNode key = new ScalarNode(quotedKey ? unquote(a.key.getText()) : word(a.key.getText()),
                        quotedKey, span(a.key));
                return new MappingNode.Entry(key, value(a.val));
            }
            TopoParser.BlockContext b = item.sub;
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
                    Span last = list.get(list.size() - 1).span();
                    if (plural.equals("node_groups") && lastFolded != null && lastFolded.compareTo(last) > 0) last = lastFolded;
                    Span sp = list.get(0).span().to(last);
                    out.add(new MappingNode.Entry(listKeys.get(plural), new ListNode(list, sp)));
                }
            }
        }

        private MappingNode nested(TopoParser.BlockContext b) {
            return content(b, new ArrayList<>());
        }

        /** A block's mapping: {@code entries} first, then its label as {@code name}, then its own entries. */
        private MappingNode content(TopoParser.BlockContext b, List<MappingNode.Entry> entries) {
            if (b.label != null) {
                entries.add(new MappingNode.Entry(new ScalarNode("name", false, span(b.label)),
                        new ScalarNode(unquote(b.label.getText()), true, span(b.label))));
            }
            body(items(b), entries);
            return new MappingNode(entries, span(b.getStart(), b.getStop()));
        }

        /** The converted entries of a block that has ended (none when it is empty). */
        private List<Object> items(TopoParser.BlockContext b) {
            List<Object> items = converted.remove(b);
            return items != null ? items : List.of();
        }

        /** Short texts (keys, types, enum values, units, models) repeat on every node group: one String each. */
        private final dev.gpulint.core.Interner words = new dev.gpulint.core.Interner(4096, 32);

        private String word(String w) { return words.of(w); }

        private Node value(TopoParser.ValueContext v) {
            if (v instanceof TopoParser.QuantityValueContext q) {
                TopoParser.QuantityContext qc = q.qty;
                Token start = qc.num;
                Token stop = qc.unit != null ? qc.unit : start;
                String text = word(chars.getText(Interval.of(start.getStartIndex(), stop.getStopIndex())));
                return new ScalarNode(text, false, span(start, stop));
            }
            if (v instanceof TopoParser.StringValueContext s) {
                Token t = s.str;
                return new ScalarNode(word(unquote(t.getText())), true, span(t));
            }
            if (v instanceof TopoParser.WordValueContext w) {
                Token t = w.word;
                return new ScalarNode(word(t.getText()), false, span(t));
            }
            TopoParser.ListValueContext l = (TopoParser.ListValueContext) v;
            List<Node> items = new ArrayList<>();
            for (TopoParser.ValueContext item : l.items) items.add(value(item));
            return new ListNode(items, span(l.getStart(), l.getStop()));
        }

        private Span span(Token t) { return span(t, t); }

        private Span span(Token start, Token stop) {
            int endLine = stop.getLine();
            // the token's length from its indexes: getText() would copy the text out of the stream
            int endCol = stop.getCharPositionInLine() + 1 + (stop.getStopIndex() - stop.getStartIndex() + 1);
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
