package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.testing.EstimateManifest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The flex dispatcher (DeepEP / HybridEP) priced as it moves tokens across nodes (FlexDispatch): the expected distinct nodes
 * and ranks among a token's k experts, worked by hand (math.comb), and the ep term of our own manifests on DGX H100 pods.
 */
class FlexDispatchTest {

    @Test
    void oneNodeIsOneNodeWhateverTheRouting() {
        assertEquals(1, FlexDispatch.expectedUnits(256, 8, 1, 0, 0), 0);
        assertEquals(1, FlexDispatch.expectedUnits(256, 8, 1, 8, 4), 0);
        FlexDispatch.Traffic t = FlexDispatch.traffic(256, 8, 8, 8, 0, 0);
        assertEquals(1, t.nodes());
        assertEquals(0, t.remote(), 0, "nothing leaves the node");
    }

    @Test
    void topEightOf256OnFourNodesReachesThreeAndAHalfNodes() {
        // 4 · (1 − C(192, 8) / C(256, 8)) = 3.614214305566513 (python: math.comb)
        assertEquals(3.614214305566513, FlexDispatch.expectedUnits(256, 8, 4, 0, 0), 1e-12);
        // ep 32, 8 ranks a node: remote copies 3.6142 · 3/4 = 2.7107 where the all-to-all sends 8 · 24/32 = 6
        FlexDispatch.Traffic t = FlexDispatch.traffic(256, 8, 32, 8, 0, 0);
        assertEquals(4, t.nodes());
        assertEquals(3.614214305566513 * 3 / 4, t.remote(), 1e-12);
        assertEquals(6, t.allToAll(), 1e-12);
        // ranks: 32 · (1 − C(248, 8) / C(256, 8)) = 7.2667999173528806, forwarded over NVLink · 7/8
        assertEquals(7.2667999173528806, t.ranksHit(), 1e-12);
        assertEquals(7.2667999173528806 * 7 / 8, t.forwarded(), 1e-12);
    }

    @Test
    void groupLimitedRoutingCapsTheNodes() {
        // DeepSeek-V3's 8 groups, top-4, on 4 nodes (2 groups a node, 32 experts a group, a pool of 128):
        // 4 · Σ_j C(2, j)·C(6, 4 − j)/C(8, 4) · (1 − C(128 − 32j, 8)/C(128, 8)) = 2.9282097874345783
        assertEquals(2.9282097874345783, FlexDispatch.expectedUnits(256, 8, 4, 8, 4), 1e-12);
        // on 32 ranks (a group over 4 ranks): 32 · 4/8 · (1 − C(120, 8)/C(128, 8)) = 6.596512811001903
        assertEquals(6.596512811001903, FlexDispatch.expectedUnits(256, 8, 32, 8, 4), 1e-12);
        // 8 nodes, one group each: 8 · 4/8 · (1 − C(96, 8)/C(128, 8)) = 3.6290109244257005, never above the 4 groups
        double eight = FlexDispatch.expectedUnits(256, 8, 8, 8, 4);
        assertEquals(3.6290109244257005, eight, 1e-12);
        assertTrue(eight <= 4);
        // groups that fit the units neither way (3 groups on 4 nodes) are not applied: the uniform expectation
        assertEquals(FlexDispatch.expectedUnits(255, 8, 4, 0, 0), FlexDispatch.expectedUnits(255, 8, 4, 3, 2), 1e-12);
    }

    static final String QWEN3_30B = "dtype: bf16, layers: 48, hidden_size: 2048, attention_heads: 32, kv_heads: 4, head_dim: 128,"
            + " ffn_hidden_size: 768, experts: 128, top_k: 8, vocab_size: 151936, gated_mlp: true, tied_embeddings: false,"
            + " seq_length: 4096";

    static Estimate qwen(int nodes, int ep, String dispatcher) {
        return EstimateManifest.pod(nodes).model(QWEN3_30B + ", moe: { dispatcher: " + dispatcher + " }")
                .parallelism("tp: 1, ep: " + ep).batch(1, 256).optimizer("zero_stage: 1, distributed: true").recompute("none")
                .estimate().estimate();
    }

    static List<Term> ep(Estimate e) {
        return e.terms().stream().filter(t -> t.term().equals("ep")).toList();
    }

    @Test
    void flexAcrossTwoNodesSendsEachTokenOnceToTheOtherNode() {
        Estimate flex = qwen(2, 16, "flex");
        List<Term> terms = ep(flex);
        assertEquals(1, terms.size(), "" + terms);
        Term.Flex f = (Term.Flex) terms.get(0);
        // 48 MoE layers × 4 passes; 4,096 tokens of 2,048 × 2 bytes
        assertEquals(4 * 48, f.count(), 0);
        double token = 4096.0 * 2048 * 2;
        assertEquals(token, f.tokenBytes(), 0);
        // 2 nodes: E[nodes] = 2 · (1 − C(64, 8)/C(128, 8)) = 1.9938082714464158, half of it remote
        assertEquals(1.9938082714464158 / 2, f.traffic().remote(), 1e-12);
        // E[ranks] = 16 · (1 − C(120, 8)/C(128, 8)) = 6.596512811001903, 7/8 of it over NVLink
        assertEquals(6.596512811001903 * 7 / 8, f.traffic().forwarded(), 1e-12);
        CollectiveCost k = f.cost();
        assertEquals(Tier.NETWORK, k.tier());
        double remote = token * 1.9938082714464158 / 2, inside = token * 6.596512811001903 * 7 / 8;
        assertEquals(remote, k.remoteBytes(), 1e-3);
        // the NIC leg 0.88 × 50 GB/s, the NVLink leg 0.67 × 450 GB/s: the NIC decides
        double nic = remote / (50e9 * 0.88), nvl = inside / (450e9 * 0.67);
        assertTrue(nic > nvl);
        assertEquals(CollectiveCost.Limit.OWN_NIC, k.limit());
        assertEquals(nic, k.bandwidthSeconds(), 1e-12);
        // per step: 256 sequences ÷ (mbs 1 × dp 16) = 16 micro-batches
        assertEquals(16 * f.count() * k.seconds(), flex.time().comm().get(ParallelDim.EP), 1e-12);
        // the all-to-all of the same job sends k · (16 − 8)/16 = 4 token copies through each NIC: the flex term is below it
        double a2a = qwen(2, 16, "alltoall").time().comm().get(ParallelDim.EP);
        assertTrue(flex.time().comm().get(ParallelDim.EP) < a2a / 3, flex.time().comm() + " vs " + a2a);
    }

    @Test
    void alltoallIsPricedAsBeforeAndFlexInsideOneNodeAsTheAllToAll() {
        Estimate a2a = qwen(2, 16, "alltoall");
        List<Term> terms = ep(a2a);
        assertEquals(1, terms.size());
        Term.Collectives c = (Term.Collectives) terms.get(0);
        assertEquals("all-to-all per micro-batch", c.what());
        // 4 passes × 48 layers of T·k·h·2 bytes, each the one collective model's all-to-all over the 16 ranks
        double s = 4096.0 * 8 * 2048 * 2;
        assertEquals(s, c.cost().bytes(), 0);
        assertEquals(s * 8 / 16, c.cost().remoteBytes(), 1e-3);
        // ep 8 inside a node: flex and alltoall alike, to the last bit
        Estimate inFlex = qwen(2, 8, "flex"), inA2a = qwen(2, 8, "alltoall");
        assertTrue(ep(inFlex).get(0) instanceof Term.Collectives);
        assertEquals(inA2a.time().comm().get(ParallelDim.EP), inFlex.time().comm().get(ParallelDim.EP), 0);
        assertEquals(Tier.NVLINK, inFlex.time().tiers().get(ParallelDim.EP));
    }

    @Test
    void nothingToRouteWhenTheNodeHasNoNvlink() {
        // DeepEP forwards inside a node over NVLink: without it the flex price is not taken (the all-to-all's instead)
        Links pcie = new Links(8, 8, false, false, 0, 0, 4, 32e9, true, 8 * 50e9, Links.Transport.RDMA, 8, "ConnectX-7", null,
                null, 16);
        assertNull(FlexDispatch.price(pcie, null, RankGroup.strided(16, 1), 128, 8, 0, 0, 1e6, 1e5, FlexDispatch.Backend.DEEPEP));
        assertNull(FlexDispatch.price(pcie, null, RankGroup.strided(16, 1), 128, 8, 0, 0, 1e6, 1e5, FlexDispatch.Backend.HYBRIDEP));
    }

    /** A GB200 NVL72 rack (trays of 4, NVLink 5 900 GB/s per direction, a 400 Gb/s NIC per GPU), {@code gpus} of it the job's. */
    private static Links rack(long gpus) {
        return new Links(4, 72, true, false, 5, 900e9, 6, 121e9, false, 4 * 50e9, Links.Transport.RDMA, 4, "400 Gb/s", null, null, gpus);
    }

    @Test
    void deepEpInsideAnNvl72RackCrossesItsEightGpuGroupsThroughTheNics() {
        // ep 16 of one rack: DeepEP's 2 groups of 8 (NUM_MAX_NVL_PEERS), 128 experts top-8, at line rate (no efficiency)
        FlexDispatch.Priced p = FlexDispatch.price(rack(64), null, RankGroup.strided(16, 1), 128, 8, 0, 0, 8e6, 1e6,
                FlexDispatch.Backend.DEEPEP);
        assertTrue(p.deepEpGroups());
        assertEquals(2, p.traffic().nodes());
        assertEquals(8, p.traffic().local());
        // 2 · (1 − C(64, 8)/C(128, 8)) = 1.9938082714464158 groups, half of them the token's own; 16 · (1 − C(120, 8)/C(128, 8))
        // = 6.596512811001903 GPUs, 7/8 of them forwarded
        assertEquals(1.9938082714464158 / 2, p.traffic().remote(), 1e-12);
        assertEquals(6.596512811001903 * 7 / 8, p.traffic().forwarded(), 1e-12);
        CollectiveCost k = p.cost();
        assertEquals(Tier.NETWORK, k.tier(), "through the NICs, inside the rack");
        double nic = 1e6 * 1.9938082714464158 / 2 / 50e9, nvl = 1e6 * 6.596512811001903 * 7 / 8 / 900e9;
        assertEquals(Math.max(nic, nvl), k.bandwidthSeconds(), 1e-15);
        assertEquals(CollectiveCost.Limit.OWN_NIC, k.limit());
        // HybridEP spans the rack's NVLink domain: the all-to-all's pricing (null here); DeepEP up to its 8 peers too
        assertNull(FlexDispatch.price(rack(64), null, RankGroup.strided(16, 1), 128, 8, 0, 0, 8e6, 1e6, FlexDispatch.Backend.HYBRIDEP));
        assertNull(FlexDispatch.price(rack(64), null, RankGroup.strided(8, 1), 128, 8, 0, 0, 8e6, 1e6, FlexDispatch.Backend.DEEPEP));
        // across two racks (ep 144, the whole job): HybridEP's units are the racks (L 72), DeepEP's its 8-GPU groups
        FlexDispatch.Priced h = FlexDispatch.price(rack(144), null, RankGroup.strided(144, 1), 288, 8, 0, 0, 8e6, 1e6,
                FlexDispatch.Backend.HYBRIDEP);
        FlexDispatch.Priced d = FlexDispatch.price(rack(144), null, RankGroup.strided(144, 1), 288, 8, 0, 0, 8e6, 1e6,
                FlexDispatch.Backend.DEEPEP);
        assertEquals(72, h.traffic().local());
        assertEquals(2, h.traffic().nodes());
        assertEquals(8, d.traffic().local());
        assertEquals(18, d.traffic().nodes());
        assertTrue(d.deepEpGroups() && !h.deepEpGroups());
    }

    static JobEstimate qwenOnRack(String backend) {
        return EstimateManifest.on("GB200").cluster("nvl").fabric("type: infiniband, topology: rail-optimized").group("rack").nodes(8)
                .gpusPerNode(4).nvlink("switch: true, domain_size: 72")
                .nics("{ model: ConnectX-7, count: 4, speed: 400 Gb/s, protocol: infiniband, gpudirect_rdma: true }")
                .model(QWEN3_30B + ", moe: { dispatcher: flex" + backend + " }").parallelism("tp: 1, ep: 32").batch(1, 256)
                .optimizer("zero_stage: 1, distributed: true").recompute("none").estimate();
    }

    @Test
    void theBackendDecidesHowFlexCrossesAnNvl72Rack() {
        // 32 GPUs of one GB200 NVL72 rack, ep 32: DeepEP between its 4 groups of 8 through the NICs, HybridEP as the all-to-all
        JobEstimate said = qwenOnRack("");
        Estimate deepep = qwenOnRack(", flex_backend: deepep").estimate(), hybridep = qwenOnRack(", flex_backend: hybridep").estimate();
        Estimate unstated = said.estimate();
        Term.Flex f = (Term.Flex) ep(deepep).get(0);
        assertEquals(FlexDispatch.Backend.DEEPEP, f.backend());
        assertTrue(f.deepEpGroups());
        assertEquals(4, f.traffic().nodes());
        // 4 · (1 − C(96, 8)/C(128, 8)) = 3.6290109244257005 groups, 3/4 remote; 32 · (1 − C(124, 8)/C(128, 8)) = 7.359370078740156
        assertEquals(3.6290109244257005 * 3 / 4, f.traffic().remote(), 1e-12);
        assertEquals(7.359370078740156 * 7 / 8, f.traffic().forwarded(), 1e-12);
        double token = 4096.0 * 2048 * 2;
        assertEquals(50e9, f.links().nicPerGpu(), 0);
        assertEquals(900e9, f.links().scaleUpPerDirection(), 0);
        double nic = token * 3.6290109244257005 * 3 / 4 / (50e9 * 0.88), nvl = token * 7.359370078740156 * 7 / 8 / (900e9 * 0.67);
        assertEquals(nic, f.cost().bandwidthSeconds(), 1e-12, "the NIC leg decides");
        assertEquals(Tier.NETWORK, deepep.time().tiers().get(ParallelDim.EP));
        assertTrue(nic > nvl);
        // HybridEP: the rack's NVLink all-to-all, as before this backend was read
        assertTrue(ep(hybridep).get(0) instanceof Term.Collectives);
        assertEquals(Tier.NVLINK, hybridep.time().tiers().get(ParallelDim.EP));
        assertTrue(deepep.time().comm().get(ParallelDim.EP) > hybridep.time().comm().get(ParallelDim.EP));
        // not stated on a multi-node NVLink domain: hybridep, the backend Megatron-Core runs there (its default deepep does not;
        // Bridge refuses it on GB200 / GB300), priced as the rack's all-to-all and said so
        assertEquals(hybridep.time().comm().get(ParallelDim.EP), unstated.time().comm().get(ParallelDim.EP), 0);
        assertEquals(Tier.NVLINK, unstated.time().tiers().get(ParallelDim.EP));
        assertTrue(said.inputs().assumptions().stream().anyMatch(a -> a.startsWith("MoE flex dispatcher (DeepEP / HybridEP), backend"
                + " not stated: hybridep, the one Megatron-Core runs on a multi-node NVLink domain (72 GPUs, 4 a node;"
                + " transformer_config.py at 002526d: \"Currently only \"hybridep\" backend supports the MNNVL case\";"
                + " Megatron-Bridge's validate_flex_dispatcher_backend refuses deepep on GB200 / GB300), not its default deepep;"
                + " HybridEP: inside one NVLink domain priced as the all-to-all: across nodes")), "" + said.inputs().assumptions());
        assertTrue(qwenOnRack(", flex_backend: hybridep").inputs().assumptions().stream().anyMatch(a -> a.startsWith(
                "MoE flex dispatcher (DeepEP / HybridEP), backend hybridep; HybridEP: inside one NVLink domain priced as the all-to-all")));
        // deepep as written: priced, with why it may not run there
        assertTrue(qwenOnRack(", flex_backend: deepep").inputs().assumptions().stream().anyMatch(a -> a.startsWith(
                "MoE flex dispatcher (DeepEP / HybridEP), backend deepep as written, on a multi-node NVLink domain (72 GPUs, 4 a node)"
                + " where it may not run: Megatron-Core supports only hybridep there (transformer_config.py at 002526d),"
                + " Megatron-Bridge's validate_flex_dispatcher_backend refuses deepep on GB200 / GB300, and DeepEP V1's CUDA IPC"
                + " group of 8 spans 2 hosts; priced as what it would move (set flex_backend / moe_flex_dispatcher_backend to"
                + " hybridep for the backend that runs there); DeepEP V1 treats 8 GPUs as a node")));
        // a name not priced apart (Bridge's ncclep; the native schema takes deepep / hybridep only) is worded as the one priced
        assertTrue(FlexDispatch.assumption(128, 8, 0, 0, 0, FlexDispatch.unstated(rack(32)), "ncclep", rack(32)).startsWith(
                "MoE flex dispatcher (DeepEP / HybridEP), backend 'ncclep' not priced apart: priced as hybridep, the one Megatron-Core"
                + " runs on a multi-node NVLink domain (72 GPUs, 4 a node;"));
    }

    @Test
    void anUnstatedBackendIsHybridEpOnAMultiNodeNvlinkDomainOnlyElseMegatronCoresDeepEp() {
        assertEquals(FlexDispatch.Backend.HYBRIDEP, FlexDispatch.unstated(rack(64)));
        Links hgx = new Links(8, 8, true, false, 4, 450e9, 5, 64e9, false, 8 * 50e9, Links.Transport.RDMA, 8, "ConnectX-7", null,
                null, 16);
        assertEquals(FlexDispatch.Backend.DEEPEP, FlexDispatch.unstated(hgx));
        assertEquals(FlexDispatch.Backend.DEEPEP, FlexDispatch.unstated(null));
    }
}
