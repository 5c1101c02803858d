package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.AdapterFormats.format;
import static dev.gpulint.testing.Foreign.jobs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Fast-LLM training configurations (our own fixtures in the shapes of ServiceNow/Fast-LLM's examples and recipes: the
 * layout with batch: and base_model.transformer, the later one with data.micro_batch_size in tokens and
 * base_model.decoder, and a continued pretraining that names its checkpoint) bound as jobs.
 */
class FastLlmAdapterTest {

    static final String TRANSFORMER = """
            training:
              train_iters: 1000
              logs:
                interval: 10
            batch:
              sequence_length: 8192
              micro_batch_size: 1
              batch_size: 64
            optimizer:
              weight_decay: 0.1
            model:
              base_model:
                transformer:
                  normalization:
                    type: rms_norm
                  num_layers: 40
                  hidden_size: 5120
                  ffn_hidden_size: 14336
                  num_attention_heads: 32
                  head_groups: 8
                  gated: true
                  activation_type: silu
                  kv_channels: 128
                vocab_size: 131072
                tie_word_embeddings: false
              multi_stage:
                zero_stage: 3
              distributed:
                tensor_parallel: 2
                pipeline_parallel: 1
                sequence_data_parallel: 2
                sequence_tensor_parallel: true
                training_dtype: bf16
            run:
              experiment_dir: runs/mistral-nemo
            """;

    @Test
    void theTransformerLayoutBindsTheGridBatchSequencePrecisionZeroAndShape() {
        Specs.Job j = jobs("mistral_nemo.yaml", TRANSFORMER).get(0);
        assertEquals("Fast-LLM", j.origin().format());
        assertEquals(2L, j.parallelism().tp().value());
        assertEquals(1L, j.parallelism().pp().value());
        assertEquals(2L, j.parallelism().cp().value(), "sequence_data_parallel splits each sequence");
        assertNull(j.parallelism().dp(), "Fast-LLM's data-parallel size is what the world leaves");
        assertEquals(true, j.parallelism().sequenceParallel().value());
        assertEquals(1L, j.batch().microBatchSize().value());
        assertEquals(64L, j.batch().globalBatchSize().value());
        assertEquals(8192L, j.model().seqLength().value());
        assertEquals("bf16", j.model().dtype().value());
        assertEquals(3L, j.optimizer().zeroStage().value());
        assertEquals(40L, j.model().layers().value());
        assertEquals(5120L, j.model().hiddenSize().value());
        assertEquals(32L, j.model().attentionHeads().value());
        assertEquals(8L, j.model().kvHeads().value());
        assertEquals(128L, j.model().headDim().value(), "Mistral NeMo's 32 × 128 ≠ 5120: kv_channels is read");
        assertEquals(14336L, j.model().ffnHiddenSize().value());
        assertEquals(131072L, j.model().vocabSize().value());
        assertEquals(true, j.model().gatedMlp().value());
        assertEquals(false, j.model().tiedEmbeddings().value());
        assertEquals(29, j.parallelism().tp().span().startLine());
        assertEquals(22, j.parallelism().tp().span().startColumn());
        assertEquals(16, j.model().layers().span().startLine());
        assertEquals(11, j.name().span().startLine(), "named at model:");
    }

    @Test
    void theDecoderLayoutReadsTokensPerMicroBatchAndTheBlocksShape() {
        Specs.Job j = jobs("qwen_7b.yaml", """
                data:
                  micro_batch_size: 8192
                  maximum_document_length: 8192
                model:
                  base_model:
                    tied_embedding_weight: false
                    hidden_size: 3584
                    embeddings:
                      vocab_size: 152064
                    decoder:
                      num_blocks: 28
                      block:
                        mixer:
                          heads: 28
                          head_groups: 4
                          head_size: 128
                        mlp:
                          intermediate_size: 18944
                          gated: true
                          activation: silu
                  multi_stage:
                    zero_stage: 2
                  distributed:
                    compute_dtype: bf16
                """).get(0);
        assertEquals(8192L, j.model().seqLength().value(), "8192 tokens per micro batch, packed");
        assertEquals(1L, j.batch().microBatchSize().value());
        assertEquals(28L, j.model().layers().value());
        assertEquals(3584L, j.model().hiddenSize().value());
        assertEquals(28L, j.model().attentionHeads().value());
        assertEquals(4L, j.model().kvHeads().value());
        assertEquals(18944L, j.model().ffnHiddenSize().value());
        assertEquals(152064L, j.model().vocabSize().value());
        assertEquals("bf16", j.model().dtype().value());
        assertEquals(2L, j.optimizer().zeroStage().value());
        assertNull(j.parallelism(), "no distributed sizes written: tp 1, pp 1, the rest data-parallel");
    }

    @Test
    void aContinuedPretrainingNamesItsCheckpointForTheModelShape() {
        Specs.Job j = jobs("cpt.yaml", """
                batch:
                  micro_batch_size: 2
                  sequence_length: 4096
                  batch_size: 256
                pretrained:
                  format: llama
                  path: meta-llama/Llama-3.1-8B
                  model_weights: yes
                model:
                  multi_stage:
                    zero_stage: 2
                  distributed:
                    training_dtype: bf16
                """).get(0);
        assertEquals(32L, j.model().layers().value(), "Llama 3.1 8B from the model catalog");
        assertEquals(4096L, j.model().hiddenSize().value());
        boolean named = j.origin().stated().stream().anyMatch(s -> s.quantity().equals(ModelNames.SHAPE) && s.where().startsWith("pretrained.path"));
        assertTrue(named, "the plan says pretrained.path gave the shape: " + j.origin().stated());
        assertEquals(7, j.model().layers().span().startLine(), "placed at pretrained.path");
    }

    @Test
    void fastLlmConfigsAreRecognisedAndOtherModelMappingsAreNot() {
        assertEquals("Fast-LLM", format("mistral_nemo.yaml", TRANSFORMER));
        assertEquals("Fast-LLM", format("d.yaml", "model:\n  distributed:\n    tensor_parallel: 2\n"));
        assertEquals("none", format("hf.yaml", "model:\n  distributed: {backend: nccl}\n  name: bert\n"));
        assertEquals("none", format("mlflow.yaml", "model:\n  base_model: {name: resnet50}\n"));
    }
}
