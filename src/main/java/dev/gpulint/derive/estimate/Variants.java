package dev.gpulint.derive.estimate;

/**
 * What of a job {@link ModelShape} and {@link Layout} do not hold and the estimate prices: the MoE layers' routing and
 * compute (null for a dense model), the attention variant, and the model states the job keeps in host memory
 * ({@link StateOffload}).
 */
public record Variants(MoeShape moe, AttentionShape attention, StateOffload offload) {
    public static final Variants NONE = new Variants(null, AttentionShape.FULL);

    public Variants {
        if (attention == null) attention = AttentionShape.FULL;
        if (offload == null) offload = StateOffload.NONE;
    }

    /** Nothing offloaded. */
    public Variants(MoeShape moe, AttentionShape attention) {
        this(moe, attention, StateOffload.NONE);
    }

    /** The variants of a model as the estimate took them before they were stated: MoE layers uniform, full attention. */
    public static Variants of(ModelShape m) {
        return m.experts() > 1 ? new Variants(MoeShape.uniform(m), AttentionShape.FULL) : NONE;
    }
}
