package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.testing.EstimateManifest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The layers an fp8 recipe keeps in bf16 (LayerPrecision, Megatron's --first-last-layers-bf16): their GEMMs at the 16-bit
 * rate, without the fp8 input casts, their weights all-gathered in 16 bits. Llama 3 8B on one 8-GPU H100 host at 8,192
 * tokens, the shape of Megatron-Bridge's Llama 3 8B H100 rows; numbers by hand from the catalog's H100 rates.
 */
class LayerPrecisionTest {

    /** H100 SXM: bf16 989.5 TFLOP/s × gemm 0.69, fp8 1,979 × gemm_fp8 0.62, HBM 3.35 TB/s × hbm 0.8 (the catalog). */
    static final double BF16_RATE = 989.5e12 * 0.69, FP8_RATE = 1979e12 * 0.62, HBM = 3.35e12 * 0.8;

    /** One Llama 3 8B layer at tp 1 and 8,192 tokens: 6 × (41,943,040 attention + 176,160,768 MLP parameters) × 8,192. */
    static final double LINEAR = 10_720_238_370_816.0;

    /** Its per-tensor casts: 6 bytes × 8,192 × (h + a·d + h + ffn = 4,096 + 4,096 + 4,096 + 14,336). */
    static final double CASTS = 1_308_622_848.0;

    /** One bf16 layer's seconds beyond an fp8 one's: the GEMMs at the 16-bit rate, less the casts (≈ 6.476 ms). */
    static final double EXTRA = LINEAR * (1 / BF16_RATE - 1 / FP8_RATE) - CASTS / HBM;

    private static JobEstimate llama(String dtype, String par, String... lines) {
        EstimateManifest m = EstimateManifest.h100().model(EstimateManifest.LLAMA3_8B.replace("dtype: bf16", "dtype: " + dtype)
                + ", seq_length: 8192").parallelism(par).batch(1, 128).optimizer("distributed: true").recompute("none");
        for (String l : lines) m.line(l);
        return m.estimate();
    }

    private static Term.Bf16Layers term(Estimate e) {
        List<Term.Bf16Layers> t = e.terms().stream().filter(Term.Bf16Layers.class::isInstance).map(Term.Bf16Layers.class::cast).toList();
        return t.isEmpty() ? null : t.get(0);
    }

    private static Term.Compute compute(Estimate e) {
        return e.terms().stream().filter(Term.Compute.class::isInstance).map(Term.Compute.class::cast).findFirst().orElseThrow();
    }

    private static List<String> said(JobEstimate j, String head) {
        return j.inputs().assumptions().stream().filter(s -> s.startsWith(head)).toList();
    }

    @Test
    void aBf16LayerRunsItsGemmsAtThe16BitRateWithoutTheCasts() {
        JobEstimate onJob = llama("fp8", "tp: 1, pp: 1", "fp8_layers_bf16: { start: 1, end: 1 }");
        Estimate on = onJob.estimate(), off = llama("fp8", "tp: 1, pp: 1").estimate();
        Term.Bf16Layers t = term(on);
        assertEquals(1, t.start());
        assertEquals(1, t.end());
        assertEquals(32, t.layers());
        assertEquals(LINEAR, t.linearFlops(), 1);
        assertEquals(FP8_RATE, t.gemmRate(), 1);
        assertEquals(BF16_RATE, t.bf16Rate(), 1);
        assertEquals(CASTS, t.castBytes(), 1e-3);
        assertEquals(0, t.float8Seconds(), 0);
        assertEquals(0, t.moeSeconds(), 0);
        assertEquals(EXTRA, t.extraSeconds(), 1e-12);
        assertEquals(6.476e-3, t.extraSeconds(), 0.001e-3);
        // one stage holds both: the compute per micro-batch grows by exactly two such layers
        assertEquals(2, t.stageLayers(), 0);
        assertEquals(2 * EXTRA, t.seconds(), 1e-12);
        assertEquals(compute(off).seconds() + 2 * EXTRA, compute(on).seconds(), 1e-12);
        assertTrue(on.time().step() > off.time().step());
        assertEquals(List.of("layers kept in bf16 (fp8_layers_bf16): the first 1 and the last 1 of 32 transformer layers run their"
                + " GEMMs at the 16-bit rate without fp8 input casts, their weights all-gathered in 16 bits under fp8 parameter"
                + " gathering (bf16-layers)"), said(onJob, "layers kept in bf16"));
        assertEquals("the first 1 and the last 1 of 32 layers in bf16 (LayerPrecision): per such layer linear 10.7 TFLOP at 683 instead"
                + " of 1227 TFLOP/s = +7.0 ms, its input casts not made 1.31 GB at 2680 GB/s = −488.3 µs: +6.5 ms per layer and"
                + " micro-batch; the slowest stage holds 2 of them: +13.0 ms per micro-batch (in the compute above)",
                dev.gpulint.plan.EstimateWords.text(t));
    }

    @Test
    void theFirstLayersSitOnTheFirstStageTheLastOnTheLast() {
        JobEstimate j = llama("fp8", "tp: 2, pp: 4, virtual_pp: 2", "fp8_layers_bf16: { start: 1, end: 1 }");
        ModelShape m = j.inputs().model();
        Layout l = j.inputs().layout();
        // 32 layers over pp 4 × vpp 2: eight chunks of 4, chunk c on stage c mod 4
        assertArrayEquals(new double[] {1, 0, 0, 1}, new LayerPrecision(1, 1).perStage(m, l), 0);
        // five first layers fill chunk 0 (stage 0) and one of chunk 1 (stage 1); six last ones chunk 7 (stage 3) and two of chunk 6
        assertArrayEquals(new double[] {4, 1, 2, 4}, new LayerPrecision(5, 6).perStage(m, l), 0);
        assertArrayEquals(new double[] {0, 0, 0, 0}, LayerPrecision.UNIFORM.perStage(m, l), 0);
        // the last stage (its bf16 layer and the logits) stays the slowest: one bf16 layer's extra on it, at tp 2
        Estimate on = j.estimate(), off = llama("fp8", "tp: 2, pp: 4, virtual_pp: 2").estimate();
        Term.Bf16Layers t = term(on);
        assertEquals(1, t.stageLayers(), 0);
        assertEquals(LINEAR / 2, t.linearFlops(), 1);
        assertEquals(compute(off).seconds() + t.extraSeconds(), compute(on).seconds(), 1e-12);
    }

    @Test
    void theirWeightsAreGatheredIn16BitsUnderFp8ParameterGathering() {
        Estimate on = llama("fp8", "tp: 1, pp: 1", "fp8_param_gather: true", "fp8_layers_bf16: { start: 1, end: 1 }").estimate();
        Estimate off = llama("fp8", "tp: 1, pp: 1", "fp8_param_gather: true").estimate();
        Estimate.Traffic g = on.traffic(ParallelDim.DP, Collective.ALL_GATHER).orElseThrow(), h = off.traffic(ParallelDim.DP, Collective.ALL_GATHER).orElseThrow();
        // ParamGatherTest's 8,030,527,488 parameters at 1 byte + the embedding and output layer's 1,050,673,152 once more,
        // + two layers' 218,120,448 (their linears and norms: (8,030,527,488 − 1,050,673,152) / 32) once more
        assertEquals(9_081_200_640.0, h.count() * h.cost().bytes(), 1e-3);
        assertEquals(9_081_200_640.0 + 2 * 218_120_448.0, g.count() * g.cost().bytes(), 1e-3);
        // without fp8 gathering every parameter is 2 bytes already: nothing changes
        Estimate wide = llama("fp8", "tp: 1, pp: 1", "fp8_layers_bf16: { start: 1, end: 1 }").estimate();
        Estimate.Traffic w = wide.traffic(ParallelDim.DP, Collective.ALL_GATHER).orElseThrow();
        assertEquals(2 * 8_030_527_488.0, w.count() * w.cost().bytes(), 1e-3);
    }

    @Test
    void anMoeModelsExpertsRunInBf16TooOnThoseLayers() {
        // Qwen3-30B-A3B's shape (128 experts of 768, top-8) in fp8 at ep 8
        String qwen = "dtype: fp8, layers: 48, hidden_size: 2048, attention_heads: 32, kv_heads: 4, head_dim: 128, experts: 128,"
                + " top_k: 8, ffn_hidden_size: 768, gated_mlp: true, tied_embeddings: false, vocab_size: 151936, seq_length: 4096";
        JobEstimate j = EstimateManifest.h100().model(qwen).parallelism("tp: 1, ep: 8").batch(1, 256)
                .optimizer("distributed: true").recompute("none").line("fp8_layers_bf16: { start: 1, end: 1 }").estimate();
        JobInputs in = j.inputs();
        ModelShape m = in.model();
        double tokens = 4096;
        ModelShape bf16 = new ModelShape(m.layers(), m.hidden(), m.heads(), m.kvHeads(), m.headDim(), m.ffn(), m.vocab(), m.seq(),
                m.gatedMlp(), m.tiedEmbeddings(), m.experts(), m.topK(), ModelShape.Dtype.BF16, m.mla());
        double expected = MoeCost.price(bf16, in.variants().moe(), in.layout(), in.hardware(), tokens, 1).perLayerS()
                - MoeCost.price(m, in.variants().moe(), in.layout(), in.hardware(), tokens, 1).perLayerS();
        Term.Bf16Layers t = term(j.estimate());
        assertTrue(expected > 0, "the experts' grouped GEMMs are slower in bf16 than their fp8 casts cost");
        assertEquals(expected, t.moeSeconds(), 1e-15);
        // the layer's own linears are its attention's: 6 × (2 × 2,048 × 32 × 128 + 2 × 2,048 × 4 × 128) × 4,096
        assertEquals(6.0 * (2.0 * 2048 * 32 * 128 + 2.0 * 2048 * 4 * 128) * 4096, t.linearFlops(), 1);
        assertEquals(t.linearSeconds() - t.castSeconds() + t.moeSeconds(), t.extraSeconds(), 1e-15);
    }

    @Test
    void nothingIsPricedWithoutQuantizedGemmsOrBf16Layers() {
        JobEstimate bf16 = llama("bf16", "tp: 1, pp: 1", "fp8_layers_bf16: { start: 1, end: 1 }");
        assertEquals(null, term(bf16.estimate()));
        assertEquals(llama("bf16", "tp: 1, pp: 1").estimate().time().step(), bf16.estimate().time().step(), 0);
        assertEquals(List.of("fp8_layers_bf16 read (1 first, 1 last layers in bf16), but the job's GEMMs are not quantized (bf16):"
                + " every layer runs on that path, nothing priced for it"), said(bf16, "fp8_layers_bf16 read"));
        JobEstimate none = llama("fp8", "tp: 1, pp: 1", "fp8_layers_bf16: { start: 0, end: 0 }");
        assertEquals(null, term(none.estimate()));
        assertEquals(List.of(), said(none, "layers kept in bf16"));
        assertEquals(llama("fp8", "tp: 1, pp: 1").estimate().time().step(), none.estimate().time().step(), 0);
        // counts past the model's layers keep every layer in bf16, and say so
        JobEstimate all = llama("fp8", "tp: 1, pp: 1", "fp8_layers_bf16: { start: 20, end: 20 }");
        assertEquals(20, term(all.estimate()).start());
        assertEquals(12, term(all.estimate()).end());
        assertTrue(said(all, "layers kept in bf16").get(0).endsWith("the counts written exceed the model's layers: every layer is in bf16"));
    }
}
