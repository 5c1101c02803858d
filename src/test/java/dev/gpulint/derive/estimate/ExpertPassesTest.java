package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.plan.EstimateWords;
import org.junit.jupiter.api.Test;

/**
 * The routed experts' unfused passes (ExpertPasses) on our own manifests in GPT-OSS-120B's shape (128 experts of 2,880, top-4,
 * hidden 2,880, 64 query heads of 64): the clamped GLU's clamps and concatenation, and the fc2 bias added per local expert.
 */
class ExpertPassesTest {

    static final String GPT_OSS_120B = "layers: 36, hidden_size: 2880, attention_heads: 64, kv_heads: 8, head_dim: 64, experts: 128, top_k: 4,"
            + " ffn_hidden_size: 2880, gated_mlp: true, tied_embeddings: false, vocab_size: 201088, dtype: bf16";

    static MoeCost.Priced gptOss(String moe) {
        return MoeCostTest.priced(MoeCostTest.job(GPT_OSS_120B, moe, "tp: 1, ep: 8", 4096));
    }

    @Test
    void clampAndBiasAreCountedPerRoutedRow() {
        MoeCost.Priced p = gptOss("moe: { activation_clamp: 7.0, expert_bias: true }");
        Term.ExpertPasses x = p.passes();
        // by hand: T = 4,096 tokens (micro-batch 1), k = 4 → R = 16,384 rows; f = h = 2,880; 2 bytes
        // clamp: forward 8 × 16,384 × 2,880 × 2 = 754,974,720, backward 10 × = 943,718,400
        // bias:  forward 6 × 16,384 × 2,880 × 2 = 566,231,040, backward 6 × = 566,231,040
        assertEquals(16_384.0, x.rows(), 0);
        assertEquals(754_974_720.0, x.clampForward(), 1e-3);
        assertEquals(943_718_400.0, x.clampBackward(), 1e-3);
        assertEquals(566_231_040.0, x.biasForward(), 1e-3);
        assertEquals(566_231_040.0, x.biasBackward(), 1e-3);
        assertEquals(2_831_155_200.0, x.bytes(), 1e-3);
        // H100 SXM: 3.35 TB/s × hbm 0.8 = 2,680 GB/s → 1.0564 ms
        assertEquals(2_831_155_200.0 / 2.68e12, x.seconds(), 1e-12);
        assertEquals(1.0564e-3, x.seconds(), 0.0001e-3);
        assertEquals(
                "unfused passes on the routed rows outside the fused activation, counted from Megatron-Core's code (docs/plan.md): GLU clamp at 7"
                        + " (two clamps and a concatenation) forward 8 × 16384 rows × 2880 = 755.0 MB, backward 10 × = 943.7 MB; fc2 bias added per"
                        + " local expert (t + b·p, concatenated) forward 6 × 16384 rows × 2880 = 566.2 MB, backward 6 × = 566.2 MB: 2.83 GB at 2680"
                        + " GB/s = 1.1 ms per MoE layer and micro-batch (in the moe term's MoE layer)",
                EstimateWords.text(x));
        // the MoE layer takes it: its parts add up to the layer's time, and the moe term names it
        Term.Moe t = p.term();
        assertEquals(t.routedSeconds() + t.routerSeconds() + t.permuteSeconds() + t.activationSeconds() + t.castSeconds() + x.seconds(),
                p.moeLayerS(), 1e-15);
        assertEquals(x.seconds(), t.passesSeconds(), 0);
        assertTrue(EstimateWords.text(t).contains("; unfused expert passes 1.1 ms (expert-passes below) = "), EstimateWords.text(t));
    }

    @Test
    void expertsWithoutClampOrBiasPayNothingAndSayNothing() {
        MoeCost.Priced p = gptOss("moe: { dispatcher: alltoall }");
        assertNull(p.passes());
        assertEquals(0, p.term().passesSeconds(), 0);
        assertFalse(EstimateWords.text(p.term()).contains("expert passes"), EstimateWords.text(p.term()));
        // and the same job with both stated is slower by exactly the passes
        MoeCost.Priced q = gptOss("moe: { dispatcher: alltoall, activation_clamp: 7.0, expert_bias: true }");
        assertEquals(p.moeLayerS() + q.passes().seconds(), q.moeLayerS(), 1e-15);
    }

    @Test
    void eachPartAlone() {
        Term.ExpertPasses clamp = gptOss("moe: { activation_clamp: 7.0 }").passes();
        assertEquals(754_974_720.0 + 943_718_400.0, clamp.bytes(), 1e-3);
        assertFalse(clamp.bias());
        assertFalse(EstimateWords.text(clamp).contains("bias"), EstimateWords.text(clamp));
        Term.ExpertPasses bias = gptOss("moe: { expert_bias: true }").passes();
        assertEquals(2 * 566_231_040.0, bias.bytes(), 1e-3);
        assertEquals(0, bias.clamp(), 0);
        assertFalse(EstimateWords.text(bias).contains("clamp"), EstimateWords.text(bias));
    }

    @Test
    void aClampNeedsAGatedMlp() {
        // a clamp value on a two-matrix MLP has no GLU halves to clamp: nothing priced
        MoeCost.Priced p = MoeCostTest.priced(MoeCostTest.job(GPT_OSS_120B.replace("gated_mlp: true", "gated_mlp: false"),
                "moe: { activation_clamp: 7.0 }", "tp: 1, ep: 8", 4096));
        assertNull(p.passes());
    }

    @Test
    void aRecomputedForwardRunsTheForwardPassesAgain() {
        JobEstimate j = MoeCostTest.job(GPT_OSS_120B, "moe: { activation_clamp: 7.0, expert_bias: true }", "tp: 1, ep: 8", 4096);
        JobInputs in = j.inputs();
        Term.ExpertPasses x = ExpertPasses.price(in.model(), in.variants().moe(), in.layout(), 4096, 4.0 / 3, 2.68e12);
        assertEquals(1, x.recomputed(), 1e-12);
        assertEquals(2 * (754_974_720.0 + 566_231_040.0) + 943_718_400.0 + 566_231_040.0, x.bytes(), 1e-3);
        assertTrue(EstimateWords.text(x).contains("; forward × 2.00 (recomputed): "), EstimateWords.text(x));
    }

    @Test
    void expertTensorParallelismSplitsTheClampedWidthNotTheBiasedOne() {
        // etp 2 under tp 2: each rank takes all R = T·k·etp/tp rows, half of each expert's ffn, the whole hidden
        JobEstimate j = MoeCostTest.job(GPT_OSS_120B, "moe: { activation_clamp: 7.0, expert_bias: true }", "tp: 2, ep: 4, etp: 2, sequence_parallel: true", 4096);
        JobInputs in = j.inputs();
        Term.ExpertPasses x = ExpertPasses.price(in.model(), in.variants().moe(), in.layout(), 4096, 1, 2.68e12);
        assertEquals(16_384.0, x.rows(), 0);
        assertEquals(1440.0, x.ffnPerRow(), 0);
        assertEquals(8 * 16_384.0 * 1440 * 2, x.clampForward(), 1e-3);
        assertEquals(6 * 16_384.0 * 2880 * 2, x.biasForward(), 1e-3);
    }

    @Test
    void theManifestStatesBoth() {
        MoeShape s = MoeCostTest.job(GPT_OSS_120B, "moe: { activation_clamp: 7.0, expert_bias: true }", "tp: 1, ep: 8", 4096)
                .inputs().variants().moe();
        assertEquals(7.0, s.activationClamp(), 0);
        assertTrue(s.expertBias());
        MoeShape none = MoeCostTest.job(GPT_OSS_120B, "", "tp: 1, ep: 8", 4096).inputs().variants().moe();
        assertEquals(0, none.activationClamp(), 0);
        assertFalse(none.expertBias());
    }
}
