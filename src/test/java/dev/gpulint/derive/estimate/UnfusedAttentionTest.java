package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.EstimateManifest;
import org.junit.jupiter.api.Test;

/**
 * Attention outside a flash kernel (model.attention.kernel: unfused; Megatron-LM of 2021–22): its batched GEMMs over the
 * full s × s square and its softmax and dropout passes, priced on Narayanan et al. 2021's GPT-1.7B (Table 1: tp 1, 32 A100,
 * micro-batches of 4 × 2,048, fp16, full recompute), and the 5·a·s²·b bytes a layer keeps when the core is not recomputed.
 */
class UnfusedAttentionTest {

    /** GPT-1.7B: 24 layers, h 2,304, 24 heads of 96, ffn 4h, vocabulary 51,200, sequence 2,048, fp16. */
    static final String GPT_1_7B = "dtype: fp16, layers: 24, hidden_size: 2304, attention_heads: 24, ffn_hidden_size: 9216,"
            + " vocab_size: 51200, tied_embeddings: true, seq_length: 2048";

    private static JobEstimate gpt(String kernel, String recompute) {
        return EstimateManifest.on("A100-SXM4-80GB").nodes(4).nics(EstimateManifest.CX7_IB)
                .model(GPT_1_7B + (kernel == null ? "" : ", attention: { kernel: " + kernel + " }")).parallelism("tp: 1")
                .batch(4, 512).optimizer("zero_stage: 0").recompute(recompute).estimate();
    }

    private static Term.UnfusedAttention unfused(Estimate e) {
        return e.terms().stream().filter(t -> t instanceof Term.UnfusedAttention).map(t -> (Term.UnfusedAttention) t).findFirst().orElse(null);
    }

    private static Term.Compute compute(Estimate e) {
        return e.terms().stream().filter(t -> t instanceof Term.Compute).map(t -> (Term.Compute) t).findFirst().orElseThrow();
    }

    // b·s·s·a on one GPU: 4 × 2,048 × 2,048 × 24
    static final double SCORES = 402_653_184;
    // A100 80GB: GEMM 312 TFLOP/s × 0.75, HBM 2,039 GB/s × 0.8 (catalog)
    static final double GEMM = 312e12 * 0.75, HBM = 2039e9 * 0.8;

    @Test
    void fullRecomputeRunsTheSquaresGemmsAndSoftmaxAndDropoutPassesThreeTimes() {
        Term.UnfusedAttention u = unfused(gpt("unfused", "full").estimate());
        assertEquals(SCORES, u.scores(), 1e-3);
        assertEquals(1, u.recomputed(), 1e-12);
        // forward QKᵀ and AV, recomputed forward, backward's four: 8 passes of 2·d = 192 FLOPs a score
        assertEquals(8 * 192 * SCORES, u.flops(), 1e3);
        assertEquals(0.618e12, u.flops(), 0.001e12, "docs/plan.md's hand count: 0.618 TFLOP");
        // each pass writes or reads the score once in fp16: 16 bytes a score, 6.44 GB — at d = 96 the bytes outlast the FLOPs
        assertEquals(16 * SCORES, u.gemmBytes(), 1e-3);
        assertEquals(16 * SCORES / HBM + 8 * 10e-6, u.gemmSeconds(), 1e-9);
        assertTrue(16 * SCORES / HBM > 8 * 192 * SCORES / GEMM, "memory-bound at head dim 96");
        // softmax 4 + dropout 5 forward (twice), dropout 5 + softmax 6 backward: 29 bytes a score, 11.7 GB
        assertEquals(9, u.forwardBytesPerScore(), 1e-12);
        assertEquals(11, u.backwardBytesPerScore(), 1e-12);
        assertEquals(29 * SCORES, u.elementwiseBytes(), 1e-3);
        assertEquals(29 * SCORES / HBM, u.elementwiseSeconds(), 1e-12);
        assertEquals(0.011188, u.seconds(), 1e-6, "11.19 ms a layer and micro-batch");
    }

    @Test
    void itReplacesTheFlashAttentionTermInTheLayersTime() {
        Estimate flash = gpt(null, "full").estimate(), plain = gpt("unfused", "full").estimate();
        Term.Compute f = compute(flash), p = compute(plain);
        assertTrue(f.attentionFlops() > 0);
        assertEquals(0, p.attentionFlops(), "no flash attention term beside it");
        double flashAttention = f.attentionFlops() / f.attentionRate();
        // causal half, 4/3 recomputed: 4 × 2,048 × 6·2,048·24·96 × 4/3 at 0.285 × 312 TFLOP/s
        assertEquals(8192.0 * 6 * 2048 * 24 * 96 * 4 / 3 / (0.285 * 312e12), flashAttention, 1e-9);
        double perLayer = unfused(plain).seconds() - flashAttention;
        assertEquals(perLayer * 24, p.seconds() - f.seconds(), 1e-9, "24 layers, the rest of the layer unchanged");
    }

    @Test
    void quietWithAFlashKernel() {
        for (String k : new String[] {null, "fused", "flash2"}) {
            JobEstimate e = gpt(k, "full");
            assertNull(unfused(e.estimate()), String.valueOf(k));
            assertTrue(e.inputs().assumptions().stream().noneMatch(a -> a.startsWith("attention kernel unfused")), String.valueOf(k));
        }
        assertTrue(gpt("unfused", "full").inputs().assumptions().stream().anyMatch(a -> a.startsWith("attention kernel unfused (attention in"
                + " plain ops: batched GEMMs over the s × s scores, softmax and dropout through HBM), as the job states it: priced by its passes")));
    }

    @Test
    void selectiveRecomputeReRunsTheCoreAndNoneRunsItOnce() {
        Term.UnfusedAttention sel = unfused(gpt("unfused", "selective").estimate()), none = unfused(gpt("unfused", "none").estimate());
        assertEquals(1, sel.recomputed(), 1e-12, "Megatron's selective recompute checkpoints exactly the core attention");
        assertEquals(0, none.recomputed(), 1e-12);
        assertEquals(6 * 192 * SCORES, none.flops(), 1e3);
        assertEquals(20 * SCORES, none.elementwiseBytes(), 1e-3);
        assertEquals(29 * SCORES, sel.elementwiseBytes(), 1e-3);
    }

    @Test
    void theScoresAreKeptUnlessTheCoreIsRecomputed() {
        // Korthikanti et al. 2022 Table 2: softmax output 2, dropout mask 1, dropout output 2 bytes a score, per layer
        double perLayer = 5 * SCORES;
        double noneF = gpt(null, "none").estimate().stages().get(0).activations();
        double noneU = gpt("unfused", "none").estimate().stages().get(0).activations();
        assertEquals(24 * perLayer, noneU - noneF, 1, "one stage, one micro-batch in flight: every layer's scores");
        double selF = gpt(null, "selective").estimate().stages().get(0).activations();
        double selU = gpt("unfused", "selective").estimate().stages().get(0).activations();
        assertEquals(perLayer, selU - selF, 1, "recomputed: one layer's while it runs backward");
        double fullF = gpt(null, "full").estimate().stages().get(0).activations();
        double fullU = gpt("unfused", "full").estimate().stages().get(0).activations();
        assertEquals(perLayer, fullU - fullF, 1);
    }

    @Test
    void theScoresSplitOverTensorParallelHeads() {
        JobEstimate e = EstimateManifest.on("A100-SXM4-80GB").nodes(8).nics(EstimateManifest.CX7_IB)
                .model(GPT_1_7B + ", attention: { kernel: unfused }").parallelism("tp: 2").batch(4, 512).optimizer("zero_stage: 0")
                .recompute("full").estimate();
        assertEquals(SCORES / 2, unfused(e.estimate()).scores(), 1e-3);
    }
}
