package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.plan.EstimateWords;
import dev.gpulint.testing.EstimateManifest;
import org.junit.jupiter.api.Test;

/**
 * The routed rows' quantizing casts (MoeCasts) on our own manifests in Qwen3-30B-A3B's shape (128 experts of 768, top-8,
 * hidden 2,048), and the MoE layer's cost at ep 8 and ep 64 of one GPT-OSS-120B-shaped job inside one NVL72 rack, where the
 * all-to-all stays on NVLink.
 */
class MoeCastsTest {

    static final String QWEN3_30B_FP8 = MoeCostTest.QWEN3_30B.replace("dtype: bf16", "dtype: fp8");

    @Test
    void fp8CastsEachRoutedRowsGemmInputsBeyondOneMlpPerToken() {
        JobEstimate j = MoeCostTest.job(QWEN3_30B_FP8, "moe: { expert_ffn_hidden_size: 768 }", "tp: 1, ep: 8", 4096);
        MoeCost.Priced p = MoeCostTest.priced(j);
        // by hand: T = 4096 tokens, k = 8 → R = 32,768 rows of h + ffn = 2,048 + 768 = 2,816 elements = 92,274,688; the
        // elementwise term's one MLP per token: 4,096 × 2,816 = 11,534,336; 80,740,352 more elements × 6 bytes
        assertEquals(484_442_112.0, p.term().castBytes(), 1e-3);
        // H100 SXM: 3.35 TB/s × hbm 0.8 = 2,680 GB/s → 180.76 µs
        assertEquals(484_442_112.0 / 2.68e12, p.term().castSeconds(), 1e-12);
        assertEquals(180.76e-6, p.term().castSeconds(), 0.01e-6);
        String note = EstimateWords.text(p.term());
        assertTrue(note.contains("; routed rows' quantizing casts 484.4 MB (6 bytes per GEMM input element beyond one MLP per token) at"
                + " 2680 GB/s = 180.8 µs = "), note);
        // the layer's time takes it: the parts of the MoE layer add up to it
        Term.Moe t = p.term();
        assertEquals(t.routedSeconds() + t.routerSeconds() + t.permuteSeconds() + t.activationSeconds() + t.castSeconds(), p.moeLayerS(), 1e-15);
    }

    @Test
    void sixteenBitJobsCastNothingAndSayNothing() {
        JobEstimate j = MoeCostTest.job(MoeCostTest.QWEN3_30B, "moe: { expert_ffn_hidden_size: 768 }", "tp: 1, ep: 8", 4096);
        MoeCost.Priced p = MoeCostTest.priced(j);
        assertEquals(0, p.term().castBytes(), 0);
        assertEquals(0, p.term().castSeconds(), 0);
        assertFalse(EstimateWords.text(p.term()).contains("casts"), EstimateWords.text(p.term()));
    }

    @Test
    void expertTensorParallelismCastsTheWholeHiddenOnEveryRank() {
        // etp 2 under tp 2: each of the two ranks takes all R = T·k·etp/tp rows of h, and half of each expert's ffn
        JobEstimate j = MoeCostTest.job(QWEN3_30B_FP8, "moe: { expert_ffn_hidden_size: 768 }", "tp: 2, ep: 4, etp: 2, sequence_parallel: true", 4096);
        MoeCost.Priced p = MoeCostTest.priced(j);
        double rows = 4096.0 * 8 * 2 / 2, routed = rows * (2048 + 384), once = 4096.0 * (2048 + 768) / 2;
        assertEquals((routed - once) * 6, p.term().castBytes(), 1e-3);
    }

    static Estimate nvl72(int ep) {
        return EstimateManifest.on("GB200").group("trays").nodes(16).gpusPerNode(4).nvlink("switch: true, domain_size: 72")
                .nics("{ model: ConnectX-7, count: 4, speed: 400 Gb/s, protocol: infiniband, gpudirect_rdma: true }")
                .model("dtype: bf16, layers: 36, hidden_size: 2880, attention_heads: 64, kv_heads: 8, head_dim: 64, ffn_hidden_size: 2880,"
                        + " vocab_size: 201088, gated_mlp: true, tied_embeddings: false, seq_length: 4096, experts: 128, top_k: 4,"
                        + " moe: { dispatcher: flex, grouped_gemm: true }")
                .parallelism("tp: 1, pp: 1, cp: 1, ep: " + ep).batch(4, 1280).optimizer("zero_stage: 1, distributed: true").recompute("none")
                .estimate().estimate();
    }

    @Test
    void epEightAndSixtyFourInsideOneNvlinkDomainCostAboutTheSame() {
        // Megatron-Bridge measured GPT-OSS-120B at about the same tokens/s/GPU with its experts over 8 and over 64 GPUs; inside
        // one NVL72 rack the all-to-all stays on NVLink at either size, so the estimate must not put them 2x apart: ep 8 holds
        // 16 local experts (96 expert GEMMs per layer, 8 times the weights to read), ep 64 holds 2
        Estimate ep8 = nvl72(8), ep64 = nvl72(64);
        assertEquals(Tier.NVLINK, ep8.time().tiers().get(dev.gpulint.spec.ParallelDim.EP));
        assertEquals(Tier.NVLINK, ep64.time().tiers().get(dev.gpulint.spec.ParallelDim.EP));
        double r = ep64.throughput().tokensPerSecondPerGpu() / ep8.throughput().tokensPerSecondPerGpu();
        assertTrue(r > 0.8 && r < 1.25, "ep 64 / ep 8 tokens/s/GPU: " + r);
    }
}
