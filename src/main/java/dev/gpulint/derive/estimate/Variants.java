package dev.gpulint.derive.estimate;

/**
 * What of a job {@link ModelShape} and {@link Layout} do not hold and the estimate prices: the MoE layers' routing and
 * compute (null for a dense model), the attention variant, the model states the job keeps in host memory
 * ({@link StateOffload}), how the tensor-parallel collectives overlap the GEMMs ({@link TpOverlap}), whether the
 * elementwise kernels run fused or eager ({@link EagerKernels}), how Float8 GEMM inputs are scaled ({@link Float8Scaling}), in
 * which precision the parameters are all-gathered ({@link ParamGather}), which modules selective recompute re-runs
 * ({@link RecomputeModules}), which layers an fp8 recipe keeps in bf16 ({@link LayerPrecision}), how ZeRO-3 gathers the
 * parameters ({@link ShardedGathers}), a hybrid Mamba model's layers by kind ({@link MambaLayers}, null for a transformer)
 * whether an interleaved stage's chunk 0 is gathered in the optimizer step ({@link OptimizerStepGather}) and how the tp
 * collectives' activations are laid out ({@link TpLayoutCopy}), the multi-token prediction layers ({@link MtpLayers}, none by default) and which cross-entropy computes the
 * losses ({@link LossKernel}, Megatron-Core's native one by default).
 */
public record Variants(MoeShape moe, AttentionShape attention, StateOffload offload, TpOverlap tpOverlap, EagerKernels kernels,
                       Float8Scaling float8, ParamGather paramGather, RecomputeModules recomputeModules,
                       LayerPrecision layerPrecision, ShardedGathers gathers, MambaLayers mamba, OptimizerStepGather stepGather,
                       TpLayoutCopy tpLayout, MtpLayers mtp, LossKernel loss) {
    public static final Variants NONE = defaults(null);

    /**
     * A variant not stated (null) takes what the fitted constants stand for: full attention, nothing offloaded, the GPU
     * family's tensor-parallel overlap share ({@link TpOverlap#FAMILY}), fused elementwise kernels ({@link EagerKernels#FUSED}:
     * the fitted traffic constant), per-tensor Float8 scaling ({@link Float8Scaling#TENSORWISE}: what the elementwise term's
     * casts count), parameters all-gathered in bf16 ({@link ParamGather#BF16}), selective recompute (when chosen) of
     * Megatron's default module, core_attn ({@link RecomputeModules#DEFAULT}), every layer on the job's GEMM path
     * ({@link LayerPrecision#UNIFORM}), ZeRO-3 gathering one unit per layer ({@link ShardedGathers#LAYER}), chunk 0
     * gathered ahead of its first forward ({@link OptimizerStepGather#OFF}) and tp activations gathered on dim 0
     * ({@link TpLayoutCopy#SBH}: no copy).
     */
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
        if (stepGather == null) stepGather = OptimizerStepGather.OFF;
        if (tpLayout == null) tpLayout = TpLayoutCopy.SBH;
        if (mtp == null) mtp = MtpLayers.NONE;
        if (loss == null) loss = LossKernel.NATIVE;
    }

    /** The variants of a model as the estimate took them before they were stated: MoE layers uniform, full attention. */
    public static Variants of(ModelShape m) {
        return m.experts() > 1 ? defaults(MoeShape.uniform(m)) : NONE;
    }

    /** These variants with the hybrid layers {@code m} (null: none). */
    public Variants withMamba(MambaLayers m) {
        return new Variants(moe, attention, offload, tpOverlap, kernels, float8, paramGather, recomputeModules, layerPrecision, gathers,
                m, stepGather, tpLayout, mtp, loss);
    }

    /** These variants with the MTP layers {@code m} (null: none). */
    public Variants withMtp(MtpLayers m) {
        return new Variants(moe, attention, offload, tpOverlap, kernels, float8, paramGather, recomputeModules, layerPrecision, gathers,
                mamba, stepGather, tpLayout, m, loss);
    }

    /** Every variant at its default (the canonical constructor's, for a null), with {@code moe}'s layers. */
    private static Variants defaults(MoeShape moe) {
        return new Variants(moe, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
    }
}
