package dev.gpulint.read.yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Span;
import dev.gpulint.read.ReadResult;
import dev.gpulint.read.SourceFile;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import dev.gpulint.tree.TreeDump;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * The reader builds its tree from snakeyaml's events. Its trees must be the ones snakeyaml's own
 * composer describes (same values, styles and spans, aliases expanded), on every YAML file of the
 * repository and on the shapes that differ between the two: anchors, aliases, merge keys, keys that
 * are collections, several documents, empty documents, block scalars.
 */
class EventTreeTest {

    private static final List<String> SHAPES = List.of(
            "a: &x { b: 1, c: [2, 3] }\nd: *x\ne: *x\n",
            "defaults: &d\n  image: x\n  env: [A, B]\njob:\n  <<: *d\n  name: j\n",
            "? [a, b]\n: 1\n? { k: v }\n: 2\n",
            "---\nkind: cluster\n---\n---\nname: two\n...\n--- 8\n",
            "s: |\n  line one\n  line two\nf: >-\n  folded\n  text\nq: 'single'\nd: \"dq\\n\"\nt: !!str 8\n",
            "list:\n- &i one\n- *i\n- [*i, *i]\n",
            "empty:\nnull: ~\nquoted: ''\n",
            "a: &a 1\na2: *a\nb: &a 2\nb2: *a\n");

    @Test
    void everyRepositoryYamlFileAndEveryShapeReadsLikeSnakeyamlsComposer() throws IOException {
        List<Path> files = new ArrayList<>();
        for (String root : List.of("../samples", "../rules")) {
            try (Stream<Path> s = Files.walk(Path.of(root))) {
                s.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml")).sorted().forEach(files::add);
            }
        }
        assertTrue(files.size() > 100, "found " + files.size() + " files");
        int compared = 0;
        for (Path p : files) compared += compare(p.toString(), Files.readString(p));
        for (int i = 0; i < SHAPES.size(); i++) compared += compare("shape" + i + ".yaml", SHAPES.get(i));
        assertTrue(compared > 100, "compared " + compared + " documents");
    }

    private static int compare(String name, String text) {
        List<String> expected = composed(name, text);
        if (expected == null) return 0; // not YAML snakeyaml reads: the reader's syntax errors are tested elsewhere
        ReadResult r = new YamlReader().readAll(SourceFile.of(name, text));
        List<String> actual = new ArrayList<>();
        r.documents().forEach(d -> actual.add(TreeDump.dump(d.root(), true)));
        r.foreign().forEach(d -> actual.add(TreeDump.dump(d.root(), true)));
        actual.sort(null);
        expected.sort(null);
        assertEquals(expected, actual, name);
        return expected.size();
    }

    /** The mapping documents of a text as the composer gives them, in the reader's tree shape. */
    private static List<String> composed(String name, String text) {
        LoadSettings settings = LoadSettings.builder().setLabel(name).setUseMarks(true).setAllowDuplicateKeys(true)
                .setCodePointLimit(Math.max(3 * 1024 * 1024, text.length() + 1)).build();
        List<String> out = new ArrayList<>();
        try {
            for (org.snakeyaml.engine.v2.nodes.Node n : new Compose(settings).composeAllFromString(text)) {
                Node tree = convert(n, name);
                if (tree instanceof MappingNode m) out.add(TreeDump.dump(m, true));
            }
        } catch (RuntimeException e) {
            return null;
        }
        return out;
    }

    private static Node convert(org.snakeyaml.engine.v2.nodes.Node n, String file) {
        var s = n.getStartMark().orElseThrow();
        var e = n.getEndMark().orElse(s);
        Span sp = new Span(file, s.getLine() + 1, s.getColumn() + 1, e.getLine() + 1, e.getColumn() + 1);
        if (n instanceof org.snakeyaml.engine.v2.nodes.MappingNode m) {
            List<MappingNode.Entry> entries = new ArrayList<>();
            for (NodeTuple t : m.getValue()) {
                Node key = convert(t.getKeyNode(), file);
                ScalarNode k = key instanceof ScalarNode sk ? sk : new ScalarNode("<" + key.describe() + " as a key>", true, key.span());
                entries.add(new MappingNode.Entry(k, convert(t.getValueNode(), file)));
            }
            return new MappingNode(entries, sp);
        }
        if (n instanceof SequenceNode q) {
            List<Node> items = new ArrayList<>();
            for (org.snakeyaml.engine.v2.nodes.Node item : q.getValue()) items.add(convert(item, file));
            return new ListNode(items, sp);
        }
        var sc = (org.snakeyaml.engine.v2.nodes.ScalarNode) n;
        return new ScalarNode(sc.getValue(), sc.getScalarStyle() != ScalarStyle.PLAIN, sp);
    }

    @Test
    void anAliasWithoutAnAnchorIsASyntaxErrorAtTheAlias() {
        ReadResult r = new YamlReader().read(SourceFile.of("a.yaml", "kind: cluster\nname: *nowhere\n"));
        assertEquals(1, r.problems().size());
        assertEquals("a.yaml:2:7 YAML syntax error: found undefined alias 'nowhere': no anchor &nowhere comes before it in this document.",
                r.problems().get(0).span() + " " + r.problems().get(0).message());
    }

    @Test
    void anAliasInsideItsOwnAnchorIsRefusedLikeAnAliasBomb() {
        ReadResult r = new YamlReader().read(SourceFile.of("r.yaml", "kind: cluster\nname: &a [x, *a]\n"));
        assertEquals(1, r.problems().size());
        assertTrue(r.problems().get(0).message().startsWith("YAML could not be read: its aliases expand to more than "), r.problems().get(0).message());
    }
}
