package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Span;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The measured links: each replacement changes only its figure, and a collective priced on them costs what it should. */
class MeasuredLinksTest {
    /** A DGX H100: NVLink 4 at 450 GB/s per direction, PCIe Gen5 x16, 8 × 400 Gb/s RDMA NICs. */
    private static final Links DGX = new Links(8, 8, true, false, 4, 450e9, 5, 63e9, true, 8 * 50e9, Links.Transport.RDMA, 8,
            "400 Gb/s ConnectX-7", null, null, 0);
    private static final Span AT = Span.at("ibstat.txt", 11, 1);
    private static final Efficiency EFF = Efficiency.of(Map.ofEntries(Map.entry("gemm", 0.7), Map.entry("gemm_fp8", 0.6),
            Map.entry("gemm_kernel_s", 1e-5), Map.entry("expert_gemm_s", 26e-6), Map.entry("expert_gemm_fp8_s", 26e-6), Map.entry("attention", 0.3), Map.entry("hbm", 0.8), Map.entry("traffic", 9.0),
            Map.entry("layer_s", 2e-4), Map.entry("nvlink", 0.8), Map.entry("pcie", 0.8), Map.entry("network", 0.9), Map.entry("tcp", 0.5),
            Map.entry("dp_overlap", 0.39), Map.entry("tp_overlap", 0.0), Map.entry("pp_overlap", 0.8), Map.entry("cp_overlap", 0.8)), "test");

    /** The data-parallel all-reduce of 1 GB per rank over 2 nodes, one rank per node, at line rate. */
    private static double dpSeconds(Links k) {
        // the bytes' time: NCCL's latency α (NcclLatency) does not scale with the ports' rate
        return CollectiveCost.price(k, null, Map.of(), Collective.ALL_REDUCE, 2, 8, 1e9).bandwidthSeconds();
    }

    @Test
    void nothingReplacedIsTheCatalogsLinks() {
        MeasuredLinks m = MeasuredLinks.of(DGX);
        assertTrue(m.unchanged());
        assertSame(DGX, m.links());
    }

    @Test
    void portsAtAQuarterOfTheirRateTakeFourTimesAsLongAcrossNodes() {
        MeasuredLinks m = MeasuredLinks.of(DGX).portRate(800, 8, AT);
        assertEquals(100e9, m.links().nicPerNode());
        assertEquals(4 * dpSeconds(DGX), dpSeconds(m.links()), 1e-12);
        assertEquals(450e9, m.links().scaleUpPerDirection(), "NVLink untouched");
        MeasuredLinks.Change c = m.changes().get(0);
        assertEquals("port-rate", c.id());
        assertEquals(Tier.NETWORK, c.tier());
        assertEquals("8 × 400 Gb/s ConnectX-7 per node (RDMA): 3200 Gb/s per node", c.catalog());
        assertEquals("8 ports up at 800 Gb/s together", c.measured());
        assertSame(AT, c.where());
    }

    @Test
    void socketsKeepTheNicsAndChangeTheTransport() {
        MeasuredLinks m = MeasuredLinks.of(DGX).sockets(AT);
        assertEquals(Links.Transport.TCP, m.links().transport());
        assertEquals(DGX.nicPerNode(), m.links().nicPerNode());
        assertEquals("NCCL's TCP socket transport (NET/Socket)", m.changes().get(0).measured());
        assertSame(m, m.sockets(AT), "a second NET/Socket line changes nothing more");
        Efficiency e = EFF;
        double rdma = CollectiveCost.price(DGX, e, Map.of(), Collective.ALL_REDUCE, 2, 8, 1e9).bandwidthSeconds();
        double tcp = CollectiveCost.price(m.links(), e, Map.of(), Collective.ALL_REDUCE, 2, 8, 1e9).bandwidthSeconds();
        assertEquals(e.network() / e.tcp(), tcp / rdma, 1e-9, "the catalog's socket efficiency prices it");
    }

    @Test
    void aGpuWithNoNvlinkUpPutsTheNodesTrafficOnPcie() {
        MeasuredLinks m = MeasuredLinks.of(DGX).scaleUpLinks(0, 18, AT);
        assertFalse(m.links().scaleUp());
        assertEquals(Tier.PCIE, Tier.of(8, 1, 8, m.links().domainSize(), m.links().scaleUp(), 0), "tp 8 now runs on PCIe");
        assertEquals("a GPU with no NVLink up: traffic inside the node rides PCIe Gen5 at 63.0 GB/s per direction", m.changes().get(0).measured());
    }

    @Test
    void someNvlinksDownScaleTheRateToTheWorstGpusShare() {
        MeasuredLinks m = MeasuredLinks.of(DGX).scaleUpLinks(12, 18, AT);
        assertTrue(m.links().scaleUp());
        assertEquals(300e9, m.links().scaleUpPerDirection(), 1);
        assertSame(m, m.scaleUpLinks(18, 18, AT), "every link up changes nothing");
    }

    @Test
    void aBusBandwidthReplacesItsTierOnTheHardware() {
        MeasuredLinks m = MeasuredLinks.of(DGX).busbw(Tier.NETWORK, 2.9e9, "the NICs", AT);
        Hardware hw = new Hardware("H100-SXM5-80GB", 80e9, Map.of(ModelShape.Dtype.BF16, 989e12), 3.35e12, DGX,
                Map.of(Tier.NVLINK, 360e9), EFF);
        Hardware on = m.on(hw);
        assertEquals(Map.of(Tier.NVLINK, 360e9, Tier.NETWORK, 2.9e9), on.measured());
        assertEquals(List.of("busbw-network"), m.changes().stream().map(MeasuredLinks.Change::id).toList());
        assertEquals(hw.peakFlops(), on.peakFlops());
    }
}
