package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import org.junit.jupiter.api.Test;

/**
 * What `gpulint plan` reads from torchtitan TOML and gpt-neox configurations (our own fixtures in the shapes of the
 * corpora's files: torchtitan's llama3 presets, gpt-neox's 20B and tune configurations).
 */
class PlanInputsTest {

    @Test
    void torchtitanPrecisionActivationCheckpointFsdpAndSequenceParallel() {
        Specs.Job j = Foreign.bind("llama3_70b.toml", """
                [model]
                name = "llama3"
                flavor = "70B"

                [training]
                local_batch_size = 8
                seq_len = 8192
                mixed_precision_param = "bfloat16"

                [parallelism]
                data_parallel_replicate_degree = 1
                data_parallel_shard_degree = -1
                tensor_parallel_degree = 8

                [activation_checkpoint]
                mode = "full"
                """);
        assertEquals("bfloat16", j.model().dtype().value());
        assertEquals("full", j.recompute().granularity().value());
        assertEquals(3L, j.optimizer().zeroStage().value(), "fully_shard over the shard dimension: ZeRO-3");
        assertEquals(true, j.parallelism().sequenceParallel().value(), "torchtitan's TP plan shards norms along the sequence");
        assertEquals(80L, j.model().layers().value(), "the flavor names the model catalog's Llama 3 70B");
        assertEquals(8192L, j.model().seqLength().value());
    }

    @Test
    void torchtitanWithoutShardingIsPlainDataParallelAndDimsAreReadWhereWritten() {
        Specs.Job j = Foreign.bind("debug.toml", """
                [model]
                name = "llama3"
                dim = 4096
                n_layers = 32
                n_heads = 32
                n_kv_heads = 8
                vocab_size = 128256

                [training]
                local_batch_size = 1
                seq_len = 8192

                [parallelism]
                data_parallel_replicate_degree = 8
                data_parallel_shard_degree = 1

                [activation_checkpoint]
                mode = "selective"
                """);
        assertEquals("every", j.recompute().granularity().value());
        assertEquals(2, j.recompute().every(), "torchtitan's selective with its default selective_ac_option \"2\"");
        assertNull(j.optimizer(), "replicate only: DDP, no ZeRO stage");
        assertEquals(32L, j.model().layers().value());
        assertEquals(4096L, j.model().hiddenSize().value());
        assertEquals(8L, j.model().kvHeads().value());
        assertEquals(128256L, j.model().vocabSize().value());
    }

    @Test
    void gptNeoxPrecisionCheckpointingTyingAndMlp() {
        Specs.Job j = Foreign.bind("20B.yml", """
                {
                  "pipe_parallel_size": 4,
                  "model_parallel_size": 2,
                  "num_layers": 44,
                  "hidden_size": 6144,
                  "num_attention_heads": 64,
                  "seq_length": 2048,
                  "no_weight_tying": true,
                  "zero_optimization": { "stage": 1 },
                  "train_micro_batch_size_per_gpu": 4,
                  "checkpoint_activations": true,
                  "fp16": { "fp16": true, "enabled": true },
                }
                """);
        assertEquals("fp16", j.model().dtype().value());
        assertEquals("full", j.recompute().granularity().value());
        assertFalse(j.model().tiedEmbeddings().value());
        assertEquals(1L, j.optimizer().zeroStage().value());

        Specs.Job k = Foreign.bind("tune.yml", """
                {
                  "pipe-parallel-size": 1,
                  "model-parallel-size": 1,
                  "num-layers": 32,
                  "hidden-size": 4096,
                  "num-attention-heads": 32,
                  "num-kv-heads": 8,
                  "intermediate-size": 14336,
                  "activation": "swiglu",
                  "precision": "bfloat16",
                  "checkpoint-activations": false,
                }
                """);
        assertEquals("bfloat16", k.model().dtype().value());
        assertEquals("none", k.recompute().granularity().value());
        assertEquals(8L, k.model().kvHeads().value());
        assertEquals(14336L, k.model().ffnHiddenSize().value());
        assertEquals(true, k.model().gatedMlp().value());
    }
}
