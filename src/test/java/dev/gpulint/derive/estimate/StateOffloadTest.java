package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.plan.EstimateWords;
import dev.gpulint.testing.EstimateManifest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Model states in host memory (StateOffload): ZeRO-Offload, FSDP CPU offload and Megatron's optimizer CPU offload take
 * their states off each GPU's memory, exactly, and the step pays the host copies on the GPU's host link (PCIe, or a
 * superchip's NVLink-C2C).
 */
class StateOffloadTest {
    private static JobEstimate job(String gpu, int count, String optimizer, String offload) {
        return EstimateManifest.on(gpu).gpusPerNode(count)
                .model(EstimateManifest.LLAMA3_8B + ", seq_length: 4096")
                .parallelism("tp: 1, pp: 1").batch(1, 32).optimizer(optimizer).recompute("full").line(offload).estimate();
    }

    private static JobEstimate h100(String optimizer, String offload) {
        return job("H100-SXM5-80GB", 8, optimizer, offload);
    }

    private static <T extends Term> List<T> all(Estimate e, Class<T> kind) {
        return e.terms().stream().filter(kind::isInstance).map(kind::cast).toList();
    }

    @Test
    void zeroOffloadAtStage2TakesOptimizerStatesAndGradientShardsOffTheGpu() {
        JobEstimate on = h100("zero_stage: 2", ""), off = h100("zero_stage: 2", "offload: { optimizer: cpu }");
        MemoryModel.Stage a = on.estimate().stages().get(0), b = off.estimate().stages().get(0);
        assertEquals(a.weights(), b.weights());
        assertEquals(a.activations(), b.activations());
        assertTrue(a.optimizer() > 1e9 && a.gradients() > 1e8, a.toString());
        assertEquals(0, b.optimizer());
        assertEquals(0, b.gradients());
        // the 16-bit weights stay: 2 bytes per parameter, unsharded at stage 2
        assertEquals(2 * a.parameters(), b.weights(), 1);

        Term.HostStates h = all(off.estimate(), Term.HostStates.class).get(0);
        double local = a.parameters() / 8;                     // the gradient and optimizer shard over dp 8
        assertEquals("PCIe Gen5", h.link());
        assertEquals(h.linkPerDirection() * h.efficiency(), h.rate());
        assertTrue(h.downPerMicroBatch(), "the host accumulates each micro-batch's reduced gradient shard");
        assertFalse(h.upPerMicroBatch());
        assertEquals(local * 2, h.upBytes(), 1);               // the updated bf16 weights' shard, once per step
        assertEquals(local * GradientReduce.bytes(ModelShape.Dtype.BF16, off.inputs().bytes()), h.downBytes(), 1);
        long mb = off.inputs().layout().microBatches();
        assertEquals(4, mb);
        double stageS = h.stageSeconds();
        assertEquals(mb * Math.max(0, h.downBytes() / h.rate() - stageS * 2 / 3) + h.upBytes() / h.rate(), h.exposed(), 1e-12);
        // the step: the exposed copies added, the GPU's Adam update gone (the CPU's step is named, not priced)
        Term.Optimizer gpuAdam = all(off.estimate(), Term.Optimizer.class).get(0);
        assertEquals(0, gpuAdam.localParameters());
        double without = on.estimate().time().step() - all(on.estimate(), Term.Optimizer.class).get(0).seconds();
        assertEquals(without + h.exposed(), off.estimate().time().step(), 1e-9);
        String said = off.inputs().assumptions().stream().filter(s -> s.startsWith("offloaded model states")).findFirst().orElseThrow();
        assertEquals("offloaded model states: the optimizer states and gradients in host memory (offload.optimizer), counted off each"
                + " GPU's memory; the host copies are priced (host-states); the optimizer's step on the CPU is not priced (no published"
                + " CPU-Adam throughput for the host's CPU), so the step time is a floor", said);
        String words = EstimateWords.text(h);
        assertTrue(words.startsWith("over PCIe Gen5 at 50.4 GB/s (63.0 GB/s per direction × 0.80): "), words);
        assertTrue(words.endsWith("4 micro-batches: " + dev.gpulint.derive.estimate.Units.seconds(h.exposed()) + " exposed per step"), words);
    }

    @Test
    void megatronsFractionMovesThatShareOfTheOptimizerStatesAndKeepsTheGradientBuffer() {
        JobEstimate on = h100("distributed: true", ""),
                off = h100("distributed: true", "offload: { optimizer: cpu, optimizer_fraction: 0.5 }");
        MemoryModel.Stage a = on.estimate().stages().get(0), b = off.estimate().stages().get(0);
        assertEquals(a.optimizer() / 2, b.optimizer(), 1);
        assertEquals(a.gradients(), b.gradients());
        assertEquals(a.weights(), b.weights());
        Term.HostStates h = all(off.estimate(), Term.HostStates.class).get(0);
        double local = a.parameters() / 8;
        assertFalse(h.downPerMicroBatch());
        assertEquals(0.5 * local * 2, h.upBytes(), 1);
        assertEquals((h.downBytes() + h.upBytes()) / h.rate(), h.exposed(), 1e-12);
        assertEquals(local / 2, all(off.estimate(), Term.Optimizer.class).get(0).localParameters(), 1);
    }

    @Test
    void fsdpParameterOffloadAtStage3LeavesNoModelStatesOnTheGpuAndCopiesTheShardUpEachPass() {
        JobEstimate off = h100("zero_stage: 3", "offload: { optimizer: cpu, parameters: cpu }");
        MemoryModel.Stage b = off.estimate().stages().get(0);
        assertEquals(0, b.weights() + b.gradients() + b.optimizer());
        assertTrue(b.activations() > 0);
        Term.HostStates h = all(off.estimate(), Term.HostStates.class).get(0);
        double local = b.parameters() / 8;
        assertTrue(h.upPerMicroBatch() && h.downPerMicroBatch());
        assertEquals(2 * local * 2, h.upBytes(), 1);       // the bf16 shard before the forward's and the backward's all-gathers
        long mb = off.inputs().layout().microBatches();
        assertEquals(mb * (Math.max(0, h.downSeconds() - h.stageSeconds() * 2 / 3) + Math.max(0, h.upSeconds() - h.stageSeconds())),
                h.exposed(), 1e-12);
        // parameters offloaded below stage 3: the GPU computes with them whole; nothing counted off, and said so
        JobEstimate two = h100("zero_stage: 2", "offload: { parameters: cpu }");
        assertEquals(h100("zero_stage: 2", "").estimate().stages().get(0).total(), two.estimate().stages().get(0).total());
        assertTrue(two.inputs().assumptions().contains("offloaded model states: the parameters offloaded (offload.parameters) but kept"
                + " whole on the GPU below ZeRO-3, as the GPU computes with them: nothing counted off the GPU"), two.inputs().assumptions().toString());
    }

    @Test
    void aGraceSuperchipsGpuCopiesOverNvlinkC2c() {
        JobEstimate gb = job("GB200", 4, "zero_stage: 2", "offload: { optimizer: cpu }");
        Term.HostStates h = all(gb.estimate(), Term.HostStates.class).get(0);
        assertEquals("NVLink-C2C", h.link());
        assertEquals(450e9, h.linkPerDirection());
    }

    @Test
    void withoutOffloadNothingChanges() {
        JobEstimate on = h100("zero_stage: 2", "");
        assertTrue(all(on.estimate(), Term.HostStates.class).isEmpty());
        assertTrue(on.inputs().assumptions().stream().noneMatch(s -> s.startsWith("offloaded model states")));
        assertEquals(StateOffload.NONE, on.inputs().variants().offload());
    }
}
