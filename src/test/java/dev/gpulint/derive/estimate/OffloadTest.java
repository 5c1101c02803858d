package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.plan.EstimateWords;
import dev.gpulint.testing.EstimateManifest;
import org.junit.jupiter.api.Test;

/**
 * CPU activation offload (Megatron's --cpu-offloading-num-layers, the native offload.activation_layers): the offloaded
 * layers' activations move to host memory (one layer's worth stays on the GPU while it is copied) and their copies over
 * PCIe cost what the offloaded layers' compute does not hide.
 */
class OffloadTest {
    private static JobEstimate job(String offload) {
        return job("H100-SXM5-80GB", 8, offload);
    }

    private static JobEstimate job(String gpu, int count, String offload) {
        return EstimateManifest.on(gpu).gpusPerNode(count)
                .model(EstimateManifest.LLAMA3_8B + ", seq_length: 8192")
                .parallelism("tp: 1, pp: 1").batch(1, 8).optimizer("distributed: true").recompute("none").line(offload).estimate();
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

    @Test
    void aGraceSuperchipsGpuOffloadsActivationsOverNvlinkC2cNotPcie() {
        // GB200: the GPU reaches its Grace CPU's memory over NVLink-C2C, 900 GB/s bidirectional (hardware-facts.md §1), the
        // same host link the offloaded model states use (Links.hostPerDirection); its PCIe link does not carry the copies
        JobEstimate gb = job("GB200", 4, "offload: { activation_layers: 20 }");
        Term.Offload o = gb.estimate().terms().stream().filter(Term.Offload.class::isInstance).map(Term.Offload.class::cast)
                .findFirst().orElseThrow();
        assertEquals("NVLink-C2C", o.link());
        assertEquals(450e9, o.linkPerDirection());
        assertEquals(450e9 * o.pcieEfficiency(), o.rate(), 1);
        assertEquals(o.bytes() / o.rate(), o.copySeconds(), 1e-12);
        assertEquals(gb.inputs().hardware().links().hostPerDirection(), o.linkPerDirection());
        String note = EstimateWords.text(o);
        assertTrue(note.contains(" to host memory and back over NVLink-C2C at 360.0 GB/s (450.0 GB/s per direction × 0.80): "), note);
        // the H100's host link is its PCIe Gen5 x16 link, 63 GB/s per direction (hardware-facts.md §2)
        Links h100 = job("").inputs().hardware().links();
        assertEquals(63e9, h100.hostPerDirection());
        assertEquals("PCIe Gen5", h100.hostLinkName());
    }
}
