package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import dev.gpulint.testing.Recipes;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gpulint plan} on a Megatron-LM hybrid MoE test case that names its layers only by their pattern, as Megatron-LM's
 * hybrid functional tests write them (a Nemotron-3-shaped pattern of Mamba-2, attention and MoE layers, no --num-layers):
 * Megatron-LM derives --num-layers from the pattern (bind/adapt/HybridLayers#layersFromPattern), so the plan prices the
 * pattern's 12 decoder layers and says where the count came from, where it stopped before with "does not say model.layers".
 * Our own fixture in the shape of Megatron-LM's hybrid QAD test case.
 */
class HybridLayerCountPlanTest {

    /** 12 decoder layers (5 Mamba-2, 2 attention, 5 MoE) and one MTP layer of attention + MoE after the '/'. */
    private static final String PATTERN = "MEM*EMEMEM*E/*E";

    private static Recipes.ModelArgs job() {
        return Recipes.modelArgs().set("--hidden-size", 1024).set("--num-attention-heads", 16).set("--group-query-attention", true)
                .set("--num-query-groups", 2).set("--ffn-hidden-size", 512).set("--kv-channels", 64).set("--squared-relu", true)
                .pattern(PATTERN).set("--mamba-num-heads", 32).set("--num-experts", 16).set("--moe-router-topk", 4)
                .set("--moe-shared-expert-intermediate-size", 1024).set("--moe-grouped-gemm", true).set("--bf16", true)
                .set("--tensor-model-parallel-size", 1).set("--expert-model-parallel-size", 4).set("--pipeline-model-parallel-size", 1)
                .set("--context-parallel-size", 2).set("--micro-batch-size", 1).set("--global-batch-size", 8)
                .set("--seq-length", 2048).set("--max-position-embeddings", 2048).set("--vocab-size", 32000)
                .set("--use-distributed-optimizer", true);
    }

    private static PlanCli.Run plan(Path dir, Recipes.ModelArgs job, String... options) {
        return PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("tests/hybrid_qad/model_config.yaml", job.yaml())
                .jobClusters("lab", "tests/hybrid_qad/model_config.yaml").plan(options);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aPatternWithoutNumLayersIsPricedWithThePatternsLayers(@TempDir Path dir) {
        PlanCli.Run r = plan(dir, job(), "-f", "json", "--top", "1");
        assertEquals(0, r.code(), r.err() + r.out());
        Map<String, Object> doc = r.json();
        List<String> derived = ((List<String>) doc.get("assumptions")).stream().filter(s -> s.startsWith("--num-layers ")).toList();
        assertEquals(List.of("--num-layers 12 from --hybrid-layer-pattern (5 Mamba-2, 2 attention and 5 MoE layers): the job writes no"
                + " --num-layers, and Megatron-LM derives it from the pattern (validate_args, since the --hybrid-layer-pattern rename of"
                + " NVIDIA/Megatron-LM pull request 3377; an older Megatron-LM needs --num-layers equal to it) as Megatron-Core's"
                + " get_hybrid_total_layer_count counts it: the layer symbols before the first '/', '|' not counted"), derived);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aWrittenCountIsPricedAsWrittenAndNothingIsSaid(@TempDir Path dir) {
        PlanCli.Run r = plan(dir, job().set("--num-layers", 12), "-f", "json", "--top", "1");
        assertEquals(0, r.code(), r.err() + r.out());
        assertTrue(((List<String>) r.json().get("assumptions")).stream().noneMatch(s -> s.startsWith("--num-layers ")), r.out());
    }

    @Test
    void withNeitherCountNorPatternThePlanStillSaysWhatIsMissing(@TempDir Path dir) {
        PlanCli.Run r = plan(dir, job().without("--hybrid-layer-pattern"));
        assertEquals(2, r.code(), r.out());
        assertEquals("gpulint: plan: job 'tests/hybrid_qad/model_config.yaml' cannot be estimated: it does not say model.layers\n",
                r.err().replace(dir.toString() + "/", ""));
    }
}
