package dev.gpulint.derive.estimate;

import dev.gpulint.derive.estimate.Layout.Recompute;

/**
 * What each activation-checkpointing choice keeps and recomputes, per layer: the memory term {@link MemoryModel}
 * reads and the recompute factors {@link Estimator} multiplies its compute terms by.
 * <ul>
 * <li>none and Megatron's selective (with flash attention the same): everything stored, nothing recomputed;</li>
 * <li>full: the layer's input kept, the whole forward run again in backward: 4/3 of the layer's compute, 12 instead of
 *     8 tp collectives (the forward's four again);</li>
 * <li>op (torchtitan {@code mode = "selective"}, {@code selective_ac_option = "op"}; its policy in
 *     torchtitan/distributed/activation_checkpoint.py): the outputs of matmuls, SDPA and tp reduce-scatters are saved,
 *     "except every second mm", and every other op (norms, RoPE, SiLU, products) is recomputed. In a Llama layer the
 *     matmuls run wq, wk, wv, wo, w1, w3, w2: wk, wo and w3 are recomputed (with the all-gathers sequence parallelism
 *     puts before wk and w3: 10 tp collectives), the others kept. Kept per s·b·h at 16 bits (÷ tp except w2's
 *     partial sums): the layer's input 2, wq 2·a·d/h, wv 2·q·d/h, SDPA's output 2·a·d/h, w1 2·ffn/h, w2's output 2
 *     (gated MLP; a GeLU MLP's second matmul is the recomputed one), the two reduce-scatters 2 + 2 with tp > 1.
 *     Recomputed: the three matmuls' forward FLOPs, 2·(h·q·d + a·d·h + h·ffn) per token (about 37 % of the linear
 *     forward for Llama 3 8B), and every elementwise kernel;</li>
 * <li>one layer in n (torchtitan {@code selective_ac_option = "n"}: torchtitan/distributed/activation_checkpoint.py
 *     {@code _apply_layer_sac} counts the blocks it wraps from 1 — the counter is incremented before the test
 *     {@code count % n == 0} — so blocks n, 2n, ... are fully checkpointed): ⌊L/n⌋ of the stage's L layers count as
 *     full, the others as none (⌈L/n⌉ until 2026-12, as if the count started at 0).</li>
 * </ul>
 */
public final class Checkpointing {
    private Checkpointing() {}

    /** Share of a stage's layers that are fully recomputed: 1 for full, ⌊L/n⌋/L for one layer in n, else 0. */
    public static double fullShare(Layout l, double layersPerStage) {
        return switch (l.recompute()) {
            case FULL -> 1;
            case EVERY -> layersPerStage <= 0 ? 0 : Math.min(1, Math.floor(layersPerStage / l.recomputeEvery()) / layersPerStage);
            default -> 0;
        };
    }

    /** Forward FLOPs per token of the matmuls op-level SAC recomputes (wk, wo and the MLP's second of three / last). */
    static double opRecomputedFlopsPerToken(ModelShape m) {
        double h = m.hidden(), ad = (double) m.heads() * m.headDim(), qd = (double) m.kvHeads() * m.headDim();
        return 2 * (h * qd + ad * h + m.topK() * h * m.ffn());
    }

    /** The factor on the linear layers' forward-and-backward FLOPs. */
    public static double linear(ModelShape m, Layout l, double layersPerStage) {
        if (l.recompute() == Recompute.OP) return 1 + opRecomputedFlopsPerToken(m) / (m.linearFlopsPerTokenLayer() / 3) / 3;
        return 1 + fullShare(l, layersPerStage) / 3;
    }

    /** The factor on attention's FLOPs: op-level SAC keeps SDPA's output. */
    public static double attention(Layout l, double layersPerStage) {
        return l.recompute() == Recompute.OP ? 1 : 1 + fullShare(l, layersPerStage) / 3;
    }

    /** The factor on elementwise traffic: op-level SAC recomputes every elementwise op, as full does. */
    public static double elementwise(Layout l, double layersPerStage) {
        return l.recompute() == Recompute.OP ? 4.0 / 3 : 1 + fullShare(l, layersPerStage) / 3;
    }

    /** tp all-gathers and reduce-scatters per layer and micro-batch: 8, 12 recomputed in full, 10 under op-level SAC. */
    public static double tpCollectives(Layout l, double layersPerStage) {
        if (l.recompute() == Recompute.OP) return l.sequenceParallel() ? 10 : 8;
        return 8 + 4 * fullShare(l, layersPerStage);
    }

    /**
     * Bytes per s·b·h one layer keeps under op-level SAC, as {divided by tp, replicated} (16-bit; the caller scales by
     * the activation width), as the class comment counts them.
     */
    static double[] opPerLayer(ModelShape m, Layout l) {
        double h = m.hidden(), ad = (double) m.heads() * m.headDim(), qd = (double) m.kvHeads() * m.headDim();
        boolean sharded = l.sequenceParallel() || l.tp() == 1;
        double split = 2 * (2 * ad + qd) / h + 2.0 * m.topK() * m.ffn() / h + (l.tp() > 1 ? 4 : 0) + (sharded ? 2 : 0);
        double replicated = (m.gatedMlp() ? 2 : 0) + (sharded ? 0 : 2);
        return new double[] {split, replicated};
    }
}
