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
 * nanotron training configurations (our own fixtures in the shapes of huggingface/nanotron's examples/config_*.yaml: the
 * sections in alphabetical order as nanotron's config writer leaves them, a Llama model_config, a Qwen2 MoE whose
 * moe_config is written twice) bound as jobs.
 */
class NanotronAdapterTest {

    private static String stated(Specs.Job j, String quantity) {
        for (Specs.Stated s : j.origin().stated()) if (s.quantity().equals(quantity)) return s.value() + " | " + s.where();
        return null;
    }

    static final String LLAMA = """
            checkpoints:
              checkpoint_interval: 500
              checkpoints_path: checkpoints/llama-1b
            general:
              project: pretrain
              run: llama_1b_%date_%jobid
              seed: 7
            model:
              ddp_bucket_cap_mb: 25
              dtype: bfloat16
              init_method:
                std: 0.02
              model_config:
                bos_token_id: 1
                eos_token_id: 2
                hidden_act: silu
                hidden_size: 2048
                intermediate_size: 8192
                is_llama_config: true
                max_position_embeddings: 8192
                num_attention_heads: 32
                num_hidden_layers: 16
                num_key_value_heads: 8
                rms_norm_eps: 1.0e-05
                tie_word_embeddings: true
                vocab_size: 128256
            optimizer:
              accumulate_grad_in_fp32: true
              clip_grad: 1.0
              zero_stage: 1
            parallelism:
              context_parallel_size: 1
              dp: 8
              expert_parallel_size: 1
              pp: 2
              pp_engine: 1f1b
              recompute_layer: true
              tp: 4
              tp_linear_async_communication: true
              tp_mode: REDUCE_SCATTER
            tokenizer:
              tokenizer_name_or_path: meta-llama/Llama-3.2-1B
            tokens:
              batch_accumulation_per_replica: 16
              micro_batch_size: 2
              sequence_length: 4096
              train_steps: 20000
            """;

    @Test
    void aLlamaConfigBindsTheGridBatchSequencePrecisionZeroRecomputeAndTheModelConfigsShape() {
        Specs.Job j = jobs("config_llama_1b.yaml", LLAMA).get(0);
        assertEquals("nanotron", j.origin().format());
        assertEquals(8L, j.parallelism().dp().value());
        assertEquals(4L, j.parallelism().tp().value());
        assertEquals(2L, j.parallelism().pp().value());
        assertEquals(1L, j.parallelism().cp().value());
        assertEquals(1L, j.parallelism().ep().value());
        assertEquals(true, j.parallelism().sequenceParallel().value(), "tp_mode REDUCE_SCATTER is sequence parallelism");
        assertEquals(2L, j.batch().microBatchSize().value());
        assertEquals(256L, j.batch().globalBatchSize().value(), "2 × 16 accumulation × dp 8");
        assertEquals(4096L, j.model().seqLength().value());
        assertEquals("bfloat16", j.model().dtype().value());
        assertEquals(1L, j.optimizer().zeroStage().value());
        assertEquals("full", j.recompute().granularity().value());
        assertEquals(16L, j.model().layers().value());
        assertEquals(2048L, j.model().hiddenSize().value());
        assertEquals(32L, j.model().attentionHeads().value());
        assertEquals(8L, j.model().kvHeads().value());
        assertEquals(8192L, j.model().ffnHiddenSize().value());
        assertEquals(128256L, j.model().vocabSize().value());
        assertEquals(true, j.model().gatedMlp().value());
        assertEquals(true, j.model().tiedEmbeddings().value());
        assertNull(j.nodes(), "the file states no GPU count: the launch does");
        assertEquals("64 | parallelism.tp × context_parallel_size × dp × pp", stated(j, "world"));
        assertNull(stated(j, ModelNames.SHAPE), "the shape is written: the tokenizer's name is not looked up");
        // spans: each value where it is written
        assertEquals(33, j.parallelism().dp().span().startLine());
        assertEquals(7, j.parallelism().dp().span().startColumn());
        assertEquals(38, j.parallelism().tp().span().startLine());
        assertEquals(40, j.parallelism().sequenceParallel().span().startLine());
        assertEquals(44, j.batch().globalBatchSize().span().startLine(), "the global batch is placed at batch_accumulation_per_replica");
        assertEquals(22, j.model().layers().span().startLine());
        assertEquals(31, j.name().span().startLine(), "the job is named at parallelism:");
    }

    @Test
    void aRepeatedMoeConfigIsReadAsPyYamlReadsIt_theLastOneWins_andAllReduceWithoutRecomputeIsNoSequenceParallelism() {
        Specs.Job j = jobs("config_qwen_moe.yaml", """
                model:
                  dtype: bfloat16
                  model_config:
                    hidden_act: silu
                    hidden_size: 1024
                    intermediate_size: 2816
                    is_qwen2_config: true
                    moe_config: null
                    num_attention_heads: 16
                    num_hidden_layers: 24
                    num_key_value_heads: 4
                    tie_word_embeddings: false
                    vocab_size: 151936
                    moe_config:
                      num_experts: 16
                      top_k: 2
                      moe_intermediate_size: 704
                optimizer:
                  zero_stage: 0
                parallelism:
                  dp: 2
                  expert_parallel_size: 2
                  pp: 1
                  recompute_layer: false
                  tp: 2
                  tp_mode: ALL_REDUCE
                tokens:
                  micro_batch_size: 4
                  sequence_length: 2048
                """).get(0);
        assertEquals(16L, j.model().experts().value());
        assertEquals(2L, j.model().topK().value());
        assertEquals(704L, j.model().moe().expertFfn().value());
        assertEquals(2L, j.parallelism().ep().value());
        assertNull(j.parallelism().sequenceParallel(), "ALL_REDUCE: no sequence parallelism");
        assertEquals("none", j.recompute().granularity().value());
        assertEquals(false, j.model().tiedEmbeddings().value());
        assertEquals(0L, j.optimizer().zeroStage().value());
        assertNull(j.batch().globalBatchSize(), "no batch_accumulation_per_replica: the global batch is not known");
        assertEquals("4 | parallelism.tp × context_parallel_size × dp × pp", stated(j, "world"), "ep folds over the ranks: not a factor");
    }

    @Test
    void reduceScatterWithTpOneIsNoSequenceParallelismAndAPlaceholderSizeIsUnknown() {
        Specs.Job j = jobs("config_tiny.yaml", """
                parallelism:
                  dp: ${DP}
                  pp: 1
                  tp: 1
                  tp_mode: REDUCE_SCATTER
                tokens:
                  micro_batch_size: 3
                  sequence_length: 256
                """).get(0);
        assertNull(j.parallelism().sequenceParallel(), "nanotron's own tp 1 examples write REDUCE_SCATTER: a no-op there");
        assertNull(j.parallelism().dp());
        assertTrue(j.parallelism().unknown().contains("dp"));
        assertNull(stated(j, "world"), "dp unknown: no rank count");
    }

    @Test
    void aMambaModelConfigTakesNoShapeFromTheTokenizersName() {
        Specs.Job j = jobs("config_mamba.yaml", """
                model:
                  dtype: bfloat16
                  model_config:
                    d_model: 1024
                    num_hidden_layers: 48
                    is_mamba_config: true
                    ssm_cfg: {d_state: 16, d_conv: 4, expand: 2}
                    vocab_size: 50277
                parallelism:
                  dp: 2
                  pp: 1
                  tp: 1
                tokenizer:
                  tokenizer_name_or_path: meta-llama/Llama-3.2-1B
                tokens:
                  micro_batch_size: 8
                  sequence_length: 2048
                """).get(0);
        assertNull(j.model().layers(), "no transformer shape: not the tokenizer's Llama 3.2 1B");
        assertNull(stated(j, ModelNames.SHAPE));
        assertEquals(2048L, j.model().seqLength().value());
    }

    @Test
    void nanotronConfigsAreRecognisedAndOtherYamlWithAParallelismMappingIsNot() {
        assertEquals("nanotron", format("config_llama_1b.yaml", LLAMA));
        assertEquals("nanotron", format("m.yaml", "parallelism: {dp: 2, tp: 1, pp: 1}\nmodel:\n  model_config: {hidden_size: 64}\n"));
        // a parallelism block without nanotron's tokens or model_config: another program's
        assertEquals("none", format("other.yaml", "parallelism:\n  tp: 2\n  dp: 4\ntrainer:\n  epochs: 3\n"));
        // a NeMo config keeps its format
        assertEquals("NeMo", format("nemo.yaml", "trainer: {num_nodes: 1, devices: 8}\nmodel: {micro_batch_size: 1, tensor_model_parallel_size: 2}\n"));
        // torchtitan's degree names under parallelism are torchtitan's, never nanotron's
        assertEquals("torchtitan", format("tt.yaml", "parallelism:\n  tensor_parallel_degree: 2\ntokens: {}\n"));
    }
}
