package dev.gpulint.derive.estimate;

import dev.gpulint.spec.ParallelDim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.Fixture;
import org.junit.jupiter.api.Test;

/**
 * Issue 35's GPUs as the estimate prices them: the peak of the precision the recipe states (fp8, MXFP8, NVFP4), the
 * NVL72 rack on NVLink 5, a stated clock limit, and a declared or catalogued 96 GB H100. Jobs are our own manifests.
 */
class GpuVariantsTest {

    /** Llama 3 70B's shape (Meta's config.json) at {@code seq} tokens. */
    private static final String LLAMA70 = "  layers: 80\n  hidden_size: 8192\n  attention_heads: 64\n  kv_heads: 8\n"
            + "  ffn_hidden_size: 28672\n  vocab_size: 128256\n  gated_mlp: true\n  tied_embeddings: false\n";

    private static JobEstimate estimate(String gpu, String gpuExtra, int nodes, int perNode, String nvlink, String dtype, int seq,
                                        String parallelism, String optimizer) {
        String yaml = "kind: cluster\nname: c\nfabric: { type: infiniband, topology: rail-optimized }\nnode_groups:\n"
                + "  - name: g\n    count: " + nodes + "\n    gpu: { model: " + gpu + ", count: " + perNode + gpuExtra + " }\n"
                + "    nvlink: " + nvlink + "\n"
                + "    nics:\n      - { model: ConnectX-7, count: " + perNode + ", speed: 400 Gb/s, protocol: infiniband, gpudirect_rdma: true }\n"
                + "---\nkind: training_job\nname: j\ncluster: c\nnode_group: g\nnodes: " + nodes + "\n"
                + "model:\n  dtype: " + dtype + "\n" + LLAMA70 + "  seq_length: " + seq + "\n"
                + "parallelism: " + parallelism + "\n"
                + "batch: { micro_batch_size: 1, global_batch_size: 64 }\n"
                + "optimizer: " + optimizer + "\nrecompute: none\n";
        Fixture f = Fixture.of(yaml);
        JobEstimate e = JobEstimate.of(f.jobs().get(0), f.catalog());
        assertNotNull(e.estimate(), "estimated (missing " + e.inputs().missing() + ")");
        return e;
    }

    private static JobEstimate hgx(String gpu, String dtype) {
        return estimate(gpu, "", 8, 8, "{ switch: true }", dtype, 8192, "{ tp: 8, pp: 4, virtual_pp: 5, sequence_parallel: true }",
                "{ distributed: true, bytes_per_parameter: 16 }");
    }

    @Test
    void thePeakIsTheRecipesDtypeOnThatGpu() {
        Hardware b200 = hgx("B200", "nvfp4").inputs().hardware();
        assertEquals(9000e12, b200.gemmPeak(ModelShape.Dtype.NVFP4), 1, "NVFP4: B200's dense FP4, twice its FP8");
        assertEquals(4500e12, b200.gemmPeak(ModelShape.Dtype.MXFP8), 1);
        assertEquals(4500e12, b200.gemmPeak(ModelShape.Dtype.FP8), 1);
        assertEquals(2250e12, b200.gemmPeak(ModelShape.Dtype.BF16), 1);
        assertEquals(0.63, b200.gemmEfficiency(ModelShape.Dtype.NVFP4), 1e-9, "B200's gemm_nvfp4: bf16 MAMF 0.776 × 0.946 × 0.86");
        assertEquals(0.66, b200.gemmEfficiency(ModelShape.Dtype.MXFP8), 1e-9, "no MXFP8 kernel table: B200's gemm_fp8 carried over");
        assertEquals(0.67, b200.gemmEfficiency(ModelShape.Dtype.BF16), 1e-9, "B200's gemm: bf16 MAMF 0.776 × 0.86");
        double bf16 = hgx("B200", "bf16").estimate().time().compute();
        double fp8 = hgx("B200", "fp8").estimate().time().compute();
        double mx = hgx("B200", "mxfp8").estimate().time().compute();
        double fp4 = hgx("B200", "nvfp4").estimate().time().compute();
        assertTrue(fp4 < mx && mx <= fp8 && fp8 < bf16, "compute nvfp4 " + fp4 + " < mxfp8 " + mx + " ≤ fp8 " + fp8 + " < bf16 " + bf16);
        Hardware gb300 = estimate("GB300", "", 2, 4, "{ switch: true, domain_size: 72 }", "nvfp4", 8192,
                "{ tp: 8, pp: 1, sequence_parallel: true }", "{ distributed: true, bytes_per_parameter: 16, zero_stage: 0 }").inputs().hardware();
        assertEquals(15000e12, gb300.gemmPeak(ModelShape.Dtype.NVFP4), 1, "Blackwell Ultra's dense NVFP4");
        assertEquals(0.59, gb300.gemmEfficiency(ModelShape.Dtype.NVFP4), 1e-9, "the Grace-Blackwell row's gemm_nvfp4: GB200's bf16 MAMF 0.729 × 0.946 × 0.86");
        assertEquals(0.62, gb300.gemmEfficiency(ModelShape.Dtype.FP8), 1e-9, "GB200's fp8 MAMF 0.723 × 0.86");
    }

    private static Term.Compute compute(JobEstimate e) {
        return e.estimate().terms().stream().filter(t -> t instanceof Term.Compute).map(t -> (Term.Compute) t).findFirst().orElseThrow();
    }

    @Test
    void gb300RunsAttentionAtCudnnsMeasuredGainOverGb200AndEverythingElseAsGb200() {
        // the same job on GB200 and GB300 trays (fp8: both 5 PFLOPS dense): only the attention rate differs
        String par = "{ tp: 2, pp: 1, sequence_parallel: true }", opt = "{ distributed: true, bytes_per_parameter: 16, zero_stage: 0 }";
        Term.Compute gb200 = compute(estimate("GB200", "", 4, 4, "{ switch: true, domain_size: 72 }", "fp8", 8192, par, opt));
        Term.Compute gb300 = compute(estimate("GB300", "", 4, 4, "{ switch: true, domain_size: 72 }", "fp8", 8192, par, opt));
        assertEquals(2500e12 * 0.29, gb200.attentionRate(), 1e9, "GB200: bf16 peak × 0.29 (0.3 × cuDNN SDPA share GB200 / H200)");
        assertEquals(2500e12 * 0.31, gb300.attentionRate(), 1e9, "GB300: bf16 peak × 0.31 (0.3 × cuDNN SDPA share GB300 / H200)");
        assertEquals(gb200.attentionFlops(), gb300.attentionFlops(), 1, "the same FLOPs");
        assertEquals(gb200.gemmRate(), gb300.gemmRate(), 1, "the same GEMM rate: GB300 borrows GB200's MAMF share");
        assertEquals(gb200.hbmRate(), gb300.hbmRate(), 1, "the same 8 TB/s");
        assertTrue(gb300.seconds() < gb200.seconds(), gb300.seconds() + " < " + gb200.seconds());
        double attentionSaved = gb200.layersPerStage() * (gb200.attentionFlops() / gb200.attentionRate() - gb300.attentionFlops() / gb300.attentionRate());
        assertEquals(attentionSaved, gb200.seconds() - gb300.seconds(), 1e-9, "the whole difference is the attention term");
    }

    @Test
    void cdnaTakesItsMeasuredMatmulShareTimesTheSustainedTrainingFactorLikeEveryFamily() {
        // STAS's MAMF, bf16 share of the dense peak (docs/plan.md), × 0.86 (Ampere's 0.75 / 0.87), to two places
        dev.gpulint.catalog.Catalog c = dev.gpulint.catalog.Catalog.builtIn();
        java.util.Map<String, Double> mamf = java.util.Map.of("MI300X", 0.514, "MI325X", 0.604, "MI355X", 0.680,
                "MI250X", 0.514, "MI350X", 0.680);
        for (var m : mamf.entrySet()) {
            double gemm = c.compute().efficiencies(m.getKey()).orElseThrow().values().get("gemm");
            assertEquals(Math.round(m.getValue() * 0.86 * 100) / 100.0, gemm, 1e-9, m.getKey());
        }
        assertEquals(0.44, c.compute().efficiencies("MI300X").orElseThrow().values().get("gemm"), 1e-9, "0.514 × 0.86, not MAMF's 0.5 alone");
        assertEquals(0.52, c.compute().efficiencies("MI325X").orElseThrow().values().get("gemm"), 1e-9, "0.604 × 0.86");
        assertEquals(0.58, c.compute().efficiencies("MI355X").orElseThrow().values().get("gemm"), 1e-9, "0.680 × 0.86");
        assertTrue(c.compute().efficiencies("MI325X").orElseThrow().source().contains("60.4 %"));
    }

    @Test
    void aDtypeTheGpuLacksRunsOnTheNextPathAndSaysSo() {
        JobEstimate h100 = hgx("H100-SXM5-80GB", "mxfp8");
        assertEquals(ModelShape.Dtype.FP8, h100.inputs().hardware().gemmPath(ModelShape.Dtype.MXFP8));
        assertEquals(1979e12, h100.inputs().hardware().gemmPeak(ModelShape.Dtype.MXFP8), 1);
        assertTrue(h100.inputs().assumptions().contains(
                "H100-SXM5-80GB has no mxfp8 tensor path in the catalog: its GEMMs are priced on the fp8 path (1979 TFLOP/s × 0.620)"),
                String.join("\n", h100.inputs().assumptions()));
        JobEstimate a100 = estimate("A100-SXM4-80GB", "", 8, 8, "{ switch: true }", "fp8", 4096,
                "{ tp: 8, pp: 4, sequence_parallel: true }", "{ distributed: true, bytes_per_parameter: 16 }");
        assertEquals(ModelShape.Dtype.BF16, a100.inputs().hardware().gemmPath(ModelShape.Dtype.FP8), "A100 has no fp8 path");
        assertFalse(a100.inputs().hardware().quantizedGemms(ModelShape.Dtype.FP8), "so no fp8 casts either");
        assertTrue(hgx("B200", "mxfp8").inputs().assumptions().stream().noneMatch(a -> a.contains("tensor path")),
                "B200 runs MXFP8 on its own path");
    }

    @Test
    void anNvl72JobIsPricedOnNvlink5InsideTheRack() {
        // 18 GB200 trays of 4 GPUs: tp 8 spans two trays and dp 9 spans the rack, all inside its NVLink domain
        JobEstimate e = estimate("GB200", "", 18, 4, "{ switch: true, domain_size: 72 }", "bf16", 8192,
                "{ tp: 8, pp: 1, sequence_parallel: true }", "{ distributed: true, bytes_per_parameter: 16 }");
        Estimate.Traffic tp = e.estimate().traffic().stream().filter(t -> t.dim() == ParallelDim.TP).findFirst().orElseThrow();
        assertEquals(Tier.NVLINK, tp.cost().tier(), "tp across trays stays on NVLink");
        assertEquals(900e9, tp.cost().lineRate(), 1, "NVLink 5: 1.8 TB/s bidirectional, 900 GB/s per direction");
        assertEquals(0.93, tp.cost().efficiency(), 1e-9, "Blackwell's nvlink: nccl-tests busbw ~840 of 900 GB/s on a full NVL72 rack");
        assertEquals(0.8, hgx("H100-SXM5-80GB", "bf16").inputs().hardware().efficiency().nvlink(), 1e-9, "Hopper keeps its 0.8");
        Estimate.Traffic dp = e.estimate().traffic().stream().filter(t -> t.dim() == ParallelDim.DP).findFirst().orElseThrow();
        assertEquals(Tier.NVLINK, dp.cost().tier(), "dp over the 72 GPUs of the rack: NVLink, not the trays' NICs");
        assertEquals(Tier.NVLINK, e.estimate().time().tiers().get(ParallelDim.DP));
        // the same 72 GPUs as 18 HGX-style nodes of 4 without the rack: dp leaves on the NICs
        JobEstimate nodes = estimate("GB200", "", 18, 4, "{ switch: true, domain_size: 4 }", "bf16", 8192,
                "{ tp: 4, pp: 1, sequence_parallel: true }", "{ distributed: true, bytes_per_parameter: 16 }");
        assertEquals(Tier.NETWORK, nodes.estimate().time().tiers().get(ParallelDim.DP));
    }

    @Test
    void aStatedClockLimitSlowsComputeByItsRatioAndAPowerLimitAloneIsNotGuessed() {
        JobEstimate full = hgx("H100-SXM5-80GB", "bf16");
        JobEstimate capped = estimate("H100-SXM5-80GB", ", clock_limit_mhz: 1464", 8, 8, "{ switch: true }", "bf16", 8192,
                "{ tp: 8, pp: 4, virtual_pp: 5, sequence_parallel: true }", "{ distributed: true, bytes_per_parameter: 16 }");
        assertEquals(989.5e12 * 1464 / 1830, capped.inputs().hardware().gemmPeak(ModelShape.Dtype.BF16), 1e9, "× 1464 / 1830 = 0.8");
        assertTrue(capped.estimate().time().compute() > full.estimate().time().compute() * 1.1,
                "compute " + capped.estimate().time().compute() + " vs " + full.estimate().time().compute());
        assertTrue(capped.inputs().assumptions().stream().anyMatch(a -> a.startsWith("gpu.clock_limit_mhz 1464 MHz: every dense peak × 0.8")),
                String.join("\n", capped.inputs().assumptions()));
        JobEstimate power = estimate("H100-SXM5-96GB", ", power_limit_w: 500", 8, 8, "{ switch: true }", "bf16", 8192,
                "{ tp: 8, pp: 4, virtual_pp: 5, sequence_parallel: true }", "{ distributed: true, bytes_per_parameter: 16 }");
        JobEstimate uncapped = estimate("H100-SXM5-96GB", "", 8, 8, "{ switch: true }", "bf16", 8192,
                "{ tp: 8, pp: 4, virtual_pp: 5, sequence_parallel: true }", "{ distributed: true, bytes_per_parameter: 16 }");
        assertEquals(uncapped.estimate().time().compute(), power.estimate().time().compute(), 1e-9, "a power cap alone changes no peak");
        // the 96 GB part's HBM (2.4 TB/s, torchtitan's Grand Teton page) slows its memory-bound kernels against the 80 GB part's 3.35
        assertEquals(2.4e12, power.inputs().hardware().hbmBytesPerSecond(), 1);
        assertTrue(uncapped.estimate().time().compute() > full.estimate().time().compute(),
                uncapped.estimate().time().compute() + " vs " + full.estimate().time().compute());
        assertTrue(power.inputs().assumptions().stream().anyMatch(a -> a.startsWith(
                "gpu.power_limit_w 500 W is below H100-SXM5-96GB's 700 W TDP: the clock a power cap sustains depends on the workload")),
                String.join("\n", power.inputs().assumptions()));
    }

    @Test
    void aClockBelowThePeaksClockScalesThemByItsRatioAndNothingElseDoes() {
        assertEquals(1200.0 / 1830, GpuClock.factor(1200, 1830), 1e-12, "a clock below the datasheet's: its ratio");
        assertEquals(1, GpuClock.factor(1980, 1830), 0, "the maximum boost clock, above the datasheet's: no gain");
        assertEquals(1, GpuClock.factor(1830, 1830), 0);
        assertEquals(1, GpuClock.factor(1200, 0), 0, "a GPU without the clock of its peaks keeps them");
        assertEquals(1, GpuClock.factor(0, 1830), 0, "no clock stated or measured");
        assertEquals(1200.0 / 1830, new GpuClock(1200, null, 500, null).scale(1830), 1e-12, "a stated limit by the same rule");
    }

    @Test
    void aNinetySixGigabyteH100IsNoFalseOom() {
        // Llama 3 70B, tp 8 × pp 2 × dp 4, 16 bytes per parameter (bf16 gradients) without the distributed optimizer, seq 8192
        String par = "{ tp: 8, pp: 2, sequence_parallel: true }", opt = "{ distributed: false, bytes_per_parameter: 16 }";
        JobEstimate h80 = estimate("H100-SXM5-80GB", "", 8, 8, "{ switch: true }", "bf16", 8192, par, opt);
        double need = h80.estimate().largestStage().total();
        assertTrue(h80.estimate().outOfMemory(), "does not fit 80 GiB: " + need / 1e9 + " GB");
        assertTrue(need < 96.0 * (1L << 30), "but fits 96 GiB: " + need / 1e9 + " GB");
        JobEstimate h96 = estimate("H100-SXM5-96GB", "", 8, 8, "{ switch: true }", "bf16", 8192, par, opt);
        assertEquals(96.0 * (1L << 30), h96.estimate().capacityBytes(), 1);
        assertFalse(h96.estimate().outOfMemory(), "the catalog's 96 GB variant");
        JobEstimate declared = estimate("H100-SXM5-80GB", ", memory: 96 GB", 8, 8, "{ switch: true }", "bf16", 8192, par, opt);
        assertFalse(declared.estimate().outOfMemory(), "a declared gpu.memory is the capacity");
        assertTrue(declared.inputs().assumptions().stream().anyMatch(a -> a.startsWith("GPU memory ") && a.contains("gpu.memory declares it")),
                String.join("\n", declared.inputs().assumptions()));
    }
}
