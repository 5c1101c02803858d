package dev.gpulint.derive.estimate;

import dev.gpulint.spec.ParallelDim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.plan.EstimateWords;
import dev.gpulint.testing.EstimateManifest;
import org.junit.jupiter.api.Test;

/**
 * Hybrid sharding (HSDP): 4 nodes of 8 H100, dp 32 as 4 replicas × 8 shards. The states shard over the 8 ranks of a
 * node (4 × what full sharding over 32 holds), the FSDP all-gathers and reduce-scatters run on NVLink over those 8, and
 * each shard's gradients are all-reduced over the 4 replicas across the network.
 */
class HybridShardTest {

    private static JobEstimate estimate(String extra) {
        return EstimateManifest.h100().nodes(4)
                .model("layers: 32, hidden_size: 4096, attention_heads: 32, seq_length: 2048, vocab_size: 50368")
                .parallelism("tp: 1, pp: 1" + extra).batch(2, 256).optimizer("zero_stage: 3").estimate();
    }

    @Test
    void theStatesShardOverTheShardGroupOnly() {
        Estimate hybrid = estimate(", dp_shard: 8").estimate(), full = estimate("").estimate();
        assertTrue(hybrid.layout().hybrid());
        assertEquals(8, hybrid.layout().shardRanks());
        assertEquals(4, hybrid.layout().replicas());
        MemoryModel.Stage h = hybrid.stages().get(0), f = full.stages().get(0);
        assertEquals(4 * f.weights(), h.weights(), 1e-6 * h.weights(), "weights over 8 ranks, not 32");
        assertEquals(4 * f.gradients(), h.gradients(), 1e-6 * h.gradients());
        assertEquals(4 * f.optimizer(), h.optimizer(), 1e-6 * h.optimizer());
        assertEquals(f.activations(), h.activations(), 1e-6 * h.activations());
    }

    @Test
    void gathersStayOnNvlinkAndTheReplicasAllReduceAcrossNodes() {
        Estimate e = estimate(", dp_shard: 8").estimate();
        CollectiveCost gather = e.traffic(ParallelDim.DP, Collective.ALL_GATHER).orElseThrow().cost();
        CollectiveCost scatter = e.traffic(ParallelDim.DP, Collective.REDUCE_SCATTER).orElseThrow().cost();
        CollectiveCost reduce = e.traffic(ParallelDim.DP, Collective.ALL_REDUCE).orElseThrow().cost();
        assertEquals(8, gather.n());
        assertEquals(Tier.NVLINK, gather.tier());
        assertEquals(8, scatter.n());
        assertEquals(Tier.NVLINK, scatter.tier());
        assertEquals(4, reduce.n());
        assertEquals(Tier.NETWORK, reduce.tier());
        // each shard's gradients: an eighth of the reduce-scatter's input
        assertEquals(scatter.bytes() / 8, reduce.bytes(), 1e-6 * reduce.bytes());
        assertTrue(e.terms().stream().anyMatch(n -> n.term().equals("dp") && EstimateWords.text(n).contains("over the replicas over 4 ranks")),
                e.terms().toString());
        assertTrue(estimate(", dp_shard: 8").inputs().assumptions().stream().anyMatch(a -> a.startsWith(
                "hybrid sharding (HSDP): weights, gradients and optimizer states shard over the 8 ranks of a shard group")));
    }

    @Test
    void withoutAShardDegreeFsdpShardsOverAllOfDpAcrossTheNetwork() {
        JobEstimate j = estimate("");
        Estimate e = j.estimate();
        assertFalse(e.layout().hybrid());
        CollectiveCost gather = e.traffic(ParallelDim.DP, Collective.ALL_GATHER).orElseThrow().cost();
        assertEquals(32, gather.n());
        assertEquals(Tier.NETWORK, gather.tier());
        assertTrue(e.traffic(ParallelDim.DP, Collective.ALL_REDUCE).isEmpty(), "no all-reduce without replicas");
        assertTrue(j.inputs().assumptions().stream().noneMatch(a -> a.startsWith("hybrid sharding")));
    }

    @Test
    void aShardDegreeThatDoesNotDivideDpShardsOverAllOfItAndSaysSo() {
        JobEstimate j = estimate(", dp_shard: 12");
        assertFalse(j.estimate().layout().hybrid());
        assertEquals(32, j.estimate().layout().shardRanks());
        assertTrue(j.inputs().assumptions().contains("parallelism.dp_shard 12 does not divide dp 32: the states shard over all of dp"),
                j.inputs().assumptions().toString());
    }

    @Test
    void theDataParallelTimeIsTheThreeCollectivesPerMicroBatch() {
        Estimate e = estimate(", dp_shard: 8").estimate();
        long mb = 256 / (2 * 32);
        double sum = e.traffic().stream().filter(t -> t.dim() == ParallelDim.DP).mapToDouble(t -> t.count() * t.cost().seconds()).sum();
        assertEquals(3, e.traffic().stream().filter(t -> t.dim() == ParallelDim.DP).count(), "all-gather, reduce-scatter, all-reduce");
        assertEquals(mb * sum, e.time().comm().get(ParallelDim.DP), 1e-9 * sum);
    }

    private static dev.gpulint.spec.Specs.Parallelism replicas(long r) {
        return new dev.gpulint.spec.Specs.Parallelism(null, null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, null, null, new dev.gpulint.spec.Located<>(r, null));
    }

    @Test
    void aReplicateDegreeAloneShardsOverTheRestOfDp() {
        java.util.List<String> as = new java.util.ArrayList<>();
        assertEquals(8, HybridInputs.shard(replicas(4), 32, as), "torchtitan's shard degree -1: 32 ÷ 4 replicas");
        assertTrue(as.isEmpty());
        assertEquals(0, HybridInputs.shard(replicas(5), 32, as));
        assertEquals(java.util.List.of("data-parallel replicate degree 5 does not divide dp 32: the states shard over all of dp"), as);
        assertEquals(0, HybridInputs.shard(null, 32, as));
    }
    /** 4 nodes of 8 H100, dp 32 as 4 replicas × 8 shards at ZeRO stage {@code zero}, a model of hand-countable parameters. */
    private static JobEstimate counted(int zero) {
        return EstimateManifest.h100().nodes(4)
                .model("layers: 32, hidden_size: 4096, attention_heads: 32, kv_heads: 32, ffn_hidden_size: 16384, gated_mlp: false,"
                        + " tied_embeddings: false, seq_length: 2048, vocab_size: 50432")
                .parallelism("tp: 1, pp: 1, dp_shard: 8").batch(2, 256).optimizer("zero_stage: " + zero).estimate();
    }

    @Test
    void underZero2TheShardGroupGathersOnceForTheForwardAndKeepsTheWholeWeights() {
        // FSDP's _HYBRID_SHARD_ZERO2 / FSDP2's reshard_after_forward=False over a 4 × 8 mesh. The parameters, by hand:
        // attention 4·4096² = 67,108,864, MLP 2·4096·16,384 = 134,217,728, two LayerNorms 4·4096 = 16,384: 201,342,976 a layer;
        // 32 layers + the final norm (8,192) = 6,442,983,424; two embeddings 2 · 4096 · 50,432 = 413,138,944: P = 6,856,122,368.
        // Per layer and micro-batch: one all-gather of P·2/32 = 428,507,648 bytes over the 8 of a node (not two, as at stage 3),
        // one reduce-scatter of P·4/32 = 857,015,296 (fp32 gradients), one all-reduce of its eighth, 107,126,912, over the 4 replicas.
        Estimate z2 = counted(2).estimate(), z3 = counted(3).estimate();
        assertEquals(6_856_122_368d, z2.stages().get(0).parameters(), 1);
        Estimate.Traffic ag = z2.traffic(ParallelDim.DP, Collective.ALL_GATHER).orElseThrow();
        Estimate.Traffic rs = z2.traffic(ParallelDim.DP, Collective.REDUCE_SCATTER).orElseThrow();
        Estimate.Traffic ar = z2.traffic(ParallelDim.DP, Collective.ALL_REDUCE).orElseThrow();
        assertEquals(32, ag.count(), "one all-gather per layer: the forward's, kept for the backward");
        assertEquals(64, z3.traffic(ParallelDim.DP, Collective.ALL_GATHER).orElseThrow().count(), "stage 3: forward and backward");
        assertEquals(428_507_648d, ag.cost().bytes(), 1);
        assertEquals(8, ag.cost().n());
        assertEquals(Tier.NVLINK, ag.cost().tier());
        assertEquals(32, rs.count());
        assertEquals(857_015_296d, rs.cost().bytes(), 1);
        assertEquals(8, rs.cost().n());
        assertEquals(32, ar.count());
        assertEquals(107_126_912d, ar.cost().bytes(), 1);
        assertEquals(4, ar.cost().n());
        assertEquals(Tier.NETWORK, ar.cost().tier());
        // the step's dp time: 4 micro-batches (256 ÷ (2 · 32)) of 32 of each collective; stage 3 pays 32 more all-gathers each
        double perMb = 32 * (ag.cost().seconds() + rs.cost().seconds() + ar.cost().seconds());
        assertEquals(4 * perMb, z2.time().comm().get(ParallelDim.DP), 1e-9 * perMb);
        assertEquals(4 * 32 * ag.cost().seconds(), z3.time().comm().get(ParallelDim.DP) - z2.time().comm().get(ParallelDim.DP),
                1e-9 * perMb);
        // memory: the whole weights on every GPU through the step (2 bytes each), gradients and optimizer states over the 8
        MemoryModel.Stage m2 = z2.stages().get(0), m3 = z3.stages().get(0);
        assertEquals(2 * 6_856_122_368d, m2.weights(), 1e-6 * m2.weights());
        assertEquals(8 * m3.weights(), m2.weights(), 1e-6 * m2.weights(), "stage 3 holds an eighth");
        assertEquals(m3.gradients(), m2.gradients(), 1e-6 * m2.gradients());
        assertEquals(m3.optimizer(), m2.optimizer(), 1e-6 * m2.optimizer());
        assertEquals(java.util.List.of("hybrid sharding with ZeRO stage 2 (FSDP's _HYBRID_SHARD_ZERO2, FSDP2's reshard_after_forward"
                + " off): gradients and optimizer states shard over the 8 ranks of a shard group; each micro-batch all-gathers the"
                + " parameters there once per layer for the forward and keeps them whole through the backward (no backward"
                + " all-gather; the whole weights counted on every GPU), reduce-scatters the gradients there, and all-reduces each"
                + " shard's gradients over the 4 replicas"),
                counted(2).inputs().assumptions().stream().filter(a -> a.startsWith("hybrid sharding")).toList());
    }

    @Test
    void underZero1TheShardGroupSizesTheMemoryOnlyAndTheAssumptionsSaySo() {
        JobEstimate z1 = counted(1);
        assertEquals(java.util.List.of("hybrid sharding with ZeRO stage 1: the states ZeRO-1 shards are divided over the 8 ranks of"
                + " a shard group, and the 4 replicas hold them whole; the communication is priced as ZeRO-1's over all 32 dp·cp"
                + " ranks (the estimate prices a shard group's collectives and the replicas' all-reduce for ZeRO-2 and 3)"),
                z1.inputs().assumptions().stream().filter(a -> a.startsWith("hybrid sharding")).toList());
        assertEquals(32, z1.estimate().traffic(ParallelDim.DP, Collective.REDUCE_SCATTER).orElseThrow().cost().n(),
                "ZeRO-1's reduce-scatter over all of dp, as said");
    }

    @Test
    void theStridesOfThePlanAndOfNet003sReplicasAreOneFunction() {
        // tp 2, cp 2, pp 2, dp 4 in tp-cp-pp-dp: dp's ranks tp·cp·pp = 8 apart; ep's spacing is dp's
        java.util.Map<ParallelDim, Long> s = RankGroup.strides(2, 2, 4, 2,
                java.util.List.of(ParallelDim.TP, ParallelDim.CP, ParallelDim.PP, ParallelDim.DP));
        assertEquals(java.util.Map.of(ParallelDim.TP, 1L, ParallelDim.CP, 2L, ParallelDim.PP, 4L, ParallelDim.DP, 8L, ParallelDim.EP, 8L), s);
        assertEquals(2L, RankGroup.strides(2, 1, 4, 2, null).get(ParallelDim.DP), "the default tp-cp-ep-dp-pp: tp apart");
    }
}
