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
