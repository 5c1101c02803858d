package dev.gpulint.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.estimate.ModelShape;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The model-shape catalog: its entries against the totals their publishers state, and how names find them. */
class ModelsTest {
    private final Models models = Models.builtIn();

    private String found(String written) {
        return models.find(written).map(Models.Entry::name).orElse("none");
    }

    @Test
    void theNamesEachFormatUsesFindTheSameEntry() {
        String llama3 = "meta-llama/Meta-Llama-3-70B";
        assertEquals(llama3, found("meta-llama/Meta-Llama-3-70B"));                 // --model, model_name_or_path
        assertEquals(llama3, found("meta-llama/Meta-Llama-3-70B-Instruct"));        // a fine-tune of it
        assertEquals(llama3, found("/fsx/checkpoints/Meta-Llama-3-70B-Instruct/")); // --load of a checkpoint folder
        assertEquals(llama3, found("/data/Meta-Llama-3-70B/tokenizer.model"));      // --tokenizer-model in that folder
        assertEquals(llama3, found("llama3:70B"));                                  // torchtitan name:flavor
        assertEquals(llama3, found("llama3_70b"));                                  // Megatron-Bridge recipe
        assertEquals(llama3, found("llama3_70b_pretrain_config"));
        assertEquals(llama3, found("Llama3Config70B"));                             // NeMo 2 config class
        assertEquals("meta-llama/Llama-3.1-70B", found("llama31_70b"));
        assertEquals("meta-llama/Llama-3.1-70B", found("meta-llama/Meta-Llama-3.1-70B-Instruct"));
        assertEquals("meta-llama/Llama-3.1-405B", found("llama3:405B"), "torchtitan's llama3 405B flavor is Llama 3.1's");
        assertEquals("meta-llama/Llama-2-7b-hf", found("meta-llama/Llama-2-7b-chat-hf"));
        assertEquals("Qwen/Qwen2.5-72B", found("Qwen25Config72B"));
        assertEquals("Qwen/Qwen2.5-7B", found("Qwen/Qwen2.5-7B-Instruct"));
        assertEquals("deepseek-ai/DeepSeek-V3", found("deepseek_v3:671B"));
        assertEquals("deepseek-ai/DeepSeek-V3", found("deepseek-ai/DeepSeek-R1"));
        assertEquals("google/gemma-2-9b", found("google/gemma-2-9b-it"));
        assertEquals("mistralai/Mixtral-8x7B-v0.1", found("mistralai/Mixtral-8x7B-Instruct-v0.1"));
        assertEquals("openai/gpt-oss-120b", found("openai/gpt-oss-120b"));
    }

    /** The models of the published performance tables added for issue 35, as each format spells them (docs/catalog.md). */
    @Test
    void thePublishedTablesModelsAreFoundAsEachFormatNamesThem() {
        String nh56 = "nvidia/Nemotron-H-56B-Base-8K";
        assertEquals(nh56, found("nvidia/Nemotron-H-56B-Base-8K"));
        assertEquals(nh56, found("nemotronh_56b"));                                  // Megatron-Bridge recipe
        assertEquals(nh56, found("nemotronh_56b_pretrain_config"));
        assertEquals(nh56, found("NemotronHConfig56B"));                             // NeMo 2 config class
        assertEquals(nh56, found("NemotronH56B"));                                   // Bridge NemotronHModelProvider56B
        assertEquals("nvidia/Nemotron-H-8B-Base-8K", found("NemotronHConfig8B"));
        assertEquals("nvidia/Nemotron-H-47B-Base-8K", found("nemotronh_47b"));
        assertEquals("nvidia/NVIDIA-Nemotron-Nano-9B-v2", found("nvidia/NVIDIA-Nemotron-Nano-9B-v2-Base"));
        assertEquals("nvidia/NVIDIA-Nemotron-Nano-9B-v2", found("NemotronNano9Bv2"));    // Bridge NemotronNanoModelProvider9Bv2
        assertEquals("nvidia/NVIDIA-Nemotron-Nano-12B-v2-Base", found("nemotron_nano_12b_v2"));
        assertEquals("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", found("nemotron_3_nano"));
        assertEquals("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", found("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-Base-BF16"));
        assertEquals("moonshotai/Kimi-K2-Base", found("moonshotai/Kimi-K2-Instruct"));
        assertEquals("moonshotai/Kimi-K2-Base", found("kimi_k2_pretrain_config"));
        assertEquals("moonshotai/Moonlight-16B-A3B", found("Moonlight16B"));          // Bridge MoonlightModelProvider16B
        assertEquals("zai-org/GLM-4.5", found("GLM45355B"));                          // Bridge GLM45ModelProvider355B
        assertEquals("zai-org/GLM-4.5", found("glm45_355b"));
        assertEquals("zai-org/GLM-4.5-Air", found("zai-org/GLM-4.5-Air"));
        assertEquals("zai-org/GLM-4.5-Air", found("GLM45Air106B"));
        assertEquals("xai-org/grok-1", found("grok1_314b"));
        assertEquals("deepseek-ai/DeepSeek-V3", found("deepseek-ai/DeepSeek-V3.1-Base"));
        assertEquals("meta-llama/Llama-4-Scout-17B-16E", found("Llama4Experts16Config"));  // NeMo 2's Llama 4 classes
        assertEquals("meta-llama/Llama-4-Maverick-17B-128E", found("Llama4Experts128Config"));
        assertEquals("Qwen/Qwen3-30B-A3B", found("Qwen3Config30B_A3B"));
        assertEquals("Qwen/Qwen3-235B-A22B", found("Qwen3Config235B_A22B"));
        // not in the catalog (docs/catalog.md says why): hybrid linear attention, NAS blocks of varying shape
        assertEquals("none", found("Qwen/Qwen3-Next-80B-A3B-Instruct"));
        assertEquals("none", found("nvidia/Llama-3_1-Nemotron-Ultra-253B-v1"));
    }

    /**
     * The hybrid Mamba entries against their publishers' totals, counted as Megatron-Core builds the layers (MambaMixer:
     * in_proj h × (2·d_inner + 2·G·N + heads), a depthwise conv over d_inner + 2·G·N of the kernel's width with biases,
     * dt_bias, A_log and D per head, a gated norm over d_inner, out_proj d_inner × h; attention q, k, v, o; squared-ReLU MLP
     * h × ffn × 2; MoE layers with their router and shared experts; a norm per layer; untied embeddings). The estimate does not
     * price these: the count checks the entries' figures.
     */
    @Test
    void hybridMambaEntriesCountTheParametersTheirPublishersState() {
        Map<String, double[]> published = Map.of(           // {total, active, tolerance}
                "nvidia/Nemotron-H-4B-Base-8K", new double[] {4e9, 4e9, 0.5e9},             // "4B": rounded to the billion
                "nvidia/Nemotron-H-8B-Base-8K", new double[] {8e9, 8e9, 0.5e9},             // arXiv:2504.03624: 8B
                "nvidia/Nemotron-H-47B-Base-8K", new double[] {47e9, 47e9, 0.5e9},          // 47B
                "nvidia/Nemotron-H-56B-Base-8K", new double[] {56e9, 56e9, 0.5e9},          // 56B
                "nvidia/NVIDIA-Nemotron-Nano-9B-v2", new double[] {8.89e9, 8.89e9, 0.05e9},  // model page: 8.89B
                "nvidia/NVIDIA-Nemotron-Nano-12B-v2-Base", new double[] {12.3e9, 12.3e9, 0.05e9},
                "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", new double[] {31.6e9, 3.6e9, 0.05e9}); // 31.6B total, 3.6B active with embeddings
        int seen = 0;
        for (Models.Entry e : models.entries()) {
            var hybrid = models.hybrid(e);
            assertEquals(published.containsKey(e.name()), hybrid.isPresent(), e.name() + ": hybrid exactly when the table lists it");
            if (hybrid.isEmpty()) continue;
            seen++;
            var y = hybrid.get();
            double h = e.hidden(), din = (double) y.mambaHeads() * y.mambaHeadDim(), gn = 2.0 * y.groups() * y.stateSize();
            double mamba = h * (2 * din + gn + y.mambaHeads()) + (din + gn) * (y.convKernel() + 1) + 3.0 * y.mambaHeads() + din + din * h + h;
            double q = (double) e.heads() * e.headDim(), kv = (double) e.kvHeads() * e.headDim();
            double attention = h * q + 2 * h * kv + q * h + h;
            double mlp = 2 * h * e.ffn() + h;
            double expert = 2 * h * e.moeFfn(), shared = e.sharedExperts() * expert, router = h * e.experts();
            double moe = e.experts() * expert + shared + router + h, moeActive = e.topK() * expert + shared + router + h;
            double rest = 2.0 * e.vocab() * h + h;
            double total = y.count('M') * mamba + y.count('*') * attention + y.count('-') * mlp + y.count('E') * moe + rest;
            double active = total - y.count('E') * (moe - moeActive);
            double[] want = published.get(e.name());
            assertEquals(want[0], total, want[2], e.name() + ": " + total + " parameters");
            assertEquals(want[1], active, want[2], e.name() + ": " + active + " active parameters");
        }
        assertEquals(published.size(), seen);
        assertEquals("54 Mamba-2, 10 attention and 54 MLP layers",
                models.hybrid(models.find("nemotronh_56b").orElseThrow()).orElseThrow().kinds());
        assertEquals("23 Mamba-2, 6 attention and 23 MoE layers",
                models.hybrid(models.find("nemotron_3_nano").orElseThrow()).orElseThrow().kinds());
    }

    @Test
    void namesTheCatalogDoesNotHoldOrThatTwoEntriesShareLooselyFindNothing() {
        assertEquals("none", found("facebook/opt-1.3b"));
        assertEquals("none", found("vgg16"));
        assertEquals("none", found("${MODEL}"));
        assertEquals("none", found("/checkpoints/"));
        // gpt3-1.3b and gpt3-13b are one loose key: only their exact names find them
        assertEquals("none", found("gpt313b"));
        assertEquals("gpt3-1.3b", found("gpt3_1.3b"));
        assertEquals("gpt3-13b", found("gpt3_13b"));
        // Llama 3 and Llama 3.1 are told apart by the dot's digits
        assertEquals("meta-llama/Meta-Llama-3-8B", found("Meta-Llama-3-8B"));
        assertEquals("meta-llama/Llama-3.1-8B", found("Meta-Llama-3.1-8B"));
    }

    /**
     * Each entry's parameters, counted as the plan counts them (ModelShape: Megatron's theoretical_memory_usage.py),
     * against the total its publisher states: a mistyped dimension moves the count by far more than the 3 % the
     * count's norms and biases leave.
     */
    @Test
    void denseAndUniformMoeEntriesCountTheParametersTheirPublishersState() {
        Map<String, Double> published = Map.ofEntries(
                Map.entry("meta-llama/Llama-2-7b-hf", 6.74e9),        // Llama 2 paper, Table 1 / model card 6,738,415,616
                Map.entry("meta-llama/Llama-2-70b-hf", 68.98e9),      // model card 68,976,648,192
                Map.entry("meta-llama/Meta-Llama-3-8B", 8.03e9),      // model card 8,030,261,248
                Map.entry("meta-llama/Meta-Llama-3-70B", 70.55e9),    // model card 70,553,706,496
                Map.entry("meta-llama/Llama-3.1-405B", 405.85e9),     // model card 405,853,388,800
                Map.entry("meta-llama/Llama-3.2-1B", 1.24e9),         // model card 1,235,814,400
                Map.entry("mistralai/Mistral-7B-v0.1", 7.24e9),       // model card 7,241,732,096
                Map.entry("mistralai/Mixtral-8x7B-v0.1", 46.70e9),    // Mixtral paper: 47B total
                Map.entry("Qwen/Qwen2.5-7B", 7.61e9),                 // model card: 7.61B
                Map.entry("Qwen/Qwen2.5-72B", 72.7e9),                // model card: 72.7B
                Map.entry("Qwen/Qwen3-32B", 32.8e9),                  // model card: 32.8B
                Map.entry("Qwen/Qwen3-30B-A3B", 30.5e9),              // model card: 30.5B
                Map.entry("google/gemma-2-9b", 9.24e9),               // model card 9,241,705,984
                Map.entry("openai/gpt-oss-120b", 116.8e9),            // model card: 117B (116.83B)
                Map.entry("gpt3-175b", 175.0e9),                      // Brown et al. 2020, Table 2.1
                Map.entry("tiiuae/falcon-40b", 41.8e9),               // model card 41,838,000,000 (approx.)
                Map.entry("allenai/OLMo-2-1124-7B", 7.30e9));         // model card: 7.3B
        for (Models.Entry e : models.entries()) {
            if (!published.containsKey(e.name())) continue;
            long kv = e.kvHeads() > 0 ? e.kvHeads() : e.heads();
            long headDim = e.headDim() > 0 ? e.headDim() : e.hidden() / e.heads();
            ModelShape s = new ModelShape((int) e.layers(), e.hidden(), e.heads(), kv, headDim, e.moe() ? e.moeFfn() : e.ffn(),
                    e.vocab(), 2048, e.gated(), e.tied(), (int) e.experts(), (int) e.topK(), ModelShape.Dtype.BF16);
            double want = published.get(e.name());
            assertEquals(1.0, s.parameters() / want, 0.03, e.name() + ": " + s.parameters() + " parameters against " + want);
        }
    }

    @Test
    void everyEntryIsWholeAndSourced() {
        assertTrue(models.entries().size() >= 60, "the families the issue lists");
        for (Models.Entry e : models.entries()) {
            assertFalse(e.source().isBlank(), e.name());
            long kv = e.kvHeads() > 0 ? e.kvHeads() : e.heads();
            assertEquals(0, e.heads() % kv, e.name() + ": query heads are a multiple of the KV heads");
            assertTrue(e.headDim() > 0 || e.hidden() % e.heads() == 0, e.name() + ": a head dimension or heads that divide hidden");
            assertTrue(!e.moe() || (e.topK() >= 1 && e.topK() <= e.experts() && e.moeFfn() > 0), e.name() + ": MoE top-k and expert size");
        }
    }
}
