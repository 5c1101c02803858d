package dev.gpulint.derive.estimate;

import dev.gpulint.plan.EstimateWords;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Multi-latent attention priced from its published shape (DeepSeek-V3 §2.1.1 and §4.2: q_lora_rank 1,536, kv_lora_rank 512,
 * heads of 128 + 64 rotary, values of 128, 128 heads, hidden 7,168), read from a native manifest of our own.
 */
class LatentAttentionTest {

    static final LatentAttention V3 = new LatentAttention(1536, 512, 128, 64, 128);

    static final String DEEPSEEK_V3_LIKE = "layers: 61, hidden_size: 7168, attention_heads: 128, kv_heads: 128, head_dim: 128, experts: 256,"
            + " top_k: 8, ffn_hidden_size: 18432, gated_mlp: true, tied_embeddings: false, vocab_size: 129280, dtype: bf16";

    @Test
    void theProjectionsCountAsTheirLowRankMatrices() {
        // q: 7168·1536 + 1536·128·192; kv: 7168·(512 + 64) + 512·128·(128 + 128); out: 128·128·7168
        assertEquals(11_010_048 + 37_748_736 + 4_128_768 + 16_777_216 + 117_440_512, V3.parameters(7168, 128), 0);
        assertEquals(187_105_280, V3.parameters(7168, 128), 0);
        // without query compression (DeepSeek-V2-Lite): h·a·(d_h + d_hR) for the queries
        LatentAttention lite = new LatentAttention(0, 512, 128, 64, 128);
        assertEquals(2048.0 * 16 * 192 + 2048.0 * 576 + 512.0 * 16 * 256 + 16.0 * 128 * 2048, lite.parameters(2048, 16), 0);
    }

    @Test
    void theCoreAttendsOverTheWiderQueryKeyHeadAndTheValueHead() {
        assertEquals(6.0 * 4096 * 128 * (192 + 128), V3.coreFlopsPerToken(4096, 128), 0);
        assertEquals(1_006_632_960, V3.coreFlopsPerToken(4096, 128), 0);
        // the same sizes everywhere are multi-head attention's 12·s·a·d
        assertEquals(12.0 * 4096 * 32 * 128, new LatentAttention(0, 512, 128, 0, 128).coreFlopsPerToken(4096, 32), 0);
    }

    @Test
    void theLatentsAreKeptWholeAndTheHeadsSplit() {
        double[] p = V3.activationParts(7168, 128);
        assertEquals((4.0 * 1536 + 2.0 * 576 + 2.0 * 512) / 7168, p[0], 1e-12, "8,320 bytes per token of latents, on every tp rank");
        assertEquals((4.0 * 128 * 192 + 4.0 * 128 * 128) / 7168, p[1], 1e-12, "Q and K of 192, V and the output of 128 per head");
    }

    @Test
    void aManifestsAttentionSizesReachTheShapeAndItsEstimate() {
        JobEstimate j = MoeCostTest.job(DEEPSEEK_V3_LIKE, "moe: { expert_ffn_hidden_size: 2048 }, attention: { kv_lora_rank: 512, q_lora_rank: 1536,"
                + " qk_head_dim: 128, qk_rope_head_dim: 64, v_head_dim: 128 }", "tp: 1, ep: 64, pp: 1", 4096);
        ModelShape m = j.inputs().model();
        assertEquals(V3, m.mla());
        assertEquals(187_105_280, m.attentionParameters(), 0);
        assertEquals(1_006_632_960, m.attentionFlopsPerTokenLayer(), 0);
        assertEquals(6.0 * (187_105_280 + 8 * 3.0 * 7168 * 2048), m.linearFlopsPerTokenLayer(), 0);
        String compute = j.estimate().terms().stream().filter(n -> n.term().equals("compute")).findFirst().map(EstimateWords::text).orElseThrow();
        assertTrue(compute.contains("; causal attention 6·s·a·(d_h + d_hR + d_v)/2 "), compute);
        assertTrue(j.inputs().assumptions().contains("multi-latent attention: queries through rank 1536, keys and values through rank 512,"
                + " heads of 128 + 64 (rotary) and values of 128"), j.inputs().assumptions().toString());
        // the same model counted as 128 heads of 128: more parameters, fewer core FLOPs
        JobEstimate mha = MoeCostTest.job(DEEPSEEK_V3_LIKE, "moe: { expert_ffn_hidden_size: 2048 }", "tp: 1, ep: 64, pp: 1", 4096);
        assertNull(mha.inputs().model().mla());
        assertEquals(4.0 * 7168 * 128 * 128, mha.inputs().model().attentionParameters(), 0);
        assertTrue(mha.estimate().terms().stream().filter(n -> n.term().equals("compute")).findFirst().map(EstimateWords::text).orElseThrow()
                .contains("; causal attention 12·s·a·d/2 "));
        assertEquals(61 * (4.0 * 7168 * 128 * 128 - 187_105_280), mha.inputs().model().parameters() - m.parameters(), 1);
        assertTrue(j.estimate().stages().get(0).activations() > mha.estimate().stages().get(0).activations(),
                "wider query/key heads and the replicated latents keep more");
    }

    @Test
    void aKvRankAloneTakesMegatronCoresDefaultsAndSaysSo() {
        JobEstimate j = MoeCostTest.job(DEEPSEEK_V3_LIKE, "moe: { expert_ffn_hidden_size: 2048 }, attention: { kv_lora_rank: 512 }", "tp: 1, ep: 64, pp: 1", 4096);
        assertEquals(new LatentAttention(0, 512, 128, 64, 128), j.inputs().model().mla());
        assertTrue(j.inputs().assumptions().contains("multi-latent attention: queries not compressed, keys and values through rank 512, heads of"
                + " 128 + 64 (rotary) and values of 128; not given, Megatron-Core's default: qk_head_dim 128, qk_rope_head_dim 64, v_head_dim 128"),
                j.inputs().assumptions().toString());
    }
}
