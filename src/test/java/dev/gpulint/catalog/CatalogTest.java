package dev.gpulint.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Lookups by the names people and tools print, and the catalog figures with their sources (docs/catalog.md). */
class CatalogTest {
    private static final Catalog C = Catalog.builtIn();

    @ParameterizedTest
    @CsvSource({
            "A100-PCIe-40GB, A100-PCIe-40GB", "NVIDIA A100-PCIE-40GB, A100-PCIe-40GB", "a100 pcie 40gb, A100-PCIe-40GB",
            "NVIDIA H100 80GB HBM3, H100-SXM5-80GB", "NVIDIA-H100-80GB-HBM3, H100-SXM5-80GB", "NVIDIA H100 NVL, H100-NVL-94GB",
            "h100_sxm5_80gb, H100-SXM5-80GB", "GB200, GB200", "Tesla V100-SXM2-32GB, V100-SXM2-32GB", "L40S, L40S",
            "AMD Instinct MI300X, MI300X"})
    void gpuNames(String name, String canonical) {
        assertEquals(canonical, C.gpu(name).orElseThrow(() -> new AssertionError(name)).name());
    }

    /** Issue 35: every GPU of the runs people publish, by the names they write. */
    @ParameterizedTest
    @CsvSource({
            "A100 40GB, A100-SXM4-40GB", "A100-80GB, A100-SXM4-80GB", "NVIDIA A100 80GB PCIe, A100-PCIe-80GB",
            "H100, H100-SXM5-80GB", "DGX H100, H100-SXM5-80GB", "H100 PCIe, H100-PCIe-80GB", "H100 NVL, H100-NVL-94GB",
            "H100 96GB, H100-SXM5-96GB", "NVIDIA H100 96GB HBM3, H100-SXM5-96GB", "NVIDIA H200, H200-SXM-141GB",
            "B200, B200-SXM-180GB", "NVIDIA B200, B200-SXM-180GB", "DGX B200, B200-SXM-180GB", "GB200 NVL72, GB200",
            "NVIDIA GB200 NVL72, GB200", "gb200-nvl72, GB200", "GB300 NVL72, GB300", "NVIDIA GB300, GB300",
            "MI300X, MI300X", "AMD Instinct MI325X, MI325X", "MI355X, MI355X", "AMD Instinct MI350X, MI350X"})
    void theGpusOfPublishedRunsResolve(String name, String canonical) {
        Catalog.Gpu g = C.gpu(name).orElseThrow(() -> new AssertionError(name));
        assertEquals(canonical, g.name());
        Compute.Peaks p = C.compute().peaks(g.name()).orElseThrow(() -> new AssertionError("no peaks for " + g.name()));
        assertTrue(p.flops().get("bf16") > 0 && p.tdpWatts() > 0, "16-bit peak and TDP of " + g.name());
        assertTrue(C.compute().efficiencies(g.family()).isPresent(), "efficiencies of the family " + g.family());
        assertFalse(g.source().isBlank());
    }

    /** docs/catalog.md "Verification": every figure names how it was checked; none is left as recalled ([R]). */
    @Test
    void noCatalogFigureIsLeftAsRecalled() {
        assertFalse(C.gpus().isEmpty());
        for (Catalog.Gpu g : C.gpus()) {
            assertFalse(g.source().contains("[R]"), g.name() + ": " + g.source());
            C.compute().peaks(g.name()).ifPresent(p -> assertFalse(p.source().contains("[R]"), p.gpu() + ": " + p.source()));
        }
        for (Models.Entry m : Models.builtIn().entries()) {
            assertFalse(m.source().contains("[R]"), m.name() + ": " + m.source());
        }
    }

    /** The re-checked Blackwell Ultra and CDNA 3/4 peaks (docs/catalog.md "Verification"). */
    @Test
    void recheckedPeaksMatchTheirSources() {
        Compute.Peaks gb300 = C.compute().peaks("GB300").orElseThrow();
        assertEquals(80e12, gb300.flops().get("fp32"), 1, "BWU-DS per-GPU table: FP32 0.080 PFLOPS (recalled as 83)");
        assertEquals(15000e12, gb300.flops().get("nvfp4"), 1, "GB300 NVL72: 1,080 PFLOPS dense FP4 / 72");
        assertEquals(5000e12, gb300.flops().get("fp6"), 1, "GB300 NVL72: FP8/FP6 720 PFLOPS with sparsity / 72 / 2");
        assertEquals(1400, gb300.tdpWatts(), 0);
        assertEquals(2500e12, gb300.flops().get("bf16"), 1, "BWU-DS per-GPU: FP16/BF16 2.5 PFLOPS dense, as GB200");
        assertEquals(5000e12, gb300.flops().get("fp8"), 1, "BWU-DS per-GPU: FP8 5 PFLOPS dense, as GB200");
        Catalog.Gpu gb300Gpu = C.gpu("NVIDIA GB300").orElseThrow();
        assertEquals(279L << 30, gb300Gpu.memoryBytes(), 1, "BWU-DS per GPU: 279 GB (the 288 GB are the HBM stacks)");
        assertEquals(6, gb300Gpu.pcieGeneration(), "BWU-DS: PCIe Gen6, 256 GB/s");
        assertEquals(121e9, C.pcie(gb300Gpu.pcieGeneration()).orElseThrow().perDirection(), 1e9, "Gen6 x16 per direction");
        assertEquals(72, gb300Gpu.rackDomain());
        // HGX B300: the Blackwell Ultra datasheet's HGX column, its own entry (not GB300's), as nvidia-smi names it
        Catalog.Gpu b300 = C.gpu("NVIDIA B300 SXM6 AC").orElseThrow();
        assertEquals("B300-SXM-270GB", b300.name());
        assertEquals("B300-SXM-270GB", C.gpu("B300").orElseThrow().name(), "B300 is not GB300");
        assertEquals("GB300", C.gpu("GB300").orElseThrow().name());
        assertEquals(270L << 30, b300.memoryBytes(), 1, "BWU-DS HGX column: 270 GB per GPU");
        assertEquals(7.7e12, b300.hbmBytesPerSecond(), 1e9);
        assertEquals(6, b300.pcieGeneration());
        assertEquals(1800e9, C.nvlinkBidirectional(b300), 1);
        java.util.Map<String, Double> b300Peaks = C.compute().peaks("B300-SXM-270GB").orElseThrow().flops();
        assertEquals(2250e12, b300Peaks.get("bf16"), 1, "BWU-DS per-GPU: BF16 2.25 PFLOPS dense");
        assertEquals(4500e12, b300Peaks.get("fp8"), 1, "FP8 4.5");
        assertEquals(14000e12, b300Peaks.get("nvfp4"), 1, "FP4 14");
        assertEquals(1100, C.compute().peaks("B300-SXM-270GB").orElseThrow().tdpWatts(), 0);
        java.util.Map<String, Double> b300Eff = C.compute().efficiencies("B300").orElseThrow().values();
        assertEquals(0.68, b300Eff.get("gemm"), 1e-9, "B300's bf16 MAMF 0.786 × 0.86");
        assertEquals(0.64, b300Eff.get("gemm_fp8"), 1e-9, "B300's fp8 MAMF 0.745 × 0.86");
        assertEquals(0.31, b300Eff.get("attention"), 1e-9, "Blackwell Ultra's attention, GB300's");
        // GB300 and GB200 price alike but for attention: Hopper's fitted 0.3 × cuDNN 9.19 SDPA's share of the bf16 peak over
        // H200's at 8,192 tokens (GB200 0.474, GB300 0.514, H200 0.491), B200 through its 9.13 run beside GB300 (0.469)
        assertEquals(0.3 * 0.474 / 0.491, 0.29, 0.005);
        assertEquals(0.3 * 0.514 / 0.491, 0.31, 0.005);
        assertEquals(0.29, C.compute().efficiencies("GB200").orElseThrow().values().get("attention"), 1e-9);
        assertEquals(0.29, C.compute().efficiencies("B200").orElseThrow().values().get("attention"), 1e-9, "0.3 × 0.469 / 0.491");
        assertEquals(0.31, C.compute().efficiencies("GB300").orElseThrow().values().get("attention"), 1e-9, "0.3 × 0.514 / 0.491");
        assertEquals(0.3, C.compute().efficiencies("H200").orElseThrow().values().get("attention"), 1e-9, "the fitted Hopper rate stays");
        for (String k : java.util.List.of("gemm", "gemm_fp8", "gemm_nvfp4", "gemm_mxfp8", "hbm", "nvlink", "layer_s", "tp_overlap")) {
            assertEquals(C.compute().efficiencies("GB200").orElseThrow().values().get(k),
                    C.compute().efficiencies("GB300").orElseThrow().values().get(k), 1e-12, k + ": GB300 borrows GB200's");
        }
        // CDNA 4 dense peaks: 256 CUs x 8,192 FP8 FLOP per clock per CU x the peak clock; FP32 at 256 FLOP per clock per CU
        Compute.Peaks mi355 = C.compute().peaks("MI355X").orElseThrow();
        assertEquals(256 * 8192 * 2.4e9, mi355.flops().get("fp8"), 0.1e12);
        assertEquals(256 * 256 * 2.4e9, mi355.flops().get("fp32"), 0.1e12);
        Compute.Peaks mi350 = C.compute().peaks("MI350X").orElseThrow();
        assertEquals(256 * 8192 * 2.2e9, mi350.flops().get("fp8"), 0.1e12);
        assertEquals(256 * 256 * 2.2e9, mi350.flops().get("fp32"), 0.1e12);
        assertEquals(1000, mi350.tdpWatts(), 0);
        Compute.Peaks mi325 = C.compute().peaks("MI325X").orElseThrow();
        assertEquals(1307.4e12, mi325.flops().get("bf16"), 1e9, "AMD MI325X page: FP16/BF16 1,307.4 TFLOPS");
        assertEquals(2614.9e12, mi325.flops().get("fp8"), 1e9);
        assertEquals(1000, mi325.tdpWatts(), 0);
        Compute.Peaks mi250 = C.compute().peaks("MI250X").orElseThrow();
        assertEquals(47.9e12 / 2, mi250.flops().get("fp32"), 0.1e12, "one GCD: half the OAM's 47.9 TFLOPS vector FP32");
        assertEquals(383e12 / 2, mi250.flops().get("bf16"), 0.1e12);
    }

    @Test
    void blackwellAndCdna4PeaksPerDtypeFollowTheDatasheetRatios() {
        java.util.Map<String, Double> b200 = C.compute().peaks("B200-SXM-180GB").orElseThrow().flops();
        assertEquals(2250e12, b200.get("bf16"), 1, "HGX B200: 4.5 PFLOPS FP16/BF16 with sparsity, dense half");
        assertEquals(b200.get("fp8"), b200.get("mxfp8"), 1, "MXFP8 at the FP8 rate");
        assertEquals(2 * b200.get("fp8"), b200.get("nvfp4"), 1, "FP4 at twice it");
        java.util.Map<String, Double> gb300 = C.compute().peaks("GB300").orElseThrow().flops();
        assertEquals(3 * gb300.get("fp8"), gb300.get("nvfp4"), 1, "Blackwell Ultra: NVFP4 at three times FP8");
        java.util.Map<String, Double> mi355 = C.compute().peaks("MI355X").orElseThrow().flops();
        assertFalse(mi355.containsKey("nvfp4"), "NVFP4 is NVIDIA's");
        assertEquals(2 * mi355.get("fp8"), mi355.get("mxfp4"), 1);
        assertFalse(C.compute().peaks("H100-SXM5-80GB").orElseThrow().flops().containsKey("mxfp8"), "Hopper has no MX path");
        assertEquals(1830, C.compute().peaks("H100-SXM5-80GB").orElseThrow().clockMhz(), "989.4 = 132 SMs × 4,096 × 1.83 GHz");
        assertEquals(72, C.gpu("GB200 NVL72").orElseThrow().rackDomain());
        assertEquals(1800e9, C.nvlinkBidirectional(C.gpu("GB300").orElseThrow()), 1, "NVLink 5: 1.8 TB/s per GPU");
    }

    @Test
    void cloudNamesAreCatalogGpus() {
        assertEquals("A100-SXM4-40GB", C.cloud().accelerator("A100").orElseThrow(), "SkyPilot's unqualified A100 is the 40 GB part");
        assertEquals(new Cloud.Instance("H200-SXM-141GB", 8), C.cloud().instance("p5en.48xlarge").orElseThrow());
        assertTrue(C.cloud().instance("P5.48XLARGE").isEmpty(), "instance types are matched as written");
        assertTrue(C.cloud().accelerator("h100").isEmpty(), "the adapter retries upper-cased; the table is exact");
        // every name the cloud section maps to is a GPU of the catalog
        for (String t : java.util.List.of("p5.48xlarge", "p5e.48xlarge", "p4d.24xlarge", "p4de.24xlarge", "a3-highgpu-8g",
                "a3-megagpu-8g", "a2-highgpu-8g", "a2-ultragpu-8g", "Standard_ND96isr_H100_v5")) {
            assertTrue(C.gpu(C.cloud().instance(t).orElseThrow().gpu()).isPresent(), t);
        }
    }

    @Test
    void unknownGpu() {
        assertTrue(C.gpu("H900-SXM9").isEmpty());
    }

    @Test
    void figuresWithTheirConventions() {
        Catalog.Gpu h100 = C.gpu("H100-SXM5-80GB").orElseThrow();
        assertEquals(900e9, C.nvlinkBidirectional(h100), 1);                  // NVLink4, bidirectional per GPU
        assertEquals(80.0 * (1L << 30), h100.memoryBytes(), 1);               // "80 GB" HBM is 80 GiB
        assertEquals(3.35e12, h100.hbmBytesPerSecond(), 1);
        assertTrue(h100.nvswitch());
        // the 96 GB part Meta's Grand Teton hosts run: torchtitan's benchmark page states "96GB HBM2e with 2.4 TB/sec"
        Catalog.Gpu h96 = C.gpu("H100 96GB").orElseThrow();
        assertEquals("H100-SXM5-96GB", h96.name());
        assertEquals(2.4e12, h96.hbmBytesPerSecond(), 1);
        assertEquals(96.0 * (1L << 30), h96.memoryBytes(), 1);
        assertTrue(h96.source().contains("TT-GT"), h96.source());
        Catalog.Gpu a100pcie = C.gpu("A100-PCIe-80GB").orElseThrow();
        assertTrue(a100pcie.bridged());
        assertEquals(2, a100pcie.bridgeMax());
        assertEquals(600e9, C.nvlinkBidirectional(a100pcie), 1);
        assertEquals(4, C.gpu("H200 NVL").orElseThrow().bridgeMax());
        assertEquals(200e9, C.nvlinkBidirectional(C.gpu("A30").orElseThrow()), 1);
        assertFalse(C.gpu("L4").orElseThrow().hasNvlink());
        assertEquals(72, C.gpu("GB200").orElseThrow().rackDomain());
        assertEquals(1800e9, C.nvlink(5).orElseThrow().perGpuBidirectional(), 1);
        assertEquals(31.5e9, C.pcie(4).orElseThrow().perDirection(), 1);
        assertEquals(64e9, C.pcie(4).orElseThrow().bidirectional(), 1);
    }

    @Test
    void portSpeedsPerDirection() {
        assertEquals(50e9, C.linkSpeeds("infiniband").stream().filter(s -> s.name().equals("NDR")).findFirst()
                .orElseThrow().bytesPerSecond(), 1);
        assertEquals(3.125e9, C.linkSpeeds("roce").stream().filter(s -> s.name().equals("25GbE")).findFirst()
                .orElseThrow().bytesPerSecond(), 1);
        Catalog.Nic cx6dx = C.nic("ConnectX-6 Dx").orElseThrow();
        assertFalse(cx6dx.protocols().contains("infiniband"));
        assertEquals(400e9 / 8, C.nic("CX-7").orElseThrow().maxInfiniband(), 1);
    }
}
