package dev.gpulint.read.yaml;

import dev.gpulint.read.Manifests;
import dev.gpulint.read.ReadResult;
import dev.gpulint.read.SourceFile;
import dev.gpulint.core.Finding;
import dev.gpulint.tree.Document;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import dev.gpulint.core.Span;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Parse;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.events.AliasEvent;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.events.NodeEvent;
import org.snakeyaml.engine.v2.events.ScalarEvent;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * The YAML front end: snakeyaml-engine's parse API (events with marks, no node
 * graph, no object construction), turned into gpulint's document tree as the
 * events come: a fleet file's tree is built once, not first as snakeyaml's node
 * graph. snakeyaml types never leave this package.
 */
public final class YamlReader {

    public ReadResult read(SourceFile file) {
        return read(file, true);
    }

    /** Every mapping document of the file, manifest or not (configuration files). */
    public ReadResult readAll(SourceFile file) {
        return read(file, false);
    }

    /** Nodes an alias-free file can have are fewer than its characters: past this many more, aliases are a bomb. */
    static final int EXPANSION_ALLOWANCE = 100_000;

    /** Reading stopped: the aliases expand to more nodes than the file could hold without them. */
    private static final class TooManyNodes extends RuntimeException {
        TooManyNodes() { super(null, null, false, false); }
    }

    private ReadResult read(SourceFile file, boolean manifestsOnly) {
        String name = file.displayPath();
        // The file's size is already bounded by --max-file-size when it was read; snakeyaml's own
        // code-point limit (3 MiB by default) would reject ordinary files below that bound.
        // Aliases are not counted (a .gitlab-ci.yml has dozens of `<<: *defaults`): the nodes they
        // expand to are ({@link #EXPANSION_ALLOWANCE}).
        LoadSettings settings = LoadSettings.builder()
                .setLabel(name)
                .setUseMarks(true)
                .setAllowDuplicateKeys(true)          // the binder reports duplicates with both locations
                .setCodePointLimit(Math.max(3 * 1024 * 1024, file.text().length() + 1))
                .setMaxAliasesForCollections(Integer.MAX_VALUE)
                .setBufferSize(bufferSize(file.text()))
                .build();
        int[] budget = {file.text().length() + EXPANSION_ALLOWANCE};
        List<Document> docs = new ArrayList<>();
        List<Document> foreign = new ArrayList<>();
        boolean manifest = false;
        try {
            TreeBuilder builder = new TreeBuilder(name, budget);
            int index = 0;
            // a large file is scanned on a thread of its own while its tree is built from the events before
            AheadEvents ahead = AheadEvents.of(new Parse(settings).parseString(file.text()), file.text().length(), name);
            try {
                for (Event event : ahead) {
                    Node tree = builder.next(event);
                    if (tree == null) continue;
                    if (tree instanceof MappingNode m && (!manifestsOnly || Manifests.isNativeOrNearly(m))) {
                        docs.add(new Document(name, index, m, builder.folds()));
                        manifest = true;
                    } else if (tree instanceof MappingNode m) {
                        foreign.add(new Document(name, index, m));
                    }
                    index++;
                }
            } finally {
                ahead.close();
            }
        } catch (UndefinedAlias e) {
            return new ReadResult(file, List.of(), List.of(syntaxError(e.at, "YAML syntax error: found undefined alias '" + e.anchor
                    + "': no anchor &" + e.anchor + " comes before it in this document")), true);
        } catch (MarkedYamlEngineException e) {
            Mark mark = e.getProblemMark().or(e::getContextMark).orElse(null);
            Span at = mark == null ? Span.at(name, 1, 1) : point(name, mark);
            return new ReadResult(file, List.of(), List.of(syntaxError(at, describe(e))), true);
        } catch (TooManyNodes e) {
            return new ReadResult(file, List.of(), List.of(syntaxError(Span.at(name, 1, 1), "YAML could not be read: its aliases expand "
                    + "to more than " + (file.text().length() + EXPANSION_ALLOWANCE) + " nodes: gpulint does not expand alias bombs "
                    + "(billion laughs)")), true);
        } catch (YamlEngineException e) {
            String m = String.valueOf(e.getMessage());
            return new ReadResult(file, List.of(), List.of(syntaxError(Span.at(name, 1, 1), "YAML could not be read: " + m)), true);
        }
        return new ReadResult(file, docs, List.of(), manifest, foreign);
    }

    /**
     * snakeyaml's reader copies its whole unread window each time it reads another buffer, so one
     * token longer than the buffer (an 8 MiB scalar without a blank) costs its length squared over
     * the buffer size: 46 s for 8 MiB with the default 1 KiB. The buffer holds the longest run of
     * non-blank characters (where a token can lie unbroken), so each token needs at most two reads
     * and reading stays linear; ordinary files keep the default.
     */
    static int bufferSize(String text) {
        int longest = 0, run = 0;
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\n' || c == '\r' || c == '\t') run = 0;
            else if (++run > longest) longest = run;
        }
        return (int) Math.min(Math.max(1024L, 2L * longest + 2), text.length() + 2L);
    }

    private static Finding syntaxError(Span at, String message) {
        return Finding.of("SYN001", at, "syntax", message);
    }

    /** "expected <block end>, but found '-'" style text from snakeyaml, on one line. */
    private static String describe(MarkedYamlEngineException e) {
        StringBuilder sb = new StringBuilder("YAML syntax error: ");
        String ctx = e.getContext();
        String problem = e.getProblem();
        if (problem != null) sb.append(problem.trim());
        if (ctx != null && !ctx.isBlank()) sb.append(" (").append(ctx.trim()).append(')');
        return sb.toString().replaceAll("\\s+", " ");
    }

    private static Span point(String file, Mark m) {
        return Span.at(file, m.getLine() + 1, m.getColumn() + 1);
    }

    /** An alias to an anchor the document has not defined (before it). */
    private static final class UndefinedAlias extends RuntimeException {
        final Span at;
        final String anchor;

        UndefinedAlias(Span at, String anchor) {
            super(null, null, false, false);
            this.at = at;
            this.anchor = anchor;
        }
    }

    /**
     * Builds each document's tree from the parser's events. Every node costs one of the budget; an
     * alias is a copy of its anchor's tree (each use is a node of its own: the binder keeps a value
     * per node) and costs its size, so aliases expand to at most the budget's nodes. An alias inside
     * its own anchor would expand forever: it exhausts the budget at once.
     */
    private static final class TreeBuilder {
        private final String file;
        private final int[] budget;
        private final Map<String, Node> anchors = new HashMap<>();
        private final Set<String> open = new HashSet<>();
        private final ArrayDeque<Frame> stack = new ArrayDeque<>();
        private Node root;
        private dev.gpulint.tree.Folds folds = new dev.gpulint.tree.Folds();

        /** A mapping or sequence whose end has not come yet. */
        private static final class Frame {
            final boolean mapping;
            final String anchor;
            final Mark start;
            final List<MappingNode.Entry> entries = new ArrayList<>();
            final List<Node> items = new ArrayList<>();
            Node key;
            /** Set on a cluster's node_groups list: folds its repeated items. */
            dev.gpulint.tree.GroupFolder folder;

            Frame(boolean mapping, String anchor, Mark start) {
                this.mapping = mapping;
                this.anchor = anchor;
                this.start = start;
            }
        }

        /** Short texts (keys, enum values, units, models) repeat on every node group of a fleet file: one String each. */
        private final dev.gpulint.core.Interner words = new dev.gpulint.core.Interner(4096, 32);

        TreeBuilder(String file, int[] budget) {
            this.file = file;
            this.budget = budget;
        }

        /** Takes one event; returns a document's root when the event ends a document, else null. */
        Node next(Event e) {
            switch (e.getEventId()) {
                case DocumentStart -> { root = null; anchors.clear(); open.clear(); stack.clear(); folds = new dev.gpulint.tree.Folds(); }
                case DocumentEnd -> {
                    Node done = root;
                    root = null;
                    return done;
                }
                case Scalar -> {
                    ScalarEvent sc = (ScalarEvent) e;
                    spend(1);
                    add(anchored(sc, new ScalarNode(words.of(sc.getValue()), sc.getScalarStyle() != ScalarStyle.PLAIN,
                            span(file, e.getStartMark(), e.getEndMark()))));
                }
                case MappingStart, SequenceStart -> {
                    spend(1);
                    String anchor = anchorOf(e);
                    if (anchor != null) open.add(anchor);
                    Frame parent = stack.peek();
                    Frame f = new Frame(e.getEventId() == Event.ID.MappingStart, anchor, e.getStartMark().orElse(null));
                    if (!f.mapping && stack.size() == 1 && parent.mapping && nodeGroupsOfCluster(parent)) {
                        f.folder = new dev.gpulint.tree.GroupFolder(file, folds);
                    }
                    stack.push(f);
                }
                case MappingEnd, SequenceEnd -> {
                    Frame f = stack.pop();
                    Span sp = span(file, Optional.ofNullable(f.start), e.getEndMark());
                    Node n = f.mapping ? new MappingNode(f.entries, sp) : new ListNode(f.items, sp);
                    if (f.anchor != null) {
                        open.remove(f.anchor);
                        anchors.put(f.anchor, n);
                    }
                    add(n);
                }
                case Alias -> {
                    String anchor = ((AliasEvent) e).getAlias().getValue();
                    if (open.contains(anchor)) throw new TooManyNodes();
                    Node target = anchors.get(anchor);
                    if (target == null) throw new UndefinedAlias(span(file, e.getStartMark(), e.getStartMark()), anchor);
                    add(copy(target));
                }
                default -> { }
            }
            return null;
        }

        /** The document's folds so far (the reader takes them with the document's root). */
        dev.gpulint.tree.Folds folds() { return folds; }

        /** The root mapping's pending key is node_groups, and its kind, written before, is cluster. */
        private static boolean nodeGroupsOfCluster(Frame root) {
            if (!(root.key instanceof ScalarNode k) || !k.text().equals("node_groups")) return false;
            for (MappingNode.Entry en : root.entries) {
                if (en.key().text().equals("kind")) return en.value() instanceof ScalarNode v && v.text().equals("cluster");
            }
            return false;
        }

        private void spend(int nodes) {
            budget[0] -= nodes;
            if (budget[0] < 0) throw new TooManyNodes();
        }

        private static String anchorOf(Event e) {
            return ((NodeEvent) e).getAnchor().map(a -> a.getValue()).orElse(null);
        }

        private Node anchored(Event e, Node n) {
            String anchor = anchorOf(e);
            if (anchor != null) anchors.put(anchor, n);
            return n;
        }

        private void add(Node n) {
            Frame top = stack.peek();
            if (top == null) { root = n; return; }
            if (!top.mapping) {
                if (top.folder == null || !top.folder.offer(n)) top.items.add(n);
                return;
            }
            if (top.key == null) { top.key = n; return; }
            ScalarNode k = top.key instanceof ScalarNode sk ? sk
                    : new ScalarNode("<" + top.key.describe() + " as a key>", true, top.key.span());
            top.entries.add(new MappingNode.Entry(k, n));
            top.key = null;
        }

        /** A fresh copy of an anchor's tree, one budget unit per node. */
        private Node copy(Node n) {
            spend(1);
            if (n instanceof MappingNode m) {
                List<MappingNode.Entry> entries = new ArrayList<>(m.entries().size());
                for (MappingNode.Entry en : m.entries()) {
                    spend(1);
                    entries.add(new MappingNode.Entry(en.key(), copy(en.value())));
                }
                return new MappingNode(entries, m.span());
            }
            if (n instanceof ListNode l) {
                List<Node> items = new ArrayList<>(l.items().size());
                for (Node item : l.items()) items.add(copy(item));
                return new ListNode(items, l.span());
            }
            ScalarNode sc = (ScalarNode) n;
            return new ScalarNode(sc.text(), sc.quoted(), sc.span());
        }
    }

    private static Span span(String file, Optional<Mark> s, Optional<Mark> e) {
        if (s.isEmpty()) return Span.at(file, 1, 1);
        Mark start = s.get();
        Mark end = e.orElse(start);
        return new Span(file, start.getLine() + 1, start.getColumn() + 1, end.getLine() + 1, end.getColumn() + 1);
    }
}
