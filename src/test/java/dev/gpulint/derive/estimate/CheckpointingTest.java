package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.Fixture;
import dev.gpulint.derive.estimate.Layout.Recompute;
import dev.gpulint.derive.estimate.ModelShape.Dtype;
import dev.gpulint.spec.Recomputation;
import dev.gpulint.testing.EstimateManifest;
import org.junit.jupiter.api.Test;

/** Activation checkpointing's memory and recompute terms (Checkpointing), on Llama 3 8B's shape. */
class CheckpointingTest {

    private static final ModelShape LLAMA3_8B = new ModelShape(32, 4096, 32, 8, 128, 14336, 128256, 8192, true, false, 1, 1, Dtype.BF16);

    private static Layout layout(int tp, Recompute r, int every) {
        return new Layout(tp, 1, 8 / tp, 1, 1, 1, 1, 8L / tp, 3, false, r, tp > 1, every);
    }

    @Test
    void opLevelSacKeepsWhatTorchtitansPolicySaves() {
        double[] one = Checkpointing.opPerLayer(LLAMA3_8B, layout(1, Recompute.OP, 1));
        // input 2 + wq 2 + wv 2·1024/4096 + SDPA 2 + w1 2·14336/4096 (÷ tp), w2's output 2
        assertEquals(13.5, one[0], 1e-12);
        assertEquals(2, one[1], 1e-12);
        double[] tp8 = Checkpointing.opPerLayer(LLAMA3_8B, layout(8, Recompute.OP, 1));
        assertEquals(17.5, tp8[0], 1e-12, "and the two reduce-scatters' outputs");
        assertEquals(2, tp8[1], 1e-12, "w2's partial sums are whole on each tp rank");
    }

    @Test
    void memoryOfEachChoiceAgainstNone() {
        double sbh = 8192.0 * 4096;
        double none = MemoryModel.activations(LLAMA3_8B, layout(1, Recompute.NONE, 1), 0);
        double op = MemoryModel.activations(LLAMA3_8B, layout(1, Recompute.OP, 1), 0);
        double every2 = MemoryModel.activations(LLAMA3_8B, layout(1, Recompute.EVERY, 2), 0);
        double full = MemoryModel.activations(LLAMA3_8B, layout(1, Recompute.FULL, 1), 0);
        // none keeps 36 per s·b·h and layer (10 + 5 + 6·3.5); op 15.5 on 32 layers plus one layer's recomputed rest
        assertEquals(-31 * (36 - 15.5) * sbh, op - none, 1e-3 * sbh);
        // one block in 2: 16 of 32 keep their input (2), one layer's worth while recomputed
        assertEquals(16 * (2 - 36) * sbh + 36 * sbh, every2 - none, 1e-3 * sbh);
        assertTrue(full < op && op < every2 && every2 < none, full + " < " + op + " < " + every2 + " < " + none);
    }

    @Test
    void recomputeFactorsOfEachChoice() {
        Layout op = layout(8, Recompute.OP, 1);
        // wk, wo and w3 again: 4096·(1024 + 4096 + 14336) of the forward's 4096·(2·4096 + 2·1024 + 3·14336)
        assertEquals(1 + 19456.0 / 53248 / 3, Checkpointing.linear(LLAMA3_8B, op, 32), 1e-12);
        assertEquals(1, Checkpointing.attention(op, 32), "SDPA's output is kept");
        assertEquals(4.0 / 3, Checkpointing.elementwise(op, 32), 1e-12);
        assertEquals(10, Checkpointing.tpCollectives(op, 32), "the all-gathers before wk and w3 again");
        Layout every4 = layout(8, Recompute.EVERY, 4);
        assertEquals(0.25, Checkpointing.fullShare(every4, 32));
        assertEquals(1 + 0.25 / 3, Checkpointing.linear(LLAMA3_8B, every4, 32), 1e-12);
        assertEquals(9, Checkpointing.tpCollectives(every4, 32));
        // torchtitan counts the wrapped blocks from 1 (_layer_sac_count += 1, then count % n == 0): blocks 4 and 8 of 10
        assertEquals(2.0 / 10, Checkpointing.fullShare(layout(1, Recompute.EVERY, 4), 10), 1e-12, "the 4th and 8th of 10 blocks");
        assertEquals(0, Checkpointing.fullShare(layout(1, Recompute.EVERY, 4), 3), 1e-12, "3 blocks, one in 4: none reaches a count of 4");
        Layout full = layout(8, Recompute.FULL, 1);
        assertEquals(4.0 / 3, Checkpointing.linear(LLAMA3_8B, full, 32), 1e-12);
        assertEquals(12, Checkpointing.tpCollectives(full, 32));
        assertEquals(1, Checkpointing.linear(LLAMA3_8B, layout(8, Recompute.SELECTIVE, 1), 32));
    }

    private static Estimate estimate(String recompute) {
        JobEstimate j = EstimateManifest.h100().name("llama3-8b")
                .model(EstimateManifest.LLAMA3_8B + ", seq_length: 8192")
                .parallelism("tp: 1, pp: 1").batch(1, 8).optimizer("zero_stage: 3").recompute(recompute).estimate();
        return Estimator.estimate(j.inputs().model(), j.inputs().layout(), j.inputs().hardware(), j.inputs().order(), j.inputs().bytes());
    }

    /**
     * torchtitan docs/performance.md (commit 0413364): Llama 2 70B on 64 A100 80GB with FSDP2 and selective op
     * checkpointing ran at local batch 1 (355 wps) and ran out of memory at local batch 2 (its footnote 1). Counted as
     * Megatron's selective (everything kept), batch 1 would already be called out of memory.
     */
    @Test
    void llama2_70bOpSacFitsAtBatchOneAndNotAtTwoAsTorchtitanReports() {
        String model = "80,8192,64,8,28672,32000,true,false,4096,bf16", layout = "1,1,1,1,false";
        assertTrue(!RanJobsFitTest.estimate("A100-SXM4-80GB", 64, model, layout, "1,64", "3,false,0", "op").estimate().outOfMemory());
        assertTrue(RanJobsFitTest.estimate("A100-SXM4-80GB", 64, model, layout, "2,128", "3,false,0", "op").estimate().outOfMemory());
        assertTrue(RanJobsFitTest.estimate("A100-SXM4-80GB", 64, model, layout, "1,64", "3,false,0", "selective").estimate().outOfMemory(),
                "everything kept would not have fit: the false OOM op-level SAC's own count removes");
    }

    @Test
    void jobInputsReadEachWrittenChoice() {
        assertEquals(Recompute.OP, JobInputs.recompute(written("op")));
        assertEquals(Recompute.EVERY, JobInputs.recompute(Recomputation.every(3, null)));
        assertEquals(3, JobInputs.every(Recomputation.every(3, null)));
        assertEquals(null, JobInputs.recompute(Recomputation.every(0, null)));
        assertEquals(null, JobInputs.recompute(written("every")), "every without its n");
        assertEquals(null, JobInputs.recompute(written("sometimes")));
        assertEquals(null, JobInputs.recompute(written("every:3")), "a word, not an encoding: Megatron's and NeMo's granularity take no n");
        assertEquals(1, JobInputs.every(written("full")));
        assertEquals(Recompute.FULL, JobInputs.recompute(written("full")));
    }

    private static Recomputation written(String word) {
        return Recomputation.of(new dev.gpulint.spec.Located<>(word, null));
    }

    @Test
    void aNativeJobWritesOneLayerInNAsEveryWithRecomputeEvery() {
        Fixture f = Fixture.of("""
                kind: cluster
                name: c
                node_groups:
                  - name: g
                    count: 1
                    gpu: { model: H100-SXM5-80GB, count: 8 }
                ---
                kind: training_job
                name: j
                cluster: c
                node_group: g
                nodes: 1
                gpus_per_node: 8
                model: { dtype: bf16, layers: 32, hidden_size: 4096, attention_heads: 32 }
                recompute: every
                recompute_every: 4
                """);
        JobEstimate j = JobEstimate.of(f.jobs().get(0), f.catalog());
        assertEquals(Recompute.EVERY, j.inputs().layout().recompute());
        assertEquals(4, j.inputs().layout().recomputeEvery());
        assertEquals("one layer in 4", j.inputs().layout().recomputeText());
        assertTrue(j.inputs().assumptions().contains("recompute one layer in 4: those layers fully checkpointed, the others keep everything"),
                j.inputs().assumptions().toString());
    }

    @Test
    void opSitsBetweenNoneAndFullInTimeAndMemoryForANativeJob() {
        Estimate none = estimate("none"), op = estimate("op"), full = estimate("full");
        assertTrue(none.time().step() < op.time().step() && op.time().step() < full.time().step(),
                none.time().step() + " < " + op.time().step() + " < " + full.time().step());
        double n = none.stages().get(0).activations(), o = op.stages().get(0).activations(), fu = full.stages().get(0).activations();
        assertTrue(fu < o && o < n, fu + " < " + o + " < " + n);
    }
}
