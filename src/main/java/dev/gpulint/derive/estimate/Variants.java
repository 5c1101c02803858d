package dev.gpulint.derive.estimate;

/**
 * What of a job {@link ModelShape} and {@link Layout} do not hold and the estimate prices: the MoE layers' routing and
 * compute (null for a dense model), the attention variant, the model states the job keeps in host memory
 * ({@link StateOffload}), how the tensor-parallel collectives overlap the GEMMs ({@link TpOverlap}), whether the
 * elementwise kernels run fused or eager ({@link EagerKernels}), how Float8 GEMM inputs are scaled ({@link Float8Scaling}), how
 * the parameters are all-gathered ({@link ParamGather}), which modules selective recompute re-runs ({@link RecomputeModules}),
 * which layers an fp8 recipe keeps in bf16 ({@link LayerPrecision}) and how ZeRO-3 gathers them ({@link ShardedGathers}).
 */
public record Variants(MoeShape moe, AttentionShape attention, StateOffload offload, TpOverlap tpOverlap, EagerKernels kernels,
                       Float8Scaling float8, ParamGather paramGather, RecomputeModules recomputeModules,
                       LayerPrecision layerPrecision, ShardedGathers gathers) {
    public static final Variants NONE = new Variants(null, AttentionShape.FULL);

    public Variants {
        if (attention == null) attention = AttentionShape.FULL;
        if (offload == null) offload = StateOffload.NONE;
        if (tpOverlap == null) tpOverlap = TpOverlap.FAMILY;
        if (kernels == null) kernels = EagerKernels.FUSED;
        if (float8 == null) float8 = Float8Scaling.TENSORWISE;
        if (paramGather == null) paramGather = ParamGather.BF16;
        if (recomputeModules == null) recomputeModules = RecomputeModules.DEFAULT;
        if (layerPrecision == null) layerPrecision = LayerPrecision.UNIFORM;
        if (gathers == null) gathers = ShardedGathers.LAYER;
    }

    /** Selective recompute, when chosen, of Megatron's default module (core_attn), every layer on the job's GEMM path, ZeRO-3's gathers one unit per layer. */
    public Variants(MoeShape moe, AttentionShape attention, StateOffload offload, TpOverlap tpOverlap, EagerKernels kernels,
                    Float8Scaling float8, ParamGather paramGather) {
        this(moe, attention, offload, tpOverlap, kernels, float8, paramGather, RecomputeModules.DEFAULT, LayerPrecision.UNIFORM,
                ShardedGathers.LAYER);
    }

    public Variants(MoeShape moe, AttentionShape attention, StateOffload offload, TpOverlap tpOverlap, EagerKernels kernels,
                    Float8Scaling float8) {
        this(moe, attention, offload, tpOverlap, kernels, float8, ParamGather.BF16);
    }

    /** Per-tensor Float8 scaling ({@link Float8Scaling#TENSORWISE}: what the elementwise term's casts count). */
    public Variants(MoeShape moe, AttentionShape attention, StateOffload offload, TpOverlap tpOverlap, EagerKernels kernels) {
        this(moe, attention, offload, tpOverlap, kernels, Float8Scaling.TENSORWISE);
    }

    /** Elementwise kernels fused ({@link EagerKernels#FUSED}: what the fitted traffic constant stands for). */
    public Variants(MoeShape moe, AttentionShape attention, StateOffload offload, TpOverlap tpOverlap) {
        this(moe, attention, offload, tpOverlap, EagerKernels.FUSED);
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
