package dev.gpulint.derive.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.Fixture;
import dev.gpulint.facts.AllReduceFact;
import dev.gpulint.testing.PlanCli;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One quantity, one home, under hybrid sharding (HSDP): NET003's figure for the data-parallel sync of an HSDP job
 * (AllReduceFact) is the plan's (`gpulint plan`'s {@code comm_s.dp}, one micro-batch's here: global batch = dp × micro
 * batch), both from derive.estimate.HybridSync: the shard group's all-gathers and reduce-scatter on its tier, each
 * shard's all-reduce over the replicas on theirs, not the whole dp·cp group at ZeRO-3's 1.5.
 */
class HybridSyncCheckAndPlanTest {

    private static final String LLAMA3_8B = "dtype: bf16, layers: 32, hidden_size: 4096, attention_heads: 32, kv_heads: 8,"
            + " ffn_hidden_size: 14336, vocab_size: 128256, gated_mlp: true, tied_embeddings: false, seq_length: 8192";

    /** Two nodes of 8 H100 (NVSwitch, 8 × 400 Gb/s NICs), job {@code j} on both, one micro-batch a step. */
    private static String manifest(String model, String parallelism, int globalBatch) {
        return manifest(model, parallelism, globalBatch, 3);
    }

    /** As {@link #manifest(String, String, int)}, at ZeRO stage {@code zero}. */
    private static String manifest(String model, String parallelism, int globalBatch, int zero) {
        return "kind: cluster\nname: c\nnode_groups:\n  - { name: g, count: 2, gpu: { model: H100-SXM5-80GB, count: 8 },"
                + " nvlink: { switch: true }, nics: [ { model: ConnectX-7, count: 8, speed: 400 Gb/s } ] }\n---\n"
                + "kind: training_job\nname: j\ncluster: c\nnodes: 2\nmodel: { " + model + " }\n"
                + "parallelism: { " + parallelism + " }\noptimizer: { zero_stage: " + zero + " }\nbatch: { micro_batch_size: 1, global_batch_size: "
                + globalBatch + " }\nstep_time: 0.5 s\n";
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> planJson(Path dir, String name, String text) {
        return PlanCli.in(dir).file(name, text).planJson("--top", "1").json();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> time(Map<String, Object> doc) {
        return (Map<String, Object>) ((Map<String, Object>) doc.get("current")).get("time");
    }

    /** The stage's parameters the plan counts from the shape, so NET003's stated parameters are the plan's. */
    @SuppressWarnings("unchecked")
    private static long planParameters(Path dir, String parallelism, int globalBatch) {
        Map<String, Object> current = (Map<String, Object>) planJson(dir, "count.yaml",
                manifest("parameters: 1B, " + LLAMA3_8B, parallelism, globalBatch)).get("current");
        List<Map<String, Object>> stages = (List<Map<String, Object>>) ((Map<String, Object>) current.get("memory")).get("stages");
        return Math.round(((Number) stages.get(0).get("parameters")).doubleValue());
    }

    /** The plan's collectives table of the replicas' all-reduce. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> replicasTable(Map<String, Object> doc, int replicas) {
        List<Map<String, Object>> tables = (List<Map<String, Object>>) doc.get("collectives");
        Map<String, Object> t = tables.stream()
                .filter(x -> ("data-parallel gradient all-reduce over the " + replicas + " replicas").equals(x.get("what")))
                .findFirst().orElseThrow(() -> new AssertionError(tables.toString()));
        assertEquals(replicas, ((Number) t.get("ranks")).intValue());
        return t;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> placed(Map<String, Object> table) {
        return ((List<Map<String, Object>>) table.get("tiers")).stream().filter(r -> Boolean.TRUE.equals(r.get("as_placed"))).findFirst().orElseThrow();
    }

    private static AllReduceFact fact(String text) {
        Fixture f = Fixture.of(text);
        List<AllReduceFact> facts = f.jobFacts(AllReduceFact.class, (j, out) -> AllReduceAnalysis.job(j, f.catalog(), Map.of(), Map.of(), out));
        assertEquals(1, facts.size());
        return facts.get(0);
    }

    private static double n(Map<String, Object> m, String key) {
        return ((Number) m.get(key)).doubleValue();
    }

    @Test
    void theShardGroupOnNvlinkAndTheReplicasAcrossNodesGiveCheckThePlansSeconds(@TempDir Path dir) {
        // dp 16 as 2 replicas of a shard group of 8: the group fills a node (NVLink), the replicas are a node apart
        String layout = "tp: 1, dp: 16, dp_shard: 8";
        long parameters = planParameters(dir, layout, 16);
        String text = manifest("parameters: " + parameters + ", " + LLAMA3_8B, layout, 16);
        Map<String, Object> doc = planJson(dir, "j.yaml", text);
        AllReduceFact check = fact(text);

        assertTrue(check.isHybrid());
        assertEquals(8, check.getShardGroupRanks());
        assertEquals(2, check.getReplicas());
        assertEquals(16, check.getRanks());
        assertEquals(1, check.getVolumeFactor(), "not ZeRO-3's 1.5 over all 16");
        assertEquals(32, check.getUnits(), "one FSDP unit per layer");
        assertEquals(AllReduceFact.Link.NVLINK, check.getShardLink());
        assertEquals(AllReduceFact.Link.NETWORK, check.getLink(), "the replicas' all-reduce leaves the node");
        assertEquals("network", ((Map<?, ?>) time(doc).get("tiers")).get("dp"), "the plan's dp tier is the replicas'");
        Map<String, Object> table = replicasTable(doc, 2);
        Map<String, Object> row = placed(table);
        assertEquals("network", row.get("tier"));
        assertEquals(n(row, "line_rate_bytes_per_s"), check.getLinkBytesPerSecond(), 1);
        assertEquals(n(table, "bytes"), check.getShardGradientBytes(), 1, "each shard's gradients, S ÷ 8");
        double planDp = n(PlanCli.map(time(doc).get("comm_s")), "dp");
        assertEquals(planDp, check.getEstimatedSeconds(), planDp * 1e-3, "one micro-batch: the plan's comm_s.dp is NET003's estimate");
        assertEquals(check.getEstimatedSeconds(), check.getShardEstimatedSeconds() + check.getReplicaEstimatedSeconds(), 1e-12);
        assertTrue(check.getSeconds() < check.getEstimatedSeconds(), "line rate without NCCL's latency is the floor");
    }

    @Test
    void contextParallelRanksJoinTheShardGroupInBoth(@TempDir Path dir) {
        // cp 2, dp 8 as 2 replicas × 4 shards: the shard group is 4 × 2 = 8 ranks (one node), the replicas 8 ranks apart
        String layout = "tp: 1, cp: 2, dp: 8, dp_shard: 4";
        long parameters = planParameters(dir, layout, 8);
        String text = manifest("parameters: " + parameters + ", " + LLAMA3_8B, layout, 8);
        Map<String, Object> doc = planJson(dir, "j.yaml", text);
        AllReduceFact check = fact(text);

        assertEquals(8, check.getShardGroupRanks(), "dp_shard 4 × cp 2");
        assertEquals(2, check.getReplicas());
        assertEquals(AllReduceFact.Link.NVLINK, check.getShardLink());
        assertEquals(AllReduceFact.Link.NETWORK, check.getLink());
        assertEquals(check.getGradientBytes() / 8, check.getShardGradientBytes(), 1);
        double planDp = n(PlanCli.map(time(doc).get("comm_s")), "dp");
        assertEquals(planDp, check.getEstimatedSeconds(), planDp * 1e-3);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aShardGroupOfOneRankIsTheReplicasAllReduceAloneInBoth(@TempDir Path dir) {
        // dp_shard 1: nothing to gather or reduce-scatter (a group of one rank); the 16 replicas all-reduce the whole S
        String layout = "tp: 1, dp: 16, dp_shard: 1";
        long parameters = planParameters(dir, layout, 16);
        String text = manifest("parameters: " + parameters + ", " + LLAMA3_8B, layout, 16);
        Map<String, Object> doc = planJson(dir, "j.yaml", text);
        AllReduceFact check = fact(text);

        assertTrue(check.isHybrid());
        assertTrue(check.isShardless(), "NET003 words it without a shard group's line");
        assertEquals(16, check.getReplicas());
        assertEquals(0, check.getShardSentBytes());
        assertEquals(0, check.getShardEstimatedSeconds());
        assertEquals(check.getGradientBytes(), check.getShardGradientBytes(), 1, "the replicas all-reduce the whole S");
        double planDp = n(PlanCli.map(time(doc).get("comm_s")), "dp");
        assertEquals(planDp, check.getEstimatedSeconds(), planDp * 1e-3, "the plan's comm_s.dp is NET003's estimate");
        List<String> said = ((List<String>) doc.get("assumptions")).stream().filter(a -> a.startsWith("hybrid sharding")).toList();
        assertEquals(List.of("hybrid sharding with a shard group of one rank (dp_shard 1): no shard group, nothing all-gathered or"
                + " reduce-scattered; every GPU holds the whole weights, gradients and optimizer states, and the 16 replicas"
                + " all-reduce the whole gradients, one collective per layer"), said);
        // with cp 2 the shard group is the 2 context-parallel ranks: gathers and reduce-scatters there, worded as a group
        AllReduceFact cp = fact(manifest("parameters: " + parameters + ", " + LLAMA3_8B, "tp: 1, cp: 2, dp: 8, dp_shard: 1", 8));
        assertTrue(cp.isHybrid() && !cp.isShardless());
        assertEquals(2, cp.getShardGroupRanks());
        assertTrue(cp.getShardSentBytes() > 0);
    }

    @Test
    @SuppressWarnings("unchecked")
    void atStageTwoBothGatherOncePerLayerForTheForward(@TempDir Path dir) {
        // _HYBRID_SHARD_ZERO2 / reshard_after_forward=False: dp 16 as 2 replicas × 8 shards, the parameters gathered for the
        // forward and kept for the backward: one all-gather per layer in the shard group, not two; NET003's figure is the plan's
        String layout = "tp: 1, dp: 16, dp_shard: 8";
        long parameters = planParameters(dir, layout, 16);
        String text2 = manifest("parameters: " + parameters + ", " + LLAMA3_8B, layout, 16, 2);
        Map<String, Object> doc = planJson(dir, "j2.yaml", text2);
        AllReduceFact two = fact(text2), three = fact(manifest("parameters: " + parameters + ", " + LLAMA3_8B, layout, 16, 3));

        assertTrue(two.isHybrid() && two.isGatheredOnce());
        assertTrue(!three.isGatheredOnce());
        assertEquals(8, two.getShardGroupRanks());
        assertEquals(2, two.getReplicas());
        assertEquals(1, two.getVolumeFactor());
        // the gradients' part is the same at both stages; stage 3's shard group sends a second all-gather per layer:
        // 32 layers × (8 − 1)/8 × P · 2 bytes / 32 each, P · 2 · 7/8 in all
        double gathered = parameters * 2.0 * 7 / 8;
        assertEquals(gathered, three.getShardSentBytes() - two.getShardSentBytes(), gathered * 1e-9);
        assertEquals(three.getReplicaSentBytes(), two.getReplicaSentBytes(), 1);
        assertTrue(two.getShardSeconds() < three.getShardSeconds());
        assertEquals(three.getReplicaSeconds(), two.getReplicaSeconds(), 1e-12);
        double planDp = n(PlanCli.map(time(doc).get("comm_s")), "dp");
        assertEquals(planDp, two.getEstimatedSeconds(), planDp * 1e-3, "one micro-batch: the plan's comm_s.dp is NET003's estimate");
        assertEquals("network", ((Map<?, ?>) time(doc).get("tiers")).get("dp"), "the plan's dp tier is the replicas'");
        assertEquals(n(replicasTable(doc, 2), "bytes"), two.getShardGradientBytes(), 1, "each shard's gradients, S ÷ 8");
        List<String> said = ((List<String>) doc.get("assumptions")).stream().filter(a -> a.startsWith("hybrid sharding")).toList();
        assertEquals(1, said.size());
        assertTrue(said.get(0).contains("all-gathers the parameters there once per layer for the forward and keeps them whole"), said.get(0));
    }

    @Test
    @SuppressWarnings("unchecked")
    void withPipelineParallelismTheSyncIsTheSteps(@TempDir Path dir) {
        // pp 2, dp 8 as 2 replicas × 4 shards, 4 micro-batches a step (global 32 = dp 8 × micro 1 × 4): torch's pipeline
        // stage runs FSDP's reduce-scatters and the replicas' all-reduces once, after the last backward, so the plan's
        // comm_s.dp is one sync, not 4; at stage 2 the parameters are gathered once per layer and step, which is NET003's
        // figure too (check does not know m and prices the step's least)
        String layout = "tp: 1, pp: 2, dp: 8, dp_shard: 4";
        long parameters = 2 * planParameters(dir, layout, 32);     // the first stage's, twice: check divides by pp
        String text2 = manifest("parameters: " + parameters + ", " + LLAMA3_8B, layout, 32, 2);
        String text3 = manifest("parameters: " + parameters + ", " + LLAMA3_8B, layout, 32, 3);
        AllReduceFact two = fact(text2), three = fact(text3);
        assertTrue(two.isHybrid() && two.isPerStep() && two.isGatheredOnce());
        assertEquals(16, two.getUnits(), "32 layers over pp 2");
        double plan2 = n(PlanCli.map(time(planJson(dir, "j2.yaml", text2)).get("comm_s")), "dp");
        assertEquals(plan2, two.getEstimatedSeconds(), plan2 * 1e-3, "stage 2: the step's one sync is NET003's estimate");
        // stage 3: the forward reshards and the backward does not, so m + 1 = 5 gathers per layer and step in the plan,
        // 2 (the least, m = 1) in check: the plan's stage-3 step pays 4 gathers per layer more than its stage 2, check 1
        assertTrue(three.isPerStep() && !three.isGatheredOnce());
        Map<String, Object> doc3 = planJson(dir, "j3.yaml", text3);
        double plan3 = n(PlanCli.map(time(doc3).get("comm_s")), "dp");
        double oneGatherPerLayer = three.getEstimatedSeconds() - two.getEstimatedSeconds();
        assertTrue(oneGatherPerLayer > 0);
        assertEquals(4 * oneGatherPerLayer, plan3 - plan2, oneGatherPerLayer * 1e-3);
        List<String> said = ((List<String>) doc3.get("assumptions")).stream().filter(a -> a.startsWith("hybrid sharding")).toList();
        assertEquals(1, said.size());
        assertTrue(said.get(0).contains("once, one per layer, after the stage's last backward")
                && said.get(0).contains("m + 1 times per layer and step"), said.get(0));
    }

    @Test
    void fsdp2AtStageThreeWithPipelineParallelismSyncsOncePerStep(@TempDir Path dir) throws java.io.IOException {
        // torchtitan's "always" (FSDP2 fully_shard at stage 3, no HSDP) under pp 2, dp_shard 8, global batch 64: 8
        // micro-batches. torch.distributed.pipelining's backward_maybe_with_nosync syncs after the stage's last backward
        // alone, so the sync is HybridSync's with one replica: m + 1 = 9 gathers per layer and step over 16 layers (144) and
        // 16 reduce-scatters, not 8 micro-batches × (32 gathers + 16 reduce-scatters); no replica all-reduce
        String toml = dev.gpulint.testing.Recipes.torchtitan("8B").training("local_batch_size = 1", "global_batch_size = 64", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = 8", "tensor_parallel_degree = 1", "pipeline_parallel_degree = 2",
                        "fsdp_reshard_after_forward = \"always\"").toml();
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("llama3_8b.toml", toml)
                .jobClusters("lab", "*.toml").plan();
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("dp: 144 × dp parameter all-gathers, m + 1 per layer and step (the forward reshards, the backward"
                + " keeps them), within the shard group over 8 ranks: 439.2 MB moved"), r.out());
        assertTrue(r.out().contains("dp: 16 × dp gradient reduce-scatter, one per layer, once per step, within the shard group over 8"
                + " ranks: 878.3 MB moved"), r.out());
        assertTrue(!r.out().contains("all-reduce, one per layer"), "one replica: nothing to all-reduce " + r.out());
    }

    @Test
    void fsdp2KeptUnitsWithPipelineParallelismGatherOncePerLayerAndStep(@TempDir Path dir) throws java.io.IOException {
        // torchtitan's "never" and its "default" with pp (FSDP2 fully_shard(reshard_after_forward=False), stage 2, no HSDP)
        // under pp 2, dp_shard 8, global batch 64: 8 micro-batches. torch.distributed.pipelining's backward_maybe_with_nosync
        // keeps every unit gathered (no reshard after backward) until the stage's last backward and reduces then: per layer
        // and step one all-gather (the first forward's) and one reduce-scatter, HybridSync with one replica, as at stage 3
        // above; not Megatron's ZeRO-2 buckets (a reduce-scatter and an all-gather per 40M-parameter bucket)
        for (String policy : List.of("fsdp_reshard_after_forward = \"never\"", "")) {
            String toml = dev.gpulint.testing.Recipes.torchtitan("8B").training("local_batch_size = 1", "global_batch_size = 64", "seq_len = 8192")
                    .parallelism("data_parallel_shard_degree = 8", "tensor_parallel_degree = 1", "pipeline_parallel_degree = 2", policy).toml();
            Path d = dir.resolve(policy.isEmpty() ? "default" : "never");
            java.nio.file.Files.createDirectories(d);
            PlanCli.Run r = PlanCli.in(d).file("cluster.yaml", PlanCli.LAB_H100).file("llama3_8b.toml", toml)
                    .jobClusters("lab", "*.toml").plan();
            assertEquals(0, r.code(), r.err());
            assertTrue(r.out().contains("dp: 16 × dp parameter all-gather for the step's first forward, kept through the step, one per"
                    + " layer, within the shard group over 8 ranks: 439.2 MB moved"), r.out());
            assertTrue(r.out().contains("dp: 16 × dp gradient reduce-scatter, one per layer, once per step, within the shard group over 8"
                    + " ranks: 878.3 MB moved"), r.out());
            assertTrue(!r.out().contains("per bucket"), "FSDP2's units, not Megatron's ZeRO-2 buckets: " + r.out());
            assertTrue(!r.out().contains("all-reduce, one per layer"), "one replica: nothing to all-reduce " + r.out());
        }
    }

    @Test
    void withoutAShardGroupZero3KeepsTheWholeGroupAtOneAndAHalf(@TempDir Path dir) {
        AllReduceFact check = fact(manifest("parameters: 8B, " + LLAMA3_8B, "tp: 1, dp: 16", 16));
        assertTrue(!check.isHybrid());
        assertEquals(1.5, check.getVolumeFactor());
        assertEquals(16, check.getRanks());
    }
}
