package dev.gpulint.derive.estimate;

/**
 * What of a job {@link ModelShape} and {@link Layout} do not hold and the estimate prices: the MoE layers' routing and
 * compute (null for a dense model), the attention variant, the model states the job keeps in host memory
 * ({@link StateOffload}) and how the tensor-parallel collectives overlap the GEMMs ({@link TpOverlap}).
 */
public record Variants(MoeShape moe, AttentionShape attention, StateOffload offload, TpOverlap tpOverlap) {
    public static final Variants NONE = new Variants(null, AttentionShape.FULL);

    public Variants {
        if (attention == null) attention = AttentionShape.FULL;
        if (offload == null) offload = StateOffload.NONE;
        if (tpOverlap == null) tpOverlap = TpOverlap.FAMILY;
    }

    /**
     * Nothing offloaded, and without a stated tensor-parallel overlap: the GPU family's tp_overlap share
     * ({@link TpOverlap#FAMILY}).
     */
    public Variants(MoeShape moe, AttentionShape attention) {
        this(moe, attention, StateOffload.NONE, TpOverlap.FAMILY);
    }

    /** The variants of a model as the estimate took them before they were stated: MoE layers uniform, full attention. */
    public static Variants of(ModelShape m) {
        return m.experts() > 1 ? new Variants(MoeShape.uniform(m), AttentionShape.FULL) : NONE;
    }
}
