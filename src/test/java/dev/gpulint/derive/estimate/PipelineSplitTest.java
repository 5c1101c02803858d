package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.plan.EstimateWords;
import dev.gpulint.derive.estimate.Layout.Recompute;
import dev.gpulint.derive.estimate.ModelShape.Dtype;
import dev.gpulint.testing.EstimateManifest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The layers of each pipeline stage as Megatron-Core's get_num_layers_to_build builds them, and what the memory
 * model and the estimate make of them: per-stage weights and activations, the slowest stage, the bubble.
 */
class PipelineSplitTest {
    /** Llama 3 405B's shape (Meta's paper, Table 3): 126 layers, h 16384, 128 heads, 8 KV heads, ffn 53248, vocab 128256. */
    private static ModelShape llama405b(int layers) {
        return new ModelShape(layers, 16384, 128, 8, 128, 53248, 128256, 8192, true, false, 1, 1, Dtype.BF16);
    }

    private static Layout layout(PipelineSplit s, int vpp) {
        return new Layout(8, 16, 8, 1, 1, vpp, 1, 16 * 8, 0, true, Recompute.SELECTIVE, true, s);
    }

    private static final PipelineSplit SEVEN_SEVEN = new PipelineSplit(7, 7, false, false);

    @Test
    void unevenFirstAndLastStagesLeaveTheRestEvenlyToTheOthers() {
        double[] got = new double[16];
        for (int i = 0; i < 16; i++) got[i] = SEVEN_SEVEN.layers(126, 16, i);
        assertEquals(7, got[0]);
        assertEquals(7, got[15]);
        for (int i = 1; i < 15; i++) assertEquals(8, got[i], "stage " + i);
        assertEquals(126, java.util.Arrays.stream(got).sum());
        // only the last sized by hand: 30 layers, pp 4, 3 on the last: 9 on each of the three others
        assertEquals(List.of(9.0, 9.0, 9.0, 3.0), List.of(new PipelineSplit(0, 3, false, false).layers(30, 4, 0),
                new PipelineSplit(0, 3, false, false).layers(30, 4, 1), new PipelineSplit(0, 3, false, false).layers(30, 4, 2),
                new PipelineSplit(0, 3, false, false).layers(30, 4, 3)));
        // --account-for-embedding/loss-in-pipeline-split: (126 + 2)/16 = 8, one fewer where the embedding and the loss are
        PipelineSplit counted = new PipelineSplit(0, 0, true, true);
        assertEquals(List.of(7.0, 8.0, 7.0), List.of(counted.layers(126, 16, 0), counted.layers(126, 16, 7), counted.layers(126, 16, 15)));
        assertEquals(126 / 16.0, PipelineSplit.EVEN.layers(126, 16, 3));
        assertEquals("7 on the first stage, 7 on the last, 8 on each other (uneven split)", SEVEN_SEVEN.describe(126, 16));
    }

    @Test
    void aLayoutLaidOutLayerByLayerGivesEachRankItsStagesBlocks() {
        // DeepSeek-V3's "Et*3|(tt|)*29,m|L" on pp 16 × vpp 2: stage s on rank s mod 16
        List<Long> stages = dev.gpulint.spec.PipelineLayout.parse("Et*3|(tt|)*29,m|L").blocks();
        PipelineSplit v3 = PipelineSplit.laidOut(stages);
        assertTrue(v3.laidOut(16));
        assertTrue(v3.laidOut(8), "32 stages also fit 8 ranks (vpp 4)");
        assertEquals(false, v3.laidOut(12));
        double[] got = new double[16];
        for (int i = 0; i < 16; i++) got[i] = v3.layers(61, 16, i);
        assertEquals(3 + 2, got[0], "the embedding's stage: 3 layers, and 2 in its second virtual stage");
        for (int i = 1; i < 14; i++) assertEquals(4, got[i], "rank " + i);
        assertEquals(2 + 1, got[14], "two layers and the MTP layer's block");
        assertEquals(2, got[15], "two layers and the loss");
        assertEquals(62, java.util.Arrays.stream(got).sum(), "61 layers and the MTP block");
        assertEquals("5, 4 × 13, 3, 2 on the ranks in turn (32 stages laid out layer by layer)", v3.describe(61, 16));
        // a pp the layout was not written for (the plan's search trying pp 12): an even split, as without it
        assertEquals(61 / 12.0, v3.layers(61, 12, 0));
        assertEquals(stages, new Layout(1, 16, 1, 1, 1, 2, 1, 64, 0, true, Recompute.SELECTIVE, false, v3).withSizes(1, 16, 1, 1, 1, 2).split().stages());
        assertEquals(PipelineSplit.EVEN, new Layout(1, 16, 1, 1, 1, 2, 1, 64, 0, true, Recompute.SELECTIVE, false, v3).withSizes(1, 8, 2, 1, 1, 2).split());
    }

    @Test
    void eachStageHoldsTheWeightsAndActivationsOfItsOwnLayers() {
        StateBytes b = StateBytes.of(Dtype.BF16, 0, true, null, null);
        List<MemoryModel.Stage> uneven = MemoryModel.stages(llama405b(126), layout(SEVEN_SEVEN, 1), b);
        // the same 8-layer middle stages as an even split of 128 layers: same parameters, same activations
        List<MemoryModel.Stage> even128 = MemoryModel.stages(llama405b(128), layout(PipelineSplit.EVEN, 1), b);
        // (within the final LayerNorm's 16,384 weights, which the model spreads over the layers)
        assertEquals(even128.get(5).parameters(), uneven.get(5).parameters(), 16384);
        assertEquals(even128.get(5).activations(), uneven.get(5).activations(), 1);
        // the first stage's 7 layers: 7/8 of a middle stage's layer parameters, plus the embedding
        double perLayer = uneven.get(5).parameters() / 8;
        double embedding = 128256.0 * 16384 / 8;
        assertEquals(7 * perLayer + embedding, uneven.get(0).parameters(), 1);
        // and 7/8 of its activations per micro-batch in flight (16 on the first stage, 11 on stage 5), its embedding's too
        double sbh = 8192.0 * 16384, layerActs = uneven.get(5).activations() / 8 / 11;
        double embActs = (8 * 8192 + sbh) * 16 / 8;
        assertEquals(7 * 16 * layerActs + embActs, uneven.get(0).activations(), 1e3);
        // the even split of the same 126 layers gives the first stage 7.875 of them
        List<MemoryModel.Stage> even126 = MemoryModel.stages(llama405b(126), layout(PipelineSplit.EVEN, 1), b);
        assertTrue(uneven.get(0).total() < even126.get(0).total(), uneven.get(0).total() + " vs " + even126.get(0).total());
    }

    /**
     * Megatron's interleaved 1F1B (schedules.py, get_num_warmup_microbatches): stage i runs (pp − i − 1)·2 +
     * (vpp − 1)·pp warm-up forwards of one chunk, and one more before its first backward: with pp 4, vpp 2 and 8
     * micro-batches, 11 chunks on the first stage and 5 on the last, each of L/(pp·vpp) layers.
     */
    @Test
    void theInterleavedFirstStageHoldsMoreInFlightActivationsThanTheLast() {
        ModelShape m = ModelShape.gpt(32, 4096, 32, 51200, 2048, Dtype.BF16);
        Layout l = new Layout(1, 4, 2, 1, 1, 2, 1, 16, 0, false, Recompute.SELECTIVE, false);
        double first = MemoryModel.activations(m, l, 0), last = MemoryModel.activations(m, l, 3);
        double sbh = 2048.0 * 4096;
        double embedding = (8 * 2048 + sbh) * 4 * (1 + 3.0 / 8);
        // the last stage computes the loss for one micro-batch at a time (its last chunk's forward is followed by its backward):
        // the output layer's input and fp32 softmax, 4·s·b·h + 4·s·b·V, and the bf16 logits beside their copy, 2·s·b·V (tp 1)
        double loss = 4 * sbh + 6 * 2048.0 * 51200;
        assertEquals(11.0 / 5, (first - embedding) / (last - loss), 1e-9);
        assertTrue(first > last);
        // and each chunk is the stage's layers ÷ vpp: 8 layers per stage, 4 per chunk, 18 + 4·4 bytes per s·b·h each
        assertEquals(5 * 4 * sbh * 34 + loss, last, 1);
    }

    private static JobEstimate job(int layers, String split) {
        return EstimateManifest.h100().nodes(128).nics("{ model: ConnectX-7, count: 8, speed: 400 Gb/s, protocol: infiniband }")
                .model("dtype: bf16, layers: " + layers + ", hidden_size: 16384, attention_heads: 128, kv_heads: 8, ffn_hidden_size: 53248,"
                        + " vocab_size: 128256, gated_mlp: true, tied_embeddings: false, seq_length: 8192")
                .parallelism("tp: 8, pp: 16, sequence_parallel: true" + split).batch(1, 128).optimizer("distributed: true")
                .recompute("selective").estimate();
    }

    @Test
    void theNativeSplitReachesTheEstimateWhoseBubbleCountsEachStagesLayers() {
        JobEstimate uneven = job(126, ", first_stage_layers: 7, last_stage_layers: 7");
        JobEstimate even128 = job(128, "");
        assertEquals(SEVEN_SEVEN, uneven.inputs().layout().split());
        assertTrue(uneven.inputs().assumptions().contains("layers over the pipeline: 7 on the first stage, 7 on the last, 8 on each"
                + " other (uneven split), as Megatron-Core's get_num_layers_to_build builds them"), uneven.inputs().assumptions().toString());
        Estimate u = uneven.estimate(), e = even128.estimate();
        // 1 + 14 + 1 stages of 7, 8 and 7 layers: the others are 14.75 stages' worth of the slowest's (an 8-layer stage)
        String bubble = u.terms().stream().filter(n -> n.term().equals("bubble")).findFirst().map(EstimateWords::text).orElseThrow();
        assertTrue(bubble.contains("the other stages' layers ÷ the slowest stage's (8) = 14.75 stages' worth"), bubble);
        assertTrue(u.time().bubble() < e.time().bubble(), u.time().bubble() + " vs " + e.time().bubble());
        // the 128-layer model's slowest stage adds the logits to its 8 layers: within a few per cent of the uneven one's
        assertEquals(e.time().bubble() / 15, u.time().bubble() / 14.75, e.time().bubble() / 15 * 0.1);
        assertTrue(u.time().step() < e.time().step());
    }
}
