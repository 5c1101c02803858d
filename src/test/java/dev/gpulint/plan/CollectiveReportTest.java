package dev.gpulint.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.estimate.Collective;
import dev.gpulint.derive.estimate.CollectiveCost;
import dev.gpulint.derive.estimate.Links;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The tier table's line rate says what it is (issue 34 review): across nodes a ring whose group has k ranks on a node
 * gets k × the NICs per GPU, which is not "per GPU".
 */
class CollectiveReportTest {

    /** An HGX H100 node: NVLink 4 450 GB/s per direction, PCIe Gen5 63 GB/s, 8 × 400 Gb/s NICs. */
    private static final Links HGX = new Links(8, 8, true, false, 4, 450e9, 5, 63e9, true, 8 * 50e9, Links.Transport.RDMA, 8,
            "400 Gb/s ConnectX-7", null, null, 0);

    @Test
    void aRingWithTwoRanksPerNodeShowsTheTwoNicsShare() {
        // 4 ranks spaced 4 apart on 8-GPU nodes: two on each node, each rank gets two GPUs' NICs, 100 GB/s
        CollectiveCost c = CollectiveCost.price(HGX, null, Map.of(), Collective.ALL_REDUCE, 4, 4, 1e9);
        assertEquals(100e9, c.lineRate(), 1);
        assertEquals("the node's NICs shared by the group's 2 ranks on it: 2 × 50.0 GB/s per GPU", CollectiveReport.rateOf(c));
    }

    @Test
    void oneRankPerNodeAndTheScaleUpTierSayTheirOwn() {
        CollectiveCost one = CollectiveCost.price(HGX, null, Map.of(), Collective.ALL_REDUCE, 4, 8, 1e9);
        assertEquals(50e9, one.lineRate(), 1);
        assertEquals("one GPU's share of the node's NICs", CollectiveReport.rateOf(one));
        CollectiveCost nv = CollectiveCost.price(HGX, null, Map.of(), Collective.ALL_REDUCE, 8, 1, 1e9);
        assertEquals("the GPU's scale-up link per direction", CollectiveReport.rateOf(nv));
        CollectiveCost a2a = CollectiveCost.price(HGX, null, Map.of(), Collective.ALL_TO_ALL, 16, 1, 1e9);
        assertTrue(CollectiveReport.rateOf(a2a).contains("its own NIC"), CollectiveReport.rateOf(a2a));
    }

    @Test
    void textAndJsonCarryTheWording() {
        var t = dev.gpulint.derive.estimate.TierTable.of(new dev.gpulint.derive.estimate.Hardware("H100-SXM5-80GB", 80e9, Map.of(),
                3.35e12, HGX, Map.of(), null), Collective.ALL_REDUCE, 4, 4, 1e9, "test all-reduce");
        String text = CollectiveReport.text(java.util.List.of(t), false);
        assertTrue(text.contains("100 GB/s per rank (the node's NICs shared by the group's 2 ranks on it: 2 × 50.0 GB/s per GPU)"), text);
        String md = CollectiveReport.text(java.util.List.of(t), true);
        assertTrue(md.contains("| tier | line rate per rank |"), md);
        @SuppressWarnings("unchecked")
        var row = (Map<String, Object>) ((java.util.List<Object>) ((Map<String, Object>) CollectiveReport.json(java.util.List.of(t)).get(0))
                .get("tiers")).get(2);
        assertEquals("the node's NICs shared by the group's 2 ranks on it: 2 × 50.0 GB/s per GPU", row.get("line_rate_of"));
    }
}
