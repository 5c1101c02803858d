package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.plan.EstimateWords;
import dev.gpulint.derive.Fixture;
import org.junit.jupiter.api.Test;

/**
 * CPU activation offload (Megatron's --cpu-offloading-num-layers, the native offload.activation_layers): the offloaded
 * layers' activations move to host memory (one layer's worth stays on the GPU while it is copied) and their copies over
 * PCIe cost what the offloaded layers' compute does not hide.
 */
class OffloadTest {
    private static JobEstimate job(String offload) {
        Fixture f = Fixture.of("""
                kind: cluster
                name: c
                node_groups:
                  - name: g
                    count: 1
                    gpu: { model: H100-SXM5-80GB, count: 8 }
                    nvlink: { switch: true }
                ---
                kind: training_job
                name: j
                cluster: c
                node_group: g
                nodes: 1
                gpus_per_node: 8
                model: { dtype: bf16, layers: 32, hidden_size: 4096, attention_heads: 32, kv_heads: 8, ffn_hidden_size: 14336,
                         vocab_size: 128256, gated_mlp: true, tied_embeddings: false, seq_length: 8192 }
                parallelism: { tp: 1, pp: 1 }
                batch: { micro_batch_size: 1, global_batch_size: 8 }
                optimizer: { distributed: true }
                recompute: none
                %s
                """.formatted(offload));
        return JobEstimate.of(f.jobs().get(0), f.catalog());
    }

    @Test
    void offloadedLayersActivationsMoveToHostMemory() {
        JobEstimate none = job(""), some = job("offload: { activation_layers: 20 }");
        assertEquals(20, some.inputs().layout().offloadLayers());
        ModelShape m = some.inputs().model();
        Layout l = some.inputs().layout();
        double per = MemoryModel.perLayerBytes(m, l);
        double a0 = none.estimate().stages().get(0).activations(), a1 = some.estimate().stages().get(0).activations();
        // one micro-batch in flight (pp 1): 20 layers' activations leave, one layer's buffer stays
        assertEquals(a0 - 19 * per, a1, 1);
        assertEquals(20 * per, MemoryModel.hostActivations(m, l, 0), 1);
        assertEquals(0, MemoryModel.hostActivations(m, none.inputs().layout(), 0));
        assertTrue(some.inputs().assumptions().stream().anyMatch(a -> a.startsWith("CPU activation offload: 20 layers")),
                some.inputs().assumptions().toString());
    }

    @Test
    void theCopiesOverPcieCostWhatTheOffloadedLayersComputeDoesNotHide() {
        JobEstimate none = job(""), some = job("offload: { activation_layers: 20 }");
        Estimate e = some.estimate();
        String note = e.terms().stream().filter(n -> n.term().equals("offload")).findFirst().map(EstimateWords::text).orElseThrow();
        assertTrue(note.startsWith("20 layers' activations ("), note);
        assertTrue(note.contains("over PCIe Gen5 at 50.4 GB/s (63.0 GB/s per direction × 0.80)"), note);
        // 20 × ~1.2 GB each way at 50 GB/s outlasts 20 layers of an 8B model's forward on one H100: the step grows
        assertTrue(e.time().step() > none.estimate().time().step(), e.time().step() + " vs " + none.estimate().time().step());
        assertTrue(none.estimate().terms().stream().noneMatch(n -> n.term().equals("offload")));
    }
}
