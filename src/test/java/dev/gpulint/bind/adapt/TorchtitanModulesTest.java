package dev.gpulint.bind.adapt;

import static dev.gpulint.testing.Foreign.syn002;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.spec.Model;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.Recipes;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * torchtitan's module_fqns_per_model_part (newer torchtitan: one list of module names per stage; our own fixtures in the
 * shape of its train_configs' [parallelism] table): each stage's layers.N entries are its transformer layers, placed on the
 * ranks as the schedule places stages; a list torchtitan would refuse, or that does not name the model's layers once each,
 * is SYN002 at the value and the split is left out.
 */
class TorchtitanModulesTest {

    private static String toml(String layers, String parallelism) {
        return Recipes.torchtitan("8B").model(layers).training("local_batch_size = 1", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = -1", parallelism).toml();
    }

    private static Model bind(String text) {
        return Foreign.model("llama3_8b.toml", text);
    }

    /** Stage i's modules: the embedding on the first, the norm and output on the last, layers from..to-1 each. */
    private static String parts(int... bounds) {
        StringBuilder b = new StringBuilder("module_fqns_per_model_part = [");
        for (int s = 0; s + 1 < bounds.length; s++) {
            b.append(s == 0 ? "[\"tok_embeddings\"" : "[");
            for (int l = bounds[s]; l < bounds[s + 1]; l++) b.append(s == 0 || l > bounds[s] ? ", " : "").append("\"layers.").append(l).append('"');
            b.append(s + 2 == bounds.length ? ", \"norm\", \"output\"]" : "]").append(s + 2 == bounds.length ? "" : ", ");
        }
        return b.append("]\n").toString();
    }

    @Test
    void eachStagesLayersAreItsLayerEntries() {
        // 8B has 32 layers: a lighter first stage (7 + the embedding), a lighter last (8 + the output), 9 and 8 between
        Model m = bind(toml("", "pipeline_parallel_degree = 4\n" + parts(0, 7, 16, 24, 32)));
        Specs.Job j = m.jobs().get(0);
        assertEquals(List.of(), syn002(m));
        assertEquals(List.of(7L, 9L, 8L, 8L), j.parallelism().stageLayers().value());
        assertEquals(12, j.parallelism().stageLayers().span().startLine());
        assertEquals(30, j.parallelism().stageLayers().span().startColumn());
        // a looped schedule, two stages per rank: stage s on rank s mod pp (Megatron's order is the same)
        Model looped = bind(toml("", "pipeline_parallel_degree = 2\npipeline_parallel_schedule = \"Interleaved1F1B\"\n"
                + parts(0, 7, 16, 24, 32)));
        assertEquals(List.of(7L, 9L, 8L, 8L), looped.jobs().get(0).parallelism().stageLayers().value());
        assertEquals(2L, looped.jobs().get(0).parallelism().virtualPp().value());
        // a V schedule: rank 0 holds stages 0 and 3, rank 1 stages 1 and 2; Megatron's order lists rank 0's second stage last
        Model v = bind(toml("", "pipeline_parallel_degree = 2\npipeline_parallel_schedule = \"ZBVZeroBubble\"\n"
                + parts(0, 7, 16, 24, 32)));
        assertEquals(List.of(7L, 9L, 8L, 8L), v.jobs().get(0).parallelism().stageLayers().value());
        Model v2 = bind(toml("", "pipeline_parallel_degree = 2\npipeline_parallel_schedule = \"ZBVZeroBubble\"\n"
                + parts(0, 6, 16, 24, 32)));
        assertEquals(List.of(6L, 10L, 8L, 8L), v2.jobs().get(0).parallelism().stageLayers().value());
    }

    @Test
    void aListTorchtitanRefusesIsSyn002AndLeftOut() {
        // three stages on pp 2
        Model three = bind(toml("", "pipeline_parallel_degree = 2\npipeline_parallel_schedule = \"Interleaved1F1B\"\n" + parts(0, 10, 20, 32)));
        assertNull(three.jobs().get(0).parallelism().stageLayers());
        assertEquals(List.of("13:30 'module_fqns_per_model_part' makes 3 stages, not a multiple of pipeline_parallel_degree 2"
                + " (torchtitan: \"num_stages must be evenly divisible by pp_size\"), so the split is left out of the estimate."), syn002(three));
        // four stages under 1F1B on pp 2
        Model single = bind(toml("", "pipeline_parallel_degree = 2\n" + parts(0, 8, 16, 24, 32)));
        assertEquals(List.of("12:30 'module_fqns_per_model_part' makes 4 stages, but the single-stage schedule 1F1B runs one stage"
                + " per rank (pipeline_parallel_degree 2), so the split is left out of the estimate."), syn002(single));
        // a layer named twice
        assertEquals(List.of("12:30 'module_fqns_per_model_part' names 'layers.0' twice; each layer belongs to one stage, so the"
                + " split is left out of the estimate."), syn002(bind(toml("", "pipeline_parallel_degree = 2\n"
                + "module_fqns_per_model_part = [[\"tok_embeddings\", \"layers.0\"], [\"layers.0\", \"norm\", \"output\"]]\n"))));
        // the 8B flavor's 32 layers, 30 named: checked once the catalog gives the layers
        Model missing = bind(toml("", "pipeline_parallel_degree = 2\n" + parts(0, 15, 30)));
        assertNull(missing.jobs().get(0).parallelism().stageLayers());
        assertEquals(List.of("12:30 'module_fqns_per_model_part' names 30 transformer layers (layers.N) over its 2 stages, but the"
                + " model has 32; each layer must be in one stage, so the split is left out of the estimate."), syn002(missing));
    }

    @Test
    void quietWithoutTheKeyOrWithAPlaceholder() {
        Model none = bind(toml("", "pipeline_parallel_degree = 2\n"));
        assertEquals(List.of(), syn002(none));
        Model placeholder = bind(toml("", "pipeline_parallel_degree = 2\nmodule_fqns_per_model_part = [[\"${FIRST}\"], [\"layers.1\"]]\n"));
        assertEquals(List.of(), syn002(placeholder));
        assertNull(placeholder.jobs().get(0).parallelism().stageLayers());
    }
}
