package dev.gpulint.derive.estimate;

import dev.gpulint.spec.ParallelDim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.catalog.Compute;
import dev.gpulint.plan.EstimateWords;
import java.util.List;
import dev.gpulint.testing.EstimateManifest;
import org.junit.jupiter.api.Test;

/**
 * The MoE layers' cost (MoeCost): grouped GEMMs whose efficiency follows the tokens each local expert gets and the
 * experts' weights, the expert grid etp × ep, sequential GEMMs, capacity, shared experts, dense layers, the dispatcher
 * and the all-to-all overlap, each read from a native manifest of our own in the shapes of Qwen3-30B-A3B (128 small
 * experts of 768, top-8) and Mixtral 8x7B (8 big experts of 14,336, top-2).
 */
class MoeCostTest {

    static final String QWEN3_30B = "layers: 48, hidden_size: 2048, attention_heads: 32, kv_heads: 4, head_dim: 128, experts: 128, top_k: 8,"
            + " ffn_hidden_size: 6144, gated_mlp: true, tied_embeddings: false, vocab_size: 151936, dtype: bf16";
    static final String MIXTRAL_8X7B = "layers: 32, hidden_size: 4096, attention_heads: 32, kv_heads: 8, experts: 8, top_k: 2,"
            + " ffn_hidden_size: 14336, gated_mlp: true, tied_embeddings: false, vocab_size: 32000, dtype: bf16";

    static JobEstimate job(String model, String moe, String par, int seq) {
        return EstimateManifest.h100().nodes(8).nics(EstimateManifest.CX7_IB)
                .model(model + ", seq_length: " + seq + (moe.isEmpty() ? "" : ", " + moe)).parallelism(par).batch(1, 256)
                .optimizer("zero_stage: 1, distributed: true").recompute("selective").estimate();
    }

    static MoeCost.Priced priced(JobEstimate j) {
        JobInputs in = j.inputs();
        return MoeCost.price(in.model(), in.variants().moe(), in.layout(), in.hardware(),
                (double) in.layout().microBatchSize() * in.model().seq() / in.layout().cp(), 1);
    }

    /**
     * The routed experts' rate by the formula: FLOPs at the GEMM rate ÷ (the longer of that and the weights at the HBM rate,
     * + 6 kernels + 6 GEMMs per local expert × the fitted fixed time).
     */
    static double expected(JobInputs in, double tokens) {
        ModelShape m = in.model();
        Hardware hw = in.hardware();
        double pg = hw.gemmPeak(m.dtype()) * hw.gemmEfficiency(m.dtype()), hbm = hw.hbmBytesPerSecond() * hw.efficiency().hbm();
        double flops = tokens * m.topK() * 6 * m.mlpParameters() / in.layout().tp();
        double weights = 3.0 * m.experts() / in.layout().ep() * m.mlpParameters() * 2;
        double perExpert = tokens * m.topK() * in.layout().ep() / m.experts(), fill = perExpert / (128 * Math.ceil(perExpert / 128));
        double members = 6.0 * m.experts() / in.layout().ep();
        return flops / pg / (Math.max(flops / pg / fill, weights / hbm) + 6 * hw.efficiency().gemmKernelS() + members * 26e-6);
    }

    @Test
    void smallExpertsRunFarBelowTheDenseGemmRateBigOnesNearIt() {
        JobEstimate qwen = job(QWEN3_30B, "moe: { expert_ffn_hidden_size: 768 }", "tp: 1, ep: 1", 1024);
        JobEstimate mixtral = job(MIXTRAL_8X7B, "", "tp: 1, ep: 1", 1024);
        MoeCost.Priced q = priced(qwen), x = priced(mixtral);
        assertEquals(768, qwen.inputs().model().ffn(), "the experts' MLP, not the dense ffn_hidden_size");
        assertEquals(6144, qwen.inputs().variants().moe().denseFfn());
        assertEquals(64, q.tokensPerExpert(), 1e-9, "1,024 tokens × top-8 over 128 experts");
        assertEquals(256, x.tokensPerExpert(), 1e-9, "1,024 tokens × top-2 over 8 experts");
        assertEquals(expected(qwen.inputs(), 1024), q.routedEfficiency(), 1e-9);
        assertEquals(expected(mixtral.inputs(), 1024), x.routedEfficiency(), 1e-9);
        // Qwen3-30B-A3B's 128 local experts of 64 tokens: 768 expert GEMMs whose fixed time dwarfs their FLOPs and bytes;
        // Mixtral's 8 experts of 256 tokens: 48 GEMMs of 88 µs of FLOPs each, a quarter more for their fixed time
        assertTrue(q.routedEfficiency() < 0.05, "Qwen3-30B-A3B's small experts are bound by their GEMMs' fixed time: " + q.routedEfficiency());
        assertTrue(x.routedEfficiency() > 0.65 && x.routedEfficiency() < 0.8, "Mixtral's big experts stay near the dense rate: " + x.routedEfficiency());
        // the plan prints the term with its numbers
        String note = qwen.estimate().terms().stream().filter(n -> n.term().equals("moe")).findFirst().map(EstimateWords::text).orElseThrow();
        assertTrue(note.startsWith("48 of 48 layers MoE: 128 local experts × 64 tokens each (T·k·ep·etp/(tp·E), etp 1), tile fill 0.50"), note);
        assertTrue(note.contains(String.format(java.util.Locale.ROOT, "(%.0f %% of the dense GEMM rate)", 100 * q.routedEfficiency())), note);
    }

    @Test
    void expertParallelismSpreadsTheWeightsAndRaisesTheRate() {
        MoeCost.Priced ep1 = priced(job(QWEN3_30B, "moe: { expert_ffn_hidden_size: 768 }", "tp: 1, ep: 1", 1024));
        MoeCost.Priced ep8 = priced(job(QWEN3_30B, "moe: { expert_ffn_hidden_size: 768 }", "tp: 1, ep: 8", 1024));
        assertEquals(8 * ep1.tokensPerExpert(), ep8.tokensPerExpert(), 1e-9, "8 ranks' tokens meet at 16 local experts");
        // 128 local experts' 768 GEMMs become 16 experts' 96, each with 8 times the tokens
        assertTrue(ep8.routedEfficiency() > 5 * ep1.routedEfficiency(), ep1.routedEfficiency() + " → " + ep8.routedEfficiency());
    }

    @Test
    void aFewTokensPerExpertFillPartOfATile() {
        MoeCost.Priced p = priced(job(QWEN3_30B, "moe: { expert_ffn_hidden_size: 768 }", "tp: 1, ep: 1", 1024));
        assertEquals(64, p.tokensPerExpert(), 1e-9);
        assertEquals(0.5, p.tileFill(), 1e-12, "64 tokens fill half of a 128-row tile");
        assertEquals(1.0, priced(job(QWEN3_30B, "moe: { expert_ffn_hidden_size: 768 }", "tp: 1, ep: 2", 1024)).tileFill(), 1e-12);
    }

    @Test
    void theExpertGridFoldsEtpAndEpIndependentlyOfTheAttentionsTp() {
        // T·k·ep·etp/(tp·E): tp 4 for attention, experts etp 1 × ep 8 → 4096 × 8 × 8 / (4 × 128) = 512 tokens per expert
        JobEstimate folded = job(QWEN3_30B, "moe: { expert_ffn_hidden_size: 768 }", "tp: 4, ep: 8, etp: 1", 4096);
        assertEquals(1, folded.inputs().variants().moe().etp(folded.inputs().layout()));
        assertEquals(512, priced(folded).tokensPerExpert(), 1e-9);
        JobEstimate same = job(QWEN3_30B, "moe: { expert_ffn_hidden_size: 768 }", "tp: 4, ep: 8", 4096);
        assertEquals(4, same.inputs().variants().moe().etp(same.inputs().layout()), "etp not written: tp, Megatron's default");
        assertEquals(2048, priced(same).tokensPerExpert(), 1e-9);
    }

    @Test
    void theExpertGroupIsEtpRanksApartSoFoldingKeepsItInsideANode() {
        // Megatron-Core's expert grid (tp-ep-dp-pp with etp for tp, cp left out): attention tp 2 with experts etp 1 puts an
        // 8-way expert group on 8 consecutive ranks, one 8-GPU node; without etp (= tp 2) its ranks are 2 apart, over 2 nodes
        JobEstimate folded = job(MIXTRAL_8X7B, "", "tp: 2, pp: 1, ep: 8, etp: 1, sequence_parallel: true", 4096);
        JobEstimate spread = job(MIXTRAL_8X7B, "", "tp: 2, pp: 1, ep: 8, sequence_parallel: true", 4096);
        assertEquals(1, folded.inputs().variants().moe().epStride(folded.inputs().layout(), ParallelDim.DEFAULT_ORDER));
        assertEquals(2, spread.inputs().variants().moe().epStride(spread.inputs().layout(), ParallelDim.DEFAULT_ORDER));
        assertEquals(Tier.NVLINK, folded.estimate().time().tiers().get(ParallelDim.EP));
        assertEquals(Tier.NETWORK, spread.estimate().time().tiers().get(ParallelDim.EP));
        // cp folds into the expert grid too: tp 1, cp 2, ep 8 is 8 consecutive ranks (Estimator's attention order would put
        // ep 2 apart, behind cp)
        JobEstimate cp = job(MIXTRAL_8X7B, "", "tp: 1, cp: 2, pp: 1, ep: 8", 4096);
        assertEquals(1, cp.inputs().variants().moe().epStride(cp.inputs().layout(), ParallelDim.DEFAULT_ORDER));
        assertEquals(2L, Estimator.strides(cp.inputs().layout(), ParallelDim.DEFAULT_ORDER).get(ParallelDim.EP));
        assertEquals(Tier.NVLINK, cp.estimate().time().tiers().get(ParallelDim.EP));
    }

    @Test
    void eachLocalExpertsGemmPaysTheFittedFixedTime() {
        // 128 experts over ep 8: 16 local experts, 6 GEMMs each per layer and micro-batch, 26 µs each beside 6 kernels
        MoeCost.Priced p = priced(job(QWEN3_30B, "moe: { expert_ffn_hidden_size: 768 }", "tp: 1, ep: 8", 4096));
        assertEquals(96, p.term().expertGemms());
        assertTrue(EstimateWords.text(p.term()).contains("+ 6 kernels × 10.0 µs + 96 expert GEMMs × 26.0 µs (fitted on H100 bf16) = "),
                EstimateWords.text(p.term()));
        MoeCost.Priced one = priced(job(MIXTRAL_8X7B, "", "tp: 1, ep: 8", 4096));
        assertEquals(6, one.term().expertGemms());
        assertTrue(EstimateWords.text(one.term()).contains("+ 6 kernels × 10.0 µs + 6 expert GEMMs × 26.0 µs (fitted on H100 bf16) = "),
                EstimateWords.text(one.term()));
    }

    @Test
    void theExpertGemmTimeIsTheCatalogsPerFamilyAndDtype() {
        JobEstimate h100 = job(QWEN3_30B, "moe: { expert_ffn_hidden_size: 768 }", "tp: 1, ep: 8", 4096);
        Efficiency e = h100.inputs().hardware().efficiency();
        assertEquals(26e-6, e.expertGemmS(), 0, "Hopper's row: the fit on the two MoE figures (bench/plan/moe.tsv; docs/plan.md)");
        assertEquals(26e-6, e.expertGemmFp8S(), 0, "fp8 borrows the bf16 fit");
        assertEquals(e.expertGemmS(), e.expertGemmS(ModelShape.Dtype.BF16), 0);
        assertEquals(e.expertGemmFp8S(), e.expertGemmS(ModelShape.Dtype.FP8), 0);
        assertEquals(e.expertGemmFp8S(), e.expertGemmS(ModelShape.Dtype.NVFP4), 0);
        // MoeCost reads it from the Efficiency record: 96 expert GEMMs × the change in it
        MoeCost.Priced base = priced(h100);
        JobInputs in = h100.inputs();
        Hardware hw = in.hardware();
        Hardware slower = new Hardware(hw.gpu(), hw.memoryBytes(), hw.peakFlops(), hw.hbmBytesPerSecond(), hw.links(), hw.measured(),
                e.with("expert_gemm_s", 50e-6), hw.blockScaled());
        MoeCost.Priced p = MoeCost.price(in.model(), in.variants().moe(), in.layout(), slower,
                (double) in.layout().microBatchSize() * in.model().seq() / in.layout().cp(), 1);
        assertEquals(96 * 24e-6, p.moeLayerS() - base.moeLayerS(), 1e-12);
        // every family states both, and none but Hopper's fits them yet: they borrow 26 µs
        dev.gpulint.catalog.Catalog c = dev.gpulint.catalog.Catalog.builtIn();
        for (String family : java.util.List.of("B200", "GB200", "A100", "V100", "MI300X", "MI355X")) {
            var v = c.compute().efficiencies(family).orElseThrow().values();
            assertEquals(26e-6, v.get("expert_gemm_s"), 0, family);
            assertEquals(26e-6, v.get("expert_gemm_fp8_s"), 0, family);
        }
    }

    @Test
    void oneGemmPerLocalExpertCostsAKernelEach() {
        JobEstimate grouped = job(QWEN3_30B, "moe: { expert_ffn_hidden_size: 768, grouped_gemm: true }", "tp: 1, ep: 8", 4096);
        JobEstimate sequential = job(QWEN3_30B, "moe: { expert_ffn_hidden_size: 768, grouped_gemm: false }", "tp: 1, ep: 8", 4096);
        double kernel = grouped.inputs().hardware().efficiency().gemmKernelS();
        assertEquals(6 * (16 - 1) * kernel, priced(sequential).moeLayerS() - priced(grouped).moeLayerS(), 1e-12, "16 local experts × 6 GEMMs, not 6");
        assertTrue(grouped.inputs().assumptions().stream().noneMatch(a -> a.startsWith("MoE grouped GEMM not stated")));
        JobEstimate unstated = job(QWEN3_30B, "moe: { expert_ffn_hidden_size: 768 }", "tp: 1, ep: 8", 4096);
        assertTrue(unstated.inputs().assumptions().contains("MoE grouped GEMM not stated: grouped (one kernel per matrix for a rank's local experts)"));
    }

    @Test
    void aCapacityFactorCostsOnlyWhenExpertsArePaddedToIt() {
        String base = "expert_ffn_hidden_size: 768";
        MoeCost.Priced dropless = priced(job(QWEN3_30B, "moe: { " + base + " }", "tp: 1, ep: 8", 4096));
        MoeCost.Priced capped = priced(job(QWEN3_30B, "moe: { " + base + ", capacity_factor: 1.25 }", "tp: 1, ep: 8", 4096));
        MoeCost.Priced padded = priced(job(QWEN3_30B, "moe: { " + base + ", capacity_factor: 1.25, pad_to_capacity: true }", "tp: 1, ep: 8", 4096));
        assertEquals(dropless.moeLayerS(), capped.moeLayerS(), 1e-15, "dropping caps the slowest expert; balanced routing is taken");
        assertEquals(1.25 * dropless.tokensPerExpert(), padded.tokensPerExpert(), 1e-9);
        assertEquals(1.25 * dropless.a2aBytes(), padded.a2aBytes(), 1e-3, "padded rows travel too");
        assertTrue(padded.moeLayerS() > dropless.moeLayerS());
        JobEstimate j = job(QWEN3_30B, "moe: { " + base + " }", "tp: 1, ep: 8", 4096);
        assertTrue(j.inputs().assumptions().stream().anyMatch(a -> a.startsWith("MoE capacity factor not given: dropless")));
        JobEstimate k = job(QWEN3_30B, "moe: { " + base + ", capacity_factor: 1.25 }", "tp: 1, ep: 8", 4096);
        assertTrue(k.inputs().assumptions().stream().noneMatch(a -> a.startsWith("MoE capacity factor")));
    }

    /**
     * The one host time per local expert measured by the library's authors (NVIDIA/TransformerEngine#2897: Transformer
     * Engine's grouped MLP on GB200, ~1.2 ms forward for 64 experts, host-bound) is below the two expert_gemm_s every catalog
     * row charges each local expert's forward, so the MoE host floor max(H_f, G_f) − G_f is zero and is not priced
     * (docs/plan.md, "The MoE host floor, second attempt"). A refit of expert_gemm_s below half of it makes the floor bind:
     * this fails then, so the floor gets priced rather than silently left out.
     */
    @Test
    void theMeasuredHostTimePerExpertIsUnderWhatEachExpertsForwardIsCharged() {
        assertEquals(18.75e-6, MoeShape.HOST_FORWARD_PER_EXPERT_S, 1e-12);
        for (String family : List.of("H100", "H200", "B200", "GB200", "GB300", "B300", "A100", "L40S", "V100", "MI300X", "MI325X", "MI355X")) {
            Compute.Efficiencies row = Catalog.builtIn().compute().efficiencies(family).orElseThrow();
            Efficiency e = Efficiency.of(row.values(), row.source());
            for (ModelShape.Dtype d : ModelShape.Dtype.values()) {
                assertTrue(2 * e.expertGemmS(d) >= MoeShape.HOST_FORWARD_PER_EXPERT_S, family + " " + d + ": 2 × expert_gemm_s "
                        + e.expertGemmS(d) + " s is under the measured host time per local expert's forward: price the MoE host floor");
            }
        }
    }

    /**
     * Megatron-Core waits on the host for the tokens per expert in every MoE layer whose experts' inputs are not padded to
     * a fixed capacity; the estimate prices no floor for it (the measured host time per expert is under what expert_gemm_s
     * charges: the test above), and says so for exactly those jobs.
     */
    @Test
    void unpaddedExpertInputsSayTheHostWaitIsNotPriced() {
        String said = "MoE experts' inputs not padded to a fixed capacity: every MoE layer's forward waits on the host for the"
                + " tokens per expert (a device-to-host sync), then the host issues the layer's remaining kernels while the GPU"
                + " runs them; the host time per local expert measured by Transformer Engine's maintainers (18.75 µs forward at"
                + " most, NVIDIA/TransformerEngine#2897, GB200) is below the 2 × expert_gemm_s the estimate already charges each"
                + " local expert's forward, so it adds nothing; the host time of the rest of the layer is not measured apart from"
                + " the per-layer fixed time: with a small micro-batch the step can be longer than estimated (docs/plan.md,"
                + " \"The MoE host floor\")";
        String base = "expert_ffn_hidden_size: 768";
        JobEstimate dropless = job(QWEN3_30B, "moe: { " + base + " }", "tp: 1, ep: 8", 4096);
        JobEstimate capped = job(QWEN3_30B, "moe: { " + base + ", capacity_factor: 1.25 }", "tp: 1, ep: 8", 4096);
        JobEstimate padded = job(QWEN3_30B, "moe: { " + base + ", capacity_factor: 1.25, pad_to_capacity: true }", "tp: 1, ep: 8", 4096);
        JobEstimate dense = job(MIXTRAL_8X7B.replace("experts: 8, top_k: 2,", ""), "", "tp: 1", 4096);
        assertEquals(1, dropless.inputs().assumptions().stream().filter(said::equals).count(), "dropless: the counts are the host's");
        assertTrue(capped.inputs().assumptions().contains(said), "dropping without padding still sizes each expert's GEMM by its count");
        assertTrue(padded.inputs().assumptions().stream().noneMatch(a -> a.startsWith("MoE experts' inputs not padded")),
                "padded to capacity: the splits are the capacity, no sync");
        assertTrue(dense.inputs().assumptions().stream().noneMatch(a -> a.startsWith("MoE ")), "a dense job has no MoE assumption");
    }

    @Test
    void denseLayersAndSharedExpertsAreWhatTheModelFlopsCount() {
        // 4 layers: the first dense (ffn 4,096), three MoE (top-2 of 8 experts of 1,024, one shared expert of 2,048)
        String model = "layers: 4, hidden_size: 1024, attention_heads: 8, experts: 8, top_k: 2, ffn_hidden_size: 4096, gated_mlp: true,"
                + " vocab_size: 32000";
        JobEstimate j = job(model, "moe: { expert_ffn_hidden_size: 1024, shared_expert_ffn_hidden_size: 2048, layer_freq: \"([0]*1+[1]*3)\" }",
                "tp: 1, ep: 1", 2048);
        MoeShape s = j.inputs().variants().moe();
        assertEquals(3, s.moeLayers());
        assertEquals(4096, s.denseFfn());
        assertEquals(2048, s.sharedFfn());
        ModelShape m = j.inputs().model();
        double attention = 6.0 * m.attentionParameters() + 12.0 * 2048 * 8 * 128;
        double perToken = 3 * (attention + 6.0 * 3 * 1024 * (2 * 1024 + 2048)) + (attention + 6.0 * 3 * 1024 * 4096) + 6.0 * 1024 * m.vocab();
        assertEquals(perToken, s.modelFlopsPerToken(m), 1);
        assertEquals(perToken * j.estimate().throughput().tokensPerSecondPerGpu() / 1e12, j.estimate().throughput().modelTflopsPerGpu(), 1e-6);
        assertTrue(j.inputs().assumptions().contains("MoE layers: 3 of 4 (moe layer_freq ([0]*1+[1]*3))"), j.inputs().assumptions().toString());
        String note = j.estimate().terms().stream().filter(n -> n.term().equals("moe")).findFirst().map(EstimateWords::text).orElseThrow();
        assertTrue(note.contains("; shared experts (ffn 2048) "), note);
        assertTrue(note.contains("; 1 dense layer (ffn 4096) "), note);
    }

    @Test
    void memoryCountsTheExpertsOnlyOnMoeLayersAndTheSharedExpertsAndDenseMlps() {
        String model = "layers: 4, hidden_size: 1024, attention_heads: 8, experts: 8, top_k: 2, ffn_hidden_size: 4096, gated_mlp: true,"
                + " vocab_size: 32000";
        JobEstimate j = job(model, "moe: { expert_ffn_hidden_size: 1024, shared_expert_ffn_hidden_size: 2048, layer_freq: \"([0]*1+[1]*3)\" }",
                "tp: 1, ep: 1", 2048);
        JobEstimate uniform = job(model, "moe: { expert_ffn_hidden_size: 1024 }", "tp: 1, ep: 1", 2048);
        ModelShape m = j.inputs().model();
        // the dense layer has its MLP of 4,096 instead of 8 experts of 1,024; the three MoE layers one shared expert of 2,048 each
        double expected = uniform.estimate().stages().get(0).parameters() - 8 * 3.0 * 1024 * 1024 + 3.0 * 1024 * 4096 + 3 * 3.0 * 1024 * 2048;
        assertEquals(expected, j.estimate().stages().get(0).parameters(), 1e-3);
        assertEquals(m.parameters() - 8 * 3.0 * 1024 * 1024 + 3.0 * 1024 * 4096 + 3 * 3.0 * 1024 * 2048, j.estimate().stages().get(0).parameters(), 1e-3,
                "one GPU holds the whole model (tp = pp = ep = 1)");
    }

    @Test
    void aPatternThatDoesNotFitTheLayersIsSaidAndEveryLayerStaysMoe() {
        JobEstimate j = job(MIXTRAL_8X7B, "moe: { layer_freq: \"([0]*1+[1]*3)\" }", "tp: 1, ep: 8", 4096);
        assertEquals(32, j.inputs().variants().moe().moeLayers());
        assertTrue(j.inputs().assumptions().stream().anyMatch(a -> a.matches("MoE layer pattern '\\(\\[0\\]\\*1\\+\\[1\\]\\*3\\)' \\(.*:\\d+:\\d+\\) not used:"
                + " the pattern gives 4 layers but the model has 32; every layer taken as MoE")), j.inputs().assumptions().toString());
    }

    @Test
    void theDispatcherAndTheAllToAllOverlapChangeTheExpertParallelTraffic() {
        JobEstimate a2a = job(MIXTRAL_8X7B, "", "tp: 1, ep: 8", 4096);
        JobEstimate gather = job(MIXTRAL_8X7B, "moe: { dispatcher: allgather }", "tp: 1, ep: 8", 4096);
        JobEstimate overlap = job(MIXTRAL_8X7B, "moe: { overlap_a2a: true }", "tp: 1, ep: 8", 4096);
        assertTrue(a2a.estimate().traffic(ParallelDim.EP, Collective.ALL_TO_ALL).isPresent());
        assertTrue(gather.estimate().traffic(ParallelDim.EP, Collective.ALL_GATHER).isPresent());
        assertTrue(gather.estimate().traffic(ParallelDim.EP, Collective.ALL_TO_ALL).isEmpty());
        Tier t = a2a.estimate().time().tiers().get(ParallelDim.EP);
        assertEquals(a2a.estimate().time().comm().get(ParallelDim.EP), overlap.estimate().time().comm().get(ParallelDim.EP), 1e-12, "the same bytes move");
        assertTrue(overlap.estimate().time().exposed().get(t) < a2a.estimate().time().exposed().get(t), "but behind the other micro-batch's compute");
        assertTrue(a2a.inputs().assumptions().contains("MoE token dispatcher not given: alltoall (Megatron's recommendation with expert parallelism)"));
        assertTrue(gather.inputs().assumptions().stream().noneMatch(a -> a.startsWith("MoE token dispatcher")));
    }

    @Test
    void theAllToAllOverlapSaysItsHostTimeIsNotPriced() {
        JobEstimate on = job(MIXTRAL_8X7B, "moe: { overlap_a2a: true }", "tp: 1, ep: 8", 4096);
        JobEstimate off = job(MIXTRAL_8X7B, "moe: { overlap_a2a: false }", "tp: 1, ep: 8", 4096);
        JobEstimate unstated = job(MIXTRAL_8X7B, "", "tp: 1, ep: 8", 4096);
        String said = on.inputs().assumptions().stream().filter(a -> a.startsWith("MoE all-to-all overlap on")).findFirst()
                .orElseThrow(() -> new AssertionError(on.inputs().assumptions().toString()));
        assertEquals(MoeShape.A2A_OVERLAP_HOST, said);
        // what it prices, what it does not, the measurements both ways with their sources, and how to check
        for (String part : List.of("priced behind the other micro-batch's MoE layer compute", "host (CPU) time",
                "is not priced", "pull #1760", "issue #1705", "17.2 s → 16.0 s", "20.1 s → 16.9 s", "pull #2669", "#3399",
                "pull #5094", "profile the host", "with it off")) {
            assertTrue(said.contains(part), part);
        }
        assertEquals(1, on.inputs().assumptions().stream().filter(said::equals).count(), "said once");
        assertTrue(off.inputs().assumptions().stream().noneMatch(a -> a.startsWith("MoE all-to-all overlap")), "overlap off: quiet");
        assertTrue(unstated.inputs().assumptions().stream().noneMatch(a -> a.startsWith("MoE all-to-all overlap")), "not stated: quiet");
    }

    @Test
    void aDenseModelHasNoMoeTerm() {
        JobEstimate j = job("layers: 4, hidden_size: 1024, attention_heads: 8, vocab_size: 32000", "", "tp: 1", 2048);
        assertNull(j.inputs().variants().moe());
        assertFalse(j.estimate().terms().stream().anyMatch(n -> n.term().equals("moe")));
        assertTrue(j.inputs().assumptions().stream().noneMatch(a -> a.startsWith("MoE")));
    }
}
