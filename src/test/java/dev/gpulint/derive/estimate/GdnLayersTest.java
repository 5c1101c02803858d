package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.Located;
import dev.gpulint.core.Span;
import dev.gpulint.spec.Specs;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A hybrid's {@code G} layers priced as Megatron-Core builds a GatedDeltaNet from its {@code --linear-*} sizes
 * (megatron/core/ssm/gated_delta_net.py at 00caa53a; the hybrid stack's gdn_layer in hybrid_layer_specs.py at 061490e6), not
 * as Mamba-2: its parameters counted from the module's own shapes here, its model FLOPs Megatron-LM's _gdn_layer_flops
 * (megatron/core/models/hybrid/layers/flops.py at cb5395b3) written out, its chunk kernels' HBM bytes and kept activations.
 */
class GdnLayersTest {

    private static final Span AT = Span.at("model_config.yaml", 1, 1);

    /** Qwen3-Next's attention shape at 8 layers: hidden 2048, 16 heads, sequence 4096. */
    private static final ModelShape M = ModelShape.gpt(8, 2048, 16, 151936, 4096, ModelShape.Dtype.BF16);

    private static Located<Long> n(long v) {
        return new Located<>(v, AT);
    }

    /** The pattern "GGG*GGG*" (as Specs.Hybrid holds it: G as M) with GDN sizes; conv not written. */
    private static Specs.Hybrid gdn(Long keyHeads, Long valueHeads, Long keyDim, Long valueDim) {
        return new Specs.Hybrid(new Located<>("MMM*MMM*", AT), null, null, null, null, null, new Specs.Gdn(
                keyHeads == null ? null : n(keyHeads), valueHeads == null ? null : n(valueHeads), keyDim == null ? null : n(keyDim),
                valueDim == null ? null : n(valueDim), null), 6, "GGG*GGG*", java.util.Set.of());
    }

    @Test
    void aGdnLayersParametersAreTheModulesShapes() {
        List<String> as = new ArrayList<>();
        MambaLayers y = MambaLayers.of(gdn(16L, 32L, 128L, 128L), M, null, as);
        assertEquals(new MambaLayers.Gdn(16, 32, 128, 128, 4), y.gdn());
        // in_proj h × (2·qk + 2·v + 2·Hv) = 2048 × (4096 + 8192 + 64); conv1d (2·qk + v) × 4, no bias; A_log and dt_bias per value
        // head; out_norm over the value head dimension; the layer's norm of h (in in_proj); out_proj v × h
        double inProj = 2048.0 * (2 * 2048 + 2 * 4096 + 2 * 32), conv = (2 * 2048 + 4096) * 4.0, perHead = 2 * 32, outNorm = 128,
                norm = 2048, outProj = 4096.0 * 2048;
        assertEquals(inProj + conv + perHead + outNorm + norm + outProj, y.gdnLayerParameters(M));
        // the layers: 6 GDN, 2 attention-only (attention + one norm), the final norm and the (tied) embedding
        assertTrue(M.tiedEmbeddings());
        assertEquals(6 * y.gdnLayerParameters(M) + 2 * (M.attentionParameters() + 2048) + 2048 + M.embeddingParameters(),
                y.parameters(M), 1);
        // conv not written: Megatron-Core's default, said; then the layers' line, with no Mamba-2 default among the lines
        assertEquals("gated delta net --linear-conv-kernel-dim not given: 4 (Megatron-Core TransformerConfig's default)", as.get(0));
        assertEquals(String.format(java.util.Locale.ROOT, "hybrid layers priced by kind: 6 gated delta net (Megatron-Core's GatedDeltaNet,"
                + " 16 key heads × 128, 32 value heads × 128, conv 4: %.3g M parameters each), 2 attention-only and 0 MLP-only of 8 layers,"
                + " %.3g B parameters; each stage's parameters from its slice of the pattern, its time as its share of the mean layer;"
                + " the conv1d and the chunked gated delta rule as HBM bytes (%.0f KB per token per GDN layer, chunk 64); model FLOPs as"
                + " Megatron-LM's _gdn_layer_flops counts them (docs/plan.md, hybrid Mamba models)", y.gdnLayerParameters(M) / 1e6,
                y.parameters(M) / 1e9, y.gdnBytesPerToken() / 1e3), as.get(1));
        assertEquals(2, as.size(), as.toString());
    }

    @Test
    void eachSizeNotWrittenIsMegatronsDefaultAndSaid() {
        List<String> as = new ArrayList<>();
        MambaLayers y = MambaLayers.of(gdn(null, 64L, null, null), M, null, as);
        assertEquals(new MambaLayers.Gdn(16, 64, 128, 128, 4), y.gdn());
        assertEquals(List.of("gated delta net --linear-num-key-heads not given: 16 (Megatron-Core TransformerConfig's default)",
                "gated delta net --linear-key-head-dim not given: 128 (Megatron-Core TransformerConfig's default)",
                "gated delta net --linear-value-head-dim not given: 128 (Megatron-Core TransformerConfig's default)",
                "gated delta net --linear-conv-kernel-dim not given: 4 (Megatron-Core TransformerConfig's default)"), as.subList(0, 4));
        // no GDN sizes: the mixers are Mamba-2 (the G-as-M stand-in a script's pattern names in its assumptions)
        assertNull(MambaLayers.of(new Specs.Hybrid(new Located<>("MMM*MMM*", AT), null, null, null, null, null, null, 0, null, java.util.Set.of()), M, null,
                new ArrayList<>()).gdn());
    }

    /**
     * A pattern of both mixers (our own "MGM*GGM*": 3 Mamba-2, 3 GDN, 2 attention; Specs.Hybrid holds it as "MMM*MMM*" with
     * the G places in gdnPattern): each M priced as Mamba-2 of its sizes (Megatron-LM's defaults here, said), each G as a
     * gated delta net of its --linear-* sizes, in parameters, model FLOPs, chunk-kernel bytes and kept activations.
     */
    @Test
    void aPatternOfBothMixersPricesEachLetterAsItsOwnKind() {
        List<String> as = new ArrayList<>();
        Specs.Hybrid both = new Specs.Hybrid(new Located<>("MMM*MMM*", AT), null, null, null, null, null,
                new Specs.Gdn(n(16), n(32), n(128), n(128), n(4)), 3, "MGM*GGM*", java.util.Set.of());
        MambaLayers y = MambaLayers.of(both, M, null, as);
        assertEquals(List.of(3, 3, 2, 8), List.of(y.mamba(), y.gdnLayers(), y.attention(), y.layers()));
        // the same sizes alone: a G-only pattern's GDN layer and an M-only pattern's Mamba-2 layer
        MambaLayers gOnly = MambaLayers.of(gdn(16L, 32L, 128L, 128L), M, null, new ArrayList<>());
        MambaLayers mOnly = MambaLayers.of(new Specs.Hybrid(new Located<>("MMM*MMM*", AT), null, null, null, null, null, null, 0, null, java.util.Set.of()), M,
                null, new ArrayList<>());
        assertEquals(gOnly.gdnLayerParameters(M), y.gdnLayerParameters(M));
        assertEquals(mOnly.mambaLayerParameters(M), y.mambaLayerParameters(M));
        assertTrue(y.gdnLayerParameters(M) != y.mambaLayerParameters(M));
        assertEquals(3 * y.mambaLayerParameters(M) + 3 * y.gdnLayerParameters(M) + 2 * (M.attentionParameters() + 2048) + 2048
                + M.embeddingParameters(), y.parameters(M), 1);
        // model FLOPs: hybrid_flops' Mamba count (d_in = 2h, 8 groups of state 128, 64 heads: 2 × 2048 ÷ 64) for each M, and
        // _gdn_layer_flops for each G
        double h = 2048, s = 4096, din = 2 * h;
        double attention = 4 * 16 * 128 * (h + h + s / 2), mamba = 2 * h * (2 * din + 2 * 8 * 128 + 64) + 7 * din * 128 + 2 * din * h;
        double expected = 3 * (3 * mamba + 3 * megatronGdnFlops(h, 128, 128, 16, 32, 4) + 2 * attention) + 6 * h * M.vocab();
        assertEquals(expected, y.modelFlopsPerToken(M), 1e-9 * expected);
        // the mean layer's bytes and activations: three eighths of each mixer's
        assertEquals((3 * mOnly.ssdBytesPerToken() + 3 * gOnly.gdnBytesPerToken()) / 8, y.meanSsdBytesPerToken(), 1e-6);
        double[] mx = mOnly.mambaActivationParts(M), gx = y.gdn().activationParts(h), mean = y.meanActivationParts(M);
        double att = (2 * 2048.0 + 4 * 2048 + 2 * 2048) / h;
        assertEquals((3 * mx[0] + 3 * gx[0] + 2 * 5.0) / 8, mean[0], 1e-12);
        assertEquals((3 * mx[1] + 3 * gx[1] + 2 * att) / 8, mean[1], 1e-12);
        // the pattern's G places by stage: "MGM*" then "GGM*"
        MambaLayers.LayerPattern p = new MambaLayers.LayerPattern("MGM*GGM*");
        assertEquals(List.of(2, 1, 1, 2), List.of(p.count(0, 0, 4), p.count(4, 0, 4), p.count(0, 4, 8), p.count(4, 4, 8)));
        // the Mamba-2 defaults and the layers' line naming both kinds; no GDN default (all written)
        assertEquals(List.of("Mamba state size not given: 128 (Megatron-LM's --mamba-state-dim default)",
                "Mamba head dimension not given: 64 (Megatron-LM's --mamba-head-dim default)",
                "Mamba groups not given: 8 (Megatron-LM's --mamba-num-groups default)",
                "Mamba heads not given: 64 (MambaMixer's d_inner = 2 × hidden ÷ the head dimension)",
                "Mamba conv1d width not given: 4 (MambaMixer's d_conv default)"), as.subList(0, 5));
        assertEquals(String.format(java.util.Locale.ROOT, "hybrid layers priced by kind: 3 Mamba-2 (M: 64 heads × 64, state 128, 8 groups,"
                + " conv 4: %.3g M parameters each), 3 gated delta net (G: Megatron-Core's GatedDeltaNet, 16 key heads × 128, 32 value heads"
                + " × 128, conv 4: %.3g M parameters each), 2 attention-only and 0 MLP-only of 8 layers, %.3g B parameters; each stage's"
                + " parameters from its slice of the pattern, its time as its share of the mean layer; the Mamba-2 SSD scan and the GDN's"
                + " conv1d and chunked gated delta rule as HBM bytes (%.0f KB per token per Mamba-2 layer, chunk 128; %.0f KB per GDN"
                + " layer, chunk 64); model FLOPs as Megatron-LM's hybrid_flops and _gdn_layer_flops count them (docs/plan.md, hybrid"
                + " Mamba models)", y.mambaLayerParameters(M) / 1e6, y.gdnLayerParameters(M) / 1e6, y.parameters(M) / 1e9,
                y.ssdBytesPerToken() / 1e3, y.gdnBytesPerToken() / 1e3), as.get(5));
        assertEquals(6, as.size(), as.toString());
        // cp over the mixers: said at cp 2 naming both kinds and their all-to-alls, nothing at cp 1 nor without a mixer
        assertTrue(y.contextParallel(2).startsWith("context parallelism (cp 2) over the 3 Mamba-2 and 3 gated delta net layers: "),
                y.contextParallel(2));
        assertTrue(y.contextParallel(2).contains("(6 a Mamba-2 layer, 7 a gated delta net layer forward, as many backward), exposed"),
                y.contextParallel(2));
        assertTrue(mOnly.contextParallel(2).startsWith("context parallelism (cp 2) over the 6 Mamba-2 layers: "), mOnly.contextParallel(2));
        assertNull(y.contextParallel(1));
        MambaLayers noMixer = MambaLayers.of(new Specs.Hybrid(new Located<>("*-*-*-*-", AT), null, null, null, null, null, null, 0, null, java.util.Set.of()), M,
                null, new ArrayList<>());
        assertNull(noMixer.contextParallel(2));
    }

    /**
     * The elements one rank of a tp·cp group exchanges per token per layer forward. GDN (gated_delta_net.py at e867835): in_proj's
     * output 2·2048 + 2·4096 + 2·32 = 12,352 and the gated norm's output 4,096 back, ÷ tp 2: 8,224. Mamba-2
     * (mamba_context_parallel.py at 00caa53a; 64 heads × 64, d_inner 4,096, 8 groups of state 128): z, x, y 3 × 4,096 and dt 64
     * ÷ tp, B and C max(G ÷ tp, cp) groups of 128 each: at tp 2, cp 4, 6,176 + 2 × 4 × 128 = 7,200; at tp 4, cp 8 the 2 groups a
     * tp rank holds are repeated to 8 (group_repeat_count 4), 3,088 + 2 × 8 × 128 = 5,136.
     */
    @Test
    void theMixersCpAllToAllsCarryInProjsOutputAndTheScansOutput() {
        Specs.Hybrid both = new Specs.Hybrid(new Located<>("MMM*MMM*", AT), null, null, null, null, null,
                new Specs.Gdn(n(16), n(32), n(128), n(128), n(4)), 3, "MGM*GGM*", java.util.Set.of());
        MambaLayers y = MambaLayers.of(both, M, null, new ArrayList<>());
        assertEquals(8224.0, y.gdnCpElementsPerToken(2));
        assertEquals(7200.0, y.mambaCpElementsPerToken(2, 4));
        assertEquals(5136.0, y.mambaCpElementsPerToken(4, 8));
        MambaLayers mOnly = MambaLayers.of(new Specs.Hybrid(new Located<>("MMM*MMM*", AT), null, null, null, null, null, null, 0, null, java.util.Set.of()), M,
                null, new ArrayList<>());
        assertEquals(0.0, mOnly.gdnCpElementsPerToken(2));
    }

    /**
     * A native manifest's G layers with their linear_* sizes are priced as gated delta nets of those sizes (the ones not written
     * Megatron-Core's defaults, said), and cp 2 over them is priced and said: the cp term carries their all-to-alls.
     */
    @Test
    void aNativeManifestsGLayersArePricedWithItsLinearSizes() {
        JobEstimate j = dev.gpulint.testing.EstimateManifest.h100().name("qn")
                .model("dtype: bf16, layers: 8, hidden_size: 2048, attention_heads: 16, kv_heads: 2, ffn_hidden_size: 5120,"
                        + " vocab_size: 151936, seq_length: 4096, hybrid: { pattern: \"GGG*GGG*\", linear_num_key_heads: 8,"
                        + " linear_num_value_heads: 16, linear_value_head_dim: 256 }")
                .parallelism("tp: 2, cp: 2").batch(1, 16).estimate();
        MambaLayers y = j.inputs().variants().mamba();
        assertEquals(new MambaLayers.Gdn(8, 16, 128, 256, 4), y.gdn());
        assertEquals(6, y.gdnLayers());
        List<String> as = j.inputs().assumptions();
        assertTrue(as.contains("gated delta net --linear-key-head-dim not given: 128 (Megatron-Core TransformerConfig's default)"), as.toString());
        assertTrue(as.stream().anyMatch(a -> a.startsWith("context parallelism (cp 2) over the 6 gated delta net layers: ")), as.toString());
        // each G's all-to-alls: (2·1024 + 3·4096 + 2·16) ÷ 2 = 7,184 elements per token per layer
        assertEquals(7184.0, y.gdnCpElementsPerToken(2));
        assertTrue(j.estimate().terms().stream().anyMatch(t -> t instanceof Term.Collectives c && c.dim() == dev.gpulint.spec.ParallelDim.CP
                && c.what().startsWith("gated delta net all-to-all per micro-batch")), j.estimate().terms().toString());
    }

    /** Megatron-LM's _gdn_layer_flops for one token, forward (flops.py at cb5395b3), written out. */
    private static double megatronGdnFlops(double hidden, long qkHeadDim, long vHeadDim, long qkHeads, long vHeads, long convKernel) {
        long qkDim = qkHeadDim * qkHeads, vDim = vHeadDim * vHeads;
        long inProjDim = 2 * qkDim + 2 * vDim + 2 * vHeads;
        return 2 * 1.0 * (hidden * inProjDim + convKernel * (2 * qkDim + vDim) + vHeads * (double) vHeadDim * vHeadDim * 4 + hidden * vDim);
    }

    @Test
    void modelFlopsAreMegatronsGdnCount() {
        MambaLayers y = MambaLayers.of(gdn(16L, 32L, 128L, 128L), M, null, new ArrayList<>());
        double h = 2048, s = 4096, a = 16, d = 128;
        double attention = 4 * a * d * (h + h + s / 2);              // attn_layer_flops per token, MHA, causal
        double expected = 3 * (6 * megatronGdnFlops(h, 128, 128, 16, 32, 4) + 2 * attention) + 6 * h * M.vocab();
        assertEquals(expected, y.modelFlopsPerToken(M), 1e-9 * expected);
        // not Mamba-2's count: the same pattern priced as Mamba-2 (d_in = 2h) counts other FLOPs
        MambaLayers mamba = MambaLayers.of(new Specs.Hybrid(new Located<>("MMM*MMM*", AT), null, null, null, null, null, null, 0, null, java.util.Set.of()), M, null,
                new ArrayList<>());
        assertTrue(Math.abs(mamba.modelFlopsPerToken(M) - expected) > 0.01 * expected);
    }

    @Test
    void theChunkKernelsBytesAndTheKeptActivationsAreTheGdns() {
        MambaLayers y = MambaLayers.of(gdn(16L, 32L, 128L, 128L), M, null, new ArrayList<>());
        // forward: conv1d reads and writes q, k, v (2·2·8192); the kernels read q and k at the value heads (2·2·32·128), v
        // (2·4096), g fp32 (4·32), beta (2·32), write o (2·4096), write and read A (2·4·32·64), pass the fp32 states three
        // times (3·4·32·128·128 ÷ 64); forward and backward 3 × that
        double forward = 2 * 2.0 * 8192 + 2 * 2.0 * 32 * 128 + 2.0 * 4096 + 4.0 * 32 + 2.0 * 32 + 2.0 * 4096 + 2 * 4.0 * 32 * 64
                + 3 * 4.0 * 32 * 128 * 128 / 64;
        assertEquals(3 * forward, y.gdnBytesPerToken());
        assertEquals(6 * 3 * forward / 8, y.meanSsdBytesPerToken());
        // kept per s·b·h: 4 replicated (input, normalized input); divided: in_proj's output, the kernel's q, k (value heads), v, A,
        // o and out_proj's input
        double[] parts = y.gdn().activationParts(2048);
        assertEquals(4, parts[0]);
        assertEquals((2.0 * 12352 + 2.0 * (2 * 32 * 128 + 4096) + 2.0 * 32 * 64 + 2.0 * 4096 + 2.0 * 4096) / 2048, parts[1], 1e-12);
        // the GEMM inputs cast under fp8: h and v (in_proj's and out_proj's)
        assertEquals((6 * (2048.0 + 4096) + 2 * (2048.0 + 2048)) / 8, y.meanGemmInputs(M));
    }
}
