package dev.gpulint.bind.adapt;

import static dev.gpulint.testing.Foreign.syn002;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.core.Finding;
import dev.gpulint.derive.estimate.PipelineSplit;
import dev.gpulint.spec.Model;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.Recipes;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * torchtitan's pipeline_parallel_split_points (our own fixtures in the shape of its train_configs' [parallelism]
 * table): each stage's layers as torchtitan builds and places them (stage_ids_this_rank: looped, or V for
 * ZBVZeroBubble/DualPipeV), the last stage taking the rest of the flavor's layers; a split torchtitan would refuse is
 * SYN002 at the value.
 */
class TorchtitanSplitTest {

    private static String toml(String parallelism) {
        return Recipes.torchtitan("8B").training("local_batch_size = 1", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = -1", "tensor_parallel_degree = 1", parallelism).toml();
    }

    private static Model bind(String text) {
        return Foreign.model("llama3_8b.toml", text);
    }

    private static double[] ranks(Specs.Job j, int pp) {
        PipelineSplit s = PipelineSplit.of(j.parallelism());
        double[] out = new double[pp];
        for (int i = 0; i < pp; i++) out[i] = s.layers(j.model().layers().value(), pp, i);
        return out;
    }

    @Test
    void oneSplitPointOnTwoStagesLeavesTheRestToTheLast() {
        Model m = bind(toml("pipeline_parallel_degree = 2\npipeline_parallel_split_points = [\"layers.15\"]\n"));
        Specs.Job j = m.jobs().get(0);
        assertEquals(List.of(15L, -1L), j.parallelism().stageLayers().value());
        assertEquals(13, j.parallelism().stageLayers().span().startLine());
        assertEquals(32L, j.model().layers().value(), "the flavor's layers");
        double[] r = ranks(j, 2);
        assertEquals(15, r[0]);
        assertEquals(17, r[1], "layers 15 to 31");
        assertEquals(List.of(), syn002(m));
    }

    @Test
    void anInterleavedScheduleLoopsTheStagesAndGivesVpp() {
        Specs.Job j = bind(toml("pipeline_parallel_degree = 2\npipeline_parallel_schedule = \"Interleaved1F1B\"\n"
                + "pipeline_parallel_split_points = [\"layers.7\", \"layers.15\", \"layers.24\"]\n")).jobs().get(0);
        assertEquals(List.of(7L, 8L, 9L, -1L), j.parallelism().stageLayers().value());
        assertEquals(2L, j.parallelism().virtualPp().value(), "4 stages on 2 ranks");
        double[] r = ranks(j, 2);
        assertEquals(7 + 9, r[0], "stages 0 and 2");
        assertEquals(8 + 8, r[1], "stages 1 and 3 (layers 24 to 31)");
    }

    @Test
    void aVScheduleGivesRankRStagesRAndTwoPpMinusOneMinusR() {
        Specs.Job j = bind(toml("pipeline_parallel_degree = 2\npipeline_parallel_schedule = \"ZBVZeroBubble\"\n"
                + "pipeline_parallel_split_points = [\"layers.6\", \"layers.16\", \"layers.26\"]\n")).jobs().get(0);
        // stages 6, 10, 10, 6 (the rest): rank 0 runs stages 0 and 3, rank 1 stages 1 and 2; listed in Megatron's order
        assertEquals(List.of(6L, 10L, -1L, 10L), j.parallelism().stageLayers().value());
        double[] r = ranks(j, 2);
        assertEquals(12, r[0]);
        assertEquals(20, r[1]);
    }

    @Test
    void aSplitTorchtitanRefusesIsSyn002AndLeftOut() {
        Model three = bind(toml("pipeline_parallel_degree = 2\npipeline_parallel_split_points = [\"layers.8\", \"layers.16\"]\n"));
        assertEquals(List.of("13:34 'pipeline_parallel_split_points' makes 3 stages, but the single-stage schedule 1F1B runs one stage"
                + " per rank (pipeline_parallel_degree 2); name a looped schedule (Interleaved1F1B) for more, so the split is left out of"
                + " the estimate."), syn002(three));
        assertNull(three.jobs().get(0).parallelism().stageLayers());
        Model looped = bind(toml("pipeline_parallel_degree = 2\npipeline_parallel_schedule = \"Interleaved1F1B\"\n"
                + "pipeline_parallel_split_points = [\"layers.8\", \"layers.16\"]\n"));
        assertEquals(List.of("14:34 'pipeline_parallel_split_points' makes 3 stages, not a multiple of pipeline_parallel_degree 2"
                + " (torchtitan: \"num_stages must be evenly divisible by pp_size\"), so the split is left out of the estimate."), syn002(looped));
        Model order = bind(toml("pipeline_parallel_degree = 2\npipeline_parallel_split_points = [\"layers.8\", \"layers.4\"]\n"));
        assertEquals(List.of("13:34 'pipeline_parallel_split_points' names 'layers.4' after 'layers.8'; each split point must begin a"
                + " later layer than the one before, or a stage is empty, so the split is left out of the estimate."), syn002(order));
        Model name = bind(toml("pipeline_parallel_degree = 2\npipeline_parallel_split_points = [\"tok_embeddings\"]\n"));
        assertEquals(1, syn002(name).size(), syn002(name).toString());
        assertNull(name.jobs().get(0).parallelism().stageLayers());
    }
}
