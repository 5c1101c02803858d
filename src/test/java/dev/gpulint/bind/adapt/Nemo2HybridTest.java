package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.Recipes;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A NeMo 2 recipe's SSMConfig (nemo/collections/llm/gpt/model/ssm.py: hybrid_override_pattern and Megatron-Core's mamba_*
 * TransformerConfig fields; a G layer's linear_* beside them) read as a Megatron script's hybrid flags are, on our own recipe
 * in the shape NeMo-Run serialises for a Nemotron-H pre-training.
 */
class Nemo2HybridTest {

    private static final String RECIPE = Recipes.nemo2(256, 1, 8192)
            .model("ssm.MambaModel", "ssm.NemotronHConfig8B", "num_layers: 8", "hidden_size: 4096", "num_attention_heads: 32",
                    "hybrid_override_pattern: \"%s\"", "mamba_num_heads: 128", "mamba_head_dim: 64", "mamba_num_groups: 8",
                    "mamba_state_dim: 128", "linear_num_key_heads: 8")
            .trainer(8, 1)
            .strategy("tensor_model_parallel_size: 2", "pipeline_model_parallel_size: 1", "context_parallel_size: 2")
            .yaml();

    @Test
    void anSsmConfigsPatternAndMixerSizesAreRead() {
        dev.gpulint.spec.Model model = Foreign.model("nemotronh.yaml", RECIPE.formatted("M-M*M-M-"));
        assertEquals(List.of(), model.findings());
        Specs.Job j = model.jobs().get(0);
        Specs.Hybrid h = j.model().hybrid();
        assertEquals("M-M*M-M-", h.pattern().value());
        assertEquals(List.of(128L, 64L, 128L, 8L), List.of(h.heads().value(), h.headDim().value(), h.state().value(), h.groups().value()));
        assertNull(h.gdn(), "no G: the linear_* sizes size no layer");
        assertEquals("model.config.hybrid_override_pattern", j.origin().key(Specs.Origin.HYBRID_PATTERN));
        // the mixer sizes' keys as the recipe writes them, which PAR015 names: under model.config., not Megatron's flags
        assertEquals("model.config.mamba_num_groups", j.origin().key("mamba_num_groups"));
        assertEquals("model.config.linear_num_value_heads", j.origin().key("linear_num_value_heads"), "not written: its key all the same");
        // G layers beside the M ones: their linear_* sizes read, the others Megatron-Core's defaults
        Specs.Hybrid g = Foreign.model("gdn.yaml", RECIPE.formatted("M-G*M-G-")).jobs().get(0).model().hybrid();
        assertEquals("M-G*M-G-", g.gdnPattern());
        assertEquals(8L, g.gdn().keyHeads().value());
        assertNull(g.gdn().valueHeads());
    }

    /**
     * NeMo 2's SSMConfig derives no num_layers from its pattern (num_layers is a field of its own, default 2:
     * nemo/collections/llm/gpt/model/ssm.py), so a recipe without model.config.num_layers is not given the pattern's count.
     */
    @Test
    void anSsmConfigWithoutNumLayersIsNotGivenThePatternsCount() {
        Specs.Job j = Foreign.model("nemotronh.yaml", RECIPE.replaceAll("(?m)^ *num_layers: 8\\n", "").formatted("M-M*M-M-"))
                .jobs().get(0);
        assertEquals("M-M*M-M-", j.model().hybrid().pattern().value(), "the pattern is read");
        assertEquals(List.of(), j.origin().unpriced().stream().filter(s -> s.startsWith("model.config.num_layers")).toList());
        assertTrue(j.model().layers() == null || j.model().layers().value() != 8, "not the pattern's 8: " + j.model().layers());
    }
}
