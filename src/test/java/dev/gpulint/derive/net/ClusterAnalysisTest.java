package dev.gpulint.derive.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.Fixture;
import dev.gpulint.facts.ClusterFact;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The NET family's cluster facts: fabric type, topology, lossless settings, in input order. */
class ClusterAnalysisTest {

    private static List<ClusterFact> facts(String yaml) {
        return Fixture.of(yaml).clusterFacts(ClusterFact.class, ClusterAnalysis::cluster);
    }

    @Test
    void aRoceFabricWithItsLosslessSettings() {
        ClusterFact f = facts("""
                kind: cluster
                name: r
                fabric:
                  type: roce
                  topology: rail-optimized
                  oversubscription: "2:1"
                  roce: { pfc: { enabled: true, priority: 3 }, ecn: { enabled: false } }
                node_groups:
                  - { name: a, count: 2, gpu: { model: H100-SXM5-80GB, count: 8 } }
                  - { name: b, count: 2, gpu: { model: H100-SXM5-80GB, count: 8 } }
                """).get(0);
        assertEquals("r", f.getName());
        assertEquals("t.yaml", f.getFile());
        assertEquals("t.yaml:2:7", f.getNameSpan().toString());
        assertEquals(0, f.getOrdinal());
        assertEquals("roce", f.getFabricType());
        assertEquals("rail-optimized", f.getTopology());
        assertTrue(f.isRoce());
        assertEquals("fabric type roce", f.getRoceSource());
        assertEquals("t.yaml:4:9", f.getRoceSpan().toString());
        assertEquals(Boolean.TRUE, f.getPfcEnabled());
        assertEquals("t.yaml:7:27", f.getPfcSpan().toString());
        assertEquals(Boolean.FALSE, f.getEcnEnabled());
        assertEquals(2, f.getNodeGroupCount());
        assertEquals(2.0, f.getOversubscription());
        assertEquals("2:1", f.getOversubscriptionText());
        assertEquals("t.yaml:6:21", f.getOversubscriptionSpan().toString());
        assertTrue(f.isRdma());
        assertEquals(3, f.getPfcPriority());
        assertEquals("t.yaml:7:43", f.getPfcPrioritySpan().toString());
    }

    @Test
    void aClusterWithoutAFabricHasNothingSet() {
        List<ClusterFact> f = facts("""
                kind: cluster
                name: a
                node_groups:
                  - { name: g, count: 1, gpu: { model: H100-SXM5-80GB, count: 8 } }
                ---
                kind: cluster
                name: b
                fabric: { type: infiniband }
                node_groups:
                  - { name: g, count: 1, gpu: { model: H100-SXM5-80GB, count: 8 } }
                """);
        assertEquals(2, f.size());
        ClusterFact a = f.get(0);
        assertEquals(0, a.getOrdinal());
        assertNull(a.getFabricType());
        assertNull(a.getTopology());
        assertFalse(a.isRoce());
        assertNull(a.getPfcEnabled());
        assertNull(a.getPfcSpan());
        assertNull(a.getEcnEnabled());
        assertEquals(0, a.getOversubscription());
        assertFalse(a.isRdma());
        assertEquals(-1, a.getPfcPriority());
        assertEquals(1, a.getNodeGroupCount());

        ClusterFact b = f.get(1);
        assertEquals(1, b.getOrdinal());
        assertEquals("infiniband", b.getFabricType());
        assertTrue(b.isRdma());
        assertFalse(b.isRoce());
    }
}
