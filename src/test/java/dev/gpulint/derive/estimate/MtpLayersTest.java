package dev.gpulint.derive.estimate;

import static dev.gpulint.derive.estimate.MtpJobs.term;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.plan.EstimateWords;
import dev.gpulint.testing.EstimateManifest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Multi-token prediction priced (MtpLayers): each MTP layer one layer of the model's kind on the last stage, its eh_proj
 * 2h → h and the logits again there, its parameters on that stage, counted once when a layout places it, and in the model
 * FLOPs as Megatron-LM counts it. A small dense model, worked by hand.
 */
class MtpLayersTest {

    /** Four layers of h 1,024 (MHA, 4h MLP, untied, vocabulary 32,000 = 250 × 128, no padding at tp 1 or 2). */
    private static final String SMALL = "dtype: bf16, layers: 4, hidden_size: 1024, attention_heads: 16, kv_heads: 16, ffn_hidden_size: 4096,"
            + " vocab_size: 32000, gated_mlp: false, tied_embeddings: false, seq_length: 2048";

    private static JobEstimate small(String mtp, String parallelism) {
        return EstimateManifest.h100().model(SMALL + mtp).parallelism(parallelism).batch(1, 64).optimizer("distributed: true")
                .recompute("none").estimate();
    }

    @Test
    void oneMtpLayerOnASingleStageIsALayerItsProjectionAndTheLogitsAgain() {
        Estimate without = small("", "tp: 1, pp: 1").estimate(), with = small(", mtp_layers: 1", "tp: 1, pp: 1").estimate();
        assertNull(term(without, Term.Mtp.class), "no MTP layer, no mtp term");
        Term.Mtp mtp = term(with, Term.Mtp.class);
        Term.Compute c0 = term(without, Term.Compute.class), c1 = term(with, Term.Compute.class);
        // eh_proj: 6 × 2,048 tokens × 2h² (2,048 × 1,024), forward and backward, nothing recomputed, tp 1
        assertEquals(6.0 * 2048 * 2 * 1024 * 1024, mtp.projFlops());
        assertEquals(mtp.projFlops() / c1.gemmRate() + 3 * c1.kernelSeconds(), mtp.projSeconds(), 1e-15);
        // the logits and their cross-entropy again: the compute term's
        assertEquals(c1.logitSeconds(), mtp.logitSeconds());
        // one more layer on the stage: 5 where 4 were, at the same per-layer time
        assertEquals(4, c0.layersPerStage());
        assertEquals(5, c1.layersPerStage());
        double layer = (c0.seconds() - c0.logitSeconds()) / 4;
        assertEquals(1, mtp.stageBlocks());
        assertEquals(layer, mtp.blockSeconds(), 1e-12);
        assertEquals(c0.seconds() + layer + mtp.projSeconds() + mtp.logitSeconds(), c1.seconds(), 1e-12);
        assertTrue(with.time().step() > without.time().step());
        // its words say each part
        String words = EstimateWords.line(mtp);
        assertTrue(words.startsWith("mtp: 1 multi-token prediction layer (MtpLayers, Megatron-Core's multi_token_prediction.py): 1 layer of"
                + " the kind Megatron-Core builds, the mean layer = "), words);
        assertTrue(words.contains("eh_proj 2h → h 6·tokens·2h²/tp 0.0258 TFLOP at "), words);
    }

    @Test
    void theModelFlopsCountItAsMegatronDoes() {
        JobEstimate w = small("", "tp: 1, pp: 1"), m = small(", mtp_layers: 2", "tp: 1, pp: 1");
        ModelShape s = w.inputs().model();
        double perToken0 = w.estimate().throughput().modelTflopsPerGpu() * 1e12 / w.estimate().throughput().tokensPerSecondPerGpu();
        double perToken2 = m.estimate().throughput().modelTflopsPerGpu() * 1e12 / m.estimate().throughput().tokensPerSecondPerGpu();
        assertEquals(s.modelFlopsPerToken(), perToken0, 1e-9 * perToken0);
        // training.py: 3·2·D·(3h + 2h²) + 3·2·h·V·D beside D transformer layers
        double h = 1024, layer = (s.modelFlopsPerToken() - 6 * h * 32000) / 4;
        assertEquals(s.modelFlopsPerToken() + 2 * (layer + 6 * (3 * h + 2 * h * h) + 6 * h * 32000), perToken2, 1e-9 * perToken2);
    }

    @Test
    void itsParametersAndItsLayerAreOnTheLastStage() {
        Estimate without = small("", "tp: 2, pp: 2").estimate(), with = small(", mtp_layers: 1", "tp: 2, pp: 2").estimate();
        ModelShape s = without.model();
        // the first stage does not change
        assertEquals(without.stages().get(0).parameters(), with.stages().get(0).parameters());
        assertEquals(without.stages().get(0).activations(), with.stages().get(0).activations());
        // the last: one mean layer ÷ tp, eh_proj 2h·h ÷ tp and three norms of h, and the embedding the MTP layer looks the next
        // tokens up in, V·h ÷ tp, beside the untied output layer (gpt_model.py: both on the mtp_process stage)
        double h = 1024;
        assertEquals(s.transformerParameters() / 4 / 2 + 2 * h * h / 2 + 3 * h + 32000 * h / 2,
                with.stages().get(1).parameters() - without.stages().get(1).parameters(), 1e-6);
        // tied, the last stage's one matrix is the embedding the output layer shares: no second copy
        String tied = ", tied_embeddings: true";
        Estimate tiedWithout = EstimateManifest.h100().model(SMALL.replace(", tied_embeddings: false", tied)).parallelism("tp: 2, pp: 2")
                .batch(1, 64).optimizer("distributed: true").recompute("none").estimate().estimate();
        Estimate tiedWith = EstimateManifest.h100().model(SMALL.replace(", tied_embeddings: false", tied) + ", mtp_layers: 1")
                .parallelism("tp: 2, pp: 2").batch(1, 64).optimizer("distributed: true").recompute("none").estimate().estimate();
        assertEquals(s.transformerParameters() / 4 / 2 + 2 * h * h / 2 + 3 * h,
                tiedWith.stages().get(1).parameters() - tiedWithout.stages().get(1).parameters(), 1e-6);
        // and its activations: one more layer's, as the stage's own layers hold them (3 where 2 were), and the MTP loss beside the
        // main one: its output layer's input and fp32 softmax, (4·s·b·h + 4·s·b·V) ÷ tp (the bf16 logits' copy once a stage,
        // 2·s·b·V ÷ tp, with or without it: MemoryModel.lossBytes)
        double one = (4 * 2048 * h + 4 * 2048 * 32000.0) / 2, copy = 2 * 2048 * 32000.0 / 2;
        double per = (without.stages().get(1).activations() - one - copy) / 2;
        assertEquals(3 * per + 2 * one + copy, with.stages().get(1).activations(), 1e-6 * per);
    }

    @Test
    void aLayoutThatPlacesItPricesItOnce() {
        // Megatron's layout "Et*2|t*2mL": the MTP layer's block already on the last stage, as the even split with it added is
        JobEstimate j = small(", mtp_layers: 1", "tp: 1, pp: 2");
        JobInputs in = j.inputs();
        Layout laidOut = in.layout().withSplit(PipelineSplit.laidOut(List.of(2L, 3L)));
        Estimate placed = Estimator.estimate(in.model(), laidOut, in.hardware(), in.order(), in.bytes(), in.variants());
        Estimate added = j.estimate();
        assertTrue(in.variants().mtp().inLayout(in.model(), laidOut));
        assertFalse(in.variants().mtp().inLayout(in.model(), in.layout()));
        Term.Mtp p = term(placed, Term.Mtp.class), a = term(added, Term.Mtp.class);
        // the layout's stages count the block at the mean layer, as the stage's layers do without the layout: the same one block
        // priced at its kind beyond it either way
        assertEquals(1, p.stageBlocks());
        assertEquals(1, a.stageBlocks());
        assertEquals(3, term(placed, Term.Compute.class).layersPerStage());
        assertEquals(3, term(added, Term.Compute.class).layersPerStage());
        assertEquals(added.time().step(), placed.time().step(), 1e-12);
        assertEquals(added.stages().get(1).parameters(), placed.stages().get(1).parameters(), 1e-6);
        assertEquals(EstimateWords.line(a), EstimateWords.line(p));
    }

    @Test
    void theBubbleWeighsTheMtpStageByItsTime() {
        // pp 2, 4 layers split evenly, one MTP layer on the last stage: stage 1 runs 2 decoder layers, the MTP block and its
        // eh_proj, so the warm-up and cool-down wait on stage 0's 2 layers against stage 1's 3 and eh_proj (the logits aside on
        // both sides, as without MTP): 2 ÷ (3 + eh_proj ÷ the layer) of a micro-batch, where counting the block as a layer and
        // eh_proj as nothing gave 2 ÷ 3
        Estimate e = small(", mtp_layers: 1", "tp: 1, pp: 2").estimate();
        Term.Mtp mtp = term(e, Term.Mtp.class);
        Term.Compute c = term(e, Term.Compute.class);
        Term.Bubble b = term(e, Term.Bubble.class);
        double layer = (c.seconds() - c.logitSeconds() - mtp.seconds()) / c.layersPerStage();
        double worth = 3 + mtp.projSeconds() / layer;
        assertEquals(worth, b.slowestLayers(), 1e-9);
        assertEquals(2 / worth, b.otherLayers(), 1e-9);
        assertTrue(b.otherLayers() < 2.0 / 3, String.valueOf(b.otherLayers()));
        assertEquals(2 / worth * b.perMicroBatch(), b.seconds(), 1e-12);
        assertEquals(b.seconds(), e.time().bubble(), 1e-15);
        assertEquals(List.of(0.0, 1.0), b.mtpBlocks());
        assertTrue(EstimateWords.line(b).startsWith("bubble: the stages' layers' worth 2, " + String.format(java.util.Locale.ROOT, "%.2f", worth)
                + " by rank (the decoder's at the mean layer; the MTP layers' 1 block on rank 1, "), EstimateWords.line(b));
    }

    @Test
    void theAssumptionsSayItAndAnUnknownCountIsNotTakenAsNone() {
        JobEstimate j = small(", mtp_layers: 1", "tp: 1, pp: 1");
        assertTrue(j.inputs().assumptions().contains("multi-token prediction: 1 MTP layer (each one transformer layer of the decoder's last"
                + " layer's kind (an MoE layer when it has experts, as Megatron-Core builds it): its parameters and model FLOPs its kind's,"
                + " its time the decoder's mean layer with the MoE side its kind's, its eh_proj 2h → h and norms, the output layer's logits"
                + " and cross-entropy again) on the last pipeline stage unless the layout places them (there each block of its kind,"
                + " with eh_proj, the norms and the embedding copy; the logits and loss stay on the last; m on several stages,"
                + " Megatron-LM's mtp_split: each its layers'); with pp > 1 the word embedding on each MTP stage all-reduces its gradient"
                + " with the first stage's each step over Megatron's embedding group (one sync with a tied output layer's), and after a"
                + " layout's m off the last stage (Megatron-Core's mtp_standalone) each pipeline send carries the MTP layers' hidden"
                + " states so far beside the decoder's ((1 + K)·b·s·h, K the MTP layers before it: the pp sends), each stage after m keeps"
                + " its in-flight micro-batches' received (1 + K)·b·s·h (÷ tp with sequence parallelism) in its activations, and every"
                + " pipeline send first exchanges its shape (24 bytes at the pp tier's latency, not hidden; the host's wait after each exchange"
                + " (the sizes copied to the host, and torch.cuda.synchronize() in the versions that call it) is taken within the exchange's"
                + " latency, not priced apart: it waits for the stage's compute, priced already, and adds the next kernel's launch, a few µs,"
                + " which no measurement isolates); counted in the model FLOPs as"
                + " Megatron-LM's num_floating_point_operations counts them"),
                j.inputs().assumptions().toString());
        // a placeholder leaves the job unestimated, as every model size does: it is not taken as none
        JobEstimate unknown = small(", mtp_layers: \"${MTP}\"", "tp: 1, pp: 1");
        assertEquals(List.of("model.mtp_layers (written as a placeholder, or out of bounds: SYN002 at the value)"), unknown.inputs().missing());
        assertNull(unknown.estimate());
        assertTrue(small("", "tp: 1, pp: 1").inputs().assumptions().stream().noneMatch(s -> s.contains("multi-token")));
    }
}
