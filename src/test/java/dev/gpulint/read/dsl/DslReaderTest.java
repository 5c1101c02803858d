package dev.gpulint.read.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.read.ReadResult;
import dev.gpulint.read.SourceFile;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The DSL front end (.topo): blocks become the same tree as YAML, repeated blocks lists, with spans. */
class DslReaderTest {

    private static final String CLUSTER = """
            cluster "pod" {
              fabric { type = infiniband }
              node_group "dgx" {
                count = 2
                gpu { model = "H100-SXM5-80GB"  count = 8 }
              }
            }
            """;

    @Test
    void aBlockIsADocumentOfItsKindAndName() {
        ReadResult r = new DslReader().read(SourceFile.of("pod.topo", CLUSTER));
        assertEquals(List.of(), r.problems());
        assertEquals(1, r.documents().size());
        MappingNode root = r.documents().get(0).root();
        assertEquals("cluster", ((ScalarNode) root.get("kind").orElseThrow()).text());
        assertEquals("pod", ((ScalarNode) root.get("name").orElseThrow()).text());
        ScalarNode type = (ScalarNode) ((MappingNode) root.get("fabric").orElseThrow()).get("type").orElseThrow();
        assertEquals("infiniband", type.text());
        assertEquals(2, type.span().startLine());
    }

    @Test
    void aRepeatedBlockIsAListItemNamedByItsLabel() {
        MappingNode root = new DslReader().read(SourceFile.of("pod.topo", CLUSTER)).documents().get(0).root();
        ListNode groups = (ListNode) root.get("node_groups").orElseThrow();
        MappingNode dgx = (MappingNode) groups.items().get(0);
        assertEquals("dgx", ((ScalarNode) dgx.get("name").orElseThrow()).text());
        ScalarNode count = (ScalarNode) dgx.get("count").orElseThrow();
        assertEquals("2", count.text());
        assertEquals(4, count.span().startLine());
        assertEquals(13, count.span().startColumn());
    }

    @Test
    void aSyntaxErrorSaysWhatWasExpected() {
        ReadResult r = new DslReader().read(SourceFile.of("bad.topo", "cluster \"c\" {\n  fabric { type = \n}\n"));
        assertEquals("SYN001", r.problems().get(0).ruleId());
        assertTrue(r.problems().get(0).message().contains("expected"), r.problems().get(0).message());
    }
}
