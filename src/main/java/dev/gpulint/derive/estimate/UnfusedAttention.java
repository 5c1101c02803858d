package dev.gpulint.derive.estimate;

import dev.gpulint.derive.estimate.Layout.Recompute;
import dev.gpulint.spec.RecomputeModule;

/**
 * Attention outside a flash kernel ({@link AttentionKernel#UNFUSED}): Megatron-LM's core attention before
 * {@code --use-flash-attn} (2020–23, and Megatron-Core's {@code --attention-backend unfused}/{@code local} and local
 * layer spec since), which materialises every one of the b·a·s² scores in HBM. Counted from Megatron-LM's code
 * (megatron/model/transformer.py ParallelAttention, megatron/model/fused_softmax.py at commit
 * 0cb36de2d698dd4dd9804659e411f3394c13f0df): {@code torch.baddbmm} writes the raw scores, the fused
 * {@code scaled_upper_triang_masked_softmax} (or {@code scaled_masked_softmax}) reads them and writes the probabilities,
 * {@code attention_dropout} reads those and writes its output and a one-byte mask, {@code torch.bmm} reads that output.
 * Per score element, with scores of {@code e} bytes (2 in fp16 and bf16):
 * <ul>
 * <li>the two batched GEMMs over the full s × s square (the unfused path computes the masked half too): forward QKᵀ
 *     writes one element, the probabilities·V reads one; backward the probabilities' gradient writes one, V's gradient,
 *     Q's and K's read one each: 2 + 4 element passes, each 2·d FLOPs per score. Each GEMM's inner dimension is the head
 *     dimension, so its arithmetic intensity is d FLOPs per score byte, below an A100's GEMM rate over its HBM rate
 *     (≈ 140): priced as a roofline, the larger of the FLOPs at the GEMM rate and the score bytes at the HBM rate
 *     (a GEMM's stores overlap its other tiles' math, so the two are not added); Q, K and V themselves (s·d against
 *     s² per head) are not counted;</li>
 * <li>the softmax and dropout: forward 2e (softmax) + 2e + 1 (dropout) = 9 bytes, backward 2e + 1 (dropout) + 3e
 *     (softmax: the gradient and its saved output read, the input gradient written) = 11, at the HBM rate.</li>
 * </ul>
 * A recomputed forward (full recompute; Megatron's selective recompute, whose {@code core_attn} checkpoint re-runs
 * exactly this core) runs the forward's passes again. Memory (Korthikanti et al. 2022, Table 2): the softmax output,
 * the dropout mask and the dropout output, (2e + 1)·a·s²·b per layer (5·a·s²·b) ÷ tp, kept for the backward unless
 * the core is recomputed, when one layer holds them while it runs backward.
 */
public final class UnfusedAttention {
    private UnfusedAttention() {}

    /** GEMM passes over the score matrix: forward (QKᵀ written, the probabilities read), and backward. */
    static final int FORWARD_GEMMS = 2, BACKWARD_GEMMS = 4;

    /** Score elements of one layer and micro-batch on one GPU: b·(s/cp)·s·a ÷ tp (the heads split over tp). */
    public static double scores(ModelShape m, Layout l) {
        return (double) l.microBatchSize() * m.seq() / l.cp() * m.seq() * m.heads() / l.tp();
    }

    /** Softmax and dropout bytes per score forward: the softmax 2e, the dropout 2e + 1 (its mask). */
    static double forwardBytes(double e) {
        return 2 * e + 2 * e + 1;
    }

    /** Their backward per score: the dropout's 2e + 1, the softmax's 3e. */
    static double backwardBytes(double e) {
        return 2 * e + 1 + 3 * e;
    }

    /**
     * The share of a stage's layers whose core attention runs its forward again: every layer under Megatron's selective
     * recompute of {@code core_attn} (its default module), the fully recomputed share otherwise (op-level SAC keeps the
     * attention's output: none).
     */
    public static double recomputedShare(Layout l, RecomputeModules modules, double layersPerStage) {
        if (l.recompute() == Recompute.SELECTIVE) return modules.modules().contains(RecomputeModule.CORE_ATTN) ? 1 : 0;
        return l.recompute() == Recompute.OP ? 0 : Checkpointing.fullShare(l, layersPerStage);
    }

    /**
     * The unfused core's time per layer and micro-batch on one GPU, for a mean layer that carries {@code attentionShare} of
     * one attention core (1 for a transformer; a hybrid Mamba model's: only its attention layers have scores,
     * {@link MambaLayers#attentionShare}).
     *
     * @param recomputed the share of layers whose core runs its forward again ({@link #recomputedShare})
     * @param gemmRate   the achieved 16-bit GEMM rate, FLOP/s
     * @param kernelS    the fixed time per GEMM kernel
     * @param hbmRate    the achieved HBM rate, bytes/s
     */
    public static Term.UnfusedAttention price(ModelShape m, Layout l, double recomputed, double gemmRate, double kernelS, double hbmRate,
                                              double attentionShare) {
        double e = m.dtype().activationBytes();
        double scores = scores(m, l);
        double tokens = (double) l.microBatchSize() * m.seq() / l.cp();
        // the full square, forward and backward (12·s·a·d per token: 6 GEMM passes of 2·s·a·d), and the recomputed forward
        double passes = FORWARD_GEMMS * (1 + recomputed) + BACKWARD_GEMMS;
        double flops = tokens * m.attentionFlopsPerTokenLayer() / l.tp() / (FORWARD_GEMMS + BACKWARD_GEMMS) * passes;
        double gemmBytes = passes * scores * e;
        double gemmS = Math.max(flops / gemmRate, gemmBytes / hbmRate) + passes * kernelS;
        double ewBytes = scores * (forwardBytes(e) * (1 + recomputed) + backwardBytes(e));
        double ewS = ewBytes / hbmRate;
        return new Term.UnfusedAttention(scores, recomputed, flops, gemmRate, gemmBytes, passes, kernelS, gemmS,
                forwardBytes(e), backwardBytes(e), ewBytes, hbmRate, ewS, gemmS + ewS, attentionShare);
    }

    /** Bytes one layer keeps for its backward per micro-batch on one GPU: the softmax and dropout outputs and the mask, (2e + 1)·scores. */
    public static double storedBytes(ModelShape m, Layout l) {
        return (2 * m.dtype().activationBytes() + 1) * scores(m, l);
    }

    /**
     * The score bytes a stage holds at its peak: each held layer's ({@code layersHeld}, in-flight micro-batches counted)
     * when the core is not recomputed, one layer's while it is recomputed in backward; 0 with a flash kernel. A hybrid Mamba
     * model's held layers are its mean layers: only their attention share has scores ({@link MambaLayers#attentionShare}).
     */
    public static double heldBytes(ModelShape m, Layout l, Variants v, double layersHeld, double stageLayers) {
        if (v.attention().kernel() != AttentionKernel.UNFUSED) return 0;
        double r = recomputedShare(l, v.recomputeModules(), stageLayers);
        double k = storedBytes(m, l);
        double share = v.mamba() != null ? v.mamba().attentionShare() : 1;
        return (1 - r) * k * layersHeld * share + (r > 0 ? k : 0);
    }
}
