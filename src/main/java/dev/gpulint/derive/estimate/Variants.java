package dev.gpulint.derive.estimate;

/**
 * What of a model's layers {@link ModelShape} does not hold and the estimate prices: the MoE layers' routing and
 * compute (null for a dense model), the attention variant and how the tensor-parallel collectives overlap the GEMMs.
 */
public record Variants(MoeShape moe, AttentionShape attention, TpOverlap tpOverlap) {
    public static final Variants NONE = new Variants(null, AttentionShape.FULL);

    public Variants {
        if (attention == null) attention = AttentionShape.FULL;
        if (tpOverlap == null) tpOverlap = TpOverlap.FAMILY;
    }

    /** Without a stated tensor-parallel overlap: the GPU family's tp_overlap share ({@link TpOverlap#FAMILY}). */
    public Variants(MoeShape moe, AttentionShape attention) {
        this(moe, attention, TpOverlap.FAMILY);
    }

    /** The variants of a model as the estimate took them before they were stated: MoE layers uniform, full attention. */
    public static Variants of(ModelShape m) {
        return m.experts() > 1 ? new Variants(MoeShape.uniform(m), AttentionShape.FULL) : NONE;
    }
}
