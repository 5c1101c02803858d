package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.estimate.Layout.Recompute;
import dev.gpulint.derive.estimate.ModelShape.Dtype;
import dev.gpulint.testing.PlanCli;
import dev.gpulint.testing.Recipes;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * torchtitan's apply_fsdp units beside the blocks (TitanUnits; pytorch/torchtitan torchtitan/models/llama3/infra/parallelize.py
 * at 018740b7aae7846d24954539244c78215dbd181f): fully_shard(tok_embeddings) with the blocks' reshard_after_forward, and
 * fully_shard([norm, output]) with reshard_after_forward only under "always".
 */
class TitanUnitsTest {

    /** h 1000, V 512 (untied), 4 layers. */
    private static final ModelShape SMALL = new ModelShape(4, 1000, 10, 10, 100, 4000, 512, 512, false, false, 1, 1, Dtype.BF16);

    private static Layout layout(int pp, int zero) {
        return new Layout(1, pp, 8, 1, 1, 1, 1, 8, zero, false, Recompute.NONE, false, 1);
    }

    @Test
    void twoUnitsMoreAndTheOutputGatheredOnceUnlessAlways() {
        double out = TitanUnits.output(SMALL, layout(1, 3));
        assertEquals(512 * 1000 + 1000, out, 0, "V·h ÷ tp + the norm's h");
        double gatherBytes = 1e9;
        // "default" / "never": at stage 3 the layers and the embedding twice, the output once; its bytes once less
        TitanUnits.Sync kept = TitanUnits.sync(new TitanUnits(false), SMALL, layout(1, 3), 4, 2, gatherBytes);
        assertEquals(2 * 5 + 1, kept.gathers(), 0);
        assertEquals(2 * gatherBytes - 2 * out, kept.gatheredBytes(), 1e-6);
        assertEquals(6, kept.reduces(), 0);
        // "always": every unit twice
        TitanUnits.Sync always = TitanUnits.sync(new TitanUnits(true), SMALL, layout(1, 3), 4, 2, gatherBytes);
        assertEquals(12, always.gathers(), 0);
        assertEquals(2 * gatherBytes, always.gatheredBytes(), 1e-6);
        // stage 2 (kept units): one gather of each of the 6
        TitanUnits.Sync two = TitanUnits.sync(new TitanUnits(false), SMALL, layout(1, 2), 4, 1, gatherBytes);
        assertEquals(6, two.gathers(), 0);
        assertEquals(gatherBytes, two.gatheredBytes(), 1e-6);
        // any other job: the layers alone
        TitanUnits.Sync none = TitanUnits.sync(null, SMALL, layout(1, 3), 4, 2, gatherBytes);
        assertEquals(8, none.gathers(), 0);
        assertEquals(4, none.reduces(), 0);
    }

    @Test
    void theOutputUnitIsHeldWholeAtStageThreeWithoutPipelineOnly() {
        double out = TitanUnits.output(SMALL, layout(1, 3)) * 2;
        assertEquals(out, TitanUnits.heldBytes(new TitanUnits(false), SMALL, layout(1, 3), false), 0);
        assertEquals(out, TitanUnits.heldBytes(new TitanUnits(true), SMALL, layout(1, 3), false), 0, "always gathers it again for the backward");
        assertEquals(0, TitanUnits.heldBytes(new TitanUnits(false), SMALL, layout(1, 2), false), "stage 2 counts the weights whole already");
        assertEquals(0, TitanUnits.heldBytes(new TitanUnits(false), SMALL, layout(2, 3), true), "under pp every unit is held whole");
        assertEquals(0, TitanUnits.heldBytes(null, SMALL, layout(1, 3), false));
    }

    /**
     * FSDP2's default backward prefetch (FSDPParamGroup._backward_prefetch, pytorch/pytorch 002a76fb): while the output unit's
     * backward runs, the last block is gathered too, so the last stage's peak holds the output unit and a mean layer's
     * parameters ÷ tp, both at 2 bytes; the same conditions as the output unit's (stage 3, no pp).
     */
    @Test
    void theLastBlockIsPrefetchedBesideTheOutputUnit() {
        double layer = 1e6;
        assertEquals(2e6, TitanUnits.prefetchedBytes(new TitanUnits(false), layout(1, 3), false, layer), 0);
        assertEquals(0, TitanUnits.prefetchedBytes(new TitanUnits(false), layout(1, 2), false, layer), "stage 2 counts the weights whole already");
        assertEquals(0, TitanUnits.prefetchedBytes(new TitanUnits(false), layout(2, 3), true, layer), "under pp every unit is held whole");
        assertEquals(0, TitanUnits.prefetchedBytes(null, layout(1, 3), false, layer));
        // MemoryModel's one term: the output unit (V·h + h) and a mean layer (the layers' parameters ÷ 4), 2 bytes each
        Variants titan = new Variants(null, null, null, null, null, null, null, null, null,
                new ShardedGathers(ShardedGathers.Unit.FSDP2, 0, 0, new TitanUnits(false)), null, null, null, null, null);
        double meanLayer = SMALL.transformerParameters() / 4;
        assertEquals(2 * (512 * 1000 + 1000) + 2 * meanLayer, MemoryModel.gatheredAtPeak(SMALL, layout(1, 3), titan), 1e-6);
        assertEquals(0, MemoryModel.gatheredAtPeak(SMALL, layout(1, 3), Variants.NONE), "no torchtitan units: nothing");
    }

    /**
     * An MoE flavor with dense first layers (torchtitan's deepseek_v3: n_dense_layers, then MoE layers to the end) prefetches
     * its last block, an MoE layer, not a mean layer: its attention and norms, its shared experts and, without expert
     * parallelism (one FSDP unit, experts and all), its routed experts; under ep &gt; 1 torchtitan's apply_fsdp wraps the
     * experts in their own unit and the output's backward prefetches the block alone (llama4/infra/parallelize.py at
     * pytorch/torchtitan 2645c02d). Here 4 layers (h 1000, 8 experts of width 400, gated), the first dense (ffn 1000, narrower than an MoE layer's experts, as DeepSeek-V3's 18432 against 256 × 2048), one
     * shared expert of width 400.
     */
    @Test
    void anMoeFlavorPrefetchesItsLastBlockAnMoeLayer() {
        ModelShape moe = new ModelShape(4, 1000, 10, 10, 100, 400, 512, 512, true, false, 8, 2, Dtype.BF16);
        MoeShape shape = new MoeShape(3, 1000, 400, 0, false, MoeShape.Dispatcher.ALLTOALL, false, true, 1, 0, false, false, true, 0, 0,
                FlexDispatch.DEFAULT_BACKEND, null);
        Variants titan = new Variants(shape, null, null, null, null, null, null, null, null,
                new ShardedGathers(ShardedGathers.Unit.FSDP2, 0, 0, new TitanUnits(false)), null, null, null, null, null);
        double output = 2 * (512 * 1000 + 1000);
        // one layer's attention and norms, the final norm spread over the layers (Megatron's count, as MemoryModel's)
        double base = (moe.transformerParameters() - 4.0 * 8 * moe.mlpParameters()) / 4;
        double shared = base + 3.0 * 1000 * 400, routed = 8 * 3.0 * 1000 * 400;
        assertEquals(output + 2 * (shared + routed), MemoryModel.gatheredAtPeak(moe, layout(1, 3), titan), 1e-6,
                "ep 1: the MoE block whole, its routed experts ÷ etp·ep = 1");
        Layout ep2 = new Layout(1, 1, 8, 1, 2, 1, 1, 8, 3, false, Recompute.NONE, false, 1);
        assertEquals(output + 2 * shared, MemoryModel.gatheredAtPeak(moe, ep2, titan), 1e-6,
                "ep 2: the experts are a unit of their own, gathered by the block's own backward after the peak");
        // the mean layer it replaced: a quarter of the dense layer's and the three MoE layers' parameters
        double mean = (moe.transformerParameters() - 4.0 * 8 * moe.mlpParameters() + 3 * (3000.0 * 400 + 8 * 3000.0 * 400)
                + 3000.0 * 1000) / 4;
        assertTrue(shared + routed > mean, "the last block is larger than the mean layer here: " + (shared + routed) + " vs " + mean);
    }

    /**
     * The prefetched block and torchtitan's eager loss's fp32 memory are never whole together: FSDP2 gathers the block in the
     * output unit's pre-backward hook, on the logits' gradient, after the loss's backward freed its fp32 log-softmax and
     * gradients (4·V + 8·V per s·b ÷ tp) and left the logits' bf16 gradient (2·V). The stage holds the larger of the two
     * moments: here (V 512, s·b 512, tp 1) 10·V·s·b = 2.6 MB freed against a 32 MB block, so the block's moment, less what
     * was freed; with the block smaller than the freed memory, the loss's moment, the block not added.
     */
    @Test
    void thePrefetchedBlockAndTheEagerLossFp32MemoryAreNotHeldTogether() {
        StateBytes b = new StateBytes(2, 2, 12, StateBytes.Accounting.STATED);
        ShardedGathers fsdp2 = new ShardedGathers(ShardedGathers.Unit.FSDP2, 0, 0, new TitanUnits(false));
        ShardedGathers noUnits = new ShardedGathers(ShardedGathers.Unit.FSDP2, 0, 0, null);
        Variants titan = new Variants(null, null, null, null, null, null, null, null, null, fsdp2, null, null, null, null, LossKernel.TORCH);
        Variants plain = new Variants(null, null, null, null, null, null, null, null, null, noUnits, null, null, null, null, LossKernel.TORCH);
        double output = 2 * (512 * 1000 + 1000), block = 2 * SMALL.transformerParameters() / 4;
        double freed = (4 + 8 - 2) * 512.0 * 512;
        MemoryModel.Stage with = MemoryModel.fullest(SMALL, layout(1, 3), b, titan);
        MemoryModel.Stage without = MemoryModel.fullest(SMALL, layout(1, 3), b, plain);
        assertEquals(without.total() + output + block - freed, with.total(), 1e-3, "the block's moment: the loss's fp32 memory freed");
        // micro batch 64: 10·V·s·b = 168 MB freed, more than the block: the loss's moment, the output unit alone added
        Layout big = new Layout(1, 1, 8, 1, 1, 1, 64, 64 * 8, 3, false, Recompute.NONE, false, 1);
        assertEquals(MemoryModel.fullest(SMALL, big, b, plain).total() + output, MemoryModel.fullest(SMALL, big, b, titan).total(), 1e-3);
        // another loss kernel frees nothing before the output's backward here: both added, as before
        Variants te = new Variants(null, null, null, null, null, null, null, null, null, fsdp2, null, null, null, null, LossKernel.TE);
        Variants teplain = new Variants(null, null, null, null, null, null, null, null, null, noUnits, null, null, null, null, LossKernel.TE);
        assertEquals(MemoryModel.fullest(SMALL, layout(1, 3), b, teplain).total() + output + block,
                MemoryModel.fullest(SMALL, layout(1, 3), b, te).total(), 1e-3);
    }

    /**
     * Every loss kernel frees before the output layer's backward what its autograd nodes saved, less the logits' gradient in
     * the activations' dtype the output layer receives (MemoryModel.heldAtOutputBackward): here V 512, s·b 512, bf16, the block
     * 32 MB, larger than each. A compiled torchtitan loss priced as Megatron's native one frees its fp32 softmax and the bf16
     * upcast's 2·V, keeping the 2·V gradient: 4·V·s·b = 1.05 MB (before: 0). With disable_loss_parallel at tp 2 (the logits whole
     * on every rank) the eager loss frees (4 + 8 − 2)·V·s·b, not ÷ tp (before: 0), and the compiled one 4·V·s·b, not ÷ tp.
     * Transformer Engine's writes the gradient into the logits it kept: nothing; the fused linear cross-entropy's backward is
     * the output layer's: nothing.
     */
    @Test
    void eachLossKernelFreesWhatItsBackwardReleasedBeforeTheOutputLayers() {
        StateBytes b = new StateBytes(2, 2, 12, StateBytes.Accounting.STATED);
        double output1 = 2 * (512 * 1000 + 1000), vsb = 512.0 * 512;
        Layout tp1 = layout(1, 3), tp2 = new Layout(2, 1, 4, 1, 1, 1, 1, 4, 3, false, Recompute.NONE, true, 1);
        double block1 = 2 * SMALL.transformerParameters() / 4, block2 = block1 / 2, output2 = 2 * (512 * 1000 / 2.0 + 1000);
        record Case(LossKernel kernel, Layout layout, double output, double block, double freed) {}
        for (Case c : java.util.List.of(
                new Case(LossKernel.NATIVE, tp1, output1, block1, 4 * vsb),
                new Case(LossKernel.TORCH_REPLICATED, tp2, output2, block2, (4 + 8 - 2) * vsb),
                new Case(LossKernel.COMPILED_REPLICATED, tp2, output2, block2, 4 * vsb),
                new Case(LossKernel.TE, tp1, output1, block1, 0),
                new Case(LossKernel.LINEAR, tp1, output1, block1, 0))) {
            Variants with = new Variants(null, null, null, null, null, null, null, null, null,
                    new ShardedGathers(ShardedGathers.Unit.FSDP2, 0, 0, new TitanUnits(false)), null, null, null, null, c.kernel());
            Variants plain = new Variants(null, null, null, null, null, null, null, null, null,
                    new ShardedGathers(ShardedGathers.Unit.FSDP2, 0, 0, null), null, null, null, null, c.kernel());
            assertEquals(MemoryModel.fullest(SMALL, c.layout(), b, plain).total() + c.output() + c.block() - c.freed(),
                    MemoryModel.fullest(SMALL, c.layout(), b, with).total(), 1e-3, c.kernel().name());
            assertEquals(c.freed(), MemoryModel.lossBytes(SMALL, c.layout(), 1, c.kernel())
                    - MemoryModel.heldAtOutputBackward(SMALL, c.layout(), 1, c.kernel()), 1e-6, c.kernel().name());
        }
    }

    /**
     * With MTP the last stage computes 1 + D losses, and before the main output layer's backward only the main loss has run its
     * backward: Megatron-Core's process_mtp_loss computes each depth's logits and loss in the forward and hangs it on the main
     * hidden states with MTPLossAutoScaler, whose backward reaches each MTP loss only after the main output layer's (multi_token_
     * prediction.py at 00611e6e). So what the losses free by then is the main loss's alone, for 1, 2 or 3 losses: Transformer
     * Engine's nothing (before: its 1 or 2 MTP losses' logits, 2·V·s·b each), the native one its fp32 softmax 4·V·s·b (before:
     * 4·V·s·b more per MTP loss), the linear one nothing.
     */
    @Test
    void theMtpLossesAreWholeWhenTheMainOutputLayersBackwardStarts() {
        Layout tp1 = layout(1, 3), tp2 = new Layout(2, 1, 4, 1, 1, 1, 1, 4, 3, false, Recompute.NONE, true, 1);
        double vsb = 512.0 * 512;
        for (LossKernel k : LossKernel.values()) {
            for (Layout l : java.util.List.of(tp1, tp2)) {
                double mainOnly = MemoryModel.lossBytes(SMALL, l, 1, k) - MemoryModel.heldAtOutputBackward(SMALL, l, 1, k);
                for (int losses = 2; losses <= 3; losses++) {
                    assertEquals(mainOnly, MemoryModel.lossBytes(SMALL, l, losses, k) - MemoryModel.heldAtOutputBackward(SMALL, l, losses, k),
                            1e-6, k + " tp " + l.tp() + ", " + losses + " losses");
                }
            }
        }
        assertEquals(MemoryModel.lossBytes(SMALL, tp1, 2, LossKernel.TE), MemoryModel.heldAtOutputBackward(SMALL, tp1, 2, LossKernel.TE), 1e-6);
        assertEquals(4 * vsb, MemoryModel.lossBytes(SMALL, tp1, 3, LossKernel.NATIVE)
                - MemoryModel.heldAtOutputBackward(SMALL, tp1, 3, LossKernel.NATIVE), 1e-6);
    }

    @Test
    void aTiedModelOrAnotherFormatHasNone() {
        ModelShape tied = new ModelShape(4, 1000, 10, 10, 100, 4000, 512, 512, false, true, 1, 1, Dtype.BF16);
        dev.gpulint.spec.Specs.Job titan = dev.gpulint.testing.Foreign.bind("llama3_8b.toml", Recipes.torchtitan("8B")
                .training("local_batch_size = 1", "seq_len = 8192").parallelism("data_parallel_shard_degree = 8").toml());
        assertNull(TitanUnits.of(titan, tied));
        assertTrue(TitanUnits.of(titan, SMALL) != null && !TitanUnits.of(titan, SMALL).outputResharded(), "not written: \"default\"");
    }

    /**
     * "default" without pp: Llama 3 8B over 16 H100s, 67 all-gathers (2 × 32 blocks, 2 of the embedding, 1 of the final norm +
     * output, kept from forward to backward) of (2 × 16.06 − 1.05) GB ÷ 67 each, 434.8 MB moved per rank; the weights 1.00 GB
     * sharded, 1.05 GB of the final norm + output unit held whole and 0.44 GB of the last block FSDP2 prefetches beside it (a
     * mean layer's 218M parameters at 2 bytes).
     */
    @Test
    void defaultWithoutPipelineGathersTheOutputUnitOnceAndHoldsIt(@TempDir Path dir) {
        String toml = Recipes.torchtitan("8B").training("local_batch_size = 1", "seq_len = 8192").parallelism(
                "data_parallel_shard_degree = -1", "tensor_parallel_degree = 1", "pipeline_parallel_degree = 1").toml();
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("llama3_8b.toml", toml)
                .jobClusters("lab", "*.toml").plan("--gpus", "16");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("dp: 67 × dp parameter all-gathers forward and backward, one per layer, and the same of torchtitan's"
                + " embedding unit, its final norm + output unit's once (kept from forward to backward: fsdp_reshard_after_forward not"
                + " \"always\") over 16 ranks: 434.8 MB moved"), r.out());
        assertTrue(r.out().contains("weights 2.49 GB"), r.out());
        assertTrue(r.out().contains("the final norm + output unit gathered once, kept from forward to backward (fsdp_reshard_after_forward"
                + " not \"always\"), and whole at the backward's start on the last stage: 2·(V·h ÷ tp + h) bytes beside the sharded"
                + " weights"), "the plan's text gives the formula: " + r.out());
    }
}
