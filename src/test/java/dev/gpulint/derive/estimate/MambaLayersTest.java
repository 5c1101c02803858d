package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.catalog.Models;
import dev.gpulint.core.Span;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.EstimateManifest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A hybrid Mamba model's layers by kind: its parameters against its publisher's totals, its model FLOPs against
 * Megatron-LM's own count for hybrid models (training.py num_floating_point_operations → hybrid_flops, written out here from
 * the code as it stands at NVIDIA/Megatron-LM 001b00c2734d8f0fad096fe48a382fedf755d321), and its estimate beside the same
 * shape priced as transformer layers.
 */
class MambaLayersTest {

    private static final Models MODELS = Models.builtIn();

    /** The catalog entry's shape (seq 8192, bf16, the vocabulary as Megatron pads it at tp 1) and its layers by kind. */
    private static ModelShape shape(Models.Entry e) {
        return new ModelShape((int) e.layers(), e.hidden(), e.heads(), e.kvHeads(), e.headDim(), e.ffn(), ModelShape.padVocab(e.vocab(), 1),
                8192, e.gated(), e.tied(), 1, 1, ModelShape.Dtype.BF16);
    }

    private static MambaLayers layers(Models.Entry e) {
        Models.Hybrid y = MODELS.hybrid(e).orElseThrow();
        return new MambaLayers((int) y.count('M'), (int) y.count('*'), (int) y.count('-'), 0, y.mambaHeads(), y.mambaHeadDim(),
                y.stateSize(), y.groups(), y.convKernel(), new MambaLayers.LayerPattern(y.pattern()), null, null);
    }

    private static Models.Entry entry(String name) {
        return MODELS.find(name).orElseThrow();
    }

    @Test
    void nemotronHCountsTheParametersItsPublisherStates() {
        // arXiv:2504.03624 (Nemotron-H) and the model cards: "8B", "47B", "56B"; the Nemotron Nano 2 cards: 8.89 B, 12.31 B
        // (nvidia/NVIDIA-Nemotron-Nano-9B-v2, nvidia/NVIDIA-Nemotron-Nano-12B-v2-Base)
        record Want(String name, double published, double within) {}
        for (Want w : List.of(new Want("Nemotron-H-47B", 47e9, 0.01), new Want("Nemotron-H-56B", 56e9, 0.01),
                new Want("Nemotron-Nano-9B-v2", 8.89e9, 0.01), new Want("Nemotron-Nano-12B-v2", 12.31e9, 0.01),
                // "8B" is rounded to the billion: the count is 8.10 B, 1.3 % above the round figure, within its rounding
                new Want("Nemotron-H-8B", 8e9, 0.02))) {
            Models.Entry e = entry(w.name());
            double p = layers(e).parameters(shape(e).withVocab(e.vocab()));
            assertEquals(w.published(), p, w.within() * w.published(), w.name() + ": " + p);
        }
        // the 8B's count term by term: 24 mixers of 109.64 M (in_proj 4096 × 18,560, out_proj 8,192 × 4,096, conv 10,240 × 5,
        // 3 × 128 per head, the gated norm's 8,192 and the layer norm's 4,096), 4 attention layers, 24 squared-ReLU MLPs, the
        // final norm and two embeddings of 131,072 × 4,096
        Models.Entry e8 = entry("Nemotron-H-8B");
        MambaLayers y = layers(e8);
        ModelShape m = shape(e8);
        assertEquals(4096.0 * 18560 + 8192.0 * 4096 + 10240.0 * 5 + 3 * 128 + 8192 + 4096, y.mambaLayerParameters(m));
        double attention = 4096.0 * 32 * 128 * 2 + 4096.0 * 8 * 128 * 2 + 4096, mlp = 2 * 4096.0 * 21504 + 4096;
        assertEquals(24 * y.mambaLayerParameters(m) + 4 * attention + 24 * mlp + 4096 + 2 * 131072.0 * 4096, y.parameters(m), 1);
        assertEquals(8.100852736e9, y.parameters(m), 1);
    }

    /** Megatron-LM's hybrid_flops, written out from training.py for batch 1: 3 × the forward, per sequence. */
    private static double megatronHybridFlops(long seq, long hidden, int attnLayers, int mambaLayers, int mlpLayers, long stateDim,
                                              long headDim, long groups, long mambaHeads, long attnHeads, long queryGroups,
                                              long kvChannels, double mlpExpansion, boolean swiglu, long vocab) {
        double b = 1, s = seq, h = hidden;
        // attn_layer_flops: p = kv_channels × num_heads / hidden_size; g = gqa_groups
        double p = (double) kvChannels * attnHeads / h, g = queryGroups;
        double attn = 4 * b * s * h * p * (h + (h * (g / attnHeads)) + (s / 2));
        // mlp_layer_flops
        double mlp = 4 * mlpExpansion * (swiglu ? 3.0 / 2.0 : 1.0) * b * s * h * h;
        // mamba_layer_flops: d_in = 2 × hidden_size
        double dIn = 2 * h;
        double mamba = 2 * b * s * h * (2 * dIn + 2 * groups * stateDim + mambaHeads) + 7 * b * s * dIn * stateDim + 2 * b * s * dIn * h;
        double fwd = attnLayers * attn + mlpLayers * mlp + mambaLayers * mamba + 2 * b * s * h * vocab;
        return fwd * 3;
    }

    @Test
    void modelFlopsAreMegatronsCountForHybridModels() {
        for (String name : List.of("Nemotron-H-8B", "Nemotron-H-56B", "Nemotron-Nano-9B-v2")) {
            Models.Entry e = entry(name);
            Models.Hybrid h = MODELS.hybrid(e).orElseThrow();
            ModelShape m = shape(e);
            double megatron = megatronHybridFlops(m.seq(), m.hidden(), (int) h.count('*'), (int) h.count('M'), (int) h.count('-'),
                    h.stateSize(), h.mambaHeadDim(), h.groups(), h.mambaHeads(), m.heads(), m.kvHeads(), m.headDim(),
                    (double) m.ffn() / m.hidden(), m.gatedMlp(), m.vocab()) / m.seq();
            assertEquals(megatron, layers(e).modelFlopsPerToken(m), 1e-9 * megatron, name);
        }
        // the count is no transformer's: the 8B's 52 layers priced as attention + MLP would count 63 % more
        Models.Entry e = entry("Nemotron-H-8B");
        assertTrue(shape(e).modelFlopsPerToken() > 1.5 * layers(e).modelFlopsPerToken(shape(e)));
    }

    private static Specs.Hybrid stated(String pattern) {
        Span at = Span.at("model_config.yaml", 1, 1);
        return new Specs.Hybrid(new Located<>(pattern, at), null, null, null, null, null, null, 0, null, java.util.Set.of());
    }

    @Test
    void megatronsDefaultsAreTakenAndSaidAndPatternsItCannotPriceAreSaid() {
        ModelShape m = ModelShape.gpt(8, 1024, 16, 50304, 4096, ModelShape.Dtype.BF16);
        List<String> as = new ArrayList<>();
        MambaLayers y = MambaLayers.of(stated("M-M*M-M-"), m, null, as);
        assertEquals(new MambaLayers(4, 1, 3, 0, 32, 64, 128, 8, 4, new MambaLayers.LayerPattern("M-M*M-M-"), null, null), y);
        assertEquals(List.of("Mamba state size not given: 128 (Megatron-LM's --mamba-state-dim default)",
                "Mamba head dimension not given: 64 (Megatron-LM's --mamba-head-dim default)",
                "Mamba groups not given: 8 (Megatron-LM's --mamba-num-groups default)",
                "Mamba heads not given: 32 (MambaMixer's d_inner = 2 × hidden ÷ the head dimension)",
                "Mamba conv1d width not given: 4 (MambaMixer's d_conv default)"), as.subList(0, 5));
        assertTrue(as.get(5).startsWith("hybrid Mamba layers priced by kind: 4 Mamba-2 (32 heads × 64, state 128, 8 groups, conv 4: "), as.get(5));
        // a pattern of another length than the layers, or with MoE layers but no experts: not priced by kind, and said
        List<String> odd = new ArrayList<>();
        assertNull(MambaLayers.of(stated("M-M*"), m, null, odd));
        assertEquals(List.of("hybrid layer pattern of 4 layers where the model has 8: not priced by kind; every layer is priced as a"
                + " transformer layer"), odd);
        List<String> moe = new ArrayList<>();
        assertNull(MambaLayers.of(stated("MEMEM*ME"), m, null, moe));
        assertEquals(List.of("hybrid layer pattern with 3 MoE layers but no experts stated (model.experts): not priced by kind; every"
                + " layer is priced as a transformer layer (attention + MLP or MoE), its Mamba-2 layers included, so time and memory are"
                + " overstated for them"), moe);
        assertNull(MambaLayers.of(null, m, null, moe));
    }

    @Test
    void aHybridIsPricedByItsKindsBesideTheSameShapeAsTransformerLayers() {
        // Nemotron-H 8B's attention and MLP sizes on one DGX H100 (tp 2, dp 4), its 52 layers as transformer layers, then by kind
        JobEstimate j = EstimateManifest.h100().name("nh8")
                .model("dtype: bf16, layers: 52, hidden_size: 4096, attention_heads: 32, kv_heads: 8, ffn_hidden_size: 21504,"
                        + " vocab_size: 131072, gated_mlp: false, tied_embeddings: false, seq_length: 8192")
                .parallelism("tp: 2").batch(1, 64).optimizer("distributed: true").recompute("selective").estimate();
        JobInputs in = j.inputs();
        Models.Entry e = entry("Nemotron-H-8B");
        MambaLayers y = layers(e);
        Variants v = in.variants();
        Variants hybrid = v.withMamba(y);
        Estimate asTransformer = Estimator.estimate(in.model(), in.layout(), in.hardware(), in.order(), in.bytes(), v);
        Estimate byKind = Estimator.estimate(in.model(), in.layout(), in.hardware(), in.order(), in.bytes(), hybrid);
        ModelShape m = in.model();
        // the stage holds the hybrid's parameters ÷ tp (one stage: the layers, the final norm, both embeddings)
        assertEquals(y.parameters(m) / 2, byKind.stages().get(0).parameters(), 1e-6 * y.parameters(m));
        assertTrue(byKind.stages().get(0).total() < asTransformer.stages().get(0).total());
        assertTrue(byKind.time().step() < asTransformer.time().step());
        // the compute term's linear FLOPs are the mean layer's: 6 × the matrices per token, ÷ tp, per micro-batch's 8,192 tokens
        Term.Compute c = byKind.terms().stream().filter(Term.Compute.class::isInstance).map(Term.Compute.class::cast).findFirst().orElseThrow();
        assertEquals(8192.0 * y.meanLinearFlopsPerToken(m) / 2, c.linearFlops(), 1e-9 * c.linearFlops());
        assertEquals(8192.0 * m.attentionExecutedFlopsPerTokenLayer() * 4 / 52 / 2, c.attentionFlops(), 1e-9 * c.attentionFlops());
        // the SSD path's bytes: 24 of 52 layers × 4,096 tokens per GPU's heads × the Mamba-2 layer's bytes per token, its
        // kernels forward and backward (58d + 66g + 164H + 11.5s + 8c: d 8,192, g = G·N 1,024, H 128, s = 4·d·N/Q 32,768,
        // c = 4·G·Q 4,096)
        Term.Ssd s = byKind.terms().stream().filter(Term.Ssd.class::isInstance).map(Term.Ssd.class::cast).findFirst().orElseThrow();
        double perToken = 58.0 * 8192 + 66.0 * 1024 + 164.0 * 128 + 11.5 * 32768 + 8.0 * 4096;
        assertEquals(973_312.0, perToken);
        assertEquals(perToken, s.bytesPerToken());
        assertEquals(4096 * perToken * 24 / 52, s.bytes(), 1e-9 * s.bytes());
        assertTrue(asTransformer.terms().stream().noneMatch(Term.Ssd.class::isInstance));
        // the elementwise bytes: the fitted traffic on the mean layer's stored bytes, and the SSD path's
        double traffic = in.hardware().efficiency().traffic();
        assertEquals(traffic * Estimator.perLayerActivationBytes(m, in.layout(), y) + s.bytes(), c.elementwiseBytes(), 1e-9 * c.elementwiseBytes());
        // MFU counts Megatron's hybrid FLOPs
        assertEquals(y.modelFlopsPerToken(m) * byKind.throughput().tokensPerSecondPerGpu() / 1e12, byKind.throughput().modelTflopsPerGpu(),
                1e-9 * byKind.throughput().modelTflopsPerGpu());
    }

    /**
     * cp 2 over Nemotron-H 8B's mixers (128 heads × 64: d_inner 8,192; 8 groups of state 128; 24 of 52 layers Mamba-2) at tp 2
     * on one DGX H100: each Mamba-2 layer's six all-to-alls forward (z, x, B, C, dt to a head split, y back; MambaContextParallel)
     * and six backward, over the cp group. Per token a rank holds (3 × 8,192 + 128) ÷ 2 + 2 × max(8 ÷ 2, 2) × 128 = 13,376
     * elements, 2 bytes each, of its 8,192 ÷ 2 = 4,096 tokens: S = 4,096 × 13,376 × 2 ÷ 6 per all-to-all, 2 × 6 × 24 = 288 of them
     * on the one stage (selective recompute: none again). They add to the cp time and its exposed share in full.
     */
    @Test
    void cpPricesTheMambaMixersAllToAllsOnTheCpGroup() {
        JobEstimate j = EstimateManifest.h100().name("nh8cp")
                .model("dtype: bf16, layers: 52, hidden_size: 4096, attention_heads: 32, kv_heads: 8, ffn_hidden_size: 21504,"
                        + " vocab_size: 131072, gated_mlp: false, tied_embeddings: false, seq_length: 8192")
                .parallelism("tp: 2, cp: 2").batch(1, 64).optimizer("distributed: true").recompute("selective").estimate();
        JobInputs in = j.inputs();
        MambaLayers y = layers(entry("Nemotron-H-8B"));
        Variants v = in.variants();
        Variants hybrid = v.withMamba(y);
        Estimate e = Estimator.estimate(in.model(), in.layout(), in.hardware(), in.order(), in.bytes(), hybrid);
        assertEquals(13376.0, y.mambaCpElementsPerToken(2, 2));
        List<Term.Collectives> a2a = e.terms().stream().filter(Term.Collectives.class::isInstance).map(Term.Collectives.class::cast)
                .filter(c -> c.dim() == dev.gpulint.spec.ParallelDim.CP).toList();
        assertEquals(1, a2a.size(), a2a.toString());
        Term.Collectives c = a2a.get(0);
        assertTrue(c.what().startsWith("Mamba-2 all-to-all per micro-batch (z, x, B, C, dt to a head split and y back, 6 a layer"), c.what());
        assertEquals(Collective.ALL_TO_ALL, c.cost().collective());
        assertEquals(2, c.n());
        assertEquals(288.0, c.count(), 1e-9);
        assertEquals(4096.0 * 13376 * 2 / 6, c.cost().bytes(), 1e-6);
        // the cp time per step: the attention layers' K/V ring and these, over the 64 ÷ (1 × dp 2) = 32 micro-batches
        double ring = e.terms().stream().filter(Term.Sends.class::isInstance).map(Term.Sends.class::cast)
                .filter(s -> s.dim() == dev.gpulint.spec.ParallelDim.CP).mapToDouble(Term.Sends::seconds).sum();
        assertTrue(ring > 0);
        assertEquals(32 * (ring + c.seconds()), e.time().comm().get(dev.gpulint.spec.ParallelDim.CP), 1e-9);
        // without the exchange (the same layout as transformer layers: no mixer) the cp time is the ring's alone
        Estimate asTransformer = Estimator.estimate(in.model(), in.layout(), in.hardware(), in.order(), in.bytes(), v);
        assertTrue(asTransformer.terms().stream().noneMatch(t -> t instanceof Term.Collectives k && k.dim() == dev.gpulint.spec.ParallelDim.CP));
    }

    @Test
    void inFp8AHybridCastsItsOwnGemmInputs() {
        JobEstimate j = EstimateManifest.h100().name("nh8")
                .model("dtype: fp8, layers: 52, hidden_size: 4096, attention_heads: 32, kv_heads: 8, ffn_hidden_size: 21504,"
                        + " vocab_size: 131072, gated_mlp: false, tied_embeddings: false, seq_length: 8192")
                .parallelism("tp: 2").batch(1, 64).optimizer("distributed: true").recompute("selective").estimate();
        JobInputs in = j.inputs();
        MambaLayers y = layers(entry("Nemotron-H-8B"));
        Variants v = in.variants();
        Variants hybrid = v.withMamba(y);
        Estimate e = Estimator.estimate(in.model(), in.layout(), in.hardware(), in.order(), in.bytes(), hybrid);
        ModelShape m = in.model();
        Term.Compute c = e.terms().stream().filter(Term.Compute.class::isInstance).map(Term.Compute.class::cast).findFirst().orElseThrow();
        Term.Ssd s = e.terms().stream().filter(Term.Ssd.class::isInstance).map(Term.Ssd.class::cast).findFirst().orElseThrow();
        // per token of the mean layer: 24 × (4,096 + 8,192) + 4 × (4,096 + 4,096) + 24 × (4,096 + 21,504), over 52 layers
        assertEquals((24 * 12288.0 + 4 * 8192.0 + 24 * 25600.0) / 52, y.meanGemmInputs(m));
        double casts = 6 * 8192.0 * y.meanGemmInputs(m) / 2;
        double traffic = in.hardware().efficiency().traffic();
        assertEquals(traffic * Estimator.perLayerActivationBytes(m, in.layout(), y) + s.bytes() + casts, c.elementwiseBytes(),
                1e-9 * c.elementwiseBytes());
    }

    /** Nemotron-H 8B's sizes with the given attention kernel and recompute: {as transformer layers, by kind}. */
    private static Estimate[] nemotronH(String kernel, String recompute) {
        JobEstimate j = EstimateManifest.h100().name("nh8")
                .model("dtype: bf16, layers: 52, hidden_size: 4096, attention_heads: 32, kv_heads: 8, ffn_hidden_size: 21504,"
                        + " vocab_size: 131072, gated_mlp: false, tied_embeddings: false, seq_length: 8192, attention: { kernel: " + kernel + " }")
                .parallelism("tp: 2").batch(1, 64).optimizer("distributed: true").recompute(recompute).estimate();
        JobInputs in = j.inputs();
        Variants v = in.variants();
        Variants hybrid = v.withMamba(layers(entry("Nemotron-H-8B")));
        return new Estimate[] {
                Estimator.estimate(in.model(), in.layout(), in.hardware(), in.order(), in.bytes(), v),
                Estimator.estimate(in.model(), in.layout(), in.hardware(), in.order(), in.bytes(), hybrid)};
    }

    private static Term.UnfusedAttention unfusedTerm(Estimate e) {
        return e.terms().stream().filter(Term.UnfusedAttention.class::isInstance).map(Term.UnfusedAttention.class::cast).findFirst().orElseThrow();
    }

    @Test
    void anUnfusedHybridPricesItsAttentionLayersPassesAndKeepsOnlyTheirScores() {
        // review8: a hybrid's unfused attention was priced at the fused kernel's rate while its memory counted scores on all
        // 52 layers; only the 4 attention layers have them, in time and in memory
        Estimate[] none = nemotronH("unfused", "none"), fused = nemotronH("fused", "none");
        Term.UnfusedAttention asTransformer = unfusedTerm(none[0]), byKind = unfusedTerm(none[1]);
        assertEquals(1, asTransformer.attentionShare());
        assertEquals(4.0 / 52, byKind.attentionShare(), 1e-15);
        assertEquals(asTransformer.seconds(), byKind.seconds(), 1e-15, "one attention layer's core is the same");
        assertEquals(byKind.seconds() * 4 / 52, byKind.layerSeconds(), 1e-15);
        Term.Compute c = none[1].terms().stream().filter(Term.Compute.class::isInstance).map(Term.Compute.class::cast).findFirst().orElseThrow();
        assertEquals(0, c.attentionFlops(), "no flash attention beside the unfused term");
        assertTrue(none[1].time().step() > fused[1].time().step());
        // the scores kept without recompute: 5 bytes a score, b·s·s·a/tp = 8,192² × 16 per layer, on the 4 attention layers only
        double perLayer = 5.0 * 8192 * 8192 * 32 / 2;
        assertEquals(4 * perLayer, none[1].stages().get(0).activations() - fused[1].stages().get(0).activations(), 1);
        assertEquals(52 * perLayer, none[0].stages().get(0).activations() - fused[0].stages().get(0).activations(), 1);
        // recomputed (selective: core_attn): one attention layer's scores while it runs backward
        Estimate[] sel = nemotronH("unfused", "selective"), selFused = nemotronH("fused", "selective");
        assertEquals(perLayer, sel[1].stages().get(0).activations() - selFused[1].stages().get(0).activations(), 1);
    }

    /**
     * The SSD path kernel by kernel (mamba_ssm ssd_combined.py at d757aef1, MambaSplitConv1dScanCombinedFn as Megatron-Core's
     * _ssm_training calls it: z in the scan, no norm weight), per token of one Mamba-2 layer of Nemotron 3 Nano's sizes (64
     * heads × 64: d 4,096; 8 groups of state 128: g 1,024; Q 128: the fp32 states s = 4 × 4,096 × 128 ÷ 128 = 16,384 bytes and
     * the fp32 CB c = 4 × 8 × 128 = 4,096 bytes a token), each kernel's reads and writes summed by hand: the forward's six
     * (conv1d, chunk cumsum, chunk state, state passing, CB, chunk scan with out and out_x), the backward's nineteen (the
     * conv1d, cumsum, CB, chunk states and their passing recomputed, then dz, dstates, state passing, dx, dB, dC, dCB, two CB
     * backwards, the ddA sums, ddAcs, cumsum backward and the conv1d's backward). Against the forward tripled (283 KB) the
     * backward's own count is what was missing.
     */
    @Test
    void theSsdPathIsCountedKernelByKernel() {
        MambaLayers y = new MambaLayers(23, 6, 23, 0, 64, 64, 128, 8, 4, new MambaLayers.LayerPattern(NANO3.replace('E', '-')), null, null);
        double d = 4096, g = 1024, h = 64, s = 16384, c = 4096;
        double forward = (4 * d + 8 * g)                              // causal conv1d: xBC in and out
                + 10 * h                                              // chunk cumsum: dt in, dt and dA_cumsum out in fp32
                + (2 * d + 2 * g + 8 * h + s)                         // chunk state: x, B, dt, dA_cumsum in; fp32 states out
                + 1.5 * s                                             // state passing: fp32 in, C's dtype out
                + (4 * g + c)                                         // CB: C and B in, fp32 CB out
                + (8 * d + 2 * g + 8 * h + s / 2 + c);                // chunk scan: CB, x, z, dt, dA, C, states in; out, out_x out
        double backward = (4 * d + 8 * g) + 4 * h + 10 * h + (4 * g + c) + (2 * d + 2 * g + 8 * h + s) + 2 * s   // recomputed
                + 12 * d                                              // dz: x, z, out_x, dout in; dz and the gated dout out
                + (2 * d + 2 * g + 4 * h + s)                         // dstates
                + 3 * s                                               // state passing backward
                + (6 * d + 2 * g + 12 * h + s / 2 + c)                // dx
                + (2 * d + 4 * g + 12 * h + s / 2)                    // dB
                + (2 * d + 4 * g + 8 * h + s / 2)                     // dC
                + (4 * d + 8 * h + c)                                 // dCB
                + 2 * (6 * g + c)                                     // the two CB backwards
                + 48 * h                                              // ddA_prev's reverse cumsum, the three ddA summed
                + (4 * d + 12 * h + c)                                // ddAcs
                + 12 * h                                              // chunk cumsum backward
                + (6 * d + 12 * g);                                   // conv1d backward
        assertEquals(132_736.0, forward);
        assertEquals(404_096.0, backward);
        assertEquals(forward + backward, y.ssdBytesPerToken());
        assertEquals(536_832.0, y.ssdBytesPerToken());
        // the mean layer carries 23 of 52 layers' worth
        assertEquals(23 * 536_832.0 / 52, y.meanSsdBytesPerToken(), 1e-9);
    }

    /** Nemotron 3 Nano's pattern (nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 config.json): 23 Mamba-2, 6 attention and 23 MoE layers. */
    private static final String NANO3 = "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME";

    /** Nemotron 3 Nano's sizes as a native manifest writes them (model.hybrid), on one DGX H100 with the given layout. */
    private static JobEstimate nano3(String parallelism) {
        return nano3(NANO3, parallelism);
    }

    /** The same with the pattern {@code pattern} (NANO3 with '|' between pipeline stages). */
    private static JobEstimate nano3(String pattern, String parallelism) {
        return EstimateManifest.h100().name("nano3")
                .model("dtype: bf16, layers: 52, hidden_size: 2688, attention_heads: 32, kv_heads: 2, head_dim: 128, ffn_hidden_size: 1856,"
                        + " vocab_size: 131072, gated_mlp: false, tied_embeddings: false, seq_length: 8192, experts: 128, top_k: 6,"
                        + " moe: { shared_expert_ffn_hidden_size: 3712, grouped_gemm: true, dispatcher: alltoall },"
                        + " hybrid: { pattern: \"" + pattern + "\", mamba_num_heads: 64, mamba_head_dim: 64, mamba_state_dim: 128,"
                        + " mamba_num_groups: 8, mamba_conv_kernel: 4 }")
                .parallelism(parallelism).batch(1, 64).optimizer("distributed: true").recompute("selective").estimate();
    }

    @Test
    void aHybridsMoeLayersArePricedAsMoeLayers() {
        JobEstimate j = nano3("tp: 1, ep: 8");
        JobInputs in = j.inputs();
        ModelShape m = in.model();
        MambaLayers y = in.variants().mamba();
        assertEquals(new MambaLayers(23, 6, 0, 23, 64, 64, 128, 8, 4, new MambaLayers.LayerPattern(NANO3), in.variants().moe(), null), y);
        assertTrue(in.variants().moe().hybrid());
        assertEquals(23, in.variants().moe().moeLayers());
        assertEquals(0, in.variants().moe().denseLayers(m), "no dense transformer layer in a hybrid");
        // the parameters: 31.6 B (the model card's total), the routed experts 23 × 128 × 2 × 2,688 × 1,856
        double routed = 23 * 128 * 2 * 2688.0 * 1856;
        assertEquals(31.6e9, y.parameters(m), 0.01 * 31.6e9);
        assertEquals(routed + 23 * 2 * 2688.0 * 3712, y.expertParameters(m));
        // the one stage holds all but the routed experts, and an eighth of those (ep 8)
        Estimate e = j.estimate();
        assertEquals(y.parameters(m) - routed * 7 / 8, e.stages().get(0).parameters(), 1e-6 * y.parameters(m));
        // the moe term prices the 23 E layers, no dense layer; the mean layer's GEMMs are the Mamba-2 and attention layers' only
        Term.Moe moe = e.terms().stream().filter(Term.Moe.class::isInstance).map(Term.Moe.class::cast).findFirst().orElseThrow();
        assertEquals(23, moe.moeLayers());
        assertEquals(52, moe.layers());
        assertEquals(0, moe.denseLayers());
        assertEquals(16, moe.localExperts());
        Term.Compute c = e.terms().stream().filter(Term.Compute.class::isInstance).map(Term.Compute.class::cast).findFirst().orElseThrow();
        assertEquals(8192.0 * 6 * (23 * y.mixerMatrices(m) + 6 * m.attentionParameters()) / 52, c.linearFlops(), 1e-9 * c.linearFlops());
        assertEquals(6.0 * 29 / 52, y.meanKernels(), 1e-15);
        // the experts' all-to-alls: ep 8 inside the node
        assertTrue(e.time().comm().get(dev.gpulint.spec.ParallelDim.EP) > 0);
        // model FLOPs as Megatron-LM's hybrid_flops counts them: moe_layer_flops 4·h·(ffn·k + shared) per token, forward
        double h = 2688, s = 8192, din = 2 * h;
        double attn = 4 * 32 * 128 * (h + h * 2.0 / 32 + s / 2);
        double mamba = 2 * h * (2 * din + 2 * 8 * 128 + 64) + 7 * din * 128 + 2 * din * h;
        double moeF = 4 * h * (1856 * 6 + 3712);
        double megatron = 3 * (6 * attn + 23 * mamba + 23 * moeF + 2 * h * m.vocab());
        assertEquals(megatron, y.modelFlopsPerToken(m), 1e-9 * megatron);
        assertTrue(j.inputs().assumptions().stream().anyMatch(a -> a.contains("6 attention-only, 0 MLP-only and 23 MoE (128 experts, top 6,"
                + " expert width 1856, shared experts 3712: priced as MoE layers, MoeCost) of 52 layers")), j.inputs().assumptions().toString());
    }

    @Test
    void eachPipelineStageHoldsItsOwnSliceOfThePattern() {
        // pp 2: Megatron-Core's MambaStack builds layers 0-25 on the first stage and 26-51 on the second, so the experts on each
        // are its own E layers' (11 and 12 here), not the mean's 11.5
        JobEstimate j = nano3("tp: 1, pp: 2, ep: 4");
        JobInputs in = j.inputs();
        ModelShape m = in.model();
        MambaLayers y = in.variants().mamba();
        String first = NANO3.substring(0, 26), second = NANO3.substring(26);
        long e0 = first.chars().filter(c -> c == 'E').count(), e1 = second.chars().filter(c -> c == 'E').count();
        assertEquals(List.of(11L, 12L), List.of(e0, e1));
        assertEquals(List.of(12.0, 3.0, 0.0, 11.0, 0.0), java.util.Arrays.stream(y.onStage(m, in.layout(), 0)).boxed().toList());
        double expert = 128 * 2 * 2688.0 * 1856 / 4;
        double[] s0 = MemoryModel.stageSplit(m, in.layout(), 0, in.variants()), s1 = MemoryModel.stageSplit(m, in.layout(), 1, in.variants());
        assertEquals(e0 * expert, s0[1], 1);
        assertEquals(e1 * expert, s1[1], 1);
        // both stages together: the whole model, its routed experts a quarter each
        double routed = 23 * 128 * 2 * 2688.0 * 1856;
        assertEquals(y.parameters(m) - routed * 3 / 4, s0[0] + s0[1] + s1[0] + s1[1], 1e-6 * y.parameters(m));
        // interleaved, the stage's share of each kind instead: 4 segments of 13 on pp 2 are 2 virtual stages a rank (Megatron-Core
        // refuses virtual stages without '|': select_pipeline_segment)
        String piped = NANO3.substring(0, 13) + "|" + NANO3.substring(13, 26) + "|" + NANO3.substring(26, 39) + "|" + NANO3.substring(39);
        JobInputs v = nano3(piped, "tp: 1, pp: 2, ep: 4").inputs();
        assertEquals(2, v.layout().virtualPp());
        assertEquals(List.of(11.5, 3.0, 0.0, 11.5, 0.0), java.util.Arrays.stream(y.onStage(m, v.layout(), 0)).boxed().toList());
    }

    @Test
    void aHybridsMoeLayersAreItsPatternsWhateverALayerFrequencySays() {
        JobEstimate j = EstimateManifest.h100().name("nano3")
                .model("dtype: bf16, layers: 52, hidden_size: 2688, attention_heads: 32, kv_heads: 2, head_dim: 128, ffn_hidden_size: 1856,"
                        + " vocab_size: 131072, gated_mlp: false, tied_embeddings: false, seq_length: 8192, experts: 128, top_k: 6,"
                        + " moe: { layer_freq: 2 }, hybrid: { pattern: \"" + NANO3 + "\" }")
                .parallelism("tp: 1, ep: 8").batch(1, 64).optimizer("distributed: true").recompute("selective").estimate();
        assertEquals(23, j.inputs().variants().moe().moeLayers());
        assertTrue(j.inputs().assumptions().stream().anyMatch(a -> a.startsWith("MoE layer pattern '2' (") && a.endsWith(") not used: a"
                + " hybrid's MoE layers are its pattern's E layers (Megatron-Core's MambaStack builds one layer per character and reads no"
                + " --moe-layer-freq)")), j.inputs().assumptions().toString());
        // without it, nothing said
        assertTrue(nano3("tp: 1, ep: 8").inputs().assumptions().stream().noneMatch(a -> a.contains("not used: a hybrid's MoE layers")));
    }

    @Test
    void aHybridWithMoeLayersAndNoExpertsIsSaidAndPricedAsTransformerLayers() {
        JobEstimate j = EstimateManifest.h100().name("nano3")
                .model("dtype: bf16, layers: 52, hidden_size: 2688, attention_heads: 32, kv_heads: 2, head_dim: 128, ffn_hidden_size: 1856,"
                        + " vocab_size: 131072, gated_mlp: false, tied_embeddings: false, seq_length: 8192,"
                        + " hybrid: { pattern: \"" + NANO3 + "\", mamba_num_heads: 64 }")
                .parallelism("tp: 1").batch(1, 64).optimizer("distributed: true").recompute("selective").estimate();
        assertNull(j.inputs().variants().mamba());
        assertTrue(j.inputs().assumptions().contains("hybrid layer pattern with 23 MoE layers but no experts stated (model.experts): not"
                + " priced by kind; every layer is priced as a transformer layer (attention + MLP or MoE), its Mamba-2 layers included, so"
                + " time and memory are overstated for them"), j.inputs().assumptions().toString());
    }

    /** The layers of each kind in {@code pattern}'s characters from {@code from} to {@code to}, counted one by one. */
    private static double[] directCount(String pattern, int from, int to) {
        double[] k = new double[5];
        for (char c : pattern.substring(from, to).toCharArray()) k["M*-EG".indexOf(c)]++;
        return k;
    }

    @Test
    void thePatternsCountsUpToEachLayerGiveEverySlicesKinds() {
        // every slice of Nemotron 3 Nano's pattern, each kind, against the slice's characters counted one by one
        MambaLayers.LayerPattern p = new MambaLayers.LayerPattern(NANO3);
        for (int from = 0; from <= NANO3.length(); from++) {
            for (int to = from; to <= NANO3.length(); to++) {
                double[] want = directCount(NANO3, from, to);
                for (int k = 0; k < 5; k++) assertEquals(want[k], p.count(k, from, to), from + ".." + to + " kind " + k);
            }
        }
        assertEquals(new MambaLayers.LayerPattern(NANO3), p, "equal by its text");
        assertEquals(NANO3.hashCode(), p.hashCode());
        assertEquals(NANO3, p.toString());
    }

    @Test
    void eachStagesKindsAreItsSliceOfThePatternUnderEverySplit() {
        JobInputs in = nano3("tp: 1, pp: 4, ep: 4").inputs();
        ModelShape m = in.model();
        MambaLayers y = in.variants().mamba();
        record Case(String name, int pp, int vpp, PipelineSplit split, List<Integer> sizes) {}
        // whole-layer stages: each one's own slice from the stages before it
        for (Case c : List.of(new Case("even, 13 each", 4, 1, PipelineSplit.EVEN, List.of(13, 13, 13, 13)),
                new Case("first 10 and last 12 by hand, 15 each between", 4, 1, new PipelineSplit(10, 12, false, false), List.of(10, 15, 15, 12)),
                new Case("laid out stage by stage", 3, 1, PipelineSplit.laidOut(List.of(20L, 7L, 25L)), List.of(20, 7, 25)),
                new Case("one stage", 1, 1, PipelineSplit.EVEN, List.of(52)))) {
            Layout l = in.layout().withSizes(1, c.pp(), 1, 1, 1, c.vpp()).withSplit(c.split());
            int from = 0;
            for (int i = 0; i < c.pp(); i++) {
                int n = c.sizes().get(i);
                assertEquals(n, MemoryModel.stageLayers(m, l, i), c.name() + ": stage " + i + "'s layers");
                assertEquals(java.util.Arrays.stream(directCount(NANO3, from, from + n)).boxed().toList(),
                        java.util.Arrays.stream(y.onStage(m, l, i)).boxed().toList(), c.name() + ": stage " + i);
                from += n;
            }
            assertEquals(52, from, c.name());
        }
        // interleaved (vpp 2), or a stage of fractional layers or from a fractional offset (pp 8: 6.5 each; first 11 and last
        // 10 by hand, 15.5 on each between, the last from layer 42): the stage's share of each kind (23 Mamba-2, 6 attention,
        // 0 MLP, 23 MoE over 52 layers); a whole stage from a whole offset keeps its slice (the hand-sized 11 and 10)
        for (Case c : List.of(new Case("interleaved", 2, 2, PipelineSplit.EVEN, List.of(-1, -1)),
                new Case("6.5 each", 8, 1, PipelineSplit.EVEN, List.of(-1, -1, -1, -1, -1, -1, -1, -1)),
                new Case("15.5 between two by hand", 4, 1, new PipelineSplit(11, 10, false, false), List.of(0, -1, -1, 42)))) {
            Layout l = in.layout().withSizes(1, c.pp(), 1, 1, 1, c.vpp()).withSplit(c.split());
            for (int i = 0; i < c.pp(); i++) {
                double n = MemoryModel.stageLayers(m, l, i), share = n / 52;
                int from = c.sizes().get(i);
                List<Double> want = from < 0 ? List.of(23 * share, 6 * share, 0 * share, 23 * share, 0 * share)
                        : java.util.Arrays.stream(directCount(NANO3, from, from + (int) n)).boxed().toList();
                assertEquals(want, java.util.Arrays.stream(y.onStage(m, l, i)).boxed().toList(), c.name() + ": stage " + i);
            }
        }
    }
}
