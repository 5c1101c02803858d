package dev.gpulint.derive.estimate;

import dev.gpulint.spec.Specs;
import java.util.List;

/**
 * The attention variants that change what attention costs, beyond {@link ModelShape}'s heads, query groups (GQA/MQA) and
 * head dimension (multi-latent attention's projections are the shape's own: {@link LatentAttention}).
 *
 * @param window    sliding-window size in tokens (0: full causal attention on every layer)
 * @param fullEvery every n-th layer keeps full attention, the others the window (0: every layer windowed)
 * @param kernel    the attention kernel the job runs, whose rate the estimate prices it at ({@link AttentionKernel})
 */
public record AttentionShape(long window, long fullEvery, AttentionKernel kernel) {

    public static final AttentionShape FULL = new AttentionShape(0, 0);

    public AttentionShape {
        if (window < 0 || fullEvery < 0) throw new IllegalArgumentException("an attention shape's sizes are not negative");
        if (kernel == null) kernel = AttentionKernel.FUSED;
    }

    /** Run by the fused kernel the family's {@code attention} was set on. */
    public AttentionShape(long window, long fullEvery) {
        this(window, fullEvery, AttentionKernel.FUSED);
    }

    /** The same attention run by kernel {@code k}. */
    public AttentionShape with(AttentionKernel k) {
        return new AttentionShape(window, fullEvery, k);
    }

    /** Layers of {@code layers} that attend within the window: all of them, or all but every n-th (Megatron: layer i full when i mod n = 0). */
    public long windowedLayers(long layers) {
        if (window <= 0) return 0;
        return fullEvery <= 0 ? layers : layers - (layers + fullEvery - 1) / fullEvery;
    }

    /**
     * What a windowed layer's flash attention executes, as a fraction of a full causal layer's: a query at position p
     * attends min(p, w) keys, so a sequence of s attends w·s − w²/2 key pairs instead of s²/2 (w ≥ s: all of them).
     */
    public static double windowFraction(long window, long seq) {
        if (window <= 0 || window >= seq) return 1;
        double w = window, s = seq;
        return (w * s - w * w / 2) / (s * s / 2);
    }

    /** The executed attention of the model's layers together, as a fraction of full causal attention on every layer. */
    public double executedFraction(long layers, long seq) {
        long win = windowedLayers(layers);
        if (win == 0 || layers <= 0) return 1;
        return ((layers - win) + win * windowFraction(window, seq)) / layers;
    }

    /** The attention a job states; what the estimate does not price is named in {@code as}. */
    public static AttentionShape of(Specs.Job j, long seq, List<String> as) {
        Specs.Model m = j.model();
        Specs.Attention a = m == null ? null : m.attention();
        if (a == null) return FULL;
        if (a.sinks() != null && Boolean.TRUE.equals(a.sinks().value())) {
            as.add("attention sinks: one more logit per head and query, not priced (under 1/s of the score FLOPs)");
        }
        long w = a.window() == null || a.window().value() == null ? 0 : Math.max(0, a.window().value());
        long every = a.fullEvery() == null || a.fullEvery().value() == null ? 0 : Math.max(0, a.fullEvery().value());
        if (w <= 0) return FULL;
        AttentionShape s = new AttentionShape(w, every);
        if (w < seq) as.add("sliding-window attention of " + w + " tokens on " + (every > 0 ? "all but every " + ordinal(every) + " layer" : "every layer")
                + String.format(java.util.Locale.ROOT, ": a windowed layer executes %.0f %% of full causal attention at sequence %d", 100 * windowFraction(w, seq), seq));
        return s;
    }

    private static String ordinal(long n) {
        return n == 2 ? "2nd" : n == 3 ? "3rd" : n + "th";
    }
}
