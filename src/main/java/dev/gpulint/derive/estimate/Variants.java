package dev.gpulint.derive.estimate;

/**
 * What of a model's layers {@link ModelShape} does not hold and the estimate prices: the MoE layers' routing and
 * compute (null for a dense model) and the attention variant.
 */
public record Variants(MoeShape moe, AttentionShape attention) {
    public static final Variants NONE = new Variants(null, AttentionShape.FULL);

    public Variants {
        if (attention == null) attention = AttentionShape.FULL;
    }

    /** The variants of a model as the estimate took them before they were stated: MoE layers uniform, full attention. */
    public static Variants of(ModelShape m) {
        return m.experts() > 1 ? new Variants(MoeShape.uniform(m), AttentionShape.FULL) : NONE;
    }
}
