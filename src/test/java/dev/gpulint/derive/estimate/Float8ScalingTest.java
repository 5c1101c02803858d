package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.plan.EstimateWords;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.EstimateManifest;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.Recipes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Float8 rowwise scaling (Float8Scaling): torchao's rowwise recipes cast every GEMM operand once per contracted dimension,
 * torchtitan runs plain TP under them (each column-parallel linear casts the gathered bf16 input), and the backward GEMMs'
 * outputs are scaled in a kernel of their own; the bytes beyond the per-tensor casts the elementwise term counts are
 * priced at the HBM rate. Per-tensor scaling (tensorwise, the default) and 16-bit jobs add nothing. Llama 3.1 8B at tp 8
 * on 8 H100, one 8k sequence per GPU: the shape of torchtitan's June 2025 async-TP page's 8B rows.
 */
class Float8ScalingTest {

    private static JobEstimate estimate(String dtype, String scaling, String recompute) {
        return EstimateManifest.h100().model(EstimateManifest.LLAMA3_8B.replace("dtype: bf16", "dtype: " + dtype) + ", seq_length: 8192")
                .parallelism("tp: 8, pp: 1, sequence_parallel: true").batch(1, 8).optimizer("zero_stage: 3").recompute(recompute)
                .line("kernels: fused").line(scaling).estimate();
    }

    private static Optional<Term.Float8> float8(Estimate e) {
        return e.terms().stream().filter(t -> t instanceof Term.Float8).map(t -> (Term.Float8) t).findFirst();
    }

    private static Term.Compute compute(Estimate e) {
        return e.terms().stream().filter(t -> t instanceof Term.Compute).map(t -> (Term.Compute) t).findFirst().orElseThrow();
    }

    @Test
    void rowwiseAddsTheCountedBytesOfOneLayerByHand() {
        JobEstimate rowJob = estimate("fp8", "fp8_scaling: rowwise", "none");
        Estimate row = rowJob.estimate(), tensor = estimate("fp8", "fp8_scaling: tensorwise", "none").estimate();
        Term.Float8 f = float8(row).orElseThrow();
        // T = 8192 tokens; inputs: wq, wk, wv, w1, w3 each the gathered 8192 × 4096, wo 4096/8, w2 14336/8 wide
        assertEquals(8192.0 * (5 * 4096 + 512 + 1792), f.inputElements(), 0);
        assertEquals(186_646_528.0, f.inputElements(), 0);
        // output gradients: wq 4096/8, wk and wv 1024/8, wo 4096 (gathered), w1 and w3 14336/8, w2 4096 (gathered)
        assertEquals(8192.0 * (512 + 128 + 128 + 4096 + 1792 + 1792 + 4096), f.gradElements(), 0);
        assertEquals(102_760_448.0, f.gradElements(), 0);
        // weights on the GPU: (wq + wo 4096², wk + wv 4096·1024, w1, w3, w2 4096·14336) / 8
        assertEquals((2.0 * 4096 * 4096 + 2.0 * 4096 * 1024 + 3.0 * 4096 * 14336) / 8, f.weightElements(), 0);
        assertEquals(27_262_976.0, f.weightElements(), 0);
        // forward: inputs 5 (read 2, fp8 copy 1, bf16 transpose 2), weights 3; backward: inputs 3, gradients 8, weights 7
        assertEquals(186_646_528.0 * 5 + 27_262_976.0 * 3, f.forwardBytes(), 0);
        assertEquals(1_015_021_568.0, f.forwardBytes(), 0);
        assertEquals(186_646_528.0 * 3 + 102_760_448.0 * 8 + 27_262_976.0 * 7, f.backwardBytes(), 0);
        assertEquals(1_572_864_000.0, f.backwardBytes(), 0);
        assertEquals(0, f.recomputed(), 0);
        // the backward GEMMs' outputs scaled apart: 4 bytes per grad_input (input) and grad_weight (weight) element
        assertEquals(4 * (186_646_528.0 + 27_262_976.0), f.rescaleBytes(), 0);
        assertEquals(1_015_021_568.0 + 1_572_864_000.0 + 855_638_016.0, f.castBytes(), 0);
        // less the per-tensor casts the elementwise term counts: 6 × T·(2h + a·d + ffn)/tp
        assertEquals(6 * 8192.0 * (2 * 4096 + 4096 + 14336) / 8, f.countedBytes(), 0);
        assertEquals(163_577_856.0, f.countedBytes(), 0);
        assertEquals(3_279_945_728.0, f.bytes(), 0);
        assertEquals(3.35e12 * 0.8, f.hbmRate(), 1, "H100 SXM's 3.35 TB/s × the catalog's hbm 0.8");
        assertEquals(3_279_945_728.0 / 2.68e12, f.seconds(), 1e-12);
        assertEquals(0, f.highPrecisionSeconds(), 0);
        // in the compute term's elementwise bytes, and 32 layers of it in each of the step's 8 micro-batches (global batch 8
        // over dp 1; one stage)
        assertEquals(compute(tensor).elementwiseBytes() + f.bytes(), compute(row).elementwiseBytes(), 1e-3);
        assertEquals(8 * 32 * f.seconds(), row.time().step() - tensor.time().step(), 1e-9 * row.time().step());
        assertTrue(rowJob.inputs().assumptions().stream().anyMatch(a -> a.startsWith("Float8 rowwise scaling (fp8_scaling: rowwise):"
                + " each GEMM operand cast twice")), rowJob.inputs().assumptions().toString());
        String words = EstimateWords.line(f);
        assertTrue(words.startsWith("float8: rowwise casts, bytes per element as torchao's roofline counts them (docs/plan.md):"
                + " inputs 186.6M × (5 + 3), output gradients 102.8M × 8, weights 27.3M × (3 + 7)"), words);
    }

    @Test
    void recomputeCastsTheForwardAgain() {
        Term.Float8 none = float8(estimate("fp8", "fp8_scaling: rowwise", "none").estimate()).orElseThrow();
        Term.Float8 full = float8(estimate("fp8", "fp8_scaling: rowwise", "full").estimate()).orElseThrow();
        assertEquals(1.0, full.recomputed(), 1e-12);
        assertEquals(none.bytes() + none.forwardBytes(), full.bytes(), 1e-3);
    }

    @Test
    void weightGradientsInBf16CastOnceAndRunAThirdOfTheGemmsAtTheSixteenBitRate() {
        JobEstimate hpJob = estimate("fp8", "fp8_scaling: rowwise_with_gw_hp", "none");
        Term.Float8 f = float8(hpJob.estimate()).orElseThrow();
        assertEquals(186_646_528.0 * 3 + 27_262_976.0 * 3, f.forwardBytes(), 0);
        assertEquals(102_760_448.0 * 3 + 27_262_976.0 * 3, f.backwardBytes(), 0);
        // only the grad_input GEMM's output is scaled apart
        assertEquals(4 * 186_646_528.0, f.rescaleBytes(), 0);
        // a third of the layer's linear FLOPs, 6 · 218.1M parameters · 8192 tokens / 8, at the 16-bit rate
        assertEquals(6.0 * 218_103_808 * 8192 / 8 / 3, f.highPrecisionFlops(), 1);
        Hardware hw = hpJob.inputs().hardware();
        double r8 = hw.gemmPeak(ModelShape.Dtype.FP8) * hw.gemmEfficiency(ModelShape.Dtype.FP8);
        double r16 = hw.sixteenBitPeak(ModelShape.Dtype.FP8) * hw.efficiency().gemm();
        assertEquals(f.highPrecisionFlops() * (1 / r16 - 1 / r8), f.highPrecisionSeconds(), 1e-15);
        assertTrue(f.highPrecisionSeconds() > 0);
        assertTrue(EstimateWords.line(f).contains("; weight-gradient GEMMs in bf16: "), EstimateWords.line(f));
    }

    @Test
    void tensorwiseUnstatedAndSixteenBitJobsAddNothing() {
        JobEstimate unstated = estimate("fp8", "", "none"), tensorwise = estimate("fp8", "fp8_scaling: tensorwise", "none");
        assertTrue(float8(unstated.estimate()).isEmpty());
        assertTrue(float8(tensorwise.estimate()).isEmpty());
        assertEquals(unstated.estimate().time().step(), tensorwise.estimate().time().step(), 0);
        // a native manifest that does not state it says nothing; stated tensorwise is said
        assertTrue(unstated.inputs().assumptions().stream().noneMatch(a -> a.contains("Float8")), unstated.inputs().assumptions().toString());
        assertTrue(tensorwise.inputs().assumptions().contains("Float8 tensorwise scaling (fp8_scaling: tensorwise): one scale per tensor;"
                + " its casts are in the elementwise term"), tensorwise.inputs().assumptions().toString());
        // rowwise stated on a bf16 job: nothing priced, and said
        JobEstimate bf16 = estimate("bf16", "fp8_scaling: rowwise", "none");
        assertTrue(float8(bf16.estimate()).isEmpty());
        assertTrue(bf16.inputs().assumptions().contains("fp8_scaling: rowwise read, but the job's GEMMs are not fp8 (bf16): nothing"
                + " priced for it"), bf16.inputs().assumptions().toString());
    }

    private static Specs.Job bind(String text) {
        return Foreign.bind("llama3_8b.toml", text);
    }

    /** torchtitan's Llama 3 8B converted to Float8 (the earlier {@code converters = ["float8"]}), its [float8] table {@code float8}. */
    private static String titan(String float8) {
        return Recipes.torchtitan("8B").model("converters = [\"float8\"]").training("local_batch_size = 2", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = -1").table("[float8]\n" + float8).toml();
    }

    @Test
    void torchtitansRecipeIsReadAndItsDefaultIsTensorwise() {
        List<String> as = new ArrayList<>();
        Specs.Job row = bind(titan("recipe_name = \"rowwise\""));
        assertEquals("rowwise", row.fp8Scaling().value());
        assertEquals(14, row.fp8Scaling().span().startLine(), "recipe_name's line");
        assertEquals(new Float8Scaling(Float8Scaling.Recipe.ROWWISE), Float8Scaling.of(row, ModelShape.Dtype.FP8, as));
        assertTrue(as.get(0).startsWith("Float8 rowwise scaling ([float8] recipe_name = \"rowwise\"): "), as.toString());
        // not written: torchao's default, tensorwise, said
        as.clear();
        Specs.Job unstated = bind(titan("enable_fsdp_float8_all_gather = false"));
        assertNull(unstated.fp8Scaling());
        assertEquals(Float8Scaling.TENSORWISE, Float8Scaling.of(unstated, ModelShape.Dtype.FP8, as));
        assertEquals(List.of("Float8 recipe_name not given: tensorwise, torchao's default (one scale per tensor; its casts are in"
                + " the elementwise term)"), as);
        // a name torchao does not know: SYN002 at the value, and the default taken
        Specs.Job wrong = bind(titan("recipe_name = \"blockwise\""));
        assertNull(wrong.fp8Scaling());
        assertEquals(List.of("[float8] recipe_name = 'blockwise' (SYN002, not one of tensorwise, rowwise, rowwise_with_gw_hp): left"
                + " out, so the estimate takes torchao's default recipe, tensorwise scaling"), wrong.origin().unpriced());
        // torchao matches the name as written: "Rowwise" is refused there, so here too (not read as rowwise)
        Specs.Job cased = bind(titan("recipe_name = \"Rowwise\""));
        assertNull(cased.fp8Scaling());
        assertEquals(List.of("[float8] recipe_name = 'Rowwise' (SYN002, not one of tensorwise, rowwise, rowwise_with_gw_hp, spelt as"
                + " torchao spells them (Float8LinearConfig.from_recipe_name matches the name exactly)): left out, so the estimate"
                + " takes torchao's default recipe, tensorwise scaling"), cased.origin().unpriced());
    }
}
