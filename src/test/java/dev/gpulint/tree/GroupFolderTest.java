package dev.gpulint.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Fold;
import dev.gpulint.core.Span;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.dsl.DslReader;
import dev.gpulint.read.yaml.YamlReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which list items fold, into what, and where a member's places are ({@link GroupFolder}, {@link Fold}). */
class GroupFolderTest {

    private static final String HEAD = "kind: cluster\nname: fleet\nnode_groups:\n";

    private static String item(String name, String speed) {
        return "  - { name: " + name + ", count: 1, nics: [{ model: ConnectX-7, speed: " + speed + " }] }\n";
    }

    private static Document yaml(String text) {
        return new YamlReader().read(SourceFile.of("f.yaml", text)).documents().get(0);
    }

    private static ListNode groups(Document d) {
        return (ListNode) d.root().get("node_groups").orElseThrow();
    }

    @Test
    void aLongListFoldsFromItsThousandthItem() {
        StringBuilder sb = new StringBuilder(HEAD);
        for (int i = 0; i < 1200; i++) sb.append(item("n" + i, "400 Gb/s"));
        Document d = yaml(sb.toString());
        assertEquals(1000, groups(d).items().size());
        assertEquals(1, d.folds().all().size());
        Fold f = d.folds().all().get(0);
        assertEquals(201, f.size());
        assertEquals("n0", f.name(0));
        assertEquals("n1000", f.name(1));
        assertEquals("n1199", f.name(200));
        assertTrue(d.folds().of((MappingNode) groups(d).items().get(0)) == f);
        assertNull(d.folds().of((MappingNode) groups(d).items().get(1)));
        // the representative's speed (line 4, columns 62-69) at member 1 (item 1000, line 1004, a name 3 longer)
        MappingNode nic = (MappingNode) ((ListNode) ((MappingNode) groups(d).items().get(0)).get("nics").orElseThrow()).items().get(0);
        Span speed = nic.get("speed").orElseThrow().span();
        assertEquals(new Span("f.yaml", 4, 62, 4, 70), speed);
        assertEquals(new Span("f.yaml", 1004, 65, 1004, 73), f.span(speed, 1));
        assertEquals(speed, f.span(speed, 0));
        // an end that is no node's keeps its column and moves by the member's lines
        assertEquals(new Span("f.yaml", 1004, 63, 1004, 73), f.span(new Span("f.yaml", 4, 63, 4, 70), 1));
        // a span outside the representative stays
        Span outside = Span.at("f.yaml", 2, 1);
        assertEquals(outside, f.span(outside, 1));
    }

    @Test
    void onlyItemsWrittenAlikeFold() throws Exception {
        String text = HEAD + item("a", "400 Gb/s") + item("b", "50 GB/s") + item("c", "400 Gb/s")
                + item("d", "\"400 Gb/s\"") + "  - { count: 1, nics: [{ model: ConnectX-7, speed: 400 Gb/s }] }\n"
                + "  - { name: ~, count: 1, nics: [{ model: ConnectX-7, speed: 400 Gb/s }] }\n" + "  - just text\n"
                + item("e", "50 GB/s") + item("f", "400 Gb/s");
        try (AutoCloseable c = GroupFolder.foldFrom(1)) {
            Document d = yaml(text);
            // a, b, d (quoted: another text), the nameless one, the null-named one and the text are kept
            assertEquals(List.of("a", "b", "d"), groups(d).items().stream().filter(n -> n instanceof MappingNode)
                    .map(n -> ((MappingNode) n).get("name").orElse(null)).filter(n -> n instanceof ScalarNode s && !s.isNull())
                    .map(n -> ((ScalarNode) n).text()).toList());
            assertEquals(6, groups(d).items().size());
            List<Fold> folds = d.folds().all();
            assertEquals(2, folds.size());
            assertEquals(List.of("a", "c", "f"), List.of(folds.get(0).name(0), folds.get(0).name(1), folds.get(0).name(2)));
            assertEquals(List.of("b", "e"), List.of(folds.get(1).name(0), folds.get(1).name(1)));
            // c came after 2 kept mapping items (a, b) as the list's item 2; f after 5 kept mappings, as item 8
            assertEquals((2L << 32) | 2, folds.get(0).order(1));
            assertEquals((5L << 32) | 8, folds.get(0).order(2));
            assertNotEquals(folds.get(0).token(), folds.get(1).token());
        }
    }

    @Test
    void longItemsAndOtherDocumentsDoNotFold() throws Exception {
        String big = "x".repeat(GroupFolder.MAX_KEY);
        try (AutoCloseable c = GroupFolder.foldFrom(1)) {
            assertTrue(yaml(HEAD + item("a", big) + item("b", big)).folds().isEmpty());
            // not a cluster, or its kind comes after the list: nothing folds
            assertTrue(yaml("kind: training_job\nnode_groups:\n" + item("a", "1") + item("b", "1")).folds().isEmpty());
            assertTrue(yaml("node_groups:\n" + item("a", "1") + item("b", "1") + "kind: cluster\n").folds().isEmpty());
            // a list deeper in the document is not the cluster's node groups
            assertTrue(yaml("kind: cluster\nfabric:\n  node_groups:\n  " + item("a", "1") + "  " + item("b", "1")).folds().isEmpty());
        }
    }

    @Test
    void theDslFoldsNodeGroupBlocksAndKeepsTheListsEnd() throws Exception {
        StringBuilder sb = new StringBuilder("cluster \"fleet\" {\n");
        for (int i = 0; i < 3; i++) sb.append("  node_group \"n").append(i).append("\" { count = 1  gpu { model = \"H100-SXM5-80GB\"  count = 8 } }\n");
        sb.append("}\n");
        try (AutoCloseable c = GroupFolder.foldFrom(1)) {
            Document d = new DslReader().read(SourceFile.of("f.topo", sb.toString())).documents().get(0);
            assertEquals(1, groups(d).items().size());
            Fold f = d.folds().all().get(0);
            assertEquals(List.of("n0", "n1", "n2"), List.of(f.name(0), f.name(1), f.name(2)));
            assertEquals(4, groups(d).span().endLine());
            MappingNode gpu = (MappingNode) ((MappingNode) groups(d).items().get(0)).get("gpu").orElseThrow();
            Span model = gpu.get("model").orElseThrow().span();
            assertEquals(new Span("f.topo", 2, 46, 2, 62), model);
            assertEquals(new Span("f.topo", 4, 46, 4, 62), f.span(model, 2));
        }
    }
}
