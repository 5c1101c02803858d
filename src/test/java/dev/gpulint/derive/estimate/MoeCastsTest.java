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
    void fp8CastsEachRoutedRowsGemmInputs() {
        JobEstimate j = MoeCostTest.job(QWEN3_30B_FP8, "moe: { expert_ffn_hidden_size: 768 }", "tp: 1, ep: 8", 4096);
        MoeCost.Priced p = MoeCostTest.priced(j);
        // by hand: T = 4096 tokens, k = 8 → R = 32,768 rows of h + ffn = 2,048 + 768 = 2,816 elements = 92,274,688 × 6 bytes
        // (the elementwise term casts the MoE layer's attention inputs only)
        assertEquals(553_648_128.0, p.term().castBytes(), 1e-3);
        // H100 SXM: 3.35 TB/s × hbm 0.8 = 2,680 GB/s → 206.59 µs
        assertEquals(553_648_128.0 / 2.68e12, p.term().castSeconds(), 1e-12);
        assertEquals(206.59e-6, p.term().castSeconds(), 0.01e-6);
        String note = EstimateWords.text(p.term());
        assertTrue(note.contains("; routed rows' quantizing casts 553.6 MB (6 bytes per GEMM input element, k rows per token) at"
                + " 2680 GB/s = 206.6 µs = "), note);
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
        double rows = 4096.0 * 8 * 2 / 2, routed = rows * (2048 + 384);
        assertEquals(routed * 6, p.term().castBytes(), 1e-3);
    }

    /**
     * A small MoE model of our own: 4 layers of hidden 1,024 (8 heads of 128, so q = 1,024), 8 experts of 512, top-2, the
     * dense layers' MLP {@code denseFfn} wide; one 2,048-token sequence per GPU, tp 1, ep 8 on one DGX H100.
     */
    static JobEstimate smallMoe(String layers, String dtype, int denseFfn, String... lines) {
        EstimateManifest e = EstimateManifest.h100().model("dtype: " + dtype + ", layers: 4, hidden_size: 1024, attention_heads: 8, kv_heads: 8,"
                        + " head_dim: 128, ffn_hidden_size: " + denseFfn + ", experts: 8, top_k: 2, gated_mlp: true, tied_embeddings: false,"
                        + " vocab_size: 32000, seq_length: 2048, moe: { expert_ffn_hidden_size: 512, " + layers + " }")
                .parallelism("tp: 1, pp: 1, ep: 8").batch(1, 8).optimizer("zero_stage: 1, distributed: true").recompute("none");
        for (String l : lines) e.line(l);
        return e.estimate();
    }

    /** The per-tensor casts in the compute term's elementwise bytes: those bytes less the stored activations' traffic. */
    static double perTensorCasts(JobEstimate j) {
        JobInputs in = j.inputs();
        Term.Compute c = j.estimate().terms().stream().filter(t -> t instanceof Term.Compute).map(t -> (Term.Compute) t).findFirst().orElseThrow();
        return c.elementwiseBytes() - in.hardware().efficiency().traffic() * Estimator.perLayerActivationBytes(in.model(), in.layout());
    }

    @Test
    void eachLayersCastsAreCountedOnceAtTheWidthTheLayerHas() {
        for (String layers : new String[] {"dense_layers: 1", "layer_freq: '[0,1,1,1]'"}) {
            JobEstimate j = smallMoe(layers, "fp8", 4096);
            assertEquals(3, j.inputs().variants().moe().moeLayers(), layers);
            assertEquals(4096, j.inputs().variants().moe().denseFfn(), layers);
            // by hand, per layer and micro-batch averaged over the 4 layers, T = 2,048: every layer's QKV and projection inputs
            // (h + q = 2,048 elements per token); the dense layer's fc1 and fc2 inputs at its own width (h + 4,096 = 5,120) in
            // one layer of 4; 6 bytes each (read 2, write 1, forward and backward): 6 × 2,048 × (2,048 + 5,120 / 4) = 40,894,464
            assertEquals(40_894_464.0, perTensorCasts(j), 1e-3, layers);
            // the MoE layers' expert inputs are MoeCasts' alone, all of them: R = T·k = 4,096 rows of h + ffn = 1,536 elements × 6
            assertEquals(37_748_736.0, MoeCostTest.priced(j).term().castBytes(), 1e-3, layers);
        }
        // the dense layer's width is its own: an MLP of 2,048 has 2,048 fewer fc2 input elements per token, in one layer of 4
        assertEquals(40_894_464.0 - 6 * 2048 * 2048 / 4.0, perTensorCasts(smallMoe("dense_layers: 1", "fp8", 2048)), 1e-3);
        // every layer MoE: the attention's inputs alone, 6 × 2,048 × 2,048
        assertEquals(25_165_824.0, perTensorCasts(smallMoe("layer_freq: 1", "fp8", 4096)), 1e-3);
        // 16 bits cast nothing
        JobEstimate bf16 = smallMoe("dense_layers: 1", "bf16", 4096);
        assertEquals(0, perTensorCasts(bf16), 1e-3);
        assertEquals(0, MoeCostTest.priced(bf16).term().castBytes(), 0);
    }

    @Test
    void rowwiseScalingOfAnMoeModelPricesTheDenseLayersMlpAndSubtractsWhatTheElementwiseTermCounts() {
        JobEstimate j = smallMoe("dense_layers: 1", "fp8", 4096, "fp8_scaling: rowwise");
        Term.Float8 f = j.estimate().terms().stream().filter(t -> t instanceof Term.Float8).map(t -> (Term.Float8) t).findFirst().orElseThrow();
        // the per-tensor casts it replaces are exactly those the compute term counts
        assertEquals(40_894_464.0, f.countedBytes(), 1e-3);
        assertEquals(perTensorCasts(j) - f.bytes(), f.countedBytes(), 1e-3);
        // inputs: wq, wk, wv (3h) every layer, wo q/tp, and the dense layer's w1, w3 (2h) and w2 (4,096) in one layer of 4
        assertEquals(2048.0 * (3 * 1024 + 1024 + (2 * 1024 + 4096) / 4.0), f.inputElements(), 1e-3);
        // weights: wq, wo (h·q each), wk, wv (h·kv·d each) every layer; the dense MLP's 3·h·4,096 in one layer of 4
        assertEquals(4.0 * 1024 * 1024 + 3.0 * 1024 * 4096 / 4, f.weightElements(), 1e-3);
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
