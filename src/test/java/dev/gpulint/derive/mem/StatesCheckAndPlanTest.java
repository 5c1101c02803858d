package dev.gpulint.derive.mem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.Fixture;
import dev.gpulint.facts.MemoryFact;
import dev.gpulint.testing.PlanCli;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One quantity, one home: the model states per GPU `check` holds a job to (MEM001/MEM002's MemoryFact) are the ones
 * `gpulint plan` prints for the same job (its JSON's weights + gradients + optimizer bytes of the job's own layout),
 * both sharded by derive.estimate.StateShards. At tp 1 and pp 1 the plan's one stage holds the whole model, so a job
 * that states the parameter count the plan counts from its shape gets the same bytes from both; under hybrid sharding
 * (HSDP) both shard over the shard group, not over all of dp.
 */
class StatesCheckAndPlanTest {

    private static final String MIXTRAL = "dtype: bf16, layers: 32, hidden_size: 4096, attention_heads: 32, kv_heads: 8,"
            + " ffn_hidden_size: 14336, vocab_size: 32000, gated_mlp: true, tied_embeddings: false, seq_length: 4096,"
            + " experts: 8, top_k: 2";
    private static final String LLAMA3_70B = "dtype: bf16, layers: 80, hidden_size: 8192, attention_heads: 64, kv_heads: 8,"
            + " ffn_hidden_size: 28672, vocab_size: 128256, gated_mlp: true, tied_embeddings: false, seq_length: 8192";
    /** Mixtral 8x7B's routed experts: 32 layers × 8 experts × 3 matrices of 4096 × 14336 (its config.json). */
    private static final long MIXTRAL_EXPERTS = 32L * 8 * 3 * 4096 * 14336;

    /** Four nodes of 8 H100 and job {@code j} on all of them. */
    private static String manifest(String model, String parallelism) {
        return "kind: cluster\nname: c\nnode_groups:\n  - { name: g, count: 4, gpu: { model: H100-SXM5-80GB, count: 8 },"
                + " nvlink: { switch: true } }\n---\nkind: training_job\nname: j\ncluster: c\nnodes: 4\nmodel: { " + model + " }\n"
                + "parallelism: { " + parallelism + " }\nbatch: { micro_batch_size: 1, global_batch_size: 256 }\n"
                + "optimizer: { zero_stage: 3 }\n";
    }

    /** The plan's stage 0 of the job's own layout (`plan -f json`: current.memory.stages[0]). */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> planStage(Path dir, String name, String text) {
        Map<String, Object> doc = PlanCli.in(dir).file(name, text).planJson("--top", "1").json();
        Map<String, Object> current = (Map<String, Object>) doc.get("current");
        List<Map<String, Object>> stages = (List<Map<String, Object>>) ((Map<String, Object>) current.get("memory")).get("stages");
        assertEquals(1, stages.size());
        return stages.get(0);
    }

    private static double states(Map<String, Object> stage) {
        return n(stage, "weights_bytes") + n(stage, "gradients_bytes") + n(stage, "optimizer_bytes");
    }

    private static double n(Map<String, Object> m, String key) {
        return ((Number) m.get(key)).doubleValue();
    }

    private static MemoryFact fact(String text) {
        List<MemoryFact> f = Fixture.of(text).jobFacts(MemoryFact.class, MemoryAnalysis::job);
        assertEquals(1, f.size());
        return f.get(0);
    }

    @Test
    void hybridShardingGivesCheckAndPlanTheSameStatesPerGpu(@TempDir Path dir) {
        String layout = "tp: 1, dp: 32, dp_shard: 8";
        long parameters = Math.round(n(planStage(dir, "count.yaml", manifest("parameters: 1B, " + LLAMA3_70B, layout)), "parameters"));
        String text = manifest("parameters: " + parameters + ", " + LLAMA3_70B, layout);
        double plan = states(planStage(dir, "j.yaml", text));
        MemoryFact check = fact(text);
        assertTrue(check.isHybrid());
        assertEquals(8, check.getShard());
        assertEquals(4, check.getReplicas());
        assertEquals(plan, check.getPerGpuBytes(), 2, "three byte counts rounded in the JSON");
        // ZeRO-3's 16 bytes per parameter over the shard group of 8, not over dp 32: more than the GPU's 80 GiB
        assertEquals(parameters * 16.0 / 8, check.getPerGpuBytes(), 1);
        assertTrue(check.getPerGpuBytes() > check.getCapacityBytes());
    }

    @Test
    void hybridShardingWithExpertsGivesCheckAndPlanTheSameStatesPerGpu(@TempDir Path dir) {
        String layout = "tp: 1, dp: 32, dp_shard: 8, ep: 8";
        // the plan's stage holds the shared parameters and an eighth of the routed experts (ep 8)
        double stage = n(planStage(dir, "count.yaml", manifest("parameters: 1B, expert_parameters: 0, " + MIXTRAL, layout)), "parameters");
        long parameters = Math.round(stage - MIXTRAL_EXPERTS / 8.0 + MIXTRAL_EXPERTS);
        String text = manifest("parameters: " + parameters + ", expert_parameters: " + MIXTRAL_EXPERTS + ", " + MIXTRAL, layout);
        double plan = states(planStage(dir, "j.yaml", text));
        MemoryFact check = fact(text);
        assertTrue(check.isMoe());
        assertEquals(1, check.getExpertDp(), "the expert data-parallel size: the shard group 8 × tp 1 ÷ (etp 1 × ep 8)");
        assertEquals(plan, check.getPerGpuBytes(), 2, "three byte counts rounded in the JSON");
        assertTrue(check.getPerGpuBytes() > check.getCapacityBytes());
    }

    @Test
    @SuppressWarnings("unchecked")
    void hybridShardingWithPipelineParallelismHoldsWeightsAndGradientsWholeInBoth(@TempDir Path dir) {
        // pp 2: torch's pipeline schedule keeps FSDP's gradients unsharded (in the fp32 reduction dtype) and its gathered
        // weights whole until the step's last backward; only the optimizer states shard over the group of 4
        String layout = "tp: 1, pp: 2, dp: 16, dp_shard: 4";
        java.util.function.Function<String, Map<String, Object>> stage0 = text -> {
            Map<String, Object> doc = PlanCli.in(dir).file("p.yaml", text).planJson("--top", "1").json();
            Map<String, Object> current = (Map<String, Object>) doc.get("current");
            return ((List<Map<String, Object>>) ((Map<String, Object>) current.get("memory")).get("stages")).get(0);
        };
        long perStage = Math.round(n(stage0.apply(manifest("parameters: 1B, " + LLAMA3_70B, layout)), "parameters"));
        String text = manifest("parameters: " + 2 * perStage + ", " + LLAMA3_70B, layout);
        MemoryFact check = fact(text);
        assertTrue(check.isHybrid() && check.isPipelined());
        // 2 weights + 4 gradients (fp32, the reduction's width) whole, 12 optimizer bytes ÷ 4: 9 bytes per parameter, not 16 ÷ 4
        assertEquals(perStage * (2 + 4 + 12 / 4.0), check.getPerGpuBytes(), 1);
        assertEquals(states(stage0.apply(text)), check.getPerGpuBytes(), 2, "the plan's stage 0 holds the same");
    }

    /** Llama 3 8B under torchtitan, pp 2, FSDP2 over 8 ranks, global batch 64 (8 micro-batches of 1), with {@code policy}. */
    private static String torchtitan(String policy) {
        return dev.gpulint.testing.Recipes.torchtitan("8B").training("local_batch_size = 1", "global_batch_size = 64", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = 8", "tensor_parallel_degree = 1", "pipeline_parallel_degree = 2",
                        "fsdp_reshard_after_forward = \"" + policy + "\"").toml();
    }

    @Test
    @SuppressWarnings("unchecked")
    void fsdp2AtStageThreeWithPipelineParallelismHoldsWeightsAndGradientsWholeInBoth(@TempDir Path dir) {
        // torchtitan's "always" (fully_shard at stage 3) under pp 2: torch.distributed.pipelining's PipelineStage turns the
        // reshard after backward and the gradient sync off for every backward but the last (backward_maybe_with_nosync), so
        // the weights stay whole and the gradients accumulate unsharded as under "never": stage 0 held 1.00 GB weights and
        // 1.00 GB gradients (÷ 8) before, where "never" held 8.03 GB and 16.06 GB
        java.util.function.Function<String, Map<String, Object>> stage0 = policy -> {
            Map<String, Object> doc = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("llama3_8b.toml", torchtitan(policy))
                    .jobClusters("lab", "*.toml").planJson("--top", "1").json();
            Map<String, Object> current = (Map<String, Object>) doc.get("current");
            return ((List<Map<String, Object>>) ((Map<String, Object>) current.get("memory")).get("stages")).get(0);
        };
        Map<String, Object> always = stage0.apply("always"), never = stage0.apply("never");
        double stageParams = n(always, "parameters");
        // 2 bytes of bf16 weights and 4 of fp32 gradients per parameter whole, 12 optimizer bytes ÷ 8
        assertEquals(2 * stageParams, n(always, "weights_bytes"), 2);
        assertEquals(4 * stageParams, n(always, "gradients_bytes"), 2);
        assertEquals(12 * stageParams / 8, n(always, "optimizer_bytes"), 2);
        assertEquals(8.03e9, n(always, "weights_bytes"), 0.01e9);
        assertEquals(16.06e9, n(always, "gradients_bytes"), 0.01e9);
        assertEquals(states(never), states(always), 2, "held as \"never\" holds it");
        // check's MEM001 reads the same decision (MemoryAnalysis: ShardedGathers.pipelined of the job as written); a torchtitan
        // TOML states no parameter count, so MEM001 itself has no figure to hold it to
        dev.gpulint.spec.Specs.Job job = dev.gpulint.testing.Foreign.bind("llama3_8b.toml", torchtitan("always"));
        assertEquals(3L, job.optimizer().zeroStage().value());
        assertTrue(dev.gpulint.derive.estimate.ShardedGathers.pipelined(job, 3, 2, false), "held whole under pp, as the plan holds it");
        assertFalse(dev.gpulint.derive.estimate.ShardedGathers.pipelined(job, 3, 1, false), "without pp FSDP2 reshards as written");
    }

    @Test
    void withoutHybridShardingCheckAndPlanShardOverAllOfDp(@TempDir Path dir) {
        String layout = "tp: 1, dp: 32";
        long parameters = Math.round(n(planStage(dir, "count.yaml", manifest("parameters: 1B, " + LLAMA3_70B, layout)), "parameters"));
        String text = manifest("parameters: " + parameters + ", " + LLAMA3_70B, layout);
        MemoryFact check = fact(text);
        assertEquals(false, check.isHybrid());
        assertEquals(1, check.getReplicas());
        assertEquals(states(planStage(dir, "j.yaml", text)), check.getPerGpuBytes(), 2);
        assertEquals(parameters * 16.0 / 32, check.getPerGpuBytes(), 1);
    }
}
