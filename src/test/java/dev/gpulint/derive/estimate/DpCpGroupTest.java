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
        TierTable named = TierTable.named(one.estimate(), one.inputs().hardware(), one.inputs().order(), Collective.ALL_GATHER, 1e6);
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

    @Test
    void theGroupIsSpacedByCpsStrideWhenCpIsJustInsideDp() {
        Layout l = new Layout(2, 2, 4, 2, 1, 1, 1, 64, 1, false, Layout.Recompute.SELECTIVE, true);
        // default order tp-cp-ep-dp-pp: tp 2, so cp's ranks are 2 apart and dp's 4; the dp·cp group of 8 is ranks 2 apart
        assertEquals(4L, Estimator.strides(l, null).get(ParallelDim.DP));
        assertEquals(2L, Estimator.dpCpStride(l, null));
        // dp just inside cp (tp-dp-cp-pp): the group is dp's block, ranks tp apart
        assertEquals(2L, Estimator.dpCpStride(l, List.of(ParallelDim.TP, ParallelDim.DP, ParallelDim.CP, ParallelDim.PP)));
        // pp between them (tp-cp-pp-dp): no single stride; dp's own, 8
        assertEquals(8L, Estimator.dpCpStride(l, List.of(ParallelDim.TP, ParallelDim.CP, ParallelDim.PP, ParallelDim.DP)));
        // without cp the group is dp's
        Layout noCp = new Layout(2, 2, 8, 1, 1, 1, 1, 64, 1, false, Layout.Recompute.SELECTIVE, true);
        assertEquals(2L, Estimator.dpCpStride(noCp, null));
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
