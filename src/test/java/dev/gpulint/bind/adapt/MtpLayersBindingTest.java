package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.Recipes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Multi-token prediction read from every format that states it (Specs.Mtp): Megatron's --mtp-num-layers, a layout's m letters,
 * a hybrid pattern's '/' groups, Megatron-Bridge's and NeMo 2's mtp_num_layers, and a config.json's num_nextn_predict_layers
 * for a Megatron-Bridge job only. Our own fixtures, in the shapes of Megatron-LM's functional-test MODEL_ARGS, a
 * Megatron-Bridge ConfigContainer dump, a NeMo 2 recipe and DeepSeek-V3's config.json.
 */
class MtpLayersBindingTest {

    private static final String MODEL_ARGS = """
            MODEL_ARGS:
              --tensor-model-parallel-size: 1
              --pipeline-model-parallel-size: 2
              --micro-batch-size: 1
              --global-batch-size: 64
              --num-layers: 8
              --hidden-size: 1024
              --ffn-hidden-size: 4096
              --num-attention-heads: 16
              --seq-length: 4096
              --bf16: true
            """;

    private static Long layers(Specs.Job j) {
        Specs.Mtp m = j.model().mtp();
        return m == null ? null : m.layers().value();
    }

    @Test
    void megatronsFlagIsTheMtpLayers() {
        Specs.Job j = Foreign.bind("model_config.yaml", MODEL_ARGS + "  --mtp-num-layers: 1\n  --mtp-loss-scaling-factor: 0.1\n");
        assertEquals(1L, layers(j));
        assertNull(j.model().mtp().blocks(), "one transformer layer each");
        assertEquals(12, j.model().mtp().layers().span().startLine());
        assertNull(Foreign.bind("model_config.yaml", MODEL_ARGS).model().mtp(), "not written: none (Megatron's default)");
    }

    private static final String SCRIPT = """
            #!/bin/bash
            #SBATCH --nodes=1
            torchrun --nproc_per_node 8 pretrain_gpt.py \\
                --num-layers 8 --hidden-size 1024 --num-attention-heads 16 --seq-length 4096 \\
                --micro-batch-size 1 --global-batch-size 64 --mtp-num-layers %s --bf16
            """;

    @Test
    void aLaunchScriptsCountAndAPlaceholderOne() {
        Specs.Job known = Foreign.bind("train.sh", SCRIPT.formatted("1"));
        assertEquals(1L, layers(known));
        assertEquals(5, known.model().mtp().layers().span().startLine());
        Specs.Job j = Foreign.bind("train.sh", SCRIPT.formatted("$MTP_LAYERS"));
        assertNull(j.model().mtp());
        assertTrue(j.model().isUnknown("model.mtp_layers"), j.model().unknown().toString());
    }

    @Test
    void aLayoutsMLettersAreItsMtpLayers() {
        Specs.Job j = Foreign.bind("model_config.yaml", MODEL_ARGS + "  --pipeline-model-parallel-layout: \"Et*4|t*4mL\"\n");
        assertEquals(1L, layers(j), "the layout's one m");
        assertEquals(List.of(4L, 5L), j.parallelism().stageLayers().value(), "the m is a block of the last stage");
        // a flag written beside the layout is what the job states
        Specs.Job both = Foreign.bind("model_config.yaml", MODEL_ARGS + "  --mtp-num-layers: 1\n  --pipeline-model-parallel-layout: \"Et*4|t*4mL\"\n");
        assertEquals(12, both.model().mtp().layers().span().startLine());
        assertNull(Foreign.bind("model_config.yaml", MODEL_ARGS + "  --pipeline-model-parallel-layout: \"Et*4|t*4L\"\n").model().mtp());
    }

    @Test
    void aHybridPatternsSlashGroupsAreTheBlocksOfEachMtpLayer() {
        String hybrid = MODEL_ARGS.replace("  --bf16: true\n", "  --bf16: true\n  --is-hybrid-model: true\n  --hybrid-layer-pattern: \"M-M*M-M-/*-/*-\"\n");
        Specs.Job j = Foreign.bind("model_config.yaml", hybrid + "  --mtp-num-layers: 2\n");
        assertEquals("M-M*M-M-", j.model().hybrid().pattern().value());
        assertEquals(2L, layers(j));
        assertEquals(2L, j.model().mtp().blocks().value(), "'*-': an attention and an MLP block per MTP layer");
        // without the flag, the groups count the MTP layers
        assertEquals(2L, layers(Foreign.bind("model_config.yaml", hybrid)));
        assertNull(Foreign.bind("model_config.yaml", hybrid.replace("/*-/*-", "")).model().mtp());
    }

    private static final String BRIDGE = """
            _target_: megatron.bridge.training.config.ConfigContainer
            model:
              _target_: megatron.bridge.models.deepseek.deepseek_provider.DeepSeekV3ModelProvider
              num_layers: 61
              hidden_size: 7168
              num_attention_heads: 128
              pipeline_model_parallel_size: 16
              expert_model_parallel_size: 8
              mtp_num_layers: 1
              mtp_loss_scaling_factor: 0.1
            train:
              global_batch_size: 4096
              micro_batch_size: 1
            """;

    @Test
    void bridgesAndNemo2sMtpNumLayers() {
        Specs.Job j = Foreign.bind("run_config.yaml", BRIDGE);
        assertEquals("Megatron-Bridge", j.origin().format());
        assertEquals(1L, layers(j));
        assertEquals(9, j.model().mtp().layers().span().startLine());
        assertNull(Foreign.bind("run_config.yaml", BRIDGE.replace("mtp_num_layers: 1", "mtp_num_layers: null")).model().mtp(),
                "None: no MTP");
        Specs.Job nemo = Foreign.bind("pretrain.yaml", Recipes.nemo2(128, 1, 4096)
                .model("llama.LlamaModel", "llama.Llama3Config8B", "num_layers: 32", "mtp_num_layers: 2").yaml());
        assertEquals(2L, layers(nemo));
    }

    private static List<Specs.Job> jobs(SourceFile... files) {
        List<Adapters.Input> in = new ArrayList<>();
        for (SourceFile f : files) in.add(new Adapters.Input(f, Readers.read(f).foreign()));
        return Adapters.bind(in).jobs();
    }

    private static final String DSV3_CONFIG = """
            {"architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3", "hidden_size": 1024, "num_hidden_layers": 6,
             "num_attention_heads": 16, "num_key_value_heads": 16, "n_routed_experts": 16, "num_experts_per_tok": 4,
             "moe_intermediate_size": 256, "intermediate_size": 2048, "first_k_dense_replace": 1, "vocab_size": 32000,
             "kv_lora_rank": 128, "q_lora_rank": 256, "qk_nope_head_dim": 64, "qk_rope_head_dim": 32, "v_head_dim": 64,
             "num_nextn_predict_layers": 1}
            """;

    @Test
    void aConfigsNextnLayersAreTrainedByABridgeJobOnly() {
        // Megatron-Bridge's AutoBridge maps num_nextn_predict_layers to mtp_num_layers (model_bridge.py, CONFIG_MAPPING)
        SourceFile override = SourceFile.of("train/dsv3_override.yaml", """
                model:
                  pipeline_model_parallel_size: 2
                  expert_model_parallel_size: 8
                train:
                  global_batch_size: 256
                  micro_batch_size: 1
                tokenizer:
                  tokenizer_type: HuggingFaceTokenizer
                  tokenizer_model: ./ckpt/dsv3
                """);
        SourceFile config = SourceFile.of("train/ckpt/dsv3/config.json", DSV3_CONFIG);
        Specs.Job bridge = jobs(override, config).get(0);
        assertEquals(6L, bridge.model().layers().value(), "the config's shape");
        assertEquals(1L, layers(bridge));
        // an accelerate launch of the same weights runs no MTP module: transformers' DeepseekV3ForCausalLM builds none
        SourceFile run = SourceFile.of("train/sft.sh", "accelerate launch --num_processes 8 sft.py --model_name_or_path ./ckpt/dsv3\n");
        Specs.Job hf = jobs(run, config).get(0);
        assertEquals(6L, hf.model().layers().value());
        assertNull(hf.model().mtp());
    }
}
