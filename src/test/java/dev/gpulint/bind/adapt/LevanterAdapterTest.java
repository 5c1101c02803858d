package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.AdapterFormats.format;
import static dev.gpulint.testing.Foreign.jobs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.spec.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Levanter training configurations (our own fixtures in the shapes of stanford-crfm/levanter's config/*.yaml: a Llama
 * with a model axis, a GPT-2 whose per-device batch is left to Levanter, a continued pretraining from a Hugging Face
 * checkpoint) bound as jobs.
 */
class LevanterAdapterTest {

    static final String LLAMA = """
            data:
              id: dlwh/wikitext_103_detokenized
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
              tracker:
                type: wandb
                project: levanter
              mp: p=f32,c=bfloat16
              model_axis_size: 2
              fsdp_axis: embed
              per_device_parallelism: 4
              train_batch_size: 256
              num_train_steps: 10000
            optimizer:
              learning_rate: 3E-4
            """;

    @Test
    void aLlamaConfigBindsTheModelAxisBatchComputeDtypeFsdpAndShape() {
        Specs.Job j = jobs("llama2_7b.yaml", LLAMA).get(0);
        assertEquals("Levanter", j.origin().format());
        assertEquals(2L, j.parallelism().tp().value());
        assertNull(j.parallelism().dp(), "the data axis is the rest of the devices");
        assertEquals(4L, j.batch().microBatchSize().value());
        assertEquals(256L, j.batch().globalBatchSize().value());
        assertEquals("bfloat16", j.model().dtype().value(), "the policy's compute dtype");
        assertEquals(3L, j.optimizer().zeroStage().value(), "parameters, gradients and states sharded over the data axis");
        assertEquals("full", j.recompute().granularity().value());
        assertEquals(4096L, j.model().seqLength().value());
        assertEquals(32L, j.model().layers().value());
        assertEquals(4096L, j.model().hiddenSize().value());
        assertEquals(32L, j.model().attentionHeads().value());
        assertEquals(32L, j.model().kvHeads().value());
        assertEquals(11008L, j.model().ffnHiddenSize().value());
        assertEquals(true, j.model().gatedMlp().value());
        assertEquals(false, j.model().tiedEmbeddings().value(), "Levanter's LlamaConfig unties by default");
        assertEquals(17, j.parallelism().tp().span().startLine());
        assertEquals(20, j.parallelism().tp().span().startColumn());
        assertEquals(18, j.optimizer().zeroStage().span().startLine(), "placed at fsdp_axis");
        assertEquals(12, j.name().span().startLine(), "named at trainer:");
    }

    @Test
    void perDeviceParallelismMinusOneIsLevantersChoiceAndAGpt2IsNotGated() {
        Specs.Job j = jobs("gpt2_small.yaml", """
                model:
                  type: gpt2
                  hidden_dim: 768
                  num_heads: 12
                  num_layers: 12
                  seq_len: 1024
                  gradient_checkpointing: false
                trainer:
                  mp: p=f32,c=f16
                  train_batch_size: 512
                  per_device_parallelism: -1
                """).get(0);
        assertNull(j.batch().microBatchSize(), "-1: the global batch over the data axis, which the file does not size");
        assertEquals(512L, j.batch().globalBatchSize().value());
        assertEquals("float16", j.model().dtype().value(), "jmp's f16");
        assertEquals(false, j.model().gatedMlp().value());
        assertEquals(true, j.model().tiedEmbeddings().value(), "GPT-2 ties its embeddings");
        assertEquals("none", j.recompute().granularity().value());
        assertNull(j.parallelism(), "no model axis written: tp 1, all data-parallel");
        assertEquals(3L, j.optimizer().zeroStage().value(), "Levanter's default FSDP");
    }

    @Test
    void initializeFromHfNamesTheModel() {
        Specs.Job j = jobs("cpt.yaml", """
                model:
                  type: llama
                initialize_from_hf: meta-llama/Llama-3.1-8B
                use_hf_model_config: true
                trainer:
                  mp: p=f32,c=bfloat16
                  model_axis_size: 1
                  train_batch_size: 128
                """).get(0);
        assertEquals(32L, j.model().layers().value(), "Llama 3.1 8B from the model catalog");
        assertEquals(3, j.model().layers().span().startLine(), "placed at initialize_from_hf");
    }

    @Test
    void levanterConfigsAreRecognisedAndOtherTrainerYamlIsNot() {
        assertEquals("Levanter", format("llama2_7b.yaml", LLAMA));
        assertEquals("none", format("lightning.yaml", "trainer:\n  max_epochs: 3\n  precision: bf16-mixed\nmodel:\n  type: resnet\n"));
        assertEquals("none", format("no_model_type.yaml", "trainer:\n  mp: p=f32,c=bf16\nmodel:\n  hidden_dim: 64\n"));
        assertEquals("NeMo", format("nemo.yaml", "trainer: {num_nodes: 1, devices: 8}\nmodel: {micro_batch_size: 1, tensor_model_parallel_size: 2}\n"));
    }

    @Test
    void theJmpPolicysComputeDtype() {
        assertEquals("bfloat16", LevanterAdapter.computeDtype("p=f32,c=bfloat16"));
        assertEquals("bf16", LevanterAdapter.computeDtype("p=f32, c=bf16"));
        assertEquals("float32", LevanterAdapter.computeDtype("f32"));
        assertNull(LevanterAdapter.computeDtype("p=f32,o=f32"), "no compute dtype written");
        assertNull(LevanterAdapter.computeDtype("p=f32,c="), "c= without a name is no dtype");
        assertNull(LevanterAdapter.computeDtype("p=f32, c= "), "c= without a name is no dtype");
    }
}
