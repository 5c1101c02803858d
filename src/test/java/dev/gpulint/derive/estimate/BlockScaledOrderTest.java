package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.EstimateManifest;
import org.junit.jupiter.api.Test;

/**
 * The efficiencies assumption names a Blackwell GPU's block-scaled GEMM efficiencies in the catalog's order of their keys
 * (gemm_mxfp8, then gemm_nvfp4) on every run: it once followed Map.of's order, which changes from one JVM to the next,
 * so the same plan printed different bytes.
 */
class BlockScaledOrderTest {

    @Test
    void theBlockScaledEfficienciesAreNamedInTheCatalogsOrder() {
        JobEstimate e = EstimateManifest.on("GB200").nodes(2).gpusPerNode(4).nvlink("switch: true, domain_size: 72")
                
                .model(EstimateManifest.LLAMA3_8B + ", seq_length: 8192")
                .parallelism("tp: 1, pp: 1").batch(1, 64).estimate();
        String eff = e.inputs().assumptions().stream().filter(a -> a.startsWith("GB200 efficiencies:")).findFirst().orElseThrow();
        int mx = eff.indexOf(", gemm_mxfp8 "), nv = eff.indexOf(", gemm_nvfp4 ");
        assertTrue(mx > 0 && nv > mx, eff);
        assertTrue(dev.gpulint.catalog.Compute.BLOCK_SCALED_EFFICIENCIES.indexOf("gemm_mxfp8")
                < dev.gpulint.catalog.Compute.BLOCK_SCALED_EFFICIENCIES.indexOf("gemm_nvfp4"), "the catalog's order");
    }
}
