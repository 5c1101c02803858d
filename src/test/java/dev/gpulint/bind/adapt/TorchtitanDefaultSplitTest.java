package dev.gpulint.bind.adapt;

import static dev.gpulint.testing.Foreign.syn002;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.derive.estimate.PipelineSplit;
import dev.gpulint.spec.Model;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.Recipes;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * torchtitan's own split when no split points are written (generate_llm_fqn_per_model_part: the embedding and the
 * output each count as a layer, the effective layers dealt out evenly with the remainder to the first stages), and
 * pipeline_parallel_layers_per_stage (⌈(L + 2)/k⌉ stages); our own fixtures in the shape of torchtitan's train_configs.
 */
class TorchtitanDefaultSplitTest {

    private static String toml(String flavor, String parallelism) {
        return Recipes.torchtitan(flavor).training("local_batch_size = 8", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = -1", "tensor_parallel_degree = 8", parallelism).toml();
    }

    private static Model bind(String text) {
        return Foreign.model("llama3.toml", text);
    }

    private static List<Double> ranks(Specs.Job j, int pp) {
        PipelineSplit s = PipelineSplit.of(j.parallelism());
        Double[] out = new Double[pp];
        for (int i = 0; i < pp; i++) out[i] = s.layers(j.model().layers().value(), pp, i);
        return List.of(out);
    }

    @Test
    void oneF1bCountsTheEmbeddingAndTheOutputAsALayerEach() {
        // Llama 3 8B, 32 layers, pp 4: 34 effective layers, 9 9 8 8; the first gives one to the embedding, the last one to the output
        Specs.Job j = bind(toml("8B", "pipeline_parallel_degree = 4\n")).jobs().get(0);
        assertEquals(List.of(8L, 9L, 8L, 7L), j.parallelism().stageLayers().value());
        assertEquals(List.of(8.0, 9.0, 8.0, 7.0), ranks(j, 4));
        assertNull(j.parallelism().virtualPp());
    }

    @Test
    void aLayerCountNoMultipleOfPpIsSplitAsTorchtitanSplitsIt() {
        // Llama 3 70B, 80 layers, pp 6: 82 effective, 14 14 14 14 13 13 → 13 14 14 14 13 12; nothing for PAR004 to refuse
        Model m = bind(toml("70B", "pipeline_parallel_degree = 6\n"));
        Specs.Job j = m.jobs().get(0);
        assertEquals(List.of(13L, 14L, 14L, 14L, 13L, 12L), j.parallelism().stageLayers().value());
        assertEquals(List.of(), syn002(m));
    }

    @Test
    void aLoopedScheduleBuildsTwoStagesPerRankByDefault() {
        // 32 layers, pp 2, Interleaved1F1B: 4 stages of 34 effective: 9 9 8 8 → 8 9 8 7; rank 0 holds stages 0 and 2
        Specs.Job j = bind(toml("8B", "pipeline_parallel_degree = 2\npipeline_parallel_schedule = \"Interleaved1F1B\"\n")).jobs().get(0);
        assertEquals(List.of(8L, 9L, 8L, 7L), j.parallelism().stageLayers().value());
        assertEquals(2L, j.parallelism().virtualPp().value());
        assertEquals(List.of(16.0, 16.0), ranks(j, 2));
        // the V schedule places stages 0 and 3 on rank 0
        Specs.Job v = bind(toml("8B", "pipeline_parallel_degree = 2\npipeline_parallel_schedule = \"ZBVZeroBubble\"\n")).jobs().get(0);
        assertEquals(List.of(8L, 9L, 7L, 8L), v.parallelism().stageLayers().value());
        assertEquals(List.of(15.0, 17.0), ranks(v, 2));
    }

    @Test
    void layersPerStageSetsTheStageCountAndItsWeights() {
        // 32 layers + 1 + 1 over stages of 5: ⌈34/5⌉ = 7 stages? not a multiple of pp 2 → refused; of 4: ⌈34/4⌉ = 9 → refused;
        // of 3 with weights 2: ⌈36/3⌉ = 12 stages, 6 per rank under Interleaved1F1B
        Model bad = bind(toml("8B", "pipeline_parallel_degree = 2\npipeline_parallel_schedule = \"Interleaved1F1B\"\n"
                + "pipeline_parallel_layers_per_stage = 5\n"));
        assertEquals(List.of("14:38 'pipeline_parallel_layers_per_stage' 5 makes ⌈(32 layers + 1 for the embedding + 1 for the output) ÷ 5⌉"
                + " = 7 stages, not a multiple of pipeline_parallel_degree 2 (torchtitan refuses it), so the split is left out of the estimate."),
                syn002(bad));
        assertNull(bad.jobs().get(0).parallelism().stageLayers());
        Specs.Job j = bind(toml("8B", "pipeline_parallel_degree = 2\npipeline_parallel_schedule = \"Interleaved1F1B\"\n"
                + "pipeline_parallel_layers_per_stage = 3\npipeline_parallel_first_stage_less_layers = 2\n"
                + "pipeline_parallel_last_stage_less_layers = 2\n")).jobs().get(0);
        assertEquals(List.of(1L, 3L, 3L, 3L, 3L, 3L, 3L, 3L, 3L, 3L, 3L, 1L), j.parallelism().stageLayers().value());
        assertEquals(6L, j.parallelism().virtualPp().value());
        assertEquals(List.of(16.0, 16.0), ranks(j, 2));
    }

    @Test
    void writtenSplitPointsOrOnePipelineStageLeaveItAlone() {
        assertEquals(List.of(15L, -1L), bind(toml("8B", "pipeline_parallel_degree = 2\npipeline_parallel_split_points = [\"layers.15\"]\n"))
                .jobs().get(0).parallelism().stageLayers().value());
        Specs.Job one = bind(toml("8B", "pipeline_parallel_degree = 1\n")).jobs().get(0);
        assertNull(one.parallelism() == null ? null : one.parallelism().stageLayers());
    }
}
