package dev.gpulint.derive.estimate;

import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.List;

/**
 * Multi-token prediction (DeepSeek-V3's MTP modules) as Megatron-Core builds them
 * (github.com/NVIDIA/Megatron-LM, megatron/core/transformer/multi_token_prediction.py at
 * 13f8f526bed803fd9ab8b8d4ce1ca14bc032bbbc, MultiTokenPredictionLayer; docs/user-guide/features/multi_token_prediction.md):
 * each of the D MTP layers normalises the decoder's hidden state (hnorm) and the next token's embedding (enorm), projects
 * their concatenation 2h → h (eh_proj, a column-parallel linear), runs one transformer layer of the model's own spec (an MoE
 * layer in an MoE model) and its final norm, and computes the logits again with the shared output layer, and their
 * cross-entropy (the MTP loss, scaled by mtp_loss_scaling_factor).
 * <p>
 * Where: "by default, all MTP layers sit on the last pipeline stage"; a --pipeline-model-parallel-layout may place them (its
 * {@code m} letters), and "MTP loss is computed in the post-processing stage". So the MTP layers' transformer blocks lie on the
 * last stage ({@link #extraBlocks}), or where the layout's {@code m} puts them (the layout's stages already count them as
 * blocks: priced once, never twice), and the eh_proj GEMM, the logits and the loss again on the last stage ({@link #price}).
 * <p>
 * FLOPs: Megatron-LM's num_floating_point_operations counts them (tests/unit_tests/test_training.py,
 * expected_transformer_flops: {@code 3·2·D·(3h + 2h²) + 3·2·h·V·(D + 1)} beside the MTP layers' transformer layers;
 * expected_hybrid_flops counts a hybrid pattern's letters after '/'), so the model FLOPs and MFU count them too
 * ({@link #flopsPerToken}).
 *
 * @param layers D, the MTP layers (0: none)
 * @param blocks the layers of the model's kind one MTP layer holds (1: one transformer layer; a hybrid pattern's '/' group
 *               {@code *E}: 2), each priced as the decoder's mean layer (DeepSeek-V3's three dense layers averaged in; Megatron
 *               builds the last layer's kind, a hybrid's blocks by their letters: not priced apart)
 */
public record MtpLayers(int layers, int blocks) {
    /** No multi-token prediction. */
    public static final MtpLayers NONE = new MtpLayers(0, 1);

    /** The most MTP layers read (the schema's bound on model.mtp_layers; DeepSeek-V3 trains with 1, Nemotron 3 Super with 2). */
    public static final int MAX = 64;

    public MtpLayers {
        if (layers < 0 || layers > MAX || blocks < 1 || blocks > MAX) {
            throw new IllegalArgumentException("MTP layers 0.." + MAX + " of 1.." + MAX + " blocks: " + layers + ", " + blocks);
        }
    }

    /**
     * The job's MTP layers (model.mtp_layers and what each format writes for it), with a line in the assumptions when priced.
     * A count written but not known (a placeholder) leaves the job unestimated, as every model size does (JobInputs' missing).
     */
    public static MtpLayers of(Specs.Job j, List<String> as) {
        Specs.Model m = j.model();
        Specs.Mtp mtp = m == null ? null : m.mtp();
        long n = whole(mtp == null ? null : mtp.layers());
        if (n <= 0) return NONE;
        long b = Math.max(1, whole(mtp.blocks()));
        MtpLayers out = new MtpLayers((int) Math.min(MAX, n), (int) Math.min(MAX, b));
        as.add(out.describe());
        return out;
    }

    private static long whole(Located<Long> v) {
        return v == null || v.value() == null ? 0 : v.value();
    }

    /** "multi-token prediction: 1 MTP layer ...": the assumptions line. */
    String describe() {
        return "multi-token prediction: " + layers + " MTP layer" + (layers == 1 ? "" : "s") + " (each "
                + (blocks == 1 ? "one transformer layer of the model's kind, priced as the decoder's mean layer"
                        : blocks + " layers of the pattern after '/', each priced as the decoder's mean layer")
                + ", its eh_proj 2h → h and norms, the output layer's logits and cross-entropy again) on the last pipeline stage unless"
                + " the layout places them; counted in the model FLOPs as Megatron-LM's num_floating_point_operations counts them";
    }

    /** There are MTP layers. */
    public boolean any() { return layers > 0; }

    /** The MTP blocks of all the MTP layers. */
    public int totalBlocks() { return layers * blocks; }

    /**
     * The layout lays the stages out block by block with the MTP layers among them (Megatron's layout's {@code m}): its
     * stages hold more blocks than the decoder has layers.
     */
    public boolean inLayout(ModelShape m, Layout l) {
        if (layers == 0 || !l.split().laidOut(l.pp())) return false;
        long sum = 0;
        for (long n : l.split().stages()) {
            if (n < 0) return false;
            sum += n;
        }
        return sum > m.layers();
    }

    /** The MTP blocks stage {@code i} holds beyond its split's layers: all of them on the last stage, unless the layout places them. */
    public double extraBlocks(ModelShape m, Layout l, int i) {
        if (layers == 0 || i != l.pp() - 1 || inLayout(m, l)) return 0;
        return totalBlocks();
    }

    /**
     * The MTP layers' own parameters per GPU, beyond their blocks' (on the last stage): eh_proj's 2h·h ÷ tp, and enorm, hnorm
     * and the MTP layer's final norm, 3h (the output layer and the embedding are shared with the model's).
     */
    public double ownParameters(ModelShape m, Layout l) {
        double h = m.hidden();
        return layers * (2 * h * h / l.tp() + 3 * h);
    }

    /**
     * Model FLOPs per token of the MTP layers, forward and backward, as Megatron-LM's num_floating_point_operations counts them:
     * D × (blocks × the model's mean layer + 6·(3h + 2h²) + the logits 6·h·V).
     *
     * @param modelFlops the model's FLOPs per token without MTP (its logits included)
     */
    public double flopsPerToken(ModelShape m, double modelFlops) {
        if (layers == 0) return 0;
        double h = m.hidden(), logits = m.logitFlopsPerToken();
        double meanLayer = (modelFlops - logits) / m.layers();
        return layers * (blocks * meanLayer + 6 * (3 * h + 2 * h * h) + logits);
    }

    /**
     * The MTP layers' time on the last stage per micro-batch beyond their blocks (which the stage's layers count): eh_proj's
     * GEMM forward and backward (6 · tokens · 2h² ÷ tp FLOPs, with recomputation) at the GEMM rate plus its three kernels'
     * fixed time, and the logits with their cross-entropy again (the compute term's logits, once per MTP layer).
     *
     * @param tokens        tokens per micro-batch on one GPU's sequence share
     * @param recompute     the linear recompute factor
     * @param gemmRate      the achieved GEMM rate, FLOP/s
     * @param kernelSeconds the fixed time per GEMM kernel
     * @param logitSeconds  the compute term's logits (with their cross-entropy)
     * @param blocks        the MTP blocks the last stage's layers count here (0 when the layout places them elsewhere)
     * @param layerSeconds  one (mean) layer's time
     * @param microBatches  micro-batches per step
     * @return null without MTP layers
     */
    public Term.Mtp price(ModelShape m, Layout l, double tokens, double recompute, double gemmRate, double kernelSeconds,
                          double logitSeconds, double blocks, double layerSeconds, long microBatches) {
        if (layers == 0) return null;
        double h = m.hidden();
        double projFlops = layers * 6.0 * tokens * 2 * h * h / l.tp() * recompute;
        double projSeconds = projFlops / gemmRate + layers * 3 * recompute * kernelSeconds;
        double logits = layers * logitSeconds;
        return new Term.Mtp(layers, this.blocks, blocks, blocks * layerSeconds, projFlops, gemmRate, projSeconds, logits,
                projSeconds + logits, microBatches);
    }
}
