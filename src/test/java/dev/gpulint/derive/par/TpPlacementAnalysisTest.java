package dev.gpulint.derive.par;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.derive.Fixture;
import dev.gpulint.facts.TpPlacementFact;
import dev.gpulint.spec.DomainKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** PAR002/PAR003's analysis: the first tensor-parallel group that leaves its NVLink domain, and where it lands. */
class TpPlacementAnalysisTest {

    private static List<TpPlacementFact> facts(String group, String job) {
        Fixture f = Fixture.of("kind: cluster\nname: c\nnode_groups:\n  - { name: g, count: 64, " + group + " }\n---\n"
                + "kind: training_job\nname: j\ncluster: c\n" + job);
        return f.jobFacts(TpPlacementFact.class, (j, out) -> TpPlacementAnalysis.job(j, f.catalog(), out));
    }

    private static final String H100 = "gpu: { model: H100-SXM5-80GB, count: 8 }";

    @Test
    void tp16OnEightGpuNodesCrossesTwoNodes() {
        TpPlacementFact f = facts(H100, "nodes: 4\nparallelism: { tp: 16 }\n").get(0);
        assertEquals("j", f.getJobName());
        assertEquals(16, f.getTp());
        assertEquals("t.yaml:10:20", f.getTpSpan().toString());
        assertEquals(1, f.getStride());
        assertEquals("tp-cp-ep-dp-pp", f.getOrder());
        assertEquals(2, f.getDomainsSpanned());
        assertEquals("0-15", f.getRanks());
        assertEquals("g-0 (0-7) and g-1 (8-15)", f.getPlaces());
        assertEquals(DomainKind.NODE, f.getDomainKind());
        assertEquals(8, f.getDomainSize());
        assertEquals(0, f.getDeclaredDomainSize());
        assertEquals("g", f.getGroupName());
        assertEquals("c", f.getClusterName());
        assertEquals(8, f.getGroupGpusPerNode());
        assertEquals("H100-SXM5-80GB", f.getGpuName());
        assertEquals(5, f.getPcieGeneration());
        assertEquals(63e9, f.getPcieBytesPerSecond(), 1);
    }

    @Test
    void aGroupInsideItsNodeStillGivesAFactWithoutACrossing() {
        TpPlacementFact f = facts(H100, "nodes: 4\nparallelism: { tp: 8 }\n").get(0);
        assertEquals(0, f.getDomainsSpanned());
        assertNull(f.getRanks());
        assertNull(f.getPlaces());
    }

    @Test
    void theRankOrderSetsTheStride() {
        // dp fastest: a tp group is ranks 0 and 8, one per node
        TpPlacementFact f = facts(H100, "nodes: 2\nparallelism: { tp: 2, dp: 8, order: dp-tp }\n").get(0);
        assertEquals(8, f.getStride());
        assertEquals("dp-tp-cp-ep-pp", f.getOrder());
        assertEquals("0,8", f.getRanks());
        assertEquals("g-0 (0) and g-1 (8)", f.getPlaces());
    }

    @Test
    void bridgedPairsAndRacksNameTheirDomains() {
        TpPlacementFact bridged = facts("gpu: { model: A100-PCIe-80GB, count: 8 }, nvlink: { bridge: pairs }",
                "nodes: 1\nparallelism: { tp: 4 }\n").get(0);
        assertEquals(DomainKind.BRIDGE, bridged.getDomainKind());
        assertEquals(2, bridged.getDomainSize());
        assertEquals("bridged set 0 (0-1) and bridged set 1 (2-3)", bridged.getPlaces());
        assertEquals(4, bridged.getPcieGeneration());
        assertEquals(31.5e9, bridged.getPcieBytesPerSecond(), 1);

        TpPlacementFact rack = facts("gpu: { model: GB200, count: 4 }", "nodes: 36\nparallelism: { tp: 96 }\n").get(0);
        assertEquals(DomainKind.RACK, rack.getDomainKind());
        assertEquals(72, rack.getDomainSize());
        assertEquals("0-95", rack.getRanks());
        assertEquals("NVLink domain 0 (0-71) and NVLink domain 1 (72-95)", rack.getPlaces());
    }

    @Test
    void noFactWithoutAStatedTpAboveOneOrAKnownDomain() {
        assertEquals(List.of(), facts(H100, "nodes: 4\nparallelism: { tp: 1 }\n"));
        assertEquals(List.of(), facts(H100, "nodes: 4\nparallelism: { pp: 2 }\n"));
        assertEquals(List.of(), facts(H100, "nodes: 4\n"));
        assertEquals(List.of(), facts("gpu: { model: Foo-9000, count: 8 }", "nodes: 4\nparallelism: { tp: 16 }\n"));
        assertEquals(List.of(), facts(H100, "node_group: nope\nnodes: 4\nparallelism: { tp: 16 }\n"));
    }

    @Test
    void placesNamesEachPlaceAndElidesTheMiddleOfMoreThanFour() {
        Placement.Crossing three = new Placement.Crossing(new long[] {6, 7, 8, 9, 16}, new long[] {0, 0, 1, 1, 2});
        assertEquals("g-0 (6-7), g-1 (8-9) and g-2 (16)", TpPlacementAnalysis.places(three, "g", 8, DomainKind.NODE));

        long[] ranks = new long[48];
        long[] domains = new long[48];
        for (int i = 0; i < 48; i++) { ranks[i] = i; domains[i] = i / 8; }
        Placement.Crossing six = new Placement.Crossing(ranks, domains);
        assertEquals("dgx-0 (0-7), dgx-1 (8-15), … 3 more and dgx-5 (40-47)",
                TpPlacementAnalysis.places(six, "dgx", 8, DomainKind.NODE));
        assertEquals("NVLink domain 0 (0-7), NVLink domain 1 (8-15), … 3 more and NVLink domain 5 (40-47)",
                TpPlacementAnalysis.places(six, "g", 72, DomainKind.RACK));

        Placement.Crossing four = new Placement.Crossing(new long[] {0, 1, 2, 3}, new long[] {0, 1, 2, 3});
        assertEquals("GPU 0, GPU 1, GPU 2 and GPU 3", TpPlacementAnalysis.places(four, "g", 8, DomainKind.NONE));
        assertEquals("bridged set 0 (0), bridged set 1 (1), bridged set 2 (2) and bridged set 3 (3)",
                TpPlacementAnalysis.places(four, "g", 8, DomainKind.BRIDGE));
    }
}
