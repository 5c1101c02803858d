package dev.gpulint.derive.estimate;

import static dev.gpulint.testing.Foreign.bind;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.plan.EstimateWords;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.EstimateManifest;
import dev.gpulint.testing.Recipes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * DTensor's sequence-dimension copies (TpLayoutCopy): a job whose tp activations are [b, s, h] sharded on the sequence
 * (torchtitan before its PR #4121) copies the whole b·s·h tensor around each tp collective; [s, b, h] (Megatron, and every
 * format's default), tp 1 and no sequence parallelism copy nothing. The shape of torchtitan's June 2025 async-TP page:
 * Llama 3.1 8B on one node of 8 H100 at tp 8, local batch 12, op-level SAC.
 */
class TpLayoutCopyTest {

    private static JobEstimate estimate(String dtype, String parallelism, String recompute, int micro) {
        return EstimateManifest.h100().model("dtype: " + dtype + ", layers: 32, hidden_size: 4096, attention_heads: 32, kv_heads: 8,"
                        + " ffn_hidden_size: 14336, gated_mlp: true, seq_length: 8192, vocab_size: 128256, tied_embeddings: false")
                .parallelism("tp: 8, pp: 1" + parallelism)
                .batch(micro, micro).optimizer("zero_stage: 3").recompute(recompute).estimate();
    }

    private static Term.TpCopy copy(Estimate e) {
        return e.terms().stream().filter(t -> t instanceof Term.TpCopy).map(t -> (Term.TpCopy) t).findFirst().orElse(null);
    }

    private static double hbm(Estimate e) {
        return e.terms().stream().filter(t -> t instanceof Term.Compute).map(t -> ((Term.Compute) t).hbmRate()).findFirst().orElseThrow();
    }

    @Test
    void plainTpCopiesTheWholeTensorAroundEveryCollective() {
        JobEstimate bsh = estimate("bf16", ", tp_comm_overlap: false, tp_activation_layout: bsh", "op", 12),
                sbh = estimate("bf16", ", tp_comm_overlap: false, tp_activation_layout: sbh", "op", 12);
        Term.TpCopy c = copy(bsh.estimate());
        // op SAC: forward all-gathers 2 and reduce-scatters 2, the two all-gathers again in the recompute, backward 2 + 2
        assertEquals(6, c.gathers(), 0);
        assertEquals(4, c.reduces(), 0);
        assertFalse(c.fused());
        // by hand: 12 × 8192 tokens × 4096, read and written at 2 bytes: 2 × 402.65 M × 2 B = 1.61 GB a collective, 10 a layer
        double elements = 12 * 8192.0 * 4096, perLayer = 10 * 2 * elements * 2;
        assertEquals(elements, c.elements(), 0);
        assertEquals(perLayer, c.bytes(), 1e-6 * perLayer);
        double seconds = 32 * perLayer / hbm(bsh.estimate());
        assertEquals(seconds, c.seconds(), 1e-9 * seconds);
        assertTrue(seconds > 0.18 && seconds < 0.2, "16.1 GB × 32 layers at H100's 3.35 TB/s × hbm 0.8, about 0.19 s: " + seconds);
        // the step grows by it and by nothing else (one micro-batch, one stage)
        assertNull(copy(sbh.estimate()));
        assertEquals(seconds, bsh.estimate().time().step() - sbh.estimate().time().step(), 1e-9 * seconds);
    }

    @Test
    void asyncTpCopiesOnlyTheGatheredTensorsAWeightGradientFlattens() {
        Term.TpCopy async = copy(estimate("bf16", ", tp_comm_overlap: true, tp_activation_layout: bsh", "op", 12).estimate());
        assertTrue(async.fused());
        assertEquals(4, async.gathers(), 0);
        assertEquals(0, async.reduces(), 0);
        assertEquals(4 * 2 * 12 * 8192.0 * 4096 * 2, async.bytes(), 1);
        // a micro-batch of 1: the [1, s, h] view flattens without a copy
        assertNull(copy(estimate("bf16", ", tp_comm_overlap: true, tp_activation_layout: bsh", "op", 1).estimate()));
        // plain TP with a micro-batch of 1 still copies (cat(chunk) always writes)
        assertEquals(10, copy(estimate("bf16", ", tp_comm_overlap: false, tp_activation_layout: bsh", "op", 1).estimate()).gathers()
                + copy(estimate("bf16", ", tp_comm_overlap: false, tp_activation_layout: bsh", "op", 1).estimate()).reduces(), 0);
    }

    @Test
    void fullRecomputeAndFloat8TensorwiseGathers() {
        Term.TpCopy full = copy(estimate("bf16", ", tp_comm_overlap: false, tp_activation_layout: bsh", "full", 2).estimate());
        assertEquals(6, full.gathers(), 0);
        assertEquals(6, full.reduces(), 0);
        // Float8 tensorwise (torchao's Float8 TP styles): every all-gather's copy in float8, the reduce-scatters' in bf16
        Term.TpCopy f8 = copy(estimate("fp8", ", tp_comm_overlap: false, tp_activation_layout: bsh", "full", 2).estimate());
        assertEquals(1, f8.gatherBytes(), 0);
        assertEquals(2, f8.activationBytes(), 0);
        double elements = 2 * 8192.0 * 4096;
        assertEquals(2 * elements * (6 * 1 + 6 * 2), f8.bytes(), 1e-6 * f8.bytes());
    }

    @Test
    void nothingWithoutTheLayoutTpOrSequenceParallelism() {
        assertNull(copy(estimate("bf16", ", tp_comm_overlap: false", "op", 12).estimate()), "not stated: sbh");
        assertNull(copy(estimate("bf16", ", tp_comm_overlap: false, tp_activation_layout: bsh, sequence_parallel: false", "op", 12)
                .estimate()), "an all-reduce has no gather dim");
        JobEstimate tp1 = EstimateManifest.h100().model(EstimateManifest.LLAMA3_8B).parallelism("tp: 1, tp_activation_layout: bsh")
                .batch(1, 8).optimizer("zero_stage: 3").recompute("op").estimate();
        assertNull(copy(tp1.estimate()));
        assertFalse(tp1.inputs().assumptions().stream().anyMatch(a -> a.contains("b·s·h")), tp1.inputs().assumptions().toString());
    }

    @Test
    void theWordsAndTheAssumption() {
        JobEstimate e = estimate("bf16", ", tp_comm_overlap: false, tp_activation_layout: bsh", "op", 12);
        String w = EstimateWords.line(copy(e.estimate()));
        assertTrue(w.startsWith("tp-copy: [b, s, h] activations sharded on the sequence (torchtitan before its PR #4121;"), w);
        assertTrue(w.contains("6 all-gathers × 2 B + 4 reduce-scatters × 2 B") && w.contains("2 × 402.7M elements (b·s·h) = 16.11 GB per layer")
                && w.contains("× 32 layers"), w);
        assertTrue(e.inputs().assumptions().contains("tp activations [b, s, h] sharded on the sequence (parallelism.tp_activation_layout:"
                + " bsh): each tp all-gather and reduce-scatter on dim 1 copies the whole b·s·h tensor once more, priced at the HBM"
                + " rate (tp-copy)"), e.inputs().assumptions().toString());
    }

    @Test
    @SuppressWarnings("unchecked")
    void theJsonTimeNamesItOnlyWherePriced() {
        JobEstimate bsh = estimate("bf16", ", tp_comm_overlap: false, tp_activation_layout: bsh", "op", 12),
                sbh = estimate("bf16", ", tp_comm_overlap: false", "op", 12);
        java.util.Map<String, Object> t = (java.util.Map<String, Object>) dev.gpulint.plan.PlanReport.planObject(bsh.estimate(), List.of(), 1)
                .get("time");
        // one micro-batch: the step's copies are the micro-batch's, to four significant digits
        double step = copy(bsh.estimate()).seconds();
        assertEquals(new java.math.BigDecimal(step).round(new java.math.MathContext(4)).doubleValue(), (Double) t.get("tp_copy_s"), 0);
        assertFalse(((java.util.Map<String, Object>) dev.gpulint.plan.PlanReport.planObject(sbh.estimate(), List.of(), 1).get("time"))
                .containsKey("tp_copy_s"));
    }

    /** torchtitan's Llama 3 8B at tp 8 whose [training] table is {@code training}. */
    private static Recipes.Torchtitan titan(String training) {
        return Recipes.torchtitan("8B").training(training).parallelism("data_parallel_shard_degree = -1", "tensor_parallel_degree = 8");
    }

    private static TpLayoutCopy layout(Specs.Job j, List<String> as) {
        return TpLayoutCopy.of(j, 8, true, as);
    }

    @Test
    void torchtitansKeysDateItsLayout() {
        List<String> as = new ArrayList<>();
        Specs.Job old = bind("llama3_8b.toml", titan("local_batch_size = 12\nseq_len = 8192").toml());
        assertEquals(TpLayoutCopy.BSH, layout(old, as));
        assertEquals(7, old.parallelism().tpActivationLayout().span().startLine(), "at seq_len");
        assertEquals(List.of("tp activations [b, s, h] sharded on the sequence ([training] seq_len (torchtitan before its PR #4121"
                + " renamed it)): each tp all-gather and reduce-scatter on dim 1 copies the whole b·s·h tensor once more, priced at the"
                + " HBM rate (tp-copy)"), as);
        as.clear();
        assertEquals(TpLayoutCopy.SBH, layout(bind("llama3_8b.toml", titan("num_tokens_per_microbatch_per_dp_rank = 98304").toml()), as));
        assertEquals(List.of("tp activations gathered on dim 0 ([training] num_tokens_per_microbatch_per_dp_rank (torchtitan since its"
                + " PR #4121)): no copy around the tp collectives"), as);
        as.clear();
        assertEquals(TpLayoutCopy.SBH, layout(bind("llama3_8b.toml", titan("steps = 10").toml()), as));
        assertEquals(List.of("torchtitan's activation layout not dated by its configuration ([training] seq_len / local_batch_size,"
                + " renamed by its PR #4121): the current torchtitan's, batch and sequence folded and gathered on dim 0, no copy around"
                + " the tp collectives (write parallelism.tp_activation_layout: bsh for a job that ran before it)"), as);
    }

    @Test
    void aTorchtitanConfigurationOfBeforeThePrIsPlannedWithTheCopies(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        String toml = titan("local_batch_size = 2\nseq_len = 8192").table("[compile]\nenable = true").toml();
        dev.gpulint.testing.PlanCli cli = dev.gpulint.testing.PlanCli.in(dir).file("cluster.yaml", dev.gpulint.testing.PlanCli.LAB_H100)
                .file("llama3_8b.toml", toml).jobClusters("lab", "*.toml");
        dev.gpulint.testing.PlanCli.Run text = cli.plan();
        assertEquals(0, text.code(), text.err());
        assertTrue(text.out().contains("tp-copy: [b, s, h] activations sharded on the sequence (torchtitan before its PR #4121;")
                // torchtitan's default checkpointing, one layer in 2 fully recomputed: 8 + 4 × 1/2 collectives, as many gathers as scatters
                && text.out().contains("5 all-gathers × 2 B + 5 reduce-scatters × 2 B"), text.out());
        java.util.Map<String, Object> time = dev.gpulint.testing.PlanCli.map(dev.gpulint.testing.PlanCli.map(cli.planJson().json()
                .get("current")).get("time"));
        assertTrue(((Number) time.get("tp_copy_s")).doubleValue() > 0, time.toString());
    }

    @Test
    void megatronIsSbh() {
        Specs.Job j = bind("train.sh", Recipes.MEGATRON_TP8.formatted(""));
        List<String> as = new ArrayList<>();
        assertEquals(TpLayoutCopy.SBH, layout(j, as));
        assertEquals(List.of(), as);
    }
}
