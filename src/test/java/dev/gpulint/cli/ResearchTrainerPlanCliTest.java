package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `gpulint plan` on the configurations of the research trainers (nanotron, Fast-LLM, Levanter), our own fixtures of their
 * shapes: the plan takes the grid, batch and model shape from the configuration and the GPU count from the launch that
 * passes it.
 */
class ResearchTrainerPlanCliTest {
    /** A nanotron config (dp 4 × tp 4 × pp 1) passed by a torchrun launch on 2 nodes × 8: planned on those 16 GPUs. */
    @Test
    @SuppressWarnings("unchecked")
    void aNanotronConfigIsPlannedWithTheGpuCountOfTheLaunchThatPassesIt(@TempDir Path dir) {
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("launch.sh", """
                #!/bin/bash
                export CUDA_DEVICE_MAX_CONNECTIONS=1
                torchrun --nnodes 2 --nproc_per_node 8 --rdzv_backend c10d run_train.py --config-file config_llama_8b.yaml
                """).file("config_llama_8b.yaml", """
                model:
                  dtype: bfloat16
                  model_config:
                    hidden_act: silu
                    hidden_size: 4096
                    intermediate_size: 14336
                    is_llama_config: true
                    num_attention_heads: 32
                    num_hidden_layers: 32
                    num_key_value_heads: 8
                    tie_word_embeddings: false
                    vocab_size: 128256
                optimizer:
                  zero_stage: 1
                parallelism:
                  dp: 4
                  pp: 1
                  tp: 4
                  tp_mode: REDUCE_SCATTER
                  recompute_layer: false
                tokens:
                  batch_accumulation_per_replica: 8
                  micro_batch_size: 1
                  sequence_length: 8192
                """).jobClusters("lab", "*.yaml", "*.sh").planJson();
        Map<String, Object> doc = r.json();
        assertEquals(16, doc.get("gpus"), "2 nodes × 8 from the launch");
        Map<String, Object> current = (Map<String, Object>) doc.get("current");
        Map<String, Object> layout = (Map<String, Object>) current.get("layout");
        assertEquals(4, layout.get("tp"));
        assertEquals(4, layout.get("dp"));
        assertEquals(1, layout.get("pp"));
        Map<String, Object> stage = (Map<String, Object>) ((List<Object>) ((Map<String, Object>) current.get("memory")).get("stages")).get(0);
        // Llama 3 8B's shape as written: 32 × (2·4096² + 2·4096·1024 + 3·4096·14336) + 2 × 128256·4096 (untied) ≈ 8.03 B,
        // a quarter of it on each GPU of a tp 4 group
        assertEquals(8.03e9 / 4, ((Number) stage.get("parameters")).doubleValue(), 0.01e9, r.out());
        assertEquals(List.of(), current.get("findings"), "the grid fills the 16 ranks");
        List<String> as = (List<String>) doc.get("assumptions");
        assertTrue(as.stream().noneMatch(a -> a.contains("state no GPU count")), "the launch states the GPU count: " + as);
    }

    /** A Fast-LLM config (tensor_parallel 2, the rest data-parallel) passed by `fast-llm train gpt --config` under torchrun. */
    @Test
    @SuppressWarnings("unchecked")
    void aFastLlmConfigIsPlannedWithTheGpuCountOfTheLaunchAndDpIsWhatTpLeaves(@TempDir Path dir) {
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("launch.sh", """
                #!/bin/bash
                torchrun --nnodes 2 --nproc_per_node 8 --no_python fast-llm train gpt --config examples/mistral.yaml
                """).file("examples/mistral.yaml", """
                batch:
                  sequence_length: 4096
                  micro_batch_size: 2
                  batch_size: 64
                model:
                  base_model:
                    transformer:
                      num_layers: 32
                      hidden_size: 4096
                      ffn_hidden_size: 14336
                      num_attention_heads: 32
                      head_groups: 8
                      gated: true
                      activation_type: silu
                      kv_channels: 128
                    vocab_size: 32000
                    tie_word_embeddings: false
                  multi_stage:
                    zero_stage: 2
                  distributed:
                    tensor_parallel: 2
                    training_dtype: bf16
                """).jobClusters("lab", "**").planJson();
        Map<String, Object> doc = r.json();
        assertEquals(16, doc.get("gpus"), r.out());
        Map<String, Object> current = (Map<String, Object>) doc.get("current");
        Map<String, Object> layout = (Map<String, Object>) current.get("layout");
        assertEquals(2, layout.get("tp"));
        assertEquals(8, layout.get("dp"), "Fast-LLM's data-parallel size: 16 ÷ tp 2");
        Map<String, Object> stage = (Map<String, Object>) ((List<Object>) ((Map<String, Object>) current.get("memory")).get("stages")).get(0);
        // Mistral 7B as written: 32 × (2·4096² + 2·4096·1024 + 3·4096·14336) + 2 × 32000·4096 ≈ 7.24 B, half on each GPU of tp 2
        assertEquals(7.24e9 / 2, ((Number) stage.get("parameters")).doubleValue(), 0.01e9, r.out());
        assertEquals(List.of(), current.get("findings"), r.out());
    }

    /** A nanotron config linted without its launch: its dp × tp × pp is the size it was written for. */
    @Test
    @SuppressWarnings("unchecked")
    void aNanotronConfigAloneIsPlannedAndSaysWhatItAssumed(@TempDir Path dir) {
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("config_tiny.yaml", """
                model:
                  dtype: bfloat16
                  model_config:
                    hidden_size: 2048
                    intermediate_size: 8192
                    is_llama_config: true
                    num_attention_heads: 16
                    num_hidden_layers: 24
                    num_key_value_heads: 4
                    vocab_size: 50304
                parallelism:
                  dp: 4
                  pp: 1
                  tp: 2
                tokens:
                  batch_accumulation_per_replica: 2
                  micro_batch_size: 4
                  sequence_length: 2048
                """).jobClusters("lab", "*.yaml").planJson();
        Map<String, Object> doc = r.json();
        Map<String, Object> layout = (Map<String, Object>) ((Map<String, Object>) doc.get("current")).get("layout");
        assertEquals(2, layout.get("tp"), r.out());
        assertEquals(4, layout.get("dp"), r.out());
        assertEquals(8, doc.get("gpus"), "dp 4 × tp 2 × pp 1 as written: " + r.out());
    }

    /** A Levanter config on GPUs: the Slurm script's 16 GPUs, the model axis 2, FSDP (ZeRO-3) over the data axis of 8. */
    @Test
    @SuppressWarnings("unchecked")
    void aLevanterConfigOnGpusIsPlannedAsFsdpOverTheDataAxisAndSaysTheVocabularyIsAssumed(@TempDir Path dir) {
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("train.sbatch", """
                #!/bin/bash
                #SBATCH --nodes=2
                #SBATCH --ntasks-per-node=8
                #SBATCH --gres=gpu:8
                srun python -m levanter.main.train_lm --config_path llama_7b.yaml
                """).file("llama_7b.yaml", """
                model:
                  type: llama
                  seq_len: 4096
                  hidden_dim: 4096
                  intermediate_dim: 11008
                  num_layers: 32
                  num_heads: 32
                  num_kv_heads: 32
                  gradient_checkpointing: true
                trainer:
                  mp: p=f32,c=bfloat16
                  model_axis_size: 2
                  per_device_parallelism: 4
                  train_batch_size: 256
                """).jobClusters("lab", "*").planJson();
        Map<String, Object> doc = r.json();
        assertEquals(16, doc.get("gpus"), r.out());
        Map<String, Object> current = (Map<String, Object>) doc.get("current");
        Map<String, Object> layout = (Map<String, Object>) current.get("layout");
        assertEquals(2, layout.get("tp"), r.out());
        assertEquals(8, layout.get("dp"), r.out());
        List<String> as = (List<String>) doc.get("assumptions");
        assertTrue(as.stream().anyMatch(a -> a.contains("vocab")), "the vocabulary is the plan's default, and it says so: " + as);
        assertEquals(List.of(), current.get("findings"), r.out());
    }
}
