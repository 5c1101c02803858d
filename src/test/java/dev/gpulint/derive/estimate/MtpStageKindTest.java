package dev.gpulint.derive.estimate;

import static dev.gpulint.derive.estimate.MtpJobs.FIRST_DENSE;
import static dev.gpulint.derive.estimate.MtpJobs.H;
import static dev.gpulint.derive.estimate.MtpJobs.LAST_DENSE;
import static dev.gpulint.derive.estimate.MtpJobs.V;
import static dev.gpulint.derive.estimate.MtpJobs.job;
import static dev.gpulint.derive.estimate.MtpJobs.layout;
import static dev.gpulint.derive.estimate.MtpJobs.model;
import static dev.gpulint.derive.estimate.MtpJobs.onLayout;
import static dev.gpulint.derive.estimate.MtpJobs.term;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.plan.EstimateWords;
import dev.gpulint.testing.EstimateManifest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The MTP block of the kind Megatron-Core builds on its stage (MtpLayers.moeKindPerRank): gpt_builder
 * (gpt_builders.py at 383d08f4f0ab961803594c1560eb055f6543aa55) hands get_gpt_mtp_block_spec the stage's decoder block spec,
 * whose last layer the MTP layer copies; a stage with no decoder layers (a layout's m alone) gets
 * get_gpt_layer_with_transformer_engine_spec(num_experts): an MoE layer, whatever the decoder's last layer is. Its parameters
 * (and so its optimizer states), its time and its all-to-alls at that kind, from the one home (MtpLayers.kindBlocks).
 * The small DeepSeek-shaped model of MtpJobs, untied, tp 1, pp 2, on one node of 8 H100s.
 */
class MtpStageKindTest {

    /** An MoE layer's parameters: attention 4h², two norms 4h, the final norm's share 2h ÷ 4, 8 routed experts and a shared one of 3·h·512. */
    private static final double MOE_LAYER = 4 * H * H + 4 * H + 2 * H / 4 + 8 * 3 * H * 512 + 3 * H * 512;

    /** A dense layer's: its MLP 3·h·4,096, no experts. */
    private static final double DENSE_LAYER = 4 * H * H + 4 * H + 2 * H / 4 + 3 * H * 4096;

    /** eh_proj 2h², enorm, hnorm and the final norm 3h, and the MTP stage's word-embedding copy V·h (untied, pp 2). */
    private static final double MTP_OWN = 2 * H * H + 3 * H + V * H;

    private static JobInputs inputs(String layers, int mtp, String parallelism) {
        return job(EstimateManifest.h100(), model(false, layers, mtp), parallelism).inputs();
    }

    /** Stage {@code i}'s parameters with MTP on {@code stages} less those of the job without MTP on {@code without}. */
    private static double added(String layers, List<Long> stages, List<Long> without, int i) {
        Estimate e = onLayout(inputs(layers, 1, "tp: 1, pp: 2"), stages), w = onLayout(inputs(layers, 0, "tp: 1, pp: 2"), without);
        return e.stages().get(i).parameters() - w.stages().get(i).parameters();
    }

    @Test
    void anMAloneOnItsStageIsAnMoeLayerThoughTheDecodersLastIsDense() {
        // "Etttt|mL": the last stage holds no decoder layer, so gpt_builder takes _get_transformer_layer_spec (num_experts): MoE
        JobInputs in = inputs(LAST_DENSE, 1, "tp: 1, pp: 2");
        assertTrue(!in.variants().moe().lastMoe(), "the decoder's last layer is dense");
        Layout l = layout(in, List.of(4L, 1L));
        assertArrayEquals(new boolean[] {false, true}, in.variants().mtp().moeKindPerRank(in.model(), l, in.variants().moe()));
        assertEquals(MOE_LAYER + MTP_OWN, added(LAST_DENSE, List.of(4L, 1L), List.of(4L, 0L), 1), 1e-6);
        assertEquals(0, added(LAST_DENSE, List.of(4L, 1L), List.of(4L, 0L), 0), 1e-6);
        // its time and its all-to-alls at that kind too
        Term.Mtp mtp = term(onLayout(in, List.of(4L, 1L)), Term.Mtp.class);
        assertEquals(1, mtp.moeBlocks());
        assertEquals(0, mtp.denseBlocks());
        assertTrue(EstimateWords.line(mtp).contains("1 layer of the kind Megatron-Core builds, an MoE layer"), EstimateWords.line(mtp));
        JobInputs ep = inputs(LAST_DENSE, 1, "tp: 1, pp: 2, ep: 2");
        Layout lp = layout(ep, List.of(4L, 1L));
        assertEquals(1, ep.variants().mtp().moeLayers(ep.model(), lp, 1, ep.variants().moe(), null), 0);
        assertEquals(0, ep.variants().mtp().moeLayers(ep.model(), lp, 0, ep.variants().moe(), null), 0);
    }

    @Test
    void anMBesideTheDecodersDenseLastLayerIsADenseLayer() {
        // "Ettt|tmL": the stage's last decoder layer is the dense layer 4, so the MTP layer is dense, its parameters a dense
        // layer's, not the mean layer's share the layout's count gave it before
        JobInputs in = inputs(LAST_DENSE, 1, "tp: 1, pp: 2");
        Layout l = layout(in, List.of(3L, 2L));
        assertArrayEquals(new boolean[] {false, false}, in.variants().mtp().moeKindPerRank(in.model(), l, in.variants().moe()));
        assertEquals(DENSE_LAYER + MTP_OWN, added(LAST_DENSE, List.of(3L, 2L), List.of(3L, 1L), 1), 1e-6);
        Term.Mtp mtp = term(onLayout(in, List.of(3L, 2L)), Term.Mtp.class);
        assertEquals(0, mtp.moeBlocks());
        assertEquals(1, mtp.denseBlocks());
    }

    @Test
    void anMBesideAnMoeLastLayerIsAnMoeLayerInTheLayoutAsWithout() {
        // "Ettt|tmL" with the first layer dense: an MoE layer, as the same job without a layout prices it on the last stage
        assertEquals(MOE_LAYER + MTP_OWN, added(FIRST_DENSE, List.of(3L, 2L), List.of(3L, 1L), 1), 1e-6);
        Estimate plain = job(EstimateManifest.h100(), model(false, FIRST_DENSE, 1), "tp: 1, pp: 2").estimate();
        Estimate plainW = job(EstimateManifest.h100(), model(false, FIRST_DENSE, 0), "tp: 1, pp: 2").estimate();
        assertEquals(MOE_LAYER + MTP_OWN, plain.stages().get(1).parameters() - plainW.stages().get(1).parameters(), 1e-6);
    }

    /**
     * An MTP block keeps its kind's activations: selective recompute of the mlp module drops a dense layer's MLP activations
     * (RecomputeModules), so the model's mean layer (one dense layer of 4) drops a quarter of them, but the MTP layer, an MoE
     * layer as Megatron-Core builds it after the decoder's last MoE layer, drops nothing: pp 1, the MTP layer adds one whole
     * layer's activations (perLayerBytes) and its loss (perLossBytes). Before, it added the mean layer's, a quarter of the
     * dense MLP's short.
     */
    @Test
    void anMtpBlocksActivationsAreItsKinds() {
        JobInputs in = job(EstimateManifest.h100(), model(false, FIRST_DENSE, 1), "tp: 1, pp: 1").inputs();
        Layout l = new Layout(1, 1, 8, 1, 1, 1, 1, 64, 0, false, Layout.Recompute.SELECTIVE, false);
        Variants v = in.variants(), mlp = new Variants(v.moe(), v.attention(), v.offload(), v.tpOverlap(), v.kernels(), v.float8(),
                v.paramGather(), new RecomputeModules(java.util.EnumSet.of(dev.gpulint.spec.RecomputeModule.MLP)), v.layerPrecision(),
                v.gathers(), v.mamba(), v.stepGather(), v.tpLayout(), v.mtp(), v.loss());
        ModelShape m = in.model();
        assertTrue(mlp.recomputeModules().savedBytes(m, l, v.moe()) > 0, "the mean layer drops a share of the dense MLP");
        assertEquals(0, mlp.recomputeModules().savedBytes(m, l, 1.0), 0, "an MoE layer drops nothing of mlp");
        double added = MemoryModel.activations(m, l, 0, mlp) - MemoryModel.activations(m, l, 0, mlp.withMtp(MtpLayers.NONE));
        assertEquals(MemoryModel.perLayerBytes(m, l) + MemoryModel.perLossBytes(m, l, v.loss()), added, 1e-3);
    }
}
