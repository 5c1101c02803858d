package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.Model;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * llm-foundry training YAMLs, alone and inside an mcli run (our own fixtures under src/test/resources/foundry, in the shapes
 * of llm-foundry's scripts/train/yamls/pretrain and mcli files): the model, batch, precision and composer's fsdp_config
 * read into the job, composer's defaults said where a key is absent, and the values composer refuses reported at the value.
 */
class FoundryAdapterTest {

    static String resource(String name) {
        try (InputStream in = FoundryAdapterTest.class.getResourceAsStream("/foundry/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String at(dev.gpulint.spec.Located<?> v) {
        return v.span().startLine() + ":" + v.span().startColumn() + " " + v.value();
    }

    @Test
    void anMptPretrainingYamlBindsItsShapeBatchPrecisionAndFsdp() {
        Specs.Job j = Foreign.bind("mpt-7b-pretrain.yaml", resource("mpt-7b-pretrain.yaml"));
        assertEquals("llm-foundry", j.origin().format());
        Specs.Model m = j.model();
        assertEquals("17:13 32", at(m.layers()), "model.n_layers");
        assertEquals("15:12 4096", at(m.hiddenSize()), "model.d_model");
        assertEquals(32L, m.attentionHeads().value());
        assertEquals(16384L, m.ffnHiddenSize().value(), "expansion_ratio 4 × d_model 4096");
        assertEquals(50368L, m.vocabSize().value());
        assertEquals(false, m.gatedMlp().value(), "MPT's default ffn_type mptmlp: a GeLU MLP");
        assertEquals(true, m.tiedEmbeddings().value(), "MPTConfig's tie_word_embeddings default");
        assertEquals("6:16 2048", at(m.seqLength()), "max_seq_len through ${variables.max_seq_len}: placed at the variable");
        assertEquals("bf16", m.dtype().value());
        assertEquals("58:31 6", at(j.batch().microBatchSize()));
        assertEquals("54:26 96", at(j.batch().globalBatchSize()));
        assertEquals("62:22 3", at(j.optimizer().zeroStage()), "FULL_SHARD: ZeRO stage 3, at the strategy");
        assertEquals("fp32", j.optimizer().gradReduceDtype().value(), "mixed_precision DEFAULT reduces in fp32");
        assertEquals("none", j.recompute().granularity().value());
        assertNull(j.nodes(), "a bare training YAML states no GPU count: the composer launch does");
        assertEquals(List.of(), j.origin().unpriced(), "every setting is written and priced: nothing to say");
    }

    @Test
    void anMcliRunBindsItsComputeAndTheModelItNamesWithHybridSharding() {
        Specs.Job j = Foreign.bind("mcli-llama-finetune.yaml", resource("mcli-llama-finetune.yaml"));
        assertEquals("llm-foundry", j.origin().format());
        assertEquals(2L, j.nodes().value(), "16 GPUs without compute.nodes: mcli's 8 per node");
        assertEquals(8L, j.gpusPerNode().value());
        assertEquals("h100_80gb", j.origin().gpuModel().value());
        assertEquals(32L, j.model().layers().value(), "Llama 3.1 8B from the model catalog");
        assertEquals("4096", String.valueOf(j.model().seqLength().value()));
        assertEquals(16L, j.parallelism().dp().value(), "replicate 2 × shard 8");
        assertEquals(8L, j.parallelism().dpShard().value());
        assertEquals(3L, j.optimizer().zeroStage().value());
        assertEquals("bf16", j.optimizer().gradReduceDtype().value(), "PURE reduces in the training precision, amp_bf16");
        assertEquals("full", j.recompute().granularity().value());
        assertNull(j.batch().microBatchSize(), "auto: composer picks it at run time");
        assertEquals(64L, j.batch().globalBatchSize().value());
        assertEquals(List.of(
                "parameters.device_train_microbatch_size: auto: composer searches the micro-batch at run time (from"
                        + " global_train_batch_size ÷ GPUs, halved after each CUDA out-of-memory error); the estimate takes a"
                        + " micro-batch of 1, the smallest it can reach: write a whole number to price the one that runs",
                "parameters.optimizer.name: decoupled_lionw: Lion keeps one fp32 state per parameter (momentum); the estimate"
                        + " counts Adam's two (momentum and variance), so its optimizer memory is 4 bytes per parameter (before"
                        + " sharding) over",
                "parameters.fsdp_config.backward_prefetch not written: BACKWARD_POST (composer's FSDPConfig default): the next"
                        + " unit's backward all-gather is issued only after the current unit's gradients, so less of it overlaps"
                        + " compute; not priced apart: the FSDP collectives are hidden behind compute up to dp_overlap whatever the"
                        + " prefetch (docs/plan.md, FSDP on H100)",
                "compute.gpus 16 without compute.nodes: 2 nodes of 8 GPUs (mcli's documentation: typically there are 8 GPUs per"
                        + " node); write compute.nodes if yours differ"), j.origin().unpriced());
    }

    @Test
    void composersDefaultsAreTakenAndSaidWhereAKeyIsAbsent() {
        Specs.Job j = Foreign.bind("small.yaml", """
                max_seq_len: 1024
                model:
                  name: mpt_causal_lm
                  n_layers: 12
                global_train_batch_size: 64
                fsdp_config:
                  limit_all_gathers: true
                """);
        assertEquals(2048L, j.model().hiddenSize().value(), "MPTConfig's d_model");
        assertEquals(8192L, j.model().ffnHiddenSize().value(), "4 × 2048");
        assertEquals(3L, j.optimizer().zeroStage().value(), "FULL_SHARD");
        assertEquals("fp32", j.optimizer().gradReduceDtype().value(), "DEFAULT");
        assertEquals("bf16", j.model().dtype().value(), "amp_bf16");
        assertEquals("none", j.recompute().granularity().value());
        assertEquals(List.of("model.d_model not written", "model.n_heads not written", "model.vocab_size not written",
                        "model.expansion_ratio not written", "device_train_microbatch_size not written", "precision not written",
                        "fsdp_config.sharding_strategy not written", "fsdp_config.mixed_precision not written",
                        "fsdp_config.activation_checkpointing not written", "fsdp_config.backward_prefetch not written"),
                j.origin().unpriced().stream().map(s -> s.substring(0, s.indexOf(':'))).toList());
    }

    @Test
    void withoutFsdpConfigTheJobIsDdpAndHybridShardingNeedsAReplicateDegree() {
        Specs.Job ddp = Foreign.bind("ddp.yaml", """
                max_seq_len: 2048
                model: {name: mpt_causal_lm, d_model: 768, n_heads: 12, n_layers: 12, expansion_ratio: 4, vocab_size: 50368}
                global_train_batch_size: 256
                device_train_microbatch_size: 16
                precision: amp_fp16
                """);
        assertEquals(0L, ddp.optimizer().zeroStage().value());
        assertEquals("fp16", ddp.model().dtype().value());
        assertEquals(List.of("fsdp_config not written: composer wraps the model in PyTorch DDP (every GPU holds the whole model"
                + " states, ZeRO stage 0) and checkpoints no activations"), ddp.origin().unpriced());
        Specs.Job hybrid = Foreign.bind("hsdp.yaml", """
                max_seq_len: 2048
                model: {name: mpt_causal_lm, d_model: 768, n_heads: 12, n_layers: 12, expansion_ratio: 4, vocab_size: 50368}
                global_train_batch_size: 256
                device_train_microbatch_size: 16
                fsdp_config:
                  sharding_strategy: HYBRID_SHARD
                  mixed_precision: PURE
                  backward_prefetch: BACKWARD_PRE
                  activation_checkpointing: true
                """);
        assertNull(hybrid.parallelism(), "a 1-D mesh: no hybrid sharding, dp from the GPU count");
        assertEquals(3L, hybrid.optimizer().zeroStage().value());
        assertTrue(hybrid.origin().unpriced().get(1).startsWith("fsdp_config.sharding_strategy HYBRID_SHARD without"
                + " data_parallel_replicate_degree: composer (0.24 and later) builds a 1-D device mesh and runs FULL_SHARD"),
                hybrid.origin().unpriced().toString());
        Specs.Job replicas = Foreign.bind("hsdp2.yaml", """
                max_seq_len: 2048
                model: {name: mpt_causal_lm, d_model: 768, n_heads: 12, n_layers: 12, expansion_ratio: 4, vocab_size: 50368}
                global_train_batch_size: 256
                device_train_microbatch_size: 16
                fsdp_config:
                  sharding_strategy: SHARD_GRAD_OP
                  data_parallel_replicate_degree: 4
                """);
        assertEquals(4L, replicas.parallelism().dpReplicate().value(), "the shard degree left to the GPU count");
        assertEquals(2L, replicas.optimizer().zeroStage().value());
    }

    @Test
    void valuesComposerRefusesAreSyn002AtTheValue() {
        Model m = Foreign.model("bad-values.yaml", resource("bad-values.yaml"));
        assertEquals(List.of(
                "bad-values.yaml:9:31 SYN002 'device_train_microbatch_size' is '2.5'; expected a whole number or 'auto'"
                        + " (llm-foundry's calculate_batch_size_info raises ValueError: Not sure how to parse device_microbatch_size);"
                        + " the value is left out, so the estimate takes a micro-batch of 1.",
                "bad-values.yaml:10:12 SYN002 'precision' is 'amp_bf32'; expected one of fp32, amp_fp16, amp_bf16, amp_fp8; the"
                        + " value is left out, so the estimate takes bf16 (llm-foundry's default amp_bf16).",
                "bad-values.yaml:12:22 SYN002 'fsdp_config.sharding_strategy' is 'ZERO3'; expected one of FULL_SHARD,"
                        + " SHARD_GRAD_OP, HYBRID_SHARD, _HYBRID_SHARD_ZERO2, NO_SHARD; the value is left out, so the estimate takes"
                        + " FULL_SHARD, composer's default (ZeRO stage 3).",
                "bad-values.yaml:13:20 SYN002 'fsdp_config.mixed_precision' is 'HALF'; expected one of PURE, DEFAULT, FULL; the"
                        + " value is left out, so the estimate takes DEFAULT, composer's default (gradients reduced in fp32).",
                "bad-values.yaml:14:29 SYN002 'fsdp_config.activation_checkpointing' is 'maybe'; expected true or false; the"
                        + " value is left out, so the estimate checkpoints nothing (composer's default, false).",
                "bad-values.yaml:15:16 SYN002 'fsdp_config.cpu_offload' is 'true'; expected false (composer raises ValueError:"
                        + " FSDP CPU Offload not supported yet, composer/distributed/mosaic_parallelism.py get_cpu_offload); the"
                        + " value is left out, so the estimate keeps the parameters and optimizer states on the GPU."),
                m.findings().stream().map(x -> x.span().file() + ":" + x.span().startLine() + ":" + x.span().startColumn() + " "
                        + x.ruleId() + " " + x.message()).toList());
        Specs.Job j = m.jobs().get(0);
        assertEquals(3L, j.optimizer().zeroStage().value(), "the refused strategy: FULL_SHARD, as when none is written");
        assertNull(j.batch().microBatchSize());
        assertTrue(j.origin().unpriced().contains("precision = 'amp_bf32' (SYN002, not one of fp32, amp_fp16, amp_bf16, amp_fp8):"
                + " left out, so the estimate takes bf16 (llm-foundry's default amp_bf16)"), j.origin().unpriced().toString());
    }

    /**
     * composer's _get_torch_dtype matches a dtype word exactly, case and all ({@code dtype in ['float32', 'torch.float32',
     * 'fp32']}..., else ValueError: Not sure how to convert dtype=... to a torch dtype; composer/distributed/mosaic_parallelism.py
     * at commit 1b7ba47892a522f89b7806307db52ff109688cb0, as in composer/trainer/mosaic_fsdp_utils.py before it): 'BF16' and
     * 'Float32' fail there, so they are SYN002 at the value and the estimate reduces in fp32; the mode word (PURE) is
     * upper-cased by composer, so 'pure' is read.
     */
    @Test
    void dtypeWordsAreMatchedExactlyAsComposerMatchesThem() {
        String head = """
                max_seq_len: 2048
                model: {name: mpt_causal_lm, d_model: 768, n_heads: 12, n_layers: 12, expansion_ratio: 4, vocab_size: 50368}
                global_train_batch_size: 256
                device_train_microbatch_size: 16
                fsdp_config:
                """;
        Model upper = Foreign.model("mp.yaml", head + "  mixed_precision: {param_dtype: bf16, reduce_dtype: BF16}\n");
        assertEquals(List.of("6:54 'fsdp_config.mixed_precision.reduce_dtype' is 'BF16'; expected one of fp32, bf16, fp16 (or float32,"
                + " bfloat16, float16, as composer's _get_torch_dtype reads them), in lower case: composer matches the word exactly;"
                + " the value is left out, so the estimate reduces in fp32."), Foreign.syn002(upper));
        assertNull(upper.jobs().get(0).optimizer().gradReduceDtype());
        Model param = Foreign.model("mp.yaml", head + "  mixed_precision: {param_dtype: Float32}\n");
        assertEquals(List.of("6:34 'fsdp_config.mixed_precision.param_dtype' is 'Float32'; expected one of fp32, bf16, fp16 (or"
                + " float32, bfloat16, float16, as composer's _get_torch_dtype reads them), in lower case: composer matches the word"
                + " exactly; the value is left out, so the estimate reduces in fp32 (FSDP reduces in the parameters' dtype)."),
                Foreign.syn002(param));
        Model other = Foreign.model("mp.yaml", head + "  mixed_precision: {reduce_dtype: bf32}\n");
        assertEquals(List.of("6:35 'fsdp_config.mixed_precision.reduce_dtype' is 'bf32'; expected one of fp32, bf16, fp16 (or float32,"
                + " bfloat16, float16, as composer's _get_torch_dtype reads them); the value is left out, so the estimate reduces in"
                + " fp32."), Foreign.syn002(other), "no case hint where case is not the fault");
        // the words composer takes, as written: torch's names, the amp names, and the fp8 ones (bfloat16: torch has no float8)
        for (String[] w : new String[][] {{"torch.bfloat16", "bf16"}, {"bfloat", "bf16"}, {"half", "fp16"}, {"amp_fp16", "fp16"},
                {"float32", "fp32"}, {"amp_fp8", "bf16"}}) {
            Model m = Foreign.model("mp.yaml", head + "  mixed_precision: {reduce_dtype: " + w[0] + "}\n");
            assertEquals(List.of(), Foreign.syn002(m), w[0]);
            assertEquals(w[1], m.jobs().get(0).optimizer().gradReduceDtype().value(), w[0]);
        }
        Model mode = Foreign.model("mp.yaml", head + "  mixed_precision: pure\n");
        assertEquals(List.of(), Foreign.syn002(mode), "composer upper-cases the mode: 'pure' is PURE");
        assertEquals("bf16", mode.jobs().get(0).optimizer().gradReduceDtype().value());
    }

    @Test
    void aFullShardWithAReplicateDegreeRunsHybridAndAHugeDModelIsOneFindingAtIt() {
        Specs.Job j = Foreign.bind("hsdp3.yaml", """
                max_seq_len: 2048
                model: {name: mpt_causal_lm, d_model: 768, n_heads: 12, n_layers: 12, expansion_ratio: 4, vocab_size: 50368}
                global_train_batch_size: 256
                device_train_microbatch_size: 16
                fsdp_config: {sharding_strategy: FULL_SHARD, data_parallel_replicate_degree: 2, data_parallel_shard_degree: 8}
                """);
        assertEquals(8L, j.parallelism().dpShard().value());
        assertEquals(16L, j.parallelism().dp().value());
        assertTrue(j.origin().unpriced().stream().anyMatch(a -> a.startsWith("fsdp_config.sharding_strategy FULL_SHARD with"
                + " data_parallel_replicate_degree 2: composer builds a 2-D device mesh and runs HYBRID_SHARD")), j.origin().unpriced().toString());
        Model m = Foreign.model("huge.yaml", """
                max_seq_len: 2048
                model: {name: mpt_causal_lm, d_model: 99999999999999999999, n_heads: 16, n_layers: 24}
                global_train_batch_size: 64
                """);
        List<String> f = m.findings().stream().filter(x -> x.ruleId().equals("SYN002"))
                .map(x -> x.span().startLine() + ":" + x.span().startColumn() + " " + x.message()).toList();
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).startsWith("2:39 'model.d_model' is 99999999999999999999"), f.toString());
        assertNull(m.jobs().get(0).model().ffnHiddenSize(), "no MLP from a d_model out of bounds");
    }

    @Test
    void otherFormatsAreNotTakenAndAnMcliRunWithoutTrainingParametersIsNot() {
        assertEquals("none", FormatAdaptersTest.format("run.yaml", """
                name: eval
                image: mosaicml/llm-foundry:2.7.0_cu128-latest
                compute: {gpus: 8}
                parameters:
                  models:
                    - model_name: mpt-7b
                """));
        assertEquals("axolotl", FormatAdaptersTest.format("axolotl.yaml", """
                base_model: meta-llama/Llama-3.1-8B
                micro_batch_size: 2
                sequence_len: 4096
                """));
        assertEquals("llm-foundry", FormatAdaptersTest.format("mpt.yaml", resource("mpt-7b-pretrain.yaml")));
        assertEquals("llm-foundry", FormatAdaptersTest.format("mcli.yaml", resource("mcli-llama-finetune.yaml")));
    }

    /**
     * Hostile values: counts and mesh degrees below 1 or of 20 digits are SYN002 at the value (they were silently dropped or
     * taken as "no replication"); a shape size that is no whole number, an interpolation that leads nowhere or a cycle of
     * interpolations is unknown (Specs.Model#unknown), not MPTConfig's default; every cycle ends (NemoAdapter.resolve's hops).
     */
    @Test
    void countsDegreesAndShapeSizesOutOfReachAreRefusedOrUnknown() {
        Model m = Foreign.model("hostile.yaml", """
                compute: {gpus: -16, nodes: 99999999999999999999}
                parameters:
                  variables: {a: '${variables.b}', b: '${variables.a}'}
                  global_train_batch_size: 64
                  model:
                    name: mpt_causal_lm
                    d_model: ${variables.a}
                    n_layers: 1e400
                    vocab_size: ${variables.missing}
                    expansion_ratio: ${variables.none}
                  fsdp_config:
                    sharding_strategy: HYBRID_SHARD
                    data_parallel_replicate_degree: 0
                    data_parallel_shard_degree: -7
                """);
        assertEquals(List.of(
                "8:15 'parameters.model.n_layers' is '1e400'; expected a whole number; the value is left out, so the size is left"
                        + " unknown (not MPTConfig's default, 24): the job cannot be estimated until it is a whole number.",
                "13:37 'parameters.fsdp_config.data_parallel_replicate_degree' is '0'; expected a whole number from 1 to"
                        + " 2147483647; the value is left out, so the estimate shards over every data-parallel rank.",
                "14:33 'parameters.fsdp_config.data_parallel_shard_degree' is '-7'; expected a whole number from 1 to 2147483647,"
                        + " or -1 (composer's default: the rest of the GPUs); the value is left out, so the estimate shards over every"
                        + " data-parallel rank (composer's default -1: the rest of the GPUs).",
                "1:17 'compute.gpus' is '-16'; expected a whole number from 1 to 2147483647; the value is left out, so the GPU"
                        + " count is left unknown.",
                "1:29 'compute.nodes' is '99999999999999999999'; expected a whole number from 1 to 2147483647; the value is left"
                        + " out, so the node count is left unknown."),
                m.findings().stream().map(x -> x.span().startLine() + ":" + x.span().startColumn() + " " + x.message()).toList());
        Specs.Job j = m.jobs().get(0);
        Specs.Model model = j.model();
        assertEquals(java.util.Set.of("model.hidden_size", "model.layers", "model.vocab_size", "model.ffn_hidden_size"), model.unknown());
        assertNull(model.vocabSize(), "not MPTConfig's 50368 nor the estimate's default");
        assertNull(model.layers());
        assertNull(j.parallelism() == null ? null : j.parallelism().dpReplicate());
    }
}
