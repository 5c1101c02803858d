package dev.gpulint.derive.estimate;

import dev.gpulint.spec.ParallelDim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.plan.EstimateWords;
import dev.gpulint.derive.Fixture;
import dev.gpulint.derive.net.AllReduceAnalysis;
import dev.gpulint.facts.AllReduceFact;
import dev.gpulint.testing.EstimateManifest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One model of what a collective costs on each tier (issue 34): the seed's table reproduced, the gradients' dtype as
 * the job states it, declared NICs whatever their protocol, an all-to-all's remote share on each rank's own NIC, and
 * multi-host NVLink domains priced on NVLink. Cases written from hardware-facts §1, §2 and §7.
 */
class CollectiveCostTest {

    /** An HGX H100 node: NVLink 4 450 GB/s per direction, PCIe Gen5 63 GB/s, {@code nics} NICs of {@code perNic} each. */
    private static Links hgx(long nics, double perNic, Links.Transport t) {
        return new Links(8, 8, true, false, 4, 450e9, 5, 63e9, true, nics * perNic, t, nics, "test NIC", null, null, 0);
    }

    @Test
    void eachCollectiveMovesItsOwnVolume() {
        double s = 16e9;
        assertEquals(2 * 7.0 / 8 * s, Collective.ALL_REDUCE.bytesPerRank(8, s), 1);
        assertEquals(7.0 / 8 * s, Collective.REDUCE_SCATTER.bytesPerRank(8, s), 1);
        assertEquals(7.0 / 8 * s, Collective.ALL_GATHER.bytesPerRank(8, s), 1);
        assertEquals(7.0 / 8 * s, Collective.ALL_TO_ALL.bytesPerRank(8, s), 1, "an all-to-all is (n−1)/n·S, as nccl-tests counts it");
        assertEquals(0, Collective.ALL_REDUCE.bytesPerRank(1, s), "a group of one moves nothing");
        assertEquals(Collective.ALL_TO_ALL, Collective.of("all_to_all"));
        assertEquals(Collective.ALL_REDUCE, Collective.of("allreduce"));
    }

    @Test
    void withersChangeOnlyWhatTheySay() {
        Links k = hgx(8, 50e9, Links.Transport.RDMA);
        Links rack = k.withDomain(8, 72);
        assertEquals(new Links(8, 72, true, false, 4, 450e9, 5, 63e9, true, 400e9, Links.Transport.RDMA, 8, "test NIC", null, null, 0), rack);
        Links pcie = k.withoutScaleUp();
        assertEquals(new Links(8, 1, false, false, 0, 0, 5, 63e9, true, 400e9, Links.Transport.RDMA, 8, "test NIC", null, null, 0), pcie);
        assertEquals(Tier.PCIE, CollectiveCost.price(pcie, null, Map.of(), Collective.ALL_REDUCE, 8, 1, 1e9).tier());
    }

    @Test
    void theSeedsThreeTiersComeOutAtLineRate() {
        // Llama 3 8B in bf16, dp 8: 16 GB of gradients, 2(N−1)/N·S = 28 GB per GPU
        double s = 16e9;
        Links k = hgx(8, 50e9, Links.Transport.RDMA);
        CollectiveCost nv = CollectiveCost.price(k, null, Map.of(), Collective.ALL_REDUCE, 8, 1, s);
        assertEquals(Tier.NVLINK, nv.tier());
        assertEquals(28e9, nv.bytesPerRank(), 1);
        assertEquals(0.0622, nv.idealSeconds(), 0.0622 * 0.01, "~62 ms over NVLink 4 at 450 GB/s per direction");
        // the same ring with one rank per node: one 400 Gb/s NIC per GPU
        CollectiveCost ib = CollectiveCost.price(k, null, Map.of(), Collective.ALL_REDUCE, 8, 8, s);
        assertEquals(Tier.NETWORK, ib.tier());
        assertEquals(50e9, ib.lineRate(), 1);
        assertEquals(0.56, ib.idealSeconds(), 0.56 * 0.01, "~0.56 s over one 400 Gb/s NIC per GPU");
        CollectiveCost eth = CollectiveCost.price(hgx(8, 3.125e9, Links.Transport.TCP), null, Map.of(), Collective.ALL_REDUCE, 8, 8, s);
        assertEquals(8.96, eth.idealSeconds(), 8.96 * 0.01, "~9 s over 25GbE");
        assertEquals(1, eth.efficiency(), "no efficiency: line rate");
    }

    @Test
    void theEstimateAppliesTheTiersOwnEfficiencyAndTcpHasItsOwn() {
        Efficiency e = Efficiency.of(Map.ofEntries(Map.entry("gemm", 0.7), Map.entry("gemm_fp8", 0.6), Map.entry("gemm_kernel_s", 1e-5), Map.entry("expert_gemm_s", 26e-6), Map.entry("expert_gemm_fp8_s", 26e-6),
                Map.entry("attention", 0.3), Map.entry("hbm", 0.8), Map.entry("traffic", 9.0), Map.entry("layer_s", 2e-4),
                Map.entry("nvlink", 0.8), Map.entry("pcie", 0.8), Map.entry("network", 0.9), Map.entry("tcp", 0.5),
                Map.entry("dp_overlap", 0.39), Map.entry("tp_overlap", 0.0), Map.entry("pp_overlap", 0.8), Map.entry("cp_overlap", 0.8)), "test");
        CollectiveCost rdma = CollectiveCost.price(hgx(8, 3.125e9, Links.Transport.RDMA), e, Map.of(), Collective.ALL_REDUCE, 8, 8, 16e9);
        CollectiveCost tcp = CollectiveCost.price(hgx(8, 3.125e9, Links.Transport.TCP), e, Map.of(), Collective.ALL_REDUCE, 8, 8, 16e9);
        // the efficiency divides the bandwidth term; NCCL's latency α is the same on both (NcclLatency)
        assertEquals((rdma.idealSeconds() - rdma.latency()) / 0.9, rdma.bandwidthSeconds(), 1e-9);
        assertEquals((tcp.idealSeconds() - tcp.latency()) / 0.5, tcp.bandwidthSeconds(), 1e-9, "TCP sockets: half the line rate (NVIDIA/nccl#209, #450)");
        assertEquals(rdma.latency(), tcp.latency());
        // a measured network busbw replaces line rate × efficiency (the node's, shared by its rings)
        CollectiveCost m = CollectiveCost.price(hgx(8, 50e9, Links.Transport.RDMA), e, Map.of(Tier.NETWORK, 320e9), Collective.ALL_REDUCE, 8, 8, 16e9);
        assertTrue(m.measured());
        assertEquals(28e9 / 40e9, m.bandwidthSeconds(), 1e-9);
    }

    @Test
    void aRingAcrossNodesSharesTheNodesNicsButAnAllToAllUsesEachRanksOwn() {
        Links k = hgx(8, 50e9, Links.Transport.RDMA);
        // 16 ranks over two nodes, 8 per node: the ring crosses each node once per channel and gets all 8 NICs
        CollectiveCost ring = CollectiveCost.price(k, null, Map.of(), Collective.ALL_REDUCE, 16, 1, 1e9);
        assertEquals(Tier.NETWORK, ring.tier());
        assertEquals(8, ring.local());
        assertEquals(400e9, ring.lineRate(), 1, "8 NICs × 50 GB/s");
        assertEquals(CollectiveCost.Limit.NICS, ring.limit());
        // the all-to-all: half of each rank's bytes stay on NVLink, the other half go through its own 50 GB/s NIC
        CollectiveCost a2a = CollectiveCost.price(k, null, Map.of(), Collective.ALL_TO_ALL, 16, 1, 1e9);
        assertEquals(Tier.NETWORK, a2a.tier());
        assertEquals(0.5e9, a2a.remoteBytes(), 1, "a two-node all-to-all keeps half on NVLink");
        assertEquals(CollectiveCost.Limit.OWN_NIC, a2a.limit());
        assertEquals(0.5e9 / 50e9 + 22.4e-6, a2a.idealSeconds(), 1e-12, "+ one network step of NCCL's: 8.4 + 14 µs");
        assertEquals(15.0 / 16 * 1e9 / (0.5e9 / 50e9), a2a.lineRate(), 1, "93.75 GB/s per rank in effect");
        assertTrue(a2a.lineRate() < ring.lineRate() / 4, "not the node's 400 GB/s as a ring gets");
        // inside one node it is NVLink's
        CollectiveCost inside = CollectiveCost.price(k, null, Map.of(), Collective.ALL_TO_ALL, 8, 1, 1e9);
        assertEquals(Tier.NVLINK, inside.tier());
        assertEquals(7.0 / 8 * 1e9 / 450e9 + 11.8e-6, inside.idealSeconds(), 1e-12, "+ one step inside: 8.4 + 3.4 µs");
    }

    @Test
    void aOneGpuNodeReachesItsNicsThroughItsPcieLink() {
        Links k = new Links(1, 1, true, false, 4, 450e9, 5, 63e9, true, 400e9, Links.Transport.RDMA, 8, "400 Gb/s", null, null, 0);
        CollectiveCost c = CollectiveCost.price(k, null, Map.of(), Collective.ALL_REDUCE, 8, 1, 1e9);
        assertEquals(63e9, c.lineRate(), 1);
        assertEquals(CollectiveCost.Limit.HOST_LINKS, c.limit());
    }

    @Test
    void anNvl72RackIsOneNvlinkDomainAcrossItsTrays() {
        // GB200 NVL72: trays of 4 GPUs, one NVLink domain of 72
        assertEquals(Tier.NVLINK, Tier.of(72, 1, 4, 72, true, 0));
        assertEquals(Tier.NETWORK, Tier.of(144, 1, 4, 72, true, 0), "two racks: the NICs between them");
        assertEquals(Tier.NETWORK, Tier.of(8, 1, 4, 4, true, 0), "trays of an HGX-style node of 4 without a rack domain");
        assertEquals(Tier.PCIE, Tier.of(4, 1, 8, 2, true, 0), "bridged pairs: four GPUs of a node cross PCIe");
        Links rack = new Links(4, 72, true, false, 5, 900e9, 6, 121e9, false, 200e9, Links.Transport.RDMA, 4, "400 Gb/s", null, null, 0);
        CollectiveCost c = CollectiveCost.price(rack, null, Map.of(), Collective.ALL_REDUCE, 72, 1, 1e9);
        assertEquals(Tier.NVLINK, c.tier());
        assertEquals(900e9, c.lineRate(), 1);
        // across two racks a ring crosses each rack once per channel: its 72 ranks there share the rack's 72 NICs
        CollectiveCost two = CollectiveCost.price(rack, null, Map.of(), Collective.ALL_REDUCE, 144, 1, 1e9);
        assertEquals(72, two.local());
        assertEquals(900e9, two.lineRate(), 1, "72 × 50 GB/s of NICs, capped by the NVLink inside");
    }

    @Test
    void aSendAcrossNodesGoesThroughOneNicOnAnNvl72RackAndAnHgxNodeAlike() {
        // GB200 NVL72: trays of 4 GPUs with 4 × 400 Gb/s NICs, a domain of 72. A pipeline of 8 stages 18 ranks apart (tp 2,
        // dp 9) puts 4 stages in each of two racks: one send crosses between them, from one GPU through one NIC
        Links rack = new Links(4, 72, true, false, 5, 900e9, 6, 121e9, false, 200e9, Links.Transport.RDMA, 4, "400 Gb/s", null, null, 0);
        CollectiveCost pp = CollectiveCost.price(rack, null, Map.of(), Collective.SEND, 8, 18, 1e9);
        assertEquals(Tier.NETWORK, pp.tier());
        assertEquals(1, pp.local(), "a send is one pair of GPUs, not the rack's 4 stages sharing its NICs");
        assertEquals(50e9, pp.lineRate(), 1, "one 400 Gb/s NIC, not 4 GPUs' share of them (200 GB/s)");
        assertEquals(CollectiveCost.Limit.OWN_NIC, pp.limit());
        assertEquals(1e9 / 50e9, pp.idealSeconds() - pp.latency(), 1e-12);
        assertEquals(22.4e-6, pp.latency(), 1e-12);
        // the same pipeline inside one rack (9 apart): NVLink 5 at 900 GB/s per direction
        CollectiveCost inRack = CollectiveCost.price(rack, null, Map.of(), Collective.SEND, 8, 9, 1e9);
        assertEquals(Tier.NVLINK, inRack.tier());
        assertEquals(900e9, inRack.lineRate(), 1);
        assertEquals(CollectiveCost.Limit.SCALE_UP, inRack.limit());
        // DGX H100 (8 NICs of 400 Gb/s): tp 8 and pp over nodes, or tp 2 with 4 stages on each node: the same 50 GB/s
        Links dgx = hgx(8, 50e9, Links.Transport.RDMA);
        CollectiveCost tp8 = CollectiveCost.price(dgx, null, Map.of(), Collective.SEND, 4, 8, 1e9);
        CollectiveCost tp2 = CollectiveCost.price(dgx, null, Map.of(), Collective.SEND, 8, 2, 1e9);
        assertEquals(50e9, tp8.lineRate(), 1);
        assertEquals(50e9, tp2.lineRate(), 1, "not 4 stages' share of the node's NICs (200 GB/s)");
        assertEquals(CollectiveCost.Limit.OWN_NIC, tp2.limit());
        // a NIC faster than the GPU's PCIe link to it: the link bounds the send (800 Gb/s on PCIe Gen5 x16)
        CollectiveCost slowLink = CollectiveCost.price(hgx(8, 100e9, Links.Transport.RDMA), null, Map.of(), Collective.SEND, 8, 2, 1e9);
        assertEquals(63e9, slowLink.lineRate(), 1);
        assertEquals(CollectiveCost.Limit.HOST_LINKS, slowLink.limit());
        // a measured multi-host bus bandwidth is the node's: one GPU's NIC gets its 1/8
        Efficiency e = Efficiency.of(Map.ofEntries(Map.entry("gemm", 0.7), Map.entry("gemm_fp8", 0.6), Map.entry("gemm_kernel_s", 1e-5), Map.entry("expert_gemm_s", 26e-6), Map.entry("expert_gemm_fp8_s", 26e-6),
                Map.entry("attention", 0.3), Map.entry("hbm", 0.8), Map.entry("traffic", 9.0), Map.entry("layer_s", 2e-4),
                Map.entry("nvlink", 0.8), Map.entry("pcie", 0.8), Map.entry("network", 0.9), Map.entry("tcp", 0.5),
                Map.entry("dp_overlap", 0.39), Map.entry("tp_overlap", 0.0), Map.entry("pp_overlap", 0.8), Map.entry("cp_overlap", 0.8)), "test");
        CollectiveCost at09 = CollectiveCost.price(dgx, e, Map.of(), Collective.SEND, 8, 2, 1e9);
        assertEquals(1e9 / 45e9, at09.bandwidthSeconds(), 1e-12, "45 GB/s: 50 GB/s × network 0.9");
        CollectiveCost measured = CollectiveCost.price(dgx, e, Map.of(Tier.NETWORK, 320e9), Collective.SEND, 8, 2, 1e9);
        assertTrue(measured.measured());
        assertEquals(1e9 / 40e9, measured.bandwidthSeconds(), 1e-12);
    }

    private static Fixture nvl72(long nodes, String parallelism, long globalBatch) {
        return EstimateManifest.on("GB200").group("trays").nodes((int) nodes).gpusPerNode(4).nvlink("switch: true, domain_size: 72")
                .nics("{ model: ConnectX-7, count: 4, speed: 400 Gb/s, protocol: infiniband }").model(LLAMA3_8B).parallelism(parallelism)
                .batch(1, (int) globalBatch).optimizer("zero_stage: 0, distributed: true").fixture();
    }

    @Test
    void anNvl72PipelineAcrossRacksSendsThroughOneNicAndInsideARackOverNvlink() {
        // two racks (36 trays), tp 2, pp 8, dp 9: the pipeline's ranks are 18 apart, 4 stages in each rack
        Fixture across = nvl72(36, "tp: 2, pp: 8", 144);
        JobEstimate j = JobEstimate.of(across.jobs().get(0), across.catalog());
        assertEquals(9, j.estimate().layout().dp());
        assertEquals(Tier.NETWORK, j.estimate().time().tiers().get(ParallelDim.PP));
        String pp = j.estimate().terms().stream().filter(n -> n.term().equals("pp")).map(EstimateWords::text).findFirst().orElseThrow();
        assertTrue(pp.contains("(a send is one pair of GPUs: the sending GPU's own NIC) at 45 GB/s (50 GB/s line rate × 0.90)"), pp);
        // one rack, pp 8 and dp 9: the pipeline stays inside the NVLink domain
        Fixture inside = nvl72(18, "tp: 1, pp: 8", 144);
        JobEstimate r = JobEstimate.of(inside.jobs().get(0), inside.catalog());
        assertEquals(Tier.NVLINK, r.estimate().time().tiers().get(ParallelDim.PP));
        String rp = r.estimate().terms().stream().filter(n -> n.term().equals("pp")).map(EstimateWords::text).findFirst().orElseThrow();
        assertTrue(rp.contains("over NVLink 5 at 837 GB/s (900 GB/s line rate × 0.93)"), rp);
        assertFalse(rp.contains("NIC"), rp);
    }

    private static final String LLAMA3_8B = EstimateManifest.LLAMA3_8B + ", seq_length: 8192, parameters: 8.03B";

    private static Fixture job(String nics, long nodes, String parallelism, String optimizer) {
        return EstimateManifest.h100().nodes((int) nodes).nics(nics).model(LLAMA3_8B).parallelism(parallelism).batch(1, 128)
                .optimizer(optimizer).fixture();
    }

    private static final String IB8 = "{ model: ConnectX-7, count: 8, speed: 400 Gb/s, protocol: infiniband }";
    private static final String ETH25 = "{ count: 1, speed: 25 Gb/s, protocol: ethernet }";

    private static TierTable table(JobEstimate j) {
        return TierTable.dataParallel(j.estimate(), j.inputs().hardware(), j.inputs().order());
    }

    private static TierTable.Row row(TierTable t, String id) {
        return t.rows().stream().filter(r -> r.id().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void thePlansTableReproducesTheSeedForAJobThatReducesInBf16() {
        Fixture f = job(IB8, 1, "tp: 1, pp: 1", "zero_stage: 0, distributed: true, bytes_per_parameter: 16");
        JobEstimate j = JobEstimate.of(f.jobs().get(0), f.catalog());
        TierTable t = table(j);
        assertEquals(8, t.n());
        assertEquals(16.06e9, t.bytes(), 0.05e9, "8.03B parameters × 2 bytes");
        assertEquals(List.of("nvlink", "pcie", "network", "ib-400g", "25gbe"), t.rows().stream().map(TierTable.Row::id).toList());
        assertEquals("NVLink 4", row(t, "nvlink").name());
        assertTrue(row(t, "nvlink").asPlaced(), "dp 8 in one HGX node runs on NVLink");
        // tolerance: 2 % of the seed's rounded figures, computed from 28 GB at line rate
        assertEquals(0.062, row(t, "nvlink").cost().idealSeconds(), 0.062 * 0.02);
        assertEquals(0.56, row(t, "ib-400g").cost().idealSeconds(), 0.56 * 0.02);
        assertEquals(9.0, row(t, "25gbe").cost().idealSeconds(), 9.0 * 0.02);
        assertEquals(row(t, "ib-400g").cost().idealSeconds(), row(t, "network").cost().idealSeconds(), 1e-9,
                "the declared 8 × 400 Gb/s per node, one rank per node: one NIC per GPU");
        CollectiveCost nv = row(t, "nvlink").cost(), eth = row(t, "25gbe").cost();
        assertEquals((nv.idealSeconds() - nv.latency()) / 0.8, nv.bandwidthSeconds(), 1e-9, "Hopper's nvlink 0.8");
        assertEquals((eth.idealSeconds() - eth.latency()) / 0.5, eth.bandwidthSeconds(), 1e-9, "tcp 0.5");
        assertTrue(j.inputs().assumptions().stream().anyMatch(a -> a.startsWith("gradients reduced in 16-bit (2 bytes each): "
                + "optimizer.bytes_per_parameter 16 as written")), j.inputs().assumptions().toString());
        // the estimate's own dp term moves the same bytes, in Megatron's buckets of 40M parameters: ⌈8.03B / 40M⌉ = 201
        Estimate.Traffic rs = j.estimate().traffic(ParallelDim.DP, Collective.REDUCE_SCATTER).orElseThrow();
        assertEquals(201, rs.count());
        assertEquals(t.bytes(), rs.count() * rs.cost().bytes(), 1);
    }

    @Test
    void withoutAStatementBf16GradientsAreReducedInFp32AndTheAssumptionSaysSo() {
        Fixture f = job(IB8, 1, "tp: 1, pp: 1", "zero_stage: 0");
        JobEstimate j = JobEstimate.of(f.jobs().get(0), f.catalog());
        TierTable t = table(j);
        assertEquals(32.1e9, t.bytes(), 0.1e9, "8.03B × 4 bytes of fp32 main gradients");
        assertEquals(0.125, row(t, "nvlink").cost().idealSeconds(), 0.125 * 0.02, "twice the bf16 figure");
        assertTrue(j.inputs().assumptions().stream().anyMatch(a -> a.startsWith("gradients reduced in fp32 (4 bytes each): bf16, "
                + "the default of Megatron-LM")), j.inputs().assumptions().toString());
        Estimate.Traffic ar = j.estimate().traffic(ParallelDim.DP, Collective.ALL_REDUCE).orElseThrow();
        assertEquals(t.bytes(), ar.count() * ar.cost().bytes(), 1);
    }

    @Test
    void aTwentyFiveGbeClusterIsPricedOnItsOwnNicsAndAgreesWithNet003() {
        Fixture f = job(ETH25, 2, "tp: 1, pp: 1", "zero_stage: 0, bytes_per_parameter: 16");
        JobEstimate j = JobEstimate.of(f.jobs().get(0), f.catalog());
        assertFalse(j.inputs().assumptions().stream().anyMatch(a -> a.contains("400 Gb/s NIC per GPU assumed")), j.inputs().assumptions().toString());
        assertTrue(j.inputs().assumptions().stream().anyMatch(a -> a.contains("1 × 25 Gb/s per node (plain Ethernet: NCCL over TCP sockets)")));
        CollectiveCost dp = j.estimate().traffic(ParallelDim.DP, Collective.REDUCE_SCATTER).or(() -> j.estimate().traffic(ParallelDim.DP, Collective.ALL_REDUCE))
                .orElseThrow().cost();
        assertEquals(Tier.NETWORK, dp.tier());
        assertEquals(3.125e9, dp.lineRate(), 1, "16 ranks, 8 per node: the ring crosses the node's one 25GbE port");
        assertEquals(0.5, dp.efficiency(), "TCP's efficiency, not RDMA's 0.9");
        TierTable t = table(j);
        TierTable.Row net = row(t, "network");
        assertTrue(net.asPlaced());
        List<AllReduceFact> facts = f.jobFacts(AllReduceFact.class, (r, out) -> AllReduceAnalysis.job(r, f.catalog(), java.util.Map.of(), java.util.Map.of(), out));
        assertEquals(1, facts.size());
        AllReduceFact a = facts.get(0);
        assertEquals(AllReduceFact.Link.NETWORK, a.getLink());
        assertEquals(net.cost().lineRate(), a.getLinkBytesPerSecond(), 1, "NET003 and the plan price the same link");
        assertEquals(2, a.getBytesPerGradient(), "and the same gradient bytes");
        assertEquals(net.cost().efficiency(), a.getEfficiency(), 1e-12);
        assertTrue(a.isTcp());
        // NET003 is a bandwidth floor: the plan's table adds NCCL's latency α, NET003 does not
        double alpha = net.cost().latency();
        assertTrue(alpha > 0);
        assertEquals(a.getSeconds() / 0.5, a.getEstimatedSeconds(), 1e-9);
        double perByte = (net.cost().idealSeconds() - alpha) / t.bytes();
        assertEquals(perByte, a.getSeconds() / a.getGradientBytes(), perByte * 1e-9, "the same seconds per gradient byte");
    }

    private static final String MOE = "dtype: bf16, layers: 32, hidden_size: 4096, attention_heads: 32, kv_heads: 8, ffn_hidden_size: 14336,"
            + " vocab_size: 32000, gated_mlp: true, tied_embeddings: false, seq_length: 4096, experts: 16, top_k: 2";

    @Test
    void expertsSpreadAcrossServersPayEachRanksOwnNic() {
        JobEstimate j = EstimateManifest.h100().nodes(2).nics(IB8).model(MOE).parallelism("tp: 1, pp: 1, ep: 8").batch(1, 64)
                .optimizer("zero_stage: 0, distributed: true").estimate();
        Layout inside = j.inputs().layout();
        assertEquals(8, inside.ep());
        Layout across = inside.withSizes(inside.tp(), inside.pp(), inside.dp(), inside.cp(), 16, inside.virtualPp());
        Estimate a = Estimator.estimate(j.inputs().model(), inside, j.inputs().hardware(), j.inputs().order(), j.inputs().bytes());
        Estimate b = Estimator.estimate(j.inputs().model(), across, j.inputs().hardware(), j.inputs().order(), j.inputs().bytes());
        CollectiveCost in = a.traffic(ParallelDim.EP, Collective.ALL_TO_ALL).orElseThrow().cost();
        CollectiveCost out = b.traffic(ParallelDim.EP, Collective.ALL_TO_ALL).orElseThrow().cost();
        assertEquals(Tier.NVLINK, in.tier());
        assertEquals(Tier.NETWORK, out.tier());
        assertEquals(CollectiveCost.Limit.OWN_NIC, out.limit());
        assertEquals(out.bytes() / 2, out.remoteBytes(), 1);
        assertEquals(7.0 / 8 * in.bytes(), in.bytesPerRank(), 1, "(n−1)/n·S, not 2(n−1)/n·S");
        // inside: 7/8·S at 450 × 0.8 GB/s; across: S/2 through a 50 × 0.9 GB/s NIC, 4.6 times as long
        assertTrue(b.time().comm().get(ParallelDim.EP) > 4 * a.time().comm().get(ParallelDim.EP), "across servers the all-to-all is several times slower");
        // the step as a whole no longer ranks ep 8 first here (review8, after moe7's ExpertDpSync): at ep 8 each expert has a
        // replica on the other server and its gradients reduce over that 2-rank expert data-parallel group through the NIC
        // (0.80 s of dp against 0.03 s at ep 16, where no expert is replicated), which outweighs the all-to-all's 0.30 s
        assertTrue(a.time().comm().get(ParallelDim.DP) > 10 * b.time().comm().get(ParallelDim.DP),
                "ep 8 syncs its experts' replicas across the servers; ep 16 has none: " + a.time().comm() + " " + b.time().comm());
        assertTrue(b.terms().stream().anyMatch(n -> n.term().equals("ep") && EstimateWords.text(n).contains("through its own NIC")), b.terms().toString());
    }

    @Test
    void anNvl72JobIsPricedOnNvlinkAndAnAmdJobNamesInfinityFabric() {
        Fixture f = nvl72(18, "tp: 1, pp: 1", 144);
        JobEstimate j = JobEstimate.of(f.jobs().get(0), f.catalog());
        assertEquals(72, j.estimate().layout().dp());
        assertEquals(Tier.NVLINK, j.estimate().time().tiers().get(ParallelDim.DP), "72 GPUs over 18 trays: one NVLink domain");
        assertTrue(j.estimate().terms().stream().anyMatch(n -> n.term().equals("dp") && EstimateWords.text(n).contains("NVLink 5")), j.estimate().terms().toString());
        assertFalse(j.estimate().terms().stream().anyMatch(n -> EstimateWords.text(n).contains("Infinity Fabric")), "an NVIDIA job never says Infinity Fabric");
        assertTrue(j.inputs().assumptions().stream().anyMatch(a -> a.contains("one domain of 72 GPUs across 18 nodes")));

        JobEstimate m = EstimateManifest.on("MI300X").nvlink(null).nics("{ count: 8, speed: 400 Gb/s, protocol: roce }").model(LLAMA3_8B)
                .parallelism("tp: 1, pp: 1").batch(1, 64).optimizer("zero_stage: 0, distributed: true").estimate();
        assertTrue(m.estimate().terms().stream().anyMatch(n -> n.term().equals("dp") && EstimateWords.text(n).contains("over Infinity Fabric")),
                m.estimate().terms().toString());
        assertFalse(m.estimate().terms().stream().anyMatch(n -> EstimateWords.text(n).contains("NVLink")), "an AMD job never says NVLink");
        assertEquals("Infinity Fabric", table(m).rows().get(0).name());
    }

    @Test
    void aStrideBelowOneIsNeighbouringRanksOnTheOnePath() {
        // price(n, stride) builds its group by RankGroup.strided, which takes a stride below 1 as 1: the estimate's strides are
        // products of layout sizes (at least 1), so only a direct caller can pass 0, and it gets the neighbouring ranks' price
        Links k = hgx(8, 50e9, Links.Transport.RDMA);
        CollectiveCost one = CollectiveCost.price(k, null, Map.of(), Collective.ALL_REDUCE, 8, 1, 1e9);
        assertEquals(one, CollectiveCost.price(k, null, Map.of(), Collective.ALL_REDUCE, 8, 0, 1e9));
        assertEquals(one, CollectiveCost.price(k, null, Map.of(), Collective.ALL_REDUCE, 8, -3, 1e9));
        assertEquals(one, CollectiveCost.price(k, null, Map.of(), Collective.ALL_REDUCE, RankGroup.strided(8, 1), 1e9));
        assertEquals(RankGroup.strided(8, 1), RankGroup.strided(8, 0));
        assertEquals(Tier.NVLINK, one.tier());
    }
}
