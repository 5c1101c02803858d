package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.plan.EstimateWords;
import org.junit.jupiter.api.Test;

/** Sliding-window attention executes less of the causal square; sinks and MLA are named, not priced. */
class AttentionShapeTest {

    static final String GPT_OSS_LIKE = "layers: 36, hidden_size: 2880, attention_heads: 64, kv_heads: 8, head_dim: 64, experts: 128, top_k: 4,"
            + " ffn_hidden_size: 2880, gated_mlp: true, tied_embeddings: false, vocab_size: 201088, dtype: bf16";

    @Test
    void aWindowExecutesWsMinusHalfWSquaredOfTheCausalHalfSquare() {
        assertEquals(1.0, AttentionShape.windowFraction(4096, 4096), 1e-12, "a window as long as the sequence is full attention");
        assertEquals(1.0, AttentionShape.windowFraction(0, 4096), 1e-12);
        // w = 128, s = 4096: (128·4096 − 128²/2) / (4096²/2) = 516,096 / 8,388,608
        assertEquals(516096.0 / 8388608, AttentionShape.windowFraction(128, 4096), 1e-12);
        AttentionShape alternate = new AttentionShape(128, 2);
        assertEquals(18, alternate.windowedLayers(36), "every 2nd layer (0, 2, ...) keeps full attention");
        assertEquals((18 + 18 * 516096.0 / 8388608) / 36, alternate.executedFraction(36, 4096), 1e-12);
        assertEquals(36, new AttentionShape(128, 0).windowedLayers(36), "no skip frequency: every layer windowed");
        assertEquals(1.0, AttentionShape.FULL.executedFraction(36, 4096), 1e-12);
    }

    @Test
    void theStepPricesTheWindowAndMfuKeepsTheFullCount() {
        JobEstimate full = MoeCostTest.job(GPT_OSS_LIKE, "", "tp: 1, ep: 8", 4096);
        JobEstimate window = MoeCostTest.job(GPT_OSS_LIKE, "attention: { sliding_window: 128, full_attention_every: 2, sinks: true }", "tp: 1, ep: 8", 4096);
        String f = compute(full), w = compute(window);
        double ratio = attention(w) / attention(f);
        assertEquals(new AttentionShape(128, 2).executedFraction(36, 4096), ratio, 0.01, f + "\n" + w);
        assertTrue(window.estimate().time().step() < full.estimate().time().step());
        assertEquals(full.inputs().model().modelFlopsPerToken(), window.inputs().model().modelFlopsPerToken(), 1e-6);
        assertTrue(window.inputs().assumptions().contains("sliding-window attention of 128 tokens on all but every 2nd layer: a windowed layer"
                + " executes 6 % of full causal attention at sequence 4096"), window.inputs().assumptions().toString());
        assertTrue(window.inputs().assumptions().contains("attention sinks: one more logit per head and query, not priced (under 1/s of the score FLOPs)"));
        assertTrue(full.inputs().assumptions().stream().noneMatch(a -> a.contains("sliding-window") || a.contains("sinks")));
    }

    @Test
    void multiLatentAttentionIsPricedNotNamedAsNotModelled() {
        JobEstimate mla = MoeCostTest.job(GPT_OSS_LIKE, "attention: { kv_lora_rank: 512 }", "tp: 1, ep: 8", 4096);
        assertTrue(mla.inputs().assumptions().stream().noneMatch(a -> a.startsWith("multi-latent attention (")), mla.inputs().assumptions().toString());
        assertTrue(mla.inputs().model().mla() != null, "LatentAttentionTest prices it");
    }

    private static String compute(JobEstimate j) {
        return j.estimate().terms().stream().filter(n -> n.term().equals("compute")).findFirst().map(EstimateWords::text).orElseThrow();
    }

    private static double attention(String compute) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("causal attention 12·s·a·d/2 ([0-9.e+-]+) TFLOP").matcher(compute);
        assertTrue(m.find(), compute);
        return Double.parseDouble(m.group(1));
    }
}
