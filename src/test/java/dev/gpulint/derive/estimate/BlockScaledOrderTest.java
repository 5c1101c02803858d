package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The efficiencies assumption names a Blackwell GPU's block-scaled GEMM efficiencies in the catalog's order of their keys
 * (gemm_mxfp8, then gemm_nvfp4) on every run: it once followed Map.of's order, which changes from one JVM to the next,
 * so the same plan printed different bytes.
 */
class BlockScaledOrderTest {

    @Test
    void theBlockScaledEfficienciesAreNamedInTheCatalogsOrder() {
        dev.gpulint.derive.Fixture f = dev.gpulint.derive.Fixture.of("""
                kind: cluster
                name: c
                node_groups:
                  - name: g
                    count: 2
                    gpu: { model: GB200, count: 4 }
                    nvlink: { switch: true, domain_size: 72 }
                ---
                kind: training_job
                name: j
                cluster: c
                node_group: g
                nodes: 2
                gpus_per_node: 4
                model: { dtype: bf16, layers: 32, hidden_size: 4096, attention_heads: 32, kv_heads: 8, ffn_hidden_size: 14336,
                         vocab_size: 128256, gated_mlp: true, tied_embeddings: false, seq_length: 8192 }
                parallelism: { tp: 1, pp: 1 }
                batch: { micro_batch_size: 1, global_batch_size: 64 }
                """);
        JobEstimate e = JobEstimate.of(f.jobs().get(0), f.catalog());
        String eff = e.inputs().assumptions().stream().filter(a -> a.startsWith("GB200 efficiencies:")).findFirst().orElseThrow();
        int mx = eff.indexOf(", gemm_mxfp8 "), nv = eff.indexOf(", gemm_nvfp4 ");
        assertTrue(mx > 0 && nv > mx, eff);
        assertTrue(dev.gpulint.catalog.Compute.BLOCK_SCALED_EFFICIENCIES.indexOf("gemm_mxfp8")
                < dev.gpulint.catalog.Compute.BLOCK_SCALED_EFFICIENCIES.indexOf("gemm_nvfp4"), "the catalog's order");
    }
}
