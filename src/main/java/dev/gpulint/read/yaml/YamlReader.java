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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * The YAML front end: snakeyaml-engine's compose API (a node graph with marks,
 * no object construction), turned into gpulint's document tree. snakeyaml
 * types never leave this package.
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
            int index = 0;
            for (org.snakeyaml.engine.v2.nodes.Node n : new Compose(settings).composeAllFromString(file.text())) {
                Node tree = convert(n, name, budget);
                if (tree instanceof MappingNode m && (!manifestsOnly || Manifests.isNativeOrNearly(m))) {
                    docs.add(new Document(name, index, m));
                    manifest = true;
                } else if (tree instanceof MappingNode m) {
                    foreign.add(new Document(name, index, m));
                }
                index++;
            }
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

    private static Span span(String file, org.snakeyaml.engine.v2.nodes.Node n) {
        Optional<Mark> s = n.getStartMark();
        Optional<Mark> e = n.getEndMark();
        if (s.isEmpty()) return Span.at(file, 1, 1);
        Mark start = s.get();
        Mark end = e.orElse(start);
        return new Span(file, start.getLine() + 1, start.getColumn() + 1, end.getLine() + 1, end.getColumn() + 1);
    }

    private static Node convert(org.snakeyaml.engine.v2.nodes.Node n, String file, int[] budget) {
        if (--budget[0] < 0) throw new TooManyNodes();
        Span sp = span(file, n);
        if (n instanceof org.snakeyaml.engine.v2.nodes.MappingNode m) {
            List<MappingNode.Entry> entries = new ArrayList<>();
            for (NodeTuple t : m.getValue()) {
                Node key = convert(t.getKeyNode(), file, budget);
                ScalarNode k = key instanceof ScalarNode sk ? sk
                        : new ScalarNode("<" + key.describe() + " as a key>", true, key.span());
                entries.add(new MappingNode.Entry(k, convert(t.getValueNode(), file, budget)));
            }
            return new MappingNode(entries, sp);
        }
        if (n instanceof SequenceNode s) {
            List<Node> items = new ArrayList<>();
            for (org.snakeyaml.engine.v2.nodes.Node item : s.getValue()) items.add(convert(item, file, budget));
            return new ListNode(items, sp);
        }
        org.snakeyaml.engine.v2.nodes.ScalarNode sc = (org.snakeyaml.engine.v2.nodes.ScalarNode) n;
        boolean quoted = sc.getScalarStyle() != ScalarStyle.PLAIN;
        return new ScalarNode(sc.getValue(), quoted, sp);
    }
}
