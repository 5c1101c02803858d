package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.spec.ParallelDim;
import java.util.List;
import org.junit.jupiter.api.Test;

import dev.gpulint.testing.EstimateManifest;

/**
 * The data-parallel gradient group is dp·cp ranks (Megatron-Core's intra_dp_cp_group, torchtitan's dp_shard_cp mesh):
 * with cp inside dp in the rank order it is one contiguous block spaced by cp's stride, not dp's. Priced with dp's
 * stride, FSDP 8 over cp 8 on one 8-GPU node (torchtitan's cp sweep) looked like a group of ranks 8 apart, i.e. across
 * eight nodes, and went to the network tier of a one-node job.
 */
class DpCpGroupTest {

    private static JobEstimate fsdp(int nodes, String parallelism, int global) {
        return EstimateManifest.h100().nodes(nodes)
                .model("layers: 32, hidden_size: 4096, attention_heads: 32, kv_heads: 8, ffn_hidden_size: 14336, gated_mlp: true, "
                        + "seq_length: 32768, vocab_size: 128256")
                .parallelism(parallelism).batch(1, global).optimizer("zero_stage: 3").recompute("full").estimate();
    }

    private static CollectiveCost gather(JobEstimate j) {
        return j.estimate().traffic(ParallelDim.DP, Collective.ALL_GATHER).orElseThrow().cost();
    }

    @Test
    void oneNodesDpTimesCpGroupRunsOnNvlink() {
        for (String p : List.of("tp: 1, pp: 1, cp: 8", "tp: 1, pp: 1, cp: 4", "tp: 1, pp: 1, cp: 2", "tp: 1, pp: 1, cp: 1")) {
            CollectiveCost g = gather(fsdp(1, p, 8 / Integer.parseInt(p.substring(p.length() - 1))));
            assertEquals(8, g.n(), p);
            assertEquals(Tier.NVLINK, g.tier(), p);
        }
    }

    @Test
    void theTierTablePlacesTheDpTimesCpGroupWhereTheEstimateDoes() {
        // FSDP over cp 8 on one node: the estimate's gradient collectives on NVLink, and the plan's tier table (TierTable, its
        // data-parallel all-reduce and a named collective over dp·cp) shows that tier as placed, not the network's
        JobEstimate one = fsdp(1, "tp: 1, pp: 1, cp: 8", 1);
        assertEquals(Tier.NVLINK, gather(one).tier());
        TierTable dp = TierTable.dataParallel(one.estimate(), one.inputs().hardware(), one.inputs().order());
        TierTable named = TierTable.named(one.estimate(), one.inputs().hardware(), one.inputs().order(), one.inputs().variants().moe(), Collective.ALL_GATHER, 1e6);
        for (TierTable t : List.of(dp, named)) {
            assertEquals(8, t.n(), t.what());
            assertEquals(List.of("nvlink"), t.rows().stream().filter(TierTable.Row::asPlaced).map(TierTable.Row::id).toList(), t.what());
        }
        // 2 nodes, dp 2 × cp 8: every rank of both, the network for the estimate and the table alike
        JobEstimate two = fsdp(2, "tp: 1, pp: 1, cp: 8", 2);
        assertEquals(Tier.NETWORK, gather(two).tier());
        TierTable across = TierTable.dataParallel(two.estimate(), two.inputs().hardware(), two.inputs().order());
        assertEquals(List.of("network"), across.rows().stream().filter(TierTable.Row::asPlaced).map(TierTable.Row::id).toList());
    }

    @Test
    void aDpTimesCpGroupLargerThanANodeStillCrossesTheNetwork() {
        // 16 GPUs on 2 nodes: dp 2 × cp 8 is every rank of both nodes
        CollectiveCost g = gather(fsdp(2, "tp: 1, pp: 1, cp: 8", 2));
        assertEquals(16, g.n());
        assertEquals(Tier.NETWORK, g.tier());
    }

    private static final ParallelDim TP = ParallelDim.TP, CP = ParallelDim.CP, EP = ParallelDim.EP, DP = ParallelDim.DP, PP = ParallelDim.PP;

    private static RankGroup group(long... sizeStride) {
        List<RankGroup.Part> parts = new java.util.ArrayList<>();
        for (int i = 0; i < sizeStride.length; i += 2) parts.add(new RankGroup.Part(sizeStride[i], sizeStride[i + 1]));
        return new RankGroup(parts);
    }

    @Test
    void theGroupIsLaidOutAsTheRankOrderLaysIt() {
        Layout l = new Layout(2, 2, 4, 2, 1, 1, 1, 64, 1, false, Layout.Recompute.SELECTIVE, true);
        // default order tp-cp-ep-dp-pp: tp 2, so cp's ranks are 2 apart and dp's 4; the dp·cp group of 8 is ranks 2 apart
        assertEquals(4L, Estimator.strides(l, null).get(DP));
        assertEquals(group(8, 2), Estimator.dpCpGroup(l, null));
        // dp just inside cp (tp-dp-cp-pp): the group is dp's block, ranks tp apart
        assertEquals(group(8, 2), Estimator.dpCpGroup(l, List.of(TP, DP, CP, PP)));
        // pp between them (tp-cp-pp-dp): cp's 2 ranks 2 apart, dp's 4 ranks tp·cp·pp = 8 apart, as
        // RankGenerator.get_ranks('dp-cp') builds {0, 2, 8, 10, 16, 18, 24, 26}
        assertEquals(group(2, 2, 4, 8), Estimator.dpCpGroup(l, List.of(TP, CP, PP, DP)));
        assertEquals(8, Estimator.dpCpGroup(l, List.of(TP, CP, PP, DP)).n());
        assertEquals(32, Estimator.dpCpGroup(l, List.of(TP, CP, PP, DP)).block());
        // Megatron's --use-tp-pp-dp-mapping order tp-cp-ep-pp-dp: the same two parts; at pp 1 one block again
        assertEquals(group(2, 2, 4, 8), Estimator.dpCpGroup(l, List.of(TP, CP, EP, PP, DP)));
        Layout pp1 = new Layout(2, 1, 8, 2, 1, 1, 1, 64, 1, false, Layout.Recompute.SELECTIVE, true);
        assertEquals(group(16, 2), Estimator.dpCpGroup(pp1, List.of(TP, CP, EP, PP, DP)));
        // without cp the group is dp's
        Layout noCp = new Layout(2, 2, 8, 1, 1, 1, 1, 64, 1, false, Layout.Recompute.SELECTIVE, true);
        assertEquals(group(8, 2), Estimator.dpCpGroup(noCp, null));
        assertEquals(group(8, 4), Estimator.dpCpGroup(noCp, List.of(TP, PP, DP)));
    }

    private static JobEstimate zero1(int nodes, String parallelism, int global) {
        return EstimateManifest.h100().nodes(nodes)
                .model("layers: 32, hidden_size: 4096, attention_heads: 32, kv_heads: 8, ffn_hidden_size: 14336, gated_mlp: true, "
                        + "seq_length: 8192, vocab_size: 128256")
                .parallelism(parallelism).batch(1, global).optimizer("zero_stage: 1").recompute("selective").estimate();
    }

    private static CollectiveCost reduceScatter(JobEstimate j) {
        return j.estimate().traffic(ParallelDim.DP, Collective.REDUCE_SCATTER).orElseThrow().cost();
    }

    @Test
    void theDefaultOrdersGroupIsOneBlock() {
        // tp 1, cp 2, pp 2 on one 8-GPU node, default order: dp·cp = ranks {0, 1, 2, 3}, NVLink
        JobEstimate one = zero1(1, "tp: 1, pp: 2, cp: 2", 2);
        CollectiveCost rs = reduceScatter(one);
        assertEquals(4, rs.n());
        assertEquals(Tier.NVLINK, rs.tier());
    }

    @Test
    void theTpPpDpOrdersGroupWithCpStaysInItsNode() {
        // Megatron's --use-tp-pp-dp-mapping order tp-cp-ep-pp-dp, tp 1, cp 2, pp 2, dp 2 on one 8-GPU node: the dp·cp group is
        // {0, 1, 4, 5}, every rank on the node's NVLink. Priced at dp's stride alone (4 ranks 4 apart: ranks 0 to 12) it went to
        // the network of a job that has none
        JobEstimate one = zero1(1, "tp: 1, pp: 2, cp: 2, order: tp-cp-ep-pp-dp", 2);
        CollectiveCost rs = reduceScatter(one);
        assertEquals(4, rs.n());
        assertEquals(Tier.NVLINK, rs.tier());
        assertEquals(Tier.NVLINK, one.estimate().time().tiers().get(ParallelDim.DP));
        // the same collective as a block of four on NVLink: the same price
        Hardware hw = one.inputs().hardware();
        assertEquals(hw.price(Collective.REDUCE_SCATTER, 4, 1, rs.bytes()).seconds(), rs.seconds(), 1e-15);
        // the plan's tier table places it where the estimate does
        TierTable t = TierTable.dataParallel(one.estimate(), hw, one.inputs().order());
        assertEquals(List.of("nvlink"), t.rows().stream().filter(TierTable.Row::asPlaced).map(TierTable.Row::id).toList());
    }

    @Test
    void theTpPpDpOrdersGroupAcrossNodesSharesEachNodesNics() {
        // two 8-GPU nodes, tp 1, cp 2, pp 2, dp 4, order tp-cp-ep-pp-dp: the group {0, 1, 4, 5, 8, 9, 12, 13} has 4 ranks on each
        // node, which carry the ring over 4 NICs; dp's stride alone (8 ranks 4 apart) counted 2
        JobEstimate two = zero1(2, "tp: 1, pp: 2, cp: 2, order: tp-cp-ep-pp-dp", 4);
        CollectiveCost rs = reduceScatter(two);
        assertEquals(8, rs.n());
        assertEquals(Tier.NETWORK, rs.tier());
        assertEquals(4, rs.local());
        assertEquals(2, rs.nodes());
        // priced as a group with 4 ranks per node on 2 nodes (8 ranks 2 apart): the same figure
        Hardware hw = two.inputs().hardware();
        assertEquals(hw.price(Collective.REDUCE_SCATTER, 8, 2, rs.bytes()).seconds(), rs.seconds(), 1e-15);
        assertEquals(Tier.NETWORK, TierTable.dataParallel(two.estimate(), hw, two.inputs().order()).rows().stream()
                .filter(TierTable.Row::asPlaced).map(r -> r.cost().tier()).findFirst().orElseThrow());
    }

    @Test
    void cpAndDpOnEitherSideOfPpReachTheTierOfTheirWidestSpan() {
        // order tp-dp-pp-cp (dp fastest, pp between, cp slowest), tp 2, dp 2, pp 2, cp 2 on 2 nodes of 8: dp's ranks 2 apart, cp's
        // 8 apart; the group {0, 2, 8, 10} spans both nodes with 2 ranks on each
        JobEstimate j = zero1(2, "tp: 2, pp: 2, cp: 2, order: tp-dp-pp-cp", 2);
        CollectiveCost rs = reduceScatter(j);
        assertEquals(4, rs.n());
        assertEquals(Tier.NETWORK, rs.tier());
        assertEquals(2, rs.local());
        assertEquals(j.inputs().hardware().price(Collective.REDUCE_SCATTER, 4, 4, rs.bytes()).seconds(), rs.seconds(), 1e-15);
        // tp 1 on one node: {0, 1, 4, 5} again, inside the node
        JobEstimate in = zero1(1, "tp: 1, pp: 2, cp: 2, order: tp-dp-pp-cp", 2);
        assertEquals(Tier.NVLINK, reduceScatter(in).tier());
    }

    @Test
    void aGroupWhoseBlocksDoNotDivideTheUnitCrossesIt() {
        // tp 1, cp 2, pp 3, dp 2 in order tp-cp-pp-dp: cp's ranks 1 apart, dp's 6; the groups tile blocks of 12 ranks
        Layout l = new Layout(1, 3, 2, 2, 1, 1, 1, 64, 1, false, Layout.Recompute.SELECTIVE, true);
        RankGroup g = Estimator.dpCpGroup(l, List.of(TP, CP, PP, DP));
        assertEquals(group(2, 1, 2, 6), g);
        assertEquals(12, g.block());
        // 48 GPUs in domains of 24: each block inside one
        assertEquals(Tier.NVLINK, Tier.of(g, 24, 24, true, 48));
        // in domains of 16 the block [12, 24) holds {12, 13, 18, 19}, across the boundary at 16: the network
        assertEquals(Tier.NETWORK, Tier.of(g, 16, 16, true, 48));
        // a job of one domain has no boundary to cross
        assertEquals(Tier.NVLINK, Tier.of(g, 16, 16, true, 12));
        // without NVLink the same rule for the node: PCIe inside, the network across
        assertEquals(Tier.PCIE, Tier.of(g, 24, 1, false, 48));
        assertEquals(Tier.NETWORK, Tier.of(g, 16, 1, false, 48));
        // a one-part group keeps the strided rule
        assertEquals(Tier.of(8, 2, 8, 8, true, 32), Tier.of(RankGroup.strided(8, 2), 8, 8, true, 32));
    }

    @Test
    void hybridShardingsShardGroupWithCpStaysInTheNode() {
        // 2 nodes, cp 2 × dp 8 as 2 replicas × 4 shards: the shard group (4 shards · cp 2 = 8 ranks) fills one node
        Estimate e = fsdp(2, "tp: 1, pp: 1, cp: 2, dp_shard: 4", 8).estimate();
        CollectiveCost g = e.traffic(ParallelDim.DP, Collective.ALL_GATHER).orElseThrow().cost();
        CollectiveCost r = e.traffic(ParallelDim.DP, Collective.ALL_REDUCE).orElseThrow().cost();
        assertEquals(8, g.n());
        assertEquals(Tier.NVLINK, g.tier());
        assertEquals(2, r.n());
        assertEquals(Tier.NETWORK, r.tier());
    }
}
