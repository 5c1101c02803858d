package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.testing.EstimateManifest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The expert data-parallel group as Megatron-Core's expert RankGenerator lays it out (RankGroup.expertDp): the job's rank
 * order with cp of one rank, tp as etp and dp as edp, {@code get_ranks('dp')} (megatron/core/parallel_state.py at commit
 * 00caa53a). Each group below is derived by hand in its comment and checked against the same construction run over every
 * rank ({@link #megatron}, generate_masked_orthogonal_rank_groups's arithmetic), then priced on the tier it reaches.
 */
class ExpertDpGroupTest {

    private static final ParallelDim TP = ParallelDim.TP, CP = ParallelDim.CP, EP = ParallelDim.EP, DP = ParallelDim.DP, PP = ParallelDim.PP;
    private static final List<ParallelDim> MAPPED = List.of(TP, CP, EP, PP, DP);

    private static RankGroup group(long... sizeStride) {
        List<RankGroup.Part> parts = new ArrayList<>();
        for (int i = 0; i < sizeStride.length; i += 2) parts.add(new RankGroup.Part(sizeStride[i], sizeStride[i + 1]));
        return new RankGroup(parts);
    }

    /** The members of rank 0's group: each part's ranks at its stride, summed. */
    private static TreeSet<Long> members(RankGroup g) {
        TreeSet<Long> out = new TreeSet<>(List.of(0L));
        for (RankGroup.Part p : g.parts()) {
            TreeSet<Long> next = new TreeSet<>();
            for (long base : out) for (long i = 0; i < p.size(); i++) next.add(base + i * p.stride());
            out = next;
        }
        return out;
    }

    /**
     * Rank 0's group of {@code masked} in a grid of {@code sizes} laid out in {@code order}, rank by rank: a rank's index
     * in each dimension is (rank ÷ the product of the sizes before it) mod its size, and the group is every rank whose
     * indices in the other dimensions are rank 0's (all zero) — Megatron-Core's generate_masked_orthogonal_rank_groups.
     */
    private static TreeSet<Long> megatron(Map<ParallelDim, Long> sizes, List<ParallelDim> order, ParallelDim masked) {
        List<ParallelDim> full = ParallelDim.completeOrder(order);
        long world = 1;
        for (ParallelDim d : full) world *= sizes.getOrDefault(d, 1L);
        TreeSet<Long> out = new TreeSet<>();
        for (long r = 0; r < world; r++) {
            long stride = 1;
            boolean in = true;
            for (ParallelDim d : full) {
                long n = sizes.getOrDefault(d, 1L);
                if (d != masked && (r / stride) % n != 0) in = false;
                stride *= n;
            }
            if (in) out.add(r);
        }
        return out;
    }

    private static Map<ParallelDim, Long> expertGrid(long etp, long ep, long edp, long pp) {
        return Map.of(TP, etp, EP, ep, DP, edp, PP, pp);
    }

    @Test
    void theDefaultOrdersGroupIsTheExpertSizesBeforeDpApart() {
        // 64 GPUs, etp 1, ep 8, pp 1: edp = 64 ÷ 8 = 8; grid tp(1)-cp(1)-ep(8)-dp(8)-pp(1), rank = ep + 8·dp: {0, 8, ..., 56}
        RankGroup g = RankGroup.expertDp(1, 8, 8, 1, null);
        assertEquals(group(8, 8), g);
        assertEquals(members(g), megatron(expertGrid(1, 8, 8, 1), null, DP));
        // one member per 8-GPU node: the network
        assertEquals(Tier.NETWORK, Tier.of(g, 8, 8, true, 64));
        // etp 2, ep 4 on 32 GPUs, pp 2: edp = 32 ÷ (2·4·2) = 2; rank = etp + 2·ep + 8·dp + 16·pp: {0, 8}, rank 8 the second
        // 8-GPU node's first, so the group spans two nodes
        RankGroup two = RankGroup.expertDp(2, 4, 2, 2, null);
        assertEquals(group(2, 8), two);
        assertEquals(members(two), megatron(expertGrid(2, 4, 2, 2), null, DP));
        assertEquals(Tier.NETWORK, Tier.of(two, 8, 8, true, 32));
        // the same grid on 16-GPU domains (block 16): inside one
        assertEquals(Tier.NVLINK, Tier.of(two, 16, 16, true, 32));
    }

    @Test
    void theTpPpDpMappingPutsPipelineStagesBetweenTheExpertReplicas() {
        // 16 GPUs, etp 1, ep 4, pp 2, edp 2. Default tp-cp-ep-dp-pp: rank = ep + 4·dp + 8·pp, group {0, 4} on one node's NVLink;
        // --use-tp-pp-dp-mapping's tp-cp-ep-pp-dp: rank = ep + 4·pp + 8·dp, group {0, 8}, one member on each node
        RankGroup def = RankGroup.expertDp(1, 4, 2, 2, null);
        RankGroup mapped = RankGroup.expertDp(1, 4, 2, 2, MAPPED);
        assertEquals(group(2, 4), def);
        assertEquals(group(2, 8), mapped);
        assertEquals(new TreeSet<>(List.of(0L, 4L)), megatron(expertGrid(1, 4, 2, 2), null, DP));
        assertEquals(new TreeSet<>(List.of(0L, 8L)), megatron(expertGrid(1, 4, 2, 2), MAPPED, DP));
        assertEquals(members(mapped), megatron(expertGrid(1, 4, 2, 2), MAPPED, DP));
        assertEquals(Tier.NVLINK, Tier.of(def, 8, 8, true, 16));
        assertEquals(Tier.NETWORK, Tier.of(mapped, 8, 8, true, 16));
    }

    @Test
    void cpTakesNoPlaceInTheExpertGrid() {
        // attention tp 2, cp 2, dp 2 on 8 GPUs; experts etp 1, ep 4: edp = 8 ÷ 4 = 2. The dp·cp group is ranks 2 apart
        // ({0, 2, 4, 6}); the expert grid has no cp, so its dp is 4 apart: {0, 4}
        Layout l = new Layout(2, 1, 2, 2, 4, 1, 1, 64, 1, false, Layout.Recompute.SELECTIVE, true);
        MoeShape moe = new MoeShape(32, 14336, 0, 0, false, MoeShape.Dispatcher.ALLTOALL, false, true, 1, 0, false, false, true, 0, 0,
                FlexDispatch.DEFAULT_BACKEND, null);
        assertEquals(2, moe.expertDpSize(l));
        assertEquals(group(2, 4), moe.expertDpGroup(l, null));
        assertEquals(group(4, 2), Estimator.dpCpGroup(l, null));
        // every order Megatron-Core builds it in, the rank-by-rank construction agrees
        for (List<ParallelDim> order : List.of(List.of(TP, CP, EP, DP, PP), MAPPED, List.of(TP, DP, CP, EP, PP), List.of(TP, CP, DP, EP, PP))) {
            assertEquals(megatron(expertGrid(1, 4, 2, 1), order, DP), members(moe.expertDpGroup(l, order)), "" + order);
        }
        // dp before ep (tp-dp-ep): the replicas are etp apart, the expert-parallel ranks etp·edp
        assertEquals(group(2, 1), moe.expertDpGroup(l, List.of(TP, DP, CP, EP, PP)));
        assertEquals(2, moe.epStride(l, List.of(TP, DP, CP, EP, PP)));
    }

    private static JobEstimate gptOss(String order) {
        return EstimateManifest.h100().nodes(2).nics(EstimateManifest.CX7_IB)
                .model(ExpertPassesTest.GPT_OSS_120B + ", seq_length: 4096")
                .parallelism("tp: 4, pp: 2, ep: 4, etp: 1" + order).batch(1, 64)
                .optimizer("zero_stage: 1, distributed: true, bytes_per_parameter: 16").recompute("full").estimate();
    }

    @Test
    void thePlanPricesTheExpertGroupOnTheTierItsOrderReaches() {
        // 16 H100 on two 8-GPU nodes, tp 4, pp 2 (dp 2), etp 1, ep 4 (edp 2 = dp: Megatron-Core takes the mapping). In the
        // default order the expert group {0, 4} is on NVLink; in tp-cp-ep-pp-dp {0, 8} crosses the nodes through one NIC each
        JobEstimate d = gptOss("");
        Hardware hw = d.inputs().hardware();
        Term.Collectives def = ExpertDpSyncTest.named(d.estimate(), "expert gradient reduce-scatter per bucket (expert data-parallel group)");
        assertEquals(2, def.n());
        assertEquals(Tier.NVLINK, def.cost().tier());
        assertEquals(hw.price(Collective.REDUCE_SCATTER, 2, 4, def.cost().bytes()).seconds(), def.cost().seconds(), 1e-15);
        Estimate m = gptOss(", order: tp-cp-ep-pp-dp").estimate();
        Term.Collectives mapped = ExpertDpSyncTest.named(m, "expert gradient reduce-scatter per bucket (expert data-parallel group)");
        assertEquals(2, mapped.n());
        assertEquals(Tier.NETWORK, mapped.cost().tier());
        assertEquals(1, mapped.cost().local());
        assertEquals(hw.price(Collective.REDUCE_SCATTER, 2, 8, mapped.cost().bytes()).seconds(), mapped.cost().seconds(), 1e-15);
        // the same bytes either way: only the placement moved
        assertEquals(def.cost().bytes(), mapped.cost().bytes(), 0);
        // the parameter all-gather goes over the same group
        assertEquals(Tier.NETWORK, ExpertDpSyncTest.named(m, "expert parameter all-gather per bucket (expert data-parallel group)").cost().tier());
        // and the dense parameters' dp·cp group moves with it: dp 2 at tp·pp = 8 apart
        assertEquals(Tier.NETWORK, ExpertDpSyncTest.named(m, "gradient reduce-scatter per bucket").cost().tier());
    }

    @Test
    void theExpertParallelGroupIsTheExpertGridsEpGroup() {
        // tp 2, cp 2, dp 8 (32 GPUs), etp 1, ep 8: edp = 32 ÷ 8 = 4; expert grid etp(1)-cp(1)-ep(8)-dp(4)-pp(1), rank = ep + 8·edp:
        // rank 0's ep group {0, ..., 7}, one 8-GPU node (the attention grid's dp·cp ranks are 2 apart: {0, 2, ..., 30})
        RankGroup g = RankGroup.expertEp(1, 8, 4, 1, null);
        assertEquals(group(8, 1), g);
        assertEquals(members(g), megatron(expertGrid(1, 8, 4, 1), null, EP));
        assertEquals(Tier.NVLINK, Tier.of(g, 8, 8, true, 32));
        // etp = tp = 2: edp 2, rank = etp + 2·ep + 16·edp: {0, 2, ..., 14}, two nodes
        RankGroup plain = RankGroup.expertEp(2, 8, 2, 1, null);
        assertEquals(group(8, 2), plain);
        assertEquals(members(plain), megatron(expertGrid(2, 8, 2, 1), null, EP));
        assertEquals(Tier.NETWORK, Tier.of(plain, 8, 8, true, 32));
        // --use-tp-pp-dp-mapping (tp-cp-ep-pp-dp), etp 2, ep 4, pp 2 on 32 GPUs: edp 2, ep still right after etp: {0, 2, 4, 6}
        RankGroup mapped = RankGroup.expertEp(2, 4, 2, 2, MAPPED);
        assertEquals(group(4, 2), mapped);
        assertEquals(members(mapped), megatron(expertGrid(2, 4, 2, 2), MAPPED, EP));
    }

    private static JobEstimate folded(int etp) {
        return EstimateManifest.h100().nodes(4).nics(EstimateManifest.CX7_IB)
                .model(MoeCostTest.QWEN3_30B + ", seq_length: 4096, moe: { expert_ffn_hidden_size: 768 }")
                .parallelism("tp: 2, pp: 1, cp: 2, ep: 8, etp: " + etp).batch(1, 256)
                .optimizer("zero_stage: 1, distributed: true").recompute("selective").estimate();
    }

    private static List<String> placed(TierTable t) {
        return t.rows().stream().filter(TierTable.Row::asPlaced).map(TierTable.Row::id).toList();
    }

    @Test
    void theTierTablesAllToAllIsPlacedWhereTheEstimatePricesIt() {
        // the job above on four DGX H100 (tp 2, cp 2, dp 8, etp 1, ep 8): the ep all-to-alls run inside a node; the tier table of
        // `plan --collective all_to_all` shows the same group as placed, not ep read inside dp (ranks tp·cp = 4 apart, 4 nodes)
        JobEstimate f = folded(1);
        JobInputs in = f.inputs();
        CollectiveCost a2a = f.estimate().traffic(EP, Collective.ALL_TO_ALL).orElseThrow().cost();
        assertEquals(8, a2a.n());
        assertEquals(Tier.NVLINK, a2a.tier());
        assertEquals(Tier.NVLINK, f.estimate().time().tiers().get(EP));
        TierTable t = TierTable.named(f.estimate(), in.hardware(), in.order(), in.variants().moe(), Collective.ALL_TO_ALL, a2a.bytes());
        assertEquals(8, t.n());
        assertEquals(List.of("nvlink"), placed(t));
        // the as-placed row is the estimate's price of the same bytes on the same group
        TierTable.Row row = t.rows().stream().filter(TierTable.Row::asPlaced).findFirst().orElseThrow();
        assertEquals(a2a.seconds(), row.cost().seconds(), 1e-15);
        // etp = tp: the groups are ranks 2 apart over two nodes; estimate and table both on the network
        JobEstimate p = folded(2);
        CollectiveCost across = p.estimate().traffic(EP, Collective.ALL_TO_ALL).orElseThrow().cost();
        assertEquals(Tier.NETWORK, across.tier());
        TierTable pt = TierTable.named(p.estimate(), p.inputs().hardware(), p.inputs().order(), p.inputs().variants().moe(),
                Collective.ALL_TO_ALL, across.bytes());
        assertEquals(List.of("network"), placed(pt));
        assertEquals(across.seconds(), pt.rows().stream().filter(TierTable.Row::asPlaced).findFirst().orElseThrow().cost().seconds(), 1e-15);
    }
}
