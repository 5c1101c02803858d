package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.plan.EstimateWords;
import dev.gpulint.testing.EstimateManifest;
import org.junit.jupiter.api.Test;

/**
 * A causal decoder's flash attention executes half of the s² attention FLOPs that the model-FLOPs convention counts:
 * the step prices the executed half, MFU keeps counting the whole.
 */
class CausalAttentionTest {

    private static Estimate estimate(int seq) {
        return EstimateManifest.on("A100-SXM4-80GB").jobGpusPerNode(1)
                .model("layers: 4, hidden_size: 1024, attention_heads: 8, seq_length: " + seq + ", vocab_size: 32000").batch(1, 1)
                .estimate().estimate();
    }

    @Test
    void theStepPricesHalfTheCountedAttentionFlops() {
        Estimate e = estimate(8192);
        ModelShape m = e.model();
        assertEquals(m.attentionFlopsPerTokenLayer() / 2, m.attentionExecutedFlopsPerTokenLayer(), 1e-6);
        // one micro-batch of 8,192 tokens, one layer: 8192 × 12·s·a·d / 2 = 8192 × 12 × 8192 × 1024 / 2 = 0.412 TFLOP
        String compute = e.terms().stream().filter(n -> n.term().equals("compute")).findFirst().map(EstimateWords::text).orElseThrow();
        assertTrue(compute.contains("causal attention 12·s·a·d/2 0.412 TFLOP"), compute);
    }

    @Test
    void modelFlopsStillCountTheWholeSquare() {
        Estimate e = estimate(8192);
        ModelShape m = e.model();
        double perToken = m.layers() * (m.linearFlopsPerTokenLayer() + 12.0 * 8192 * 8 * 128) + m.logitFlopsPerToken();
        assertEquals(perToken, m.modelFlopsPerToken(), 1);
        assertEquals(perToken * e.throughput().tokensPerSecondPerGpu() / 1e12, e.throughput().modelTflopsPerGpu(), 1e-6);
    }
}
