package dev.gpulint.derive.estimate;

import static dev.gpulint.testing.Foreign.bind;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.plan.EstimateWords;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.EstimateManifest;
import dev.gpulint.testing.Recipes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Eager elementwise kernels (EagerKernels): torchtitan without torch.compile, or a native manifest's {@code kernels: eager},
 * adds the unfused kernels' HBM bytes beyond the fused ones per layer and micro-batch; fused jobs (Megatron, NeMo, a
 * compiled torchtitan job, a native manifest that does not say) keep the fitted traffic constant alone. Llama 3.1 8B on 8
 * H100 with FSDP, two 8k sequences per GPU: the shape of torchtitan's December 2024 eager / compiled rows.
 */
class EagerKernelsTest {

    private static JobEstimate estimate(String kernels, String recompute, String parallelism) {
        return EstimateManifest.h100().model("layers: 32, hidden_size: 4096, attention_heads: 32, kv_heads: 8, ffn_hidden_size: 14336,"
                        + " gated_mlp: true, seq_length: 8192, vocab_size: 128256, tied_embeddings: false").parallelism(parallelism)
                .batch(2, parallelism.contains("tp: 2") ? 8 : 16).optimizer("zero_stage: 3").recompute(recompute).line(kernels).estimate();
    }

    private static Optional<Term.Eager> eager(Estimate e) {
        return e.terms().stream().filter(t -> t instanceof Term.Eager).map(t -> (Term.Eager) t).findFirst();
    }

    private static Term.Compute compute(Estimate e) {
        return e.terms().stream().filter(t -> t instanceof Term.Compute).map(t -> (Term.Compute) t).findFirst().orElseThrow();
    }

    @Test
    void eagerAddsTheCountedBytesOfEveryUnfusedKernel() {
        JobEstimate eagerJob = estimate("kernels: eager", "op", "tp: 1, pp: 1");
        Estimate e = eagerJob.estimate(), fused = estimate("kernels: fused", "op", "tp: 1, pp: 1").estimate();
        Term.Eager x = eager(e).orElseThrow();
        // the GPU's tokens per micro-batch: 2 × 8192; the norms and residual adds on T·h, RoPE on T·(a + kv)·d, SwiGLU on T·ffn
        assertEquals(16384.0 * 4096, x.hiddenElements(), 0);
        assertEquals(16384.0 * (32 + 8) * 128, x.qkElements(), 0);
        assertEquals(16384.0 * 14336, x.ffnElements(), 0);
        // forward: 2 norms × 32 + 2 residual adds × 2 bytes per hidden element, 16 per q/k element, 4 per MLP element
        assertEquals(67_108_864.0 * 68 + 83_886_080.0 * 16 + 234_881_024.0 * 4, x.forwardBytes(), 0);
        assertEquals(6_845_104_128.0, x.forwardBytes(), 0);
        // backward: 2 × 70 + 2 × 4, 16, 8
        assertEquals(13_153_337_344.0, x.backwardBytes(), 0);
        // op-level SAC runs every elementwise forward again: forward × 2 + backward
        assertEquals(1.0, x.recomputed(), 1e-12);
        assertEquals(26_843_545_600.0, x.bytes(), 1e-3);
        assertEquals(3.35e12 * 0.8, x.hbmRate(), 1, "H100 SXM's 3.35 TB/s × the catalog's hbm 0.8");
        assertEquals(26_843_545_600.0 / (3.35e12 * 0.8), x.seconds(), 1e-12);
        // it is the compute term's elementwise bytes beyond the fused job's, and the step's time beyond it, every layer of
        // the one micro-batch (one stage: no bubble; the FSDP collectives hide behind either compute alike)
        assertEquals(compute(fused).elementwiseBytes() + x.bytes(), compute(e).elementwiseBytes(), 1e-3);
        assertEquals(32 * x.seconds(), e.time().step() - fused.time().step(), 1e-9 * e.time().step());
        assertTrue(eagerJob.inputs().assumptions().contains("eager elementwise kernels (kernels: eager): PyTorch runs RMSNorm, RoPE,"
                + " SwiGLU and the residual adds one kernel per op; their HBM bytes beyond the fused kernels' are priced (eager)"),
                eagerJob.inputs().assumptions().toString());
        String words = EstimateWords.line(x);
        assertTrue(words.startsWith("eager: unfused kernels beyond the fused ones, bytes per element counted from the op graph"
                + " (docs/plan.md): forward RMSNorm 2 × 32 + residual add 2 × 2 on 67.1M, RoPE 16 on 83.9M, SwiGLU 4 on 234.9M"), words);
        assertTrue(words.contains(" × 2.00 (recomputed)"), words);
    }

    @Test
    void withoutRecomputeTheForwardCountsOnceAndTensorParallelismSplitsTheHeadsAndTheMlp() {
        Term.Eager none = eager(estimate("kernels: eager", "none", "tp: 1, pp: 1").estimate()).orElseThrow();
        assertEquals(0, none.recomputed(), 0);
        assertEquals(6_845_104_128.0 + 13_153_337_344.0, none.bytes(), 1e-3);
        // tp 2 without sequence parallelism: every tp rank runs the norms on the whole sequence; heads and MLP split
        Term.Eager tp = eager(estimate("kernels: eager", "none", "tp: 2, pp: 1, sequence_parallel: false").estimate()).orElseThrow();
        assertEquals(16384.0 * 4096, tp.hiddenElements(), 0);
        assertEquals(16384.0 * 40 * 128 / 2, tp.qkElements(), 0);
        assertEquals(16384.0 * 14336 / 2, tp.ffnElements(), 0);
        // with sequence parallelism the norms run on the rank's share of the sequence
        Term.Eager sp = eager(estimate("kernels: eager", "none", "tp: 2, pp: 1, sequence_parallel: true").estimate()).orElseThrow();
        assertEquals(16384.0 * 4096 / 2, sp.hiddenElements(), 0);
    }

    @Test
    void fusedOrUnstatedNativeJobsKeepTheFittedTrafficAlone() {
        JobEstimate unstated = estimate("", "op", "tp: 1, pp: 1"), fused = estimate("kernels: fused", "op", "tp: 1, pp: 1");
        assertTrue(eager(unstated.estimate()).isEmpty());
        assertTrue(eager(fused.estimate()).isEmpty());
        assertEquals(compute(unstated.estimate()).elementwiseBytes(), compute(fused.estimate()).elementwiseBytes(), 0);
        assertTrue(unstated.inputs().assumptions().stream().noneMatch(a -> a.contains("elementwise kernels")),
                unstated.inputs().assumptions().toString());
        assertTrue(fused.inputs().assumptions().contains("fused elementwise kernels (kernels: fused): norms, RoPE, SwiGLU and residual"
                + " adds fused as Transformer Engine fuses them; the elementwise term's traffic constant prices them"));
    }


    /** torchtitan's Llama 3 8B with {@code training} more [training] lines and {@code compile} a [compile] table (empty: none). */
    private static String titan(String training, String compile) {
        return Recipes.torchtitan("8B").training("local_batch_size = 2", "seq_len = 8192", training)
                .parallelism("data_parallel_shard_degree = -1").table(compile).toml();
    }

    @Test
    void torchtitansCompileIsReadAndItsDefaultIsEager() {
        List<String> as = new ArrayList<>();
        Specs.Job on = bind("llama3_8b.toml", titan("", "[compile]\nenable = true\ncomponents = [\"model\", \"loss\"]\n"));
        assertEquals("fused", on.kernels().value());
        assertEquals(13, on.kernels().span().startLine(), "enable's line");
        assertEquals(EagerKernels.FUSED, EagerKernels.of(on, as));
        assertEquals(List.of("fused elementwise kernels ([compile] enable): norms, RoPE, SwiGLU and residual adds fused as"
                + " Transformer Engine fuses them; the elementwise term's traffic constant prices them"), as);
        as.clear();
        Specs.Job off = bind("llama3_8b.toml", titan("", "[compile]\nenable = false\n"));
        assertEquals(EagerKernels.EAGER, EagerKernels.of(off, as));
        assertEquals(List.of("eager elementwise kernels ([compile] enable): PyTorch runs RMSNorm, RoPE, SwiGLU and the residual adds"
                + " one kernel per op; their HBM bytes beyond the fused kernels' are priced (eager)"), as);
        // compiling the loss alone leaves the model's kernels eager (DeepSeek-V3's train config writes components = ["loss"])
        Specs.Job loss = bind("llama3_8b.toml", titan("", "[compile]\nenable = true\ncomponents = [\"loss\"]\n"));
        assertEquals("eager", loss.kernels().value());
        assertEquals(14, loss.kernels().span().startLine(), "components' line");
        as.clear();
        assertEquals(EagerKernels.EAGER, EagerKernels.of(loss, as));
        assertTrue(as.get(0).startsWith("eager elementwise kernels ([compile] components): "), as.toString());
        // the earlier layout's [training] compile
        Specs.Job older = bind("llama3_8b.toml", titan("compile = true\n", ""));
        assertEquals("fused", older.kernels().value());
        as.clear();
        assertEquals(EagerKernels.FUSED, EagerKernels.of(older, as));
        assertTrue(as.get(0).startsWith("fused elementwise kernels ([training] compile): "), as.toString());
        // not written: torchtitan's default, off
        Specs.Job unstated = bind("llama3_8b.toml", titan("", ""));
        assertNull(unstated.kernels());
        as.clear();
        assertEquals(EagerKernels.EAGER, EagerKernels.of(unstated, as));
        assertEquals(List.of("[compile] enable not given: false, torchtitan's default: eager elementwise kernels, their HBM bytes"
                + " beyond the fused kernels' priced (eager)"), as);
    }

    @Test
    void aCompileSwitchThatIsNotABooleanIsRefusedAndTheDefaultTaken() {
        // refused (SYN002 at the value, rules/syn/SYN002.test.yaml), not read as "not given": the default, eager, is said as taken
        Specs.Job j = bind("llama3_8b.toml", titan("", "[compile]\nenable = \"maybe\"\n"));
        assertNull(j.kernels());
        assertEquals(List.of("[compile] enable = 'maybe' (SYN002, not true or false): left out, so the estimate takes torchtitan's"
                + " default, torch.compile off: eager elementwise kernels"), j.origin().unpriced());
        List<String> as = new ArrayList<>();
        assertEquals(EagerKernels.EAGER, EagerKernels.of(j, as));
        // the earlier [training] compile, likewise
        Specs.Job older = bind("llama3_8b.toml", titan("compile = 2\n", ""));
        assertNull(older.kernels());
        assertEquals(List.of("[training] compile = '2' (SYN002, not true or false): left out, so the estimate takes torchtitan's"
                + " default, torch.compile off: eager elementwise kernels"), older.origin().unpriced());
    }

    @Test
    void megatronIsFusedAndSaysNothing() {
        Specs.Job j = bind("train.sh", """
                #!/bin/bash
                torchrun --nnodes 1 --nproc_per_node 8 pretrain_gpt.py \\
                  --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --seq-length 8192 \\
                  --tensor-model-parallel-size 1 --micro-batch-size 1 --global-batch-size 128 --bf16
                """);
        assertNull(j.kernels());
        List<String> as = new ArrayList<>();
        assertEquals(EagerKernels.FUSED, EagerKernels.of(j, as));
        assertEquals(List.of(), as);
    }

    @Test
    void nemoIsFusedAndSaysNothing() {
        // a NeMo 2 recipe (Megatron-Core with Transformer Engine's fused kernels) and a NeMo 1 launcher config
        Specs.Job nemo2 = bind("recipe.yaml", """
                trainer:
                  _target_: nemo.lightning.pytorch.trainer.Trainer
                  devices: 8
                  num_nodes: 1
                  strategy:
                    _target_: nemo.lightning.pytorch.strategies.megatron_strategy.MegatronStrategy
                    tensor_model_parallel_size: 2
                """);
        Specs.Job nemo1 = bind("gpt.yaml", """
                trainer:
                  devices: 8
                  num_nodes: 2
                model:
                  micro_batch_size: 1
                  global_batch_size: 256
                  tensor_model_parallel_size: 4
                  pipeline_model_parallel_size: 1
                  encoder_seq_length: 2048
                  num_layers: 24
                  hidden_size: 2048
                  num_attention_heads: 16
                """);
        for (Specs.Job j : List.of(nemo2, nemo1)) {
            assertNotNull(j.origin(), "bound from its format");
            assertNull(j.kernels());
            List<String> as = new ArrayList<>();
            assertEquals(EagerKernels.FUSED, EagerKernels.of(j, as));
            assertEquals(List.of(), as);
        }
    }
}
