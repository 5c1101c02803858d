package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.Recipes;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The MoE and attention keys of a NeMo 2 / Megatron-Bridge recipe's model.config (Megatron-Core's TransformerConfig
 * names), on our own recipe in the shape NeMo-Run serialises for a Qwen3 MoE pre-training.
 */
class Nemo2MoeTest {

    static final String RECIPE = Recipes.nemo2(512, 1, 4096)
            .model("qwen3.Qwen3Model", "qwen3.Qwen3MoEConfig", "num_layers: 48", "hidden_size: 2048", "num_attention_heads: 32",
                    "num_query_groups: 4", "ffn_hidden_size: 6144", "num_moe_experts: 128", "moe_router_topk: 8",
                    "moe_ffn_hidden_size: 768", "moe_layer_freq: %s", "moe_token_dispatcher_type: alltoall", "moe_grouped_gemm: true",
                    "moe_expert_capacity_factor: null", "overlap_moe_expert_parallel_comm: true", "window_size: [4096, 0]")
            .trainer(8, 4)
            .strategy("tensor_model_parallel_size: 1", "pipeline_model_parallel_size: 1", "expert_model_parallel_size: 8",
                    "expert_tensor_parallel_size: 1")
            .yaml();

    private static dev.gpulint.spec.Model bind(String freq) {
        return Foreign.model("qwen3_moe.yaml", RECIPE.formatted(freq));
    }

    @Test
    void theRecipesMoeAndAttentionKeysAreRead() {
        dev.gpulint.spec.Model model = bind("1");
        assertEquals(List.of(), model.findings());
        Specs.Model m = model.jobs().get(0).model();
        assertEquals(8L, m.topK().value());
        assertEquals(768L, m.moe().expertFfn().value());
        assertEquals(6144L, m.ffnHiddenSize().value());
        assertEquals("1", m.moe().layerFreq().value());
        assertEquals("alltoall", m.moe().dispatcher().value());
        assertEquals(true, m.moe().groupedGemm().value());
        assertEquals(true, m.moe().overlapA2a().value());
        assertNull(m.moe().capacityFactor(), "null: dropless");
        assertEquals(4096L, m.attention().window().value());
        assertEquals(1L, model.jobs().get(0).parallelism().expertTp().value());
    }

    @Test
    void theExpertsClampAndBiasesAreReadWhereStatedOnAnMoeConfig() {
        // Megatron-Bridge's GPTOSSProvider: activation_func_clamp_value 7.0, add_bias_linear True
        Specs.Model m = bind("1").jobs().get(0).model();
        assertNull(m.moe().activationClamp(), "not stated: not clamped");
        assertNull(m.moe().expertBias(), "not stated: no biases");
        String oss = RECIPE.replace("    moe_grouped_gemm: true\n", "    moe_grouped_gemm: true\n    activation_func_clamp_value: 7.0\n    add_bias_linear: true\n");
        Specs.Model g = Foreign.bind("gpt_oss.yaml", oss.formatted("1")).model();
        assertEquals(7.0, g.moe().activationClamp().value());
        assertEquals(true, g.moe().expertBias().value());
        // a dense config's biases are no expert's
        Specs.Moe dm = Foreign.bind("dense.yaml", oss.formatted("1").replace("num_moe_experts: 128", "num_moe_experts: 1")).model().moe();
        assertNull(dm == null ? null : dm.expertBias());
        assertNull(dm == null ? null : dm.activationClamp());
    }

    /** NeMo 2's GPT-OSS recipe dump: the config class names the model (the catalog's GPT-OSS-120B), then a line of its config, %s. */
    static final String GPT_OSS = Recipes.nemo2(512, 1, 4096).model("gpt_oss.GPTOSSModel", "gpt_oss.GPTOSSConfig120B", "%s")
            .trainer(8, 8).strategy("tensor_model_parallel_size: 1", "pipeline_model_parallel_size: 1", "expert_model_parallel_size: 8")
            .yaml();

    private static dev.gpulint.spec.Model gptOss(String line) {
        return Foreign.model("gpt_oss_120b.yaml", GPT_OSS.formatted(line));
    }

    @Test
    void aStatedAddBiasLinearWinsOverTheCatalogsExpertBiasBothWays() {
        // not stated: the catalog's GPT-OSS-120B (its experts have biases, Hugging Face's GptOssExperts)
        Specs.Model catalog = gptOss("").jobs().get(0).model();
        assertEquals(128L, catalog.experts().value());
        assertEquals(true, catalog.moe().expertBias().value());
        // stated false: no biases, at its line under its own key, whatever the catalog says
        dev.gpulint.spec.Model off = gptOss("add_bias_linear: false");
        assertEquals(List.of(), off.findings());
        Specs.Moe moe = off.jobs().get(0).model().moe();
        assertEquals(false, moe.expertBias().value());
        assertEquals(12, moe.expertBias().span().startLine());
        assertEquals(7.0, moe.activationClamp().value(), "the clamp is still the catalog's: the file does not state it");
        // stated true: biases, at its line
        Specs.Moe on = gptOss("add_bias_linear: true").jobs().get(0).model().moe();
        assertEquals(true, on.expertBias().value());
        assertEquals(12, on.expertBias().span().startLine());
    }

    @Test
    void aDenseConfigsAddBiasLinearFalseSaysNothingOfExperts() {
        String llama = GPT_OSS.replace("gpt_oss.GPTOSSModel", "llama.LlamaModel").replace("gpt_oss.GPTOSSConfig120B", "llama.Llama3Config8B")
                .replace("    expert_model_parallel_size: 8\n", "");
        Specs.Job j = Foreign.bind("llama3_8b.yaml", llama.formatted("add_bias_linear: false"));
        assertNull(j.model().moe());
    }

    @Test
    void aLayerFrequencyThatDoesNotReadIsSyn002AtTheValueUnderItsOwnKey() {
        dev.gpulint.spec.Model model = bind("\"[1]*47\"");
        assertEquals(List.of("qwen3_moe.yaml:20:21 SYN002 'model.config.moe_layer_freq' is '[1]*47': the pattern gives 47 layers but the model has 48."),
                model.findings().stream().map(x -> x.span() + " " + x.ruleId() + " " + x.message()).toList());
        assertNull(model.jobs().get(0).model().moe().layerFreq());
    }
}
